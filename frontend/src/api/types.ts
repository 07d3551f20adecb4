// The one typed API the UI talks to. Components get it from ApiContext (./context), never
// from the generated Wails bindings, so a test can hand them another implementation.
import type { ApiError } from "./errors";

/** A saved connection as the UI shows it (mirrors dto.ConnectionDTO in Go). */
export interface Connection {
  id: string;
  name: string;
  /** Database type, e.g. "weaviate". */
  type: string;
  host: string;
  port: number;
  /** "None" | "API Key" */
  authMethod: string;
  /** One of the six SSL modes, e.g. "Disabled". */
  sslMode: string;
  skipTLSVerify: boolean;
  /** How MCP clients may use it: "blocked", "readOnly" or "readWrite". */
  externalAccess: string;
  /** RFC 3339 timestamp. */
  createdAt: string;
  /** Where it points, as its type's plugin says (host:port, a file); "" when not known. */
  address?: string;
  /** Its type's label from the plugin; "" when not known. */
  typeLabel?: string;
  /** What its editor takes, in its driver's words ("GraphQL reads and REST lines"); "" when not known. */
  language?: string;
  /** Its settings as its page lists them: each described field that applies, by label (never a secret). */
  settings?: { label: string; value: string }[];
}

/**
 * The connection form (mirrors dto.ConnectionFormDTO): the values of the fields its type's
 * plugin describes, by key, as text. Secrets only ever go to the backend (save, test) and
 * are never sent back: savedSecrets names the ones in the keyring.
 */
export interface ConnectionForm {
  /** "" for a new connection. */
  id: string;
  name: string;
  type: string;
  /** The settings by their description's keys ("true"/"false" for a bool; a missing key is empty). */
  values: Record<string, string>;
  /** "blocked" | "readOnly" | "readWrite" */
  externalAccess: string;
  /** "alwaysAsk" | "askForWrites" | "neverForWrites" */
  aiPolicy: string;
  /** Keys of the secrets saved in the keyring (read-only). */
  savedSecrets: string[];
}

/** How a setting is entered and checked (mirrors driver.FieldKind). */
export type FieldKind = "text" | "int" | "bool" | "enum" | "secret" | "path";

/** One field of a connection's settings, as its plugin describes it (mirrors driver.SettingField). */
export interface SettingField {
  key: string;
  label: string;
  kind: FieldKind;
  default: string;
  placeholder: string;
  help: string;
  required: boolean;
  /** "" for the main group, else the group's name ("Advanced"). */
  section: string;
  options: string[];
  optionHelp: Record<string, string>;
  /** Bounds of an int (both 0: none). */
  min: number;
  max: number;
  /** "host" for a host name, "" for any text. */
  format: string;
  /** The field applies only while another field has one of these values. */
  showWhen: { key: string; in: string[] } | null;
}

/** What the form offers when a field ends with one of some suffixes (mirrors driver.Suggestion). */
export interface Suggestion {
  key: string;
  suffixes: string[];
  set: Record<string, string>;
  text: string;
  action: string;
}

/** A connection type a plugin serves (mirrors plugins.ConnType). */
export interface ConnectionType {
  name: string;
  label: string;
  summary: string;
  plugin: string;
  installed: boolean;
}

/** What a plugin says of a connection type's connections (mirrors driver.Description). */
export interface ConnectionDescription {
  types: { name: string; label: string; summary: string }[];
  settings: SettingField[];
  suggestions: Suggestion[];
  /** The keys whose values say where a connection points. */
  address: string[];
  /** The connection URL form, where the database has one: a URL fills the fields (fromURL). */
  url: { schemes: string[]; example: string } | null;
}

/** One way to the database and how it answered a Test (Weaviate: REST, GraphQL, gRPC). */
export interface PathStatus {
  name: string;
  ok: boolean;
  detail: string;
}

/** A successful Test of the connection form. */
export interface TestResult {
  serverVersion: string;
  /** Each path tested separately; empty when the driver reports the connection as a whole. */
  paths: PathStatus[];
  /** Settings the person let the test change in a native question (a missing file created): the form takes them. */
  changed?: Record<string, string>;
}

export interface ConnectionsApi {
  /** list returns the saved connections, in the backend's order. */
  list(): Promise<Connection[]>;
  /**
   * remove deletes a saved connection by id after the user confirms in a native dialog; it
   * resolves false when the user declined (nothing was deleted).
   */
  remove(id: string): Promise<boolean>;
  /** get returns a saved connection for the edit form (never its API key). */
  get(id: string): Promise<ConnectionForm>;
  /** save adds (id "") or edits a connection; a secret left out or "" keeps the saved one. */
  save(form: ConnectionForm, secrets: Record<string, string>): Promise<Connection>;
  /** test connects once with the form's values, not saved; rejects with the driver's error. */
  test(form: ConnectionForm, secrets: Record<string, string>): Promise<TestResult>;
  /** describe returns what a type's plugin says of its connections: the form's fields. */
  describe(type: string): Promise<ConnectionDescription>;
  /** fromURL is what a connection URL of the type's form fills: values and secrets by key. */
  fromURL(type: string, url: string): Promise<{ values: Record<string, string>; secrets: Record<string, string> }>;
  /** types lists the connection types the registry offers and the installed plugins serve. */
  types(): Promise<ConnectionType[]>;
  /** chooseFile is the native open dialog for a path field; "" when closed. */
  chooseFile(title: string): Promise<string>;
  /** duplicate saves a copy named "<name> (copy)", with its key. */
  duplicate(id: string): Promise<Connection>;
  /**
   * onChanged calls back whenever the saved connections change outside the window (for
   * example `app connection add` in a terminal). It returns the unsubscribe function.
   */
  onChanged(callback: () => void): () => void;
}

