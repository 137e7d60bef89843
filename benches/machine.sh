#!/usr/bin/env bash
# What a benchmark page says of the machine that measured it: cores, CPU,
# memory, toolchain and the commit, printed to standard output.
set -euo pipefail
cd "$(dirname "$0")/.."
echo "nproc: $(nproc)"
lscpu | grep -E '^(Model name|Architecture|CPU\(s\)|Thread\(s\) per core|Core\(s\) per socket|L2 cache|L3 cache):' || true
free -g | awk '/^Mem:/ { print "Memory: " $2 " GiB" }'
echo "rustc: $(rustc --version)"
echo "cargo: $(cargo --version)"
echo "rmcp: 3.11.0, tooltable: $(git describe --always --dirty 2>/dev/null || echo unknown)"
