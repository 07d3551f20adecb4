import { useCallback, useEffect, useReducer, useRef, useState } from "react";
import { useApi, type Filter, type Connection, type Layout, type LayoutTab, type RowKey } from "../../api";
import { keyId, keysFilters } from "../../api/rowKey";
import type { SettingsSection } from "../settings/SettingsPanel";
import { capped, layoutStore, LAYOUT_MAX_TABS, without } from "./layoutStore";
import type { Opened } from "../opened/useOpened";
import { noTabs, tabsReducer, type MapHighlight, type Tab } from "./tabs";

export type { MapHighlight, Tab } from "./tabs";

/** tableTabKey is the key of a table's tab. */
export function tableTabKey(connectionId: string, table: string) {
  return `table:${connectionId}:${table}`;
}

/**
 * useWorkspace tracks the open tabs and which one is active. Once `restore` has put back the
 * remembered tabs (useLayoutMemory calls it), every change of the tabs or of the active tab is
 * saved to the layout document (debounced), and the table of an active table tab is
 * remembered as its connection's last table.
 */
export function useWorkspace() {
  const api = useApi();
  // The tabs' every change is tabsReducer's (tabs.ts, tested on its own).
  const [{ tabs, active: activeKey }, dispatch] = useReducer(tabsReducer, noTabs);
  const [restored, setRestored] = useState(false);

  /**
   * restore adds remembered tabs after the ones already open (none, unless the user was
   * quick) and makes `active` the active tab when no tab was active; from now on the layout
   * is saved. Called once, also with nothing to restore.
   */
  const restore = useCallback((more: Tab[], active: string | null) => {
    dispatch({ type: "restore", tabs: more, active });
    setRestored(true);
  }, []);

  useEffect(() => {
    if (!restored) return;
    const store = layoutStore(api);
    const saved = tabs.filter(rememberable);
    const active = saved.some((t) => t.key === activeKey) ? (activeKey ?? "") : "";
    const next = saved.slice(0, LAYOUT_MAX_TABS).map(toLayoutTab);
    store.update((l) => (l.active === active && JSON.stringify(l.tabs) === JSON.stringify(next) ? l : { ...l, tabs: next, active }));
  }, [api, restored, tabs, activeKey]);

  const activeTab = tabs.find((t) => t.key === activeKey);
  const lastTable = activeTab?.kind === "table" ? [activeTab.connection.id, activeTab.table] : null;
  useEffect(() => {
    if (!restored || !lastTable) return;
    const [id, table] = lastTable;
    layoutStore(api).update((l) => (l.lastTable[id] === table ? l : { ...l, lastTable: capped({ ...without(l.lastTable, id), [id]: table }) }));
  }, [api, restored, lastTable?.[0], lastTable?.[1]]);

  // A change in the last half second is written before the window goes away.
  useEffect(() => {
    const flush = () => layoutStore(api).flush();
    window.addEventListener("pagehide", flush);
    return () => window.removeEventListener("pagehide", flush);
  }, [api]);

  const open = useCallback((tab: Tab) => dispatch({ type: "open", tab }), []);
  const setActiveKey = useCallback((key: string) => dispatch({ type: "activate", key }), []);

  const openConnection = useCallback(
    (connection: Connection) => open({ key: `conn:${connection.id}`, kind: "connection", connection }),
    [open],
  );

  const openTable = useCallback(
    (connection: Connection, table: string) =>
      open({ key: tableTabKey(connection.id, table), kind: "table", connection, table }),
    [open],
  );

  const openEditor = useCallback(
    (connection: Connection) => open({ key: `editor:${connection.id}`, kind: "editor", connection }),
    [open],
  );

  // The Settings section on screen, kept while its tab is not (the panel shows only when active).
  const [settingsSection, setSettingsSection] = useState<SettingsSection>("general");
  const openSettings = useCallback(() => open({ key: "settings", kind: "settings" }), [open]);
  /** openSettingsAt opens Settings at one section (a notice that leads to it). */
  const openSettingsAt = useCallback(
    (section: SettingsSection) => {
      setSettingsSection(section);
      open({ key: "settings", kind: "settings" });
    },
    [open],
  );

  const openNewConnection = useCallback(() => open({ key: "new-connection", kind: "new-connection" }), [open]);

  const openEditConnection = useCallback(
    (connection: Connection) => open({ key: `edit:${connection.id}`, kind: "edit-connection", connection }),
    [open],
  );

  /** openSimilar opens the rows nearest one row's vector (Find similar) in a tab of their own: one tab per row (by its key) and vector. */
  const openSimilar = useCallback(
    (connection: Connection, table: string, row: RowKey, keyColumns: string[], targetVector: string) =>
      open({ key: `similar:${connection.id}:${table}:${keyId(row, keyColumns)}:${targetVector}`, kind: "similar", connection, table, row, keyColumns, targetVector }),
    [open],
  );

  /** openSearch opens a table's search panel (one per table), its matches narrowed by the grid's filters. */
  const openSearch = useCallback(
    (connection: Connection, table: string, filters: Filter[]) => open({ key: `search:${connection.id}:${table}`, kind: "search", connection, table, filters }),
    [open],
  );

  /**
   * openMap opens a table's map (one per table), of the rows the grid's filters choose (an open
   * map follows new filters); with a highlight (a search's or Find similar's rows) it shows them
   * selected, on the open map too.
   */
  const openMap = useCallback(
    (connection: Connection, table: string, filters: Filter[], highlight?: MapHighlight) =>
      dispatch({ type: "openMap", tab: { key: `map:${connection.id}:${table}`, kind: "map", connection, table, filters, highlight } }),
    [],
  );

  /** openRows opens chosen rows of a table (a map's selection) as a grid tab of their own: the table filtered to their keys. */
  const rowTabs = useRef(0);
  const openRows = useCallback(
    (connection: Connection, table: string, keys: RowKey[], keyColumns: string[]) =>
      open({
        key: `rows:${connection.id}:${table}:${++rowTabs.current}`,
        kind: "table",
        connection,
        table,
        filters: keysFilters(keys, keyColumns),
        chosen: keys.length,
      }),
    [open],
  );

  /** closeConnection closes every tab of a deleted connection. */
  const closeConnection = useCallback((id: string) => dispatch({ type: "closeConnection", id }), []);
  const close = useCallback((key: string) => dispatch({ type: "close", key }), []);

  const active = tabs.find((t) => t.key === activeKey) ?? null;
  return {
    tabs,
    active,
    setActiveKey,
    openConnection,
    openTable,
    openEditor,
    openSettings,
    openSettingsAt,
    settingsSection,
    setSettingsSection,
    openNewConnection,
    openEditConnection,
    openSimilar,
    openSearch,
    openMap,
    openRows,
    closeConnection,
    close,
    restore,
    restored,
  };
}