/** What connect() reports about an open connection (mirrors dto.ConnectionStateDTO). */
export interface ConnectionState {
  id: string;
  connected: boolean;
  /** The database's version, "" when unknown. */
  serverVersion: string;
  /** What the connection's driver offers. */
  capabilities: Capabilities;
}

/** What a driver offers, as its plugin reports it. */
export interface Capabilities {
  /** The editor's language ("graphql"). */
  queryLanguage: string;
  /** The editor also runs "<METHOD> <path> [body]" lines. */
  restLines: boolean;
  /** The deepest row paging reaches (offset + limit); 0 when the driver sets no stop. */
  maxResults: number;
  /** The page size of a read that names none. */
  defaultPageSize: number;
  /** Edits are applied atomically (false: row by row). */
  transactions: boolean;
  /** The optional features the driver offers (declared up front): nothing it lacks is shown. */
  scan: boolean;
  tenants: boolean;
  nodes: boolean;
  templates: boolean;
  /** The driver describes its searches by words; false: a plugin to update for them. */
  searchModes: boolean;
}

/** One table (a Weaviate collection) of an open connection. */
export interface Table {
  name: string;
  description: string;
  /** The rows live in tenants, listed under the table (listTenants); the table reads none. */
  multiTenant: boolean;
  /** What the table is where not a plain table ("view", "materialized view"); "" for a table. */
  kind?: string;
  /** The database's estimate of its rows, shown until they are counted; null: none. */
  estimate?: number | null;
}

/**
 * The row count of one table; null when it cannot be counted, with the reason. A
 * multi-tenant table has no rows of its own: tenants is how many tenants it has.
 */
export interface TableCount {
  name: string;
  count: number | null;
  /** count is the database's estimate: the exact count ran past its time. */
  estimated?: boolean;
  tenants?: number;
  message: string;
}

/** One node of the connection's cluster, and what each table keeps on it. */
export interface ClusterNode {
  name: string;
  /** The database's word for its health (Weaviate: HEALTHY, UNHEALTHY, UNAVAILABLE, …). */
  status: string;
  version: string;
  objects: number;
  shards: number;
  tables: NodeTable[];
}

/** What one table keeps on one node; a table's own listing (tableNodes) names each shard. */
export interface NodeTable {
  table: string;
  shards: number;
  loaded: number;
  objects: number;
  shardList: NodeShard[];
  /** Shards past the listing's cut (a multi-tenant table has one a tenant). */
  shardsLeftOut: number;
}

/** One shard of a table on a node (a tenant's, for a multi-tenant table). */
export interface NodeShard {
  name: string;
  objects: number;
  loaded: boolean;
  /** The vector index's state as the database names it (READY, INDEXING, READONLY). */
  vectorIndexing: string;
}

/** The activity statuses of a tenant a person may set. */
export type TenantStatus = "ACTIVE" | "INACTIVE" | "OFFLOADED";

/** A window of a table's tenants: `matched` of `total` hold the filter; `tenants` start at `offset`. */
export interface TenantPage {
  total: number;
  matched: number;
  offset: number;
  tenants: Tenant[];
  /** The window came from a listing kept earlier (the tree's count), not read just now. */
  kept?: boolean;
}

/** One tenant of a multi-tenant table; `table` opens it as a table of its own. */
export interface Tenant {
  name: string;
  table: string;
  /** ACTIVE, INACTIVE, OFFLOADED, or a transition (OFFLOADING, ONLOADING). */
  status: string;
}

/**
 * A column's portable kind (the driver's ColumnKind): what its values are, whatever the database
 * calls its type. The window branches on kinds only; it shows the type.
 */
export type ColumnKind =
  | "text"
  | "integer"
  | "number"
  | "boolean"
  | "datetime"
  | "date"
  | "uuid"
  | "json"
  | "binary"
  | "array"
  | "vector"
  | "reference"
  | "geo"
  | "other";

