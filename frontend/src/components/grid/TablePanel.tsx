import { useCallback, useEffect, useState } from "react";
import { useApi, type Connection, type Filter, type RowKey } from "../../api";
import { keyText } from "../../api/rowKey";
import { PendingBar } from "./PendingBar";
import { RowDetail } from "./RowDetail";
import { usePendingEdits } from "./usePendingEdits";
import { formatCount, rowRange } from "../opened/format";
import { FilterBar, type EditorTarget } from "./FilterBar";
import { ColumnChips } from "./ColumnChips";
import { DataGrid, type DisplayRow } from "./DataGrid";
import { unnamedRow } from "./displayRows";
import { isNewRow, keyOfRef } from "./pendingModel";
import { useColumnWidths } from "./useColumnWidths";
import { useDefinitionWatch } from "./useDefinitionWatch";
import { ALL_ROWS, PAGE_SIZES, useTablePage, type CountState } from "./useTablePage";
import { FileText, Icon, MapIcon, RefreshCw, Search, Table2 } from "../icons";
import { CollectionDetails } from "../details/CollectionDetails";
import { seeTheSetting } from "../details/SeeTheSetting";
import { ExportDialog } from "./ExportDialog";
import { toApiFilter } from "./filterModel";
import { chooseImportFile, ImportDialog, type ImportSource } from "./ImportDialog";
import { ErrorState } from "../frame/ErrorLine";
import { isVector } from "./columnKinds";
import "./grid.css";

/** Before the table is described its key is not known: no row is named yet. */
const NO_KEY: string[] = [];

interface Props {
  connection: Connection;
  table: string;
  /** The row count from the sidebar, when known. */
  count?: number | null;
  /** onFindSimilar opens the rows nearest a row's vector in a new tab: the row by its key over the table's key columns. */
  onFindSimilar?: (key: RowKey, keyColumns: string[], targetVector: string) => void;
  /** onSearch opens the table's search panel with the grid's filters. */
  onSearch?: (filters: Filter[]) => void;
  /** onMap opens the table's map with the grid's filters. */
  onMap?: (filters: Filter[]) => void;
  /** The filters the tab opens with (a map's selection: the key in the points chosen). */
  initialFilters?: Filter[];
  /** onPending reports how many rows have pending changes (0 when none), for the tab bar. */
  onPending?: (rows: number) => void;
  /** onReady reports whether the rows are on screen (for the window title). */
  onReady?: (ready: boolean) => void;
  /** onRowsChanged is told after a commit wrote something, so the sidebar's count follows. */
  onRowsChanged?: () => void;
  /** The deepest row the driver pages to (its Capabilities.maxResults); "All" reads that many. */
  maxResults?: number;
}

/**
 * TablePanel is an open table: its columns, the filters (ANDed), and a virtualized, editable
 * page of rows with sort by header, paging with a page size, the row count of the filters
 * and the 10,000-row stop explained where paging stops. Edits, added rows and deletions are
 * pending until Commit; the detail panel shows the active row in full, with Find similar.
 */
