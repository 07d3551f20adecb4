// check.mjs: the tiny reporting convention every interop runner shares.
// Each check prints one line, `ok - <peer>: <name>` or `not ok - <peer>: <name>: <reason>`;
// scripts/mcp-interop.sh counts those lines. A runner exits 1 when any check failed.

let failed = 0;

/** serverURL returns the MCP endpoint from argv[2] or $APP_MCP_URL, or exits with usage. */
export function serverURL() {
  const url = process.argv[2] || process.env.APP_MCP_URL;
  if (!url) {
    console.error(`usage: node ${process.argv[1]} http://127.0.0.1:<port>/mcp (or set APP_MCP_URL)`);
    process.exit(2);
  }
  return url;
}

/** check runs fn and prints its verdict; a thrown error is the failure reason. */
export async function check(peer, name, fn) {
  try {
    await fn();
    console.log(`ok - ${peer}: ${name}`);
  } catch (err) {
    failed++;
    const reason = String(err?.message ?? err).replace(/\s+/g, ' ').slice(0, 400);
    console.log(`not ok - ${peer}: ${name}: ${reason}`);
  }
}

/** assert throws with msg when cond is false. */
export function assert(cond, msg) {
  if (!cond) throw new Error(msg);
}

/** done exits with 1 when any check failed. */
export function done() {
  process.exit(failed ? 1 : 0);
}

/** The read tool every client calls, and what its result must look like. */
export const READ_TOOL = 'list_connections';

/** assertReadToolResult checks a tools/call result of list_connections. */
export function assertReadToolResult(res) {
  assert(res && typeof res === 'object', 'no result');
  assert(res.isError !== true, `isError is true: ${JSON.stringify(res.content)}`);
  assert(Array.isArray(res.content) && res.content.length > 0, 'content is not a non-empty array');
  assert(res.content.every((c) => c.type === 'text' && typeof c.text === 'string'), 'content items are not {type:"text", text}');
  if (res.structuredContent !== undefined) {
    assert(typeof res.structuredContent === 'object' && res.structuredContent !== null, 'structuredContent is not an object');
  }
}

/** assertLegacyShape checks that a legacy-era result has no modern-only fields. */
export function assertLegacyShape(res, what) {
  for (const k of ['resultType', 'ttlMs', 'cacheScope']) {
    assert(!(k in res), `${what} carries ${k} in the legacy era`);
  }
  assert(!(res._meta && SERVER_INFO in res._meta), `${what} carries _meta serverInfo in the legacy era`);
}

/** SERVER_INFO is the _meta key only a modern-era result carries. */
export const SERVER_INFO = 'io.modelcontextprotocol/serverInfo';

/** assertEra checks a result was served in the era asked for: only a modern one carries _meta serverInfo. */
export function assertEra(res, era) {
  const has = Boolean(res?._meta && SERVER_INFO in res._meta);
  assert(has === (era === 'modern'), `${era} result ${has ? 'carries' : 'lacks'} _meta ${SERVER_INFO}: served in the wrong era`);
  assert(!('resultType' in res) || era === 'modern', 'legacy result carries resultType');
}