export interface Column {
  name: string;
  /** The database's own type name, shown as it is ("vector" and "vectors" are the contract's vector types). */
  type: string;
  /** The portable kind; absent or "" when unknown (a computed editor field, a plugin that sends none). */
  kind?: ColumnKind | "";
  /** An array's element kind. */
  of?: ColumnKind | "";
  /** A vector's declared length, 0 when unknown. */
  dimension?: number;
  primaryKey: boolean;
  readOnly: boolean;
  /** Cells are JSON text (arrays, objects, references, vectors). */
  json: boolean;
  description: string;
  /** The filter operators the column accepts under the collection's settings. */
  filterable: string[];
  /** Whether the grid can sort on the column. */
  sortable: boolean;
  /** A vector column whose cells are previews (VectorPreview JSON); explorer.vectors reads them whole. */
  preview: boolean;
  /** How a text column is split for filters ("word", "field", ...); "" for other columns. */
  tokenization?: string;
  /** Per filter operator, what it will match under the tokenization (the driver's words). */
  filterNotes?: Record<string, string>;
  /** Operators that fit the column but cannot run here, with the driver's reason: shown disabled. */
  blocked?: Record<string, string>;
}

export interface TableSettings {
  multiTenancy: boolean;
  vectorizer: string;
  namedVectors: string[];
  /** With namedVectors: the collection also has its own, unnamed vector ("" by name). */
  ownVector: boolean;
  /** The named vectors a vectorizer fills from the rows' text (nearText runs on them). */
  vectorizedVectors: string[];
  indexNullState: boolean;
  indexPropertyLength: boolean;
}

/**
 * A stored row's key: the cells of its table's key columns (TableInfo.primaryKey), by column,
 * as the grid read them (text; a map's keys may carry numbers and booleans). api/rowKey.ts
 * holds the rules for reading, naming and showing one.
 */
export type RowKey = Record<string, unknown>;

/** describeTable's answer. */
export interface TableInfo {
  name: string;
  description: string;
  /** The key columns, in the key's order; none: rows are read and added, never named one by one (no edit, delete or Find similar). */
  primaryKey: string[];
  columns: Column[];
  settings: TableSettings;
  /** The table's definition in words, in sections (the driver's words). */
  details: DetailSection[];
  /** Its searches by words, the default first; none: only near a vector or a row. */
  searches: SearchMode[];
}

/** One part of a table's definition in words, e.g. "Inverted index". */
export interface DetailSection {
  title: string;
  items: DetailItem[];
}

/** One setting in words; `setting` is the database's name for it, which filter refusals quote. */
export interface DetailItem {
  label: string;
  value: string;
  setting: string;
}

/** One search by words of a table, as its driver describes it: the panel draws its fields from it. */
export interface SearchMode {
  /** Sent back as SearchRequest.mode. */
  name: string;
  label: string;
  /** What it matches, in one line. */
  hint: string;
  /** A caution about this table's use of it, shown beside the form. */
  note: string;
  /** The column that ranks the matches. */
  measure: string;
  /** The words may be matched in chosen columns, among textColumns. */
  columns: boolean;
  textColumns: string[];
  /** The database can explain each score. */
  explains: boolean;
  /** It uses a vector: on a table with several, one is chosen. */
  vector: boolean;
  params: SearchParam[];
}

/** One parameter of a search mode: a number in bounds, or one of some options ("" the database's default). */
export interface SearchParam {
  key: string;
  label: string;
  help: string;
  kind: "number" | "enum" | string;
  min: number;
  max: number;
  step: number;
  minLabel: string;
  maxLabel: string;
  default: string;
  options: string[];
  optionLabels: Record<string, string>;
}

/** What a search searches by: words in a mode, a pasted vector, or a row's vector. */
export type SearchBy = "words" | "vector" | "row";

/** One search of the search panel; the grid's filters narrow its matches. */
export interface SearchRequest {
  by: SearchBy;
  /** words: one of the table's searches, by name. */
  mode: string;
  /** The words searched for. */
  query: string;
  /** by vector: the vector as pasted, a JSON array of numbers. */
  vector: string;
  /** by row: the row's key. */
  row: RowKey;
  /** words: the key of the row whose vector fills the mode's vector parameter ({} none). */
  vectorRow: RowKey;
  /** The mode's parameters by key, as text ("" the database's default). */
  params: Record<string, string>;
  /** The columns the words are matched in (none: every one the mode searches). */
  searchColumns: string[];
  targetVector: string;
  filters: Filter[];
  limit: number;
  /** Ask the database to explain each score (a last column). */
  explain: boolean;
}

/** search's answer: the matches best first, the search in words, or the filter that cannot run. */
export interface SearchResult {
  grid: Grid;
  describe: string;
  /** The column that ranks the matches (the mode's measure, or distance near a vector). */
  measure: string;
  refused: FilterRefusal | null;
}

/** What the Map tab maps: the vector ("" for the table's own), the grid's filters, at most `max` points. */
export interface MapRequest {
  vector: string;
  filters: Filter[];
  /** 0: 100,000. */
  max: number;
  /** Compute the layout again even when one is kept. */
  fresh: boolean;
}

/** A map's points, before their layout arrives (onMapFrame): cell i of each column is point i's. */
export interface MapPoints {
  id: string;
  /** Point i's key is keys[i][j] for each keyColumns[j] (mapModel's pointKey reads it). */
  keyColumns: string[];
  keys: unknown[][];
  /** kind is the portable column kind (ColumnKind) the map branches on; type is shown. */
  columns: { name: string; type: string; kind: string; values: (string | null)[] }[];
  vector: string;
  dims: number;
  /** Rows that hold the filters; `skipped` of them have no such vector. */
  matched: number;
  skipped: number;
  /** The points are a uniform sample of the matched rows. */
  sampled: boolean;
  /** The layout was kept from an earlier map of the same rows. */
  kept: boolean;
}

