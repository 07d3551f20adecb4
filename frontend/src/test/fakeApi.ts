// fakeApi: an in-memory Api for component tests. The real Api needs the Go process behind
// Wails; the end-to-end test (tests/e2e) drives that one. Here only UI states are under test.
// Its answers have the types generated from Go (src/api/gen), every field as the real reader
// (src/api/read.ts) gives it.
import type {
  Backup,
  Tenant,
  TenantPage,
  ActivityApi,
  Api,
  ApprovalGranted,
  ApprovalsApi,
  Capabilities,
  Column,
  ColumnKind,
  Connection,
  ConnectionDescription,
  ConnectionDropped,
  ConnectionForm,
  ConnectionsApi,
  EditorApi,
  ExplorerApi,
  HistoryEntry,
  Layout,
  LayoutApi,
  SavedQuery,
  Grid,
  PluginProgress,
  ClientsApi,
  MCPSettings,
  PairingApi,
  PluginsApi,
  SearchMode,
  SettingsApi,
  TableInfo,
  Token,
  TokensApi,
} from "../api";
import { newConnectionForm } from "../components/forms/formRules";
import { read, readList } from "../api/read";
import weaviateJSON from "./weaviate-description.json";
import searchesJSON from "./weaviate-searches.json";

/** The demo Article collection's searches as the Weaviate driver describes them, without a vectorizer and with one. */
export const weaviateSearches: { plain: SearchMode[]; vectorized: SearchMode[] } = {
  plain: readList("driver.SearchMode", searchesJSON.plain),
  vectorized: readList("driver.SearchMode", searchesJSON.vectorized),
};

/** weaviateCapabilities are what the Weaviate driver reports (backend/driver/weaviate). */
export const weaviateCapabilities: Capabilities = {
  queryLanguage: "graphql",
  restLines: true,
  maxResults: 10000,
  defaultPageSize: 100,
  transactions: false,
  scan: true,
  tenants: true,
  nodes: true,
  templates: true,
  searchModes: true,
  backups: true,
  accessControl: true,
};

export function connection(overrides: Partial<Connection> = {}): Connection {
  return {
    id: "c1",
    name: "Local Weaviate",
    type: "weaviate",
    host: "localhost",
    port: 8080,
    authMethod: "None",
    sslMode: "Disabled",
    skipTLSVerify: false,
    externalAccess: "readOnly",
    createdAt: "2026-01-02T03:04:05Z",
    address: "",
    typeLabel: "",
    language: "GraphQL reads and REST lines",
    settings: [
      { label: "Auth Method", value: "None" },
      { label: "SSL Mode", value: "Disabled" },
      { label: "Skip TLS Verification", value: "Off" },
    ],
    ...overrides,
  };
}

/**
 * The portable kind the Weaviate plugin sends beside each of its type names (its kinds.go):
 * the fixtures below name Weaviate's types, and the window reads only the kinds.
 */
const PLUGIN_KINDS: Record<string, ColumnKind> = {
  text: "text",
  int: "integer",
  number: "number",
  boolean: "boolean",
  date: "datetime",
  uuid: "uuid",
  blob: "binary",
  object: "json",
  phoneNumber: "json",
  geoCoordinates: "geo",
  vector: "vector",
  vectors: "vector",
};

/** kindsOf is what the plugin sends for a type: its kind and, for a list, the element's. */
function kindsOf(type: string): Pick<Column, "kind" | "of"> {
  if (type === "") return { kind: "", of: "" };
  const base = type.endsWith("[]") ? type.slice(0, -2) : type;
  const k: ColumnKind = PLUGIN_KINDS[base] ?? (/^[A-Z]/.test(base) ? "reference" : "other");
  if (k === "json" || k === "reference" || base === type) return { kind: k, of: "" };
  return { kind: "array", of: k };
}

/** What the Weaviate plugin says of REGEX on any filterable column (its filter.go): blocked, with why. */
export const WEAVIATE_REGEX = "Weaviate has no regular-expression filter; use contains, starts with or ends with (Like with * wildcards)";

