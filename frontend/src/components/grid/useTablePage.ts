import { useCallback, useEffect, useRef, useState } from "react";
import { parseApiError, useApi, type ApiError, type Filter, type FilterRefusal, type Grid, type Sort, type TableInfo } from "../../api";
import { toApiFilter } from "./filterModel";

/** PAGE_SIZE is the number of rows the grid reads at a time until the user picks another. */
export const PAGE_SIZE = 100;

/** ALL_ROWS is the page size that reads every row the database pages through (Weaviate stops at 10,000). */
export const ALL_ROWS = 10000;

/** The page sizes offered. The backend reads at most BLOCK rows a call: ALL_ROWS arrives in blocks. */
export const PAGE_SIZES = [50, 100, 250, 500, 1000, ALL_ROWS] as const;

/**
 * A page bigger than BLOCK is read block by block, the rows on screen from the first (small,
 * so they show at once) while the rest arrive.
 */
const BLOCK = 1000;
const FIRST_BLOCK = 200;

/** What the grid asks for: filters (ANDed), sort, and the window. */
export interface GridQuery {
  filters: Filter[];
  sort: Sort[];
  offset: number;
  pageSize: number;
}

/** The row count of the current filters (the database's Aggregate). */
export type CountState =
  | { status: "loading" }
  | { status: "ready"; count: number; estimated: boolean }
  | { status: "refused"; refused: FilterRefusal }
  | { status: "error"; error: ApiError };

/** A table tab is in exactly one of these states. */
export type TablePageState =
  | { status: "loading" }
  | { status: "error"; error: ApiError }
  | {
      status: "ready";
      info: TableInfo;
      grid: Grid;
      paging: boolean;
      pageError: ApiError | null;
      /** reading: the blocks after the first of an All page are arriving (Stop ends them). */
      reading?: boolean;
    };

function request(q: GridQuery, offset = q.offset, limit = q.pageSize) {
  return { offset: Math.max(0, offset), limit, filters: q.filters.map(toApiFilter), sort: q.sort };
}

/** The first call's limit: the whole page, or its first block. */
const firstLimit = (q: GridQuery) => (q.pageSize > BLOCK ? FIRST_BLOCK : q.pageSize);

/** more tells whether a page read block by block still has rows to come. */
const more = (q: GridQuery, g: Grid) => q.pageSize > BLOCK && g.hasMore && g.rows.length < q.pageSize && !g.refused;

const firstQuery: GridQuery = { filters: [], sort: [], offset: 0, pageSize: PAGE_SIZE };

/** sameSelection tells whether two queries select and order rows alike (filters and sort). */
const sameSelection = (a: GridQuery, b: GridQuery) => JSON.stringify([a.filters, a.sort]) === JSON.stringify([b.filters, b.sort]);

/**
 * useTablePage loads a table's description and its first page of rows together, then reads
 * pages for the query (filters, sort, page size, offset) as it changes, keeping the current
 * page on screen while the next one loads. The row count follows the filters.
 */
