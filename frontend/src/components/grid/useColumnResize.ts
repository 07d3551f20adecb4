import { useState, type MouseEvent as ReactMouseEvent } from "react";
import type { Column } from "../../api";
import { isNumeric, isVector } from "./columnKinds";

/** The default column widths: rows are virtualized, so widths must not follow the rows on screen. */
function defaultWidth(c: Column): number {
  if (c.kind === "uuid") return 290;
  if (isVector(c)) return 300;
  if (isNumeric(c)) return 110;
  if (c.kind === "boolean") return 90;
  if (c.kind === "datetime" || c.kind === "date") return 190;
  return 220;
}

/**
 * useColumnResize gives each column its width (a drag under way, else the remembered one, else
 * the type's default) and starts a drag on a header's edge; only the drag's end is reported,
 * so a resize is remembered once, not at every pixel.
 */
export function useColumnResize(widths: Record<string, number>, onResize?: (column: string, px: number) => void) {
  const [dragWidth, setDragWidth] = useState<{ column: string; px: number } | null>(null);
  const widthOf = (c: Column) => (dragWidth?.column === c.name ? dragWidth.px : (widths[c.name] ?? defaultWidth(c)));

  const startResize = (e: ReactMouseEvent, c: Column) => {
    e.preventDefault();
    e.stopPropagation();
    const startX = e.clientX;
    const startW = widthOf(c);
    let px = startW;
    const onMove = (ev: MouseEvent) => {
      px = Math.max(40, Math.min(2000, startW + ev.clientX - startX));
      setDragWidth({ column: c.name, px });
    };
    const onUp = () => {
      window.removeEventListener("mousemove", onMove);
      window.removeEventListener("mouseup", onUp);
      setDragWidth(null);
      if (px !== startW) onResize?.(c.name, px);
    };
    window.addEventListener("mousemove", onMove);
    window.addEventListener("mouseup", onUp);
  };

  return { widthOf, startResize };
}