export function column(name: string, overrides: Partial<Column> = {}): Column {
  const c = baseColumn(name, overrides);
  return overrides.blocked ? c : { ...c, blocked: c.filterable.length > 0 ? { regex: WEAVIATE_REGEX } : {} };
}

function baseColumn(name: string, overrides: Partial<Column>): Column {
  const type = overrides.type ?? "text";
  return {
    name,
    type,
    primaryKey: false,
    readOnly: false,
    json: false,
    description: "",
    filterable: ["equals", "not_equals", "contains", "not_contains", "starts_with", "ends_with", "in", "not_in", "is_null", "is_not_null", "is_empty", "is_not_empty"],
    sortable: true,
    preview: false,
    tokenization: "",
    filterNotes: {},
    blocked: {},
    ...kindsOf(type),
    dimension: 0,
    ...overrides,
  };
}

/** The columns of the demo Article collection, as the driver describes them. */
export const articleColumns: Column[] = [
  column("uuid", { type: "uuid", primaryKey: true, readOnly: true, filterable: ["equals", "not_equals", "in", "not_in"] }),
  column("title"),
  column("wordCount", {
    type: "int",
    filterable: ["equals", "not_equals", "greater_than", "greater_or_equal", "less_than", "less_or_equal", "in", "not_in", "between", "is_null", "is_not_null"],
  }),
  column("tags", { type: "text[]", json: true, sortable: false }),
  column("vector", { type: "vector", readOnly: true, json: true, filterable: [], sortable: false }),
];

export function tableInfo(name: string, columns: Column[] = articleColumns): TableInfo {
  return {
    name,
    description: `${name} description`,
    primaryKey: ["uuid"],
    columns,
    settings: { multiTenancy: false, vectorizer: "none", namedVectors: [],
      ownVector: false, vectorizedVectors: [], indexNullState: true, indexPropertyLength: true },
    details: [
      {
        title: "Inverted index",
        items: [
          { label: "Null state indexed", value: "yes: the is null and is not null filters run", setting: "invertedIndexConfig.indexNullState" },
          { label: "Property length indexed", value: "yes: the is empty and is not empty filters run", setting: "invertedIndexConfig.indexPropertyLength" },
        ],
      },
    ],
 
    searches: weaviateSearches.plain,
    profiles: false,
  };
}

export function grid(rows: (string | null)[][], overrides: Partial<Grid> = {}): Grid {
  return { columns: articleColumns, rows, offset: 0, hasMore: false, notice: "", refused: null, ...overrides };
}

/** The two rows the fake opened's pages hold. */
export const demoRows: (string | null)[][] = [
  ["00000000-0000-4000-8000-000000000001", "Rust in the Linux kernel", "1450", '["programming","linux"]', "[0.95,0.2,0.05,0]"],
  ["00000000-0000-4000-8000-000000000002", "Vector search explained", null, "[]", "[0.85,0.45,0.05,0]"],
];

/**
 * fakeExplorer: a connection with the demo tables Author and Article that connects at once.
 * Pass overrides to make a call slow (a deferred promise) or fail (a rejection).
 */
