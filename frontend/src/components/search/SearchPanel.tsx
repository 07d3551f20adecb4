import { useCallback, useEffect, useRef, useState } from "react";
import { parseApiError, useApi, type ApiError, type Connection, type Filter, type RowKey, type SearchRequest, type SearchResult, type TableInfo } from "../../api";
import { gridKeys, keysFilters } from "../../api/rowKey";
import { DataGrid } from "../grid/DataGrid";
import { ExportDialog } from "../grid/ExportDialog";
import { FilterBar, type EditorTarget } from "../grid/FilterBar";
import { Icon, Search } from "../icons";
import type { MapHighlight } from "../workspace/useWorkspace";
import { choiceOf, choicesFor, choose, initialSearch, measureFirst, modeOf, notReady, paramWords, toSend, usesVector } from "./searchModel";
import { ErrorState } from "../frame/ErrorLine";
import { CollectionDetails } from "../details/CollectionDetails";
import { seeTheSetting } from "../details/SeeTheSetting";
import { RowKeyFields } from "./RowKeyFields";
import { QueryProfileView } from "./QueryProfileView";
import "./search.css";

interface Props {
  connection: Connection;
  table: string;
  /** The grid's filters when the panel was opened: they narrow the matches. */
  filters: Filter[];
  /** The driver's plugin predates described searches by words: the panel says to update it. */
  wordsNeedUpdate?: boolean;
  /** onShowOnMap shows the matches selected on the table's map. */
  onShowOnMap?: (h: MapHighlight) => void;
}

type Load = { status: "loading" } | { status: "error"; error: ApiError } | { status: "ready"; info: TableInfo };
/** A done run keeps the request it sent: the matches are that search's, whatever the form says since. */
type Run = { status: "idle" } | { status: "running" } | { status: "error"; error: ApiError } | { status: "done"; result: SearchResult; sent: SearchRequest };

/**
 * SearchPanel is a table's search (issue 23, item 3; contract 3): by words in each mode the
 * table's driver describes, its parameters, columns and explanation drawn from the
 * description; near a pasted vector or near a row; on a chosen named vector, with a limit and
 * the grid's filters. The matches come best first by the mode's measure, with the database's
 * explanation of each score where the mode gives one.
 */
