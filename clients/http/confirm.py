"""void_invoice's confirmation (an input-required result, SEP-2322) with the official Python
client, against one URL: a billing_server, or nginx in front of two replicas that share the
keyring FUSION_STATE_KEYS (scripts/scale-out.sh). Prints one JSON line and exits non-zero on
any failure.

- confirmed: the client's elicitation callback answers yes; the retry (which behind nginx lands
  on the other replica) voids the invoice;
- declined: the callback answers no; nothing is voided (a NOT_CONFIRMED warning);
- tampered: the sealed requestState, changed, is refused with a JSON-RPC error;
- without the capability: a client with no elicitation callback is not asked, the call goes on.

    python3 confirm.py URL [REPLICAS]
    python3 confirm.py URL --sessions

With --sessions (a server in rmcp's legacy session mode), the client keeps a session and the
server asks over it (`elicitation/create` in the middle of the call): there is no requestState
to tamper with, so that part is skipped.

With REPLICAS (behind nginx: 2), the confirmed call's requests must have been answered by that
many replicas (the `fusion-instance` header): the answer was opened where it was not sealed.
"""

import asyncio
import json
import sys

import httpx2
from mcp import Client, types
from mcp.client.streamable_http import streamable_http_client

VOID = "void_invoice"


def text(result) -> str:
    return " ".join(block.text for block in result.content if getattr(block, "text", None))


async def main(url: str, replicas: int, sessions: bool = False) -> int:
    mode = "legacy" if sessions else "auto"
    instances: list[str] = []
    asked: list[str] = []
    problems: list[str] = []

    async def on_response(response: httpx2.Response) -> None:
        if response.request.method == "POST":
            instances.append(response.headers.get("fusion-instance", "?"))

    def answering(confirm: bool):
        async def elicit(context, params: types.ElicitRequestParams):
            asked.append(params.message)
            return types.ElicitResult(action="accept", content={"confirm": confirm})

        return elicit

    async def call(invoice: str, elicitation):
        http = httpx2.AsyncClient(event_hooks={"response": [on_response]})
        async with http:
            async with Client(
                streamable_http_client(url, http_client=http),
                elicitation_callback=elicitation,
                mode=mode,
            ) as client:
                return await client.call_tool(
                    "billing", {"action": VOID, "id": invoice, "reason": "confirm.py"}
                )

    # Confirmed: asked once, then voided (the retry may land on another replica).
    first = len(instances)
    result = await call("INV-0002", answering(True))
    confirmed_on = instances[first:]
    if text(result) != "Invoice INV-0002 voided." or asked != ["Void INV-0002? This cannot be undone."]:
        problems.append(f"confirmed: asked {asked}, answered {text(result)!r}")

    # Declined: nothing voided.
    result = await call("INV-0003", answering(False))
    if "NOT_CONFIRMED" not in text(result) or result.is_error:
        problems.append(f"declined: {text(result)!r}")

    # Tampered: drive the rounds by hand and change the state (stateless only).
    http = httpx2.AsyncClient(event_hooks={"response": [on_response]})
    async with http:
        if not sessions:
            async with Client(
                streamable_http_client(url, http_client=http), elicitation_callback=answering(True)
            ) as client:
                arguments = {"action": VOID, "id": "INV-0004", "reason": "confirm.py"}
                pending = await client.session.call_tool("billing", arguments, allow_input_required=True)
                if not isinstance(pending, types.InputRequiredResult):
                    problems.append(f"tampered: the first call did not ask: {pending}")
                else:
                    state = pending.request_state
                    forged = state[:-2] + ("AA" if not state.endswith("AA") else "BB")
                    try:
                        answer = await client.session.call_tool(
                            "billing",
                            arguments,
                            input_responses={"confirm": {"action": "accept", "content": {"confirm": True}}},
                            request_state=forged,
                            allow_input_required=True,
                        )
                        problems.append(f"tampered: the forged state was accepted: {answer}")
                    except Exception as error:  # the JSON-RPC error
                        if "requestState refused" not in str(error):
                            problems.append(f"tampered: unexpected error {error}")

    # Without the capability: not asked, voided.
    before = len(asked)
    result = await call("INV-0005", None)
    if text(result) != "Invoice INV-0005 voided." or len(asked) != before:
        problems.append(f"without elicitation: {text(result)!r}")

    if replicas and len(set(confirmed_on)) != replicas:
        problems.append(f"confirmed: answered by {sorted(set(confirmed_on))}, not {replicas} replicas")
    print(json.dumps({"problems": problems, "confirmed_on": confirmed_on, "asked": asked}))
    for problem in problems:
        print(f"confirm.py: {problem}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sessions = "--sessions" in sys.argv[2:]
    replicas = next((int(arg) for arg in sys.argv[2:] if arg.isdigit()), 0)
    sys.exit(asyncio.run(main(sys.argv[1], replicas, sessions)))
