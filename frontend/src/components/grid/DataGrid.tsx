import { observeElementRect, useVirtualizer } from "@tanstack/react-virtual";
import { useEffect, useMemo, useRef, useState } from "react";
import type { Grid, RowKey, Sort } from "../../api";
import { CellViewer, useCellViewer } from "./CellViewer";
import { displayRows, type DisplayRow, type GridEditing } from "./displayRows";
import { GridHeader } from "./GridHeader";
import { GridRow, ROW_HEIGHT, type RowHandlers } from "./GridRow";
import type { NewRow } from "./pendingModel";
import { useCellEditing } from "./useCellEditing";
import { useColumnResize } from "./useColumnResize";
import { useGridKeyboard } from "./useGridKeyboard";
import { useGridSelection } from "./useGridSelection";
import "./grid.css";

export type { DisplayRow, GridEditing } from "./displayRows";

const NO_LAYOUT = { width: 1200, height: 800 };
const GUTTER = 56;
const NO_INSERTS: NewRow[] = [];
const NO_KEY: string[] = [];

interface Props {
  grid: Grid;
  table: string;
  sort?: Sort[];
  /** onSort gets the new sort keys: a click sorts by one column, Shift+click adds a key. */
  onSort?: (sort: Sort[]) => void;
  onFilter?: (column: string) => void;
  /** What to say when there are no rows ("No rows", "No rows match the filters"...). */
  empty?: string;
  edit?: GridEditing;
  /** Remembered column widths (column -> px) and where a resize goes. */
  widths?: Record<string, number>;
  onResize?: (column: string, px: number) => void;
  /** onActiveRow follows the row of the active cell (for the detail panel). */
  onActiveRow?: (row: DisplayRow | null) => void;
  /** onSelectRows follows the rows selected in the gutter (for Delete rows). */
  onSelectRows?: (rows: DisplayRow[]) => void;
  /** vectorName picks the named vector a "vectors" column shows (the full cell stays on expand). */
  vectorName?: string;
  /** autoFocus puts the keyboard in the grid when it first shows rows (a table just opened). */
  autoFocus?: boolean;
  /** loadVectors reads the full vectors of rows by key (answers by place), for columns whose cells are previews. */
  loadVectors?: (keys: RowKey[]) => Promise<(string | null)[]>;
}

/**
 * DataGrid is the grid of one page: a sticky header with each column's name and type (a click
 * or Enter on the name sorts: ascending, descending, off; Shift+click adds a sort key), a
 * filter button per filterable column, resizable columns, and rows virtualized with
 * @tanstack/react-virtual so 10,000 rows with 1,536-dimension vectors render only the rows
 * on screen. Keyboard first (the keys are gridKeymap.ts's): the arrows move the active cell,
 * Enter or F2 (or typing) edits it, Delete sets it NULL, Ctrl+C copies, Ctrl+Z undoes, Ctrl+S
 * commits. Edited cells, added rows and rows marked for deletion show as pending until
 * committed. Null shows as a muted "null", empty text as a muted "", vectors shortened; ↗
 * opens a cell's full value.
 */
