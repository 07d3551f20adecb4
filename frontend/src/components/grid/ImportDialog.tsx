import { useEffect, useState } from "react";
import { useApi, type Api, type ImportPreview, type ImportResult } from "../../api";
import { Modal } from "../frame/Modal";
import { formatCount } from "../opened/format";
import { newTransferId, RunningTransfer } from "./TransferProgress";
import { ErrorLine } from "../frame/ErrorLine";
import "./grid.css";

/**
 * ImportSource is what the native open dialog gave: the file, or why it could not be asked.
 * The file is chosen in the click that opens this dialog (chooseImportFile), never in an
 * effect: React runs a new component's effects twice in development, which opened the
 * native dialog twice and previewed the second, unanswered one.
 */
export type ImportSource = { path: string } | { error: string };

/** chooseImportFile asks natively for the file to import; null when the dialog was closed. */
export async function chooseImportFile(api: Api): Promise<ImportSource | null> {
  try {
    const path = await api.explorer.chooseImportFile();
    return path ? { path } : null;
  } catch (e) {
    return { error: e instanceof Error ? e.message : String(e) };
  }
}

interface Props {
  connectionId: string;
  table: string;
  source: ImportSource;
  onClose: () => void;
  /** onWritten is told after an import wrote rows, so the grid and the sidebar's count follow. */
  onWritten?: () => void;
}

type State =
  | { step: "reading" }
  | { step: "preview"; preview: ImportPreview }
  | { step: "running"; id: string; preview: ImportPreview }
  | { step: "done"; result: ImportResult }
  | { step: "error"; message: string };

const SKIP = "-";

/**
 * ImportDialog imports a CSV, JSON Lines or Parquet file into the open table: the native open
 * dialog chooses it, the first rows show with each column's destination (a table column, or
 * skipped) and the cells the table's types refuse marked, before anything is written. Import
 * writes in batches with a bar and Cancel; the summary says how many rows were written,
 * skipped and failed, each rejected line with its reason, and where the report is.
 */
export function ImportDialog({ connectionId, table, source, onClose, onWritten }: Props) {
  const api = useApi();
  const [state, setState] = useState<State>({ step: "reading" });
  const [targets, setTargets] = useState<string[]>([]);

  useEffect(() => {
    if ("error" in source) {
      setState({ step: "error", message: source.error });
      return;
    }
    let live = true;
    setState({ step: "reading" });
    api.explorer.previewImport(connectionId, table, source.path).then(
      (preview) => {
        if (!live) return;
        setTargets(preview.targets.map((t) => t || SKIP));
        setState({ step: "preview", preview });
      },
      (e) => {
        if (live) setState({ step: "error", message: e instanceof Error ? e.message : String(e) });
      },
    );
    return () => {
      live = false;
    };
  }, [api, connectionId, table, source]);

  const run = async (preview: ImportPreview) => {
    const id = newTransferId();
    const mapping: Record<string, string> = {};
    preview.columns.forEach((c, i) => {
      if (targets[i] !== c) mapping[c] = targets[i];
    });
    setState({ step: "running", id, preview });
    try {
      const result = await api.explorer.importFile(id, connectionId, table, preview.path, mapping);
      if (result.status === "not_confirmed") {
        setState({ step: "preview", preview });
        return;
      }
      setState({ step: "done", result });
      if (result.written > 0 || result.unknown > 0) onWritten?.();
    } catch (e) {
      setState({ step: "error", message: e instanceof Error ? e.message : String(e) });
    }
  };

  return (
    <Modal title={`Import into ${table}`} onClose={onClose} locked={state.step === "running"} wide>
      <div className="transfer">
        {state.step === "reading" && (
          <p className="transfer__hint" role="status">
            <span className="spinner" aria-hidden="true" /> Reading the first rows of {"path" in source ? source.path : "the file"}…
          </p>
        )}
        {state.step === "error" && (
          <ErrorLine>{state.message}</ErrorLine>
        )}
        {(state.step === "preview" || state.step === "running") && (
          <Preview preview={state.preview} targets={targets} table={table} disabled={state.step === "running"} onTarget={(i, t) => setTargets((old) => old.map((o, j) => (j === i ? t : o)))} />
        )}
        {state.step === "preview" && (
          <div className="transfer__actions">
            <button type="button" className="btn btn--primary" onClick={() => void run(state.preview)} data-autofocus="">
              {state.preview.exists ? "Import" : `Create ${table} and import`}
            </button>
          </div>
        )}
        {state.step === "running" && <RunningTransfer label="Imported" id={state.id} />}
        {state.step === "done" && <Summary result={state.result} table={table} />}
      </div>
    </Modal>
  );
}

