// Tool-call overhead of MCP over Streamable HTTP ÷ the same call over the REST API, against a running server.
// Both sides run in this one Node process on the same keep-alive HTTP stack: the MCP side through the official
// TypeScript SDK client (@modelcontextprotocol/sdk), the REST side through fetch. Rounds alternate REST and MCP so
// drift on a shared machine hits both; the first rounds are warm-up and not counted.
//
//   node integration-tests/src/test/js/mcp-bench.mjs http://127.0.0.1:8080 "$TOKEN" acme [calls]
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const [base, token, team, callsArg] = process.argv.slice(2);
if (!base || !token || !team) {
  console.error('usage: node mcp-bench.mjs BASE_URL TOKEN TEAM [CALLS_PER_SIDE]');
  process.exit(2);
}
const CALLS = Number(callsArg ?? 400);
const WARMUP = Math.max(20, Math.floor(CALLS / 10));
const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };

const client = new Client({ name: 'cairn-mcp-bench', version: '1.0.0' });
await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers } }));

async function rest(method, path, body) {
  const r = await fetch(`${base}/v1/teams/${team}${path}`, {
    method, headers, body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await r.text();
  if (!r.ok) {
    throw new Error(`${method} ${path}: ${r.status} ${text}`);
  }
  return text;
}

async function tool(name, args) {
  const r = await client.callTool({ name, arguments: { ...args, team } });
  if (r.isError) {
    throw new Error(`${name}: ${r.content[0].text}`);
  }
  return r.content[0].text;
}

// a small corpus, stored through REST (the same for both sides)
const facts = [
  'The team decided to use PostgreSQL 16 for the billing service',
  'Alice prefers dark mode and vim keybindings',
  'CI runs on GitHub Actions with self-hosted runners',
  'Deploys happen on Tuesdays and Thursdays after the standup',
  'The staging cluster lives in eu-west-1',
];
const ids = [];
for (const content of facts) {
  ids.push(JSON.parse(await rest('POST', '/memories', { content, scope: 'team' })).id);
}

const cases = [
  {
    name: 'get a memory',
    rest: (i) => rest('GET', `/memories/${ids[i % ids.length]}`),
    mcp: (i) => tool('get_memory', { id: ids[i % ids.length] }),
  },
  {
    name: 'recall top 3',
    rest: () => rest('POST', '/recall', { query: 'which database for billing?', top_k: 3 }),
    mcp: () => tool('recall', { query: 'which database for billing?', top_k: 3 }),
  },
];

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

console.log(`calls per side: ${CALLS} (+${WARMUP} warm-up), alternating REST and MCP`);
console.log('| call | REST median ms | MCP median ms | MCP ÷ REST (median) | REST mean ms | MCP mean ms | MCP ÷ REST (mean) |');
console.log('|---|---|---|---|---|---|---|');
for (const c of cases) {
  const restMs = [];
  const mcpMs = [];
  for (let i = 0; i < CALLS + WARMUP; i++) {
    let t = performance.now();
    await c.rest(i);
    const r = performance.now() - t;
    t = performance.now();
    await c.mcp(i);
    const m = performance.now() - t;
    if (i >= WARMUP) {
      restMs.push(r);
      mcpMs.push(m);
    }
  }
  const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const f = (x) => x.toFixed(2);
  console.log(`| ${c.name} | ${f(median(restMs))} | ${f(median(mcpMs))} | ${f(median(mcpMs) / median(restMs))} `
    + `| ${f(mean(restMs))} | ${f(mean(mcpMs))} | ${f(mean(mcpMs) / mean(restMs))} |`);
}
for (const id of ids) {
  await rest('DELETE', `/memories/${id}`);
}
await client.close();
