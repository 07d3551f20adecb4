import { useCallback, useEffect, useRef, useState } from "react";
import { parseApiError, useApi, type ApiError, type Grid, type TableInfo } from "../../api";

/** PAGE_SIZE is the number of rows the grid reads at a time. */
export const PAGE_SIZE = 100;

/** A table tab is in exactly one of these states. */
export type TablePageState =
  | { status: "loading" }
  | { status: "error"; error: ApiError }
  | { status: "ready"; info: TableInfo; grid: Grid; paging: boolean; pageError: ApiError | null };

/**
 * useTablePage loads a table's description and its first page of rows together, then pages
 * on request (keeping the current page on screen while the next one loads).
 */
export function useTablePage(connectionId: string, table: string) {
  const api = useApi();
  const [state, setState] = useState<TablePageState>({ status: "loading" });
  const generation = useRef(0);

  const load = useCallback(async () => {
    const mine = ++generation.current;
    setState({ status: "loading" });
    try {
      const [info, grid] = await Promise.all([
        api.explorer.describeTable(connectionId, table),
        api.explorer.browseTable(connectionId, table, 0, PAGE_SIZE),
      ]);
      if (mine === generation.current) setState({ status: "ready", info, grid, paging: false, pageError: null });
    } catch (reason) {
      if (mine === generation.current) setState({ status: "error", error: parseApiError(reason) });
    }
  }, [api, connectionId, table]);

  const page = useCallback(
    async (offset: number) => {
      const mine = ++generation.current;
      setState((s) => (s.status === "ready" ? { ...s, paging: true, pageError: null } : s));
      try {
        const grid = await api.explorer.browseTable(connectionId, table, Math.max(0, offset), PAGE_SIZE);
        if (mine === generation.current)
          setState((s) => (s.status === "ready" ? { ...s, grid, paging: false } : s));
      } catch (reason) {
        if (mine === generation.current)
          setState((s) => (s.status === "ready" ? { ...s, paging: false, pageError: parseApiError(reason) } : s));
      }
    },
    [api, connectionId, table],
  );

  useEffect(() => {
    void load();
  }, [load]);

  return { state, reload: load, page };
}
