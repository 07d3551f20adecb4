// stdio-sdk.mjs: the official TypeScript SDKs' stdio client transports launching app-mcp (the
// stdio bridge, cmd/app-mcp) against the running app, the way an AI client that only launches
// processes reaches it:
//
//   @modelcontextprotocol/sdk 1.32.x StdioClientTransport: legacy (initialize). app-mcp answers
//     the handshake itself from server/discover and forwards every request in the modern era;
//     the results must come back shaped for the legacy era.
//   @modelcontextprotocol/client 2.4.x StdioClientTransport (@modelcontextprotocol/client/stdio),
//     versionNegotiation auto and {pin: '2026-07-28'}: the SDK probes server/discover on a
//     sibling app-mcp, then talks 2026-07-28 to its own; app-mcp forwards as it is.
//
// Each lists tools, calls list_connections and describe_table on the weaviate fixture's
// connection ($APP_MCP_FIXTURE), and reads the era off the wire (every message crossing
// app-mcp's stdin and stdout is recorded). Authentication: without APP_MCP_TOKEN app-mcp uses the
// handshake file's bridge token, which is readOnly (no write tool is listed); one run sets
// APP_MCP_TOKEN to the fixture's fullAccess token and must see the write tools.
// Usage: node stdio-sdk.mjs <path to app-mcp> <config dir>
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { assert, assertLegacyShape, assertReadToolResult, check, done, READ_TOOL, SERVER_INFO } from './check.mjs';
import { fixture, needFixture } from './fixture.mjs';
import { answerTo, bridgeArgs, bridgeEnv, record, requestsSent, stdioTarget } from './stdio-common.mjs';

const { bin, configDir } = stdioTarget();
const fx = fixture();
const PV = 'io.modelcontextprotocol/protocolVersion';
const WRITE_TOOLS = ['insert_rows', 'update_rows', 'delete_rows', 'confirm_destructive_operation'];

// The last tools/call answer on the wire, as app-mcp wrote it.
function lastCallAnswer(log) {
  const calls = requestsSent(log, 'tools/call');
  assert(calls.length > 0, 'no tools/call on the wire');
  const answer = answerTo(log, calls[calls.length - 1].id);
  assert(answer?.result, `no result for tools/call on the wire: ${JSON.stringify(answer).slice(0, 200)}`);
  return answer.result;
}

function assertDescribesFixture(res) {
  assertReadToolResult(res);
  const sc = res.structuredContent;
  assert(sc?.name === fx.table, `structuredContent.name = ${sc?.name}, want ${fx.table}`);
  const cols = (sc.columns ?? []).map((c) => c.name);
  assert(cols.includes('title') && cols.includes('body'), `columns ${cols}`);
}

// 1. TypeScript SDK v1, legacy, the bridge token of the handshake file.
{
  const PEER = '@modelcontextprotocol/sdk 1.32 (StdioClientTransport via app-mcp, legacy)';
  const transport = new StdioV1({ command: bin, args: bridgeArgs(configDir), env: bridgeEnv(), stderr: 'inherit' });
  const log = record(transport);
  const client = new ClientV1({ name: 'app-interop-sdk-v1-stdio', version: '1.32.2' });

  await check(PEER, 'initialize over stdio: app-mcp answers with a legacy version', async () => {
    await client.connect(transport);
    const init = requestsSent(log, 'initialize')[0];
    assert(init, 'no initialize on the wire');
    const v = answerTo(log, init.id)?.result?.protocolVersion;
    assert(v === init.params.protocolVersion && ['2025-11-25', '2025-06-18'].includes(v), `initialize answered protocolVersion ${v} to ${init.params.protocolVersion}`);
    assert(!requestsSent(log, 'server/discover').length, 'the legacy SDK sent server/discover');
  });

  await check(PEER, 'initialize result: serverInfo, instructions, resources.subscribe false, no extensions', async () => {
    const info = client.getServerVersion();
    assert(info?.name === 'app' && info.version, `serverInfo ${JSON.stringify(info)}`);
    const caps = client.getServerCapabilities();
    assert(caps?.tools, 'no tools capability');
    assert(caps?.resources?.subscribe === false, `resources.subscribe = ${caps?.resources?.subscribe}`);
    assert(!('extensions' in caps), 'legacy capabilities carry extensions');
    assert((client.getInstructions() ?? '').includes('list_connections'), 'instructions do not mention list_connections');
  });

  await check(PEER, 'tools/list with the bridge token (readOnly): read tools, no write tool, legacy shape', async () => {
    const res = await client.listTools();
    const names = res.tools.map((t) => t.name);
    assert(names.includes(READ_TOOL) && names.includes('describe_table'), `tools ${names}`);
    assert(!names.some((n) => WRITE_TOOLS.includes(n)), `a readOnly bridge token lists write tools: ${names}`);
    assertLegacyShape(res, 'tools/list');
  });

  await check(PEER, `tools/call ${READ_TOOL} lists the fixture's connection, legacy shape on the wire`, async () => {
    const res = await client.callTool({ name: READ_TOOL, arguments: {} });
    assertReadToolResult(res);
    assertLegacyShape(lastCallAnswer(log), 'tools/call (wire)');
    const names = (res.structuredContent?.connections ?? []).map((c) => c.name);
    assert(names.includes(needFixture().connection), `connections ${names}`);
  });

  await check(PEER, 'tools/call describe_table on the fixture connection', async () => {
    needFixture();
    const res = await client.callTool({ name: 'describe_table', arguments: { connection: fx.connection, table: fx.table } });
    assertDescribesFixture(res);
    assertLegacyShape(lastCallAnswer(log), 'tools/call (wire)');
  });

  await check(PEER, 'ping is answered', async () => {
    const res = await client.ping();
    assert(res && typeof res === 'object', 'no ping result');
  });

  await check(PEER, 'close', async () => client.close());
}

