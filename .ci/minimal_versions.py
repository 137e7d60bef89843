#!/usr/bin/env python3
"""Resolves every direct dependency of the workspace to the lowest version
its requirement allows, in Cargo.lock, on stable cargo.

`cargo -Z minimal-versions` needs a nightly cargo. This does what
`-Z direct-minimal-versions` does, with `cargo update --precise`: for each
dependency a workspace crate declares from crates.io (normal, build and
dev), it reads the versions the registry's index publishes, and moves the
locked version down to the lowest one cargo accepts: the lowest that
matches the requirement, or, where another crate of the graph asks for more,
the lowest that crate allows (found by bisection: cargo refuses every
version below it and accepts every version above). Passes repeat until
nothing moves, since lowering one crate can free another.

It prints each dependency with its requirement, the version it ends at and,
when that is above the requirement's own minimum, why. Cargo.lock is left
changed: build and test the workspace with it, then restore it
(`git checkout Cargo.lock`). `.ci/run` does that in a target directory of its
own.

    python3 .ci/minimal_versions.py [--manifest-path Cargo.toml]
"""

import argparse
import json
import re
import subprocess
import sys
import urllib.request

INDEX = "https://index.crates.io"


def parse_version(text):
    """(major, minor, patch) of a release, or None for a pre-release."""
    match = re.fullmatch(r"(\d+)\.(\d+)\.(\d+)(\+.*)?", text)
    return tuple(int(part) for part in match.groups()[:3]) if match else None


def parse_partial(text):
    """A version in a requirement, with its missing parts as None."""
    parts = text.split("-")[0].split("+")[0].split(".")
    numbers = [int(part) for part in parts if part not in ("*", "x", "X")]
    return numbers + [None] * (3 - len(numbers))


def caret(partial):
    major, minor, patch = partial
    low = (major, minor or 0, patch or 0)
    if major > 0 or minor is None:
        high = (major + 1, 0, 0)
    elif minor > 0 or patch is None:
        high = (0, minor + 1, 0)
    else:
        high = (0, 0, patch + 1)
    return low, high


def tilde(partial):
    major, minor, patch = partial
    low = (major, minor or 0, patch or 0)
    high = (major + 1, 0, 0) if minor is None else (major, minor + 1, 0)
    return low, high


def matches(requirement, version):
    """Whether `version` satisfies a cargo requirement (`^1.2, <1.5`)."""
    for clause in requirement.split(","):
        clause = clause.strip()
        if clause == "*":
            continue
        operator, text = re.fullmatch(r"(\^|~|=|>=|<=|>|<)?\s*(.+)", clause).groups()
        partial = parse_partial(text)
        if operator in (None, "^"):
            low, high = caret(partial)
            ok = low <= version < high
        elif operator == "~":
            low, high = tilde(partial)
            ok = low <= version < high
        elif operator == "=":
            low, high = tilde(partial) if None in partial else (tuple(partial), None)
            ok = version == low if high is None else low <= version < high
        else:
            bound = tuple(p or 0 for p in partial)
            ok = {
                ">=": version >= bound,
                ">": version > bound,
                "<=": version <= bound,
                "<": version < bound,
            }[operator]
        if not ok:
            return False
    return True


def published(name):
    """The releases of `name` the index lists and has not yanked, in order."""
    lowered = name.lower()
    if len(lowered) <= 2:
        path = f"{len(lowered)}/{lowered}"
    elif len(lowered) == 3:
        path = f"3/{lowered[0]}/{lowered}"
    else:
        path = f"{lowered[:2]}/{lowered[2:4]}/{lowered}"
    with urllib.request.urlopen(f"{INDEX}/{path}", timeout=60) as answer:
        lines = answer.read().decode().splitlines()
    versions = []
    for line in lines:
        entry = json.loads(line)
        version = parse_version(entry["vers"])
        if version and not entry.get("yanked"):
            versions.append(version)
    return sorted(versions)


def text(version):
    return ".".join(str(part) for part in version)


def metadata(manifest):
    out = subprocess.run(
        ["cargo", "metadata", "--format-version", "1", "--manifest-path", manifest],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return json.loads(out)


def direct(meta):
    """Each registry dependency of a workspace crate: (name, requirement) ->
    the locked version it resolves to."""
    packages = {p["id"]: p for p in meta["packages"]}
    nodes = {n["id"]: n for n in meta["resolve"]["nodes"]}
    found = {}
    for member in meta["workspace_members"]:
        package = packages[member]
        resolved = {}
        for dep in nodes[member]["deps"]:
            target = packages[dep["pkg"]]
            resolved.setdefault(target["name"], []).append(target)
        for dependency in package["dependencies"]:
            if dependency.get("path") or not (dependency.get("source") or "").startswith("registry+"):
                continue
            for target in resolved.get(dependency["name"], []):
                version = parse_version(target["version"])
                if version and matches(dependency["req"], version):
                    found[(dependency["name"], dependency["req"])] = version
                    break
    return found


def precise(manifest, name, locked, version):
    """Moves `name` from `locked` to `version` in Cargo.lock; cargo's
    refusal when it will not."""
    run = subprocess.run(
        [
            "cargo", "update", "--manifest-path", manifest, "--quiet",
            "-p", f"{name}@{text(locked)}", "--precise", text(version),
        ],
        capture_output=True,
        text=True,
    )
    return None if run.returncode == 0 else run.stderr.strip()


def lowest(manifest, name, requirement, locked, versions):
    """Moves `name` to the lowest version cargo accepts for `requirement`;
    the version, and cargo's refusal of the one below it, if any."""
    candidates = [v for v in versions if matches(requirement, v) and v <= locked]
    if not candidates or candidates[0] == locked:
        return locked, None
    if precise(manifest, name, locked, candidates[0]) is None:
        return candidates[0], None
    # Every candidate below the lowest accepted one is refused, every one
    # above accepted: bisect, trying each on the lock as it stands.
    low, high = 0, len(candidates) - 1  # refused, accepted
    refusal = None
    current = locked
    while high - low > 1:
        middle = (low + high) // 2
        why = precise(manifest, name, current, candidates[middle])
        if why is None:
            current = candidates[middle]
            high = middle
        else:
            refusal = why
            low = middle
    if current != candidates[high]:
        why = precise(manifest, name, current, candidates[high])
        if why is not None:
            sys.exit(f"cargo refused {name} {text(candidates[high])}, which it accepted before: {why}")
        current = candidates[high]
    return current, refusal


def reason(refusal):
    """The line of cargo's refusal that names who asks for more."""
    if not refusal:
        return ""
    for line in refusal.splitlines():
        if "required by package" in line or "which satisfies dependency" in line:
            return line.strip()
    return refusal.splitlines()[0].strip()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--manifest-path", default="Cargo.toml")
    args = parser.parse_args()
    cache = {}
    settled = {}
    for round_ in range(1, 5):
        moved = False
        for (name, requirement), locked in sorted(direct(metadata(args.manifest_path)).items()):
            if name not in cache:
                cache[name] = published(name)
            version, refusal = lowest(args.manifest_path, name, requirement, locked, cache[name])
            if version != locked:
                moved = True
            settled[(name, requirement)] = (version, refusal)
        if not moved:
            break
        print(f"pass {round_}: versions moved; looking again", file=sys.stderr)
    for (name, requirement), (version, refusal) in sorted(settled.items()):
        floor = next((v for v in cache[name] if matches(requirement, v)), version)
        note = "" if version == floor else f"  (not {text(floor)}: {reason(refusal) or 'another crate asks for more'})"
        print(f"{name} {requirement} -> {text(version)}{note}")


if __name__ == "__main__":
    main()
