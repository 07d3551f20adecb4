import { useCallback, useEffect, useState } from "react";
import { ApiError, parseApiError, useApi, type Connection, type Grid } from "../../api";
import { RowDetail } from "../grid/RowDetail";
import { ErrorState } from "../frame/ErrorLine";

interface Props {
  connection: Connection;
  table: string;
  /** The table's key column (uuid). */
  primaryKey: string;
  uuid: string;
  /** The table's named vectors ([] for a single vector): Find similar chooses among them. */
  namedVectors: string[];
  onOpenRows: (uuids: string[]) => void;
  onFindSimilar?: (uuid: string, targetVector: string) => void;
  onClose: () => void;
}

type State = { status: "loading" } | { status: "error"; error: ApiError } | { status: "ready"; grid: Grid };

/**
 * MapRow is the row of the point clicked on the map, read whole from the table (a page of
 * the table filtered to its uuid: the map's points carry only short scalar cells), shown as
 * the grid's row detail: every field at full length, the vector, Copy as JSON, Find similar;
 * and Open the row as a grid tab, where it can be edited.
 */
export function MapRow({ connection, table, primaryKey, uuid, namedVectors, onOpenRows, onFindSimilar, onClose }: Props) {
  const api = useApi();
  const [state, setState] = useState<State>({ status: "loading" });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let live = true;
    setState({ status: "loading" });
    api.explorer
      .browse(connection.id, table, { offset: 0, limit: 1, filters: [{ column: primaryKey, operator: "equals", value: uuid, value2: "" }], sort: [] })
      .then(
        (grid) => {
          if (!live) return;
          if (grid.refused) setState({ status: "error", error: new ApiError("refused_filter", grid.refused.message || grid.refused.reason) });
          else if (grid.rows.length === 0) setState({ status: "error", error: new ApiError("not_found", `The row ${uuid} is no longer in ${table}.`) });
          else setState({ status: "ready", grid });
        },
        (e) => live && setState({ status: "error", error: parseApiError(e) }),
      );
    return () => {
      live = false;
    };
  }, [api, connection.id, table, primaryKey, uuid, attempt]);

  const loadVector = useCallback(async () => (await api.explorer.vectors(connection.id, table, [uuid]))[uuid] ?? null, [api, connection.id, table, uuid]);

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
    <div className="map-row map-point" role="group" aria-label={`Row ${uuid}`}>
      <RowDetail
        columns={state.grid.columns}
        cells={state.grid.rows[0]}
        label={uuid}
        namedVectors={namedVectors}
        loadVector={loadVector}
        onFindSimilar={onFindSimilar ? (target) => onFindSimilar(uuid, target) : undefined}
        onClose={onClose}
      />
      <button type="button" className="btn btn--small" onClick={() => onOpenRows([uuid])}>
        Open the row
      </button>
    </div>
  );
}
