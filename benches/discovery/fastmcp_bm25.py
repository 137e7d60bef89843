"""Rank the labelled queries with FastMCP's BM25 search transform.

The catalogue's tools are registered on a FastMCP server (each with the
input schema its parameters describe), the server is given FastMCP's
`BM25SearchTransform`, and each query of the labelled set is asked of its
`search_tools` tool through an in-memory FastMCP client, as a model would
ask it. The ten names it answers, in order, are written as a rankings file
that benches/discovery/quality.py scores the same way as any other ranker's.

    python benches/discovery/fastmcp_bm25.py CATALOGUE QUERIES OUT
"""

import asyncio
import json
import sys
from importlib.metadata import version

from fastmcp import Client, FastMCP
from fastmcp.server.transforms.search import BM25SearchTransform
from fastmcp.tools.base import Tool, ToolResult

TOP = 10

JSON_TYPES = {
    "string": {"type": "string"},
    "integer": {"type": "integer"},
    "number": {"type": "number"},
    "boolean": {"type": "boolean"},
    "string[]": {"type": "array", "items": {"type": "string"}},
    "integer[]": {"type": "array", "items": {"type": "integer"}},
}


class CatalogueTool(Tool):
    """A tool of the catalogue: only its descriptor matters here."""

    async def run(self, arguments):
        return ToolResult(content=[])


def input_schema(tool):
    properties = {}
    for parameter in tool["parameters"]:
        schema = dict(JSON_TYPES[parameter["type"]])
        if "enum" in parameter:
            schema["enum"] = parameter["enum"]
        schema["description"] = parameter["description"]
        properties[parameter["name"]] = schema
    required = [p["name"] for p in tool["parameters"] if p["required"]]
    schema = {"type": "object", "properties": properties}
    if required:
        schema["required"] = required
    return schema


async def rank(tools, queries):
    server = FastMCP("catalogue")
    for tool in tools:
        server.add_tool(
            CatalogueTool(
                name=tool["name"],
                title=tool["title"],
                description=tool["description"],
                parameters=input_schema(tool),
            )
        )
    server.add_transform(BM25SearchTransform(max_results=TOP))
    rankings = {}
    async with Client(server) as client:
        listed = [t.name for t in await client.list_tools()]
        if sorted(listed) != ["call_tool", "search_tools"]:
            raise SystemExit(f"the transform should list its two tools, listed {listed}")
        for query in queries:
            result = await client.call_tool("search_tools", {"query": query["text"]})
            found = result.structured_content
            found = found.get("result", found) if isinstance(found, dict) else found
            rankings[query["id"]] = [t["name"] for t in found]
    return rankings


def main():
    if len(sys.argv) != 4:
        raise SystemExit("usage: fastmcp_bm25.py CATALOGUE QUERIES OUT")
    tools = json.load(open(sys.argv[1], encoding="utf-8"))["tools"]
    queries = json.load(open(sys.argv[2], encoding="utf-8"))["queries"]
    rankings = asyncio.run(rank(tools, queries))
    with open(sys.argv[3], "w", encoding="utf-8") as out:
        json.dump(
            {"ranker": f"FastMCP {version('fastmcp')} BM25SearchTransform", "rankings": rankings},
            out,
            indent=2,
        )
        out.write("\n")


if __name__ == "__main__":
    main()
