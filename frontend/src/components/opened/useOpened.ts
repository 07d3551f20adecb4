import { useCallback, useEffect, useRef, useState } from "react";
import { parseApiError, useApi, type ApiError, type Capabilities, type Table, type TableCount } from "../../api";
import { countsByName, sortTables } from "./format";

/** An opened connection is in exactly one of these states. Never opened: no entry. */
export type OpenedState =
  | { status: "connecting" }
  | { status: "error"; error: ApiError }
  | { status: "dropped"; error: ApiError }
  | {
      status: "ready";
      serverVersion: string;
      /** How the connection reaches the database where not the usual way ("" the usual way). */
      route?: string;
      /** What the connection's driver offers (its editor language, where paging stops). */
      capabilities: Capabilities;
      tables: Table[];
      /** Row counts by table name; null until they arrive (they load after the tables). */
      counts: Record<string, TableCount> | null;
      /** How many times F5 or Refresh read the tree again: open tenant lists read theirs too. */
      refreshed?: number;
    };

/** A connection dropped by a failing health check, shown until dismissed or reconnected. */
export interface DropNotice {
  key: number;
  connectionId: string;
  error: ApiError;
}

/**
 * useOpened keeps the state of every connection the user opened: connecting, its tables
 * (sorted by name) and their row counts, the driver's error, or dropped by a health check
 * (from the backend's connection:dropped event, which also raises a notice).
 */
export function useOpened() {
  const api = useApi();
  const [conns, setConns] = useState<Record<string, OpenedState>>({});
  const [notices, setNotices] = useState<DropNotice[]>([]);
  const connsRef = useRef(conns);
  connsRef.current = conns;
  // Each connect attempt gets a number; an answer for an older attempt is dropped.
  const attempts = useRef(new Map<string, number>());
  const noticeSeq = useRef(0);

  const bump = (id: string) => {
    const n = (attempts.current.get(id) ?? 0) + 1;
    attempts.current.set(id, n);
    return n;
  };
  const put = (id: string, st: OpenedState) => setConns((c) => ({ ...c, [id]: st }));

  /** reconnect (re)opens a connection and loads its tables, whatever its state. */
  const reconnect = useCallback(
    async (id: string) => {
      const mine = bump(id);
      const current = () => attempts.current.get(id) === mine;
      put(id, { status: "connecting" });
      setNotices((ns) => ns.filter((n) => n.connectionId !== id));
      try {
        const st = await api.explorer.connect(id);
        const tables = sortTables(await api.explorer.listTables(id));
        if (!current()) return;
        put(id, { status: "ready", serverVersion: st.serverVersion, route: st.route, capabilities: st.capabilities, tables, counts: null });
      } catch (reason) {
        if (current()) put(id, { status: "error", error: parseApiError(reason) });
        return;
      }
      try {
        const counts = countsByName(await api.explorer.tableCounts(id));
        if (!current()) return;
        setConns((c) => {
          const s = c[id];
          return s?.status === "ready" ? { ...c, [id]: { ...s, counts } } : c;
        });
      } catch {
        // Counts are a nicety: the tree stays without them.
      }
    },
    [api],
  );

  /** connect opens a connection unless it is open or opening already. */
  const connect = useCallback(
    (id: string) => {
      const s = connsRef.current[id];
      if (s?.status === "connecting" || s?.status === "ready") return;
      void reconnect(id);
    },
    [reconnect],
  );

  const disconnect = useCallback(
    async (id: string) => {
      bump(id);
      setConns((c) => {
        const { [id]: _, ...rest } = c;
        return rest;
      });
      setNotices((ns) => ns.filter((n) => n.connectionId !== id));
      try {
        await api.explorer.disconnect(id);
      } catch {
        // Already closed is fine; nothing the user can do about another failure.
      }
    },
    [api],
  );

  const dismiss = useCallback((key: number) => setNotices((ns) => ns.filter((n) => n.key !== key)), []);

  /** recount reads the row counts of an open connection's tables again (after a commit added
   * or deleted rows), so the sidebar follows the grid. */
  const recount = useCallback(
    async (id: string) => {
      if (connsRef.current[id]?.status !== "ready") return;
      try {
        const counts = countsByName(await api.explorer.tableCounts(id));
        setConns((c) => {
          const s = c[id];
          return s?.status === "ready" ? { ...c, [id]: { ...s, counts } } : c;
        });
      } catch {
        // Counts are a nicety: the old ones stay.
      }
    },
    [api],
  );

  /** refresh lists an open connection's tables again and then their counts (F5, Refresh): a
   * collection added, dropped or filled outside the app shows. The old list stays on failure. */
  const refresh = useCallback(
    async (id: string) => {
      if (connsRef.current[id]?.status !== "ready") return;
      try {
        const tables = sortTables(await api.explorer.listTables(id));
        setConns((c) => {
          const s = c[id];
          return s?.status === "ready" ? { ...c, [id]: { ...s, tables, refreshed: (s.refreshed ?? 0) + 1 } } : c;
        });
      } catch {
        return;
      }
      await recount(id);
    },
    [api, recount],
  );

  useEffect(
    () =>
      api.explorer.onDropped((e) => {
        // Only connections this window opened; the MCP server may open others.
        if (!connsRef.current[e.id]) return;
        bump(e.id);
        put(e.id, { status: "dropped", error: e.error });
        setNotices((ns) => [
          ...ns.filter((n) => n.connectionId !== e.id),
          { key: ++noticeSeq.current, connectionId: e.id, error: e.error },
        ]);
      }),
    [api],
  );

  useEffect(
    () =>
      api.explorer.onRestored((id) => {
        // A dropped connection of this window came back by itself: load it again, and the
        // notice of its drop goes (reconnect dismisses it).
        if (connsRef.current[id]?.status !== "dropped") return;
        void reconnect(id);
      }),
    [api, reconnect],
  );

  return { conns, notices, connect, reconnect, disconnect, dismiss, recount, refresh };
}

export type Opened = ReturnType<typeof useOpened>;
