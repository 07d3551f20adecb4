import { observeElementRect, useVirtualizer } from "@tanstack/react-virtual";
import { memo, useEffect, useMemo, useRef, useState, type KeyboardEvent, type MouseEvent as ReactMouseEvent } from "react";
import { useApi, type Column, type Grid, type Sort } from "../../api";
import { toJSON, toTSV } from "./copy";
import { namedVector, shortVector, vectorSize } from "./filterModel";
import { cellOf, isNewRow, UUID_COLUMN, type CellText, type Pending } from "./pendingModel";
import { isVector, previewCell, previewDimensions, withFullVectors } from "./vectorPreview";
import { Icon, ArrowDown, ArrowUp } from "../icons";

const NUMERIC = new Set(["int", "number"]);
const ROW_HEIGHT = 27;
const NO_LAYOUT = { width: 1200, height: 800 };
const GUTTER = 56;
/** Rows a PageUp/PageDown moves. */
const PAGE_ROWS = 20;

function cellClass(c: Column) {
  if (c.json || c.type === "uuid") return "cell cell--mono";
  if (NUMERIC.has(c.type)) return "cell cell--num";
  return "cell";
}

/** The default column widths: rows are virtualized, so widths must not follow the rows on screen. */
function defaultWidth(c: Column): number {
  if (c.type === "uuid") return 290;
  if (isVector(c)) return 300;
  if (NUMERIC.has(c.type)) return 110;
  if (c.type === "boolean") return 90;
  if (c.type === "date") return 190;
  return 220;
}

/** A cell whose full text does not fit: vectors, long JSON or text. */
const expandable = (c: Column, v: string | null) => v !== null && (isVector(c) || v.length > 40);

/** Text columns keep an emptied cell as empty text; other types take it as NULL. */
const emptyIsNull = (c: Column) => c.type !== "text" && c.type !== "string";

/** One row as the grid shows it: read, added, or marked for deletion, with its pending cells. */
export interface DisplayRow {
  /** The pending model's key: the uuid for a stored row, "new:N" for an added one. */
  key: string;
  uuid: string;
  cells: CellText[];
  isNew: boolean;
  deleted: boolean;
  /** Why the row's last commit did not apply it. */
  error: string;
  /** The cells as read from the database (null for an added row): what an edit is compared with. */
  read: CellText[] | null;
}

/** The grid's editing, when its rows can be edited (a table tab; not an editor result). */
export interface GridEditing {
  pending: Pending;
  onEdit: (key: string, column: string, value: CellText, original: CellText) => void;
  onDelete: (rows: { key: string; uuid: string }[]) => void;
  onUndo: () => void;
  onCommit: () => void;
  /** onAdd adds an empty row (Alt+Insert); the grid then moves to its first editable cell. */
  onAdd: () => void;
  /** busy: a commit is running; the pending changes show but cannot change until it ends. */
  busy?: boolean;
}

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
  /** loadVectors reads the full vectors of rows by uuid, for columns whose cells are previews. */
  loadVectors?: (uuids: string[]) => Promise<Record<string, string>>;
}

/** How many rows' vectors one loadVectors call reads (the backend's bound). */
const VECTOR_BATCH = 1000;

/** The full value of the cell open in the viewer, read when the cell holds a preview. */
type Full = { status: "loading" } | { status: "ready"; value: string | null } | { status: "error"; message: string };

/** displayRows is what the grid shows: added rows first (where they are seen), then the page. */
export function displayRows(grid: Grid, pending?: Pending): DisplayRow[] {
  const uuidCol = grid.columns.findIndex((c) => c.name === UUID_COLUMN);
  const added: DisplayRow[] = (pending?.inserts ?? []).map((r) => ({
    key: r.key,
    uuid: "",
    cells: grid.columns.map((c) => (c.name in r.values ? r.values[c.name] : null)),
    isNew: true,
    deleted: false,
    error: pending?.rowErrors[r.key] ?? "",
    read: null,
  }));
  const read = grid.rows.map((row, i) => {
    const uuid = uuidCol >= 0 ? (row[uuidCol] ?? "") : "";
    const key = uuid || `row:${grid.offset + i}`;
    return {
      key,
      uuid,
      cells: pending ? grid.columns.map((c, j) => cellOf(pending, key, c.name, row[j] ?? null).value) : row,
      isNew: false,
      deleted: pending ? key in pending.deletes : false,
      error: pending?.rowErrors[key] ?? "",
      read: row,
    };
  });
  return added.length > 0 ? [...added, ...read] : read;
}

