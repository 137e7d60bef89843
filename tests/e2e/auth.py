"""notes-server as an OAuth 2.1 resource server, tried from outside.

Keys are generated here (an RSA and a P-256 key, written as a JWKS file) and
tokens minted here with PyJWT. The server is started with `--auth-issuer`,
`--auth-audience` and `--auth-jwks`; the official Python SDK then connects
with a bearer token in both modes and sees only the tools its scopes allow,
while raw requests check each refusal: no token (401 with a challenge naming
the Protected Resource Metadata), bad tokens (401 `invalid_token`), a
missing scope (403 `insufficient_scope` naming it), a foreign `Origin`
(403), and a non-loopback address without authentication (refused at
start, naming the flags). A second server, started with tight limits, shows
that the limits count per token subject in both modes: one caller starting
calls too fast is refused with when to retry while another is served, and a
result over the size limit is refused saying so.
"""

from __future__ import annotations

import json
import socket
import subprocess
import time
from pathlib import Path
from typing import Any, Callable

import httpx
import httpx2
import jwt
from cryptography.hazmat.primitives.asymmetric import ec, rsa
from mcp.client.client import Client
from mcp.client.streamable_http import streamable_http_client

ISSUER = "https://auth.e2e.test"
Check = Callable[[bool, str], bool]


class Keys:
    """An RSA and an EC signing key, and the JWKS of their public halves."""

    def __init__(self) -> None:
        self.rsa = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        self.ec = ec.generate_private_key(ec.SECP256R1())

    def jwks(self) -> dict[str, Any]:
        rsa_jwk = json.loads(jwt.algorithms.RSAAlgorithm.to_jwk(self.rsa.public_key()))
        ec_jwk = json.loads(jwt.algorithms.ECAlgorithm.to_jwk(self.ec.public_key()))
        rsa_jwk.update(kid="rsa-1", alg="RS256", use="sig")
        ec_jwk.update(kid="ec-1", alg="ES256", use="sig")
        return {"keys": [rsa_jwk, ec_jwk]}

    def token(self, audience: str, scope: str, kind: str = "rsa", **changes: Any) -> str:
        now = int(time.time())
        claims: dict[str, Any] = {"iss": ISSUER, "aud": audience, "sub": "e2e", "scope": scope, "exp": now + 600, "nbf": now - 5, "iat": now}
        claims.update(changes)
        if kind == "rsa":
            return jwt.encode(claims, self.rsa, algorithm="RS256", headers={"kid": "rsa-1"})
        return jwt.encode(claims, self.ec, algorithm="ES256", headers={"kid": "ec-1"})


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(port: int, process: subprocess.Popen) -> None:
    for _ in range(100):
        if process.poll() is not None:
            raise RuntimeError(f"notes-server exited with {process.returncode} before listening")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"notes-server did not listen on port {port}")


def rpc(url: str, method: str, params: dict[str, Any], token: str | None = None, origin: str | None = None) -> httpx.Response:
    """A raw 2026-07-28 request, with the headers that revision needs."""
    headers = {
        "Content-Type": "application/json",
        "Accept": "application/json, text/event-stream",
        "MCP-Protocol-Version": "2026-07-28",
        "Mcp-Method": method,
    }
    if "name" in params:
        headers["Mcp-Name"] = params["name"]
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    if origin is not None:
        headers["Origin"] = origin
    meta = {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "tooltable-e2e-auth", "version": "0"},
    }
    body = {"jsonrpc": "2.0", "id": 1, "method": method, "params": {**params, "_meta": meta}}
    return httpx.post(url, content=json.dumps(body).encode(), headers=headers, timeout=10)


# Flags added to every HTTP server started here: `--axum` serves the
# endpoint mounted in an axum application instead of the library's listener.
HTTP_FLAGS: list[str] = []


