import { ConnectionList, type TreeActions } from "../connections/ConnectionList";
import { Icon, RefreshCw, Settings } from "../icons";
import { useAppModel } from "./appModel";
import "./frame.css";

/** Sidebar holds the connection chooser and, at the bottom, the Settings entry. */
export function Sidebar() {
  const { connections: state, reload, ws, opened, installing, openConnection, openEditor, duplicateConnection, deleteConnection } = useAppModel();
  const active = ws.active;
  const openId = active?.kind === "connection" || active?.kind === "table" ? active.connection.id : undefined;
  const settingsOpen = active?.kind === "settings";
  const onOpen = openConnection;
  const onOpenSettings = ws.openSettings;
  const onNewConnection = ws.openNewConnection;
  // Reload reads the saved connections again, and the tree of each open one.
  const onReload = () => {
    reload();
    for (const [id, s] of Object.entries(opened.conns)) if (s.status === "ready") void opened.refresh(id);
  };
  const tree: TreeActions = {
    opened: opened.conns,
    onExpand: (c) => opened.connect(c.id),
    onReconnect: (c) => void opened.reconnect(c.id),
    onOpenTable: ws.openTable,
    openTable: active?.kind === "table" ? { connectionId: active.connection.id, table: active.table } : undefined,
    installing,
    onEdit: ws.openEditConnection,
    onDuplicate: duplicateConnection,
    onDelete: deleteConnection,
    onOpenEditor: openEditor,
  };
  const count = state.status === "ready" ? state.connections.length : null;
  return (
    <nav className="sidebar" aria-label="Connections">
      <div className="sidebar__head">
        <h2 className="sidebar__title">
          Connections
          {count !== null && <span className="sidebar__count">{count}</span>}
        </h2>
        <button
          type="button"
          className="icon-btn icon-btn--plain"
          onClick={onNewConnection}
          aria-label="New connection"
          title="New connection (Ctrl+N)"
        >
          <span aria-hidden="true">+</span>
        </button>
        <button
          type="button"
          className="icon-btn icon-btn--plain"
          onClick={onReload}
          aria-label="Reload connections"
          title="Reload connections"
        >
          <Icon icon={RefreshCw} />
        </button>
      </div>
      <div className="sidebar__body">
        <ConnectionList state={state} onRetry={onReload} onOpen={onOpen} openId={openId} onNew={onNewConnection} {...tree} />
      </div>
      <div className="sidebar__foot">
        <button
          type="button"
          className="sidebar__settings"
          aria-pressed={settingsOpen}
          onClick={onOpenSettings}
          title="Settings (Ctrl+,)"
        >
          <Icon icon={Settings} /> Settings
        </button>
      </div>
    </nav>
  );
}
