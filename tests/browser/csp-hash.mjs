// Keeps the MCP App document's Content-Security-Policy in step with its inline script: the
// policy allows that one script by its SHA-256 hash, so any edit of the script needs a new hash.
//
//   node csp-hash.mjs          rewrites the hash in fusion-runtime/assets/mcp-app.html
//   node csp-hash.mjs --check  exits 1 when the hash is stale (the browser test calls this)
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const DOCUMENT = fileURLToPath(new URL("../../fusion-runtime/assets/mcp-app.html", import.meta.url));
const SCRIPT = /<script>([\s\S]*?)<\/script>/;
const HASH = /'sha256-[^']*'/;

/** The hash source of the document's inline script, e.g. `'sha256-…'`. */
export function scriptHash(html) {
  const script = SCRIPT.exec(html);
  if (!script) throw new Error("the document has no inline <script>");
  return `'sha256-${createHash("sha256").update(script[1], "utf8").digest("base64")}'`;
}

/** The hash source the document's policy names. */
export function declaredHash(html) {
  return HASH.exec(html)?.[0];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const html = readFileSync(DOCUMENT, "utf8");
  const wanted = scriptHash(html);
  if (process.argv.includes("--check")) {
    if (declaredHash(html) !== wanted) {
      console.error(`stale script hash in ${DOCUMENT}: run \`node tests/browser/csp-hash.mjs\` (wanted ${wanted})`);
      process.exit(1);
    }
  } else {
    writeFileSync(DOCUMENT, html.replace(HASH, wanted));
    console.log(`script hash: ${wanted}`);
  }
}
