"""Calls every entry of calls.json on an MCP server over Streamable HTTP with the official Python
client (PyPI `mcp`), and prints one JSON document: the tools listed, each call's result, and
whether the server gave the client a session (an `Mcp-Session-Id` header).

    python3 client.py URL auto|legacy [TOKEN]

`auto` lets the client negotiate (2026-07-28 and stateless when the server offers it); `legacy`
forces the initialize handshake of the earlier revisions (a session, when the server keeps them).
"""

import asyncio
import json
import pathlib
import sys

import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError

CALLS = json.loads((pathlib.Path(__file__).parent / "calls.json").read_text())


async def main(url: str, mode: str, token: str | None) -> None:
    seen = {"session": False, "instances": []}

    async def on_response(response: httpx2.Response) -> None:
        if "mcp-session-id" in response.headers:
            seen["session"] = True
        if "fusion-instance" in response.headers:
            seen["instances"].append(response.headers["fusion-instance"])

    headers = {"Authorization": f"Bearer {token}"} if token else {}
    http = httpx2.AsyncClient(headers=headers, event_hooks={"response": [on_response]},
                              timeout=httpx2.Timeout(30.0, read=60.0))
    results = []
    async with http:
        async with Client(streamable_http_client(url, http_client=http), mode=mode) as client:
            tools = await client.list_tools()
            for name, arguments in CALLS:
                try:
                    result = await client.call_tool(name, arguments)
                except MCPError as error:
                    # A protocol error (an unknown tool): its code and message are compared.
                    results.append({"error": {"code": error.code, "message": error.message}})
                    continue
                results.append(result.model_dump(mode="json", by_alias=True, exclude_unset=True))
            protocol = client.protocol_version
    print(json.dumps({
        "client": "python",
        "protocol": protocol,
        "session": seen["session"],
        "instances": seen["instances"],
        "tools": sorted(tool.name for tool in tools.tools),
        "results": results,
    }))


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else None))
