"""The clients' own code as oracles for tooltable's `gemini` and `openai-strict` rules.

    python client_oracles.py MANIFEST
    tooltable check --clients gemini,openai-strict --format json MANIFEST > OURS.json
    python client_oracles.py MANIFEST --compare OURS.json

For each tool of a manifest (tools.json), prints one JSON line per oracle:
`{"tool": ..., "oracle": ..., "accepted": bool, "reason": str}`.

- `google-genai`: Google's Python SDK builds the request's function
  declaration, `types.FunctionDeclaration(name, description, parameters=
  inputSchema)`. `parameters` is its model of the API's `Schema` (an OpenAPI
  3.0 subset, unknown keys forbidden, `type` one enum value, `enum` strings),
  so a schema it refuses never reaches the API. It does not look at names.
- `openai-strict`: the OpenAI Agents SDK turns an MCP tool into a function
  tool with `MCPUtil.to_function_tool(..., convert_schemas_to_strict=True)`:
  it adds a missing `properties`, rewrites the schema for strict mode
  (`ensure_strict_json_schema`), and falls back to non-strict when it cannot.
  A schema is accepted as it is served when the SDK keeps it strict and
  changes nothing (up to the order of `required`).

Neither is a full validator: each decides some rules and not others (KNOWN).
google-genai's own MCP path (`_mcp_utils.mcp_to_gemini_tool`) and
`Schema.from_json_schema` rewrite a JSON Schema for Gemini rather than judge
it, so they are not oracles of the served schema. Needs the PyPI packages
google-genai and openai-agents.

`--compare OURS.json` takes our rules' verdicts, the JSON report of
`tooltable check --clients gemini,openai-strict` on the same manifest, and
exits 1 listing every tool where an oracle and our rules disagree, but for
the known differences of KNOWN below.
"""

from __future__ import annotations

import argparse
import copy
import json
import logging
import os
import re
import sys
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

# The Agents SDK logs why a schema cannot be strict only with tool data logging on.
os.environ["OPENAI_AGENTS_DONT_LOG_TOOL_DATA"] = "0"

from agents.mcp import MCPServerStdio  # noqa: E402
from agents.mcp.util import MCPUtil  # noqa: E402
from google.genai import types as genai  # noqa: E402
from mcp.types import Tool  # noqa: E402
from pydantic import ValidationError  # noqa: E402

Descriptor = dict[str, Any]
Schema = dict[str, Any]

# Our profile whose verdict each oracle is compared with.
PROFILE = {"google-genai": "gemini", "openai-strict": "openai-strict"}


@dataclass(frozen=True)
class Verdict:
    tool: str
    oracle: str
    accepted: bool
    reason: str


def google_genai(descriptor: Descriptor) -> tuple[bool, str]:
    declaration = {
        "name": descriptor["name"],
        "description": descriptor.get("description", ""),
        "parameters": copy.deepcopy(descriptor["inputSchema"]),
    }
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            genai.FunctionDeclaration.model_validate(declaration)
    except ValidationError as error:
        first = error.errors()[0]
        at = "/".join(str(part) for part in first["loc"])
        return False, f"{at}: {first['msg']} ({error.error_count()} error(s))"
    except Exception as error:  # a list `type` fails inside the SDK's enum lookup
        return False, f"{type(error).__name__}: {error}"
    return True, "FunctionDeclaration takes the input schema as its parameters"


# Constructed only, never started: `to_function_tool` reads its settings.
_SERVER = MCPServerStdio(params={"command": "true"}, name="oracle")


class _Messages(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


def openai_strict(descriptor: Descriptor) -> tuple[bool, str]:
    served = descriptor["inputSchema"]
    tool = Tool.model_validate(copy.deepcopy(descriptor))  # as the MCP SDK reads tools/list
    logger = logging.getLogger("openai.agents")
    handler = _Messages()
    logger.addHandler(handler)
    level = logger.level
    logger.setLevel(logging.INFO)
    try:
        function_tool = MCPUtil.to_function_tool(tool, _SERVER, convert_schemas_to_strict=True)
    except Exception as error:
        return False, f"{type(error).__name__}: {error}"
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)
    if not function_tool.strict_json_schema:
        why = next((m for m in handler.messages if "strict" in m), "no reason logged")
        return False, f"not strict: {why}"
    change = first_change(_normal(served), _normal(function_tool.params_json_schema))
    if change is not None:
        return False, f"rewritten for strict mode at `{change}`"
    return True, "strict as served"


