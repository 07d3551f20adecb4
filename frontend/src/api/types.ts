// The one typed API the UI talks to. Components get it from ApiContext (./context), never
// from the generated Wails bindings, so a test can hand them another implementation.

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

/** Api is everything the UI can ask of the backend. Every method rejects with an ApiError. */
export interface Api {
  connections: ConnectionsApi;
}
