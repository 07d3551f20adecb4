import { memo, type MouseEvent as ReactMouseEvent } from "react";
import type { Column } from "../../api";
import type { DisplayRow } from "./displayRows";
import { namedVector, shortVector } from "./filterModel";
import type { CellText } from "./pendingModel";
import { isNumeric, isVector } from "./columnKinds";
import { previewCell } from "./vectorPreview";
import "./grid.css";


export const ROW_HEIGHT = 27;

function cellClass(c: Column) {
  if (c.json || c.kind === "uuid") return "cell cell--mono";
  if (isNumeric(c)) return "cell cell--num";
  return "cell";
}

/** A cell whose full text does not fit: vectors, long JSON or text. */
const expandable = (c: Column, v: string | null) => v !== null && (isVector(c) || v.length > 40);

/** The grid's handlers a row calls (by row index and column index). */
export interface RowHandlers {
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
  /** The columns rendered, [colStart, colEnd) (the grid virtualizes columns); leftPad and
   * rightPad are the widths of the columns not rendered each side, each one empty cell. */
  colStart: number;
  colEnd: number;
  leftPad: number;
  rightPad: number;
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
export const GridRow = memo(function GridRow({ row, index, label, columns, colStart, colEnd, leftPad, rightPad, activeCol, selected, editingCol, draft, editedCells, editable, errors, vectorName, on }: RowProps) {
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
      {leftPad > 0 && <td className="data-grid__pad" aria-hidden="true" />}
      {columns.slice(colStart, colEnd).map((c, k) => {
        const j = colStart + k;
        const v = row.cells[j] ?? null;
        if (editingCol === j) {
          return (
            <td key={c.name} className={`${cellClass(c)} cell--editing`} data-active="true" aria-colindex={j + 2}>
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
            aria-colindex={j + 2}
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
      {rightPad > 0 && <td className="data-grid__pad" aria-hidden="true" />}
    </tr>
  );
});
