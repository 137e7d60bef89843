"""notes-server, driven by the official Python MCP SDK (PyPI `mcp`).

    python python_sdk.py --server target/debug/notes-server \
        --manifest examples/notes-server/tools.json --schemas tests/data/mcp-schema \
        --fixture target/debug/examples/fixture_stdio

Connects over stdio in each of the SDK's modes (`auto`, `legacy`,
`2026-07-28`) and over streamable HTTP; in each: lists the tools page by page
to the end and compares them with the committed manifest; creates, gets,
searches, updates and deletes notes; checks that a delete asks the person
through the SDK's elicitation callback (naming the tool, its consequence and
the arguments) and deletes nothing when they decline or answer false, even
with `confirm: true` from the model; that a client that cannot ask is
refused naming `--confirm-by-argument`, and confirms by argument under it;
that bad arguments are refused naming the field, that a missing note is a
tool error whose data arrives as `structuredContent`, and that an unknown
tool is JSON-RPC -32602. The
SDK validates every `structuredContent` against the tool's `outputSchema`
itself. Then the tools that talk back: `notes_export` must fire the SDK's
progress and logging callbacks, a cancelled `notes_watch` must stop its
handler within one second, and `notes_create` without a title must ask
through the SDK's elicitation callback and use the answer (accepted, and
declined) in every mode. A client with the Tasks extension
(tests/e2e/tasks_client.py) runs `notes_watch` as a task it polls to its
end on 2026-07-28, and as an ordinary call on the initialize era, and a
delete asks for consent through the task's questions: a request over the session on the initialize era,
an input-required round on 2026-07-28; and URL mode, through the
runtime's test fixture (`--fixture`), whose tool asks the person to open a
page; and discovery mode, on the fixture (`--discovery`): the listing, a
search, a found tool called through the call tool, and a tool the policy
hides neither found nor called. Every `tools/list` and `tools/call` message the server sends is
validated against the official schema of the protocol revision it speaks.
Then, over HTTP with bearer tokens (tests/e2e/auth.py), it checks identity:
scopes decide what is listed and called, and every bad token, missing
scope and foreign origin gets its refusal; and limits, counted per token
subject: a caller past its rate is refused saying when to retry while
another is served, and a result over the size limit is refused saying the
change stands. Then it sends malformed input over both transports and
checks that each gets the error the specification names and that the
server keeps serving.

Exits non-zero, listing every failed check, when anything is wrong.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import anyio
import httpx
import jsonschema
import mcp_types
from mcp.client.client import Client
from mcp.client.stdio import StdioServerParameters
from mcp.shared.exceptions import MCPError
import auth
from auth import run_auth, run_limits
from record_http import RecordingProxy
from tasks_client import Tasks

HERE = Path(__file__).resolve().parent
FAILURES: list[str] = []
PASSED = 0


def check(condition: bool, what: str) -> bool:
    global PASSED
    if condition:
        PASSED += 1
    else:
        FAILURES.append(what)
        print(f"  FAIL {what}", flush=True)
    return condition


def wire(model: Any) -> dict[str, Any]:
    return model.model_dump(mode="json", by_alias=True, exclude_none=True)


class Schemas:
    """The official MCP schemas, one validator per (revision, definition)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.validators: dict[tuple[str, str], jsonschema.protocols.Validator] = {}

    def validate(self, revision: str, definition: str, value: Any) -> list[str]:
        """`revision` is a protocol revision, or `tasks` for the Tasks extension's schema."""
        key = (revision, definition)
        if key not in self.validators:
            path = self.root.parent / "mcp-ext-tasks" if revision == "tasks" else self.root / revision
            document = json.loads((path / "schema.json").read_text())
            defs = "$defs" if "$defs" in document else "definitions"
            schema = dict(document)
            schema["$ref"] = f"#/{defs}/{definition}"
            cls = jsonschema.validators.validator_for(document)
            self.validators[key] = cls(schema)
        return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in self.validators[key].iter_errors(value)]


def expected_tools(manifest: Path) -> dict[str, dict[str, Any]]:
    data = json.loads(manifest.read_text())
    return {tool["name"]: tool["descriptor"] for tool in data["tools"]}


async def list_all(client: Client) -> tuple[list[dict[str, Any]], int]:
    tools: list[dict[str, Any]] = []
    cursor = None
    pages = 0
    while True:
        page = await client.list_tools(cursor=cursor, cache_mode="bypass")
        pages += 1
        tools.extend(wire(tool) for tool in page.tools)
        cursor = page.next_cursor
        if not cursor:
            return tools, pages