export function fakeExplorer(overrides: Partial<ExplorerApi> = {}): ExplorerApi {
  return {
    connect: async (id) => ({ id, connected: true, serverVersion: "1.35.2", route: "", capabilities: weaviateCapabilities }),
    disconnect: async () => {},
    listTables: async () => [
      { name: "Author", description: "People who write the demo articles.", multiTenant: false, kind: "", estimate: null, group: "", label: "" },
      { name: "Article", description: "Demo articles.", multiTenant: false, kind: "", estimate: null, group: "", label: "" },
    ],
    listTenants: async (_id, _table, _filter, offset) => ({ total: 0, matched: 0, offset, tenants: [], kept: false }),
    setTenantStatus: async () => true,
    nodes: async () => [],
    tableNodes: async () => [],
    backups: async () => ({ backends: [{ name: "filesystem", label: "the server's disk", where: "" }], backups: [] }),
    createBackup: async (_id, backend, tables) => fakeBackup({ backend, tables, state: "running", phase: "STARTED" }),
    backupStatus: async (_id, backend, backupId) => fakeBackup({ id: backupId, backend, state: "succeeded", phase: "SUCCESS" }),
    cancelBackup: async () => {},
    accessControl: async () => ({ enforced: false, user: "", auth: "anonymous access", roles: [], groups: [], rolesShown: false, allRoles: [], usersShown: false, users: [], note: "The database checks no roles: every credential it lets in may do everything." }),
    restoreBackup: async (_id, backend, backupId, tables) => ({
      restore: fakeBackup({ id: backupId, backend, tables, state: "running", phase: "STARTED" }),
      plan: { id: backupId, backend, tables, creates: tables, overwrites: [], refused: [], note: "" },
      declined: false,
    }),
    restoreStatus: async (_id, backend, backupId) => fakeBackup({ id: backupId, backend, state: "succeeded", phase: "SUCCESS" }),
    openMap: async (mapId) => ({ id: mapId, keyColumns: ["uuid"], keys: [], columns: [], vector: "", dims: 0, matched: 0, skipped: 0, sampled: false, kept: false }),
    onMapFrame: () => () => {},
    saveMapImage: async (table) => ({ status: "done", rows: 0, path: `/tmp/${table} map.png`, bytes: 100, elapsedMs: 1 }),
    search: async (_id, table, req) => ({
      grid: {
        columns: [column("uuid", { type: "uuid", primaryKey: true, readOnly: true, filterable: [], sortable: false }), ...tableInfo(table).columns.slice(1, -1), column("score", { type: "", readOnly: true, filterable: [], sortable: false })],
        rows: demoRows.map((r, i) => [...r.slice(0, -1), String(1 - i * 0.1)]),
        offset: 0,
        hasMore: false,
        notice: "",
        refused: null,
      },
      describe: req.by === "words" ? `${req.mode || "words"} "${req.query}"` : `a ${req.by}`,
      measure: "score",
      refused: null,
      profile: req.profile ? sampleProfile : null,
    }),
    tableCounts: async () => [
      { name: "Author", count: 4, estimated: false, message: "" },
      { name: "Article", count: 10, estimated: false, message: "" },
    ],
    describeTable: async (_id, table) => tableInfo(table),
    browse: async () => grid(demoRows),
    count: async () => ({ count: demoRows.length, estimated: false, refused: null }),
    checkCells: async () => ({}),
    commit: async (_id, _table, req) => ({
      outcomes: [
        ...req.updates.map((r) => ({ ref: r.ref, action: "update" as const, key: r.key, status: "ok" as const, code: "", message: "" })),
        // an insert is stored under the uuid typed in it, else one the database makes
        ...req.inserts.map((r) => ({ ref: r.ref, action: "insert" as const, key: { uuid: r.values.uuid ?? "00000000-0000-4000-8000-0000000000ff" }, status: "ok" as const, code: "", message: "" })),
        ...req.deletes.map((r) => ({ ref: r.ref, action: "delete" as const, key: r.key, status: "ok" as const, code: "", message: "" })),
      ],
      declined: false,
    }),
    setPendingChanges: async () => {},
    vectors: async (_id, _table, keys) => keys.map((k) => demoRows.find((r) => r[0] === k.uuid)?.[4] ?? null),
    findSimilar: async (_id, table) => ({
      grid: {
        columns: [column("uuid", { type: "uuid", primaryKey: true, readOnly: true, filterable: [], sortable: false }), ...tableInfo(table).columns.slice(1, -1), column("distance", { type: "number", readOnly: true, filterable: [], sortable: false })],
        rows: demoRows.map((r, i) => [...r.slice(0, -1), String(i * 0.1)]),
        offset: 0,
        hasMore: false,
        notice: "",
        refused: null,
      },
      targetVector: "",
      dimensions: 4,
    }),
    exportTable: async (_t, _id, table, req) => ({ status: "done", rows: demoRows.length, path: `/tmp/${table}.${req.format}`, bytes: 512, elapsedMs: 5 }),
    exportGrid: async (name, format, g) => ({ status: "done", rows: g.rows.length, path: `/tmp/${name}.${format}`, bytes: 256, elapsedMs: 2 }),
    cancelTransfer: async () => {},
    chooseImportFile: async () => "/tmp/rows.csv",
    previewImport: async (_id, _table, path) => ({
      path,
      format: "csv",
      columns: ["uuid", "title", "wordCount"],
      targets: ["uuid", "title", "wordCount"],
      rows: [
        ["00000000-0000-4000-8000-000000000011", "First", "12"],
        ["00000000-0000-4000-8000-000000000012", "Second", "many"],
      ],
      problems: { "1": { wordCount: "expects a whole number" } },
      broken: [],
      exists: true,
      tableColumns: ["uuid", "title", "wordCount", "vector"],
    }),
    importFile: async () => ({ status: "done", written: 1, skipped: 1, failed: 0, unknown: 0, created: false, report: "/tmp/rows.rejected.csv",
      rejected: [{ line: 3, key: "00000000-0000-4000-8000-000000000012", reason: "column wordCount (int): expects a whole number" }], message: "", elapsedMs: 9 }),
    onTransferProgress: () => () => {},
    onDropped: () => () => {},
    onRestored: () => () => {},
    ...overrides,
  };
}