export function SearchPanel({ connection, table, filters: initialFilters, wordsNeedUpdate = false, onShowOnMap }: Props) {
  const api = useApi();
  const [load, setLoad] = useState<Load>({ status: "loading" });
  const [req, setReq] = useState<SearchRequest | null>(null);
  const [editing, setEditing] = useState<EditorTarget | null>(null);
  const [run, setRun] = useState<Run>({ status: "idle" });
  const [exporting, setExporting] = useState(false);
  // A refusal's "See the setting" opens the table's definition in words in place of the form.
  const [details, setDetails] = useState<string | null>(null);
  const firstField = useRef<HTMLSelectElement>(null);
  const seq = useRef(0);

  const describe = useCallback(async () => {
    setLoad({ status: "loading" });
    try {
      const info = await api.explorer.describeTable(connection.id, table);
      setLoad({ status: "ready", info });
      // A search kept from before keeps its words, unless its mode is gone (the plugin was
      // updated, the collection changed): then it starts again.
      setReq((r) => (r && (r.by !== "words" || modeOf(r, info)) ? r : initialSearch(info, r?.filters ?? initialFilters)));
    } catch (e) {
      setLoad({ status: "error", error: parseApiError(e) });
    }
  }, [api, connection.id, table, initialFilters]);
  useEffect(() => {
    void describe();
  }, [describe]);
  useEffect(() => {
    if (load.status === "ready") firstField.current?.focus();
  }, [load.status]);

  const search = useCallback(
    async (r: SearchRequest, info: TableInfo) => {
      if (notReady(r, info)) return;
      const mine = ++seq.current;
      setRun({ status: "running" });
      try {
        const sent = toSend(r, info);
        const result = await api.explorer.search(connection.id, table, sent);
        if (mine === seq.current) setRun({ status: "done", result: { ...result, grid: measureFirst(result.grid, result.measure) }, sent });
      } catch (e) {
        if (mine === seq.current) setRun({ status: "error", error: parseApiError(e) });
      }
    },
    [api, connection.id, table],
  );

  const set = (patch: Partial<SearchRequest>) => setReq((r) => (r ? { ...r, ...patch } : r));
  const setParam = (key: string, value: string) => setReq((r) => (r ? { ...r, params: { ...r.params, [key]: value } } : r));

  // A done run's matches on the table's map, drawn on the vector the search used (a keyword
  // search uses none, and sends none: the map's stays) and read from the search that found them, not the form as edited
  // since: among the rows of the search's filters, or alone (the map filtered to them). The map
  // finds them by their keys.
  const showMatches = (done: Extract<Run, { status: "done" }>, keys: RowKey[], primaryKey: string[], alone: boolean) => {
    onShowOnMap?.({
      keys,
      label: done.result.describe,
      filters: alone ? keysFilters(keys, primaryKey) : done.sent.filters,
      vector: done.sent.targetVector || undefined,
    });
  };

  let body;
  if (load.status === "loading" || !req) {
    body =
      load.status === "error" ? (
        <ErrorState title={<>Could not read {table}</>} error={load.error} onRetry={() => void describe()} />
      ) : (
        <div className="panel-state" role="status" aria-live="polite">
          <span className="spinner" aria-hidden="true" /> Loading {table}…
        </div>
      );
  } else if (load.status === "ready") {
    const info = load.info;
    const mode = modeOf(req, info);
    const why = notReady(req, info);
    const pk = info.primaryKey;
    // The matches the map can select: those named by a key (a table without one has none).
    const found = run.status === "done" ? gridKeys(run.result.grid, pk) : [];
    const unmapped = pk.length === 0 ? "The table has no primary key: the map cannot find its rows one by one" : "";
    body = (
      <>
        <form
          className="search-form"
          role="search"
          aria-label={`Search ${table}`}
          onSubmit={(e) => {
            e.preventDefault();
            void search(req, info);
          }}
        >
          <label className="search-form__field">
            Search by{" "}
            <select ref={firstField} className="input input--small" value={choiceOf(req)} onChange={(e) => {
                const value = e.target.value;
                setReq((r) => (r ? choose(r, value, info) : r));
              }} title={mode?.hint}>
              {choicesFor(info).map((c) => (
                <option key={c.value} value={c.value}>
                  {c.label}
                </option>
              ))}
            </select>
          </label>
          {req.by === "words" && (
            <label className="search-form__field search-form__field--wide">
              Words{" "}
              <input className="input input--small" type="search" value={req.query} onChange={(e) => set({ query: e.target.value })} placeholder="what to find" />
            </label>
          )}
          {req.by === "vector" && (
            <label className="search-form__field search-form__field--wide">
              Vector{" "}
              <textarea
                className="input input--small search-form__vector"
                rows={2}
                value={req.vector}
                onChange={(e) => set({ vector: e.target.value })}
                onKeyDown={(e) => {
                  if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
                    e.preventDefault();
                    void search(req, info);
                  }
                }}
                placeholder="[0.12, -0.5, 0.33, …]"
              />
            </label>
          )}
          {req.by === "row" &&
            (pk.length === 1 ? (
              <label className="search-form__field search-form__field--wide">
                Row {pk[0]}{" "}
                <RowKeyFields primaryKey={pk} value={req.row} onChange={(row) => set({ row })} name={() => `Row ${pk[0]}`} placeholder={() => "the key of a row"} />
              </label>
            ) : (
              // A key of several columns: one labelled input per column, all of them needed.
              <span className="search-form__field search-form__field--wide" role="group" aria-label="Row">
                Row{" "}
                <RowKeyFields primaryKey={pk} value={req.row} onChange={(row) => set({ row })} name={(c) => `Row ${c}`} placeholder={(c) => `its ${c}`} />
              </span>
            ))}
          {mode?.params.map((p) =>
            p.kind === "number" ? (
              <label key={p.key} className="search-form__field" title={p.help || undefined}>
                {p.label}{" "}
                <input
                  type="range"
                  min={p.min}
                  max={p.max}
                  step={p.step || "any"}
                  value={Number(req.params[p.key] || p.default || p.min)}
                  onChange={(e) => setParam(p.key, e.target.value)}
                  aria-valuetext={`${req.params[p.key] || p.default}: ${paramWords(p, Number(req.params[p.key] || p.default || p.min))}`}
                />
                <output className="search-form__alpha">{Number(req.params[p.key] || p.default || p.min).toFixed(2)}</output>
              </label>
            ) : p.kind === "vector" ? (
              <span key={p.key} className="search-form__field search-form__field--wide">
                <label className="search-form__field search-form__field--wide" title={p.help || undefined}>
                  {p.label}{" "}
                  <textarea
                    className="input input--small search-form__vector"
                    rows={1}
                    value={req.params[p.key] ?? ""}
                    onChange={(e) => setParam(p.key, e.target.value)}
                    placeholder="[0.12, -0.5, 0.33, …] (optional)"
                  />
                </label>
                {pk.length > 0 && (
                  <>
                    <span className="search-form__or">or the vector of row</span>
                    <RowKeyFields
                      primaryKey={pk}
                      value={req.vectorRow}
                      onChange={(vectorRow) => set({ vectorRow })}
                      name={(c) => `${p.label}: the row whose vector${c ? `, its ${c}` : ""}`}
                      placeholder={(c) => `its ${c ?? pk[0]}`}
                    />
                  </>
                )}
              </span>
            ) : (
              <label key={p.key} className="search-form__field" title={p.help || undefined}>
                {p.label}{" "}
                <select className="input input--small" value={req.params[p.key] ?? ""} onChange={(e) => setParam(p.key, e.target.value)}>
                  {["", ...p.options].map((o) => (
                    <option key={o} value={o}>
                      {p.optionLabels[o] ?? (o === "" ? "Database default" : o)}
                    </option>
                  ))}
                </select>
              </label>
            ),
          )}
          {usesVector(req, info) && info.settings.namedVectors.length > 0 && (
            <label className="search-form__field">
              Vector{" "}
              <select className="input input--small" value={req.targetVector} onChange={(e) => set({ targetVector: e.target.value })}>
                {info.settings.namedVectors.map((n) => (
                  <option key={n}>{n}</option>
                ))}
              </select>
            </label>
          )}
          <label className="search-form__field">
            Limit{" "}
            <input
              className="input input--small search-form__limit"
              type="number"
              min={1}
              max={1000}
              value={req.limit}
              onChange={(e) => set({ limit: Math.max(1, Math.min(1000, Number(e.target.value) || 25)) })}
            />
          </label>
          {mode?.explains && (
            <label className="search-form__check">
              <input type="checkbox" checked={req.explain} onChange={(e) => set({ explain: e.target.checked })} /> Explain scores
            </label>
          )}
          {info.profiles && (
            <label className="search-form__check" title="The database's own account of where the search spent its time, shard by shard">
              <input type="checkbox" checked={req.profile} onChange={(e) => set({ profile: e.target.checked })} /> Profile
            </label>
          )}
          <button type="submit" className="btn btn--small btn--primary" disabled={!!why || run.status === "running"} title={why || "Search (Enter)"}>
            <Icon icon={Search} /> Search
          </button>
          {mode?.columns && mode.textColumns.length > 0 && (
            <fieldset className="search-form__props">
              <legend>Search in</legend>
              {mode.textColumns.map((name) => (
                <label key={name} className="search-form__check">
                  <input
                    type="checkbox"
                    checked={req.searchColumns.includes(name)}
                    onChange={(e) =>
                      set({ searchColumns: e.target.checked ? [...req.searchColumns, name] : req.searchColumns.filter((p) => p !== name) })
                    }
                  />{" "}
                  {name}
                </label>
              ))}
              <span className="search-form__hint">{req.searchColumns.length === 0 ? "none ticked: every searchable column" : ""}</span>
            </fieldset>
          )}
          {wordsNeedUpdate && info.searches.length === 0 && (
            <p className="search-form__hint" role="note">
              This version of the driver plugin cannot search by words: update it in Settings, Plugins.
            </p>
          )}
          {mode?.note && (
            <p className="search-form__hint" role="note">
              {mode.note}
            </p>
          )}
        </form>
        <FilterBar
          columns={info.columns}
          filters={req.filters}
          refused={run.status === "done" ? run.result.refused : null}
          editing={editing}
          onEdit={setEditing}
          onChange={(f) => set({ filters: f })}
          settingLink={seeTheSetting(info.details, setDetails)}
        />
        {run.status === "idle" && <p className="panel__note">{why ? `${why}, then press Enter.` : "Press Enter to search."}</p>}
        {run.status === "running" && (
          <div className="panel-state" role="status" aria-live="polite">
            <span className="spinner" aria-hidden="true" /> Searching…
          </div>
        )}
        {run.status === "error" && (
          <ErrorState title="The search failed" error={run.error} />
        )}
        {run.status === "done" && (
          <>
            <div className="grid-bar">
              <span className="grid-bar__range" aria-live="polite">
                {run.result.refused ? "No matches: a filter cannot run" : `${run.result.grid.rows.length} ${run.result.grid.rows.length === 1 ? "match" : "matches"}, best first by ${run.result.measure}`} · {run.result.describe}
              </span>
              <button type="button" className="btn btn--small" disabled={run.result.grid.rows.length === 0} onClick={() => setExporting(true)} title="Write these matches to a CSV, JSON Lines or Parquet file">
                Export…
              </button>
              {onShowOnMap && (
                <>
                  <button
                    type="button"
                    className="btn btn--small"
                    disabled={found.length === 0}
                    onClick={() => showMatches(run, found, pk, false)}
                    title={unmapped || "Show these matches selected on the table's map"}
                  >
                    Show on the map
                  </button>
                  <button
                    type="button"
                    className="btn btn--small"
                    disabled={found.length === 0}
                    onClick={() => showMatches(run, found, pk, true)}
                    title={unmapped || "Lay out these matches alone on a map"}
                  >
                    Map of the matches
                  </button>
                </>
              )}
            </div>
            {exporting && <ExportDialog grid={run.result.grid} table={`${table} search`} onClose={() => setExporting(false)} />}
            {run.result.profile && <QueryProfileView profile={run.result.profile} />}
            <DataGrid grid={run.result.grid} table={`${table} (search)`} empty={run.result.refused ? "No matches: the filter above cannot run." : "No matches"} />
          </>
        )}
      </>
    );
  }

  return (
    <section className="panel panel--table panel--search" aria-label={`Search ${table}`}>
      <header className="panel__head">
        <span className="table-icon" aria-hidden="true">
          <Icon icon={Search} size={16} />
        </span>
        <div className="panel__titles">
          <h2 className="panel__title">Search {table}</h2>
          <p className="panel__subtitle">{connection.name}</p>
        </div>
      </header>
      {details !== null && load.status === "ready" ? (
        <CollectionDetails connectionId={connection.id} table={table} info={load.info} highlight={details} onClose={() => setDetails(null)} back="Back to the search" />
      ) : (
        body
      )}
    </section>
  );
}
