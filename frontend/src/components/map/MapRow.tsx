import { useCallback, useEffect, useState } from "react";
import { ApiError, parseApiError, useApi, type Connection, type Grid, type RowKey } from "../../api";
import { keyFilters, keyText } from "../../api/rowKey";
import { RowDetail } from "../grid/RowDetail";
import { ErrorState } from "../frame/ErrorLine";
import "./map.css";

interface Props {
  connection: Connection;
  table: string;
  /** The point's row, by its key over the table's key columns. */
  row: RowKey;
  keyColumns: string[];
  /** The table's named vectors ([] for a single vector): Find similar chooses among them. */
  namedVectors: string[];
  onOpenRows: (keys: RowKey[], keyColumns: string[]) => void;
  onFindSimilar?: (key: RowKey, keyColumns: string[], targetVector: string) => void;
  onClose: () => void;
}

type State = { status: "loading" } | { status: "error"; error: ApiError } | { status: "ready"; grid: Grid };

/**
 * MapRow is the row of the point clicked on the map, read whole from the table (a page of
 * the table filtered to its key: the map's points carry only short scalar cells), shown as
 * the grid's row detail: every field at full length, the vector, Copy as JSON, Find similar;
 * and Open the row as a grid tab, where it can be edited.
 */
export function MapRow({ connection, table, row, keyColumns, namedVectors, onOpenRows, onFindSimilar, onClose }: Props) {
  const api = useApi();
  const [state, setState] = useState<State>({ status: "loading" });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let live = true;
    setState({ status: "loading" });
    api.explorer
      .browse(connection.id, table, { offset: 0, limit: 1, filters: keyFilters(row, keyColumns), sort: [] })
      .then(
        (grid) => {
          if (!live) return;
          if (grid.refused) setState({ status: "error", error: new ApiError("refused_filter", grid.refused.message || grid.refused.reason) });
          else if (grid.rows.length === 0) setState({ status: "error", error: new ApiError("not_found", `The row ${keyText(row, keyColumns)} is no longer in ${table}.`) });
          else setState({ status: "ready", grid });
        },
        (e) => live && setState({ status: "error", error: parseApiError(e) }),
      );
    return () => {
      live = false;
    };
  }, [api, connection.id, table, row, keyColumns, attempt]);

  const loadVector = useCallback(async () => (await api.explorer.vectors(connection.id, table, [row]))[0] ?? null, [api, connection.id, table, row]);
  const named = keyText(row, keyColumns);

  if (state.status === "loading")
    return (
      <div className="map-row panel-state" role="status" aria-live="polite">
        <span className="spinner" aria-hidden="true" /> Reading the row…
      </div>
    );
  if (state.status === "error")
    return (
      <div className="map-row">
        <ErrorState title="Could not read the row" error={state.error} onRetry={() => setAttempt((a) => a + 1)} />
      </div>
    );
  return (
    <div className="map-row map-point" role="group" aria-label={`Row ${named}`}>
      <RowDetail
        columns={state.grid.columns}
        cells={state.grid.rows[0]}
        label={named}
        namedVectors={namedVectors}
        loadVector={loadVector}
        onFindSimilar={onFindSimilar ? (target) => onFindSimilar(row, keyColumns, target) : undefined}
        onClose={onClose}
      />
      <button type="button" className="btn btn--small" onClick={() => onOpenRows([row], keyColumns)}>
        Open the row
      </button>
    </div>
  );
}
