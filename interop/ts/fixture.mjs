// fixture.mjs: the weaviate fixture the runners call tools against (interop/fixture):
// scripts/mcp-interop.sh puts its JSON in $APP_MCP_FIXTURE: {connection, table, rows, tokens:
// {readWrite, fullAccess}, weaviateUrl, ...}.

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
