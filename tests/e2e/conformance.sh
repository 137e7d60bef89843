#!/usr/bin/env bash
# The official MCP conformance suite against conformance-server, the suite's
# fixture built with tooltable (examples/conformance-server).
#
#   tests/e2e/conformance.sh CONFORMANCE_SERVER_BINARY
#
# Starts the server on a free loopback port and runs three passes: the
# scenarios of the 2025-06-18 and 2025-11-25 revisions, and exactly what the
# 2026-07-28 revision requires. Each pass runs with its expected-failures
# file beside this script (conformance-expected-<pass>.yml), which the suite
# holds the run to: a failure or warning not listed there, or a listed one
# that passes, fails the pass. On top of that, every scored scenario must
# pass as SDK tiering counts it (no FAILURE and at least one SUCCESS), unless
# the file lists why not. Prints scenario counts per pass, and for 2026-07-28
# the counts of the scenarios it runs without scoring (the extensions' and
# the pending ones), which are gated the same way.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
server="${1:?usage: conformance.sh CONFORMANCE_SERVER_BINARY}"
suite="$root/tools/conformance"
runner=(node --import "$suite/register-fs-shim.mjs" "$suite/node_modules/@modelcontextprotocol/conformance/dist/index.js")
if [ ! -d "$suite/node_modules/@modelcontextprotocol/conformance" ]; then
  echo "conformance.sh: the npm package @modelcontextprotocol/conformance is not installed in $suite; run \`npm ci\` there" >&2
  exit 1
fi

work="$(mktemp -d)"
"$server" --http 127.0.0.1:0 2> "$work/server.log" &
pid=$!
trap 'kill $pid 2>/dev/null || true; wait $pid 2>/dev/null || true; rm -rf "$work"' EXIT
# The server prints the address it bound (port 0 lets the system choose).
url=""
for _ in $(seq 100); do
  url="$(sed -n 's|^listening on \(http://.*/mcp\)$|\1|p' "$work/server.log")"
  [ -n "$url" ] && break
  if ! kill -0 "$pid" 2>/dev/null; then
    echo "conformance.sh: $server exited before listening:" >&2
    cat "$work/server.log" >&2
    exit 1
  fi
  sleep 0.1
done
if [ -z "$url" ]; then
  echo "conformance.sh: $server did not say where it listens within 10 s" >&2
  exit 1
fi

status=0
# run_pass NAME SELECTION...: one pass of the suite, then the tiering count.
run_pass() {
  local name="$1"; shift
  local expected="$here/conformance-expected-$name.yml"
  echo "== conformance: $name ($*)"
  # The scenarios the pass runs without scoring, by the suite's own listing.
  "${runner[@]}" list --server "$@" > "$work/$name.list"
  local suite_status=0
  "${runner[@]}" server --url "$url" "$@" -o "$work/$name" --expected-failures "$expected" \
    > "$work/$name.txt" 2>&1 || suite_status=$?
  sed -n '/=== SUMMARY ===/,$p' "$work/$name.txt"
  if [ "$suite_status" -ne 0 ]; then
    echo "the suite failed the pass against $(basename "$expected") (exit $suite_status); see above"
    status=1
  fi
  python3 - "$work/$name" "$work/$name.txt" "$work/$name.list" "$expected" "$name" <<'PY' || status=1
import glob, json, os, re, sys
out, stdout, listing, expected_path, name = sys.argv[1:6]

# The scenarios the pass ran, as the suite's summary lists them, less those
# it runs without scoring (under --requirements), as its listing names them.
ran, section = [], None
for line in open(stdout):
    if line.startswith("=== SUMMARY ==="):
        section = ran
    elif line.startswith("Total:") or not line.strip():
        section = None
    elif section is not None and (m := re.match(r"[✓✗] ([^\s:]+):", line)):
        section.append(m[1])
unscored, section = [], None
for line in open(listing):
    if line.startswith("Run and reported, but never scored"):
        section = unscored
    elif section is not None and (m := re.match(r"\s+- (\S+) \[server\]$", line)):
        section.append(m[1])
scored = [scenario for scenario in ran if scenario not in unscored]

# The expected failures: `scenario` or `scenario:check` entries of the server list.
expected, key = set(), None
for line in open(expected_path):
    if m := re.match(r"(\w+):", line):
        key = m[1]
    elif key == "server" and (m := re.match(r"\s*-\s*([^#\s]+)", line)):
        expected.add(m[1])

results = {}
for path in glob.glob(f"{out}/*/checks.json"):
    scenario = os.path.basename(os.path.dirname(path))
    scenario = re.sub(r"-\d{4}-\d{2}-\d{2}T[\d-]+Z$", "", scenario).removeprefix("server-")
    results[scenario] = json.load(open(path))

def count(scenarios, gated):
    """Scenarios passing as SDK tiering counts them; prints what does not:
    every failing check of a gated scenario, one line per other scenario.
    A scenario the suite itself skips whole (every check SKIPPED, as it
    does while its harness is rewritten) is reported, never gated."""
    passed, ok, skipped = 0, True, 0
    for scenario in scenarios:
        checks = results.get(scenario)
        statuses = [c["status"] for c in checks or []]
        tier_pass = "FAILURE" not in statuses and "SUCCESS" in statuses
        passed += tier_pass
        if statuses and all(s == "SKIPPED" for s in statuses):
            skipped += 1
            reason = (checks[0].get("errorMessage") or "").replace("\n", " ")[:160]
            print(f"  {scenario}: the suite skips every check ({reason})")
            continue
        listed = scenario in expected
        bad = [c for c in checks or [] if c["status"] in ("FAILURE", "WARNING")]
        if not gated:
            if not tier_pass:
                print(f"  {scenario} [unscored]: {len(bad)} failing checks of {len(statuses)}")
            continue
        if checks is None or not (bad or tier_pass):
            what = "no results" if checks is None else f"no check succeeded ({', '.join(sorted(set(statuses)))})"
            print(f"  {scenario}: {what} [{'expected' if listed else 'UNEXPECTED'}]")
            ok &= listed
        for check in bad:
            known = listed or f"{scenario}:{check['id']}" in expected
            message = (check.get("errorMessage") or "").replace("\n", " ")[:160]
            print(f"  {scenario}: {check['status']} {check['id']} [{'expected' if known else 'UNEXPECTED'}] {message}")
            ok &= known
    return passed, ok, skipped

scored_passed, ok, _ = count(scored, gated=True)
print(f"{name}: {scored_passed}/{len(scored)} scored scenarios pass (no FAILURE and at least one SUCCESS)")
if unscored:
    # The extension and pending scenarios are held to the same gate.
    unscored_passed, unscored_ok, skipped = count(unscored, gated=True)
    ok &= unscored_ok
    print(f"{name}: {unscored_passed}/{len(unscored)} unscored scenarios pass, gated as the scored ones ({skipped} skipped whole by the suite)")
if not ok:
    print(f"{name}: failures or warnings above are not in {os.path.basename(expected_path)}")
sys.exit(0 if ok else 1)
PY
}

run_pass 2025-06-18 --spec-version 2025-06-18
run_pass 2025-11-25 --spec-version 2025-11-25
run_pass 2026-07-28 --requirements 2026-07-28
if [ "$status" -ne 0 ]; then
  echo "== conformance: FAILED (server log follows)"
  tail -n 50 "$work/server.log"
fi
exit $status
