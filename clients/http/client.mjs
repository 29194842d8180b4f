// Calls every entry of calls.json on an MCP server over Streamable HTTP with the official
// TypeScript SDK client (@modelcontextprotocol/sdk), and prints one JSON document: the tools
// listed, each call's result, and whether the server gave the client a session.
//
//     node client.mjs URL [TOKEN]

import { readFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const [url, token] = process.argv.slice(2);
const calls = JSON.parse(readFileSync(new URL("./calls.json", import.meta.url), "utf8"));

const transport = new StreamableHTTPClientTransport(new URL(url), {
  requestInit: token ? { headers: { Authorization: `Bearer ${token}` } } : {},
});
const client = new Client({ name: "fusion-http-test", version: "1.0.0" });
await client.connect(transport);
const session = transport.sessionId !== undefined;
const tools = await client.listTools();
const results = [];
for (const [name, args] of calls) {
  let result;
  try {
    result = await client.callTool({ name, arguments: args });
  } catch (error) {
    // A protocol error (an unknown tool): its code and message (without the SDK's prefix).
    const prefix = `MCP error ${error.code}: `;
    const message = error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message;
    results.push({ error: { code: error.code, message } });
    continue;
  }
  // The same member set as the Python client's dump: drop what is undefined.
  results.push(JSON.parse(JSON.stringify(result)));
}
await transport.terminateSession().catch(() => {});
await client.close();
console.log(JSON.stringify({
  client: "typescript",
  protocol: transport.protocolVersion ?? null,
  session,
  instances: [],
  tools: tools.tools.map((tool) => tool.name).sort(),
  results,
}));