def serve_with_tokens(server: Path, workdir: Path, name: str, flags: list[str]) -> tuple[Keys, int, str, subprocess.Popen]:
    """notes-server over HTTP trusting fresh keys (written as a JWKS file),
    with `flags` added; its log is `name`.log in `workdir`. Returns the
    keys, the port, the MCP endpoint's URL and the process, listening."""
    keys = Keys()
    jwks = workdir / f"{name}-jwks.json"
    jwks.write_text(json.dumps(keys.jwks()))
    port = free_port()
    url = f"http://127.0.0.1:{port}/mcp"
    process = subprocess.Popen(
        [str(server), "serve", "--http", f"127.0.0.1:{port}", *HTTP_FLAGS, "--db", str(workdir / f"{name}.db"),
         "--auth-issuer", ISSUER, "--auth-audience", url, "--auth-jwks", str(jwks), *flags],
        stderr=open(workdir / f"{name}.log", "w"),
    )
    try:
        wait_for(port, process)
    except RuntimeError:
        process.kill()
        raise
    return keys, port, url, process


async def run_auth(server: Path, workdir: Path, check: Check, elicit: Callable[..., Any]) -> None:
    label = "http/auth"
    print(f"== {label}", flush=True)
    keys, port, url, process = serve_with_tokens(server, workdir, "auth", ["--allow-destructive"])
    metadata_url = f"http://127.0.0.1:{port}/.well-known/oauth-protected-resource/mcp"
    try:
        missing = rpc(url, "tools/list", {})
        check(missing.status_code == 401 and missing.headers.get("www-authenticate") == f'Bearer resource_metadata="{metadata_url}"',
              f"{label}: no token is 401 with a challenge naming the metadata ({missing.status_code} {missing.headers.get('www-authenticate')})")
        metadata = httpx.get(metadata_url, timeout=10)
        check(metadata.status_code == 200 and metadata.json() == {
            "resource": url, "authorization_servers": [ISSUER], "scopes_supported": ["notes.delete", "notes.write"], "bearer_methods_supported": ["header"],
        }, f"{label}: the Protected Resource Metadata names the resource, the issuer and the scopes ({metadata.text})")

        now = int(time.time())
        bad = {
            "expired": keys.token(url, "notes.write", exp=now - 3600),
            "for another resource": keys.token(url, "notes.write", aud="https://elsewhere.e2e.test/mcp"),
            "from another issuer": keys.token(url, "notes.write", "ec", iss="https://evil.e2e.test"),
            "signed with a secret": jwt.encode({"iss": ISSUER, "aud": url, "exp": now + 600}, "a shared secret of thirty-two bytes", algorithm="HS256"),
            "garbage": "not.a.token",
        }
        for why, token in bad.items():
            refused = rpc(url, "tools/list", {}, token)
            challenge = refused.headers.get("www-authenticate", "")
            check(refused.status_code == 401 and 'error="invalid_token"' in challenge and token not in refused.text,
                  f"{label}: a token {why} is 401 invalid_token ({refused.status_code} {challenge})")

        writer = keys.token(url, "notes.write", "ec")
        admin = keys.token(url, "notes.write notes.delete")
        for mode in ("legacy", "2026-07-28"):
            async with httpx2.AsyncClient(headers={"Authorization": f"Bearer {writer}"}) as http:
                async with Client(streamable_http_client(url, http_client=http), mode=mode) as client:
                    names = sorted(tool.name for tool in (await client.list_tools()).tools)
                    check("notes_create" in names and "notes_delete" not in names, f"{label}/{mode}: a token with notes.write lists what it may call ({names})")
                    created = await client.call_tool("notes_create", {"title": "Token", "body": "kept"})
                    check(created.is_error is False, f"{label}/{mode}: the writer creates a note")
            async with httpx2.AsyncClient(headers={"Authorization": f"Bearer {admin}"}) as http:
                async with Client(streamable_http_client(url, http_client=http), mode=mode, elicitation_callback=elicit) as client:
                    names = sorted(tool.name for tool in (await client.list_tools()).tools)
                    check("notes_delete" in names, f"{label}/{mode}: a token with notes.delete lists notes_delete")
                    note = await client.call_tool("notes_create", {"title": "Doomed", "body": "x"})
                    note_id = (note.structured_content or {}).get("id")
                    deleted = await client.call_tool("notes_delete", {"id": note_id})
                    check(deleted.is_error is False, f"{label}/{mode}: the admin deletes once the person allows it")

        forbidden = rpc(url, "tools/call", {"name": "notes_delete", "arguments": {"id": 1}}, writer)
        check(forbidden.status_code == 403 and forbidden.headers.get("www-authenticate") == f'Bearer error="insufficient_scope", scope="notes.delete", resource_metadata="{metadata_url}"',
              f"{label}: a call needing a scope the token lacks is 403 naming it ({forbidden.status_code} {forbidden.headers.get('www-authenticate')})")
        foreign = rpc(url, "tools/list", {}, writer, origin="https://evil.e2e.test")
        check(foreign.status_code == 403, f"{label}: a foreign Origin is 403 ({foreign.status_code})")
        own = rpc(url, "tools/list", {}, writer, origin=f"http://127.0.0.1:{port}")
        check(own.status_code == 200, f"{label}: the server's own loopback Origin is served ({own.status_code})")
    finally:
        process.terminate()
        process.wait(timeout=10)
    log = (workdir / "auth.log").read_text()
    check(writer not in log and admin not in log, f"{label}: no token appears in the server's log")

    exposed = subprocess.run(
        [str(server), "serve", "--http", f"0.0.0.0:{free_port()}", *HTTP_FLAGS, "--db", str(workdir / "exposed.db")],
        capture_output=True, text=True, timeout=30,
    )
    check(exposed.returncode != 0 and "--auth-issuer" in exposed.stderr and "--insecure-no-auth" in exposed.stderr,
          f"{label}: serving beyond loopback without auth is refused at start, naming the flags ({exposed.returncode} {exposed.stderr.strip()[-300:]!r})")


