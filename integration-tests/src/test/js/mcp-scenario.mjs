// Drives Cairn's MCP server with the official TypeScript SDK client (@modelcontextprotocol/sdk, pinned in
// integration-tests' package-lock.json): initialize, list tools, call every tool, a remembered fact recalled from a
// later MCP session, and the errors an agent must be able to read (bad arguments, another team, a secret).
// McpClientIT runs it once over Streamable HTTP and once over stdio; it prints one line per check and exits 1 when
// any failed.
//
//   node mcp-scenario.mjs '{"transport":"http","url":"http://127.0.0.1:8080/mcp","token":"..."}'
//   node mcp-scenario.mjs '{"transport":"stdio","command":"java","args":["-jar","quarkus-run.jar","mcp",...]}'
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const config = JSON.parse(process.argv[2]);
const TEAM = config.team;
const STRICT = config.strictTeam;
const OTHER = config.otherTeam;
const SECRET = 'ghp_' + 'R8kLm2Qw9ZxT4vBn6YpJ3sDf7HgK1cAe5UoI';

let passed = 0;
let failed = 0;

function check(name, ok, detail) {
  if (ok) {
    passed++;
    console.log(`ok - ${name}`);
  } else {
    failed++;
    console.log(`not ok - ${name}${detail === undefined ? '' : ': ' + detail}`);
  }
}

async function connect(label) {
  const client = new Client({ name: `cairn-it-${label}`, version: '1.0.0' });
  const transport = config.transport === 'http'
    ? new StreamableHTTPClientTransport(new URL(config.url), {
        requestInit: { headers: { Authorization: `Bearer ${config.token}` } },
      })
    : new StdioClientTransport({ command: config.command, args: config.args, stderr: 'inherit' });
  await client.connect(transport);
  return client;
}

/** Calls a tool; answers {error, json, problem, text} — json for a success, problem for a tool error. */
async function call(client, name, args) {
  const r = await client.callTool({ name, arguments: args });
  const text = r.content?.[0]?.text ?? '';
  let parsed = null;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: reported by the checks that need it
  }
  return r.isError ? { error: true, problem: parsed, text } : { error: false, json: parsed, text };
}

const EXPECTED_TOOLS = [
  'remember', 'recall', 'get_memory', 'update_memory', 'forget', 'list_memories',
  'session_append', 'session_context', 'session_end',
  'tool_cache_lookup', 'tool_cache_store', 'sync_status', 'sync_conflicts',
];