function Preview({ preview, targets, table, disabled, onTarget }: { preview: ImportPreview; targets: string[]; table: string; disabled: boolean; onTarget: (i: number, t: string) => void }) {
  const options = preview.exists ? preview.tableColumns : [];
  const problems = Object.keys(preview.problems).length;
  return (
    <>
      <p className="transfer__hint">
        {preview.path} · {preview.format.toUpperCase()} · the first {preview.rows.length} rows
        {!preview.exists && ` · ${table} does not exist: it will be created from these columns, after you confirm`}
      </p>
      <div className="transfer__preview">
        <table className="transfer__table" aria-label="The file's first rows">
          <thead>
            <tr>
              {preview.columns.map((c, i) => (
                <th key={c} scope="col">
                  <span className="transfer__col">{c}</span>
                  <select
                    className="input input--small"
                    aria-label={`Where ${c} goes`}
                    value={targets[i] ?? SKIP}
                    disabled={disabled}
                    onChange={(e) => onTarget(i, e.target.value)}
                  >
                    {!preview.exists && <option value={c}>{c}</option>}
                    {options.map((o) => (
                      <option key={o} value={o}>
                        {o}
                      </option>
                    ))}
                    <option value={SKIP}>Skip</option>
                  </select>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {preview.rows.map((r, i) => (
              <tr key={i}>
                {r.map((cell, j) => {
                  const bad = preview.problems[String(i)]?.[preview.columns[j]];
                  return (
                    <td key={j} className={bad ? "transfer__cell--bad" : undefined} title={bad}>
                      {cell === null ? <span className="cell-null">NULL</span> : cell.length > 80 ? `${cell.slice(0, 79)}…` : cell}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {(problems > 0 || preview.broken.length > 0) && (
        <ErrorLine>
          {problems > 0 && `${problems} of these rows have a cell the table's types refuse (marked; hover for why): they will be skipped and reported. `}
          {preview.broken.map((b) => `Line ${b.line}: ${b.reason}. `)}
        </ErrorLine>
      )}
    </>
  );
}

function Summary({ result, table }: { result: ImportResult; table: string }) {
  return (
    <div role="status" aria-label="Import">
      <p className={result.status === "done" && result.skipped + result.failed + result.unknown === 0 ? "form-msg form-msg--ok" : "form-msg"}>
        {result.created && `Created ${table}. `}
        {`${formatCount(result.written)} written, ${formatCount(result.skipped)} skipped, ${formatCount(result.failed)} failed`}
        {result.unknown > 0 && `, ${formatCount(result.unknown)} may or may not be written`}
        {result.status === "stopped" && ` · stopped: ${result.message}`}
      </p>
      {result.rejected.length > 0 && (
        <ul className="transfer__rejected" aria-label="Rejected rows">
          {result.rejected.slice(0, 20).map((r) => (
            <li key={`${r.line}-${r.key}`}>
              Line {r.line}: {r.reason}
            </li>
          ))}
        </ul>
      )}
      {result.report && <p className="transfer__hint">Every rejected row is listed in {result.report}</p>}
    </div>
  );
}