export function useTablePage(connectionId: string, table: string, initialFilters: Filter[] = []) {
  const api = useApi();
  const [state, setState] = useState<TablePageState>({ status: "loading" });
  const [query, setQuery] = useState<GridQuery>(() => ({ ...firstQuery, filters: initialFilters }));
  const [count, setCount] = useState<CountState>({ status: "loading" });
  const generation = useRef(0);
  const restCut = useRef(0);
  const countGeneration = useRef(0);
  const queryRef = useRef(query);
  queryRef.current = query;
  // The query whose rows are on screen: a grid never shows rows under a filter or an order
  // they were not read with (issue 25, item 12).
  const shown = useRef<GridQuery>(query);

  const recount = useCallback(
    async (filters: Filter[]) => {
      const mine = ++countGeneration.current;
      setCount({ status: "loading" });
      try {
        const c = await api.explorer.count(connectionId, table, filters.map(toApiFilter));
        if (mine !== countGeneration.current) return;
        if (c.refused) setCount({ status: "refused", refused: c.refused });
        else setCount({ status: "ready", count: c.count ?? 0, estimated: !!c.estimated });
      } catch (reason) {
        if (mine === countGeneration.current) setCount({ status: "error", error: parseApiError(reason) });
      }
    },
    [api, connectionId, table],
  );

  /**
   * rest reads the blocks of a page bigger than BLOCK after its first, appending each, until
   * the page is full, the rows end, or another query takes over (mine is stale).
   */
  const rest = useCallback(
    async (q: GridQuery, first: Grid, mine: number) => {
      const cut = restCut.current;
      const live = () => mine === generation.current && cut === restCut.current;
      let grid = first;
      try {
        while (more(q, grid)) {
          const next = await api.explorer.browse(connectionId, table, request(q, q.offset + grid.rows.length, Math.min(BLOCK, q.pageSize - grid.rows.length)));
          if (!live()) return;
          grid = { ...next, offset: grid.offset, rows: grid.rows.concat(next.rows) };
          const g = grid;
          setState((s) => (s.status === "ready" ? { ...s, grid: g, paging: more(q, g), reading: more(q, g) } : s));
        }
      } catch (reason) {
        // A later block that fails keeps the rows already read, and says why.
        if (live()) setState((s) => (s.status === "ready" ? { ...s, paging: false, reading: false, pageError: parseApiError(reason) } : s));
      }
    },
    [api, connectionId, table],
  );

  const load = useCallback(async () => {
    const mine = ++generation.current;
    const q = { ...queryRef.current, offset: 0 };
    setState({ status: "loading" });
    setQuery(q);
    void recount(q.filters);
    let grid: Grid;
    try {
      const [info, first] = await Promise.all([
        api.explorer.describeTable(connectionId, table),
        api.explorer.browse(connectionId, table, request(q, q.offset, Math.min(q.pageSize, firstLimit(q)))),
      ]);
      if (mine !== generation.current) return;
      grid = first;
      shown.current = q;
      setState({ status: "ready", info, grid, paging: more(q, grid), reading: more(q, grid), pageError: null });
    } catch (reason) {
      if (mine === generation.current) setState({ status: "error", error: parseApiError(reason) });
      return;
    }
    await rest(q, grid, mine);
  }, [api, connectionId, table, recount, rest]);

  /** run reads the page of q, keeping the rows on screen until it arrives. */
  const run = useCallback(
    async (q: GridQuery, filtersChanged: boolean) => {
      const mine = ++generation.current;
      setQuery(q);
      if (filtersChanged) void recount(q.filters);
      setState((s) => (s.status === "ready" ? { ...s, paging: true, reading: false, pageError: null } : s));
      let grid: Grid;
      try {
        grid = await api.explorer.browse(connectionId, table, request(q, q.offset, firstLimit(q)));
        if (mine !== generation.current) return;
        const g = grid;
        shown.current = q;
        setState((s) => (s.status === "ready" ? { ...s, grid: g, paging: more(q, g), reading: more(q, g) } : s));
      } catch (reason) {
        if (mine !== generation.current) return;
        // A page of the same filters and order that fails keeps the rows on screen (their
        // range says which they are); a new filter or sort that fails leaves no rows under
        // the chips and arrows it names, only the reason.
        const stale = !sameSelection(shown.current, q);
        setState((s) =>
          s.status === "ready"
            ? { ...s, grid: stale ? { ...s.grid, rows: [], hasMore: false, offset: 0, notice: "" } : s.grid, paging: false, reading: false, pageError: parseApiError(reason) }
            : s,
        );
        return;
      }
      await rest(q, grid, mine);
    },
    [api, connectionId, table, recount, rest],
  );

  const page = useCallback((offset: number) => run({ ...queryRef.current, offset: Math.max(0, offset) }, false), [run]);
  /** stop ends the blocks still to come of an All page: the rows read so far stay. */
  const stop = useCallback(() => {
    restCut.current++;
    setState((s) => (s.status === "ready" ? { ...s, paging: false, reading: false } : s));
  }, []);
  /** refresh reads the current page and the count again (after a commit changed the rows). */
  const refresh = useCallback(() => run({ ...queryRef.current }, true), [run]);
  const setFilters = useCallback((filters: Filter[]) => run({ ...queryRef.current, filters, offset: 0 }, true), [run]);
  const setSort = useCallback((sort: Sort[]) => run({ ...queryRef.current, sort, offset: 0 }, false), [run]);
  const setPageSize = useCallback((pageSize: number) => run({ ...queryRef.current, pageSize, offset: 0 }, false), [run]);

  useEffect(() => {
    void load();
  }, [load]);

  return { state, query, count, reload: load, page, refresh, stop, setFilters, setSort, setPageSize };
}
