import type { Column, Grid } from "../../api";

const NUMERIC = new Set(["int", "number"]);

function cellClass(c: Column) {
  if (c.json || c.type === "uuid") return "cell cell--mono";
  if (NUMERIC.has(c.type)) return "cell cell--num";
  return "cell";
}

/**
 * DataGrid is a plain read-only table of one page: a row-number gutter, a sticky header
 * with each column's name and type, cells cut to one line with the full text on hover.
 * Null shows as a muted "null"; arrays, objects and vectors arrive as JSON text.
 */
export function DataGrid({ grid, table }: { grid: Grid; table: string }) {
  return (
    <div className="grid-wrap" tabIndex={0} role="region" aria-label={`Grid of ${table}`}>
      <table className="data-grid" aria-label={`Rows of ${table}`}>
        <thead>
          <tr>
            <th className="data-grid__gutter" scope="col">
              <span className="visually-hidden">Row</span>
            </th>
            {grid.columns.map((c) => (
              <th key={c.name} scope="col" title={c.description || undefined}>
                <span className="data-grid__name">{c.name}</span>
                <span className="data-grid__type">{c.type}</span>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {grid.rows.map((row, i) => (
            <tr key={row[0] ?? `row-${grid.offset + i}`}>
              <td className="data-grid__gutter">{grid.offset + i + 1}</td>
              {grid.columns.map((c, j) => {
                const v = row[j] ?? null;
                return (
                  <td key={c.name} className={cellClass(c)} title={v ?? undefined}>
                    {v === null ? <span className="cell-null">null</span> : v}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      {grid.rows.length === 0 && <p className="grid-empty">No rows</p>}
    </div>
  );
}