export type Workspace = ReturnType<typeof useWorkspace>;

/** The tab kinds the layout remembers (forms are not reopened). */
type RememberedTab = Extract<Tab, { kind: LayoutTab["kind"] }>;

function rememberable(t: Tab): t is RememberedTab {
  // A table tab with filters of its own (a map's selection) is not reopened: it was one look.
  return t.kind === "connection" || t.kind === "editor" || (t.kind === "table" && !t.filters) || t.kind === "settings";
}

function toLayoutTab(t: RememberedTab): LayoutTab {
  switch (t.kind) {
    case "settings":
      return { kind: "settings", connectionId: "", table: "" };
    case "table":
      return { kind: "table", connectionId: t.connection.id, table: t.table };
    default:
      return { kind: t.kind, connectionId: t.connection.id, table: "" };
  }
}

/** tabFor is the tab a remembered tab reopens as (its connection must be given for all but settings). */
function tabFor(t: LayoutTab, c: Connection | undefined): Tab | null {
  if (t.kind === "settings") return { key: "settings", kind: "settings" };
  if (!c) return null;
  switch (t.kind) {
    case "connection":
      return { key: `conn:${c.id}`, kind: "connection", connection: c };
    case "editor":
      return { key: `editor:${c.id}`, kind: "editor", connection: c };
    case "table":
      return { key: tableTabKey(c.id, t.table), kind: "table", connection: c, table: t.table };
  }
}

/** How long restoring waits for the remembered tabs' connections before giving up on the slow ones. */
export const RESTORE_WAIT_MS = 30_000;

