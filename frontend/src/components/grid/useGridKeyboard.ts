import type { KeyboardEvent } from "react";
import { useApi, type Column, type RowKey } from "../../api";
import { dispatch, type Actions } from "../help/keymap";
import type { CellViewerState } from "./CellViewer";
import { toJSON, toTSV } from "./copy";
import { unnamedRow, type DisplayRow, type GridEditing } from "./displayRows";
import { GRID_KEYMAP, type GridAction } from "./gridKeymap";
import type { CellText } from "./pendingModel";
import type { CellEditing } from "./useCellEditing";
import type { GridSelection } from "./useGridSelection";
import { withFullVectors } from "./vectorPreview";

/** Rows a PageUp/PageDown moves. */
const PAGE_ROWS = 20;
/** How many rows' vectors one loadVectors call reads (the backend's bound). */
const VECTOR_BATCH = 1000;

interface Options {
  rows: DisplayRow[];
  columns: Column[];
  edit?: GridEditing;
  selection: GridSelection;
  editing: CellEditing;
  viewer: CellViewerState;
  say: (text: string) => void;
  loadVectors?: (keys: RowKey[]) => Promise<(string | null)[]>;
}

/**
 * useGridKeyboard is the grid's keyboard: GRID_KEYMAP's actions, and typing a character on a
 * cell to start editing it. It returns the grid's onKeyDown.
 */
export function useGridKeyboard({ rows, columns, edit, selection, editing, viewer, say, loadVectors }: Options) {
  const api = useApi();
  const { active, activeRow, selectedRows, move } = selection;

  /**
   * fullCells is rows' cells with their vector previews replaced by the full vectors, read by
   * the rows' keys in batches; each answer is its key's, by place. A row without a key (added,
   * or keyless) has none to read.
   */
  const fullCells = async (target: DisplayRow[]): Promise<CellText[][]> => {
    if (!loadVectors || !columns.some((c) => c.preview)) return target.map((r) => r.cells);
    const named = target.flatMap((r, i) => (r.key && !r.isNew ? [{ at: i, key: r.key }] : []));
    const full: (string | null)[] = target.map(() => null);
    for (let i = 0; i < named.length; i += VECTOR_BATCH) {
      const batch = named.slice(i, i + VECTOR_BATCH);
      const got = await loadVectors(batch.map((n) => n.key));
      batch.forEach((n, j) => (full[n.at] = got[j] ?? null));
    }
    return withFullVectors(columns, target.map((r) => r.cells), full);
  };

  /** copy puts text(cells) on the clipboard once the full vectors of the rows are read. */
  const copy = (target: DisplayRow[], text: (cells: CellText[][]) => string, what: string) => {
    say(`Copying ${what}…`);
    void fullCells(target)
      .then((cells) => api.copy(text(cells)))
      .then(
        () => say(`Copied ${what}`),
        (reason) => say(`Could not copy: ${reason instanceof Error ? reason.message : String(reason)}`),
      );
  };
  const rowsText = (k: number) => (k === 1 ? "1 row" : `${k} rows`);

  /** whenEditable runs a change to the pending edits: not in a read-only grid, and not while a commit runs. */
  const whenEditable = (change: (e: GridEditing) => void) => () => {
    if (!edit) return false;
    if (!edit.busy) change(edit);
  };

  const actions: Actions<GridAction> = {
    up: () => move(-1, 0),
    down: () => move(1, 0),
    left: () => move(0, -1),
    right: () => move(0, 1),
    extendUp: () => move(-1, 0, true),
    extendDown: () => move(1, 0, true),
    nextColumn: () => (active ? move(0, 1) : false),
    previousColumn: () => (active ? move(0, -1) : false),
    pageDown: () => move(PAGE_ROWS, 0),
    pageUp: () => move(-PAGE_ROWS, 0),
    rowStart: () => move(0, -columns.length),
    rowEnd: () => move(0, columns.length),
    firstRow: () => move(-rows.length, -columns.length),
    lastRow: () => move(rows.length, columns.length),
    edit: () => (active ? editing.start(active.row, active.col) : false),
    escape: () => {
      if (viewer.isOpen) viewer.close();
      else if (selection.selected.size > 0) selection.clear();
      else return false;
    },
    setNull: () => {
      if (!active || !activeRow || !edit) return false;
      const c = columns[active.col];
      const why = editing.editBlock(activeRow, c);
      if (why) say(why);
      else if (activeRow.cells[active.col] !== null) edit.onEdit(activeRow, c.name, null, activeRow.isNew ? null : (activeRow.read?.[active.col] ?? null));
    },
    toggleRow: () => selection.toggle(),
    addRow: whenEditable((e) => e.onAdd()),
    deleteRows: () => {
      if (!edit) return false;
      const target = selection.targetRows();
      if (target.length === 0 || edit.busy) return;
      // A stored row is deleted by its key: one that cannot be named is refused, with why.
      const why = target.map((r) => unnamedRow(r, edit.primaryKey)).find(Boolean);
      if (why) say(why);
      else edit.onDelete(target);
    },
    commit: whenEditable((e) => e.onCommit()),
    undo: whenEditable((e) => e.onUndo()),
    copy: () => {
      if (selectedRows.length > 0) copy(selectedRows, (cells) => toTSV(columns, cells, true), `${rowsText(selectedRows.length)} as TSV`);
      else if (active && activeRow) {
        const col = active.col;
        copy([activeRow], (cells) => toTSV([columns[col]], [[cells[0][col]]], false), "the cell");
      } else return false;
    },
    copyJSON: () => {
      const target = selection.targetRows();
      if (target.length === 0) return false;
      copy(target, (cells) => toJSON(columns, cells), `${rowsText(target.length)} as JSON`);
    },
  };

  return (e: KeyboardEvent) => {
    if (editing.editing) return; // the cell editor has the keys
    // Keys on a control inside the grid (a header's sort or filter button, a cell's ↗) are
    // that control's: Enter on a sort button sorts, it does not edit the active cell.
    if (e.target !== e.currentTarget) return;
    let handled = dispatch(GRID_KEYMAP, actions, e);
    // Typing a character on a cell starts editing it with that character.
    if (!handled && active && edit && e.key.length === 1 && !e.ctrlKey && !e.metaKey && !e.altKey) {
      editing.start(active.row, active.col, e.key);
      handled = true;
    }
    if (handled) {
      e.preventDefault();
      e.stopPropagation();
    }
  };
}