export function DataGrid({ grid, table, sort = [], onSort, onFilter, empty = "No rows", edit, widths = {}, onResize, onActiveRow, onSelectRows, vectorName, autoFocus, loadVectors }: Props) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const [status, setStatus] = useState("");
  // An editable grid names its stored rows by the table's key; a read-only one by their place.
  const primaryKey = edit?.primaryKey ?? NO_KEY;
  const rows = useMemo(() => displayRows(grid, primaryKey, edit?.pending), [grid, primaryKey, edit?.pending]);
  const indexOf = useMemo(() => new Map(rows.map((r, i) => [r.ref, i])), [rows]);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 4,
    // Before the first measurement, and where nothing is laid out (a hidden tab, tests),
    // assume a viewport rather than rendering no rows.
    initialRect: NO_LAYOUT,
    observeElementRect: (instance, cb) => observeElementRect(instance, (r) => cb(r.width === 0 && r.height === 0 ? NO_LAYOUT : r)),
  });
  const selection = useGridSelection({ rows, indexOf, columns: grid.columns, inserts: edit?.pending.inserts ?? NO_INSERTS, scrollRef, virtualizer, onActiveRow, onSelectRows });
  const editing = useCellEditing({ rows, indexOf, columns: grid.columns, edit, scrollRef, say: setStatus });
  const viewer = useCellViewer(rows, indexOf, grid.columns, loadVectors);
  const onKeyDown = useGridKeyboard({ rows, columns: grid.columns, edit, selection, editing, viewer, say: setStatus, loadVectors });
  const { widthOf, startResize } = useColumnResize(widths, onResize);
  const { active } = selection;
  const items = virtualizer.getVirtualItems();
  const top = items.length > 0 ? items[0].start : 0;
  const bottom = items.length > 0 ? virtualizer.getTotalSize() - items[items.length - 1].end : 0;

  // A table just opened takes the keyboard when it is the tab on screen, unless the user is
  // already typing somewhere else.
  useEffect(() => {
    const el = scrollRef.current;
    const typing = document.activeElement instanceof HTMLInputElement || document.activeElement instanceof HTMLTextAreaElement || (document.activeElement as HTMLElement | null)?.isContentEditable;
    if (autoFocus && el && el.getClientRects().length > 0 && !typing) el.focus({ preventScroll: true });
  }, [autoFocus]);

  // GridRow is memoized: it gets one stable object of handlers that call the current ones,
  // so scrolling re-renders only the rows that enter the view.
  const current = useRef<RowHandlers>(null as unknown as RowHandlers);
  current.current = {
    gutter: selection.gutterClick,
    activate: (r, c) => selection.setActive({ row: r, col: c }),
    edit: (r, c) => editing.start(r, c),
    expand: viewer.expand,
    draft: editing.setDraft,
    finish: (keep, dr, dc, leavingFor) => {
      editing.finish(keep, leavingFor);
      if (keep && (dr !== 0 || dc !== 0)) selection.move(dr, dc);
    },
    commit: () => {
      editing.finish(true);
      // The edit is in the pending changes once React has rendered it.
      setTimeout(() => edit && !edit.busy && edit.onCommit(), 0);
    },
  };
  const on = useMemo<RowHandlers>(
    () => ({
      gutter: (e, r) => current.current.gutter(e, r),
      activate: (r, c) => current.current.activate(r, c),
      edit: (r, c) => current.current.edit(r, c),
      expand: (r, c) => current.current.expand(r, c),
      draft: (t) => current.current.draft(t),
      finish: (k, dr, dc, leavingFor) => current.current.finish(k, dr, dc, leavingFor),
      commit: () => current.current.commit(),
    }),
    [],
  );

  const rowLabel = (i: number) => (rows[i]?.isNew ? "new" : String(grid.offset + i - (edit?.pending.inserts.length ?? 0) + 1));
  const totalWidth = GUTTER + grid.columns.reduce((n, c) => n + widthOf(c), 0);
  const { editing: cell, editingRow } = editing;

  return (
    <div className="grid-area">
      <div
        ref={scrollRef}
        className="grid-wrap"
        tabIndex={0}
        role="region"
        aria-label={`Grid of ${table}`}
        aria-describedby={`${table}-grid-status`}
        onKeyDown={onKeyDown}
        onFocus={(e) => {
          if (e.target === e.currentTarget) selection.focusFirst();
        }}
      >
        <table className="data-grid" aria-label={`Rows of ${table}`} aria-rowcount={rows.length + 1} style={{ width: totalWidth }}>
          <colgroup>
            <col style={{ width: GUTTER }} />
            {grid.columns.map((c) => (
              <col key={c.name} style={{ width: widthOf(c) }} />
            ))}
          </colgroup>
          <GridHeader columns={grid.columns} sort={sort} onSort={onSort} onFilter={onFilter} vectorName={vectorName} startResize={onResize && startResize} />
          <tbody>
            {top > 0 && (
              <tr className="data-grid__spacer" aria-hidden="true" style={{ height: top }}>
                <td colSpan={grid.columns.length + 1} />
              </tr>
            )}
            {items.map((it) => {
              const row = rows[it.index];
              const isEditing = cell !== null && editingRow === it.index;
              return (
                <GridRow
                  key={row.ref}
                  row={row}
                  index={it.index}
                  label={rowLabel(it.index)}
                  columns={grid.columns}
                  activeCol={active?.row === it.index ? active.col : -1}
                  selected={selection.selected.has(row.ref)}
                  editingCol={isEditing ? cell.col : -1}
                  draft={isEditing ? cell.draft : ""}
                  editedCells={row.isNew ? undefined : edit?.pending.edits[row.ref]?.cells}
                  editable={edit !== undefined}
                  errors={edit?.pending.cellErrors[row.ref]}
                  vectorName={vectorName}
                  on={on}
                />
              );
            })}
            {bottom > 0 && (
              <tr className="data-grid__spacer" aria-hidden="true" style={{ height: bottom }}>
                <td colSpan={grid.columns.length + 1} />
              </tr>
            )}
          </tbody>
        </table>
        {rows.length === 0 && <p className="grid-empty">{empty}</p>}
      </div>
      <p id={`${table}-grid-status`} className="grid-status" role="status" aria-live="polite">
        {status}
      </p>
      <CellViewer viewer={viewer} rowLabel={rowLabel} onDone={() => scrollRef.current?.focus({ preventScroll: true })} />
    </div>
  );
}
