import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { Connection, PluginProgress } from "../../api";
import type { OpenedState } from "../opened/useOpened";
import { ConnectionChildren } from "./ConnectionChildren";
import { ConnectionItem } from "./ConnectionItem";
import { ConnectionListEmpty, ConnectionListError, ConnectionListLoading } from "./ConnectionListStates";
import type { ConnectionsState } from "./useConnections";
import { dispatch, type Actions } from "../help/keymap";
import { TREE_KEYMAP, type TreeAction } from "./treeKeymap";
import { useTreeNavigation, type TreeRow } from "./useTreeNavigation";
import "./connections.css";

/** What the tree needs to show and open the tables of connections. */
export interface TreeActions {
  /** opened holds the state of each connection the user opened. */
  opened?: Record<string, OpenedState>;
  /** onExpand connects a connection without opening its tab (ArrowRight, the chevron). */
  onExpand?: (c: Connection) => void;
  onReconnect?: (c: Connection) => void;
  onOpenTable?: (c: Connection, table: string) => void;
  /** openTable marks the table whose tab is active. */
  openTable?: { connectionId: string; table: string };
  /** installing holds the plugin download a connection being opened waits for, by id. */
  installing?: Record<string, PluginProgress>;
  onEdit?: (c: Connection) => void;
  onDuplicate?: (c: Connection) => void;
  onDelete?: (c: Connection) => void;
  /** onOpenEditor opens the connection's query editor (Ctrl+E on its row or a table row). */
  onOpenEditor?: (c: Connection) => void;
}

interface Props extends TreeActions {
  state: ConnectionsState;
  onRetry: () => void;
  onOpen: (c: Connection) => void;
  openId?: string;
  /** onNew starts a new connection (the empty list offers it). */
  onNew?: () => void;
}

/** ConnectionList renders the loading, error, empty or filled tree of saved connections. */
export function ConnectionList({ state, onRetry, onNew, ...rest }: Props) {
  switch (state.status) {
    case "loading":
      return <ConnectionListLoading />;
    case "error":
      return <ConnectionListError error={state.error} onRetry={onRetry} />;
    case "ready":
      if (state.connections.length === 0) return <ConnectionListEmpty onNew={onNew} />;
      return <ConnectionTree connections={state.connections} {...rest} />;
  }
}

const connRowId = (c: Connection) => `conn-${c.id}`;
const tableRowId = (c: Connection, table: string) => `table-${c.id}-${table}`;
const groupRowId = (c: Connection, group: string) => `group-${c.id}-${group}`;

interface Row extends TreeRow {
  connection: Connection;
  table?: string;
  /** A group row (a level the database puts tables in, e.g. a Weaviate namespace) names its group. */
  group?: string;
  /** A multi-tenant table expands to its tenants (TenantList) instead of opening. */
  multiTenant?: boolean;
}

/**
 * ConnectionTree is the keyboard-driven tree: a connection opens (connects, lists its
 * tables underneath and opens its tab) with Enter or a click; its tables open with Enter or
 * a click too. Arrows move, ArrowRight/ArrowLeft expand and collapse.
 */
