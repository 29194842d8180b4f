// Calls `billing` `get_invoice INV-0001` with the official TypeScript SDK client, declaring the
// MCP Apps extension (`apps`) or not (`plain`), over stdio or Streamable HTTP, and prints one JSON
// document: the protocol, the text blocks of the result and its `_meta`.
//
//     node apps.mjs stdio BINARY apps|plain
//     node apps.mjs http URL apps|plain

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const [kind, target, declare] = process.argv.slice(2);
const capabilities = declare === "apps"
  ? { extensions: { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } } }
  : {};
const transport = kind === "stdio"
  ? new StdioClientTransport({ command: target, stderr: "ignore" })
  : new StreamableHTTPClientTransport(new URL(target));
const client = new Client({ name: "fusion-apps-test", version: "1.0.0" }, { capabilities });
await client.connect(transport);
const result = await client.callTool({ name: "billing", arguments: { action: "get_invoice", id: "INV-0001" } });
if (kind === "http") await transport.terminateSession().catch(() => {});
await client.close();
console.log(JSON.stringify({
  client: "typescript",
  protocol: transport.protocolVersion ?? null,
  texts: result.content.filter((block) => block.type === "text").map((block) => block.text),
  meta: result._meta ?? null,
}));
