import { useCallback, useState } from "react";
import type { Connection } from "../../api";

/** A tab in the main area. */
export type Tab =
  | { key: string; kind: "connection"; connection: Connection }
  | { key: string; kind: "editor"; connection: Connection }
  | { key: string; kind: "table"; connection: Connection; table: string }
  | { key: "settings"; kind: "settings" }
  | { key: "new-connection"; kind: "new-connection" }
  | { key: string; kind: "edit-connection"; connection: Connection };

/** tableTabKey is the key of a table's tab. */
export function tableTabKey(connectionId: string, table: string) {
  return `table:${connectionId}:${table}`;
}

/** useWorkspace tracks the open tabs and which one is active. */
export function useWorkspace() {
  const [tabs, setTabs] = useState<Tab[]>([]);
  const [activeKey, setActiveKey] = useState<string | null>(null);

  const open = useCallback((tab: Tab) => {
    setTabs((ts) => (ts.some((t) => t.key === tab.key) ? ts : [...ts, tab]));
    setActiveKey(tab.key);
  }, []);

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

  const openSettings = useCallback(() => open({ key: "settings", kind: "settings" }), [open]);

  const openNewConnection = useCallback(() => open({ key: "new-connection", kind: "new-connection" }), [open]);

  const openEditConnection = useCallback(
    (connection: Connection) => open({ key: `edit:${connection.id}`, kind: "edit-connection", connection }),
    [open],
  );

  /** closeConnection closes every tab of a deleted connection. */
  const closeConnection = useCallback((id: string) => {
    setTabs((ts) => {
      const rest = ts.filter((t) => !("connection" in t) || t.connection.id !== id);
      setActiveKey((a) => (rest.some((t) => t.key === a) ? a : (rest[rest.length - 1]?.key ?? null)));
      return rest;
    });
  }, []);

  const close = useCallback((key: string) => {
    setTabs((ts) => {
      const i = ts.findIndex((t) => t.key === key);
      if (i < 0) return ts;
      const rest = ts.filter((t) => t.key !== key);
      setActiveKey((a) => (a === key ? (rest[Math.min(i, rest.length - 1)]?.key ?? null) : a));
      return rest;
    });
  }, []);

  const active = tabs.find((t) => t.key === activeKey) ?? null;
  return {
    tabs,
    active,
    setActiveKey,
    openConnection,
    openTable,
    openEditor,
    openSettings,
    openNewConnection,
    openEditConnection,
    closeConnection,
    close,
  };
}