/** weaviateDescription is the Weaviate plugin's own description (its Describe, kept in this JSON by a Go test). */
export function weaviateDescription(): ConnectionDescription {
  return read("driver.Description", weaviateJSON);
}

/** connectionForm is a new Weaviate connection's form; values given are merged into the defaults. */
export function connectionForm(overrides: Partial<ConnectionForm> = {}): ConnectionForm {
  const base = newConnectionForm("weaviate", weaviateDescription());
  return { ...base, ...overrides, values: { ...base.values, ...overrides.values } };
}

/** fakePlugins: a registry with the Weaviate plugin, not installed until install() is called. */
export function fakePlugins(overrides: Partial<PluginsApi> = {}): PluginsApi & { emitProgress: (p: PluginProgress) => void } {
  const listeners = new Set<(p: PluginProgress) => void>();
  let installed = "";
  const plugin = () => ({
    name: "weaviate",
    displayName: "Weaviate",
    description: "Weaviate driver",
    publisher: "App",
    installed,
    available: "1.0.0",
    size: 5_545_060,
    releaseNotes: "",
    status: installed ? "installed" : "not installed",
    reason: "",
    fromMirror: false,
  });
  return {
    emitProgress: (p) => listeners.forEach((l) => l(p)),
    list: async () => ({ plugins: [plugin()], registryError: "" }),
    offer: async () => ({
      plugin: "weaviate",
      displayName: "Weaviate",
      description: "Weaviate driver",
      publisher: "App",
      installed: installed !== "",
      version: installed || "1.0.0",
      size: 5_545_060,
      releaseNotes: "",
      unavailable: "",
      fromMirror: false,
    }),
    install: async (name) => {
      installed = "1.0.0";
      return { plugin: name, version: "1.0.0", previous: "", changed: true, available: "" };
    },
    update: async (name) => ({ plugin: name, version: installed, previous: "", changed: false, available: "" }),
    uninstall: async () => {
      const v = installed;
      installed = "";
      return [v];
    },
    onProgress: (cb) => {
      listeners.add(cb);
      return () => listeners.delete(cb);
    },
    ...overrides,
  };
}

