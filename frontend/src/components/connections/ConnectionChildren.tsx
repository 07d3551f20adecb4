import type { Connection, Table, Tenant } from "../../api";
import { formatCount } from "../opened/format";
import type { OpenedState } from "../opened/useOpened";
import { ChevronRight, Icon, Table2 } from "../icons";
import { TenantList } from "./TenantList";
import "./connections.css";

interface Props {
  connection: Connection;
  state: OpenedState | undefined;
  activeKey: string | null;
  openTable?: string;
  tableRowId: (table: string) => string;
  onOpenTable: (table: string, index: number) => void;
  /** isExpanded tells whether a multi-tenant table shows its tenants. */
  isExpanded: (table: string) => boolean;
  /** onToggleTable shows or hides a multi-tenant table's tenants. */
  onToggleTable: (table: string, index: number) => void;
  onOpenTenant: (t: Tenant) => void;
  onReconnect: () => void;
  /** A group of tables (Table.group, e.g. a Weaviate namespace) is a level of its own. */
  groupRowId?: (group: string) => string;
  isGroupExpanded?: (group: string) => boolean;
  onToggleGroup?: (group: string) => void;
}

/**
 * ConnectionChildren is the group under an expanded connection: its tables with their row
 * counts, or the state of connecting to it (not connected, loading, the driver's error, dropped).
 */
export function ConnectionChildren({
  connection,
  state,
  activeKey,
  openTable,
  tableRowId,
  onOpenTable,
  isExpanded,
  onToggleTable,
  onOpenTenant,
  onReconnect,
  groupRowId = (g) => `group-${connection.id}-${g}`,
  isGroupExpanded = () => false,
  onToggleGroup = () => {},
}: Props) {
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
            <span role="status">No tables</span>
          </li>
        );
        break;
      }
      const tableItem = (t: Table, i: number, level: number) => {
        const id = tableRowId(t.name);
        const count = state.counts?.[t.name];
        const expanded = t.multiTenant && isExpanded(t.name);
        const row = (
          <div
            className="table-item"
            title={t.description || t.name}
            onClick={() => (t.multiTenant ? onToggleTable(t.name, i) : onOpenTable(t.name, i))}
          >
            <span className="table-item__icon" aria-hidden="true">
              <Icon icon={t.multiTenant ? ChevronRight : Table2} size={13} className={expanded ? "icon--turned" : undefined} />
            </span>
            <span className="table-item__name">{t.group && t.label ? t.label : t.name}</span>
            {t.kind && <span className="table-item__kind">{t.kind}</span>}
            {!count && typeof t.estimate === "number" && (
              <span className="table-item__count" title="The database's estimate; counting…">
                about {formatCount(t.estimate)}
              </span>
            )}
            {count && (
              <span className="table-item__count" title={count.message || undefined}>
                {count.tenants !== undefined
                  ? `${formatCount(count.tenants)} ${count.tenants === 1 ? "tenant" : "tenants"}`
                  : count.count === null
                    ? "—"
                    : `${count.estimated ? "about " : ""}${formatCount(count.count)}`}
              </span>
            )}
          </div>
        );
        return (
          <li
            key={t.name}
            id={id}
            role="treeitem"
            aria-level={level}
            aria-label={[t.group && t.label ? t.label : t.name, t.kind, t.multiTenant ? "multi-tenant" : ""].filter(Boolean).join(", ")}
            aria-selected={activeKey === id}
            aria-expanded={t.multiTenant ? expanded : undefined}
            aria-current={openTable === t.name ? "page" : undefined}
            data-open={openTable === t.name || undefined}
            className="table-entry"
          >
            {row}
            {expanded && (
              <TenantList connectionId={connection.id} table={t.name} openTable={openTable} onOpenTenant={onOpenTenant} refreshed={state.refreshed ?? 0} />
            )}
          </li>
        );
      };
      // Tables in no group are listed at the top level; a group's tables (sortTables keeps them
      // together) under one row of the group, shown when it is expanded.
      body = [];
      for (let i = 0; i < state.tables.length; i++) {
        const t = state.tables[i];
        if (!t.group) {
          body.push(tableItem(t, i, 2));
          continue;
        }
        const group = t.group;
        const first = i;
        const members: Table[] = [];
        while (i < state.tables.length && state.tables[i].group === group) members.push(state.tables[i++]);
        i--;
        const id = groupRowId(group);
        const open = isGroupExpanded(group);
        body.push(
          <li key={id} id={id} role="treeitem" aria-level={2} aria-label={`${group}, ${members.length} ${members.length === 1 ? "table" : "tables"}`} aria-expanded={open} aria-selected={activeKey === id} className="table-entry">
            <div className="table-item table-item--group" title={group} onClick={() => onToggleGroup(group)}>
              <span className="table-item__icon" aria-hidden="true">
                <Icon icon={ChevronRight} size={13} className={open ? "icon--turned" : undefined} />
              </span>
              <span className="table-item__name">{group}</span>
              <span className="table-item__count">{members.length}</span>
            </div>
            {open && (
              <ul role="group" className="tree-group">
                {members.map((m, k) => tableItem(m, first + k, 3))}
              </ul>
            )}
          </li>,
        );
      }
      break;
  }
  return (
    <ul role="group" className="tree-group">
      {body}
    </ul>
  );
}
