import { useState } from "react";
import type { ApiError, Grid, RunResult } from "../../api";
import { DataGrid } from "../grid/DataGrid";
import { ExportDialog } from "../grid/ExportDialog";
import { JsonView } from "./JsonView";

/** A run of the editor: none yet, running, answered, or failed (the statement's text kept for each). */
export type Outcome =
  | { status: "idle" }
  | { status: "running"; text: string }
  | { status: "done"; text: string; result: RunResult }
  | { status: "error"; text: string; error: ApiError };

/** ResultPane shows the last run: a grid, JSON, not run, or the error inline. */
export function ResultPane({ outcome }: { outcome: Outcome }) {
  switch (outcome.status) {
    case "idle":
      return <div className="editor-result editor-result--empty">Run a statement with Ctrl+Enter (⌘↩ on macOS).</div>;
    case "running":
      return (
        <div className="editor-result" role="status">
          <span className="spinner" aria-hidden="true" /> Running…
        </div>
      );
    case "error":
      return (
        <div className="editor-result">
          <p className="grid-notice grid-notice--error editor-error" role="alert">
            {outcome.error.code === "cancelled" ? "Cancelled: " : ""}
            {outcome.error.message}
          </p>
        </div>
      );
    case "done": {
      const r = outcome.result;
      if (r.kind === "not_run")
        return (
          <div className="editor-result">
            <p className="grid-notice" role="status">
              {r.message}
            </p>
          </div>
        );
      const meta = `${r.status ? `HTTP ${r.status} · ` : ""}${r.kind === "grid" && r.grid ? `${r.grid.rows.length} ${r.grid.rows.length === 1 ? "row" : "rows"} · ` : ""}${r.elapsedMs} ms`;
      return (
        <div className="editor-result" aria-label="Result">
          <p className="editor-result__meta">
            {meta}
            {r.kind === "grid" && r.grid && <ResultExport grid={r.grid} name={r.table ? `${r.table} result` : "result"} />}
          </p>
          {r.notice && (
            <p className="grid-notice editor-result__notice" role="status">
              {r.notice}
            </p>
          )}
          {r.kind === "grid" && r.grid ? (
            <DataGrid grid={r.grid} table={r.table} />
          ) : r.kind === "text" ? (
            <pre className="editor-result__text" aria-label="Plan">
              {r.text}
            </pre>
          ) : (
            <JsonView text={r.json} />
          )}
        </div>
      );
    }
  }
}

/** ResultExport is the result's Export…: the rows shown, to a CSV, JSON Lines or Parquet file. */
function ResultExport({ grid, name }: { grid: Grid; name: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="btn btn--small editor-result__export" onClick={() => setOpen(true)} title="Write the rows shown to a CSV, JSON Lines or Parquet file">
        Export…
      </button>
      {open && <ExportDialog grid={grid} table={name} onClose={() => setOpen(false)} />}
    </>
  );
}
