import type { Virtualizer } from "@tanstack/react-virtual";
import { useEffect, useMemo, useRef, useState, type MouseEvent as ReactMouseEvent, type RefObject } from "react";
import type { Column } from "../../api";
import type { DisplayRow } from "./displayRows";
import type { NewRow } from "./pendingModel";

type At = { ref: string; col: number };

interface Options {
  rows: DisplayRow[];
  indexOf: Map<string, number>;
  columns: Column[];
  /** The rows added and not yet committed: the newest becomes the active row. */
  inserts: NewRow[];
  scrollRef: RefObject<HTMLDivElement | null>;
  virtualizer: Virtualizer<HTMLDivElement, Element>;
  onActiveRow?: (row: DisplayRow | null) => void;
  onSelectRows?: (rows: DisplayRow[]) => void;
}

/**
 * useGridSelection is where the grid's keyboard is: the active cell, and the rows selected in
 * the gutter (click, Shift+click for a range, Ctrl+click for one more; Space, Shift+↑↓).
 * Both are held by row ref (the grid's own name of a row), not by row number: a commit's re-read or a sort may move rows.
 */
export function useGridSelection({ rows, indexOf, columns, inserts, scrollRef, virtualizer, onActiveRow, onSelectRows }: Options) {
  const [activeAt, setActiveAt] = useState<At | null>(null);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [anchor, setAnchor] = useState<number | null>(null);
  const active = activeAt && indexOf.has(activeAt.ref) && activeAt.col < columns.length ? { row: indexOf.get(activeAt.ref) ?? 0, col: activeAt.col } : null;
  // moves counts the moves of the active cell the user made (keys, clicks, an added row): only
  // those scroll it into view, not rows shifting under it (an undone insert, a re-sorted page).
  const [moves, setMoves] = useState(0);
  const setActiveAtMoved = (a: At | ((cur: At | null) => At)) => {
    setActiveAt(a);
    setMoves((n) => n + 1);
  };
  const setActive = (a: { row: number; col: number } | null) => {
    if (a && rows[a.row]) setActiveAtMoved({ ref: rows[a.row].ref, col: a.col });
    else setActiveAt(null);
  };

  // A new page (or new rows) drops a selection that left.
  useEffect(() => {
    setSelected((s) => {
      if (s.size === 0) return s;
      const refs = new Set(rows.map((r) => r.ref));
      const kept = new Set([...s].filter((ref) => refs.has(ref)));
      return kept.size === s.size ? s : kept;
    });
  }, [rows]);

  const activeRow = active ? (rows[active.row] ?? null) : null;
  useEffect(() => {
    onActiveRow?.(activeRow);
  }, [activeRow, onActiveRow]);

  const selectedRows = useMemo(() => rows.filter((r) => selected.has(r.ref)), [rows, selected]);
  useEffect(() => {
    onSelectRows?.(selectedRows);
  }, [selectedRows, onSelectRows]);

  // A row just added becomes the active row, at its first editable cell, ready for typing.
  const added = inserts.length;
  const addedBefore = useRef(added);
  useEffect(() => {
    if (added > addedBefore.current) {
      const col = Math.max(0, columns.findIndex((c) => !c.readOnly && !c.primaryKey));
      const row = inserts[added - 1];
      if (row) setActiveAtMoved({ ref: row.ref, col });
      setSelected(new Set());
      scrollRef.current?.focus({ preventScroll: true });
    }
    addedBefore.current = added;
  }, [added, columns]);

  // Keep the active cell on screen as the user moves it, and only then: a grid that scrolled
  // back to it whenever a count or a page arrived, or rows shifted under it, would take the
  // view (and the header under the pointer) away from someone scrolling elsewhere.
  const activeRowIndex = active?.row ?? -1;
  useEffect(() => {
    if (moves === 0 || activeRowIndex < 0) return;
    virtualizer.scrollToIndex(activeRowIndex, { align: "auto" });
    const el = scrollRef.current?.querySelector<HTMLElement>('[data-active="true"]');
    el?.scrollIntoView?.({ block: "nearest", inline: "nearest" });
    // Only a move scrolls; activeRowIndex is read as of that move's render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [moves, virtualizer]);

  /** move moves the active cell by (dr, dc), within the grid; extend selects the rows passed over. */
  const move = (dr: number, dc: number, extend = false) => {
    if (rows.length === 0 || columns.length === 0) return;
    const cur = active ?? { row: 0, col: 0 };
    const row = Math.max(0, Math.min(rows.length - 1, cur.row + dr));
    const col = Math.max(0, Math.min(columns.length - 1, cur.col + dc));
    setActive({ row, col });
    if (extend) {
      const from = anchor ?? cur.row;
      setAnchor(from);
      setSelected(new Set(rows.slice(Math.min(from, row), Math.max(from, row) + 1).map((x) => x.ref)));
    } else if (dr !== 0) {
      setAnchor(null);
    }
  };

  const gutterClick = (e: ReactMouseEvent, r: number) => {
    const ref = rows[r].ref;
    setActiveAtMoved((a) => ({ ref, col: a?.col ?? 0 }));
    if (e.shiftKey && anchor !== null) {
      setSelected(new Set(rows.slice(Math.min(anchor, r), Math.max(anchor, r) + 1).map((x) => x.ref)));
      return;
    }
    setAnchor(r);
    setSelected((s) => {
      if (e.ctrlKey || e.metaKey) {
        const n = new Set(s);
        if (n.has(ref)) n.delete(ref);
        else n.add(ref);
        return n;
      }
      return s.size === 1 && s.has(ref) ? new Set() : new Set([ref]);
    });
  };

  /** toggle adds the active cell's row to the selection, or takes it out. */
  const toggle = () => {
    if (!activeRow) return false;
    setSelected((s) => {
      const n = new Set(s);
      if (n.has(activeRow.ref)) n.delete(activeRow.ref);
      else n.add(activeRow.ref);
      return n;
    });
  };

  /** focusFirst shows where the keyboard is when the grid takes focus, without scrolling to it. */
  const focusFirst = () => {
    if (!active && rows.length > 0) setActiveAt({ ref: rows[0].ref, col: 0 });
  };

  /** The rows an action applies to: the selected ones, else the active cell's. */
  const targetRows = (): DisplayRow[] => (selectedRows.length > 0 ? selectedRows : activeRow ? [activeRow] : []);

  return {
    active,
    activeRow,
    selected,
    selectedRows,
    targetRows,
    setActive,
    move,
    gutterClick,
    toggle,
    focusFirst,
    clear: () => setSelected(new Set()),
  };
}

export type GridSelection = ReturnType<typeof useGridSelection>;