/**
 * useLayoutMemory puts the window back where the user left it and keeps the sidebar's promise
 * of landing there again:
 *
 * - On start, once the saved connections are known, the remembered tabs whose connection
 *   still exists are reopened: their connections are connected first (as opening them in the
 *   sidebar does); tabs of a connection that cannot connect, and table tabs whose table is
 *   gone, are skipped quietly. The remembered active tab is made active again.
 * - `openConnection` is the sidebar's open: it connects and opens the connection's tab, and
 *   when the connection has a remembered last table that still exists, opens that table.
 */
export function useLayoutMemory(ws: Workspace, connections: Connection[] | null, opened: Opened) {
  const api = useApi();
  const [saved, setSaved] = useState<Layout | null>(null);
  const [plan, setPlan] = useState<{ tabs: LayoutTab[]; active: string; ids: string[] } | null>(null);
  const [gaveUp, setGaveUp] = useState(false);
  const started = useRef(false);
  // Connections opened from the sidebar that go to their last table once connected.
  const [landing, setLanding] = useState<string[]>([]);

  useEffect(() => {
    let live = true;
    void layoutStore(api)
      .load()
      .then((l) => live && setSaved(l));
    return () => {
      live = false;
    };
  }, [api]);

  const { connect, conns } = opened;
  const { restore, openTable } = ws;

  // Step 1: connect every connection a remembered tab needs.
  useEffect(() => {
    if (started.current || !saved || !connections) return;
    started.current = true;
    const byId = new Map(connections.map((c) => [c.id, c]));
    const tabs = saved.tabs.filter((t) => t.kind === "settings" || byId.has(t.connectionId));
    const ids = [...new Set(tabs.filter((t) => t.kind !== "settings").map((t) => t.connectionId))];
    ids.forEach((id) => connect(id));
    setPlan({ tabs, active: saved.active, ids });
  }, [saved, connections, connect]);

  useEffect(() => {
    if (!plan || plan.ids.length === 0) return;
    const t = setTimeout(() => setGaveUp(true), RESTORE_WAIT_MS);
    return () => clearTimeout(t);
  }, [plan]);

  // Step 2: once each of them is connected or has failed, reopen the tabs in their order.
  useEffect(() => {
    if (!plan || ws.restored || !connections) return;
    const settled = (id: string) => {
      const s = conns[id]?.status;
      return s === "ready" || s === "error" || s === "dropped";
    };
    if (!gaveUp && !plan.ids.every(settled)) return;
    const byId = new Map(connections.map((c) => [c.id, c]));
    const tabs: Tab[] = [];
    for (const t of plan.tabs) {
      if (t.kind !== "settings") {
        const st = conns[t.connectionId];
        if (st?.status !== "ready") continue;
        if (t.kind === "table" && !st.tables.some((x) => x.name === t.table)) continue;
      }
      const tab = tabFor(t, byId.get(t.connectionId));
      if (tab) tabs.push(tab);
    }
    restore(tabs, plan.active || null);
  }, [plan, gaveUp, conns, connections, ws.restored, restore]);

  // The sidebar's open lands on the connection's last table once it is connected, if the
  // connection's tab is still the one on screen: a slow connect must not pull the user away
  // from a tab they went on to work in.
  const activeKey = ws.active?.key;
  useEffect(() => {
    if (landing.length === 0 || !connections) return;
    const done: string[] = [];
    for (const id of landing) {
      const st = conns[id];
      if (activeKey !== `conn:${id}`) {
        done.push(id);
        continue;
      }
      if (!st || st.status === "connecting") continue;
      done.push(id);
      const table = layoutStore(api).current().lastTable[id];
      const c = connections.find((x) => x.id === id);
      if (st?.status === "ready" && c && table && st.tables.some((x) => x.name === table)) openTable(c, table);
    }
    if (done.length > 0) setLanding((ls) => ls.filter((id) => !done.includes(id)));
  }, [api, landing, conns, connections, openTable, activeKey]);

  const openConnection = useCallback(
    (c: Connection) => {
      connect(c.id);
      ws.openConnection(c);
      if (layoutStore(api).current().lastTable[c.id]) setLanding((ls) => (ls.includes(c.id) ? ls : [...ls, c.id]));
    },
    [api, connect, ws.openConnection],
  );

  return { openConnection };
}
