"""Scale-out check: read-only billing calls through nginx (round-robin over two stateless
billing_server instances) with the official Python client. Every answer must equal the answer
of one instance asked directly, and consecutive requests must alternate between the instances
(the `fusion-instance` response header names the one that answered).

    python3 scale_out.py NGINX_URL DIRECT_URL
"""

import asyncio
import json
import sys

import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

READS = [
    ["billing", {"action": "get_invoice", "id": "INV-0001"}],
    ["billing", {"action": "get_invoice", "id": "INV-0040", "_select": ["id", "status"]}],
    ["billing", {"action": "list_invoices", "status": "overdue", "customer_id": "CUS-007"}],
    ["billing", {"action": "export_invoices", "status": "pending"}],
    ["invoice_stats", {}],
    ["invoice_stats", {"status": "paid"}],
]


async def run(url: str) -> tuple[list[dict], list[str]]:
    instances: list[str] = []

    async def on_response(response: httpx2.Response) -> None:
        if response.request.method == "POST":
            instances.append(response.headers.get("fusion-instance", "?"))

    http = httpx2.AsyncClient(event_hooks={"response": [on_response]})
    results = []
    async with http:
        async with Client(streamable_http_client(url, http_client=http)) as client:
            for _ in range(3):
                for name, arguments in READS:
                    result = await client.call_tool(name, arguments)
                    results.append(result.model_dump(mode="json", by_alias=True, exclude_unset=True))
    return results, instances


async def main(balanced: str, direct: str) -> int:
    through, instances = await run(balanced)
    expected, _ = await run(direct)
    wrong = [i for i, (a, b) in enumerate(zip(through, expected)) if a != b]
    alternating = all(a != b for a, b in zip(instances, instances[1:]))
    served = sorted(set(instances))
    print(json.dumps({"calls": len(through), "wrong": wrong, "instances": instances}))
    if wrong or len(through) != len(expected):
        print(f"scale-out: {len(wrong)} answers through nginx differ from the direct ones", file=sys.stderr)
        return 1
    if len(served) != 2 or not alternating:
        print(f"scale-out: requests did not alternate between two instances: {instances}", file=sys.stderr)
        return 1
    print(f"scale-out: {len(through)} calls, all answers right, requests alternated between {served}")
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv[1], sys.argv[2])))
