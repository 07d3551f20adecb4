import { useEffect, useRef, useState } from "react";
import { useApi, type Column, type RowKey } from "../../api";
import type { DisplayRow } from "./displayRows";
import { vectorSize } from "./filterModel";
import { isVector } from "./columnKinds";
import { previewDimensions } from "./vectorPreview";
import "./grid.css";

/** The full value of the cell open in the viewer, read when the cell holds a preview. */
type Full = { status: "loading" } | { status: "ready"; value: string | null } | { status: "error"; message: string };

/**
 * useCellViewer is the cell whose full value is open below the grid (↗ on a cell). The cell is
 * held by row ref: added rows and new pages move row indexes. A preview cell (a vector the page
 * did not read whole) has its full value read with loadVectors, by the row's key, when it opens.
 */
export function useCellViewer(rows: DisplayRow[], indexOf: Map<string, number>, columns: Column[], loadVectors?: (keys: RowKey[]) => Promise<(string | null)[]>) {
  const [open, setOpen] = useState<{ ref: string; col: number } | null>(null);
  const [copied, setCopied] = useState(false);
  const [full, setFull] = useState<Full>({ status: "ready", value: null });
  // The newest expand: an older read answering late must not show under another row.
  const fullReq = useRef(0);

  // The viewer closes when its row leaves the rows shown (another page, a discarded new row).
  useEffect(() => {
    if (open && !indexOf.has(open.ref)) setOpen(null);
  }, [open, indexOf]);

  const expand = (r: number, c: number) => {
    setCopied(false);
    const row = rows[r];
    if (!row) return;
    setOpen({ ref: row.ref, col: c });
    const req = ++fullReq.current;
    if (!columns[c]?.preview) return;
    const key = row.key;
    if (!loadVectors || !key) {
      setFull({ status: "error", message: "This row's vector cannot be read" });
      return;
    }
    setFull({ status: "loading" });
    loadVectors([key]).then(
      (got) => req === fullReq.current && setFull({ status: "ready", value: got[0] ?? null }),
      (reason) => req === fullReq.current && setFull({ status: "error", message: reason instanceof Error ? reason.message : String(reason) }),
    );
  };

  const openColumn = open ? columns[open.col] : undefined;
  const openRow = open ? indexOf.get(open.ref) : undefined;
  const openRowCells = openRow === undefined ? undefined : rows[openRow]?.cells;
  // A preview cell shows its full value once read; until then it says so.
  const openValue = !open || !openRowCells ? null : openColumn?.preview ? (full.status === "ready" ? full.value : null) : (openRowCells[open.col] ?? null);
  const cell = open && openRow !== undefined && openRowCells && openColumn ? { value: openValue, column: openColumn, row: openRow, preview: openRowCells[open.col] ?? "" } : null;
  const pending = openColumn?.preview === true && full.status !== "ready";

  return { isOpen: open !== null, close: () => setOpen(null), expand, cell, pending, full, copied, setCopied };
}

export type CellViewerState = ReturnType<typeof useCellViewer>;

/** CellViewer shows the open cell's full value, with Copy and Close; Escape closes it and gives the grid the keyboard back. */
export function CellViewer({ viewer, rowLabel, onDone }: { viewer: CellViewerState; rowLabel: (i: number) => string; onDone: () => void }) {
  const api = useApi();
  const { cell, pending, full, copied } = viewer;
  if (!cell) return null;
  return (
    <section
      className="cell-viewer"
      aria-label={`${cell.column.name} of row ${rowLabel(cell.row)}`}
      onKeyDown={(e) => {
        if (e.key === "Escape") {
          e.preventDefault();
          viewer.close();
          onDone();
        }
      }}
    >
      <header className="cell-viewer__head">
        <span className="cell-viewer__title">
          {cell.column.name} · row {rowLabel(cell.row)}
          {isVector(cell.column) && cell.value?.startsWith("[") && <> · {vectorSize(cell.value).toLocaleString("en-US")} values</>}
          {cell.column.type === "vectors" && cell.column.preview && cell.value !== null && <> · {previewDimensions(cell.preview)}</>}
        </span>
        <button
          type="button"
          className="btn btn--small"
          disabled={pending}
          onClick={() => {
            void api.copy(cell.value ?? "").then(() => viewer.setCopied(true));
          }}
        >
          {copied ? "Copied" : "Copy"}
        </button>
        <button type="button" className="btn btn--small" aria-label="Close the full value" onClick={viewer.close}>
          Close
        </button>
      </header>
      <pre className="cell-viewer__value" tabIndex={0}>
        {full.status === "loading" && pending ? "Reading the full value…" : full.status === "error" && pending ? `Could not read it: ${full.message}` : (cell.value ?? "null")}
      </pre>
    </section>
  );
}
