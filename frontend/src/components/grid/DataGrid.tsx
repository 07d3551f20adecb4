import { observeElementRect, useVirtualizer } from "@tanstack/react-virtual";
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
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
/** How far beyond the view, each side, columns are rendered (px). */
const COLUMN_OVERSCAN = 240;

/** Columns are virtualized only in a table wider than this many views: below it every column
 * costs less to keep than rows re-rendered as columns come into view (scrolling across a
 * table of a few views was slower virtualized in WebKitGTK), and a row holds all its cells. */
const VIRTUALIZE_COLUMNS_PAST_VIEWS = 3;

/** columnsInView is the columns [start, end) within COLUMN_OVERSCAN px of the view (left, width), or every column in a table no wider than VIRTUALIZE_COLUMNS_PAST_VIEWS views; edges are the columns' left edges and, last, the right edge of the last. */
export function columnsInView(edges: number[], left: number, width: number) {
  const n = edges.length - 1;
  if (edges[n] - edges[0] <= VIRTUALIZE_COLUMNS_PAST_VIEWS * width) return { start: 0, end: n };
  const lo = left - COLUMN_OVERSCAN;
  const hi = left + width + COLUMN_OVERSCAN;
  let start = 0;
  while (start < n && edges[start + 1] <= lo) start++;
  let end = start;
  while (end < n && edges[end] < hi) end++;
  return { start, end };
}
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

  // Columns are virtualized too, in a table wider than VIRTUALIZE_COLUMNS_PAST_VIEWS views: a row
  // renders the columns in view (and COLUMN_OVERSCAN px either side), the rest stand in as one
  // empty cell each side of the exact width, so a table of 50 columns lays out and paints a
  // dozen cells a row, not 50. Widths are exact (the colgroup's),
  // so no measuring. A grid not laid out (a hidden tab, tests) renders every column. The active
  // and the edited cell are always rendered, so the keyboard can scroll to them.
  const colWidths = grid.columns.map(widthOf);
  const edges = [GUTTER];
  for (const w of colWidths) edges.push(edges[edges.length - 1] + w);
  const edgesRef = useRef(edges);
  edgesRef.current = edges;
  // The columns in view, [start, end); null where the grid is not laid out. State changes only
  // when a scroll brings another column in or out, not at every scrolled pixel.
  const [inView, setInView] = useState<{ start: number; end: number } | null>(null);
  const updateView = useRef<() => void>(() => {});
  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (!el) return;
    let width = el.clientWidth;
    let lastLeft = el.scrollLeft;
    const update = () => {
      const next = width > 0 ? columnsInView(edgesRef.current, el.scrollLeft, width) : null;
      setInView((v) => (v === next || (v && next && v.start === next.start && v.end === next.end) ? v : next));
    };
    updateView.current = update;
    const onScroll = () => {
      // Only a horizontal move can change the columns in view.
      if (el.scrollLeft !== lastLeft) {
        lastLeft = el.scrollLeft;
        update();
      }
    };
    update();
    el.addEventListener("scroll", onScroll, { passive: true });
    const ro =
      typeof ResizeObserver === "undefined"
        ? null
        : new ResizeObserver(() => {
            width = el.clientWidth;
            update();
          });
    ro?.observe(el);
    return () => {
      el.removeEventListener("scroll", onScroll);
      ro?.disconnect();
    };
  }, []);
  // Widths or columns changed: the columns in view may have.
  const edgesKey = edges.join(",");
  useLayoutEffect(() => updateView.current(), [edgesKey]);
  let colStart = inView ? Math.min(inView.start, grid.columns.length) : 0;
  let colEnd = inView ? Math.min(inView.end, grid.columns.length) : grid.columns.length;
  for (const keep of [active?.col, editing.editing?.col]) {
    if (keep !== undefined && keep >= 0 && keep < grid.columns.length) {
      colStart = Math.min(colStart, keep);
      colEnd = Math.max(colEnd, keep + 1);
    }
  }
  const cols = { start: colStart, end: colEnd, leftPad: edges[colStart] - GUTTER, rightPad: edges[grid.columns.length] - edges[colEnd] };
  const colSpan = colEnd - colStart + 1 + (cols.leftPad > 0 ? 1 : 0) + (cols.rightPad > 0 ? 1 : 0);

  const rowLabel = (i: number) => (rows[i]?.isNew ? "new" : String(grid.offset + i - (edit?.pending.inserts.length ?? 0) + 1));
  const totalWidth = edges[grid.columns.length];
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
        <table className="data-grid" aria-label={`Rows of ${table}`} aria-rowcount={rows.length + 1} aria-colcount={grid.columns.length + 1} style={{ width: totalWidth }}>
          <colgroup>
            <col style={{ width: GUTTER }} />
            {cols.leftPad > 0 && <col style={{ width: cols.leftPad }} />}
            {grid.columns.slice(colStart, colEnd).map((c, k) => (
              <col key={c.name} style={{ width: colWidths[colStart + k] }} />
            ))}
            {cols.rightPad > 0 && <col style={{ width: cols.rightPad }} />}
          </colgroup>
          <GridHeader columns={grid.columns} cols={cols} sort={sort} onSort={onSort} onFilter={onFilter} vectorName={vectorName} startResize={onResize && startResize} />
          <tbody>
            {top > 0 && (
              <tr className="data-grid__spacer" aria-hidden="true" style={{ height: top }}>
                <td colSpan={colSpan} />
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
                  colStart={colStart}
                  colEnd={colEnd}
                  leftPad={cols.leftPad}
                  rightPad={cols.rightPad}
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
                <td colSpan={colSpan} />
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
