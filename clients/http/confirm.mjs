// void_invoice's confirmation (an input-required result, SEP-2322) with the official TypeScript
// client (`@modelcontextprotocol/client` 2.x, pinned to the 2026-07-28 revision, whose
// `inputRequired` auto-fulfilment answers through the elicitation handler and calls again with
// the sealed `requestState`), against one URL: a billing_server, or nginx in front of two
// replicas that share the keyring FUSION_STATE_KEYS (scripts/scale-out.sh). The same cases as
// confirm.py: confirmed (asked once, voided; behind nginx the requests reach REPLICAS replicas),
// declined (a NOT_CONFIRMED warning, nothing voided), and a client without the elicitation
// capability (not asked, the call goes on). Prints one JSON line; exits non-zero on a failure.
//
//     node confirm.mjs URL [REPLICAS]
//     node confirm.mjs URL --sessions
//
// With --sessions (a server in rmcp's legacy session mode), the client keeps a 2025 session and
// the server asks over it (`elicitation/create` in the middle of the call), through the same
// elicitation handler.

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

const [url, second] = process.argv.slice(2);
const sessions = second === '--sessions';
const replicas = sessions ? 0 : Number(second ?? 0);
const problems = [];

/** One call of void_invoice; `confirm` true or false answers, null declares no elicitation. */
async function voidInvoice(id, confirm) {
  const instances = [];
  const asked = [];
  const fetchCounting = async (input, init) => {
    const response = await fetch(input, init);
    if ((init?.method ?? 'GET') === 'POST') {
      instances.push(response.headers.get('fusion-instance') ?? '?');
    }
    return response;
  };
  const capabilities = confirm === null ? {} : { elicitation: { form: {} } };
  const client = new Client(
    { name: 'fusion-confirm-ts', version: '1.0.0' },
    { capabilities, versionNegotiation: { mode: sessions ? 'legacy' : { pin: '2026-07-28' } } },
  );
  if (confirm !== null) {
    client.setRequestHandler('elicitation/create', async (request) => {
      asked.push(request.params.message);
      return { action: 'accept', content: { confirm } };
    });
  }
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { fetch: fetchCounting }));
  try {
    const result = await client.callTool({
      name: 'billing',
      arguments: { action: 'void_invoice', id, reason: 'confirm.mjs' },
    });
    const text = result.content.map((block) => block.text ?? '').join(' ');
    return { text, isError: result.isError === true, asked, instances };
  } finally {
    await client.close();
  }
}

const confirmed = await voidInvoice('INV-0011', true);
if (confirmed.text !== 'Invoice INV-0011 voided.'
    || JSON.stringify(confirmed.asked) !== JSON.stringify(['Void INV-0011? This cannot be undone.'])) {
  problems.push(`confirmed: asked ${JSON.stringify(confirmed.asked)}, answered ${JSON.stringify(confirmed.text)}`);
}
const served = new Set(confirmed.instances.filter((name) => name !== '?'));
if (replicas > 1 && served.size < replicas) {
  problems.push(`confirmed: answered by ${[...served].join(', ') || 'no named replica'}, expected ${replicas}`);
}

const declined = await voidInvoice('INV-0013', false);
if (!declined.text.includes('NOT_CONFIRMED') || declined.isError) {
  problems.push(`declined: ${JSON.stringify(declined.text)}`);
}

const unable = await voidInvoice('INV-0014', null);
if (unable.text !== 'Invoice INV-0014 voided.' || unable.asked.length !== 0) {
  problems.push(`without the capability: ${JSON.stringify(unable.text)}`);
}

console.log(JSON.stringify({
  client: 'typescript', sessions, replicas: [...served], asked: [...confirmed.asked, ...declined.asked], problems,
}));
process.exit(problems.length === 0 ? 0 : 1);
