// stdio-elicitation.mjs: the write-approval round trip through app-mcp (the stdio bridge) on the
// weaviate fixture ($APP_MCP_FIXTURE), with the official TypeScript SDKs' stdio transports and
// APP_MCP_TOKEN set to the fixture's fullAccess token:
//
//   legacy, @modelcontextprotocol/sdk 1.32.x, elicitation declared: app-mcp forwards the call in
//     the modern era with the client's capabilities, gets input_required (approve_statement) and
//     turns it into an elicitation/create request to the client over stdio; the client's answer
//     goes back as the follow-up call. The client sees one tools/call and one elicitation/create,
//     never input_required. Accepted with approved: true, the object is written (a GET reads it
//     back, count_rows counts it); declined, the tool error is `denied`.
//   legacy, no elicitation declared: app-mcp never asks; the app's own dialog decides, and
//     `app --headless` without a terminal answers No: `denied`.
//   legacy on a readWrite token: the form is accepted, the app's own dialog still decides: `denied`.
//   modern, @modelcontextprotocol/client 2.4.x pinned 2026-07-28: input_required passes through
//     app-mcp as it is, and the SDK's own multi-round-trip driver calls the handler and repeats
//     the call with requestState and inputResponses; the object is written.
//
// Every message crossing app-mcp's stdin and stdout is recorded, so each leg is read off the wire.
// Usage: node stdio-elicitation.mjs <path to app-mcp> <config dir>
import { randomUUID } from 'node:crypto';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { assert, assertLegacyShape, check, done } from './check.mjs';
import { assertReadsBack, countRows, fixture, insertQuery as insertQueryOn, isToolError, structured } from './fixture.mjs';
import { answerTo, bridgeArgs, bridgeEnv, record, requestsSent, stdioTarget } from './stdio-common.mjs';

const { bin, configDir } = stdioTarget();
const fx = fixture();

if (!fx?.tokens?.fullAccess || !fx?.tokens?.readWrite) {
  await check('app-mcp (elicitation)', 'fixture', async () => {
    throw new Error('$APP_MCP_FIXTURE with fullAccess and readWrite tokens is not set: scripts/mcp-interop.sh sets it for the app it starts (interop/fixture)');
  });
  done();
}

const insertQuery = (id, title) => insertQueryOn(fx, id, title, 'the interop suite through app-mcp');

// assertApproveForm checks the elicitation/create params of the approve_statement form.
function assertApproveForm(p, query) {
  assert(p.mode === 'form' || p.mode === undefined, `mode ${p.mode}`);
  assert(typeof p.message === 'string' && p.message.length > 0, 'no message');
  const prop = p.requestedSchema?.properties?.approved;
  assert(prop?.type === 'boolean' && prop.title && prop.description === query, `requestedSchema.properties.approved = ${JSON.stringify(prop)}`);
  assert(JSON.stringify(p.requestedSchema.required) === '["approved"]', `required = ${JSON.stringify(p.requestedSchema.required)}`);
}

// connectV1 launches app-mcp with the legacy SDK; onElicit (when given) is its elicitation handler.
async function connectV1(token, onElicit) {
  const transport = new StdioV1({ command: bin, args: bridgeArgs(configDir), env: bridgeEnv(token), stderr: 'inherit' });
  const log = record(transport);
  const client = new ClientV1(
    { name: 'app-interop-sdk-v1-stdio-elicitation', version: '1.32.2' },
    { capabilities: onElicit ? { elicitation: {} } : {} },
  );
  if (onElicit) client.setRequestHandler(ElicitRequestSchema, async (req) => onElicit(req.params));
  await client.connect(transport);
  return { client, log };
}

// callLegs returns what crossed stdio for the last tools/call: the request, the requests app-mcp
// sent the client meanwhile, the client's answers to them, and app-mcp's answer.
function callLegs(log) {
  const calls = requestsSent(log, 'tools/call');
  const call = calls[calls.length - 1];
  const start = log.findIndex((e) => e.dir === 'out' && e.msg === call);
  const end = log.findIndex((e, i) => i > start && e.dir === 'in' && e.msg.id === call.id && !('method' in e.msg));
  const during = log.slice(start + 1, end < 0 ? undefined : end);
  return {
    call,
    asked: during.filter((e) => e.dir === 'in' && e.msg.method).map((e) => e.msg),
    replies: during.filter((e) => e.dir === 'out' && !e.msg.method).map((e) => e.msg),
    answer: end < 0 ? undefined : log[end].msg,
  };
}

