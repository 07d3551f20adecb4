import { useState } from "react";
import { useApi, type Column } from "../../api";
import { rowJSON } from "./copy";
import { isVector } from "./columnKinds";
import { previewCell, previewDimensions } from "./vectorPreview";
import type { CellText } from "./pendingModel";
import "./grid.css";

interface Props {
  columns: Column[];
  cells: CellText[];
  /** "row 12", "new row". */
  label: string;
  /** The table's named vectors ([] for a single vector). */
  namedVectors: string[];
  /** loadVector reads the row's full vector cell when its cells hold a preview. */
  loadVector?: () => Promise<string | null>;
  /** onFindSimilar searches with the row's vector (absent for a row not yet stored). */
  onFindSimilar?: (targetVector: string) => void;
  /** Why this stored row cannot be searched near (it has no key to name it by): Find similar shows, disabled, with the reason. */
  similarBlocked?: string;
  onClose: () => void;
}


/** dimensions is how many numbers a vector cell holds, per named vector for a "vectors" cell. */
export function dimensions(c: Column, v: CellText): string {
  if (v === null) return "no vector";
  if (c.preview) return previewDimensions(v);
  try {
    const parsed: unknown = JSON.parse(v);
    if (Array.isArray(parsed)) return `${parsed.length.toLocaleString("en-US")} dimensions`;
    if (parsed && typeof parsed === "object")
      return Object.entries(parsed as Record<string, unknown>)
        .map(([name, vec]) => `${name}: ${Array.isArray(vec) ? vec.length.toLocaleString("en-US") : "?"} dimensions`)
        .join(" · ");
  } catch {
    /* not JSON: say nothing wrong */
  }
  return c.type;
}

/**
 * RowDetail shows every field of one row at full length, the vector with its dimension and a
 * copy button, Copy as JSON, and Find similar (a near-vector search with the row's vector).
 */
export function RowDetail({ columns, cells, label, namedVectors, loadVector, onFindSimilar, similarBlocked, onClose }: Props) {
  const api = useApi();
  const [copied, setCopied] = useState("");
  const [target, setTarget] = useState(namedVectors[0] ?? "");
  const vectorAt = columns.findIndex(isVector);
  const preview = vectorAt >= 0 && columns[vectorAt].preview;
  /** The row's cells with the full vector in place of its preview. */
  const whole = async (): Promise<CellText[]> => {
    if (!preview || !loadVector || cells[vectorAt] === null) return cells;
    const v = await loadVector();
    return cells.map((c, j) => (j === vectorAt ? v : c));
  };
  const copy = (what: string, text: (cells: CellText[]) => string) =>
    void whole()
      .then((all) => api.copy(text(all)))
      .then(
        () => setCopied(what),
        () => setCopied(""),
      );
  const hasVector = vectorAt >= 0 && cells[vectorAt] !== null;
  return (
    <aside className="row-detail" aria-label={`Details of ${label}`}>
      <header className="row-detail__head">
        <h3 className="row-detail__title">
          Row details
          <span className="row-detail__label">{label}</span>
        </h3>
        <button type="button" className="btn btn--small" onClick={() => copy("json", (all) => rowJSON(columns, all))}>
          {copied === "json" ? "Copied" : "Copy as JSON"}
        </button>
        <button type="button" className="btn btn--small" aria-label="Close the details" onClick={onClose}>
          Close
        </button>
      </header>
      <dl className="row-detail__fields">
        {columns.map((c, j) => {
          const v = cells[j] ?? null;
          return (
            <div key={c.name} className="row-detail__field">
              <dt>
                {c.name} <span className="data-grid__type">{c.type}</span>
              </dt>
              <dd>
                {isVector(c) && (
                  <p className="row-detail__vector">
                    {dimensions(c, v)}{" "}
                    {v !== null && (
                      <button type="button" className="btn btn--small" onClick={() => copy("vector", (all) => all[j] ?? "")}>
                        {copied === "vector" ? "Copied" : "Copy vector"}
                      </button>
                    )}
                  </p>
                )}
                {v === null ? (
                  <span className="cell-null">null</span>
                ) : v === "" ? (
                  <span className="cell-empty">""</span>
                ) : c.preview ? (
                  <pre className="row-detail__value">{previewCell(v, namedVectors.length > 0 ? target : undefined)}</pre>
                ) : (
                  <pre className="row-detail__value">{v}</pre>
                )}
              </dd>
            </div>
          );
        })}
      </dl>
      {(onFindSimilar || similarBlocked) && (
        <footer className="row-detail__foot">
          {namedVectors.length > 1 && (
            <label>
              Vector{" "}
              <select className="input input--small" value={target} onChange={(e) => setTarget(e.target.value)}>
                {namedVectors.map((n) => (
                  <option key={n}>{n}</option>
                ))}
              </select>
            </label>
          )}
          <button
            type="button"
            className="btn btn--small btn--primary"
            disabled={!onFindSimilar || !hasVector}
            title={similarBlocked || (hasVector ? undefined : "The row has no vector")}
            onClick={() => onFindSimilar?.(target)}
          >
            Find similar
          </button>
        </footer>
      )}
    </aside>
  );
}
