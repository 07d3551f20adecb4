// The one typed API the UI talks to. Components get it from ApiContext (./context), never
// from the generated Wails bindings, so a test can hand them another implementation.
//
// The data types are Go's: generated from app/dto and the backend types it names into ./gen
// (cmd/gen-frontend-types; `go generate ./app/dto` after a Go type changes) and re-exported
// here under the names the UI uses. What is written here is the UI's own: the Api interfaces
// (the calls, the events as callbacks) and the few types the reader (./wails.ts) turns into
// something the wire does not carry.
import type { ApiError } from "./errors";
import type * as dto from "./gen/dto";
import type {
  ActivityPage,
  ActivityQuery,
  ApprovalGranted,
  Backup,
  Backups,
  BrowseRequest,
  ChainCheck,
  ClusterNode,
  RestoreResult,
  CommitRequest,
  CommitResult,
  ConnectedClient,
  Connection,
  ConnectionForm,
  ConnectionState,
  CountResult,
  CreatedToken,
  EditorWords,
  ExportRequest,
  ExportResult,
  Filter,
  ForeignChange,
  Grid,
  HistoryEntry,
  ImportPreview,
  ImportResult,
  Layout,
  MapPoints,
  MapRequest,
  MCPSettings,
  PairingClient,
  PairingRemoval,
  PairingRemoved,
  PairingRequest,
  PairingResult,
  PluginList,
  PluginOffer,
  PluginProgress,
  PluginResult,
  RepairResult,
  RowChange,
  RunResult,
  SavedQuery,
  SearchRequest,
  SearchResult,
  SimilarResult,
  Table,
  TableCount,
  TableInfo,
  Template,
  TenantPage,
  TenantStatus,
  TestResult,
  Token,
  TokenRequest,
  TransferProgress,
  URLFields,
} from "./gen/dto";
import type { AccessReport, Description } from "./gen/driver";
import type { ConnType } from "./gen/plugins";
import type { Format } from "./gen/transfer";

export type * from "./gen/dto";
export type { AccessReport, Permission, Role, User as DatabaseUser, BackupBackend, BackupState, RestorePlan, ColumnKind, Condition, FieldKind, ProfileMetric, QueryProfile, SearchMode, SearchParam, SettingField, ShardProfile, Suggestion, URLForm } from "./gen/driver";

/** What a type's plugin says of its connections: the form's fields (Go's driver.Description). */
export type ConnectionDescription = Description;

/** A connection type the registry offers and the installed plugins serve (Go's plugins.ConnType). */
export type ConnectionType = ConnType;

/** The file formats of export and import (Go's transfer.Format). */
export type TransferFormat = Format;

/**
 * A stored row's key: the cells of its table's key columns (TableInfo.primaryKey), by column,
 * as the grid read them (text; a map's keys may carry numbers and booleans). api/rowKey.ts
 * holds the rules for reading, naming and showing one.
 */
export type RowKey = RowChange["key"];

/** A connection dropped by a failing health check, its reason read into an ApiError (the window's, in place of the wire's dto.ConnectionDropped). */
export interface ConnectionDropped extends Pick<dto.ConnectionDropped, "id"> {
  error: ApiError;
}

/** One layout of a map: point i at (xy[2i], xy[2i+1]), the wire's base64 read into floats (the window's, in place of dto.MapFrame). */
export interface MapFrame extends Omit<dto.MapFrame, "xy"> {
  xy: Float32Array;
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
  fromURL(type: string, url: string): Promise<URLFields>;
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
  /** backups lists where the database keeps backups and those at backend ("" the first place). */
  backups(id: string, backend: string): Promise<Backups>;
  /** createBackup starts a backup of tables (none: all); backupStatus follows it. */
  createBackup(id: string, backend: string, tables: string[]): Promise<Backup>;
  backupStatus(id: string, backend: string, backupId: string): Promise<Backup>;
  cancelBackup(id: string, backend: string, backupId: string): Promise<void>;
  /** restoreBackup asks the person natively, naming what the restore creates and overwrites, then starts it (declined: nothing sent). */
  restoreBackup(id: string, backend: string, backupId: string, tables: string[]): Promise<RestoreResult>;
  restoreStatus(id: string, backend: string, backupId: string): Promise<Backup>;
  /** accessControl says who the connection is in its database and what it may do (read-only). */
  accessControl(id: string): Promise<AccessReport>;
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

export interface TokensApi {
  list(): Promise<Token[]>;
  /** create returns the token's secret: the only time it is shown. */
  create(req: TokenRequest): Promise<CreatedToken>;
  /** revoke asks in a native dialog first; false when the user declined. */
  revoke(id: string): Promise<boolean>;
}

export interface SettingsApi {
  mcp(): Promise<MCPSettings>;
  /** setMCP changes one mcp.* setting (key without the prefix) and applies it at once. */
  setMCP(key: keyof MCPSettings, value: string): Promise<MCPSettings>;
  /** onStarted calls back once the backend (and its MCP server) started; returns unsubscribe. */
  onStarted(callback: () => void): () => void;
  /** repairClients points every stale client at the running server's port. */
  repairClients(): Promise<RepairResult>;
  /** foreignChanges lists the policy files another program changed (App acts on its own last version of each). */
  foreignChanges(): Promise<ForeignChange[]>;
  /** acceptForeignChange makes another program's change of the file App's own. */
  acceptForeignChange(name: string): Promise<void>;
  /** revertForeignChange writes App's own last version of the file back. */
  revertForeignChange(name: string): Promise<void>;
}

export interface ClientsApi {
  /** recent lists the clients seen in the last 15 minutes, most recent first. */
  recent(): Promise<ConnectedClient[]>;
  /** disconnect revokes the client's token after a native confirmation; false when declined. */
  disconnect(principal: string, clientName: string): Promise<boolean>;
}

export interface ActivityApi {
  /** list returns a page of entries, newest first, and the total the query chooses. */
  list(q: ActivityQuery): Promise<ActivityPage>;
  /** exportCSV writes the chosen entries to a file picked in a native save dialog ("" if cancelled). */
  exportCSV(q: ActivityQuery): Promise<string>;
  verify(): Promise<ChainCheck>;
}

export interface PairingApi {
  clients(): Promise<PairingClient[]>;
  connect(req: PairingRequest): Promise<PairingResult>;
  /** Take the app's server out of the client's file (after a native confirmation) and revoke its token. */
  remove(req: PairingRemoval): Promise<PairingRemoved>;
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
