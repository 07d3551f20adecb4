import type { MouseEvent as ReactMouseEvent } from "react";
import type { Column, Sort } from "../../api";
import { Icon, ArrowDown, ArrowUp } from "../icons";
import "./grid.css";

interface Props {
  columns: Column[];
  /** The columns rendered, [start, end), and the widths of those not rendered each side (DataGrid virtualizes columns). */
  cols: { start: number; end: number; leftPad: number; rightPad: number };
  sort: Sort[];
  onSort?: (sort: Sort[]) => void;
  onFilter?: (column: string) => void;
  vectorName?: string;
  /** startResize begins a drag on a column's edge; without it the columns do not resize. */
  startResize?: (e: ReactMouseEvent, c: Column) => void;
}

/**
 * GridHeader is the grid's sticky header: each column's name and type; a click (or Enter) on
 * the name sorts it ascending, descending, then not at all, and Shift+click adds it as another
 * sort key; a filter button per filterable column; an edge to drag for the width.
 */
export function GridHeader({ columns, cols, sort, onSort, onFilter, vectorName, startResize }: Props) {
  const sortOf = (name: string) => sort.find((s) => s.column === name);

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

  return (
    <thead>
      <tr>
        <th className="data-grid__gutter" scope="col">
          <span className="visually-hidden">Row</span>
        </th>
        {cols.leftPad > 0 && <th className="data-grid__pad" aria-hidden="true" />}
        {columns.slice(cols.start, cols.end).map((c, k) => {
          const s = sortOf(c.name);
          const rank = sort.length > 1 && s ? sort.indexOf(s) + 1 : 0;
          const typeLabel = c.type === "vectors" && vectorName ? `vectors · ${vectorName}` : c.type;
          return (
            <th
              key={c.name}
              scope="col"
              aria-colindex={cols.start + k + 2}
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
              {startResize && <span className="data-grid__resize" aria-hidden="true" onMouseDown={(e) => startResize(e, c)} />}
            </th>
          );
        })}
        {cols.rightPad > 0 && <th className="data-grid__pad" aria-hidden="true" />}
      </tr>
    </thead>
  );
}