// 1. Legacy (TS SDK v1) with elicitation, fullAccess: the bridge turns input_required into elicitation/create.
{
  const PEER = '@modelcontextprotocol/sdk 1.32 (stdio via app-mcp, legacy, elicitation, fullAccess)';
  const asked = [];
  let answer = { action: 'accept', content: { approved: true } };
  let client;
  let log;
  await check(PEER, 'connect declaring elicitation, APP_MCP_TOKEN = fullAccess', async () => {
    ({ client, log } = await connectV1(fx.tokens.fullAccess, (p) => {
      asked.push(p);
      return answer;
    }));
    const names = (await client.listTools()).tools.map((t) => t.name);
    assert(names.includes('insert_rows'), `APP_MCP_TOKEN was not used: tools ${names}`);
  });

  const id = randomUUID();
  const title = 'Approved through app-mcp elicitation';
  const query = insertQuery(id, title);
  let before;
  await check(PEER, 'execute_query REST write: elicitation/create over stdio (approve_statement form, statement verbatim), accepted, the write runs', async () => {
    before = await countRows(client, fx);
    const res = await client.callTool({ name: 'execute_query', arguments: { connection: fx.connection, query } });
    assert(!res.isError, `the write failed: ${JSON.stringify(res.content)}`);
    assert(structured(res)?.kind === 'json' && structured(res)?.status === 200, `structuredContent ${JSON.stringify(structured(res)).slice(0, 200)}`);
    assert(asked.length === 1, `elicitation handler called ${asked.length} times, want 1`);
    assertApproveForm(asked[0], query);
    // The wire: one tools/call, one elicitation/create from app-mcp, the client's accept, one legacy answer.
    const legs = callLegs(log);
    assert(requestsSent(log, 'tools/call').filter((c) => c.params.name === 'execute_query').length === 1, 'the client sent the write more than once');
    assert(legs.asked.length === 1 && legs.asked[0].method === 'elicitation/create', `app-mcp asked ${JSON.stringify(legs.asked.map((m) => m.method))}`);
    assertApproveForm(legs.asked[0].params, query);
    const reply = legs.replies.find((r) => r.id === legs.asked[0].id);
    assert(reply?.result?.action === 'accept' && reply.result.content?.approved === true, `the client answered ${JSON.stringify(reply)}`);
    const wire = legs.answer?.result;
    assert(wire, `no answer to the tools/call: ${JSON.stringify(legs.answer).slice(0, 200)}`);
    assertLegacyShape(wire, 'tools/call (wire)');
    assert(!('inputRequests' in wire) && !('requestState' in wire), 'input_required leaked to the legacy client');
  });

  await check(PEER, 'the written object exists: a GET reads it back and count_rows counts it', async () => {
    await assertReadsBack(client, fx, id, title, before);
  });

  await check(PEER, 'the handler declines: tool error denied, nothing written', async () => {
    answer = { action: 'decline' };
    asked.length = 0;
    const n0 = await countRows(client, fx);
    const res = await client.callTool({ name: 'execute_query', arguments: { connection: fx.connection, query: insertQuery(randomUUID(), 'Declined through app-mcp') } });
    assert(asked.length === 1, `elicitation handler called ${asked.length} times, want 1`);
    assert(isToolError(res, 'denied'), `want tool error denied, got ${JSON.stringify(res).slice(0, 300)}`);
    const reply = callLegs(log).replies[0];
    assert(reply?.result?.action === 'decline', `the client answered ${JSON.stringify(reply)}`);
    assert((await countRows(client, fx)) === n0, 'a declined write changed the row count');
  });

  await check(PEER, 'close', async () => client.close());
}

// 2. Legacy without elicitation: app-mcp never asks; the headless app's own dialog says No.
{
  const PEER = '@modelcontextprotocol/sdk 1.32 (stdio via app-mcp, legacy, no elicitation, fullAccess)';
  let client;
  let log;
  await check(PEER, 'connect without elicitation', async () => {
    ({ client, log } = await connectV1(fx.tokens.fullAccess));
  });
  await check(PEER, 'execute_query REST write: no elicitation/create, the app dialog (no terminal) denies it', async () => {
    const n0 = await countRows(client, fx);
    const res = await client.callTool({ name: 'execute_query', arguments: { connection: fx.connection, query: insertQuery(randomUUID(), 'No elicitation') } });
    assert(isToolError(res, 'denied'), `want tool error denied, got ${JSON.stringify(res).slice(0, 300)}`);
    assert(callLegs(log).asked.length === 0, 'app-mcp sent a request to a client that declared no elicitation');
    assert((await countRows(client, fx)) === n0, 'a denied write changed the row count');
  });
  await check(PEER, 'close', async () => client.close());
}

// 3. Legacy on a readWrite token: the accepted form is not enough; the app's own dialog says No.
{
  const PEER = '@modelcontextprotocol/sdk 1.32 (stdio via app-mcp, legacy, elicitation, readWrite)';
  const asked = [];
  let client;
  await check(PEER, 'connect declaring elicitation, APP_MCP_TOKEN = readWrite', async () => {
    ({ client } = await connectV1(fx.tokens.readWrite, (p) => {
      asked.push(p);
      return { action: 'accept', content: { approved: true } };
    }));
  });
  await check(PEER, 'execute_query REST write: form accepted, then the app dialog (no terminal) denies it', async () => {
    const n0 = await countRows(client, fx);
    const res = await client.callTool({ name: 'execute_query', arguments: { connection: fx.connection, query: insertQuery(randomUUID(), 'readWrite via app-mcp') } });
    assert(asked.length === 1, `elicitation handler called ${asked.length} times, want 1`);
    assert(isToolError(res, 'denied'), `want tool error denied, got ${JSON.stringify(res).slice(0, 300)}`);
    assert((await countRows(client, fx)) === n0, 'a denied write changed the row count');
  });
  await check(PEER, 'close', async () => client.close());
}