async def run_limits(server: Path, workdir: Path, check: Check) -> None:
    label = "http/limits"
    print(f"== {label}", flush=True)
    keys, _, url, process = serve_with_tokens(server, workdir, "limits", ["--allow-write", "--calls-per-second", "1", "--max-result-bytes", "1024"])
    try:
        for mode in ("legacy", "2026-07-28"):
            # A bucket of two calls that refills at one a second: of four
            # calls in quick succession the first two are served and at
            # least one more is refused (a slow machine may refill one).
            hasty = keys.token(url, "notes.write", sub=f"hasty-{mode}")
            patient = keys.token(url, "notes.write", sub=f"patient-{mode}")
            async with httpx2.AsyncClient(headers={"Authorization": f"Bearer {hasty}"}) as http:
                async with Client(streamable_http_client(url, http_client=http), mode=mode) as client:
                    results = [await client.call_tool("notes_stats", {}) for _ in range(4)]
            refusals = [text.text for result in results[2:] if result.is_error for text in result.content]
            check(not results[0].is_error and not results[1].is_error and refusals and all(refusal.startswith(
                "notes_stats was not started: this caller starts calls faster than this server allows (1 a second); try again in ")
                for refusal in refusals),
                f"{label}/{mode}: a caller past its burst of two is refused saying when to retry ({refusals})")
            async with httpx2.AsyncClient(headers={"Authorization": f"Bearer {patient}"}) as http:
                async with Client(streamable_http_client(url, http_client=http), mode=mode) as client:
                    served = await client.call_tool("notes_create", {"title": "Short", "body": "x"})
                    check(served.is_error is False, f"{label}/{mode}: another caller is served meanwhile")
                    # A created note is echoed back whole, so a long body
                    # makes a result over the limit.
                    oversized = await client.call_tool("notes_create", {"title": "Long", "body": "x" * 2000})
            said = " ".join(part.text for part in oversized.content if hasattr(part, "text"))
            check(oversized.is_error is True and said.startswith("notes_create ran and its changes stand, but its result was ")
                  and said.endswith("bytes, more than this server's limit of 1024 bytes, so it was not sent; do not call it again to make the same change"),
                  f"{label}/{mode}: a result over the size limit is refused saying the change stands ({said!r})")
    finally:
        process.terminate()
        process.wait(timeout=10)
    log = (workdir / "limits.log").read_text()
    check("a result over the size limit was not sent" in log, f"{label}: the oversized result is logged")
