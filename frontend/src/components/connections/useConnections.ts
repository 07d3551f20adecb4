import { useCallback, useEffect, useRef, useState } from "react";
import { parseApiError, useApi, type ApiError, type Connection } from "../../api";

/** The connection list is always in exactly one of these states. */
export type ConnectionsState =
  | { status: "loading" }
  | { status: "error"; error: ApiError }
  | { status: "ready"; connections: Connection[] };

/**
 * useConnections loads the saved connections from the Api, reloads them on request, and
 * refreshes them quietly (keeping the current list on screen) when the backend says they
 * changed.
 */
export function useConnections() {
  const api = useApi();
  const [state, setState] = useState<ConnectionsState>({ status: "loading" });
  const generation = useRef(0);

  const load = useCallback(
    async (quiet: boolean) => {
      const mine = ++generation.current;
      if (!quiet) setState({ status: "loading" });
      try {
        const connections = await api.connections.list();
        if (mine === generation.current) setState({ status: "ready", connections });
      } catch (reason) {
        if (mine === generation.current) setState({ status: "error", error: parseApiError(reason) });
      }
    },
    [api],
  );

  const reload = useCallback(() => load(false), [load]);

  useEffect(() => {
    void load(false);
    return api.connections.onChanged(() => void load(true));
  }, [api, load]);

  return { state, reload };
}