ORACLES: dict[str, Callable[[Descriptor], tuple[bool, str]]] = {
    "google-genai": google_genai,
    "openai-strict": openai_strict,
}


def _normal(value: Any) -> Any:
    """`required` as a set, and an empty one as none."""
    if isinstance(value, list):
        return [_normal(v) for v in value]
    if not isinstance(value, dict):
        return value
    out = {k: _normal(v) for k, v in value.items()}
    if isinstance(out.get("required"), list):
        out["required"] = sorted(set(out["required"]))
        if not out["required"]:
            del out["required"]
    return out


def first_change(old: Any, new: Any, at: str = "") -> str | None:
    """The JSON pointer of the first place `new` differs from `old`."""
    if isinstance(old, dict) and isinstance(new, dict):
        for key in sorted(set(old) | set(new)):
            here = f"{at}/{key.replace('~', '~0').replace('/', '~1')}"
            if key not in old or key not in new:
                return here
            if (found := first_change(old[key], new[key], here)) is not None:
                return found
        return None
    if isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        for index, (a, b) in enumerate(zip(old, new)):
            if (found := first_change(a, b, f"{at}/{index}")) is not None:
                return found
        return None
    return None if old == new and type(old) is type(new) else (at or "/")


def nodes(schema: Any) -> Iterator[Schema]:
    """Every schema object under `schema`, itself included."""
    if not isinstance(schema, dict):
        return
    yield schema
    for key, value in schema.items():
        if key in ("properties", "$defs", "definitions", "patternProperties", "dependentSchemas"):
            for child in (value or {}).values():
                yield from nodes(child)
        elif key in ("anyOf", "oneOf", "allOf", "prefixItems"):
            for child in value or []:
                yield from nodes(child)
        elif key in ("items", "additionalProperties", "not", "if", "then", "else", "contains"):
            yield from nodes(value)


def _uses(descriptor: Descriptor, test: Callable[[Schema], bool]) -> bool:
    return any(test(node) for node in nodes(descriptor["inputSchema"]))


def _types(node: Schema) -> list[Any]:
    kind = node.get("type")
    return kind if isinstance(kind, list) else [kind]


@dataclass(frozen=True)
class Known:
    """A documented difference: where `applies` holds and the oracle `accepts`
    (our rules refuse) or refuses (our rules accept), the two may differ."""

    oracle: str
    accepts: bool
    applies: Callable[[Descriptor], bool]
    reason: str


OS5_NOT_POLICED = ("not", "if", "then", "else", "dependentRequired", "dependentSchemas")

KNOWN: list[Known] = [
    Known(
        "google-genai",
        True,
        lambda d: re.fullmatch(r"[A-Za-z_][A-Za-z0-9_.:-]{0,63}", d["name"]) is None,
        "G1: FunctionDeclaration.name is a plain string to the SDK (its docstring says"
        " 'a-z, A-Z, 0-9, _ . : -', a letter or _ first, at most 128)",
    ),
    Known(
        "google-genai",
        True,
        lambda d: _uses(d, lambda n: "additionalProperties" in n),
        "G3 additionalProperties: the SDK's Schema, shared with Vertex AI, has the field;"
        " only its response-schema path refuses a truthy one for the Gemini Developer API",
    ),
    Known(
        "google-genai",
        True,
        lambda d: _uses(
            d, lambda n: ("properties" in n or "required" in n) and "object" not in _types(n)
        ),
        "G5: the SDK's Schema does not relate `properties` or `required` to `type`",
    ),
    Known(
        "google-genai",
        True,
        lambda d: _uses(d, lambda n: "" in (n.get("enum") or [])),
        "G7 empty string: the SDK types `enum` as list[str] and takes ''",
    ),
    Known(
        "openai-strict",
        True,
        lambda d: re.fullmatch(r"[A-Za-z0-9_-]{1,64}", d["name"]) is None,
        "O1: the Agents SDK sends the MCP name as it is (it rewrites names only when"
        " asked to prefix the server's)",
    ),
    Known(
        "openai-strict",
        True,
        lambda d: _uses(d, lambda n: isinstance(n.get("items"), bool)),
        "OS5 boolean subschema: the strict conversion recurses into `items` only when it is"
        " an object and leaves `items: true` as it is (a boolean property schema it refuses);"
        " strict mode asks every schema for a `type`",
    ),
    Known(
        "openai-strict",
        True,
        lambda d: _uses(d, lambda n: "array" in _types(n) and "items" not in n),
        "O5: the strict conversion does not look at `items`",
    ),
    Known(
        "openai-strict",
        True,
        lambda d: _uses(
            d,
            lambda n: any(k in n for k in OS5_NOT_POLICED)
            or ("default" in n and n["default"] is not None)
            or len(n.get("allOf") or []) > 1,
        ),
        "OS5: the strict conversion rewrites structure only; it leaves `not`, `if`/`then`/"
        "`else`, `dependent*`, an `allOf` of several and a non-null `default` in place",
    ),
    Known(
        "openai-strict",
        False,
        lambda d: _uses(d, lambda n: set(n) == {"$ref"}),
        "the Agents SDK's MCP path refuses strict mode for any `$ref` it leaves"
        " (`_reject_open_objects`), its own caution: strict mode takes `$defs` and `$ref`",
    ),
]


