// fakeApi: an in-memory Api for component tests. The real Api needs the Go process behind
// Wails; the end-to-end test (tests/e2e) drives that one. Here only UI states are under test.
import type { Api, Connection } from "../api";

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
    ...overrides,
  };
}

/** fakeApi answers list() with the given result: connections, a rejection, or a pending promise. */
export function fakeApi(
  list: () => Promise<Connection[]>,
): Api & { calls: { list: number }; emitChanged: () => void } {
  const calls = { list: 0 };
  const listeners = new Set<() => void>();
  return {
    calls,
    emitChanged: () => listeners.forEach((l) => l()),
    connections: {
      list: () => {
        calls.list++;
        return list();
      },
      remove: async () => {},
      onChanged: (cb) => {
        listeners.add(cb);
        return () => listeners.delete(cb);
      },
    },
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
