import type { Connection } from "../../api";
import { formatCount } from "../explorer/format";
import type { ExplorerConnState } from "../explorer/useExplorer";
import { Icon, Table2 } from "../icons";

interface Props {
  connection: Connection;
  state: ExplorerConnState | undefined;
  activeKey: string | null;
  openTable?: string;
  tableRowId: (table: string) => string;
  onOpenTable: (table: string, index: number) => void;
  onReconnect: () => void;
}

/**
 * ConnectionChildren is the group under an expanded connection: its tables with their row
 * counts, or the state of connecting to it (not connected, loading, the driver's error, dropped).
 */
export function ConnectionChildren({ connection, state, activeKey, openTable, tableRowId, onOpenTable, onReconnect }: Props) {
  let body;
  switch (state?.status) {
    case undefined:
      // Shown open but not connected (its tab came to the front after a Disconnect): say so,
      // never a spinner for a connection nothing is connecting.
      body = (
        <li role="none" className="tree-state">
          <span role="status">Not connected</span>{" "}
          <button type="button" className="btn btn--small" onClick={onReconnect}>
            Connect
          </button>
        </li>
      );
      break;
    case "connecting":
      body = (
        <li role="none" className="tree-state">
          <span role="status" aria-live="polite">
            <span className="spinner" aria-hidden="true" /> Connecting to {connection.name}…
          </span>
        </li>
      );
      break;
    case "error":
    case "dropped":
      body = (
        <li role="none" className="tree-state tree-state--error">
          <div role="alert">
            <p className="tree-state__title">
              {state.status === "error" ? "Could not connect" : "Connection dropped"}
            </p>
            <p className="tree-state__message">{state.error.message}</p>
          </div>
          <button type="button" className="btn btn--small" onClick={onReconnect}>
            {state.status === "error" ? "Retry" : "Reconnect"}
          </button>
        </li>
      );
      break;
    case "ready":
      if (state.tables.length === 0) {
        body = (
          <li role="none" className="tree-state">
            <span role="status">No collections</span>
          </li>
        );
        break;
      }
      body = state.tables.map((t, i) => {
        const id = tableRowId(t.name);
        const count = state.counts?.[t.name];
        return (
          <li
            key={t.name}
            id={id}
            role="treeitem"
            aria-level={2}
            aria-label={t.name}
            aria-selected={activeKey === id}
            className="table-item"
            aria-current={openTable === t.name ? "page" : undefined}
            data-open={openTable === t.name || undefined}
            title={t.description || t.name}
            onClick={() => onOpenTable(t.name, i)}
          >
            <span className="table-item__icon" aria-hidden="true">
              <Icon icon={Table2} size={13} />
            </span>
            <span className="table-item__name">{t.name}</span>
            {count && (
              <span className="table-item__count" title={count.message || undefined}>
                {count.count === null ? "—" : formatCount(count.count)}
              </span>
            )}
          </li>
        );
      });
      break;
  }
  return (
    <ul role="group" className="tree-group">
      {body}
    </ul>
  );
}
