// The one typed API the UI talks to. Components get it from ApiContext (./context), never
// from the generated Wails bindings, so a test can hand them another implementation.
import type { ApiError } from "./errors";

/** A saved connection as the UI shows it (mirrors app.ConnectionDTO in Go). */
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
}

export interface ConnectionsApi {
  /** list returns the saved connections, in the backend's order. */
  list(): Promise<Connection[]>;
  /** remove deletes a saved connection by id. */
  remove(id: string): Promise<void>;
  /**
   * onChanged calls back whenever the saved connections change outside the window (for
   * example `app connection add` in a terminal). It returns the unsubscribe function.
   */
  onChanged(callback: () => void): () => void;
}

/** What connect() reports about an open connection (mirrors app.ConnectionStateDTO). */
export interface ConnectionState {
  id: string;
  connected: boolean;
  /** The database's version, "" when unknown. */
  serverVersion: string;
}

/** One table (a Weaviate collection) of an open connection. */
export interface Table {
  name: string;
  description: string;
}

/** The row count of one table; null when it cannot be counted, with the reason. */
export interface TableCount {
  name: string;
  count: number | null;
  message: string;
}

/** One grid column: uuid first, the properties, vector last. */
export interface Column {
  name: string;
  /** "uuid", a data type ("text", "int[]", "date", a referenced collection), "vector(s)". */
  type: string;
  primaryKey: boolean;
  readOnly: boolean;
  /** Cells are JSON text (arrays, objects, references, vectors). */
  json: boolean;
  description: string;
}

export interface TableSettings {
  multiTenancy: boolean;
  vectorizer: string;
  namedVectors: string[];
  indexNullState: boolean;
  indexPropertyLength: boolean;
}

/** describeTable's answer. */
export interface TableInfo {
  name: string;
  description: string;
  primaryKey: string;
  columns: Column[];
  settings: TableSettings;
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
}

/** A connection dropped by a failing health check, with the reason. */
export interface ConnectionDropped {
  id: string;
  error: ApiError;
}

export interface ExplorerApi {
  /** connect opens a saved connection (checks reachability, TLS and the credential). */
  connect(id: string): Promise<ConnectionState>;
  disconnect(id: string): Promise<void>;
  /** listTables lists an open connection's tables; rejects `unavailable` when not open. */
  listTables(id: string): Promise<Table[]>;
  /** tableCounts counts the rows of every table (slower than listTables). */
  tableCounts(id: string): Promise<TableCount[]>;
  describeTable(id: string, table: string): Promise<TableInfo>;
  /** browseTable reads `limit` rows from `offset` (limit 0: the default of 100). */
  browseTable(id: string, table: string, offset: number, limit: number): Promise<Grid>;
  /** onDropped calls back when a health check drops an open connection; returns unsubscribe. */
  onDropped(callback: (e: ConnectionDropped) => void): () => void;
}

/** Api is everything the UI can ask of the backend. Every method rejects with an ApiError. */
export interface Api {
  connections: ConnectionsApi;
  explorer: ExplorerApi;
}
