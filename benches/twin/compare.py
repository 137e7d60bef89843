"""Checks a notes twin's answers against notes-server's own (benches/peers.sh).

    python3 benches/twin/compare.py list OURS THEIRS SIDE
    python3 benches/twin/compare.py call OURS THEIRS SIDE

OURS and THEIRS are files holding one reply each (plain JSON or an SSE
stream), to `tools/list` or to the call of `notes_get` that peers.sh makes.
A listing must name the same tools with the same descriptions (whitespace
aside: some frameworks join a doc comment's lines), the same annotations,
and input and output schemas with the same properties and descriptions,
and the same required fields in the input. turbomcp (3.6 and 4.0) and pmcp
derive an output schema as schemars derives one for reading a value, so a
field that is `Option` is not required there as it is in the others'
(which describe what the server writes, a null included). The keywords
inside a property are each framework's schema generator's (nullable
types, ranges a framework cannot attach): they are told in each twin's
module doc, not checked here. A call must succeed with the same structured
content. Exits 1 with what differs.
"""

import json
import sys


def reply(path):
    text = open(path, encoding="utf-8").read()
    data = [line[5:].strip() for line in text.splitlines() if line.startswith("data:")]
    data = [d for d in data if d]
    return json.loads(data[-1] if data else text)


def words(text):
    return " ".join((text or "").split())


def shape(schema, required):
    """What a schema says that every framework can say the same way."""
    if not schema:
        return None
    properties = schema.get("properties") or {}
    shape = {"properties": {name: words(p.get("description")) for name, p in properties.items()}}
    if required:
        shape["required"] = sorted(schema.get("required") or [])
    return shape


def tools(message):
    result = message.get("result")
    if not isinstance(result, dict):
        sys.exit(f"no tools/list result: {json.dumps(message)[:400]}")
    return {tool["name"]: tool for tool in result.get("tools", [])}


def compare_lists(ours, theirs, side):
    ours, theirs = tools(ours), tools(theirs)
    problems = []
    if sorted(ours) != sorted(theirs):
        problems.append(f"tools {sorted(theirs)}, not {sorted(ours)}")
    for name in sorted(set(ours) & set(theirs)):
        a, b = ours[name], theirs[name]
        if words(a.get("description")) != words(b.get("description")):
            problems.append(f"{name}: description {b.get('description')!r}")
        hints = lambda tool: {k: v for k, v in (tool.get("annotations") or {}).items() if k.endswith("Hint")}
        if hints(a) != hints(b):
            problems.append(f"{name}: annotations {hints(b)}, not {hints(a)}")
        for key, required in (("inputSchema", True), ("outputSchema", False)):
            if shape(a.get(key), required) != shape(b.get(key), required):
                problems.append(
                    f"{name}: {key} {shape(b.get(key), required)}, not {shape(a.get(key), required)}"
                )
    return problems


def compare_calls(ours, theirs, side):
    def content(message):
        result = message.get("result") or {}
        if result.get("isError") or "structuredContent" not in result:
            sys.exit(f"{side} did not answer notes_get with a note: {json.dumps(message)[:400]}")
        return result["structuredContent"]

    a, b = content(ours), content(theirs)
    return [] if a == b else [f"notes_get answered {b}, not {a}"]


def main():
    kind, ours, theirs, side = sys.argv[1:5]
    compare = compare_lists if kind == "list" else compare_calls
    problems = compare(reply(ours), reply(theirs), side)
    if problems:
        print(f"benches/peers.sh: {side}'s notes twin does not answer {kind} as notes-server does:", file=sys.stderr)
        for problem in problems:
            print(f"  - {problem}", file=sys.stderr)
        sys.exit(1)


main()
