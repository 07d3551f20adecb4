import type { Connection } from "../../api";
import { ConnectionList, type TreeActions } from "../connections/ConnectionList";
import type { ConnectionsState } from "../connections/useConnections";
import { Icon, RefreshCw, Settings } from "../icons";

interface Props extends TreeActions {
  state: ConnectionsState;
  onReload: () => void;
  onOpen: (c: Connection) => void;
  onOpenSettings: () => void;
  onNewConnection: () => void;
  openId?: string;
  settingsOpen: boolean;
}

/** Sidebar holds the connection chooser and, at the bottom, the Settings entry. */
export function Sidebar({ state, onReload, onOpen, onOpenSettings, onNewConnection, openId, settingsOpen, ...tree }: Props) {
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
