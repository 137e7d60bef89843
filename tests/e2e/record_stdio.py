"""Runs a stdio MCP server and records every line both ways.

    python record_stdio.py LOG -- COMMAND [ARGS...]

Lines from the client are written to LOG as `C <json>`, lines from the server
as `S <json>`, so a test can check afterwards that every message the server
sent validates against the official schema. The server's stderr passes
through untouched.
"""

import subprocess
import sys
import threading


def main() -> int:
    log_path = sys.argv[1]
    command = sys.argv[sys.argv.index("--") + 1 :]
    child = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    log = open(log_path, "a", encoding="utf-8", buffering=1)
    lock = threading.Lock()

    def record(tag: str, line: bytes) -> None:
        with lock:
            log.write(f"{tag} {line.decode('utf-8', 'replace').rstrip()}\n")

    def client_to_server() -> None:
        for line in sys.stdin.buffer:
            record("C", line)
            child.stdin.write(line)
            child.stdin.flush()
        child.stdin.close()

    threading.Thread(target=client_to_server, daemon=True).start()
    for line in child.stdout:
        record("S", line)
        sys.stdout.buffer.write(line)
        sys.stdout.buffer.flush()
    return child.wait()


if __name__ == "__main__":
    sys.exit(main())
