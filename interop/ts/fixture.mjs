// fixture.mjs: the weaviate fixture the runners call tools against (interop/fixture):
// scripts/mcp-interop.sh puts its JSON in $APP_MCP_FIXTURE: {connection, table, rows, tokens:
// {readWrite, fullAccess}, weaviateUrl, ...}; and the reads and writes on it the runners share.
import { assert } from './check.mjs';

/** fixture returns the parsed $APP_MCP_FIXTURE, or undefined when it is not set. */
export function fixture() {
  const raw = process.env.APP_MCP_FIXTURE;
  if (!raw) return undefined;
  return JSON.parse(raw);
}

/** structured returns a tools/call result's structuredContent. */
export function structured(res) {
  return res?.structuredContent;
}

/** isToolError tells whether res is a tool error whose text starts with `<code>:` (SPEC B Errors). */
export function isToolError(res, code) {
  const text = res?.content?.[0]?.text ?? '';
  return res?.isError === true && text.startsWith(`${code}:`);
}

/** needFixture returns the fixture or throws (the check fails: it cannot run without it). */
export function needFixture() {
  const fx = fixture();
  if (!fx) throw new Error('$APP_MCP_FIXTURE is not set: scripts/mcp-interop.sh sets it for the app it starts (interop/fixture)');
  return fx;
}

/** insertQuery is the REST line execute_query runs to write one object into the fixture's table. */
export function insertQuery(fx, id, title, by = 'the interop suite') {
  return `POST /v1/objects ${JSON.stringify({ class: fx.table, id, properties: { title, body: `written by ${by}` } })}`;
}

/** countRows is count_rows of the fixture's table. */
export async function countRows(client, fx) {
  const res = await client.callTool({ name: 'count_rows', arguments: { connection: fx.connection, table: fx.table } });
  assert(!res.isError, `count_rows: ${JSON.stringify(res.content)}`);
  const n = structured(res)?.count;
  assert(Number.isInteger(n), `count_rows structuredContent.count = ${JSON.stringify(structured(res))}`);
  return n;
}

/** assertReadsBack checks that the object id exists with this title and that count_rows grew by one. */
export async function assertReadsBack(client, fx, id, title, before) {
  const res = await client.callTool({ name: 'execute_query', arguments: { connection: fx.connection, query: `GET /v1/objects/${fx.table}/${id}` } });
  assert(!res.isError, `GET: ${JSON.stringify(res.content)}`);
  const doc = structured(res)?.json;
  assert(doc?.id === id && doc?.properties?.title === title, `GET answered ${JSON.stringify(doc).slice(0, 200)}`);
  const after = await countRows(client, fx);
  assert(after === before + 1, `count_rows ${before} -> ${after}, want +1`);
}