export function TablePanel({ connection, table, count, onFindSimilar, onSearch, onMap, initialFilters, onPending, onReady, onRowsChanged, maxResults }: Props) {
  const all = maxResults && maxResults > 0 ? maxResults : ALL_ROWS;
  const sizes = [...PAGE_SIZES.filter((n) => n !== ALL_ROWS && n < all), all];
  const { state, query, count: counted, reload, page, refresh, stop, setFilters, setSort, setPageSize } = useTablePage(connection.id, table, initialFilters);
  const [editing, setEditing] = useState<EditorTarget | null>(null);
  const reread = useCallback(() => {
    void refresh();
    onRowsChanged?.();
  }, [refresh, onRowsChanged]);
  // Stored rows are named (edited, deleted, searched near, their vectors read) by the table's key.
  const primaryKey = state.status === "ready" ? state.info.primaryKey : NO_KEY;
  const edits = usePendingEdits(connection.id, table, primaryKey, reread);
  const [widths, setWidth] = useColumnWidths(connection.id, table);
  const [activeRow, setActiveRow] = useState<DisplayRow | null>(null);
  const [selectedRows, setSelectedRows] = useState<DisplayRow[]>([]);
  const [detail, setDetail] = useState(false);
  const [picked, setPicked] = useState("");
  // The definition in words replaces the rows while shown; a refusal's link opens it at a setting.
  const [details, setDetails] = useState<{ highlight: string | null } | null>(null);
  const [transfer, setTransfer] = useState<{ kind: "export" } | { kind: "import"; source: ImportSource } | null>(null);
  const changed = edits.changed;
  useEffect(() => onPending?.(changed), [changed, onPending]);
  useEffect(() => onReady?.(state.status === "ready"), [state.status, onReady]);
  const definitionChanged = useDefinitionWatch(connection.id, table, state.status === "ready" ? state.info : null);
  const api = useApi();
  const loadVectors = useCallback((keys: RowKey[]) => api.explorer.vectors(connection.id, table, keys), [api, connection.id, table]);
  const deleteTargets = selectedRows.length > 0 ? selectedRows : activeRow ? [activeRow] : [];
  const cannotDelete = deleteTargets.map((r) => unnamedRow(r, primaryKey)).find(Boolean);
  const activeKey = activeRow && !activeRow.isNew ? activeRow.key : null;
  const total = totalOf(counted, query.filters.length === 0 ? count : undefined);
  return (
    <section
      className="panel panel--table"
      aria-label={table}
      onKeyDown={(e) => {
        if (e.key === "F5" && !e.ctrlKey && !e.metaKey && edits.changed === 0) void reload();
      }}
    >
      {transfer?.kind === "export" && state.status === "ready" && (
        <ExportDialog
          connectionId={connection.id}
          table={table}
          filters={query.filters.map(toApiFilter)}
          sort={query.sort}
          hasVectors={state.info.columns.some(isVector)}
          keyColumns={state.info.primaryKey}
          onClose={() => setTransfer(null)}
        />
      )}
      {transfer?.kind === "import" && (
        <ImportDialog connectionId={connection.id} table={table} source={transfer.source} onClose={() => setTransfer(null)} onWritten={reread} />
      )}
      <header className="panel__head">
        <span className="table-icon" aria-hidden="true">
          <Icon icon={Table2} size={16} />
        </span>
        <div className="panel__titles">
          <h2 className="panel__title">{table}</h2>
          <p className="panel__subtitle">
            {connection.name}
            {count !== undefined && count !== null && <> · {formatCount(count)} rows</>}
            {state.status === "ready" && state.info.description && <> · {state.info.description}</>}
          </p>
        </div>
        <span className="panel__spacer" />
        {onSearch && (
          <button
            type="button"
            className="btn btn--small"
            disabled={state.status !== "ready"}
            title="Search this table by keywords, hybrid, a vector or a row, narrowed by the filters below"
            onClick={() => onSearch(query.filters.map(toApiFilter))}
          >
            <Icon icon={Search} /> Search…
          </button>
        )}
        {onMap && (
          <button
            type="button"
            className="btn btn--small"
            disabled={state.status !== "ready"}
            title="See the rows' vectors on a map: clusters, outliers, a lasso to open rows"
            onClick={() => onMap(query.filters.map(toApiFilter))}
          >
            <Icon icon={MapIcon} /> Map
          </button>
        )}
        <button
          type="button"
          className="btn btn--small"
          aria-pressed={details !== null}
          disabled={state.status !== "ready"}
          title="The collection's definition in words: vectors, indexes, properties, replication, shards"
          onClick={() => setDetails((d) => (d ? null : { highlight: null }))}
        >
          <Icon icon={FileText} /> Details
        </button>
        <button
          type="button"
          className="btn btn--small"
          disabled={edits.changed > 0 || state.status === "loading"}
          title={edits.changed > 0 ? "Commit or discard the pending changes first" : "Read the columns, the rows and the count again (F5)"}
          onClick={() => {
            void reload();
            onRowsChanged?.();
          }}
        >
          <Icon icon={RefreshCw} /> Refresh
        </button>
      </header>
      {state.status === "loading" && (
        <div className="panel-state" role="status" aria-live="polite">
          <span className="spinner" aria-hidden="true" /> Loading {table}…
        </div>
      )}
      {state.status === "error" && (
        <ErrorState title={<>Could not load {table}</>} error={state.error} onRetry={() => void reload()} />
      )}
      {state.status === "ready" && details && (
        <CollectionDetails connectionId={connection.id} table={table} info={state.info} highlight={details.highlight} onClose={() => setDetails(null)} />
      )}
      {state.status === "ready" && (
        <div className="table-view" hidden={details !== null}>
          {definitionChanged === "changed" && (
            <div className="notice-line" role="status">
              The collection&apos;s definition changed outside this tab (its columns or settings).
              <button type="button" className="btn btn--small" disabled={edits.changed > 0} onClick={() => void reload()}>
                Refresh
              </button>
            </div>
          )}
          {definitionChanged === "dropped" && (
            <div className="notice-line" role="alert">
              {table} no longer exists on the server: it was dropped outside this tab. The rows shown are what it held.
            </div>
          )}
          <ColumnChips columns={state.info.columns} />
          {primaryKey.length === 0 && (
            <p className="notice-line" role="note">
              {table} has no primary key: its rows can be read and added, but not changed, deleted or searched near (Find similar) one by one.
            </p>
          )}
          <FilterBar
            columns={state.info.columns}
            filters={query.filters}
            refused={state.grid.refused}
            editing={editing}
            onEdit={setEditing}
            onChange={(f) => void setFilters(f)}
            settingLink={seeTheSetting(state.info.details, (highlight) => setDetails({ highlight }))}
          />
          <div className="grid-bar">
            <span className="grid-bar__range" aria-live="polite">
              {state.grid.refused ? "No rows: a filter cannot run" : rowRange(state.grid.offset, state.grid.rows.length, total, counted.status === "ready" && counted.estimated)}
              {counted.status === "loading" && !state.grid.refused && query.filters.length > 0 && " · counting…"}
              {counted.status === "error" && <> · count failed: {counted.error.message}</>}
              {state.paging && " · loading…"}
            </span>
            {state.reading && (
              <button type="button" className="btn btn--small" onClick={stop} title="Stop reading more rows; the rows read so far stay">
                Stop
              </button>
            )}
            <button type="button" className="btn btn--small" disabled={edits.commit.status === "committing"} onClick={() => edits.addRow()} title="Add a row (written on Commit)">
              + Add row
            </button>
            <button
              type="button"
              className="btn btn--small"
              disabled={deleteTargets.length === 0 || edits.commit.status === "committing" || !!cannotDelete}
              onClick={() => edits.remove(deleteTargets)}
              title={cannotDelete || "Mark the selected rows for deletion (Ctrl+Delete); Commit asks before deleting"}
            >
              Delete {deleteTargets.length > 1 ? `${deleteTargets.length} rows` : "row"}
            </button>
            <button type="button" className="btn btn--small" aria-pressed={detail} onClick={() => setDetail((d) => !d)} title="Show every field of the active row">
              Row details
            </button>
            <button type="button" className="btn btn--small" onClick={() => setTransfer({ kind: "export" })} title="Write every row (or the filtered rows) to a CSV, JSON Lines or Parquet file">
              Export…
            </button>
            <button type="button" className="btn btn--small" onClick={() => void chooseImportFile(api).then((source) => source && setTransfer({ kind: "import", source }))} title="Add rows from a CSV, JSON Lines or Parquet file">
              Import…
            </button>
            {state.info.settings.namedVectors.length > 0 && (
              <label className="grid-bar__size">
                Vector{" "}
                <select
                  className="input input--small"
                  value={picked || state.info.settings.namedVectors[0]}
                  onChange={(e) => setPicked(e.target.value)}
                  title="The named vector the vector column shows"
                >
                  {state.info.settings.namedVectors.map((n) => (
                    <option key={n}>{n}</option>
                  ))}
                </select>
              </label>
            )}
            <span className="grid-bar__pager">
              <label className="grid-bar__size">
                Rows per page{" "}
                <select
                  className="input input--small"
                  title={`All reads every row the database pages through (it stops at ${all.toLocaleString("en-US")}), in blocks`}
                  value={query.pageSize}
                  onChange={(e) => void setPageSize(Number(e.target.value))}
                >
                  {sizes.map((n) => (
                    <option key={n} value={n}>
                      {n === all ? "All" : n}
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
            </span>
          </div>
          {state.pageError && (
            <p className="grid-notice grid-notice--error" role="alert">
              {state.pageError.message}
            </p>
          )}
          <div className={detail ? "table-body table-body--detail" : "table-body"}>
            <DataGrid
              grid={state.grid}
              table={table}
              sort={query.sort}
              onSort={(s) => void setSort(s)}
              onFilter={(column) => setEditing({ index: -1, column })}
              empty={state.grid.refused ? "No rows: the filter above cannot run, so nothing is shown (never the whole table)." : query.filters.length > 0 ? "No rows match the filters" : "No rows"}
              edit={{
                pending: edits.pending,
                primaryKey,
                onEdit: edits.edit,
                onDelete: edits.remove,
                onUndo: edits.undo,
                onCommit: () => void edits.run(),
                onAdd: () => void edits.addRow(),
                busy: edits.commit.status === "committing",
              }}
              widths={widths}
              onResize={setWidth}
              onActiveRow={setActiveRow}
              onSelectRows={setSelectedRows}
              autoFocus
              loadVectors={loadVectors}
              vectorName={state.info.settings.namedVectors.length > 0 ? picked || state.info.settings.namedVectors[0] : undefined}
            />
            {detail &&
              (activeRow ? (
                <RowDetail
                  columns={state.grid.columns}
                  cells={activeRow.cells}
                  label={activeRow.isNew ? "new row" : activeKey ? keyText(activeKey, primaryKey) : "row"}
                  namedVectors={state.info.settings.namedVectors}
                  loadVector={activeKey ? async () => (await loadVectors([activeKey]))[0] ?? null : undefined}
                  onFindSimilar={onFindSimilar && activeKey ? (target) => onFindSimilar(activeKey, primaryKey, target) : undefined}
                  similarBlocked={onFindSimilar && !activeRow.isNew ? unnamedRow(activeRow, primaryKey) || undefined : undefined}
                  onClose={() => setDetail(false)}
                />
              ) : (
                <aside className="row-detail row-detail--empty" aria-label="Row details">
                  <p>Select a row to see all of its fields.</p>
                </aside>
              ))}
          </div>
          {/* Below the grid: appearing with the first edit, it must not move the rows under the pointer. */}
          <PendingBar
            changed={changed}
            bad={edits.bad}
            canUndo={edits.pending.undo.length > 0}
            commit={edits.commit}
            onCommit={() => void edits.run()}
            onDiscard={edits.discard}
            onUndo={edits.undo}
            onDismiss={edits.dismiss}
            failures={edits.pending.rowErrors}
            nameOf={(ref) => (isNewRow(ref) ? "new row" : keyText(keyOfRef(edits.pending, ref) ?? {}, primaryKey) || ref)}
          />
          {state.grid.notice && (
            <p id={`${table}-notice`} className="grid-notice grid-notice--stop" role="note">
              {state.grid.notice}
            </p>
          )}
        </div>
      )}
    </section>
  );
}

function totalOf(c: CountState, fallback: number | null | undefined): number | null | undefined {
  if (c.status === "ready") return c.count;
  return fallback;
}