/** fakeTokens: an in-memory token store; create returns "app_" + a counter as the secret. */
export function fakeTokens(overrides: Partial<TokensApi> = {}): TokensApi {
  let tokens: Token[] = [];
  let n = 0;
  return {
    list: async () => tokens,
    create: async (req) => {
      n++;
      const token: Token = {
        id: `t${n}`,
        name: req.name,
        level: req.level,
        connections: req.connections,
        expiresAt: req.expires && req.expires !== "never" ? "2026-12-23T00:00:00Z" : "",
        createdAt: "2026-11-23T00:00:00Z",
        lastUsedAt: "",
        expired: false,
      };
      tokens = [...tokens, token];
      return { token, secret: `app_secret${n}` };
    },
    revoke: async (id) => {
      tokens = tokens.filter((t) => t.id !== id);
      return true;
    },
    ...overrides,
  };
}

/** fakeSettings: MCP settings kept in memory; setMCP parses numbers and booleans like the backend. */
export function fakeSettings(overrides: Partial<SettingsApi> = {}): SettingsApi {
  let s: MCPSettings = {
    enabled: true,
    port: 23817,
    requireAuth: true,
    externalAccess: true,
    defaultRowLimit: 500,
    maxRowLimit: 10000,
    queryTimeoutSeconds: 30,
    rateLimitPerMinute: 240,
    boundPort: 23817,
    status: "Running on 127.0.0.1:23817",
    error: "",
    portNotice: "",
    staleClients: [],
  };
  return {
    mcp: async () => s,
    onStarted: () => () => {},
    foreignChanges: async () => [],
    acceptForeignChange: async () => {},
    revertForeignChange: async () => {},
    repairClients: async () => {
      const repaired = s.staleClients.map((c) => ({ title: c.title, file: c.file, backup: `${c.file}.bak-20261126T070000Z`, error: "" }));
      s = { ...s, staleClients: [] };
      return { repaired, settings: s };
    },
    setMCP: async (key, value) => {
      const v = value === "true" ? true : value === "false" ? false : Number(value);
      s = { ...s, [key]: v };
      if (key === "enabled") s = { ...s, boundPort: v ? s.port : 0, status: v ? `Running on 127.0.0.1:${s.port}` : "Stopped (the server is turned off)" };
      return s;
    },
    ...overrides,
  };
}

/** tenantPages answers listTenants with windows of `all`, filtered by name as the backend does. */
export function tenantPages(all: () => Promise<Tenant[]>) {
  return async (_id: string, _table: string, filter: string, offset: number, limit: number, _fresh: boolean): Promise<TenantPage> => {
    const f = filter.trim().toLowerCase();
    const matched = (await all()).filter((t) => t.name.toLowerCase().includes(f));
    return { total: (await all()).length, matched: matched.length, offset, tenants: matched.slice(offset, offset + limit), kept: false };
  };
}

