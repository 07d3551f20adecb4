import { useCallback, useEffect } from "react";
import { useApi, type Connection } from "./api";
import { useConnections } from "./components/connections/useConnections";
import { useInstalling } from "./components/connections/useInstalling";
import { useOpened } from "./components/opened/useOpened";
import { dispatch, type Actions } from "./components/help/keymap";
import { ShortcutsOverlay, useShortcutsHelp } from "./components/help/ShortcutsHelp";
import { PortNotice } from "./components/frame/PortNotice";
import { useAction } from "./components/frame/useAction";
import { WINDOW_KEYS, type WindowAction } from "./components/frame/windowKeymap";
import { ApprovalNotices } from "./components/frame/ApprovalNotices";
import { ForeignChanges } from "./components/frame/ForeignChanges";
import { DropNotices } from "./components/frame/DropNotices";
import { Header } from "./components/frame/Header";
import { Sidebar } from "./components/frame/Sidebar";
import { AppContext, type AppModel } from "./components/frame/appModel";
import { ThemeToggle } from "./components/frame/ThemeToggle";
import { useLayoutMemory, useWorkspace } from "./components/workspace/useWorkspace";
import { Workspace } from "./components/workspace/Workspace";
import { useTheme } from "./theme/useTheme";
import "./components/frame/frame.css";

/** App is the window: header, connection sidebar, and the tabbed main area. */
export function App() {
  const theme = useTheme();
  const { state, reload } = useConnections();
  const ws = useWorkspace();
  const opened = useOpened();
  const installing = useInstalling();
  const api = useApi();
  // Delete and Duplicate of a connection say why they failed in a notice of the window.
  const { run, error: actionError, clear: dismissActionError } = useAction();
  const help = useShortcutsHelp();

  // The query editor of a connection; it connects the connection when it is not open.
  const openEditor = useCallback(
    (c: Connection) => {
      opened.connect(c.id);
      ws.openEditor(c);
    },
    [opened.connect, ws.openEditor],
  );

  // The window's keys (windowKeymap.ts, which the shortcuts overlay lists): Ctrl+, (Cmd+, on
  // macOS) opens Settings, Ctrl+N a new connection, Ctrl+E the active tab's query editor, F5
  // reads again, from anywhere.
  useEffect(() => {
    const actions: Actions<WindowAction> = {
      settings: () => ws.openSettings(),
      newConnection: () => ws.openNewConnection(),
      // F5 reads again, never reloads the page: the tree's tables and counts of the active
      // tab's connection here; a table tab also reads its rows (TablePanel).
      refresh: () => {
        const a = ws.active;
        if (a && (a.kind === "connection" || a.kind === "table")) void opened.refresh(a.connection.id);
      },
      editor: () => {
        const a = ws.active;
        if (!a || !("connection" in a) || a.kind === "edit-connection") return false;
        openEditor(a.connection);
      },
    };
    const onKey = (e: KeyboardEvent) => {
      if (dispatch(WINDOW_KEYS, actions, e)) e.preventDefault();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [ws.openSettings, ws.openNewConnection, openEditor, ws.active, opened.refresh]);

  const onSaved = useCallback(
    async (tabKey: string, c: Connection) => {
      ws.close(tabKey);
      void reload();
      ws.openConnection(c);
      // An edited connection that was open reconnects with its new settings.
      if (tabKey.startsWith("edit:")) await opened.disconnect(c.id);
      void opened.reconnect(c.id);
    },
    [ws.close, ws.openConnection, reload, opened.disconnect, opened.reconnect],
  );

  // Delete asks in the app's native dialog first; a "No" changes nothing.
  const deleteConnection = useCallback(
    (c: Connection) =>
      run(
        () => api.connections.remove(c.id),
        (removed) => {
          if (!removed) return;
          ws.closeConnection(c.id);
          void reload();
        },
      ),
    [api, run, ws.closeConnection, reload],
  );

  const duplicateConnection = useCallback(
    (c: Connection) =>
      run(
        () => api.connections.duplicate(c.id),
        (copy) => {
          void reload();
          ws.openEditConnection(copy);
        },
      ),
    [api, run, ws.openEditConnection, reload],
  );

  // Opening a connection connects it (its tables appear under it) and opens its tab, then its
  // last open table when it has one; on start the remembered tabs come back.
  const { openConnection } = useLayoutMemory(ws, state.status === "ready" ? state.connections : null, opened);

  const connections = state.status === "ready" ? state.connections : [];
  const model: AppModel = {
    theme,
    connections: state,
    reload: () => void reload(),
    ws,
    opened,
    installing,
    openConnection,
    openEditor,
    duplicateConnection: (c) => void duplicateConnection(c),
    deleteConnection: (c) => void deleteConnection(c),
    onSaved: (key, c) => void onSaved(key, c),
  };

  return (
    <div className="app">
      <Header actions={<ThemeToggle preference={theme.preference} onToggle={theme.cycle} />} onShowShortcuts={help.show} />
      <AppContext.Provider value={model}>
        <div className="app__body">
          <Sidebar />
          <Workspace />
        </div>
      </AppContext.Provider>
      {actionError && (
        <div className="notices" role="alert">
          <div className="notice">
            <span className="notice__text">
              <span className="notice__message">{actionError.message}</span>
            </span>
            <button type="button" className="btn btn--small" onClick={dismissActionError}>
              Dismiss
            </button>
          </div>
        </div>
      )}
      <DropNotices
        notices={opened.notices}
        connections={connections}
        onReconnect={(id) => void opened.reconnect(id)}
        onDismiss={opened.dismiss}
      />
      <ApprovalNotices />
      <PortNotice onOpenSettings={() => ws.openSettingsAt("mcp")} />
      <ForeignChanges />
      {help.open && <ShortcutsOverlay onClose={help.close} />}
    </div>
  );
}