def verdicts(manifest: dict[str, Any]) -> list[Verdict]:
    found = []
    for entry in manifest["tools"]:
        descriptor = entry["descriptor"]
        for oracle, judge in ORACLES.items():
            accepted, reason = judge(descriptor)
            found.append(Verdict(descriptor["name"], oracle, accepted, reason))
    return found


def compare(
    found: list[Verdict], ours: dict[str, list[str]], descriptors: dict[str, Descriptor]
) -> tuple[list[str], list[str]]:
    """The disagreements, and the known ones among them."""
    disagree: list[str] = []
    known: list[str] = []
    for verdict in found:
        profile = PROFILE[verdict.oracle]
        ours_accepts = verdict.tool not in ours.get(profile, [])
        if ours_accepts == verdict.accepted:
            continue
        side = "accepts" if verdict.accepted else "refuses"
        line = (
            f"{verdict.tool}: {verdict.oracle} {side} it ({verdict.reason}),"
            f" our `{profile}` rules {'accept' if ours_accepts else 'refuse'} it"
        )
        excuse = next(
            (
                k
                for k in KNOWN
                if k.oracle == verdict.oracle
                and k.accepts == verdict.accepted
                and k.applies(descriptors[verdict.tool])
            ),
            None,
        )
        if excuse is None:
            disagree.append(line)
        else:
            known.append(f"{line}; known: {excuse.reason}")
    return disagree, known


def refused(report: dict[str, Any]) -> dict[str, list[str]]:
    """The tools each profile refuses, from `tooltable check --format json`."""
    found: dict[str, list[str]] = {}
    for problem in report.get("clients", []):
        if problem["level"] == "error":
            found.setdefault(problem["profile"], []).append(problem["tool"])
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("manifest", type=Path)
    parser.add_argument("--compare", type=Path, metavar="OURS.json")
    args = parser.parse_args()
    manifest = json.loads(args.manifest.read_text())
    found = verdicts(manifest)
    for verdict in found:
        print(json.dumps(verdict.__dict__))
    if args.compare is None:
        return 0
    ours = refused(json.loads(args.compare.read_text()))
    descriptors = {t["descriptor"]["name"]: t["descriptor"] for t in manifest["tools"]}
    named = {n for names in ours.values() for n in names}
    unknown = sorted((named - set(descriptors)) | (set(ours) - set(PROFILE.values())))
    if unknown:
        print(f"{args.compare} names what {args.manifest} does not: {unknown}", file=sys.stderr)
        return 2
    disagree, known = compare(found, ours, descriptors)
    for line in known:
        print(f"known difference: {line}", file=sys.stderr)
    for line in disagree:
        print(f"DISAGREE: {line}", file=sys.stderr)
    print(f"{len(known)} verdicts differ where a difference is known", file=sys.stderr)
    print(f"oracles: {len(found) - len(disagree)} passed, {len(disagree)} failed", file=sys.stderr)
    return 1 if disagree else 0


if __name__ == "__main__":
    sys.exit(main())
