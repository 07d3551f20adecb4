import type { Column } from "../../api";
import "./grid.css";

/** ColumnChips lists a table's columns in grid order with their types and flags. */
export function ColumnChips({ columns }: { columns: Column[] }) {
  return (
    <ul className="col-chips" aria-label="Columns">
      {columns.map((c) => (
        <li key={c.name} className="col-chip" title={c.description || undefined}>
          <span className="col-chip__name">{c.name}</span>
          <span className="col-chip__type">{c.type || "?"}</span>
          {c.primaryKey && <span className="col-chip__flag">key</span>}
          {c.readOnly && <span className="col-chip__flag">read-only</span>}
        </li>
      ))}
    </ul>
  );
}
