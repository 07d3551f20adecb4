// client-modern.mjs: the official TypeScript SDK v2 client (@modelcontextprotocol/client 2.4.x),
// which speaks the modern era (server/discover, per-request _meta) and falls back to the legacy
// initialize handshake. Against the app's MCP endpoint it is run three ways:
//   auto      probe with server/discover, fall back to initialize when the server is legacy:
//             the app is modern, so this must end modern at 2026-07-28;
//   pinned    {pin: '2026-07-28'}: modern or fail;
//   legacy    the plain initialize handshake (what the fallback runs): legacy era, a session;
//   fallback  auto again, but through a loopback front that answers server/discover the way a
//             2025-only server does (HTTP 404, -32601) and passes everything else to the app
//             untouched: the client must fall back to initialize and work in the legacy era.
//             The front is a fake of the one thing the app cannot be (legacy-only).
// Usage: node client-modern.mjs http://127.0.0.1:<port>/mcp
import http from 'node:http';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { assert, assertLegacyShape, assertReadToolResult, check, done, READ_TOOL, serverURL } from './check.mjs';

const url = new URL(serverURL());

// legacyOnlyFront starts the loopback front described above and returns its /mcp URL.
async function legacyOnlyFront(target) {
  const server = http.createServer(async (req, res) => {
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const body = Buffer.concat(chunks);
    let msg;
    try {
      msg = JSON.parse(body.toString('utf8'));
    } catch {}
    if (msg?.method === 'server/discover') {
      res.writeHead(404, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: msg.id ?? null, error: { code: -32601, message: 'Method not found' } }));
      return;
    }
    const headers = { ...req.headers, host: target.host };
    delete headers['content-length'];
    const up = await fetch(target, { method: req.method, headers, body: req.method === 'POST' ? body : undefined });
    const out = {};
    up.headers.forEach((v, k) => {
      if (k !== 'content-length' && k !== 'transfer-encoding' && k !== 'connection') out[k] = v;
    });
    res.writeHead(up.status, out);
    res.end(Buffer.from(await up.arrayBuffer()));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: new URL(`http://127.0.0.1:${server.address().port}/mcp`), close: () => server.close() };
}
const front = await legacyOnlyFront(url);

const headers = process.env.APP_MCP_TOKEN ? { Authorization: `Bearer ${process.env.APP_MCP_TOKEN}` } : undefined;

const runs = [
  { label: 'auto', mode: 'auto', era: 'modern', versions: ['2026-07-28'] },
  { label: 'pinned 2026-07-28', mode: { pin: '2026-07-28' }, era: 'modern', versions: ['2026-07-28'] },
  { label: 'legacy fallback handshake', mode: 'legacy', era: 'legacy', versions: ['2025-11-25', '2025-06-18'] },
  { label: 'auto via a legacy-only front', mode: 'auto', era: 'legacy', versions: ['2025-11-25'], via: front.url },
];

for (const run of runs) {
  const PEER = `@modelcontextprotocol/client 2.4 (${run.label})`;
  const transport = new StreamableHTTPClientTransport(run.via ?? url, { requestInit: { headers } });
  const client = new Client({ name: 'app-interop-client-v2', version: '2.4.0' }, { versionNegotiation: { mode: run.mode } });

  await check(PEER, `connect ends in the ${run.era} era`, async () => {
    await client.connect(transport);
    assert(client.getProtocolEra() === run.era, `era ${client.getProtocolEra()}`);
    const v = client.getNegotiatedProtocolVersion();
    assert(run.versions.includes(v), `negotiated ${v}`);
    if (run.era === 'legacy') {
      assert(typeof transport.sessionId === 'string' && transport.sessionId.length > 0, 'no Mcp-Session-Id in the legacy era');
    } else {
      assert(!transport.sessionId, `a modern connection got Mcp-Session-Id ${transport.sessionId}`);
    }
  });

  await check(PEER, 'server capabilities, serverInfo and instructions', async () => {
    const caps = client.getServerCapabilities();
    assert(caps?.tools, 'no tools capability');
    const wantSubscribe = run.era === 'modern';
    assert(caps?.resources?.subscribe === wantSubscribe, `resources.subscribe = ${caps?.resources?.subscribe}, want ${wantSubscribe}`);
    const info = client.getServerVersion();
    assert(info && info.name && info.version, `serverInfo ${JSON.stringify(info)}`);
    assert((client.getInstructions() ?? '').includes('list_connections'), 'instructions do not mention list_connections');
  });

  await check(PEER, `tools/list lists ${READ_TOOL}`, async () => {
    const res = await client.listTools();
    assert(res.tools.some((t) => t.name === READ_TOOL), `no ${READ_TOOL} in ${res.tools.map((t) => t.name)}`);
    if (run.era === 'legacy') assertLegacyShape(res, 'tools/list');
  });

  await check(PEER, `tools/call ${READ_TOOL} succeeds`, async () => {
    const res = await client.callTool({ name: READ_TOOL, arguments: {} });
    assertReadToolResult(res);
    if (run.era === 'legacy') assertLegacyShape(res, 'tools/call');
  });

  await check(PEER, 'close', async () => {
    await client.close();
  });
}

front.close();
done();
