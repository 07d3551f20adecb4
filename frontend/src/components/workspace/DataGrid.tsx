import { observeElementRect, useVirtualizer } from "@tanstack/react-virtual";
import { useRef, useState, type KeyboardEvent } from "react";
import { useApi, type Column, type Grid, type Sort } from "../../api";
import { shortVector } from "../grid/filterModel";

const NUMERIC = new Set(["int", "number"]);
const ROW_HEIGHT = 27;
const NO_LAYOUT = { width: 1200, height: 800 };

function cellClass(c: Column) {
  if (c.json || c.type === "uuid") return "cell cell--mono";
  if (NUMERIC.has(c.type)) return "cell cell--num";
  return "cell";
}

/** Fixed column widths: rows are virtualized, so widths must not follow the rows on screen. */
function widthOf(c: Column): number {
  if (c.type === "uuid") return 290;
  if (c.type === "vector" || c.type === "vectors") return 300;
  if (NUMERIC.has(c.type)) return 110;
  if (c.type === "boolean") return 90;
  if (c.type === "date") return 190;
  if (c.json) return 220;
  return 220;
}

const isVector = (c: Column) => c.type === "vector" || c.type === "vectors";

/** A cell whose full text does not fit: vectors, long JSON or text. */
const expandable = (c: Column, v: string | null) => v !== null && (isVector(c) || v.length > 40);

interface Props {
  grid: Grid;
  table: string;
  sort?: Sort[];
  onSort?: (sort: Sort[]) => void;
  onFilter?: (column: string) => void;
  /** What to say when there are no rows ("No rows", "No rows match the filters"...). */
  empty?: string;
}

/**
 * DataGrid is the read-only grid of one page: a sticky header with each column's name and
 * type (a click or Enter on the name sorts: ascending, descending, off), a filter button per
 * filterable column, and rows virtualized with @tanstack/react-virtual so a page of 1,000
 * rows with 1,536-dimension vectors renders only the rows on screen. Null shows as a muted
 * "null", empty text as a muted "", vectors shortened; ↗ opens a cell's full value with
 * a copy button.
 */
export function DataGrid({ grid, table, sort = [], onSort, onFilter, empty = "No rows" }: Props) {
  const api = useApi();
  const scrollRef = useRef<HTMLDivElement>(null);
  const [open, setOpen] = useState<{ row: number; col: number } | null>(null);
  const [copied, setCopied] = useState(false);
  const virtualizer = useVirtualizer({
    count: grid.rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
    // Before the first measurement, and where nothing is laid out (a hidden tab, tests),
    // assume a viewport rather than rendering no rows.
    initialRect: NO_LAYOUT,
    observeElementRect: (instance, cb) => observeElementRect(instance, (r) => cb(r.width === 0 && r.height === 0 ? NO_LAYOUT : r)),
  });
  const items = virtualizer.getVirtualItems();
  const top = items.length > 0 ? items[0].start : 0;
  const bottom = items.length > 0 ? virtualizer.getTotalSize() - items[items.length - 1].end : 0;
  const sortOf = (name: string) => sort.find((s) => s.column === name);

  const toggleSort = (c: Column) => {
    if (!onSort || !c.sortable) return;
    const s = sortOf(c.name);
    if (!s) onSort([{ column: c.name, descending: false }]);
    else if (!s.descending) onSort([{ column: c.name, descending: true }]);
    else onSort([]);
  };

  const openCell = open && grid.rows[open.row] ? { value: grid.rows[open.row][open.col] ?? null, column: grid.columns[open.col], row: open.row } : null;

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === "Escape" && open) {
      e.preventDefault();
      setOpen(null);
    }
  };

  return (
    <div className="grid-area" onKeyDown={onKeyDown}>
      <div ref={scrollRef} className="grid-wrap" tabIndex={0} role="region" aria-label={`Grid of ${table}`}>
        <table className="data-grid" aria-label={`Rows of ${table}`} aria-rowcount={grid.rows.length + 1}>
          <colgroup>
            <col style={{ width: 56 }} />
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
                          onClick={() => toggleSort(c)}
                        >
                          <span className="data-grid__name">
                            {c.name}
                            {s && <span aria-hidden="true">{s.descending ? " ▼" : " ▲"}</span>}
                          </span>
                          <span className="data-grid__type">{c.type}</span>
                        </button>
                      ) : (
                        <span className="data-grid__label">
                          <span className="data-grid__name">{c.name}</span>
                          <span className="data-grid__type">{c.type}</span>
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
              const row = grid.rows[it.index];
              return (
                <tr key={row[0] ?? `row-${grid.offset + it.index}`} className="data-grid__row" aria-rowindex={it.index + 2} style={{ height: ROW_HEIGHT }}>
                  <td className="data-grid__gutter">{grid.offset + it.index + 1}</td>
                  {grid.columns.map((c, j) => {
                    const v = row[j] ?? null;
                    const shown = v !== null && isVector(c) ? shortVector(v) : v;
                    return (
                      <td key={c.name} className={cellClass(c)} title={v !== null && v.length <= 400 ? v : undefined}>
                        {expandable(c, v) && (
                          <button
                            type="button"
                            className="cell-expand"
                            aria-label={`Show the full ${c.name} of row ${grid.offset + it.index + 1}`}
                            onClick={() => {
                              setCopied(false);
                              setOpen({ row: it.index, col: j });
                            }}
                          />
                        )}
                        {v === null ? (
                          <span className="cell-null">null</span>
                        ) : v === "" ? (
                          <span className="cell-empty" title="empty text">
                            ""
                          </span>
                        ) : (
                          shown
                        )}
                      </td>
                    );
                  })}
                </tr>
              );
            })}
            {bottom > 0 && (
              <tr className="data-grid__spacer" aria-hidden="true" style={{ height: bottom }}>
                <td colSpan={grid.columns.length + 1} />
              </tr>
            )}
          </tbody>
        </table>
        {grid.rows.length === 0 && <p className="grid-empty">{empty}</p>}
      </div>
      {openCell && (
        <section className="cell-viewer" aria-label={`${openCell.column.name} of row ${grid.offset + openCell.row + 1}`}>
          <header className="cell-viewer__head">
            <span className="cell-viewer__title">
              {openCell.column.name} · row {grid.offset + openCell.row + 1}
              {isVector(openCell.column) && openCell.value?.startsWith("[") && <> · {vectorLength(openCell.value)} values</>}
            </span>
            <button
              type="button"
              className="btn btn--small"
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
            {openCell.value ?? "null"}
          </pre>
        </section>
      )}
    </div>
  );
}

function vectorLength(text: string): string {
  const t = text.trim();
  if (t === "[]") return "0";
  return t.split(",").length.toLocaleString("en-US");
}
