import { useCallback, useEffect, useState } from "react";
import { parseApiError, useApi, type ApiError, type Connection, type Grid, type RowKey, type SimilarResult } from "../../api";
import { gridKeys, keyText } from "../../api/rowKey";
import { DataGrid } from "../grid/DataGrid";
import { Icon, Sparkles } from "../icons";
import { ExportDialog } from "../grid/ExportDialog";
import type { MapHighlight } from "./useWorkspace";
import { ErrorState } from "../frame/ErrorLine";

interface Props {
  connection: Connection;
  table: string;
  /** The row searched near, by its key over the table's key columns. */
  row: RowKey;
  keyColumns: string[];
  targetVector: string;
  /** onShowOnMap shows the matches selected on the table's map. */
  onShowOnMap?: (h: MapHighlight) => void;
}

type State = { status: "loading" } | { status: "error"; error: ApiError } | { status: "ready"; result: SimilarResult };

/** distanceFirst moves the distance column next to the first one (the key, where the driver puts it), where a ranking is read. */
export function distanceFirst(g: Grid): Grid {
  const d = g.columns.findIndex((c) => c.name === "distance");
  if (d <= 1) return g;
  const order = [0, d, ...g.columns.map((_, j) => j).filter((j) => j !== 0 && j !== d)];
  return { ...g, columns: order.map((j) => g.columns[j]), rows: g.rows.map((r) => order.map((j) => r[j] ?? null)) };
}

/** SimilarPanel shows Find similar's matches: the rows nearest one row's vector, best first, with distance. */
export function SimilarPanel({ connection, table, row, keyColumns, targetVector, onShowOnMap }: Props) {
  const api = useApi();
  const [state, setState] = useState<State>({ status: "loading" });
  const [exporting, setExporting] = useState(false);
  const load = useCallback(async () => {
    setState({ status: "loading" });
    try {
      const result = await api.explorer.findSimilar(connection.id, table, row, targetVector, 0);
      setState({ status: "ready", result: { ...result, grid: distanceFirst(result.grid) } });
    } catch (reason) {
      setState({ status: "error", error: parseApiError(reason) });
    }
  }, [api, connection.id, table, row, targetVector]);
  useEffect(() => {
    void load();
  }, [load]);
  const named = keyText(row, keyColumns);
  return (
    <section className="panel panel--table panel--similar" aria-label={`Similar to ${named}`}>
      <header className="panel__head">
        <span className="table-icon" aria-hidden="true">
          <Icon icon={Sparkles} size={16} />
        </span>
        <div className="panel__titles">
          <h2 className="panel__title">Similar in {table}</h2>
          <p className="panel__subtitle">
            {connection.name} · nearest to {named}
            {state.status === "ready" && (
              <>
                {" "}
                · {state.result.targetVector ? `vector ${state.result.targetVector}, ` : ""}
                {state.result.dimensions.toLocaleString("en-US")} dimensions · best first by distance
              </>
            )}
          </p>
        </div>
      </header>
      {state.status === "loading" && (
        <div className="panel-state" role="status" aria-live="polite">
          <span className="spinner" aria-hidden="true" /> Searching…
        </div>
      )}
      {state.status === "error" && (
        <ErrorState title="Could not find similar rows" error={state.error} onRetry={() => void load()} />
      )}
      {state.status === "ready" && (
        <>
          <div className="grid-bar">
            <button type="button" className="btn btn--small" onClick={() => setExporting(true)} title="Write these matches to a CSV, JSON Lines or Parquet file">
              Export…
            </button>
            {onShowOnMap && (
              <button
                type="button"
                className="btn btn--small"
                onClick={() =>
                  // the map draws the vector searched (the result names it: "" for the table's own or only one)
                  onShowOnMap({ keys: gridKeys(state.result.grid, keyColumns), label: `similar to ${named}`, vector: state.result.targetVector })
                }
                title="Show these matches selected on the table's map"
              >
                Show on the map
              </button>
            )}
          </div>
          {exporting && <ExportDialog grid={state.result.grid} table={`${table} similar`} onClose={() => setExporting(false)} />}
          <DataGrid grid={state.result.grid} table={`${table} (similar)`} empty="No similar rows" />
        </>
      )}
    </section>
  );
}