/** One layout of a map: point i at (xy[2i], xy[2i+1]); the PCA frame first, then UMAP's. */
export interface MapFrame {
  id: string;
  stage: "pca" | "umap";
  epoch: number;
  epochs: number;
  xy: Float32Array;
  done: boolean;
  error: string;
  /** The layout was stopped (Cancel): the frame before stays the picture. */
  cancelled: boolean;
}

/** One read-only page of rows. A cell is display text or null. */
export interface Grid {
  columns: Column[];
  rows: (string | null)[][];
  /** Row number of rows[0] in the whole table. */
  offset: number;
  hasMore: boolean;
  /** Why paging stopped, e.g. at row 10,000; "" when nothing to say. */
  notice: string;
  /** Set, with no rows, when a filter cannot run: which one and why. */
  refused: FilterRefusal | null;
}

/** One column filter as typed: value (a comma list for in/not_in, between's lower bound), value2. */
export interface Filter {
  column: string;
  operator: string;
  value: string;
  value2: string;
  /** Filters with the same non-zero group are ORed; the groups (and ungrouped filters) ANDed. */
  group?: number;
}

export interface Sort {
  column: string;
  descending: boolean;
}

/** One page request: filters all hold (AND); sort keys first to last. */
export interface BrowseRequest {
  offset: number;
  limit: number;
  filters: Filter[];
  sort: Sort[];
}

/** A filter the backend refused: its index in the request (-1: unknown), and the reason. */
export interface FilterRefusal {
  index: number;
  column: string;
  operator: string;
  reason: string;
  message: string;
}

/** count's answer: the matching rows, or null with the refusal. */
export interface CountResult {
  count: number | null;
  /** count is the database's estimate: the exact count ran past its time (absent: exact). */
  estimated?: boolean;
  refused: FilterRefusal | null;
}

/**
 * One pending row of the grid, as commit sends it. ref is the grid's own name for the row,
 * echoed in its outcome; key names the stored row (updates, deletes; {} for an insert, whose
 * typed key cells are among its values); values are the typed text per column, null for NULL
 * (updates: only the edited cells).
 */
export interface RowChange {
  ref: string;
  key: RowKey;
  values: Record<string, string | null>;
  /** An update's edited cells as they were read: a driver that can writes the row only if they still hold (else a conflict). */
  original?: Record<string, string | null>;
}

/** Every pending change of one table. */
export interface CommitRequest {
  updates: RowChange[];
  inserts: RowChange[];
  deletes: RowChange[];
}

/** What happened to one pending row. */
export interface RowOutcome {
  ref: string;
  action: "update" | "insert" | "delete";
  /** The row's key; for an insert, the one the database stored it under. */
  key: RowKey;
  status: "ok" | "skipped" | "failed";
  code: string;
  message: string;
}

/** commit's answer: one outcome per row, or declined (the deletion was not confirmed, nothing sent). */
export interface CommitResult {
  outcomes: RowOutcome[];
  declined: boolean;
}

/** findSimilar's answer: the matches (key, properties, distance) and the vector searched. */
export interface SimilarResult {
  grid: Grid;
  targetVector: string;
  dimensions: number;
}

/** A connection dropped by a failing health check, with the reason. */
export interface ConnectionDropped {
  id: string;
  error: ApiError;
}

/** The file formats of export and import. */
export type TransferFormat = "csv" | "jsonl" | "parquet";

/** ExportRequest is an export from the grid: the format, the grid's filters and sort, the vectors. */
export interface ExportRequest {
  format: TransferFormat;
  filters: Filter[];
  sort: Sort[];
  vectors: boolean;
}

/** ExportResult: done (the file is complete), cancelled (no file) or not_chosen (the save dialog was closed). */
export interface ExportResult {
  status: "done" | "cancelled" | "not_chosen";
  rows: number;
  path: string;
  bytes: number;
  elapsedMs: number;
}

/** TransferProgress is how far a running export or import is (total -1 when unknown). */
export interface TransferProgress {
  id: string;
  rows: number;
  total: number;
  rate: number;
  leftMs: number;
}

/** Rejected is a row an import did not write, with its line in the file and why. */
export interface Rejected {
  line: number;
  /** The row's key as text, "" when the file gave none. */
  key: string;
  reason: string;
}

/** ImportPreview is a file's first rows as the import reads them, checked against the table. */
export interface ImportPreview {
  path: string;
  format: string;
  columns: string[];
  /** targets suggests each column's table column ("" when the table has none of that name). */
  targets: string[];
  rows: (string | null)[][];
  /** problems: row index -> column -> why the table's type refuses the cell. */
  problems: Record<string, Record<string, string>>;
  broken: Rejected[];
  /** exists is false when the table does not exist yet (the import asks before creating it). */
  exists: boolean;
  tableColumns: string[];
}

