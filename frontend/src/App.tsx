import { useCallback, useEffect } from "react";
import type { Connection } from "./api";
import { useConnections } from "./components/connections/useConnections";
import { useExplorer } from "./components/explorer/useExplorer";
import { DropNotices } from "./components/layout/DropNotices";
import { Header } from "./components/layout/Header";
import { Sidebar } from "./components/layout/Sidebar";
import { ThemeToggle } from "./components/layout/ThemeToggle";
import { useWorkspace } from "./components/workspace/useWorkspace";
import { Workspace } from "./components/workspace/Workspace";
import { useTheme } from "./theme/useTheme";

/** App is the window: header, connection sidebar, and the tabbed main area. */
export function App() {
  const theme = useTheme();
  const { state, reload } = useConnections();
  const ws = useWorkspace();
  const explorer = useExplorer();

  // Ctrl+, (Cmd+, on macOS) opens Settings from anywhere.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && e.key === ",") {
        e.preventDefault();
        ws.openSettings();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [ws.openSettings]);

  // Opening a connection connects it (its tables appear under it) and opens its tab.
  const openConnection = useCallback(
    (c: Connection) => {
      explorer.connect(c.id);
      ws.openConnection(c);
    },
    [explorer.connect, ws.openConnection],
  );

  const active = ws.active;
  const openId = active?.kind === "connection" || active?.kind === "table" ? active.connection.id : undefined;
  const openTable = active?.kind === "table" ? { connectionId: active.connection.id, table: active.table } : undefined;
  const connections = state.status === "ready" ? state.connections : [];

  return (
    <div className="app">
      <Header actions={<ThemeToggle preference={theme.preference} onToggle={theme.cycle} />} />
      <div className="app__body">
        <Sidebar
          state={state}
          onReload={() => void reload()}
          onOpen={openConnection}
          onOpenSettings={ws.openSettings}
          openId={openId}
          settingsOpen={active?.kind === "settings"}
          explorer={explorer.conns}
          onExpand={(c) => explorer.connect(c.id)}
          onReconnect={(c) => void explorer.reconnect(c.id)}
          onOpenTable={ws.openTable}
          openTable={openTable}
        />
        <Workspace
          tabs={ws.tabs}
          active={active}
          onSelect={ws.setActiveKey}
          onClose={ws.close}
          hasConnections={connections.length > 0}
          theme={theme.preference}
          onChooseTheme={theme.choose}
          explorer={explorer}
          onOpenTable={ws.openTable}
        />
      </div>
      <DropNotices
        notices={explorer.notices}
        connections={connections}
        onReconnect={(id) => void explorer.reconnect(id)}
        onDismiss={explorer.dismiss}
      />
    </div>
  );
}
