import type { MapPoints } from "../../api";
import { formatCount } from "../explorer/format";
import type { colouring } from "./mapModel";

interface Props {
  colourBy: string;
  colours: ReturnType<typeof colouring>;
  points: MapPoints | null;
  /** The one point selected, whose row is shown, else null. */
  one: number | null;
  onSelect: (points: number[]) => void;
  onOpenRows: (uuids: string[]) => void;
}

/** MapSide is the map's side: the legend of the colour column (a category's entry selects its points) and the row of the one point selected. */
export function MapSide({ colourBy, colours, points, one, onSelect, onOpenRows }: Props) {
  return (
    <aside className="map-side" aria-label="Legend">
      {colours.legend.length > 0 && (
        <>
          <h3 className="map-side__title">{colourBy}</h3>
          <ul className="map-legend">
            {colours.legend.map((l) => (
              <li key={l.label}>
                {colours.kind === "categorical" ? (
                  <button type="button" className="map-legend__item" onClick={() => onSelect(l.points)} aria-label={`Select the ${l.count} points of ${l.label}`}>
                    <span className="map-legend__swatch" style={{ background: l.colour }} aria-hidden="true" /> {l.label} <span className="map-legend__count">{formatCount(l.count)}</span>
                  </button>
                ) : (
                  <span className="map-legend__item">
                    <span className="map-legend__swatch" style={{ background: l.colour }} aria-hidden="true" /> {l.label}
                  </span>
                )}
              </li>
            ))}
          </ul>
        </>
      )}
      {one !== null && points && (
        <div className="map-point" aria-label={`Row ${points.uuids[one]}`}>
          <h3 className="map-side__title">Row</h3>
          <dl>
            <dt>uuid</dt>
            <dd><code>{points.uuids[one]}</code></dd>
            {points.columns.map((c) => (
              <div key={c.name}>
                <dt>{c.name}</dt>
                <dd>{c.values[one] ?? "—"}</dd>
              </div>
            ))}
          </dl>
          <button type="button" className="btn btn--small" onClick={() => onOpenRows([points.uuids[one]])}>
            Open the row
          </button>
        </div>
      )}
    </aside>
  );
}
