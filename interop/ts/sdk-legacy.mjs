// sdk-legacy.mjs: the official TypeScript SDK v1 client (@modelcontextprotocol/sdk 1.32.x),
// which speaks only the legacy era (initialize + Mcp-Session-Id) over streamable HTTP, against
// the app's MCP endpoint. Usage: node sdk-legacy.mjs http://127.0.0.1:<port>/mcp
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { assert, assertLegacyShape, assertReadToolResult, check, done, READ_TOOL, serverURL } from './check.mjs';

const PEER = '@modelcontextprotocol/sdk 1.32 (legacy, streamable HTTP)';
const url = new URL(serverURL());
const headers = process.env.APP_MCP_TOKEN ? { Authorization: `Bearer ${process.env.APP_MCP_TOKEN}` } : undefined;

const transport = new StreamableHTTPClientTransport(url, { requestInit: { headers } });
const client = new Client({ name: 'app-interop-sdk-v1', version: '1.32.2' });

await check(PEER, 'initialize negotiates a legacy version and issues Mcp-Session-Id', async () => {
  await client.connect(transport);
  const v = transport.protocolVersion ?? client.getNegotiatedProtocolVersion?.();
  assert(['2025-11-25', '2025-06-18'].includes(v), `negotiated protocol version ${v}`);
  assert(typeof transport.sessionId === 'string' && transport.sessionId.length > 0, 'no Mcp-Session-Id');
  assert(/^[\x21-\x7e]+$/.test(transport.sessionId), 'Mcp-Session-Id is not visible ASCII');
});

await check(PEER, 'initialize result: serverInfo, instructions, resources.subscribe false', async () => {
  const info = client.getServerVersion();
  assert(info && info.name && info.version, `serverInfo ${JSON.stringify(info)}`);
  const caps = client.getServerCapabilities();
  assert(caps?.tools, 'no tools capability');
  assert(caps?.resources?.subscribe === false, `resources.subscribe = ${caps?.resources?.subscribe}`);
  assert(caps?.resources?.listChanged === true, `resources.listChanged = ${caps?.resources?.listChanged}`);
  const instr = client.getInstructions();
  assert(typeof instr === 'string' && instr.includes('list_connections'), 'instructions do not mention list_connections');
});

let tools;
await check(PEER, `tools/list lists ${READ_TOOL} with no modern-only fields`, async () => {
  const res = await client.listTools();
  tools = res.tools;
  assert(tools.some((t) => t.name === READ_TOOL), `no ${READ_TOOL} in ${tools.map((t) => t.name)}`);
  assertLegacyShape(res, 'tools/list');
});

await check(PEER, `tools/call ${READ_TOOL} succeeds`, async () => {
  const res = await client.callTool({ name: READ_TOOL, arguments: {} });
  assertReadToolResult(res);
  assertLegacyShape(res, 'tools/call');
});

await check(PEER, 'ping answers in the session', async () => {
  const res = await client.ping();
  assert(res && typeof res === 'object', 'no ping result');
});

await check(PEER, 'logging/setLevel answers in the session', async () => {
  await client.setLoggingLevel('warning');
});

await check(PEER, 'close', async () => {
  await client.close();
});

done();