// 4. Modern (TS SDK v2): input_required passes through app-mcp; the SDK fulfils it itself.
{
  const PEER = '@modelcontextprotocol/client 2.4 (stdio via app-mcp, modern, elicitation, fullAccess)';
  const asked = [];
  let answer = { action: 'accept', content: { approved: true } };
  let client;
  let log;
  await check(PEER, 'connect pinned 2026-07-28 declaring elicitation (form), APP_MCP_TOKEN = fullAccess', async () => {
    const transport = new StdioV2({ command: bin, args: bridgeArgs(configDir), env: bridgeEnv(fx.tokens.fullAccess), stderr: 'inherit' });
    log = record(transport);
    client = new ClientV2(
      { name: 'app-interop-client-v2-stdio-elicitation', version: '2.4.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } }, capabilities: { elicitation: { form: {} } } },
    );
    client.setRequestHandler('elicitation/create', async (req) => {
      asked.push(req.params);
      return answer;
    });
    await client.connect(transport);
    assert(client.getProtocolEra() === 'modern', `era ${client.getProtocolEra()}`);
  });

  const id = randomUUID();
  const title = 'Approved through app-mcp, modern';
  const query = insertQuery(id, title);
  let before;
  await check(PEER, 'execute_query REST write: input_required through app-mcp as it is, the SDK repeats the call with requestState and inputResponses', async () => {
    before = await countRows(client, fx);
    const from = log.length;
    const res = await client.callTool({ name: 'execute_query', arguments: { connection: fx.connection, query } });
    assert(!res.isError, `the write failed: ${JSON.stringify(res.content)}`);
    assert(structured(res)?.kind === 'json' && structured(res)?.status === 200, `structuredContent ${JSON.stringify(structured(res)).slice(0, 200)}`);
    assert(asked.length === 1, `elicitation handler called ${asked.length} times, want 1`);
    assertApproveForm(asked[0], query);
    const legs = log.slice(from).filter((e) => e.dir === 'out' && e.msg.method === 'tools/call' && e.msg.params.name === 'execute_query').map((e) => e.msg);
    assert(legs.length === 2, `tools/call legs on the wire: ${legs.length}, want 2`);
    assert(!log.slice(from).some((e) => e.dir === 'in' && e.msg.method), 'app-mcp sent a request to a modern client');
    const [first, second] = legs;
    const r1 = answerTo(log, first.id)?.result;
    assert(r1?.resultType === 'input_required', `first answer resultType ${r1?.resultType}`);
    assert(r1.inputRequests?.approve_statement?.method === 'elicitation/create', `inputRequests ${JSON.stringify(r1.inputRequests).slice(0, 200)}`);
    assertApproveForm(r1.inputRequests.approve_statement.params, query);
    assert(typeof r1.requestState === 'string' && r1.requestState.length > 0, 'no requestState');
    assert(!first.params.requestState && !first.params.inputResponses, 'the first leg already carried requestState/inputResponses');
    assert(second.params.requestState === r1.requestState, 'the follow-up did not echo requestState byte for byte');
    assert(JSON.stringify(second.params.arguments) === JSON.stringify(first.params.arguments), 'the follow-up changed the arguments');
    const resp = second.params.inputResponses?.approve_statement;
    assert(resp?.action === 'accept' && resp?.content?.approved === true, `inputResponses ${JSON.stringify(second.params.inputResponses)}`);
    assert(answerTo(log, second.id)?.result?.resultType === 'complete', `second answer resultType ${answerTo(log, second.id)?.result?.resultType}`);
  });

  await check(PEER, 'the written object exists: a GET reads it back and count_rows counts it', async () => {
    await assertReadsBack(client, fx, id, title, before);
  });

  await check(PEER, 'the handler declines: tool error denied, nothing written', async () => {
    answer = { action: 'decline' };
    asked.length = 0;
    const n0 = await countRows(client, fx);
    const res = await client.callTool({ name: 'execute_query', arguments: { connection: fx.connection, query: insertQuery(randomUUID(), 'Declined, modern') } });
    assert(asked.length === 1, `elicitation handler called ${asked.length} times, want 1`);
    assert(isToolError(res, 'denied'), `want tool error denied, got ${JSON.stringify(res).slice(0, 300)}`);
    assert((await countRows(client, fx)) === n0, 'a declined write changed the row count');
  });

  await check(PEER, 'close', async () => client.close());
}

done();