/** ImportResult: done, stopped (the counts say what was written) or not_confirmed (nothing written). */
export interface ImportResult {
  status: "done" | "stopped" | "not_confirmed";
  written: number;
  skipped: number;
  failed: number;
  unknown: number;
  created: boolean;
  report: string;
  rejected: Rejected[];
  message: string;
  elapsedMs: number;
}

export interface ExplorerApi {
  /** connect opens a saved connection (checks reachability, TLS and the credential). */
  connect(id: string): Promise<ConnectionState>;
  disconnect(id: string): Promise<void>;
  /** listTables lists an open connection's tables; rejects `unavailable` when not open. */
  listTables(id: string): Promise<Table[]>;
  /** tableCounts counts the rows of every table (slower than listTables). */
  tableCounts(id: string): Promise<TableCount[]>;
  /**
   * listTenants answers a window of a multi-tenant table's tenants by name: those whose name
   * holds `filter`, from `offset`, at most `limit`. `fresh` lists them from the database first;
   * otherwise the window comes from the last listing (so scrolling 50,000 costs no re-read).
   */
  listTenants(id: string, table: string, filter: string, offset: number, limit: number, fresh: boolean): Promise<TenantPage>;
  /** nodes reads the cluster's nodes (Weaviate: /v1/nodes). */
  nodes(id: string): Promise<ClusterNode[]>;
  /** tableNodes reads where one table lives: each node with the table's shards listed. */
  tableNodes(id: string, table: string): Promise<ClusterNode[]>;
  /** search runs the search panel's search: by words in one of the table's modes, near a vector or near a row. */
  search(id: string, table: string, req: SearchRequest): Promise<SearchResult>;
  /** setTenantStatus asks natively, then sets the status; false when the person said No. */
  setTenantStatus(id: string, table: string, tenant: string, status: TenantStatus): Promise<boolean>;
  describeTable(id: string, table: string): Promise<TableInfo>;
  /** browse reads one page with filters (ANDed) and sort; a refused filter gives refused, no rows. */
  browse(id: string, table: string, req: BrowseRequest): Promise<Grid>;
  /** count counts the rows matching the filters (the database's Aggregate). */
  count(id: string, table: string, filters: Filter[]): Promise<CountResult>;
  /** checkCells types a row's typed cells as commit will, sending nothing: column -> reason for each bad one. */
  checkCells(id: string, table: string, values: Record<string, string | null>): Promise<Record<string, string>>;
  /** commit writes the pending changes (deleting asks natively first) and reports each row. */
  commit(id: string, table: string, req: CommitRequest): Promise<CommitResult>;
  /** setPendingChanges tells the backend how many rows have unwritten changes (quitting then asks). */
  setPendingChanges(rows: number): Promise<void>;
  /** vectors reads the full vector cells of rows by key (a grid page carries previews): result[i] is keys[i]'s JSON text, null when it has none. */
  vectors(id: string, table: string, keys: RowKey[]): Promise<(string | null)[]>;
  /** findSimilar: the rows nearest one row's vector, best first with distance (targetVector "" picks the only one). */
  findSimilar(id: string, table: string, key: RowKey, targetVector: string, limit: number): Promise<SimilarResult>;
  /** exportTable asks where to save (natively), then writes the table's rows; transferId names it for cancelTransfer and progress. */
  exportTable(transferId: string, id: string, table: string, req: ExportRequest): Promise<ExportResult>;
  /** exportGrid asks where to save (natively), then writes a grid the window holds (an editor result, Find similar's matches). */
  exportGrid(name: string, format: TransferFormat, grid: Grid): Promise<ExportResult>;
  /** openMap reads the vectors for a map (progress as onTransferProgress with mapId) and answers its points; frames follow (onMapFrame). */
  openMap(mapId: string, id: string, table: string, req: MapRequest): Promise<MapPoints>;
  /** saveMapImage asks where to save the map of a table (natively) and writes its picture (a data: URL of a PNG). */
  saveMapImage(table: string, dataUrl: string): Promise<ExportResult>;
  /** onMapFrame calls back with each layout of a map as it is computed; returns unsubscribe. */
  onMapFrame(callback: (f: MapFrame) => void): () => void;
  /** cancelTransfer stops a running export (no file left) or import (between batches), or a map's read and layout. */
  cancelTransfer(transferId: string): Promise<void>;
  /** chooseImportFile is the native open dialog; "" when closed. */
  chooseImportFile(): Promise<string>;
  /** previewImport reads a file's first rows as an import into table would, writing nothing. */
  previewImport(id: string, table: string, path: string): Promise<ImportPreview>;
  /** importFile imports path into table (mapping: file column -> table column, "-" skips); a missing table is created after a native question. */
  importFile(transferId: string, id: string, table: string, path: string, mapping: Record<string, string>): Promise<ImportResult>;
  /** onTransferProgress calls back with each progress of a running export or import; returns unsubscribe. */
  onTransferProgress(callback: (p: TransferProgress) => void): () => void;
  /** onDropped calls back when a health check drops an open connection; returns unsubscribe. */
  onDropped(callback: (e: ConnectionDropped) => void): () => void;
  /** onRestored calls back with the id of a dropped connection that came back by itself (its node answers again). */
  onRestored(callback: (id: string) => void): () => void;
}

