// The real example servers, spoken to over MCP stdio with the official TypeScript client.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const TARGET = fileURLToPath(new URL("../../target/debug/", import.meta.url));

/** The path of an example binary: `FUSION_<NAME>` (set by `cargo test`), else target/debug. */
export function binary(name) {
  const path = process.env[`FUSION_${name.toUpperCase()}`] || `${TARGET}${name}`;
  if (!existsSync(path)) {
    throw new Error(`${path} is missing: run \`cargo build -p fusion-examples --bins\` first`);
  }
  return path;
}

/** The capability a client that renders MCP Apps declares (the `io.modelcontextprotocol/ui` extension). */
export const APPS = { extensions: { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } } };

/**
 * A connected client of the example server `name` (`billing_server`, `tasks_server`); with
 * `apps`, one that declares the MCP Apps extension, so UI blocks come in `_meta["fusion/ui"]`.
 */
export async function connect(name, { apps = false } = {}) {
  const client = new Client({ name: "fusion-browser-test", version: "0.1.0" }, apps ? { capabilities: APPS } : {});
  await client.connect(new StdioClientTransport({ command: binary(name), stderr: "inherit" }));
  return client;
}
