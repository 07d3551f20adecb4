import { useState } from "react";
import type { Connection } from "../../api";
import { formatCount, rowRange } from "../explorer/format";
import { FilterBar, type EditorTarget } from "../grid/FilterBar";
import { ColumnChips } from "./ColumnChips";
import { DataGrid } from "./DataGrid";
import { ALL_ROWS, PAGE_SIZES, useTablePage, type CountState } from "./useTablePage";

interface Props {
  connection: Connection;
  table: string;
  /** The row count from the sidebar, when known. */
  count?: number | null;
}

/**
 * TablePanel is an open table: its columns, the filters (ANDed), and a read-only,
 * virtualized page of rows with sort by header, paging with a page size, the row count of
 * the filters and the 10,000-row stop explained where paging stops.
 */
export function TablePanel({ connection, table, count }: Props) {
  const { state, query, count: counted, reload, page, setFilters, setSort, setPageSize } = useTablePage(connection.id, table);
  const [editing, setEditing] = useState<EditorTarget | null>(null);
  const total = totalOf(counted, query.filters.length === 0 ? count : undefined);
  return (
    <section className="panel panel--table" aria-label={table}>
      <header className="panel__head">
        <span className="table-icon" aria-hidden="true">
          ▦
        </span>
        <div className="panel__titles">
          <h2 className="panel__title">{table}</h2>
          <p className="panel__subtitle">
            {connection.name}
            {count !== undefined && count !== null && <> · {formatCount(count)} rows</>}
            {state.status === "ready" && state.info.description && <> · {state.info.description}</>}
          </p>
        </div>
      </header>
      {state.status === "loading" && (
        <div className="panel-state" role="status" aria-live="polite">
          <span className="spinner" aria-hidden="true" /> Loading {table}…
        </div>
      )}
      {state.status === "error" && (
        <div className="list-state list-state--error" role="alert">
          <p className="list-state__title">Could not load {table}</p>
          <p className="list-state__hint">{state.error.message}</p>
          <button type="button" className="btn btn--small" onClick={() => void reload()}>
            Retry
          </button>
        </div>
      )}
      {state.status === "ready" && (
        <>
          <ColumnChips columns={state.info.columns} />
          <FilterBar
            table={table}
            columns={state.info.columns}
            settings={state.info.settings}
            filters={query.filters}
            refused={state.grid.refused}
            editing={editing}
            onEdit={setEditing}
            onChange={(f) => void setFilters(f)}
          />
          <div className="grid-bar">
            <span className="grid-bar__range" aria-live="polite">
              {state.grid.refused ? "No rows: a filter cannot run" : rowRange(state.grid.offset, state.grid.rows.length, total)}
              {counted.status === "loading" && !state.grid.refused && query.filters.length > 0 && " · counting…"}
              {counted.status === "error" && <> · count failed: {counted.error.message}</>}
              {state.paging && " · loading…"}
            </span>
            <span className="grid-bar__note">Read-only</span>
            <label className="grid-bar__size">
              Rows per page{" "}
              <select
                className="input input--small"
                value={query.pageSize}
                onChange={(e) => void setPageSize(Number(e.target.value))}
              >
                {PAGE_SIZES.map((n) => (
                  <option key={n} value={n}>
                    {n === ALL_ROWS ? "All (up to 10,000)" : n}
                  </option>
                ))}
              </select>
            </label>
            <button
              type="button"
              className="btn btn--small"
              disabled={state.paging || state.grid.offset === 0}
              onClick={() => void page(state.grid.offset - query.pageSize)}
            >
              ‹ Previous
            </button>
            <button
              type="button"
              className="btn btn--small"
              disabled={state.paging || !state.grid.hasMore}
              aria-describedby={state.grid.notice ? `${table}-notice` : undefined}
              onClick={() => void page(state.grid.offset + query.pageSize)}
            >
              Next ›
            </button>
          </div>
          {state.pageError && (
            <p className="grid-notice grid-notice--error" role="alert">
              {state.pageError.message}
            </p>
          )}
          <DataGrid
            grid={state.grid}
            table={table}
            sort={query.sort}
            onSort={(s) => void setSort(s)}
            onFilter={(column) => setEditing({ index: -1, column })}
            empty={state.grid.refused ? "No rows: the filter above cannot run, so nothing is shown (never the whole table)." : query.filters.length > 0 ? "No rows match the filters" : "No rows"}
          />
          {state.grid.notice && (
            <p id={`${table}-notice`} className="grid-notice grid-notice--stop" role="note">
              {state.grid.notice}
            </p>
          )}
        </>
      )}
    </section>
  );
}

function totalOf(c: CountState, fallback: number | null | undefined): number | null | undefined {
  if (c.status === "ready") return c.count;
  return fallback;
}
