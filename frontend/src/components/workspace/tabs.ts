import type { Connection, Filter, RowKey } from "../../api";

/** A tab in the main area. */
export type Tab =
  | { key: string; kind: "connection"; connection: Connection }
  | { key: string; kind: "editor"; connection: Connection }
  /** A table's grid; with filters, chosen rows of it (a map's selection: `chosen` rows). */
  | { key: string; kind: "table"; connection: Connection; table: string; filters?: Filter[]; chosen?: number }
  | { key: "settings"; kind: "settings" }
  | { key: "new-connection"; kind: "new-connection" }
  | { key: string; kind: "edit-connection"; connection: Connection }
  /** Find similar's matches: near the row `row` names over the table's key columns `keyColumns`. */
  | { key: string; kind: "similar"; connection: Connection; table: string; row: RowKey; keyColumns: string[]; targetVector: string }
  | { key: string; kind: "search"; connection: Connection; table: string; filters: Filter[] }
  | { key: string; kind: "map"; connection: Connection; table: string; filters: Filter[]; highlight?: MapHighlight };

/** MapHighlight is rows a search or Find similar found, shown selected on the table's map. */
export interface MapHighlight {
  /** The rows' keys, over the table's key columns. */
  keys: RowKey[];
  /** What found them, e.g. `bm25 "rust"`. */
  label: string;
  /** The vector searched ("" the table's own): the map draws it. Absent: the map's vector stays (bm25 uses none). */
  vector?: string;
  /** The search's filters: the map shows the same rows. Absent: the map keeps its filters (Find similar has none). */
  filters?: Filter[];
}

/**
 * filtersKey is filters by value, as a string: the same filters (in a new array, their fields in
 * another order, group 0 or none) give the same key. The map's tab and its read both test by it.
 */
export function filtersKey(filters: Filter[]): string {
  return JSON.stringify(filters.map((f) => [f.column, f.operator, f.value, f.value2, f.group ?? 0]));
}

/** sameFilters: the two lists are the same filters by value (filtersKey). */
export function sameFilters(a: Filter[], b: Filter[]): boolean {
  return filtersKey(a) === filtersKey(b);
}

/** The open tabs, in order, and the key of the active one (null: none). */
export interface TabsState {
  tabs: Tab[];
  active: string | null;
}

export type TabsAction =
  /** open adds the tab (unless one with its key is open) and makes it active. */
  | { type: "open"; tab: Tab }
  /**
   * openMap opens a table's map or updates the open one: from a grid (no highlight) it follows
   * that grid's filters, and a new highlight replaces the old while the map keeps its filters,
   * unless the highlight brings its search's (the map then follows them).
   */
  | { type: "openMap"; tab: Extract<Tab, { kind: "map" }> }
  /** activate makes an open tab active (a key not open changes nothing). */
  | { type: "activate"; key: string }
  /** close closes a tab; when it was active, the one that took its place is (else the last). */
  | { type: "close"; key: string }
  /** closeConnection closes every tab of a connection. */
  | { type: "closeConnection"; id: string }
  /**
   * restore adds remembered tabs after the ones open (the first of each key), and makes
   * `active` active when no tab is: else the last tab.
   */
  | { type: "restore"; tabs: Tab[]; active: string | null };

export const noTabs: TabsState = { tabs: [], active: null };

/** tabsReducer is every change of the tabs, as a pure function of the state and the action. */
export function tabsReducer(s: TabsState, a: TabsAction): TabsState {
  switch (a.type) {
    case "open":
      return { tabs: s.tabs.some((t) => t.key === a.tab.key) ? s.tabs : [...s.tabs, a.tab], active: a.tab.key };
    case "openMap": {
      const at = s.tabs.findIndex((t) => t.key === a.tab.key);
      if (at < 0) return { tabs: [...s.tabs, a.tab], active: a.tab.key };
      const tabs = s.tabs.map((t, i) => {
        if (i !== at || t.kind !== "map") return t;
        const same = sameFilters(t.filters, a.tab.filters);
        if (a.tab.highlight) return { ...t, highlight: a.tab.highlight, filters: a.tab.highlight.filters && !same ? a.tab.filters : t.filters };
        return same ? t : { ...t, filters: a.tab.filters, highlight: undefined };
      });
      return { tabs, active: a.tab.key };
    }
    case "activate":
      return s.tabs.some((t) => t.key === a.key) && s.active !== a.key ? { ...s, active: a.key } : s;
    case "close": {
      const i = s.tabs.findIndex((t) => t.key === a.key);
      if (i < 0) return s;
      const tabs = s.tabs.filter((t) => t.key !== a.key);
      return { tabs, active: s.active === a.key ? (tabs[Math.min(i, tabs.length - 1)]?.key ?? null) : s.active };
    }
    case "closeConnection": {
      const tabs = s.tabs.filter((t) => !("connection" in t) || t.connection.id !== a.id);
      if (tabs.length === s.tabs.length) return s;
      return { tabs, active: tabs.some((t) => t.key === s.active) ? s.active : (tabs[tabs.length - 1]?.key ?? null) };
    }
    case "restore": {
      const more = a.tabs.filter((m, i) => !s.tabs.some((t) => t.key === m.key) && a.tabs.findIndex((o) => o.key === m.key) === i);
      const tabs = [...s.tabs, ...more];
      const active = s.active ?? (a.active && tabs.some((t) => t.key === a.active) ? a.active : (tabs[tabs.length - 1]?.key ?? null));
      return { tabs, active };
    }
  }
}
