import { useCallback, useState } from "react";
import type { Actions } from "../help/keymap";
import type { TreeMove } from "./treeKeymap";

/** One visible row of the tree: a connection (level 1) or one of its tables (level 2; a multi-tenant one expands). */
export interface TreeRow {
  key: string;
  /** The parent row's key, for tables. */
  parent?: string;
  expandable: boolean;
  expanded: boolean;
}

interface Handlers {
  onOpen: (row: TreeRow) => void;
  onExpand: (row: TreeRow) => void;
  onCollapse: (row: TreeRow) => void;
}

/**
 * useTreeNavigation keeps the active row of a tree and gives the moves of its keymap
 * (treeKeymap.ts; WAI-ARIA tree pattern): ArrowUp/ArrowDown step through the visible rows
 * (stopping at the ends), Home/End jump, ArrowRight expands a row or steps into it, ArrowLeft
 * collapses it or steps out to its parent, Enter opens. The active row is kept by key, so it stays put when rows
 * load above or below it; when it disappears (its parent collapsed) the parent takes over.
 */
export function useTreeNavigation(rows: TreeRow[], { onOpen, onExpand, onCollapse }: Handlers) {
  const [activeKey, setActiveKey] = useState<{ key: string; parent?: string } | null>(null);

  let active = 0;
  if (activeKey) {
    const i = rows.findIndex((r) => r.key === activeKey.key);
    const p = activeKey.parent ? rows.findIndex((r) => r.key === activeKey.parent) : -1;
    active = i >= 0 ? i : p >= 0 ? p : 0;
  }
  active = Math.min(active, Math.max(rows.length - 1, 0));

  const setActive = useCallback(
    (i: number) => {
      const r = rows[i];
      if (r) setActiveKey({ key: r.key, parent: r.parent });
    },
    [rows],
  );

  // The moves of TREE_KEYMAP; each declines the key (false) while the tree has no rows.
  const row = rows[active];
  const go = (i: number) => {
    if (i >= 0) setActive(i);
  };
  const moves: Actions<TreeMove> = {
    down: () => (row ? go(Math.min(active + 1, rows.length - 1)) : false),
    up: () => (row ? go(Math.max(active - 1, 0)) : false),
    first: () => (row ? go(0) : false),
    last: () => (row ? go(rows.length - 1) : false),
    expand: () => {
      if (!row) return false;
      if (row.expandable && !row.expanded) onExpand(row);
      else if (row.expanded && rows[active + 1]?.parent === row.key) go(active + 1);
    },
    collapse: () => {
      if (!row) return false;
      if (row.expanded) onCollapse(row);
      else if (row.parent) go(rows.findIndex((r) => r.key === row.parent));
    },
    open: () => (row ? onOpen(row) : false),
  };

  return { active, setActive, moves };
}