/** One plugin of Settings, Plugins (mirrors dto.PluginDTO). */
export interface Plugin {
  name: string;
  displayName: string;
  description: string;
  publisher: string;
  /** The installed version, "" when none. */
  installed: string;
  /** The version this app would install here, "" when none. */
  available: string;
  /** Download size of `available`, in bytes. */
  size: number;
  releaseNotes: string;
  /** "installed" | "update available" | "not installed" | "not available for this platform" | ... */
  status: string;
  reason: string;
  /** The package's bundled mirror answered, not the online registry (it could not be reached, or none is named). */
  fromMirror: boolean;
}

export interface PluginList {
  plugins: Plugin[];
  /** Why the registry could not be read ("" when it could); installed plugins are listed anyway. */
  registryError: string;
}

/** What choosing a connection type needs (mirrors dto.PluginOfferDTO). */
export interface PluginOffer {
  plugin: string;
  displayName: string;
  description: string;
  publisher: string;
  /** The plugin is installed: the form opens at once. */
  installed: boolean;
  version: string;
  size: number;
  releaseNotes: string;
  /** Why there is nothing to install on this platform ("" when there is). */
  unavailable: string;
  /** The package's bundled mirror offers it (the online registry could not be reached, or none is named). */
  fromMirror: boolean;
}

export interface PluginResult {
  plugin: string;
  version: string;
  previous: string;
  changed: boolean;
  available: string;
}

/** A plugin download's progress; connectionId names the saved connection waiting for it. */
export interface PluginProgress {
  plugin: string;
  version: string;
  done: number;
  total: number;
  connectionId: string;
  /** The package's bundled mirror serves the download. */
  fromMirror: boolean;
}

export interface PluginsApi {
  list(): Promise<PluginList>;
  /** offer says whether a connection type's plugin must be downloaded first, and what it is. */
  offer(connectionType: string): Promise<PluginOffer>;
  install(name: string): Promise<PluginResult>;
  update(name: string): Promise<PluginResult>;
  uninstall(name: string): Promise<string[]>;
  /** onProgress calls back for every download's progress; returns unsubscribe. */
  onProgress(callback: (p: PluginProgress) => void): () => void;
}

/** An MCP token as Settings lists it (mirrors dto.TokenDTO): never the token itself. */
export interface Token {
  id: string;
  name: string;
  /** "readOnly" | "readWrite" | "fullAccess" */
  level: string;
  /** Connection ids it is limited to; empty means every connection. */
  connections: string[];
  /** RFC 3339, "" when none. */
  expiresAt: string;
  createdAt: string;
  lastUsedAt: string;
  expired: boolean;
}

export interface TokenRequest {
  name: string;
  level: string;
  connections: string[];
  /** As `app token create --expires`: 30d, 2w, 12h, 2026-12-31, or "" / never. */
  expires: string;
}

export interface TokensApi {
  list(): Promise<Token[]>;
  /** create returns the token's secret: the only time it is shown. */
  create(req: TokenRequest): Promise<{ token: Token; secret: string }>;
  /** revoke asks in a native dialog first; false when the user declined. */
  revoke(id: string): Promise<boolean>;
}

/** Settings, MCP server (mirrors dto.MCPSettingsDTO). */
export interface MCPSettings {
  enabled: boolean;
  port: number;
  requireAuth: boolean;
  externalAccess: boolean;
  defaultRowLimit: number;
  maxRowLimit: number;
  queryTimeoutSeconds: number;
  rateLimitPerMinute: number;
  /** The port the server listens on now, 0 when it does not. */
  boundPort: number;
  /** The status line, e.g. "Running on 127.0.0.1:23817". */
  status: string;
  /** Why an enabled server is not running, "" when none. */
  error: string;
  /** Says the server fell back from a taken port; "" when it did not. */
  portNotice: string;
  /** AI clients whose config files point at another port: they cannot reach the server. */
  staleClients: StaleClient[];
}

/** A client set up with another port than the running server's (mirrors dto.StaleClientDTO). */
export interface StaleClient {
  client: string;
  title: string;
  file: string;
  url: string;
}

/** What "Re-pair" did for one client: its config file's backup, or why not. */
export interface RepairedClient {
  title: string;
  file: string;
  backup: string;
  error: string;
}

export interface SettingsApi {
  mcp(): Promise<MCPSettings>;
  /** setMCP changes one mcp.* setting (key without the prefix) and applies it at once. */
  setMCP(key: keyof MCPSettings, value: string): Promise<MCPSettings>;
  /** onStarted calls back once the backend (and its MCP server) started; returns unsubscribe. */
  onStarted(callback: () => void): () => void;
  /** repairClients points every stale client at the running server's port. */
  repairClients(): Promise<{ repaired: RepairedClient[]; settings: MCPSettings }>;
  /** foreignChanges lists the policy files another program changed (App acts on its own last version of each). */
  foreignChanges(): Promise<ForeignChange[]>;
  /** acceptForeignChange makes another program's change of the file App's own. */
  acceptForeignChange(name: string): Promise<void>;
  /** revertForeignChange writes App's own last version of the file back. */
  revertForeignChange(name: string): Promise<void>;
}

