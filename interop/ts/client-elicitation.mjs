// client-elicitation.mjs: the official TypeScript SDK v2 client (@modelcontextprotocol/client
// 2.4.x) doing the write-approval round trip of SPEC B "States and transitions" against the real
// app and a real weaviate node (the fixture of interop/fixture, passed in $APP_MCP_FIXTURE):
//
//   modern, elicitation declared, fullAccess token: execute_query with a REST write goes
//     input_required (form approve_statement, signed requestState) -> the SDK's own
//     multi-round-trip driver calls the client's elicitation/create handler -> the SDK repeats
//     the call with requestState and inputResponses -> the object is written; a read finds it and
//     count_rows counts it. Every leg is taken from the wire (the transport's fetch), so the
//     test sees what the SDK sent, not what it reports.
//   modern, the handler declines: tool error `denied`, nothing written.
//   modern, the handler accepts, but on a readWrite token: the accepted form is not enough, the
//     app's own (safe-mode) dialog still appears, and headless it says No: `denied`.
//   legacy (initialize), elicitation declared: no input_required ever; the app's own dialog
//     decides, and in `app --headless` without a terminal it answers No: `denied`.
// Usage: node client-elicitation.mjs http://127.0.0.1:<port>/mcp   (with $APP_MCP_FIXTURE set)
import { randomUUID } from 'node:crypto';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { assert, check, done, serverURL } from './check.mjs';
import { assertReadsBack, countRows, fixture, insertQuery as insertQueryOn, isToolError, structured } from './fixture.mjs';

const url = new URL(serverURL());
const fx = fixture();
const TOKEN = fx?.tokens?.fullAccess;

