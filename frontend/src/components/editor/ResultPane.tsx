import { useState } from "react";
import type { ApiError, Grid, ResultSet, RunResult } from "../../api";
import { DataGrid } from "../grid/DataGrid";
import { ExportDialog } from "../grid/ExportDialog";
import { JsonView } from "./JsonView";
import "./editor.css";

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
      const meta = `${r.status ? `HTTP ${r.status} · ` : ""}${rowsOf(r)}${r.tag ? `${r.tag} · ` : ""}${r.elapsedMs} ms`;
      const count = r.before.length + 1;
      return (
        <div className="editor-result" aria-label="Result">
          {r.before.map((set, i) => (
            <section key={i} className="editor-result__set" aria-label={`Statement ${i + 1} of ${count}`}>
              <p className="editor-result__meta">
                Statement {i + 1} of {count} · {rowsOf(set)}
                {set.tag}
              </p>
              {set.notice && <p className="grid-notice editor-result__notice">{set.notice}</p>}
              <SetBody set={set} table="" />
            </section>
          ))}
          <p className="editor-result__meta">
            {count > 1 && `Statement ${count} of ${count} · `}
            {meta}
            {r.kind === "grid" && r.grid && <ResultExport grid={r.grid} name={r.table ? `${r.table} result` : "result"} />}
          </p>
          {r.notice && (
            <p className="grid-notice editor-result__notice" role="status">
              {r.notice}
            </p>
          )}
          <SetBody set={r} table={r.table} />
        </div>
      );
    }
  }
}

/** Answer is what a statement's answer and the run's last one share. */
type Answer = Pick<ResultSet, "grid" | "json" | "text"> & { kind: RunResult["kind"] };

/** rowsOf is a grid's "3 rows · " ("" for other answers). */
function rowsOf(set: Answer): string {
  if (set.kind !== "grid" || !set.grid) return "";
  const n = set.grid.rows.length;
  return `${n} ${n === 1 ? "row" : "rows"} · `;
}

/** SetBody is one statement's answer: its rows as a grid, a plan as text, or collapsible JSON. */
function SetBody({ set, table }: { set: Answer; table: string }) {
  if (set.kind === "grid" && set.grid) return <DataGrid grid={set.grid} table={table} />;
  if (set.kind === "text")
    return (
      <pre className="editor-result__text" aria-label="Plan">
        {set.text}
      </pre>
    );
  return <JsonView text={set.json} />;
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