/** A policy file another program changed (mirrors dto.ForeignChangeDTO). */
export interface ForeignChange {
  /** The file's name in the config dir, e.g. "settings.json". */
  name: string;
  path: string;
  /** "changed" | "removed" | "added" | "unsealed" */
  what: string;
  /** App holds its own last version to write back. */
  canRevert: boolean;
  /** When App last wrote it (RFC 3339; "" when unknown). */
  sealedAt: string;
}

/** A client that called the MCP endpoint lately (mirrors dto.ClientDTO). */
export interface ConnectedClient {
  name: string;
  version: string;
  /** "token:<id>" or "anonymous". */
  principal: string;
  tokenName: string;
  level: string;
  firstSeen: string;
  lastSeen: string;
  requests: number;
  errors: number;
}

export interface ClientsApi {
  /** recent lists the clients seen in the last 15 minutes, most recent first. */
  recent(): Promise<ConnectedClient[]>;
  /** disconnect revokes the client's token after a native confirmation; false when declined. */
  disconnect(principal: string, clientName: string): Promise<boolean>;
}

/** Chooses activity entries (mirrors dto.ActivityQueryDTO). Empty fields choose all. */
export interface ActivityQuery {
  client: string;
  token: string;
  connection: string;
  /** "ok", a code such as "query_failed" or "-33007", or "error" for every failure. */
  outcome: string;
  /** RFC 3339 or a duration ago ("24h"). */
  since: string;
  until: string;
  search: string;
  offset: number;
  limit: number;
}

/** One recorded MCP request (mirrors dto.ActivityEntryDTO). */
export interface ActivityEntry {
  id: number;
  time: string;
  clientName: string;
  clientVersion: string;
  principal: string;
  tokenName: string;
  level: string;
  method: string;
  name: string;
  connection: string;
  statement: string;
  outcome: string;
  durationMs: number;
  prevHash: string;
  hash: string;
  /** The request's W3C traceparent; "" when it sent none. */
  trace: string;
}

export interface ActivityPage {
  entries: ActivityEntry[];
  total: number;
  offset: number;
}

export interface ChainCheck {
  entries: number;
  anchorId: number;
  intact: boolean;
  brokenId: number;
  reason: string;
}

export interface ActivityApi {
  /** list returns a page of entries, newest first, and the total the query chooses. */
  list(q: ActivityQuery): Promise<ActivityPage>;
  /** exportCSV writes the chosen entries to a file picked in a native save dialog ("" if cancelled). */
  exportCSV(q: ActivityQuery): Promise<string>;
  verify(): Promise<ChainCheck>;
}

/** An AI client "Connect a client" offers (mirrors dto.PairingClientDTO). */
export interface PairingClient {
  id: string;
  title: string;
  /** Its user config file, "" when the app knows none or the file is a project's. */
  file: string;
  /** Why it cannot be connected yet, "" when it can. */
  unsupported: string;
  /** It only launches local programs: it always gets the stdio bridge app-mcp. */
  stdioOnly: boolean;
  /** The file's format: "JSON", "TOML" or "YAML". */
  format: string;
  /** The check that proves the file the app writes for this client. */
  proof: string;
  /** The file names the app's server now. */
  configured: boolean;
  /** The file is a project's (.mcp.json in a folder the person names): shared, so it holds no token. */
  project: boolean;
}

export interface PairingRequest {
  client: string;
  level: string;
  connections: string[];
  expires: string;
  write: boolean;
  /** Configure the stdio bridge app-mcp instead of the HTTP endpoint. */
  stdio: boolean;
  /** The project folder of a project's file. */
  project: string;
}

export interface PairingResult {
  /** The client's configuration in its file's format, holding the new token. */
  text: string;
  /** "json", "toml" or "yaml". */
  format: string;
  file: string;
  note: string;
  /** The new token; null for a project's file, which holds none. */
  token: Token | null;
  written: string;
  backup: string;
  /** The user said No to writing the file: nothing was created. */
  declined: boolean;
}

export interface PairingRemoval {
  client: string;
  project: string;
}

export interface PairingRemoved {
  file: string;
  backup: string;
  /** The name of the token the entry held, now revoked ("" when none). */
  revoked: string;
  /** The user said No: nothing was changed. */
  declined: boolean;
}

export interface PairingApi {
  clients(): Promise<PairingClient[]>;
  connect(req: PairingRequest): Promise<PairingResult>;
  /** Take the app's server out of the client's file (after a native confirmation) and revoke its token. */
  remove(req: PairingRemoval): Promise<PairingRemoved>;
}

/** An AI client's statement the user just approved in the native dialog. */
export interface ApprovalGranted {
  ticket: string;
  client: string;
  connection: string;
  token: string;
}