// 2. TypeScript SDK v2, modern: auto and pinned, through its own stdio transport.
const runs = [
  { label: 'auto', mode: 'auto', token: undefined },
  { label: "pinned 2026-07-28, APP_MCP_TOKEN fullAccess", mode: { pin: '2026-07-28' }, token: 'fullAccess' },
];
for (const run of runs) {
  const PEER = `@modelcontextprotocol/client 2.4 (StdioClientTransport via app-mcp, ${run.label})`;
  let token;
  let transport;
  let log = [];
  const client = new ClientV2({ name: 'app-interop-client-v2-stdio', version: '2.4.0' }, { versionNegotiation: { mode: run.mode } });

  await check(PEER, 'connect ends modern at 2026-07-28 (server/discover probed on a sibling app-mcp; the session sends no initialize)', async () => {
    if (run.token) {
      token = needFixture().tokens?.[run.token];
      assert(token, `the fixture has no ${run.token} token`);
    }
    transport = new StdioV2({ command: bin, args: bridgeArgs(configDir), env: bridgeEnv(token), stderr: 'inherit' });
    log = record(transport);
    await client.connect(transport);
    assert(client.getProtocolEra() === 'modern', `era ${client.getProtocolEra()}`);
    assert(client.getNegotiatedProtocolVersion() === '2026-07-28', `negotiated ${client.getNegotiatedProtocolVersion()}`);
    assert(!requestsSent(log, 'initialize').length, 'the session sent initialize');
  });

  await check(PEER, 'server capabilities, serverInfo and instructions (modern: resources.subscribe true)', async () => {
    const caps = client.getServerCapabilities();
    assert(caps?.tools, 'no tools capability');
    assert(caps?.resources?.subscribe === true, `resources.subscribe = ${caps?.resources?.subscribe}`);
    const info = client.getServerVersion();
    assert(info?.name === 'app' && info.version, `serverInfo ${JSON.stringify(info)}`);
    assert((client.getInstructions() ?? '').includes('list_connections'), 'instructions do not mention list_connections');
  });

  await check(PEER, `tools/list (${run.token ? 'fullAccess: the write tools too' : 'bridge token, readOnly: no write tool'})`, async () => {
    const res = await client.listTools();
    const names = res.tools.map((t) => t.name);
    assert(names.includes(READ_TOOL) && names.includes('describe_table'), `tools ${names}`);
    if (token) assert(WRITE_TOOLS.every((n) => names.includes(n)), `fullAccess lists ${names}`);
    else assert(!names.some((n) => WRITE_TOOLS.includes(n)), `a readOnly bridge token lists write tools: ${names}`);
    const sent = requestsSent(log, 'tools/list').pop();
    assert(sent?.params?._meta?.[PV] === '2026-07-28', `tools/list sent _meta ${JSON.stringify(sent?.params?._meta)}`);
  });

  await check(PEER, `tools/call ${READ_TOOL}: a modern result on the wire (resultType complete, serverInfo in _meta)`, async () => {
    const res = await client.callTool({ name: READ_TOOL, arguments: {} });
    assertReadToolResult(res);
    const wire = lastCallAnswer(log);
    assert(wire.resultType === 'complete', `resultType ${wire.resultType}`);
    assert(wire._meta && SERVER_INFO in wire._meta, `no _meta ${SERVER_INFO}`);
    const names = (res.structuredContent?.connections ?? []).map((c) => c.name);
    assert(names.includes(needFixture().connection), `connections ${names}`);
  });

  await check(PEER, 'tools/call describe_table on the fixture connection', async () => {
    needFixture();
    const res = await client.callTool({ name: 'describe_table', arguments: { connection: fx.connection, table: fx.table } });
    assertDescribesFixture(res);
    assert(lastCallAnswer(log).resultType === 'complete', 'not a modern result on the wire');
  });

  await check(PEER, 'close', async () => client.close());
}

done();
