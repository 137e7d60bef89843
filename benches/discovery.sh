#!/usr/bin/env bash
# Tool search quality on the labelled set: every ranker answers the queries
# of benches/discovery/queries.json over the tools of
# benches/discovery/tools.json (300 tools in the style of large public MCP
# servers), and benches/discovery/quality.py scores each the same way
# (precision at 1 and 5, recall at 10). The labelled set was written before
# any ranking of ours existed and is kept as it is: change the rankers, not
# the queries.
#
# Rankers so far: FastMCP's BM25 search transform (fastmcp pinned below,
# installed into target/bench-crates/discovery-venv).
#
#   benches/discovery.sh
#
# The rankings and scores are left in target/bench-crates/results/discovery.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)

FASTMCP=4.2.3
data=$repo/benches/discovery
bench=$repo/target/bench-crates
results=$bench/results/discovery
venv=$bench/discovery-venv

if [[ ! -x $venv/bin/python ]] || ! "$venv/bin/python" -c "import importlib.metadata as m, sys; sys.exit(m.version('fastmcp') != '$FASTMCP')" 2>/dev/null; then
    echo "== installing fastmcp $FASTMCP into $venv"
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q "fastmcp==$FASTMCP"
fi

rm -rf "$results"
mkdir -p "$results"
echo "== FastMCP's BM25 search transform"
"$venv/bin/python" "$data/fastmcp_bm25.py" "$data/tools.json" "$data/queries.json" "$results/fastmcp-bm25.json"
echo "== quality"
python3 "$data/quality.py" "$data/queries.json" "$results"/*.json --tsv "$results/run1.tsv"