async function firstSession() {
  const client = await connect('first');
  const server = client.getServerVersion();
  check('initialize names the server', server?.name === 'cairn', JSON.stringify(server));
  check('initialize offers tools', !!client.getServerCapabilities()?.tools);

  const { tools } = await client.listTools();
  const names = tools.map((t) => t.name);
  for (const expected of EXPECTED_TOOLS) {
    check(`tools/list has ${expected}`, names.includes(expected), names.join(','));
  }
  const recallTool = tools.find((t) => t.name === 'recall');
  check('recall has a description for the agent', (recallTool?.description ?? '').length > 40);
  check('recall requires query in its JSON schema',
    recallTool?.inputSchema?.type === 'object' && (recallTool.inputSchema.required ?? []).includes('query'),
    JSON.stringify(recallTool?.inputSchema));

  // remember → get → update (with version) → list
  const fact = 'The team decided to use PostgreSQL 16 for the billing service';
  const remembered = await call(client, 'remember',
    { content: fact, type: 'decision', scope: 'team', tags: ['billing'], importance: 0.8, team: TEAM });
  check('remember stores the memory', !remembered.error && remembered.json?.content === fact, remembered.text);
  const id = remembered.json?.id;
  const got = await call(client, 'get_memory', { id, team: TEAM });
  check('get_memory reads it', !got.error && got.json?.id === id && got.json?.version === 1,
    got.text);
  // a minute ago: recent, so the later session's recall still ranks this fact by relevance, not by its age
  const when = new Date(Date.now() - 60_000).toISOString();
  const updated = await call(client, 'update_memory',
    { id, version: 1, importance: 0.9, occurred_at: when, evidence: ['msg-7'], team: TEAM });
  check('update_memory with the version read changes it, occurred_at and evidence too (as PATCH does)',
    !updated.error && updated.json?.importance === 0.9 && updated.json?.version === 2
      && Date.parse(updated.json?.occurred_at) === Date.parse(when)
      && JSON.stringify(updated.json?.evidence) === '["msg-7"]', updated.text);
  const stale = await call(client, 'update_memory', { id, version: 1, importance: 0.1, team: TEAM });
  check('update_memory with a stale version is a tool error with the problem (412)',
    stale.error && stale.problem?.status === 412 && typeof stale.problem?.detail === 'string', stale.text);
  // an argument the tool does not declare is refused, not dropped: nothing changes
  const withContext = await call(client, 'update_memory', { id, version: 2, context: 'the reply', team: TEAM });
  check('update_memory with a context is a tool error naming it (400), the memory unchanged',
    withContext.error && withContext.problem?.status === 400 && /context/.test(withContext.problem?.detail ?? '')
      && /remember/.test(withContext.problem?.detail ?? ''), withContext.text);
  const typo = await call(client, 'update_memory', { id, version: 2, importnce: 0.2, team: TEAM });
  check('update_memory with a misspelt argument is a tool error listing the arguments it takes',
    typo.error && typo.problem?.status === 400 && /importnce/.test(typo.problem?.detail ?? '')
      && /importance/.test(typo.problem?.detail ?? ''), typo.text);
  const unchanged = await call(client, 'get_memory', { id, team: TEAM });
  check('after the refused calls the memory is still at version 2', unchanged.json?.version === 2
    && unchanged.json?.importance === 0.9, unchanged.text);
  const listed = await call(client, 'list_memories', { scope: 'team', order: 'importance', team: TEAM });
  check('list_memories lists it', !listed.error && listed.json?.memories?.some((m) => m.id === id), listed.text);

  // resources
  const templates = await client.listResourceTemplates();
  const uris = templates.resourceTemplates.map((t) => t.uriTemplate);
  check('resource templates for a memory and a session',
    uris.includes('cairn://teams/{team}/memories/{id}') && uris.includes('cairn://teams/{team}/sessions/{session}'),
    uris.join(','));
  const resource = await client.readResource({ uri: `cairn://teams/${TEAM}/memories/${id}` });
  check('resources/read answers the memory', JSON.parse(resource.contents[0].text).id === id,
    JSON.stringify(resource));

  // sessions: append, context with its cache plan, end → extracted
  const session = `mcp-${config.transport}-${Date.now()}`;
  for (const [role, content] of [
    ['user', 'I always prefer tabs over spaces in Go code.'],
    ['assistant', 'Noted: tabs in Go code.'],
    ['user', 'Our staging database runs on port 6543.'],
  ]) {
    const appended = await call(client, 'session_append', { session, role, content, team: TEAM });
    check(`session_append (${role})`, !appended.error && typeof appended.json?.message_id === 'string',
      appended.text);
  }
  const context = await call(client, 'session_context', { session, query: 'code style', max_tokens: 2000, team: TEAM });
  check('session_context answers blocks and the prompt-cache plan',
    !context.error && Array.isArray(context.json?.blocks) && context.json.blocks.length > 0
      && typeof context.json?.prompt_cache?.breakpoints === 'number', context.text);
  const preview = await call(client, 'session_context', { session, max_tokens: 2000, snapshot: false, team: TEAM });
  check('session_context with snapshot: false previews the same turn',
    !preview.error && preview.json?.turn === context.json?.turn, preview.text);
  const sessionResource = await client.readResource({ uri: `cairn://teams/${TEAM}/sessions/${session}` });
  check('resources/read answers the session', JSON.parse(sessionResource.contents[0].text).message_count === 3,
    JSON.stringify(sessionResource));
  const ended = await call(client, 'session_end', { session, team: TEAM });
  check('session_end answers what was extracted and skipped',
    !ended.error && Array.isArray(ended.json?.extracted) && Array.isArray(ended.json?.skipped)
      && ended.json.extracted.length + ended.json.skipped.length > 0, ended.text);

  // tool-result cache: stored once, found again whatever the key order and number spelling
  const cacheSession = `${session}-cache`;
  const stored = await call(client, 'tool_cache_store', {
    session: cacheSession, tool: 'read_file', params: { path: '/srv/app.conf', lines: 10 },
    result: { text: 'port = 8080' }, ttl_seconds: 600, team: TEAM,
  });
  check('tool_cache_store keeps the result', !stored.error && typeof stored.json?.key === 'string', stored.text);
  const hit = await call(client, 'tool_cache_lookup',
    { session: cacheSession, tool: 'read_file', params: { lines: 10.0, path: '/srv/app.conf' }, team: TEAM });
  check('tool_cache_lookup hits with the result', !hit.error && hit.json?.hit === true
    && hit.json?.result?.text === 'port = 8080', hit.text);
  const miss = await call(client, 'tool_cache_lookup',
    { session: cacheSession, tool: 'read_file', params: { path: '/srv/other.conf' }, team: TEAM });
  check('tool_cache_lookup misses another call', !miss.error && miss.json?.hit === false
    && miss.json?.reason === 'miss', miss.text);

  // team sync, read side
  const status = await call(client, 'sync_status', { team: TEAM });
  check('sync_status answers the team version', !status.error && status.json?.team === TEAM
    && typeof status.json?.version === 'number' && status.json?.open_conflicts === 0, status.text);
  const conflicts = await call(client, 'sync_conflicts', { team: TEAM });
  check('sync_conflicts answers a list', !conflicts.error && Array.isArray(conflicts.json?.conflicts),
    conflicts.text);

  // errors an agent must be able to read, and the session survives each
  const badType = await call(client, 'remember', { content: 'x', type: 'opinion', team: TEAM });
  check('a bad argument is a tool error naming the field (400)', badType.error && badType.problem?.status === 400
    && JSON.stringify(badType.problem?.errors ?? badType.problem?.detail).includes('type'), badType.text);
  // the JSON type and presence of arguments: a problem document as for every other refusal, not the library's text
  const missingQuery = await call(client, 'recall', { top_k: 3, team: TEAM });
  check('a missing required argument is a tool error naming it in the problem (400)',
    missingQuery.error && missingQuery.problem?.status === 400
      && missingQuery.problem?.errors?.some((e) => e.field === 'query' && /required/.test(e.message)),
    missingQuery.text);
  const wrongType = await call(client, 'remember', { content: 'x', importance: 'high', top: 1, team: TEAM });
  check('an undeclared argument is named first (400)', wrongType.error && wrongType.problem?.status === 400
    && /top/.test(wrongType.problem?.detail ?? ''), wrongType.text);
  const wrongTypes = await call(client, 'remember', { content: 'x', importance: 'high', tags: 'go', team: TEAM });
  check('arguments of the wrong JSON type are one problem listing each (400)',
    wrongTypes.error && wrongTypes.problem?.status === 400
      && wrongTypes.problem?.errors?.some((e) => e.field === 'importance' && /a number, not a string/.test(e.message))
      && wrongTypes.problem?.errors?.some((e) => e.field === 'tags' && /an array/.test(e.message)),
    wrongTypes.text);
  const fraction = await call(client, 'recall', { query: 'databases', top_k: 2.5, team: TEAM });
  check('a fraction for a whole-number argument is refused (400)',
    fraction.error && fraction.problem?.errors?.some((e) => e.field === 'top_k'), fraction.text);
  const otherTeam = await call(client, 'remember', { content: 'a note for another team', team: OTHER });
  check('another team is a tool error (403)', otherTeam.error && otherTeam.problem?.status === 403, otherTeam.text);
  const badTeam = await call(client, 'list_memories', { team: '../etc' });
  check('a team that is not an id is refused (400)', badTeam.error && badTeam.problem?.status === 400, badTeam.text);
  const secret = await call(client, 'remember', { content: `the deploy token is ${SECRET}`, team: STRICT });
  check('a secret is refused with findings, never echoed (422)', secret.error && secret.problem?.status === 422
    && secret.problem?.findings?.[0]?.rule_id === 'github-pat' && !secret.text.includes(SECRET), secret.text);
  const nothingStored = await call(client, 'list_memories', { team: STRICT });
  check('the refused secret stored nothing', !nothingStored.error && nothingStored.json?.memories?.length === 0,
    nothingStored.text);
  const redacted = await call(client, 'remember', { content: `the deploy token is ${SECRET}`, team: TEAM });
  check('a redacting team stores the redacted text', !redacted.error
    && redacted.json?.content === 'the deploy token is [REDACTED:github-pat]' && !redacted.text.includes(SECRET),
    redacted.text);
  const noTeam = await call(client, 'list_memories', {});
  check('without team, a token of several teams is asked to choose (400 naming them)', noTeam.error
    && noTeam.problem?.status === 400 && noTeam.text.includes(TEAM) && noTeam.text.includes(STRICT), noTeam.text);
  const missing = await call(client, 'get_memory', { id: 'no-such-memory', team: TEAM });
  check('an unknown id is a tool error (404)', missing.error && missing.problem?.status === 404, missing.text);
  const stillAlive = await call(client, 'get_memory', { id, team: TEAM });
  check('the session still works after the errors', !stillAlive.error && stillAlive.json?.id === id);

  await client.close();
  return { id, redactedId: redacted.json?.id };
}

async function laterSession({ id, redactedId }) {
  const client = await connect('later');
  const recalled = await call(client, 'recall', { query: 'Which database did we choose for billing?', top_k: 3, team: TEAM });
  const top = recalled.json?.results?.[0];
  check('a later MCP session recalls the remembered fact first', !recalled.error && top?.memory?.id === id,
    recalled.text);
  check('recall answers the score parts', ['score', 'similarity', 'freshness', 'confidence']
    .every((k) => typeof top?.[k] === 'number'), JSON.stringify(top));
  const forgotten = await call(client, 'forget', { id, team: TEAM });
  check('forget deletes it', !forgotten.error && forgotten.json?.deleted === true, forgotten.text);
  const gone = await call(client, 'get_memory', { id, team: TEAM });
  check('a forgotten memory is gone (404)', gone.error && gone.problem?.status === 404, gone.text);
  if (redactedId) {
    await call(client, 'forget', { id: redactedId, team: TEAM });
  }
  await client.close();
}

try {
  const first = await firstSession();
  await laterSession(first);
} catch (e) {
  check('the scenario ran to its end', false, e.stack);
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