/** fakeApi answers list() with the given result: connections, a rejection, or a pending promise. */
export function fakeApi(
  list: () => Promise<Connection[]>,
  explorer: Partial<ExplorerApi> = {},
  more: {
    connections?: Partial<ConnectionsApi>;
    plugins?: Partial<PluginsApi>;
    tokens?: Partial<TokensApi>;
    settings?: Partial<SettingsApi>;
    clients?: Partial<ClientsApi>;
    activity?: Partial<ActivityApi>;
    pairing?: Partial<PairingApi>;
    approvals?: Partial<ApprovalsApi>;
    editor?: Partial<EditorApi>;
    layout?: Partial<LayoutApi>;
    copy?: (t: string) => Promise<void>;
    setWindowTitle?: (t: string) => void;
  } = {},
): Api & {
  calls: { list: number };
  emitChanged: () => void;
  emitDropped: (e: ConnectionDropped) => void;
  emitRestored: (id: string) => void;
  emitProgress: (p: PluginProgress) => void;
  emitGranted: (g: ApprovalGranted) => void;
} {
  const calls = { list: 0 };
  const listeners = new Set<() => void>();
  const dropListeners = new Set<(e: ConnectionDropped) => void>();
  const restoreListeners = new Set<(id: string) => void>();
  const plugins = fakePlugins(more.plugins);
  const grantListeners = new Set<(g: ApprovalGranted) => void>();
  return {
    calls,
    approvals: {
      remember: async () => {},
      forgetRemembered: async () => {},
      setFocused: async () => {},
      onGranted: (cb) => {
        grantListeners.add(cb);
        return () => grantListeners.delete(cb);
      },
      ...more.approvals,
    },
    emitGranted: (g) => grantListeners.forEach((l) => l(g)),
    plugins,
    tokens: fakeTokens(more.tokens),
    editor: fakeEditor(more.editor),
    layout: fakeLayout(more.layout),
    settings: fakeSettings(more.settings),
    clients: { recent: async () => [], disconnect: async () => true, ...more.clients },
    activity: {
      list: async (q) => ({ entries: [], total: 0, offset: q.offset }),
      exportCSV: async () => "",
      verify: async () => ({ entries: 0, anchorId: 0, intact: true, brokenId: 0, reason: "" }),
      ...more.activity,
    },
    copy: more.copy ?? (async () => {}),
    setWindowTitle: more.setWindowTitle ?? (() => {}),
    pairing: {
      clients: async () => [
        {
          id: "cursor",
          title: "Cursor",
          file: "/home/me/.cursor/mcp.json",
          unsupported: "",
          stdioOnly: false,
          format: "JSON",
          proof: "its documented schema (no program of it runs here)",
          configured: false,
          project: false,
        },
        {
          id: "claude-desktop",
          title: "Claude Desktop",
          file: "/home/me/.config/Claude/claude_desktop_config.json",
          unsupported: "",
          stdioOnly: true,
          format: "JSON",
          proof: "the bundle of make dist passes mcpb validate and mcpb pack",
          configured: false,
          project: false,
        },
        {
          id: "codex",
          title: "Codex",
          file: "/home/me/.codex/config.toml",
          unsupported: "",
          stdioOnly: true,
          format: "TOML",
          proof: "codex mcp get app --json (Codex) reads the entry back as the app wrote it",
          configured: true,
          project: false,
        },
        {
          id: "claude-code-project",
          title: "Claude Code (this project)",
          file: "",
          unsupported: "",
          stdioOnly: true,
          format: "JSON",
          proof: "claude mcp get (Claude Code) reads the project's .mcp.json",
          configured: false,
          project: true,
        },
        { id: "other", title: "Other", file: "", unsupported: "", stdioOnly: false, format: "JSON", proof: "the MCP Inspector CLI runs it", configured: false, project: false },
      ],
      connect: async (req) => ({
        text: `{"mcpServers":{"app":{"url":"http://127.0.0.1:23817/mcp","headers":{"Authorization":"Bearer app_secret"}}}}`,
        format: "json",
        file: req.client === "cursor" ? "/home/me/.cursor/mcp.json" : "",
        note: "",
        token: { id: "t9", name: "Cursor", level: req.level, connections: [], expiresAt: "", createdAt: "", lastUsedAt: "", expired: false },
        written: req.write ? "/home/me/.cursor/mcp.json" : "",
        backup: "",
        declined: false,
      }),
      remove: async (req) => ({ file: `/home/me/${req.client}`, backup: `/home/me/${req.client}.bak-1`, revoked: "Codex 2026-12-06", declined: false }),
      ...more.pairing,
    },
    emitProgress: plugins.emitProgress,
    emitChanged: () => listeners.forEach((l) => l()),
    emitDropped: (e) => dropListeners.forEach((l) => l(e)),
    emitRestored: (id) => restoreListeners.forEach((l) => l(id)),
    explorer: fakeExplorer({
      onDropped: (cb) => {
        dropListeners.add(cb);
        return () => dropListeners.delete(cb);
      },
      onRestored: (cb) => {
        restoreListeners.add(cb);
        return () => restoreListeners.delete(cb);
      },
      ...explorer,
    }),
    connections: {
      list: () => {
        calls.list++;
        return list();
      },
      remove: async () => true,
      get: async (id) => connectionForm({ id, name: "Local Weaviate" }),
      save: async (form) => connection({ id: form.id || "new", name: form.name, host: form.values.host ?? "", port: Number(form.values.port ?? 0) }),
      test: async () => ({ serverVersion: "1.35.2", paths: [], changed: {} }),
      describe: async () => weaviateDescription(),
      types: async () => [{ name: "weaviate", label: "Weaviate", summary: weaviateDescription().types[0].summary, plugin: "weaviate", installed: false }],
      chooseFile: async () => "",
      fromURL: async () => ({ values: {}, secrets: {} }),
      duplicate: async (id) => connection({ id: `${id}-copy`, name: "Local Weaviate (copy)" }),
      onChanged: (cb) => {
        listeners.add(cb);
        return () => listeners.delete(cb);
      },
      ...more.connections,
    },
  };
}