export interface ApprovalsApi {
  /** remember lets that token's later non-destructive statements on that connection run without asking until App restarts. */
  remember(ticket: string): Promise<void>;
  /** forgetRemembered makes every AI client ask again. */
  forgetRemembered(): Promise<void>;
  /** setFocused reports the window's focus (a waiting approval is announced by a desktop notification when it is not). */
  setFocused(focused: boolean): Promise<void>;
  /** onGranted calls back after each approval that may be remembered; returns unsubscribe. */
  onGranted(callback: (g: ApprovalGranted) => void): () => void;
}

/** run's answer: a Get as a grid, anything else as formatted JSON, or not run (a write the user declined). */
export interface RunResult {
  kind: "grid" | "json" | "text" | "not_run";
  grid: Grid | null;
  /** The formatted JSON document ("" for a grid). */
  json: string;
  /** Prose the database wrote to be read as it stands, a query plan (kind "text"). */
  text: string;
  /** The collection a grid came from, when known. */
  table: string;
  /** The HTTP status of a REST line (0 for GraphQL). */
  status: number;
  /** Why it did not run (not_run). */
  message: string;
  access: string;
  destructive: boolean;
  elapsedMs: number;
  /** What the driver says about the answer (translated to the server's gRPC API, cut at a row limit); "" when nothing. */
  notice: string;
  /** The database's word for what the statement did ("SELECT 3", "INSERT 0 1"); "" when none. */
  tag: string;
  /** The answers of the statements before the last, in order, when the text held several. */
  before: ResultSet[];
}

/** One statement's answer in a run of several (the fields of RunResult it shares). */
export interface ResultSet {
  kind: "grid" | "json" | "text";
  grid: Grid | null;
  json: string;
  text: string;
  tag: string;
  notice: string;
}

/** One statement run in the editor, newest first. */
export interface HistoryEntry {
  text: string;
  /** RFC 3339. */
  at: string;
  ok: boolean;
  /** The `code: message` text of a failed run. */
  error: string;
}

/** A named query of a connection. */
export interface SavedQuery {
  name: string;
  text: string;
}

export interface EditorApi {
  /** run runs one statement (GraphQL read or REST line); a write REST line is confirmed natively first. */
  run(connectionId: string, text: string): Promise<RunResult>;
  /** cancel stops the connection's running statements; true when one was running. */
  cancel(connectionId: string): Promise<boolean>;
  /** history lists the connection's runs, newest first, whose text holds every word of search. */
  history(connectionId: string, search: string): Promise<HistoryEntry[]>;
  clearHistory(connectionId: string): Promise<void>;
  savedQueries(connectionId: string): Promise<SavedQuery[]>;
  saveQuery(connectionId: string, name: string, text: string): Promise<void>;
  deleteSavedQuery(connectionId: string, name: string): Promise<void>;
  /** templates are the editor's statements in the connection's language, written for table ("" for none chosen). */
  templates(connectionId: string, table: string): Promise<Template[]>;
  /** completions are the words the connection's driver names for its language (named false: it names none). */
  completions(connectionId: string): Promise<EditorWords>;
}

/** The editor's words as a driver names them (mirrors dto.CompletionsDTO). */
export interface EditorWords {
  named: boolean;
  /** Each table's columns as the language names them. */
  tables: Record<string, string[]>;
  /** The functions a statement can call. */
  functions: string[];
}

/** One entry of the editor's template menu, from the connection's driver (mirrors dto.TemplateDTO). */
export interface Template {
  name: string;
  text: string;
}

/** A remembered tab: kind "connection" | "editor" | "table" | "settings"; connectionId "" for settings, table only for a table tab. */
export interface LayoutTab {
  kind: "connection" | "editor" | "table" | "settings";
  connectionId: string;
  table: string;
}

/** What the window remembers between runs (layout.json in the config dir). */
export interface Layout {
  tabs: LayoutTab[];
  /** The active tab's key ("" for none). */
  active: string;
  /** Connection id -> the table last active in it. */
  lastTable: Record<string, string>;
  /** "connectionId/table" -> column -> width in px (40..2000). */
  columnWidths: Record<string, Record<string, number>>;
}

export interface LayoutApi {
  /** layout is the remembered layout; empty when none or when the file was unusable. */
  layout(): Promise<Layout>;
  /** saveLayout replaces it; a layout breaking a rule (unknown kind, width outside 40..2000, too many entries) is invalid_argument. */
  saveLayout(layout: Layout): Promise<void>;
}

/** Api is everything the UI can ask of the backend. Every method rejects with an ApiError. */
export interface Api {
  approvals: ApprovalsApi;
  connections: ConnectionsApi;
  explorer: ExplorerApi;
  editor: EditorApi;
  layout: LayoutApi;
  plugins: PluginsApi;
  tokens: TokensApi;
  settings: SettingsApi;
  clients: ClientsApi;
  activity: ActivityApi;
  pairing: PairingApi;
  /** copy puts text on the system clipboard. */
  copy(text: string): Promise<void>;
  /** setWindowTitle names the window (the open table, "●" for pending changes). */
  setWindowTitle(title: string): void;
}
