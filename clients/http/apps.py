"""Calls `billing` `get_invoice INV-0001` with the official Python client (PyPI `mcp`), declaring
the MCP Apps extension (`apps`) or not (`plain`), over stdio or Streamable HTTP, and prints one
JSON document: the protocol, the text blocks of the result and its `_meta`.

    python3 apps.py stdio BINARY apps|plain
    python3 apps.py http URL apps|plain
"""

import asyncio
import json
import sys

from mcp import Client, StdioServerParameters
from mcp.client import advertise

UI = "io.modelcontextprotocol/ui"
APP_MIME = "text/html;profile=mcp-app"


async def main(transport: str, target: str, declare: str) -> None:
    server = StdioServerParameters(command=target) if transport == "stdio" else target
    extensions = [advertise(UI, {"mimeTypes": [APP_MIME]})] if declare == "apps" else None
    async with Client(server, extensions=extensions) as client:
        result = await client.call_tool("billing", {"action": "get_invoice", "id": "INV-0001"})
        protocol = client.protocol_version
    dumped = result.model_dump(mode="json", by_alias=True, exclude_unset=True)
    print(json.dumps({
        "client": "python",
        "protocol": protocol,
        "texts": [block["text"] for block in dumped["content"] if block.get("type") == "text"],
        "meta": dumped.get("_meta"),
    }))


asyncio.run(main(*sys.argv[1:4]))
