#!/usr/bin/env bash
# The official MCP conformance suite against `notes-server serve --http`.
#
#   tests/e2e/conformance.sh SERVER_BINARY
#
# Runs two passes on loopback: the suite's active scenarios (the
# initialize-era revisions) and exactly what the 2026-07-28 revision
# requires. Scenarios that need the suite's own fixture tools, prompts or
# resources are listed, check by check and with the reason, in the
# expected-failures files beside this script; anything else failing, or an
# expected failure that starts passing, fails the run. Prints the counts.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
server="${1:?usage: conformance.sh SERVER_BINARY}"
suite="$root/tools/conformance"
runner=(node --import "$suite/register-fs-shim.mjs" "$suite/node_modules/@modelcontextprotocol/conformance/dist/index.js")
if [ ! -d "$suite/node_modules/@modelcontextprotocol/conformance" ]; then
  echo "conformance.sh: the npm package @modelcontextprotocol/conformance is not installed in $suite; run \`npm ci\` there" >&2
  exit 1
fi

work="$(mktemp -d)"
port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
"$server" serve --http "127.0.0.1:$port" --db "$work/conformance.db" --allow-destructive 2> "$work/server.log" &
pid=$!
trap 'kill $pid 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 50); do
  (echo > "/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
  sleep 0.1
done
url="http://127.0.0.1:$port/mcp"

status=0
run_pass() {
  local name="$1"; shift
  echo "== conformance: $name"
  if ! "${runner[@]}" server --url "$url" -o "$work/$name" "$@" > "$work/$name.txt" 2>&1; then
    status=1
  fi
  sed -n '/=== SUMMARY ===/,$p' "$work/$name.txt"
  python3 - "$work/$name" "$name" <<'PY'
import glob, json, sys
import os, re
passed = failed = skipped = 0
for path in sorted(glob.glob(f"{sys.argv[1]}/*/checks.json")):
    scenario = re.sub(r"-\d{4}-\d{2}-\d{2}T.*$", "", os.path.basename(os.path.dirname(path)).removeprefix("server-"))
    for check in json.load(open(path)):
        status = check.get("status")
        if status == "SUCCESS":
            passed += 1
        elif status in ("FAILURE", "ERROR", "WARNING"):
            failed += 1
            print(f"  {status.lower()} {scenario}:{check.get('id')} ({(check.get('errorMessage') or '')[:140]})")
        else:
            skipped += 1
print(f"counts for {sys.argv[2]}: {passed} checks passed, {failed} failed or warned (each checked against the baseline above), {skipped} skipped or informational")
PY
}

run_pass active --expected-failures "$here/conformance-expected-active.yml"
run_pass 2026-07-28 --requirements 2026-07-28 --expected-failures "$here/conformance-expected-2026-07-28.yml"
exit $status