class Talk:
    """What the server told this client through its callbacks, and how the
    client answers questions (the title it gives, or a refusal; whether the
    person allows a call, or declines the question)."""

    def __init__(self) -> None:
        self.logs: list[Any] = []
        self.questions: list[str] = []
        self.title: str | None = "Asked title"
        self.allow: bool | None = True

    async def on_log(self, params: mcp_types.LoggingMessageNotificationParams) -> None:
        self.logs.append(params.data)

    async def on_elicit(self, context: Any, params: mcp_types.ElicitRequestParams) -> mcp_types.ElicitResult:
        self.questions.append(params.message)
        if params.message.startswith("Allow "):
            if self.allow is None:
                return mcp_types.ElicitResult(action="decline")
            return mcp_types.ElicitResult(action="accept", content={"confirm": self.allow})
        if self.title is None:
            return mcp_types.ElicitResult(action="decline")
        return mcp_types.ElicitResult(action="accept", content={"title": self.title})

    def client(self, target: Any, mode: str) -> Client:
        return Client(
            target,
            mode=mode,
            logging_callback=self.on_log,
            elicitation_callback=self.on_elicit,
            log_level="info",
        )


def text_of(result: dict[str, Any]) -> str:
    return " ".join(block.get("text", "") for block in result.get("content", []) if block.get("type") == "text")


async def talk_back(client: Client, talk: Talk, label: str) -> None:
    """Progress, logs, cancellation and elicitation through the SDK's callbacks."""
    if client.protocol_version not in ("2026-07-28",):
        await client.set_logging_level("info")
    for title in ("Alpha", "Beta", "Gamma"):
        await client.call_tool("notes_create", {"title": title, "body": "for the export"})

    progress: list[tuple[float, float | None]] = []

    async def on_progress(done: float, total: float | None, message: str | None) -> None:
        progress.append((done, total))

    talk.logs.clear()
    exported = wire(await client.call_tool("notes_export", {}, progress_callback=on_progress))
    check(exported.get("isError") is False and "# Gamma" in text_of(exported), f"{label}: notes_export exports the notes")
    check(len(progress) >= 2, f"{label}: the SDK's progress callback fired ({progress})")
    check(bool(progress) and progress[-1][0] == progress[-1][1], f"{label}: the last progress reaches the total ({progress[-1:]})")
    def both_logged() -> bool:
        logged = [str(data) for data in talk.logs]
        return any("exporting" in line for line in logged) and any("exported" in line for line in logged)

    # Over stateful HTTP, logs are not tied to the request: they travel on
    # the session's standalone stream, unordered with the call's response.
    with anyio.move_on_after(2):
        while not both_logged():
            await anyio.sleep(0.02)
    check(both_logged(), f"{label}: the SDK's logging callback fired ({talk.logs})")

    async def watchers() -> int:
        stats = wire(await client.call_tool("notes_stats", {}))
        return stats.get("structuredContent", {}).get("watchers", -1)

    with anyio.move_on_after(10):
        async with anyio.create_task_group() as group:
            group.start_soon(client.call_tool, "notes_watch", {"seconds": 60})
            for _ in range(50):
                if await watchers() == 1:
                    break
                await anyio.sleep(0.05)
            check(await watchers() == 1, f"{label}: notes_watch is waiting")
            group.cancel_scope.cancel()
    started = time.monotonic()
    stopped = False
    while time.monotonic() - started < 1.0:
        if await watchers() == 0:
            stopped = True
            break
        await anyio.sleep(0.02)
    check(stopped, f"{label}: a cancelled notes_watch stopped its handler within one second")

    talk.questions.clear()
    talk.title = "Asked title"
    asked = wire(await client.call_tool("notes_create", {"body": "no title given"}))
    check(asked.get("structuredContent", {}).get("title") == "Asked title", f"{label}: notes_create asked for the title and used the answer ({text_of(asked)!r})")
    check(talk.questions == ["What should the new note be called?"], f"{label}: the SDK's elicitation callback was asked once ({talk.questions})")
    talk.title = None
    declined = wire(await client.call_tool("notes_create", {"body": "declined"}))
    check(declined.get("isError") is True and "no note was created" in text_of(declined), f"{label}: a declined question creates nothing ({text_of(declined)!r})")


