import type { Connection } from "../../api";
import { formatCount, rowRange } from "../explorer/format";
import { ColumnChips } from "./ColumnChips";
import { DataGrid } from "./DataGrid";
import { PAGE_SIZE, useTablePage } from "./useTablePage";

interface Props {
  connection: Connection;
  table: string;
  /** The row count from the sidebar, when known. */
  count?: number | null;
}

/** TablePanel is an open table: its columns and a read-only page of rows with paging. */
export function TablePanel({ connection, table, count }: Props) {
  const { state, reload, page } = useTablePage(connection.id, table);
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
          <div className="grid-bar">
            <span className="grid-bar__range" aria-live="polite">
              {rowRange(state.grid.offset, state.grid.rows.length, count)}
              {state.paging && " · loading…"}
            </span>
            <span className="grid-bar__note">Read-only</span>
            <button
              type="button"
              className="btn btn--small"
              disabled={state.paging || state.grid.offset === 0}
              onClick={() => void page(state.grid.offset - PAGE_SIZE)}
            >
              ‹ Previous
            </button>
            <button
              type="button"
              className="btn btn--small"
              disabled={state.paging || !state.grid.hasMore}
              onClick={() => void page(state.grid.offset + PAGE_SIZE)}
            >
              Next ›
            </button>
          </div>
          {state.grid.notice && <p className="grid-notice">{state.grid.notice}</p>}
          {state.pageError && (
            <p className="grid-notice grid-notice--error" role="alert">
              {state.pageError.message}
            </p>
          )}
          <DataGrid grid={state.grid} table={table} />
        </>
      )}
    </section>
  );
}