/**
 * DataGrid is the grid of one page: a sticky header with each column's name and type (a click
 * or Enter on the name sorts: ascending, descending, off; Shift+click adds a sort key), a
 * filter button per filterable column, resizable columns, and rows virtualized with
 * @tanstack/react-virtual so 10,000 rows with 1,536-dimension vectors render only the rows
 * on screen. Keyboard first: the arrows move the active cell, Enter or F2 (or typing) edits
 * it, Delete sets it NULL, Ctrl+C copies, Ctrl+Z undoes, Ctrl+S commits. Edited cells,
 * added rows and rows marked for deletion show as pending until committed. Null shows as a
 * muted "null", empty text as a muted "", vectors shortened; ↗ opens a cell's full value.
 */
export function DataGrid({ grid, table, sort = [], onSort, onFilter, empty = "No rows", edit, widths = {}, onResize, onActiveRow, onSelectRows, vectorName, autoFocus, loadVectors }: Props) {
  const api = useApi();
  const scrollRef = useRef<HTMLDivElement>(null);
  // The cell open in the viewer, by row key: added rows and new pages move row indexes.
  const [open, setOpen] = useState<{ key: string; col: number } | null>(null);
  const [copied, setCopied] = useState(false);
  // The active cell and the cell being edited are held by row key, not by row number: a
  // commit's re-read or a sort may move rows, and a typed value must reach the row it was
  // typed in.
  const [activeAt, setActiveAt] = useState<{ key: string; col: number } | null>(null);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [anchor, setAnchor] = useState<number | null>(null);
  // typed: the draft was changed in the editor (or the edit began with a typed key).
  const [editing, setEditing] = useState<{ key: string; col: number; draft: string; initial: CellText; typed: boolean } | null>(null);
  // The edit being finished is cleared here first, so the blur that moving the focus causes
  // finds nothing left to finish (an edit is recorded once; Escape records nothing).
  const editingRef = useRef(editing);
  editingRef.current = editing;
  const [dragWidth, setDragWidth] = useState<{ column: string; px: number } | null>(null);
  const [status, setStatus] = useState("");
  const [full, setFull] = useState<Full>({ status: "ready", value: null });
  // The newest expand: an older read answering late must not show under another row.
  const fullReq = useRef(0);
  const rows = useMemo(() => displayRows(grid, edit?.pending), [grid, edit?.pending]);
  const indexOf = useMemo(() => new Map(rows.map((r, i) => [r.key, i])), [rows]);
  const active = activeAt && indexOf.has(activeAt.key) && activeAt.col < grid.columns.length ? { row: indexOf.get(activeAt.key) ?? 0, col: activeAt.col } : null;
  // moves counts the moves of the active cell the user made (keys, clicks, an added row): only
  // those scroll it into view, not rows shifting under it (an undone insert, a re-sorted page).
  const [moves, setMoves] = useState(0);
  const setActiveAtMoved = (a: { key: string; col: number } | ((cur: { key: string; col: number } | null) => { key: string; col: number })) => {
    setActiveAt(a);
    setMoves((n) => n + 1);
  };
  const setActive = (a: { row: number; col: number } | null) => {
    if (a && rows[a.row]) setActiveAtMoved({ key: rows[a.row].key, col: a.col });
    else setActiveAt(null);
  };
  const editingRow = editing ? (indexOf.get(editing.key) ?? -1) : -1;
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
  const items = virtualizer.getVirtualItems();
  const top = items.length > 0 ? items[0].start : 0;
  const bottom = items.length > 0 ? virtualizer.getTotalSize() - items[items.length - 1].end : 0;
  const sortOf = (name: string) => sort.find((s) => s.column === name);
  const widthOf = (c: Column) => (dragWidth?.column === c.name ? dragWidth.px : (widths[c.name] ?? defaultWidth(c)));

  // A new page (or new rows) drops a selection that left; an edit whose row left is dropped.
  useEffect(() => {
    setEditing((e) => (e && !rows.some((r) => r.key === e.key) ? null : e));
    setSelected((s) => {
      if (s.size === 0) return s;
      const keys = new Set(rows.map((r) => r.key));
      const kept = new Set([...s].filter((k) => keys.has(k)));
      return kept.size === s.size ? s : kept;
    });
  }, [rows]);

  const activeRow = active ? (rows[active.row] ?? null) : null;
  useEffect(() => {
    onActiveRow?.(activeRow);
  }, [activeRow, onActiveRow]);

  const selectedRows = useMemo(() => rows.filter((r) => selected.has(r.key)), [rows, selected]);
  useEffect(() => {
    onSelectRows?.(selectedRows);
  }, [selectedRows, onSelectRows]);

  // A table just opened takes the keyboard when it is the tab on screen, unless the user is
  // already typing somewhere else.
  useEffect(() => {
    const el = scrollRef.current;
    const typing = document.activeElement instanceof HTMLInputElement || document.activeElement instanceof HTMLTextAreaElement || (document.activeElement as HTMLElement | null)?.isContentEditable;
    if (autoFocus && el && el.getClientRects().length > 0 && !typing) el.focus({ preventScroll: true });
  }, [autoFocus]);

  // A row just added becomes the active row, at its first editable cell, ready for typing.
  const added = edit?.pending.inserts.length ?? 0;
  const addedBefore = useRef(added);
  useEffect(() => {
    if (added > addedBefore.current) {
      const col = Math.max(0, grid.columns.findIndex((c) => !c.readOnly && !c.primaryKey));
      const row = edit?.pending.inserts[added - 1];
      if (row) setActiveAtMoved({ key: row.key, col });
      setSelected(new Set());
      scrollRef.current?.focus({ preventScroll: true });
    }
    addedBefore.current = added;
  }, [added, grid.columns]);

  // The viewer closes when its row leaves the rows shown (another page, a discarded new row).
  useEffect(() => {
    if (open && !indexOf.has(open.key)) setOpen(null);
  }, [open, indexOf]);

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

  const toggleSort = (c: Column, add: boolean) => {
    if (!onSort || !c.sortable) return;
    const s = sortOf(c.name);
    const next: Sort | null = !s ? { column: c.name, descending: false } : !s.descending ? { column: c.name, descending: true } : null;
    if (!add) {
      onSort(next ? [next] : []);
      return;
    }
    const rest = sort.filter((k) => k.column !== c.name);
    onSort(next ? (s ? sort.map((k) => (k.column === c.name ? next : k)) : [...sort, next]) : rest);
  };

  /** Whether a cell can be edited, and if not, why. */
  const editBlock = (row: DisplayRow, c: Column): string => {
    if (!edit) return "This grid is read-only";
    if (edit.busy) return "A commit is running: wait for it to finish";
    if (row.deleted) return "The row is marked for deletion: undo to edit it";
    if (c.primaryKey && row.isNew) return "";
    if (c.readOnly) return `${c.name} is read-only`;
    return "";
  };

  const startEdit = (r: number, col: number, draft?: string) => {
    const row = rows[r];
    const c = grid.columns[col];
    if (!row || !c) return;
    const why = editBlock(row, c);
    if (why) {
      setStatus(why);
      return;
    }
    setStatus("");
    const initial = row.cells[col] ?? null;
    setEditing({ key: row.key, col, draft: draft ?? initial ?? "", initial, typed: draft !== undefined });
  };

  /**
   * finishEdit ends the edit; keep records it when the text changed. It reports whether it did.
   * The grid takes the keyboard back unless focus is leaving for something outside it (a
   * filter's input clicked mid-edit keeps its focus, and what is typed there stays there).
   */
  const finishEdit = (keep: boolean, leavingFor: EventTarget | null = null): boolean => {
    const cur = editingRef.current;
    if (!cur) return false;
    editingRef.current = null;
    setEditing(null);
    const outside = leavingFor instanceof Node && !scrollRef.current?.contains(leavingFor);
    if (!outside) scrollRef.current?.focus({ preventScroll: true });
    if (!keep || !edit || edit.busy) return false;
    const at = indexOf.get(cur.key);
    const row = at === undefined ? undefined : rows[at];
    const c = grid.columns[cur.col];
    if (!row || !c) return false;
    // Text left as it was opened is no edit: a NULL cell opened and closed stays NULL. Typing
    // into a NULL text cell and erasing it again is how empty text is written.
    if (cur.draft === (cur.initial ?? "") && !(cur.initial === null && cur.typed && !emptyIsNull(c))) return false;
    const value: CellText = cur.draft === "" && emptyIsNull(c) ? null : cur.draft;
    if (value === row.cells[cur.col]) return false;
    edit.onEdit(row.key, c.name, value, isNewRow(row.key) ? null : (row.read?.[cur.col] ?? null));
    return true;
  };

  const move = (dr: number, dc: number, extend = false) => {
    if (rows.length === 0 || grid.columns.length === 0) return;
    const cur = active ?? { row: 0, col: 0 };
    const row = Math.max(0, Math.min(rows.length - 1, cur.row + dr));
    const col = Math.max(0, Math.min(grid.columns.length - 1, cur.col + dc));
    setActive({ row, col });
    if (extend) {
      const from = anchor ?? cur.row;
      setAnchor(from);
      setSelected(new Set(rows.slice(Math.min(from, row), Math.max(from, row) + 1).map((x) => x.key)));
    } else if (dr !== 0) {
      setAnchor(null);
    }
  };

  /** The rows an action applies to: the selected ones, else the active cell's. */
  const targetRows = (): DisplayRow[] => (selectedRows.length > 0 ? selectedRows : activeRow ? [activeRow] : []);

  /** fullCells is rows' cells with their vector previews replaced by the full vectors. */
  const fullCells = async (target: DisplayRow[]): Promise<CellText[][]> => {
    if (!loadVectors || !grid.columns.some((c) => c.preview)) return target.map((r) => r.cells);
    const uuids = target.filter((r) => r.uuid && !r.isNew).map((r) => r.uuid);
    const got: Record<string, string> = {};
    for (let i = 0; i < uuids.length; i += VECTOR_BATCH) Object.assign(got, await loadVectors(uuids.slice(i, i + VECTOR_BATCH)));
    return withFullVectors(grid.columns, target, got);
  };

  /** copy puts text(cells) on the clipboard once the full vectors of the rows are read. */
  const copy = (target: DisplayRow[], text: (cells: CellText[][]) => string, what: string) => {
    setStatus(`Copying ${what}…`);
    void fullCells(target)
      .then((cells) => api.copy(text(cells)))
      .then(
        () => setStatus(`Copied ${what}`),
        (reason) => setStatus(`Could not copy: ${reason instanceof Error ? reason.message : String(reason)}`),
      );
  };

  const onKeyDown = (e: KeyboardEvent) => {
    if (editing) return; // the cell editor has the keys
    // Keys on a control inside the grid (a header's sort or filter button, a cell's ↗) are
    // that control's: Enter on a sort button sorts, it does not edit the active cell.
    if (e.target !== e.currentTarget) return;
    const mod = e.ctrlKey || e.metaKey;
    const handled = () => {
      e.preventDefault();
      e.stopPropagation();
    };
    if (e.key === "Escape") {
      if (open) setOpen(null);
      else if (selected.size > 0) setSelected(new Set());
      else return;
      handled();
      return;
    }
    if (mod && (e.key === "c" || e.key === "C")) {
      const target = targetRows();
      const n = (k: number) => (k === 1 ? "1 row" : `${k} rows`);
      if (e.shiftKey) {
        if (target.length === 0) return;
        copy(target, (cells) => toJSON(grid.columns, cells), `${n(target.length)} as JSON`);
      } else if (selectedRows.length > 0) {
        copy(selectedRows, (cells) => toTSV(grid.columns, cells, true), `${n(selectedRows.length)} as TSV`);
      } else if (active && activeRow) {
        const col = active.col;
        copy([activeRow], (cells) => toTSV([grid.columns[col]], [[cells[0][col]]], false), "the cell");
      } else return;
      handled();
      return;
    }
    if (edit && mod && (e.key === "z" || e.key === "Z") && !e.shiftKey) {
      if (!edit.busy) edit.onUndo();
      handled();
      return;
    }
    if (edit && mod && (e.key === "s" || e.key === "S")) {
      if (!edit.busy) edit.onCommit();
      handled();
      return;
    }
    if (edit && e.altKey && e.key === "Insert") {
      if (!edit.busy) edit.onAdd();
      handled();
      return;
    }
    if (edit && mod && (e.key === "Delete" || e.key === "Backspace")) {
      const target = targetRows();
      if (target.length > 0 && !edit.busy) edit.onDelete(target.map((r) => ({ key: r.key, uuid: r.uuid })));
      handled();
      return;
    }
    switch (e.key) {
      case "ArrowDown":
        move(1, 0, e.shiftKey);
        break;
      case "ArrowUp":
        move(-1, 0, e.shiftKey);
        break;
      case "ArrowRight":
        move(0, 1);
        break;
      case "ArrowLeft":
        move(0, -1);
        break;
      case "Tab":
        if (!active) return;
        move(0, e.shiftKey ? -1 : 1);
        break;
      case "PageDown":
        move(PAGE_ROWS, 0);
        break;
      case "PageUp":
        move(-PAGE_ROWS, 0);
        break;
      case "Home":
        move(mod ? -rows.length : 0, -grid.columns.length);
        break;
      case "End":
        move(mod ? rows.length : 0, grid.columns.length);
        break;
      case "Enter":
      case "F2":
        if (!active) return;
        startEdit(active.row, active.col);
        break;
      case "Delete":
        if (!active || !activeRow || !edit) return;
        if (editBlock(activeRow, grid.columns[active.col])) {
          setStatus(editBlock(activeRow, grid.columns[active.col]));
        } else if (activeRow.cells[active.col] !== null) {
          edit.onEdit(activeRow.key, grid.columns[active.col].name, null, activeRow.isNew ? null : (activeRow.read?.[active.col] ?? null));
        }
        break;
      case " ":
        if (!activeRow) return;
        setSelected((s) => {
          const n = new Set(s);
          if (n.has(activeRow.key)) n.delete(activeRow.key);
          else n.add(activeRow.key);
          return n;
        });
        break;
      default:
        if (active && edit && e.key.length === 1 && !mod && !e.altKey) {
          startEdit(active.row, active.col, e.key);
          break;
        }
        return;
    }
    handled();
  };

  const onGutterClick = (e: ReactMouseEvent, r: number) => {
    const key = rows[r].key;
    setActiveAtMoved((a) => ({ key, col: a?.col ?? 0 }));
    if (e.shiftKey && anchor !== null) {
      setSelected(new Set(rows.slice(Math.min(anchor, r), Math.max(anchor, r) + 1).map((x) => x.key)));
      return;
    }
    setAnchor(r);
    setSelected((s) => {
      if (e.ctrlKey || e.metaKey) {
        const n = new Set(s);
        if (n.has(key)) n.delete(key);
        else n.add(key);
        return n;
      }
      return s.size === 1 && s.has(key) ? new Set() : new Set([key]);
    });
  };

  const startResize = (e: ReactMouseEvent, c: Column) => {
    e.preventDefault();
    e.stopPropagation();
    const startX = e.clientX;
    const startW = widthOf(c);
    let px = startW;
    const onMove = (ev: MouseEvent) => {
      px = Math.max(40, Math.min(2000, startW + ev.clientX - startX));
      setDragWidth({ column: c.name, px });
    };
    const onUp = () => {
      window.removeEventListener("mousemove", onMove);
      window.removeEventListener("mouseup", onUp);
      setDragWidth(null);
      if (px !== startW) onResize?.(c.name, px);
    };
    window.addEventListener("mousemove", onMove);
    window.addEventListener("mouseup", onUp);
  };

  // GridRow is memoized: it gets one stable object of handlers that call the current ones,
  // so scrolling re-renders only the rows that enter the view.
  const current = useRef<RowHandlers>(null as unknown as RowHandlers);
  current.current = {
    gutter: onGutterClick,
    activate: (r, c) => setActive({ row: r, col: c }),
    edit: (r, c) => startEdit(r, c),
    expand: (r, c) => {
      setCopied(false);
      const row = rows[r];
      if (!row) return;
      setOpen({ key: row.key, col: c });
      const req = ++fullReq.current;
      if (!grid.columns[c]?.preview) return;
      if (!loadVectors || !row.uuid) {
        setFull({ status: "error", message: "This row's vector cannot be read" });
        return;
      }
      setFull({ status: "loading" });
      loadVectors([row.uuid]).then(
        (got) => req === fullReq.current && setFull({ status: "ready", value: got[row.uuid] ?? null }),
        (reason) => req === fullReq.current && setFull({ status: "error", message: reason instanceof Error ? reason.message : String(reason) }),
      );
    },
    draft: (text) => setEditing((e) => (e ? { ...e, draft: text, typed: true } : e)),
    finish: (keep, dr, dc, leavingFor) => {
      finishEdit(keep, leavingFor);
      if (keep && (dr !== 0 || dc !== 0)) move(dr, dc);
    },
    commit: () => {
      finishEdit(true);
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

  const openColumn = open ? grid.columns[open.col] : undefined;
  const openRow = open ? indexOf.get(open.key) : undefined;
  const openRowCells = openRow === undefined ? undefined : rows[openRow]?.cells;
  // A preview cell shows its full value once read; until then it says so.
  const openValue = !open || !openRowCells ? null : openColumn?.preview ? (full.status === "ready" ? full.value : null) : (openRowCells[open.col] ?? null);
  const openCell = open && openRow !== undefined && openRowCells && openColumn ? { value: openValue, column: openColumn, row: openRow, preview: openRowCells[open.col] ?? "" } : null;
  const openPending = openColumn?.preview === true && full.status !== "ready";
  const rowLabel = (i: number) => (rows[i]?.isNew ? "new" : String(grid.offset + i - (edit?.pending.inserts.length ?? 0) + 1));
  const totalWidth = GUTTER + grid.columns.reduce((n, c) => n + widthOf(c), 0);

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
          // The grid taking focus shows where the keyboard is, without scrolling to it.
          if (e.target === e.currentTarget && !active && rows.length > 0) setActiveAt({ key: rows[0].key, col: 0 });
        }}
      >
        <table className="data-grid" aria-label={`Rows of ${table}`} aria-rowcount={rows.length + 1} style={{ width: totalWidth }}>
          <colgroup>
            <col style={{ width: GUTTER }} />
            {grid.columns.map((c) => (
              <col key={c.name} style={{ width: widthOf(c) }} />
            ))}
          </colgroup>
          <thead>
            <tr>
              <th className="data-grid__gutter" scope="col">
                <span className="visually-hidden">Row</span>
              </th>
              {grid.columns.map((c) => {
                const s = sortOf(c.name);
                const rank = sort.length > 1 && s ? sort.indexOf(s) + 1 : 0;
                const typeLabel = c.type === "vectors" && vectorName ? `vectors · ${vectorName}` : c.type;
                return (
                  <th
                    key={c.name}
                    scope="col"
                    title={c.description || undefined}
                    aria-sort={s ? (s.descending ? "descending" : "ascending") : c.sortable && onSort ? "none" : undefined}
                  >
                    <div className="data-grid__head">
                      {c.sortable && onSort ? (
                        <button
                          type="button"
                          className="data-grid__sort"
                          aria-label={`Sort by ${c.name}${s ? (s.descending ? " (descending; next: off)" : " (ascending; next: descending)") : ""}`}
                          title="Click to sort; Shift+click to add a sort key"
                          onClick={(e) => toggleSort(c, e.shiftKey)}
                        >
                          <span className="data-grid__name">
                            {c.name}
                            {s && <Icon icon={s.descending ? ArrowDown : ArrowUp} size={12} className="sort-arrow" />}
                            {rank > 0 && <span className="data-grid__rank">{rank}</span>}
                          </span>
                          <span className="data-grid__type">{typeLabel}</span>
                        </button>
                      ) : (
                        <span className="data-grid__label">
                          <span className="data-grid__name">{c.name}</span>
                          <span className="data-grid__type">{typeLabel}</span>
                        </span>
                      )}
                      {onFilter && c.filterable.length > 0 && (
                        <button type="button" className="data-grid__filter" aria-label={`Filter ${c.name}`} title={`Filter ${c.name}`} onClick={() => onFilter(c.name)}>
                          <svg viewBox="0 0 16 16" width="11" height="11" aria-hidden="true">
                            <path d="M1.5 2h13l-5 6v5.5l-3-1.5V8z" fill="currentColor" />
                          </svg>
                        </button>
                      )}
                    </div>
                    {onResize && <span className="data-grid__resize" aria-hidden="true" onMouseDown={(e) => startResize(e, c)} />}
                  </th>
                );
              })}
            </tr>
          </thead>
          <tbody>
            {top > 0 && (
              <tr className="data-grid__spacer" aria-hidden="true" style={{ height: top }}>
                <td colSpan={grid.columns.length + 1} />
              </tr>
            )}
            {items.map((it) => {
              const row = rows[it.index];
              const isEditing = editing !== null && editingRow === it.index;
              return (
                <GridRow
                  key={row.key}
                  row={row}
                  index={it.index}
                  label={rowLabel(it.index)}
                  columns={grid.columns}
                  activeCol={active?.row === it.index ? active.col : -1}
                  selected={selected.has(row.key)}
                  editingCol={isEditing ? editing.col : -1}
                  draft={isEditing ? editing.draft : ""}
                  editedCells={row.isNew ? undefined : edit?.pending.edits[row.key]?.cells}
                  editable={edit !== undefined}
                  errors={edit?.pending.cellErrors[row.key]}
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
      {openCell && (
        <section
          className="cell-viewer"
          aria-label={`${openCell.column.name} of row ${rowLabel(openCell.row)}`}
          onKeyDown={(e) => {
            if (e.key === "Escape") {
              e.preventDefault();
              setOpen(null);
              scrollRef.current?.focus({ preventScroll: true });
            }
          }}
        >
          <header className="cell-viewer__head">
            <span className="cell-viewer__title">
              {openCell.column.name} · row {rowLabel(openCell.row)}
              {isVector(openCell.column) && openCell.value?.startsWith("[") && <> · {vectorSize(openCell.value).toLocaleString("en-US")} values</>}
              {openCell.column.type === "vectors" && openCell.column.preview && openCell.value !== null && <> · {previewDimensions(openCell.preview)}</>}
            </span>
            <button
              type="button"
              className="btn btn--small"
              disabled={openPending}
              onClick={() => {
                void api.copy(openCell.value ?? "").then(() => setCopied(true));
              }}
            >
              {copied ? "Copied" : "Copy"}
            </button>
            <button type="button" className="btn btn--small" aria-label="Close the full value" onClick={() => setOpen(null)}>
              Close
            </button>
          </header>
          <pre className="cell-viewer__value" tabIndex={0}>
            {full.status === "loading" && openPending ? "Reading the full value…" : full.status === "error" && openPending ? `Could not read it: ${full.message}` : (openCell.value ?? "null")}
          </pre>
        </section>
      )}
    </div>
  );
}

/** The grid's handlers a row calls (by row index and column index). */
interface RowHandlers {
  gutter: (e: ReactMouseEvent, row: number) => void;
  activate: (row: number, col: number) => void;
  edit: (row: number, col: number) => void;
  expand: (row: number, col: number) => void;
  draft: (text: string) => void;
  /** finish ends the edit (keep: write it) and moves the active cell by (dr, dc); leavingFor is where focus goes on a blur. */
  finish: (keep: boolean, dr: number, dc: number, leavingFor?: EventTarget | null) => void;
  /** commit ends the edit and commits every pending change (Ctrl+S while editing). */
  commit: () => void;
}

interface RowProps {
  row: DisplayRow;
  index: number;
  label: string;
  columns: Column[];
  /** The active cell's column when it is in this row, else -1. */
  activeCol: number;
  selected: boolean;
  /** The column being edited in this row, else -1; draft is its text. */
  editingCol: number;
  draft: string;
  editedCells: Record<string, CellText> | undefined;
  editable: boolean;
  errors: Record<string, string> | undefined;
  vectorName: string | undefined;
  on: RowHandlers;
}

/** shownText is what a cell shows: vectors and previews shortened, everything else as it is. */
function shownText(c: Column, v: string, vectorName: string | undefined): string {
  if (c.preview) return previewCell(v, c.type === "vectors" ? vectorName : undefined);
  if (!isVector(c)) return v;
  if (c.type === "vectors" && vectorName) return shortVector(namedVector(v, vectorName) ?? `no ${vectorName}`);
  return shortVector(v);
}

/** GridRow is one row of the grid; memoized, so it renders again only when it changes. */
const GridRow = memo(function GridRow({ row, index, label, columns, activeCol, selected, editingCol, draft, editedCells, editable, errors, vectorName, on }: RowProps) {
  const rowClass = [
    "data-grid__row",
    row.isNew && "data-grid__row--new",
    row.deleted && "data-grid__row--deleted",
    row.error && "data-grid__row--failed",
    selected && "data-grid__row--selected",
  ]
    .filter(Boolean)
    .join(" ");
  return (
    <tr className={rowClass} aria-rowindex={index + 2} aria-selected={selected || undefined} style={{ height: ROW_HEIGHT }}>
      <td
        className="data-grid__gutter"
        title={row.error ? `Not applied: ${row.error}` : row.deleted ? "Marked for deletion" : "Click to select; Shift or Ctrl+click to select more"}
        onClick={(e) => on.gutter(e, index)}
      >
        {row.error && (
          <span className="row-error" role="img" aria-label={`Row ${label} not applied: ${row.error}`}>
            !
          </span>
        )}
        {label}
      </td>
      {columns.map((c, j) => {
        const v = row.cells[j] ?? null;
        if (editingCol === j) {
          return (
            <td key={c.name} className={`${cellClass(c)} cell--editing`} data-active="true">
              <input
                className="cell-input"
                aria-label={`Edit ${c.name} of row ${label}`}
                autoFocus
                value={draft}
                onChange={(e) => on.draft(e.target.value)}
                onBlur={(e) => on.finish(true, 0, 0, e.relatedTarget)}
                onKeyDown={(e) => {
                  if (e.key === "Enter") {
                    e.preventDefault();
                    on.finish(true, 1, 0);
                  } else if (e.key === "Tab") {
                    e.preventDefault();
                    on.finish(true, 0, e.shiftKey ? -1 : 1);
                  } else if ((e.ctrlKey || e.metaKey) && (e.key === "s" || e.key === "S")) {
                    e.preventDefault();
                    on.commit();
                  } else if (e.key === "Escape") {
                    e.preventDefault();
                    e.stopPropagation();
                    on.finish(false, 0, 0);
                  }
                }}
              />
            </td>
          );
        }
        const isActive = activeCol === j;
        const edited = row.isNew ? editable && v !== null : editedCells !== undefined && c.name in editedCells;
        const bad = errors?.[c.name];
        const cls = [cellClass(c), isActive && "cell--active", edited && "cell--edited", bad && "cell--invalid"].filter(Boolean).join(" ");
        return (
          <td
            key={c.name}
            className={cls}
            data-active={isActive || undefined}
            aria-invalid={bad ? true : undefined}
            title={bad ? bad : v !== null && v.length <= 400 && !c.preview ? v : undefined}
            onMouseDown={() => on.activate(index, j)}
            onDoubleClick={() => on.edit(index, j)}
          >
            {(c.preview ? v !== null : expandable(c, v)) && (
              <button type="button" className="cell-expand" aria-label={`Show the full ${c.name} of row ${label}`} onClick={() => on.expand(index, j)} />
            )}
            {v === null ? (
              <span className="cell-null">null</span>
            ) : v === "" ? (
              <span className="cell-empty" title="empty text">
                ""
              </span>
            ) : (
              shownText(c, v, vectorName)
            )}
          </td>
        );
      })}
    </tr>
  );
});
