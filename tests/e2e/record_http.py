"""A recording reverse proxy for MCP over streamable HTTP.

`RecordingProxy(upstream).start()` listens on loopback, forwards every
request to `upstream` unchanged, streams the answer back, and records each
JSON-RPC message both ways (`C <json>` from the client, `S <json>` from the
server, reading JSON bodies and SSE `data:` lines), so a test can check
afterwards that every message the server sent validates against the
official schema, exactly as with stdio. A client that hangs up mid-answer
hangs up upstream too: on 2026-07-28, closing a request's connection is how
a client cancels it.
"""

from __future__ import annotations

import http.client
import json
import socket
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlsplit

HOP_BY_HOP = {"connection", "keep-alive", "transfer-encoding", "te", "trailer", "upgrade", "content-length", "host"}


class QuietServer(ThreadingHTTPServer):
    """Clients hang up on idle keep-alive connections when a session ends;
    that is not an error of the proxy, so it is not printed as one."""

    daemon_threads = True

    def handle_error(self, request, client_address) -> None:
        if isinstance(sys.exc_info()[1], (ConnectionResetError, BrokenPipeError)):
            return
        super().handle_error(request, client_address)


class RecordingProxy:
    def __init__(self, upstream: str, log: Path) -> None:
        parts = urlsplit(upstream)
        self.host, self.port, self.path = parts.hostname, parts.port, parts.path
        self.log = log
        self.lock = threading.Lock()
        self.server: QuietServer | None = None

    def record(self, tag: str, payload: bytes) -> None:
        text = payload.decode("utf-8", "replace").strip()
        if not text:
            return
        try:
            messages = json.loads(text)
        except json.JSONDecodeError:
            return
        with self.lock, self.log.open("a", encoding="utf-8") as out:
            for message in messages if isinstance(messages, list) else [messages]:
                out.write(f"{tag} {json.dumps(message)}\n")

    def start(self) -> str:
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: object) -> None:
                pass

            def forward(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                if body:
                    proxy.record("C", body)
                headers = {k: v for k, v in self.headers.items() if k.lower() not in HOP_BY_HOP}
                headers["Host"] = f"{proxy.host}:{proxy.port}"
                upstream = http.client.HTTPConnection(proxy.host, proxy.port, timeout=60)
                upstream.request(self.command, self.path, body=body or None, headers=headers)
                client = self.connection

                def hang_up_with_client() -> None:
                    # A client does not send on a connection while its answer
                    # streams; end of input here means it hung up.
                    try:
                        more = client.recv(1, socket.MSG_PEEK)
                    except OSError:
                        more = b""
                    if not more and upstream.sock is not None:
                        try:
                            upstream.sock.shutdown(socket.SHUT_RDWR)
                        except OSError:
                            pass

                threading.Thread(target=hang_up_with_client, daemon=True).start()
                response = upstream.getresponse()
                self.send_response(response.status)
                for key, value in response.getheaders():
                    if key.lower() not in HOP_BY_HOP:
                        self.send_header(key, value)
                self.send_header("Transfer-Encoding", "chunked")
                self.end_headers()
                sse = response.getheader("Content-Type", "").startswith("text/event-stream")
                captured = b""
                while True:
                    try:
                        chunk = response.read1(65536)
                    except (OSError, http.client.HTTPException):
                        # The client hung up, so the upstream socket was shut down mid-stream.
                        return
                    if not chunk:
                        break
                    captured += chunk
                    if sse:
                        *events, captured = captured.split(b"\n")
                        for line in events:
                            if line.startswith(b"data:"):
                                proxy.record("S", line[5:])
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                    self.wfile.flush()
                if not sse:
                    proxy.record("S", captured)
                self.wfile.write(b"0\r\n\r\n")
                self.wfile.flush()
                upstream.close()

            do_GET = do_POST = do_DELETE = forward

        self.server = QuietServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return f"http://127.0.0.1:{self.server.server_address[1]}{self.path}"

    def stop(self) -> None:
        if self.server is not None:
            self.server.shutdown()