/** fakeEditor keeps history and saved queries in memory; run answers an empty JSON document. */
export function fakeEditor(overrides: Partial<EditorApi> = {}): EditorApi {
  const history: HistoryEntry[] = [];
  const saved: SavedQuery[] = [];
  return {
    run: async (_id, text) => {
      history.unshift({ text, at: "2026-01-01T00:00:00Z", ok: true, error: "" });
      return { kind: "json", grid: null, json: "{}", text: "", table: "", status: 0, message: "", access: "read", destructive: false, elapsedMs: 1, notice: "", tag: "", before: [] };
    },
    cancel: async () => false,
    history: async (_id, search) => history.filter((e) => e.text.toLowerCase().includes(search.toLowerCase())),
    clearHistory: async () => {
      history.length = 0;
    },
    savedQueries: async () => [...saved],
    saveQuery: async (_id, name, text) => {
      const i = saved.findIndex((q) => q.name === name);
      if (i >= 0) saved[i] = { name, text };
      else saved.push({ name, text });
    },
    deleteSavedQuery: async (_id, name) => {
      const i = saved.findIndex((q) => q.name === name);
      if (i >= 0) saved.splice(i, 1);
    },
    // The driver's own menu is tested against weaviate-server (its templates_integration_test);
    // here two entries stand in for it.
    completions: async () => ({ named: false, tables: {}, functions: [] }),
    templates: async (_id, table) => [
      { name: "Get", text: `{ Get { ${table || "Collection"}(limit: 10) { _additional { id } } } }` },
      { name: "Aggregate", text: `{ Aggregate { ${table || "Collection"} { meta { count } } } }` },
    ],
    ...overrides,
  };
}

/** emptyLayout is the layout of a first run. */
export function emptyLayout(overrides: Partial<Layout> = {}): Layout {
  return { tabs: [], active: "", lastTable: {}, columnWidths: {}, ...overrides };
}

/** fakeLayout keeps the layout in memory (a copy per call, as the bound API answers). */
export function fakeLayout(overrides: Partial<LayoutApi> = {}): LayoutApi {
  let stored = emptyLayout();
  return {
    layout: async () => structuredClone(stored),
    saveLayout: async (l) => {
      stored = structuredClone(l);
    },
    ...overrides,
  };
}

/** deferred returns a promise and the functions that settle it, for loading-state tests. */
export function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** A search's profile as weaviate-server 1.39.0 gives one (two timed phases and a method). */
export const sampleProfile = {
  shards: [
    {
      name: "article_sMsSObsI0KUQ",
      node: "node1",
      searches: [
        {
          kind: "keyword",
          metrics: [
            { name: "kwd_method", value: "blockmaxwand" },
            { name: "kwd_time", value: "200µs", seconds: 0.0002 },
            { name: "total_took", value: "400µs", seconds: 0.0004 },
          ],
        },
      ],
    },
  ],
};

/** A backup as the window's API answers one, with what a test names. */
export function fakeBackup(b: Partial<Backup>): Backup {
  return { id: "app-1", backend: "filesystem", tables: [], state: "running", phase: "STARTED", started: "2026-12-07T12:00:00Z", completed: "", bytes: 0, where: "", error: "", ...b };
}
