import { useState } from "react";
import { useApi, type ExportResult, type Filter, type Grid, type Sort, type TransferFormat } from "../../api";
import { Modal } from "../frame/Modal";
import { formatCount } from "../opened/format";
import { newTransferId, RunningTransfer } from "./TransferProgress";
import { ErrorLine } from "../frame/ErrorLine";
import "./grid.css";

const FORMATS: { value: TransferFormat; label: string; hint: string }[] = [
  { value: "csv", label: "CSV", hint: "a spreadsheet; lists and vectors as JSON text, null as an empty field" },
  { value: "jsonl", label: "JSON Lines", hint: "one JSON object a row; types kept" },
  { value: "parquet", label: "Parquet", hint: "typed columns, compressed; for pandas, DuckDB, Spark" },
];

type Props = {
  onClose: () => void;
} & (
  | {
      connectionId: string;
      table: string;
      filters: Filter[];
      sort: Sort[];
      /** hasVectors: the table has a vector (or named vectors) to include. */
      hasVectors: boolean;
      /** The table's key columns: without a sort the driver's cursor walks the rows in their order. */
      keyColumns: string[];
      grid?: undefined;
    }
  | {
      /** grid is a result the window holds (an editor result, Find similar's matches), exported as it shows. */
      grid: Grid;
      /** table names it (the dialog's title and the file's default name). */
      table: string;
      connectionId?: undefined;
      filters?: undefined;
      sort?: undefined;
      hasVectors?: undefined;
      keyColumns?: undefined;
    }
);

type State =
  | { step: "choose" }
  | { step: "running"; id: string }
  | { step: "done"; result: ExportResult }
  | { step: "error"; message: string };

/**
 * ExportDialog exports the open table: every row past the paging limit (the driver's cursor),
 * or the rows the grid's filters select, in the grid's order when sorted. Export… asks where
 * with the native save dialog; the bar shows rows, rows a second and time left, and Cancel
 * stops it with no file left.
 */
export function ExportDialog(props: Props) {
  const { table, onClose } = props;
  const filters = props.filters ?? [];
  const sort = props.sort ?? [];
  const hasVectors = props.hasVectors ?? false;
  const keyColumns = props.keyColumns ?? [];
  const api = useApi();
  const [format, setFormat] = useState<TransferFormat>("csv");
  const [filtered, setFiltered] = useState(filters.length > 0);
  const [sorted, setSorted] = useState(false);
  const [vectors, setVectors] = useState(false);
  const [state, setState] = useState<State>({ step: "choose" });

  const run = async () => {
    const id = newTransferId();
    setState({ step: "running", id });
    try {
      const result =
        props.grid !== undefined
          ? await api.explorer.exportGrid(table, format, props.grid)
          : await api.explorer.exportTable(id, props.connectionId, table, {
              format,
              filters: filtered ? filters : [],
              sort: sorted ? sort : [],
              vectors,
            });
      setState(result.status === "not_chosen" ? { step: "choose" } : { step: "done", result });
    } catch (e) {
      setState({ step: "error", message: e instanceof Error ? e.message : String(e) });
    }
  };

  return (
    <Modal title={`Export ${table}`} onClose={onClose} locked={state.step === "running"}>
      <div className="transfer">
        {(state.step === "choose" || state.step === "error") && (
          <>
            <fieldset className="field">
              <legend>Format</legend>
              {FORMATS.map((f, i) => (
                <label key={f.value} className="transfer__choice">
                  <input type="radio" name="format" value={f.value} checked={format === f.value} onChange={() => setFormat(f.value)} data-autofocus={i === 0 ? "" : undefined} />
                  <span>
                    {f.label} <span className="transfer__hint">{f.hint}</span>
                  </span>
                </label>
              ))}
            </fieldset>
            {props.grid !== undefined ? (
              <p className="transfer__hint">
                The {formatCount(props.grid.rows.length)} rows shown, as they show{props.grid.hasMore ? " (the result was cut: re-run with a higher limit, or export the table)" : ""}.
              </p>
            ) : (
            <fieldset className="field">
              <legend>Rows</legend>
              {filters.length > 0 && (
                <label className="transfer__choice">
                  <input type="checkbox" checked={filtered} onChange={(e) => setFiltered(e.target.checked)} />
                  <span>Only the rows the filters select ({filters.length})</span>
                </label>
              )}
              {sort.length > 0 && (
                <label className="transfer__choice">
                  <input type="checkbox" checked={sorted} onChange={(e) => setSorted(e.target.checked)} />
                  <span>
                    In the grid's order <span className="transfer__hint">the database sorts only its first 10,000 rows</span>
                  </span>
                </label>
              )}
              {hasVectors && (
                <label className="transfer__choice">
                  <input type="checkbox" checked={vectors} onChange={(e) => setVectors(e.target.checked)} />
                  <span>Include the vectors</span>
                </label>
              )}
              {filters.length === 0 && sort.length === 0 && !hasVectors && (
                <p className="transfer__hint">{keyColumns.length > 0 ? `Every row, in ${keyColumns.join(", ")} order.` : "Every row."}</p>
              )}
            </fieldset>
            )}
            {state.step === "error" && (
              <ErrorLine>{state.message}</ErrorLine>
            )}
            <div className="transfer__actions">
              <button type="button" className="btn btn--primary" onClick={() => void run()}>
                Export…
              </button>
            </div>
          </>
        )}
        {state.step === "running" && <RunningTransfer label="Exported" id={state.id} />}
        {state.step === "done" && (
          <p className={state.result.status === "done" ? "form-msg form-msg--ok" : "form-msg"} role="status" aria-label="Export">
            {state.result.status === "done"
              ? `Exported ${formatCount(state.result.rows)} rows to ${state.result.path}`
              : "Export cancelled: no file was written."}
          </p>
        )}
      </div>
    </Modal>
  );
}
