import type { ReactNode } from "react";
import { formatCount } from "../opened/format";
import type { Colouring, LegendItem } from "./mapModel";
import "./map.css";

interface Props {
  colourBy: string;
  colours: Colouring;
  onSelect: (points: number[]) => void;
  /** The row of the one point selected (MapRow), shown under the legend. */
  children?: ReactNode;
}

/**
 * MapSide is the map's side: the legend of the colour column and the row of the one point
 * selected. Every legend entry is a button that selects its points (the keyboard reaches
 * every selection): a category, or for a number one of its quartile ranges under the ramp
 * (its smallest, middle and largest values named), and the rows with no value.
 */
export function MapSide({ colourBy, colours, onSelect, children }: Props) {
  return (
    <aside className="map-side" aria-label="Legend">
      {colours.legend.length > 0 && (
        <>
          <h3 className="map-side__title">{colourBy}</h3>
          {colours.scale && (
            <div className="map-ramp" role="img" aria-label={`${colourBy}: from ${colours.scale.min} to ${colours.scale.max}`}>
              <div className="map-ramp__bar" style={{ background: colours.scale.gradient }} />
              <div className="map-ramp__labels" aria-hidden="true">
                <span>{colours.scale.min}</span>
                <span>{colours.scale.mid}</span>
                <span>{colours.scale.max}</span>
              </div>
            </div>
          )}
          <ul className="map-legend">
            {colours.legend.map((l) => (
              <li key={l.label}>
                <button type="button" className="map-legend__item" onClick={() => onSelect(l.points)} aria-label={entryLabel(l, colourBy)}>
                  <span className="map-legend__swatch" style={{ background: l.colour }} aria-hidden="true" /> {l.label}{" "}
                  <span className="map-legend__count">{formatCount(l.count)}</span>
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
      {children}
    </aside>
  );
}

/** entryLabel is what a legend entry's button does, in words. */
function entryLabel(l: LegendItem, column: string): string {
  return l.missing ? `Select the ${l.count} points with no ${column}` : `Select the ${l.count} points of ${l.label}`;
}