function ConnectionTree({
  connections,
  onOpen,
  openId,
  opened = {},
  onExpand = () => {},
  onReconnect = () => {},
  onOpenTable = () => {},
  openTable,
  installing = {},
  onEdit = () => {},
  onDuplicate = () => {},
  onDelete = () => {},
  onOpenEditor = () => {},
}: Omit<Props, "state" | "onRetry"> & { connections: Connection[] }) {
  const listRef = useRef<HTMLUListElement>(null);
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());

  const rows = useMemo(() => {
    const out: Row[] = [];
    for (const c of connections) {
      const open = expanded.has(c.id);
      out.push({ key: connRowId(c), connection: c, expandable: true, expanded: open });
      const st = opened[c.id];
      if (open && st?.status === "ready") {
        const groups = new Set<string>();
        for (const t of st.tables) {
          let parent = connRowId(c);
          if (t.group) {
            // A grouped table sits under its group's row, which comes once, before its first table.
            parent = groupRowId(c, t.group);
            if (!groups.has(t.group)) {
              groups.add(t.group);
              out.push({ key: parent, parent: connRowId(c), connection: c, group: t.group, expandable: true, expanded: expanded.has(parent) });
            }
            if (!expanded.has(parent)) continue;
          }
          const key = tableRowId(c, t.name);
          out.push({ key, parent, connection: c, table: t.name, multiTenant: t.multiTenant, expandable: t.multiTenant, expanded: t.multiTenant && expanded.has(key) });
        }
      }
    }
    return out;
  }, [connections, expanded, opened]);

  const setOpen = useCallback((id: string, open: boolean) => {
    setExpanded((s) => {
      if (s.has(id) === open) return s;
      const next = new Set(s);
      if (open) next.add(id);
      else next.delete(id);
      return next;
    });
  }, []);

  // A connection that was connected and is no longer (Disconnect, a delete) folds up: open, it
  // would show "Connecting to…" with a spinner for a connection nothing is connecting.
  const held = useRef(opened);
  useEffect(() => {
    for (const id of Object.keys(held.current)) {
      if (!opened[id]) setOpen(id, false);
    }
    held.current = opened;
  }, [opened, setOpen]);

  // The active tab's connection is expanded when that tab (or its table) becomes active, so the
  // tables, and the open one among them, are seen in the tree; a restored layout included.
  // Collapsing it afterwards holds until the active tab changes.
  const activeTable = openTable?.table;
  useEffect(() => {
    if (openId) setOpen(openId, true);
  }, [openId, activeTable, setOpen]);

  const openRow = useCallback(
    (r: TreeRow) => {
      const row = r as Row;
      if (row.multiTenant || row.group !== undefined) {
        setOpen(row.key, !row.expanded);
        return;
      }
      if (row.table !== undefined) {
        onOpenTable(row.connection, row.table);
        return;
      }
      setOpen(row.connection.id, true);
      onOpen(row.connection);
    },
    [onOpen, onOpenTable, setOpen],
  );
  const expandRow = useCallback(
    (r: TreeRow) => {
      const row = r as Row;
      if (row.table !== undefined || row.group !== undefined) {
        setOpen(row.key, true);
        return;
      }
      setOpen(row.connection.id, true);
      onExpand(row.connection);
    },
    [onExpand, setOpen],
  );
  const collapseRow = useCallback(
    (r: TreeRow) => {
      const row = r as Row;
      setOpen(row.table !== undefined || row.group !== undefined ? row.key : row.connection.id, false);
    },
    [setOpen],
  );

  const { active, setActive, moves } = useTreeNavigation(rows, {
    onOpen: openRow,
    onExpand: expandRow,
    onCollapse: collapseRow,
  });
  const activeRow = rows[active];
  // Mod+E opens the editor of the active row's connection; F2 edits and Delete deletes it (on a connection row).
  const connectionOf = (onTable: boolean) => {
    const row = activeRow as Row | undefined;
    return row && (onTable || (row.table === undefined && row.group === undefined)) ? row.connection : null;
  };
  const on = (onTable: boolean, act: (c: Connection) => void) => () => {
    const c = connectionOf(onTable);
    if (!c) return false;
    act(c);
  };
  const actions: Actions<TreeAction> = { ...moves, editor: on(true, onOpenEditor), edit: on(false, onEdit), delete: on(false, onDelete) };

  // Keyboard-first: the tree takes focus when it first appears, so arrows work at once.
  useEffect(() => {
    if (document.activeElement === document.body || document.activeElement === null) {
      listRef.current?.focus();
    }
  }, []);

  // Only when the active row moves: a refreshed list (new counts) keeps the user's scroll.
  const activeKey = activeRow?.key;
  useEffect(() => {
    if (!activeKey) return;
    document.getElementById(activeKey)?.scrollIntoView?.({ block: "nearest" });
  }, [activeKey]);

  const indexOf = (key: string) => rows.findIndex((r) => r.key === key);

  return (
    <ul
      ref={listRef}
      className="conn-list"
      role="tree"
      aria-label="Saved connections"
      tabIndex={0}
      aria-activedescendant={activeRow?.key}
      onKeyDown={(e) => {
        // The tree's keys stop here: Mod+E opens this row's editor, not the active tab's.
        if (dispatch(TREE_KEYMAP, actions, e)) {
          e.preventDefault();
          e.stopPropagation();
        }
      }}
    >
      {connections.map((c) => {
        const isOpen = expanded.has(c.id);
        const st = opened[c.id];
        return (
          <li
            key={c.id}
            id={connRowId(c)}
            role="treeitem"
            aria-level={1}
            aria-label={c.name}
            aria-expanded={isOpen}
            aria-selected={activeRow?.key === connRowId(c)}
            className="tree-conn"
          >
            <ConnectionItem
              connection={c}
              open={c.id === openId}
              expanded={isOpen}
              status={st?.status}
              installing={installing[c.id]}
              onEdit={() => onEdit(c)}
              onDuplicate={() => onDuplicate(c)}
              onDelete={() => onDelete(c)}
              onClick={() => {
                setActive(indexOf(connRowId(c)));
                openRow(rows[indexOf(connRowId(c))]);
              }}
              onToggle={() => (isOpen ? setOpen(c.id, false) : expandRow(rows[indexOf(connRowId(c))]))}
            />
            {isOpen && (
              <ConnectionChildren
                connection={c}
                state={st}
                activeKey={activeRow?.key ?? null}
                openTable={openTable?.connectionId === c.id ? openTable.table : undefined}
                tableRowId={(t) => tableRowId(c, t)}
                onOpenTable={(t) => {
                  setActive(indexOf(tableRowId(c, t)));
                  onOpenTable(c, t);
                }}
                isExpanded={(t) => expanded.has(tableRowId(c, t))}
                groupRowId={(g) => groupRowId(c, g)}
                isGroupExpanded={(g) => expanded.has(groupRowId(c, g))}
                onToggleGroup={(g) => {
                  const key = groupRowId(c, g);
                  setActive(indexOf(key));
                  setOpen(key, !expanded.has(key));
                }}
                onToggleTable={(t) => {
                  const key = tableRowId(c, t);
                  setActive(indexOf(key));
                  setOpen(key, !expanded.has(key));
                }}
                onOpenTenant={(tn) => onOpenTable(c, tn.table)}
                onReconnect={() => onReconnect(c)}
              />
            )}
          </li>
        );
      })}
    </ul>
  );
}