// recordingFetch keeps every tools/call leg: the request body and the JSON-RPC answer.
function recordingFetch(log) {
  return async (input, init) => {
    const res = await fetch(input, init);
    let req;
    try {
      req = JSON.parse(typeof init?.body === 'string' ? init.body : '');
    } catch {}
    if (req?.method === 'tools/call') {
      const text = await res.clone().text();
      // A JSON answer, or (with a progress token) an SSE stream whose last frame is the answer.
      const frames = text.startsWith('{') ? [text] : text.split('\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5));
      let answer;
      try {
        answer = JSON.parse(frames[frames.length - 1]);
      } catch {}
      log.push({ request: req, answer });
    }
    return res;
  };
}

async function connect(mode, onElicit, log, token = TOKEN) {
  const headers = { Authorization: `Bearer ${token}` };
  const transport = new StreamableHTTPClientTransport(url, { requestInit: { headers }, fetch: recordingFetch(log) });
  const client = new Client(
    { name: 'app-interop-client-v2-elicitation', version: '2.4.0' },
    { versionNegotiation: { mode }, capabilities: { elicitation: { form: {} } } },
  );
  client.setRequestHandler('elicitation/create', async (req) => onElicit(req));
  await client.connect(transport);
  return client;
}

const insertQuery = (id, title) => insertQueryOn(fx, id, title);

if (!fx || !TOKEN) {
  await check('@modelcontextprotocol/client 2.4 (elicitation)', 'fixture', async () => {
    throw new Error('$APP_MCP_FIXTURE with a fullAccess token is not set: scripts/mcp-interop.sh sets it for the app it starts (interop/fixture)');
  });
  done();
}

// 1. Modern era, the handler accepts: the round trip writes the object.
{
  const PEER = '@modelcontextprotocol/client 2.4 (modern, elicitation, fullAccess)';
  const log = [];
  const asked = [];
  let answer = { action: 'accept', content: { approved: true } };
  let client;
  await check(PEER, 'connect pinned 2026-07-28 declaring elicitation (form)', async () => {
    client = await connect({ pin: '2026-07-28' }, (req) => {
      asked.push(req.params);
      return answer;
    }, log);
    assert(client.getProtocolEra() === 'modern', `era ${client.getProtocolEra()}`);
  });

  const id = randomUUID();
  const query = insertQuery(id, 'Approved through elicitation');
  let before;
  await check(PEER, 'execute_query REST write: input_required -> elicitation handler -> follow-up runs it', async () => {
    before = await countRows(client, fx);
    log.length = 0;
    const res = await client.callTool({ name: 'execute_query', arguments: { connection: fx.connection, query } });
    assert(!res.isError, `the write failed: ${JSON.stringify(res.content)}`);
    assert(structured(res)?.kind === 'json' && structured(res)?.status === 200, `structuredContent ${JSON.stringify(structured(res)).slice(0, 200)}`);
    // The handler saw the approve_statement form, with the statement verbatim.
    assert(asked.length === 1, `elicitation handler called ${asked.length} times, want 1`);
    const p = asked[0];
    assert(p.mode === 'form' || p.mode === undefined, `mode ${p.mode}`);
    assert(typeof p.message === 'string' && p.message.length > 0, 'no message');
    const prop = p.requestedSchema?.properties?.approved;
    assert(prop?.type === 'boolean' && prop.title && prop.description === query, `requestedSchema.properties.approved = ${JSON.stringify(prop)}`);
    assert(JSON.stringify(p.requestedSchema.required) === '["approved"]', `required = ${JSON.stringify(p.requestedSchema.required)}`);
    // The wire: two legs of tools/call.
    assert(log.length === 2, `tools/call legs on the wire: ${log.length}, want 2`);
    const [first, second] = log;
    const r1 = first.answer?.result;
    assert(r1?.resultType === 'input_required', `first answer resultType ${r1?.resultType}`);
    assert(r1.inputRequests?.approve_statement?.method === 'elicitation/create', `inputRequests ${JSON.stringify(r1.inputRequests).slice(0, 200)}`);
    assert(typeof r1.requestState === 'string' && r1.requestState.length > 0, 'no requestState');
    assert(!first.request.params.requestState && !first.request.params.inputResponses, 'the first leg already carried requestState/inputResponses');
    const p2 = second.request.params;
    assert(p2.requestState === r1.requestState, 'the follow-up did not echo requestState byte for byte');
    assert(JSON.stringify(p2.arguments) === JSON.stringify(first.request.params.arguments), 'the follow-up changed the arguments');
    const resp = p2.inputResponses?.approve_statement;
    assert(resp?.action === 'accept' && resp?.content?.approved === true, `inputResponses ${JSON.stringify(p2.inputResponses)}`);
    assert(second.request.id !== first.request.id, 'the follow-up reused the request id');
    assert(second.answer?.result?.resultType === 'complete', `second answer resultType ${second.answer?.result?.resultType}`);
  });

  await check(PEER, 'the written object exists: GET reads it back and count_rows counts it', async () => {
    await assertReadsBack(client, fx, id, 'Approved through elicitation', before);
  });

  await check(PEER, 'the handler declines: tool error denied, nothing written', async () => {
    answer = { action: 'decline' };
    asked.length = 0;
    const n0 = await countRows(client, fx);
    const res = await client.callTool({ name: 'execute_query', arguments: { connection: fx.connection, query: insertQuery(randomUUID(), 'Declined') } });
    assert(asked.length === 1, `elicitation handler called ${asked.length} times, want 1`);
    assert(isToolError(res, 'denied'), `want tool error denied, got ${JSON.stringify(res).slice(0, 300)}`);
    assert((await countRows(client, fx)) === n0, 'a declined write changed the row count');
  });

  await check(PEER, 'close', async () => client.close());
}

// 2. Modern era on a readWrite token: the form is accepted, the app's own dialog still decides.
{
  const PEER = '@modelcontextprotocol/client 2.4 (modern, elicitation, readWrite)';
  const log = [];
  const asked = [];
  let client;
  await check(PEER, 'connect pinned 2026-07-28 declaring elicitation (form)', async () => {
    assert(fx.tokens?.readWrite, 'the fixture has no readWrite token');
    client = await connect({ pin: '2026-07-28' }, (req) => {
      asked.push(req.params);
      return { action: 'accept', content: { approved: true } };
    }, log, fx.tokens.readWrite);
  });
  await check(PEER, 'execute_query REST write: form accepted, then the app dialog (no terminal) denies it', async () => {
    const n0 = await countRows(client, fx);
    log.length = 0;
    const res = await client.callTool({ name: 'execute_query', arguments: { connection: fx.connection, query: insertQuery(randomUUID(), 'readWrite') } });
    assert(asked.length === 1, `elicitation handler called ${asked.length} times, want 1`);
    assert(log.length === 2 && log[0].answer?.result?.resultType === 'input_required', `legs ${log.length}`);
    assert(isToolError(res, 'denied'), `want tool error denied, got ${JSON.stringify(res).slice(0, 300)}`);
    assert((await countRows(client, fx)) === n0, 'a denied write changed the row count');
  });
  await check(PEER, 'close', async () => client.close());
}

// 3. Legacy era (initialize), elicitation declared: never input_required; the headless dialog says No.
{
  const PEER = '@modelcontextprotocol/client 2.4 (legacy, elicitation declared, fullAccess)';
  const log = [];
  const asked = [];
  let client;
  await check(PEER, 'connect with the legacy handshake', async () => {
    client = await connect('legacy', (req) => {
      asked.push(req.params);
      return { action: 'accept', content: { approved: true } };
    }, log);
    assert(client.getProtocolEra() === 'legacy', `era ${client.getProtocolEra()}`);
  });
  await check(PEER, 'execute_query REST write: no input_required, the app dialog (no terminal) denies it', async () => {
    const n0 = await countRows(client, fx);
    log.length = 0;
    const res = await client.callTool({ name: 'execute_query', arguments: { connection: fx.connection, query: insertQuery(randomUUID(), 'Legacy') } });
    assert(isToolError(res, 'denied'), `want tool error denied, got ${JSON.stringify(res).slice(0, 300)}`);
    assert(asked.length === 0, 'the legacy client was asked through elicitation');
    assert(log.length === 1 && !('resultType' in (log[0].answer?.result ?? {})), `legs ${log.length}; answer ${JSON.stringify(log[0]?.answer).slice(0, 200)}`);
    assert((await countRows(client, fx)) === n0, 'a denied write changed the row count');
  });
  await check(PEER, 'close', async () => client.close());
}

done();
