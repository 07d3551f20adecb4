import { useCallback, useEffect, useRef, useState } from "react";
import { parseApiError, useApi, type ApiError, type Connection } from "../../api";

/** The connection list is always in exactly one of these states. */
export type ConnectionsState =
  | { status: "loading" }
  | { status: "error"; error: ApiError }
  | { status: "ready"; connections: Connection[] };

/** useConnections loads the saved connections from the Api and can reload them. */
export function useConnections() {
  const api = useApi();
  const [state, setState] = useState<ConnectionsState>({ status: "loading" });
  const generation = useRef(0);

  const reload = useCallback(async () => {
    const mine = ++generation.current;
    setState({ status: "loading" });
    try {
      const connections = await api.connections.list();
      if (mine === generation.current) setState({ status: "ready", connections });
    } catch (reason) {
      if (mine === generation.current) setState({ status: "error", error: parseApiError(reason) });
    }
  }, [api]);

  useEffect(() => {
    void reload();
  }, [reload]);

  return { state, reload };
}