async def exercise(client: Client, expected: dict[str, dict[str, Any]], label: str, page_size: int, talk: Talk) -> None:
    tools, pages = await list_all(client)
    names = [tool["name"] for tool in tools]
    check(names == sorted(expected), f"{label}: tools/list gives {names}, expected {sorted(expected)}")
    check(pages == -(-len(expected) // page_size), f"{label}: listed in {pages} pages of at most {page_size}")
    for tool in tools:
        descriptor = expected.get(tool["name"], {})
        for key in ("inputSchema", "outputSchema", "annotations", "description"):
            check(tool.get(key) == descriptor.get(key), f"{label}: {tool['name']} {key} differs from tools.json")

    async def call(name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        return wire(await client.call_tool(name, arguments))

    created = await call("notes_create", {"title": "Milk", "body": "Buy oat milk", "tags": ["shopping"]})
    check(created.get("isError") is False, f"{label}: notes_create succeeds")
    note = created.get("structuredContent", {})
    check(note.get("title") == "Milk" and note.get("tags") == ["shopping"], f"{label}: notes_create returns the note")
    check(json.loads(text_of(created) or "null") == note, f"{label}: the text block holds the same JSON")
    note_id = note.get("id")

    got = await call("notes_get", {"id": note_id})
    check(got.get("structuredContent") == note, f"{label}: notes_get returns the created note")
    found = await call("notes_search", {"query": "oat", "limit": 5})
    check(found.get("structuredContent", {}).get("total", 0) >= 1, f"{label}: notes_search finds it")
    updated = await call("notes_update", {"id": note_id, "title": "Oat milk"})
    check(updated.get("structuredContent", {}).get("title") == "Oat milk", f"{label}: notes_update changes the title")

    talk.questions.clear()
    for allow, why in ((None, "declines"), (False, "answers false")):
        talk.allow = allow
        refused = await call("notes_delete", {"id": note_id, "confirm": True})
        check(text_of(refused) == "The user did not allow notes_delete; nothing was done.", f"{label}: a person who {why} refuses the delete, whatever the model sent: {text_of(refused)!r}")
    asked = talk.questions[:1]
    check(len(talk.questions) == 2 and "deletes the note and its tags for good" in asked[0] and f'"id":{note_id}' in asked[0], f"{label}: the person is asked, naming the tool, its consequence and the arguments ({asked})")
    still = await call("notes_get", {"id": note_id})
    check(still.get("isError") is False, f"{label}: the refused delete deleted nothing")

    bad = await call("notes_get", {"id": "seven"})
    check(bad.get("isError") is True and "`id`" in text_of(bad), f"{label}: bad arguments are refused naming the field: {text_of(bad)!r}")

    try:
        await client.call_tool("notes_burn", {})
        check(False, f"{label}: an unknown tool raises a protocol error")
    except MCPError as error:
        check(error.code == -32602, f"{label}: an unknown tool is JSON-RPC -32602 (got {error.code})")

    talk.allow = True
    deleted = await call("notes_delete", {"id": note_id})
    check(deleted.get("structuredContent") == {"id": note_id}, f"{label}: notes_delete deletes once the person allows it")
    gone = await call("notes_get", {"id": note_id})
    check(gone.get("isError") is True and f"no note with id {note_id}" in text_of(gone), f"{label}: the note is gone")
    check(gone.get("structuredContent") == {"code": "not_found", "id": note_id}, f"{label}: the error carries its data as structuredContent ({gone.get('structuredContent')})")

    await talk_back(client, talk, label)


def validate_recording(log: Path, schemas: Schemas, label: str, at_least: int = 10) -> None:
    """Checks every tools/list and tools/call response against the schema of its revision."""
    methods: dict[Any, tuple[str, str | None]] = {}
    negotiated: str | None = None
    validated = 0
    for line in log.read_text().splitlines():
        tag, _, text = line.partition(" ")
        try:
            message = json.loads(text)
        except json.JSONDecodeError:
            continue
        if tag == "C" and "method" in message and "id" in message:
            meta = (message.get("params") or {}).get("_meta") or {}
            methods[message["id"]] = (message["method"], meta.get("io.modelcontextprotocol/protocolVersion"))
        elif tag == "S" and "id" in message and "method" not in message and message["id"] in methods:
            # A server's own request (elicitation) has an id of its own
            # numbering, which may equal a client's: only responses count.
            method, requested = methods[message["id"]]
            if method == "initialize" and "result" in message:
                negotiated = message["result"].get("protocolVersion")
            if method in ("tasks/get", "tasks/update", "tasks/cancel") and "result" in message:
                definition = {"tasks/get": "GetTaskResult", "tasks/update": "UpdateTaskResult", "tasks/cancel": "CancelTaskResult"}[method]
                errors = schemas.validate("tasks", definition, message["result"])
                check(not errors, f"{label}: {method} response {message['id']} violates the Tasks extension's schema: {errors[:3]}")
                continue
            if method not in ("tools/list", "tools/call"):
                continue
            revision = requested or negotiated
            if revision not in ("2025-06-18", "2025-11-25", "2026-07-28"):
                check(False, f"{label}: cannot tell the revision of {method} response {message.get('id')}")
                continue
            if "result" in message:
                if message["result"].get("resultType") == "task":
                    errors = schemas.validate("tasks", "CreateTaskResult", message["result"])
                    check(not errors, f"{label}: tools/call response {message['id']} violates the Tasks extension's schema: {errors[:3]}")
                    validated += 1
                    continue
                if message["result"].get("resultType") == "input_required":
                    definition = "InputRequiredResult"
                else:
                    definition = "ListToolsResult" if method == "tools/list" else "CallToolResult"
                errors = schemas.validate(revision, definition, message["result"])
            else:
                errors = schemas.validate(revision, "JSONRPCError" if revision == "2025-06-18" else "JSONRPCErrorResponse", message)
            check(not errors, f"{label}: {method} response {message['id']} violates the {revision} schema: {errors[:3]}")
            validated += 1
    check(validated >= at_least, f"{label}: validated {validated} tools/list and tools/call responses")


async def run_stdio(server: Path, expected: dict[str, dict[str, Any]], schemas: Schemas, mode: str, workdir: Path) -> None:
    label = f"stdio/{mode}"
    print(f"== {label}", flush=True)
    log = workdir / f"stdio-{mode}.log"
    db = workdir / f"stdio-{mode}.db"
    params = StdioServerParameters(
        command=sys.executable,
        args=[str(HERE / "record_stdio.py"), str(log), "--", str(server), "serve", "--db", str(db), "--allow-destructive", "--page-size", "2"],
    )
    talk = Talk()
    async with talk.client(params, mode) as client:
        await exercise(client, expected, label, page_size=2, talk=talk)
    validate_recording(log, schemas, label)


async def run_tasks(server: Path, schemas: Schemas, mode: str, workdir: Path) -> None:
    """A client with the Tasks extension: on 2026-07-28 a long call becomes a
    task the client polls to its end, and a delete asks for consent through
    the task; on the initialize era the same calls are ordinary ones."""
    label = f"stdio/{mode}/tasks"
    print(f"== {label}", flush=True)
    log = workdir / f"tasks-{mode}.log"
    params = StdioServerParameters(
        command=sys.executable,
        args=[str(HERE / "record_stdio.py"), str(log), "--", str(server), "serve", "--db", str(workdir / f"tasks-{mode}.db"), "--allow-destructive"],
    )
    talk = Talk()
    tasks = Tasks(talk.on_elicit)
    current = mode == "2026-07-28"
    async with Client(params, mode=mode, elicitation_callback=talk.on_elicit, extensions=[tasks]) as client:
        watched = wire(await client.call_tool("notes_watch", {"seconds": 1}))
        check(watched.get("structuredContent") == {"note": None}, f"{label}: notes_watch answers that nothing changed ({watched})")
        if current:
            check(len(tasks.created) == 1 and tasks.statuses[-1:] == ["completed"], f"{label}: notes_watch ran as a task polled to its end ({tasks.created}, {tasks.statuses})")
        else:
            check(tasks.created == [], f"{label}: on the initialize era the call is an ordinary one ({tasks.created})")

        created = wire(await client.call_tool("notes_create", {"title": "Task", "body": "deleted by a task"}))
        note_id = created.get("structuredContent", {}).get("id")
        talk.questions.clear()
        talk.allow = True
        before = len(tasks.created)
        deleted = wire(await client.call_tool("notes_delete", {"id": note_id}))
        check(deleted.get("structuredContent") == {"id": note_id}, f"{label}: the person allowed the delete, and it ran ({text_of(deleted)!r})")
        check(len(talk.questions) == 1 and talk.questions[0].startswith("Allow notes_delete?"), f"{label}: the person was asked once ({talk.questions})")
        if current:
            check(len(tasks.created) == before + 1 and "input_required" in tasks.statuses, f"{label}: the consent was the task's question, answered through tasks/update ({tasks.statuses})")
        gone = wire(await client.call_tool("notes_get", {"id": note_id}))
        check(gone.get("isError") is True, f"{label}: the note is gone")
    validate_recording(log, schemas, label, at_least=3)


async def cannot_ask(server: Path, workdir: Path, mode: str) -> None:
    """A client without an elicitation callback cannot ask its user: refused
    by default, confirmed by argument under --confirm-by-argument."""
    label = f"stdio/{mode}/cannot-ask"
    print(f"== {label}", flush=True)
    for by_argument in (False, True):
        extra = ["--confirm-by-argument"] if by_argument else []
        params = StdioServerParameters(
            command=str(server),
            args=["serve", "--db", str(workdir / f"cannot-ask-{mode}-{by_argument}.db"), "--allow-destructive", *extra],
        )
        async with Client(params, mode=mode) as client:
            created = wire(await client.call_tool("notes_create", {"title": "Keep", "body": "me"}))
            note_id = created.get("structuredContent", {}).get("id")
            answer = wire(await client.call_tool("notes_delete", {"id": note_id, "confirm": True}))
            still = wire(await client.call_tool("notes_get", {"id": note_id}))
            if by_argument:
                check(answer.get("structuredContent") == {"id": note_id}, f"{label}: under --confirm-by-argument, confirm: true deletes ({text_of(answer)!r})")
                check(still.get("isError") is True, f"{label}: the note is gone")
            else:
                check(answer.get("isError") is True and "cannot ask its user" in text_of(answer) and "--confirm-by-argument" in text_of(answer), f"{label}: refused naming the switch ({text_of(answer)!r})")
                check(still.get("isError") is False, f"{label}: the refused delete deleted nothing")


async def open_a_page(fixture: Path, mode: str) -> None:
    """URL-mode elicitation, which notes-server has no use for: the test
    fixture's items_link_account asks the person to open a page outside the
    client, and learns only whether they agreed."""
    label = f"stdio/fixture/{mode}"
    print(f"== {label}", flush=True)
    asked: list[Any] = []
    action = "accept"

    async def on_elicit(context: Any, params: Any) -> mcp_types.ElicitResult:
        asked.append(params)
        return mcp_types.ElicitResult(action=action)

    async with Client(StdioServerParameters(command=str(fixture)), mode=mode, elicitation_callback=on_elicit) as client:
        agreed = wire(await client.call_tool("items_link_account", {}))
        check(text_of(agreed) == "the person agreed to open the page", f"{label}: an accepted page resumes the handler ({text_of(agreed)!r})")
        page = asked[0] if asked else None
        check(page is not None and page.mode == "url" and page.url == "https://storage.example.test/connect"
              and page.message == "Connect your storage account to keep items there.",
              f"{label}: the SDK's callback was asked to open the page ({page!r})")
        if mode == "legacy":
            check(page is not None and page.elicitation_id == "connect-storage", f"{label}: the initialize era names the elicitation ({page!r})")
        action = "decline"
        declined = wire(await client.call_tool("items_link_account", {}))
        check(text_of(declined) == "the person declined to open the page", f"{label}: a declined page is the handler's to answer ({text_of(declined)!r})")
    async with Client(StdioServerParameters(command=str(fixture)), mode=mode) as client:
        refused = wire(await client.call_tool("items_link_account", {})) if mode == "legacy" else None
        if refused is not None:
            check(refused.get("isError") is True and "URL-mode elicitation" in text_of(refused),
                  f"{label}: a client that cannot open pages is refused saying so ({text_of(refused)!r})")
        else:
            try:
                await client.call_tool("items_link_account", {})
                check(False, f"{label}: a client that cannot open pages is refused")
            except Exception as error:  # the SDK raises the JSON-RPC error
                check("URL-mode elicitation" in str(error), f"{label}: a client that cannot open pages is refused with -32021 saying so ({error})")


async def own_and_through(client: Client, name: str, arguments: dict[str, Any]) -> list[str]:
    """The answers to a call of `name` by its own name and through discovery's call tool."""
    outcomes = []
    for tool, args in ((name, arguments), ("call_tool", {"name": name, "arguments": arguments})):
        try:
            outcomes.append(text_of(wire(await client.call_tool(tool, args))))
        except MCPError as error:
            outcomes.append(f"error {error}")
    return outcomes


async def discovery(fixture: Path, schemas: Schemas, mode: str, workdir: Path) -> None:
    """Discovery mode on the test fixture (`--discovery`): the listing is the
    listed tool and the search and call tools; a search answers full
    descriptors, best first; a found tool is called through the call tool;
    a tool the policy hides (items_destroy, above the served tier) is
    neither found nor callable through the call tool."""
    label = f"stdio/discovery/{mode}"
    print(f"== {label}", flush=True)
    log = workdir / f"discovery-{mode}.log"
    params = StdioServerParameters(command=sys.executable, args=[str(HERE / "record_stdio.py"), str(log), "--", str(fixture), "--discovery"])
    async with Client(params, mode=mode) as client:
        listed = [tool.name for tool in (await client.list_tools()).tools]
        check(listed == ["search_tools", "call_tool", "items_get"], f"{label}: the listing is the search and call tools and the listed tool ({listed})")
        found = wire(await client.call_tool("search_tools", {"query": "create an item"}))
        tools = (found.get("structuredContent") or {}).get("tools", [])
        check(bool(tools) and tools[0].get("name") == "items_create" and "inputSchema" in tools[0],
              f"{label}: a search answers the best tool's full descriptor first ({[t.get('name') for t in tools]})")
        created = wire(await client.call_tool("call_tool", {"name": "items_create", "arguments": {"name": "lamp"}}))
        check(created.get("isError") is False and (created.get("structuredContent") or {}).get("name") == "lamp",
              f"{label}: a found tool is called through the call tool ({created})")
        hidden = wire(await client.call_tool("search_tools", {"query": "destroy an item for good", "limit": 10}))
        names = [t.get("name") for t in (hidden.get("structuredContent") or {}).get("tools", [])]
        check("items_destroy" not in names and bool(names), f"{label}: a tool the policy hides is never found ({names})")
        outcomes = await own_and_through(client, "items_destroy", {"id": 1})
        check(outcomes[0] == outcomes[1] and "items_destroy" in outcomes[0],
              f"{label}: the call tool refuses a hidden tool as its own name does ({outcomes})")
    validate_recording(log, schemas, label, at_least=6)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_http(server: Path, workdir: Path, extra: list[str]) -> tuple[subprocess.Popen, str]:
    port = free_port()
    process = subprocess.Popen(
        [str(server), "serve", "--http", f"127.0.0.1:{port}", *auth.HTTP_FLAGS, "--db", str(workdir / f"http-{port}.db"), "--allow-destructive", *extra],
        stderr=open(workdir / f"http-{port}.log", "w"),
    )
    url = f"http://127.0.0.1:{port}/mcp"
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return process, url
        except OSError:
            time.sleep(0.1)
    process.kill()
    raise RuntimeError(f"notes-server did not start listening on port {port}")


HEADERS_2026 = {"Accept": "application/json, text/event-stream", "MCP-Protocol-Version": "2026-07-28"}
META_2026 = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
    "io.modelcontextprotocol/clientInfo": {"name": "tooltable-e2e", "version": "0"},
}


def post(url: str, body: Any, raw: bytes | None = None) -> httpx.Response:
    """POSTs a message with the 2026-07-28 headers (`Mcp-Method`, `Mcp-Name`) its body implies."""
    headers = {"Content-Type": "application/json", **HEADERS_2026}
    if isinstance(body, dict) and "method" in body:
        headers["Mcp-Method"] = body["method"]
        name = (body.get("params") or {}).get("name")
        if isinstance(name, str):
            headers["Mcp-Name"] = name
    content = raw if raw is not None else json.dumps(body).encode()
    return httpx.post(url, content=content, headers=headers, timeout=10)


def response_json(response: httpx.Response) -> Any:
    text = response.text
    if response.headers.get("content-type", "").startswith("text/event-stream"):
        data = [line[5:].strip() for line in text.splitlines() if line.startswith("data:") and line[5:].strip()]
        return json.loads(data[-1]) if data else None
    return json.loads(text) if text else None


def rpc(method: str, params: dict[str, Any], ident: int) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": ident, "method": method, "params": {**params, "_meta": META_2026}}


def valid_call_works(url: str, label: str, ident: int) -> None:
    answer = response_json(post(url, rpc("tools/call", {"name": "notes_search", "arguments": {"query": "x"}}, ident)))
    check(isinstance(answer, dict) and answer.get("result", {}).get("isError") is False, f"{label}: the server keeps serving ({answer})")


def bad_input_http(url: str, schemas: Schemas, max_bytes: int) -> None:
    label = "http/bad-input"
    print(f"== {label}", flush=True)
    listed = response_json(post(url, rpc("tools/list", {}, 1)))
    errors = schemas.validate("2026-07-28", "ListToolsResult", listed.get("result"))
    check(not errors, f"{label}: a raw 2026-07-28 tools/list validates: {errors[:3]}")
    result = listed.get("result", {})
    check(isinstance(result.get("ttlMs"), int) and result.get("cacheScope") in ("public", "private"), f"{label}: tools/list carries ttlMs and cacheScope")
    called = response_json(post(url, rpc("tools/call", {"name": "notes_get", "arguments": {"id": 1}}, 2)))
    errors = schemas.validate("2026-07-28", "CallToolResult", called.get("result"))
    check(not errors and called["result"].get("resultType") == "complete", f"{label}: a raw tools/call validates and carries resultType: {errors[:3]}")

    malformed = post(url, None, raw=b'{"jsonrpc": "2.0", "id": 3, "method": ')
    body = response_json(malformed) if malformed.headers.get("content-type", "").startswith("application/json") else None
    check(malformed.status_code == 400 and (body or {}).get("error", {}).get("code") == -32700, f"{label}: malformed JSON is a 400 parse error (got {malformed.status_code} {malformed.text[:120]!r})")
    valid_call_works(url, label + " after malformed JSON", 4)

    unknown = response_json(post(url, rpc("tools/explode", {}, 5)))
    check(unknown.get("error", {}).get("code") == -32601, f"{label}: an unknown method is -32601 ({unknown})")
    valid_call_works(url, label + " after an unknown method", 6)

    not_object = response_json(post(url, {"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "notes_get", "arguments": [1, 2], "_meta": META_2026}}))
    check(not_object.get("error", {}).get("code") == -32602, f"{label}: non-object arguments are -32602 ({not_object})")
    valid_call_works(url, label + " after non-object arguments", 8)

    huge = post(url, rpc("tools/call", {"name": "notes_search", "arguments": {"query": "x" * (max_bytes + 1)}}, 9))
    check(huge.status_code == 413 and response_json(huge).get("error", {}).get("code") == -32600, f"{label}: a request over the size limit is 413 with -32600 (got {huge.status_code})")
    valid_call_works(url, label + " after a huge request", 10)

    missing_meta = post(url, {"jsonrpc": "2.0", "id": 11, "method": "tools/list", "params": {}})
    body = response_json(missing_meta)
    check(missing_meta.status_code == 400 and (body or {}).get("error", {}).get("code") == -32602, f"{label}: a 2026-07-28 request without its _meta keys is a 400 with -32602 (got {missing_meta.status_code} {body})")
    valid_call_works(url, label + " after missing _meta", 12)


def bad_input_stdio(server: Path, workdir: Path, max_bytes: int) -> None:
    label = "stdio/bad-input"
    print(f"== {label}", flush=True)
    process = subprocess.Popen(
        [str(server), "serve", "--db", str(workdir / "bad-stdio.db"), "--max-request-bytes", str(max_bytes)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=open(workdir / "bad-stdio.log", "w"),
    )

    def send(line: bytes) -> None:
        process.stdin.write(line + b"\n")
        process.stdin.flush()

    def receive() -> dict[str, Any]:
        return json.loads(process.stdout.readline())

    def valid_call(ident: int, after: str) -> None:
        send(json.dumps(rpc("tools/call", {"name": "notes_search", "arguments": {"query": "x"}}, ident)).encode())
        answer = receive()
        check(answer.get("id") == ident and answer.get("result", {}).get("isError") is False, f"{label}: the server keeps serving after {after} ({answer})")

    try:
        send(b'{"jsonrpc": "2.0", "id": 1, "method": ')
        check(receive().get("error", {}).get("code") == -32700, f"{label}: malformed JSON is a -32700 parse error")
        valid_call(2, "malformed JSON")
        send(json.dumps(rpc("tools/explode", {}, 3)).encode())
        check(receive().get("error", {}).get("code") == -32601, f"{label}: an unknown method is -32601")
        valid_call(4, "an unknown method")
        send(json.dumps({"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "notes_get", "arguments": "x", "_meta": META_2026}}).encode())
        check(receive().get("error", {}).get("code") == -32602, f"{label}: non-object arguments are -32602")
        valid_call(6, "non-object arguments")
        send(json.dumps(rpc("tools/call", {"name": "notes_search", "arguments": {"query": "x" * (max_bytes + 1)}}, 7)).encode())
        answer = receive()
        check(answer.get("error", {}).get("code") == -32600, f"{label}: a line over the size limit is an invalid request, -32600 ({str(answer)[:160]})")
        valid_call(8, "a huge request")
        send(json.dumps({"jsonrpc": "2.0", "id": 9, "method": "tools/list", "params": {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}}}).encode())
        check(receive().get("error", {}).get("code") == -32602, f"{label}: a 2026-07-28 request without clientCapabilities is -32602")
        valid_call(10, "missing _meta")
    finally:
        process.stdin.close()
        process.wait(timeout=10)
    check(process.returncode == 0, f"{label}: the server exits cleanly when stdin closes (code {process.returncode})")


async def run_http(server: Path, expected: dict[str, dict[str, Any]], schemas: Schemas, workdir: Path) -> None:
    max_bytes = 64 * 1024
    process, url = start_http(server, workdir, ["--page-size", "3", "--max-request-bytes", str(max_bytes)])
    try:
        for mode in ("auto", "legacy", "2026-07-28"):
            label = f"http/{mode}"
            print(f"== {label}", flush=True)
            log = workdir / f"http-{mode}.log"
            proxy = RecordingProxy(url, log)
            try:
                talk = Talk()
                async with talk.client(proxy.start(), mode) as client:
                    await exercise(client, expected, label, page_size=3, talk=talk)
            finally:
                proxy.stop()
            validate_recording(log, schemas, label)
        bad_input_http(url, schemas, max_bytes)
    finally:
        process.terminate()
        check(process.wait(timeout=10) == 0, "http: the server exits cleanly on SIGTERM")


def mounted_beside_a_route(server: Path, workdir: Path) -> None:
    """The application's own route answers beside the mounted endpoint."""
    label = "http/mounted"
    print(f"== {label}", flush=True)
    process, url = start_http(server, workdir, [])
    try:
        health = httpx.get(url.removesuffix("/mcp") + "/healthz", timeout=10)
        check(health.status_code == 200 and health.text == "ok", f"{label}: the application's /healthz answers beside /mcp ({health.status_code} {health.text!r})")
        listed = post(url, {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": META_2026}})
        check(listed.status_code == 200 and "tools" in listed.json().get("result", {}), f"{label}: /mcp is the endpoint ({listed.status_code})")
    finally:
        process.terminate()
        check(process.wait(timeout=10) == 0, f"{label}: the application exits cleanly on SIGTERM")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", type=Path, required=True)
    parser.add_argument("--manifest", type=Path, required=True)
    parser.add_argument("--schemas", type=Path, required=True)
    parser.add_argument("--fixture", type=Path, help="the test fixture served on stdio (cargo build -p tooltable-runtime --example fixture_stdio)")
    parser.add_argument("--mounted", action="store_true", help="only the HTTP checks, against the endpoint mounted in an axum application (serve --axum)")
    args = parser.parse_args()
    if not args.mounted and args.fixture is None:
        parser.error("--fixture is needed unless --mounted")
    expected = expected_tools(args.manifest)
    schemas = Schemas(args.schemas)
    with tempfile.TemporaryDirectory(prefix="tooltable-e2e-") as tmp:
        workdir = Path(tmp)
        if args.mounted:
            auth.HTTP_FLAGS.append("--axum")
            mounted_beside_a_route(args.server, workdir)
        else:
            for mode in ("auto", "legacy", "2026-07-28"):
                anyio.run(run_stdio, args.server, expected, schemas, mode, workdir)
            for mode in ("legacy", "2026-07-28"):
                anyio.run(run_tasks, args.server, schemas, mode, workdir)
                anyio.run(cannot_ask, args.server, workdir, mode)
                anyio.run(open_a_page, args.fixture, mode)
                anyio.run(discovery, args.fixture, schemas, mode, workdir)
        anyio.run(run_http, args.server, expected, schemas, workdir)
        anyio.run(run_auth, args.server, workdir, check, Talk().on_elicit)
        anyio.run(run_limits, args.server, workdir, check)
        if not args.mounted:
            bad_input_stdio(args.server, workdir, 64 * 1024)
    print(f"\n{PASSED} checks passed, {len(FAILURES)} failed")
    for failure in FAILURES:
        print(f"  - {failure}")
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
