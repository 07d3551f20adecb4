import { useCallback, useEffect, useRef, useState } from "react";
import createScatterplot, { createRenderer } from "regl-scatterplot";
import { moveByCss } from "./moveByCss";

export type Scatterplot = ReturnType<typeof createScatterplot>;

/**
 * useScatterplot is the map's WebGL plot (regl-scatterplot), made once for the tab's life on
 * the canvas it returns a ref for, sized to its box: the point under the pointer, the points
 * selected (by the lasso, a legend entry or a search), and panning by dragging and zooming by
 * the wheel, both by moving the drawn picture first (moveByCss).
 */
export function useScatterplot() {
  const [hover, setHover] = useState<{ i: number; x: number; y: number } | null>(null);
  const [selected, setSelected] = useState<number[]>([]);
  // The selection outlives each new frame of the layout: it is drawn again on the new places.
  const selectedRef = useRef<number[]>([]);
  selectedRef.current = selected;
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const boxRef = useRef<HTMLDivElement>(null);
  const plot = useRef<Scatterplot | null>(null);

  // One renderer for the tab's life, sized to its box.
  useEffect(() => {
    const canvas = canvasRef.current;
    const box = boxRef.current;
    if (!canvas || !box) return;
    const { width, height } = box.getBoundingClientRect();
    // The plot's own renderer, the size of the map: the shared one it makes unasked is the
    // size of the window, and with software WebGL every frame costs in proportion to it.
    const renderer = createRenderer({ canvas: document.createElement("canvas") });
    renderer.resize(Math.max(width, 100), Math.max(height, 100));
    const sp = createScatterplot({
      canvas,
      renderer,
      width: Math.max(width, 100),
      height: Math.max(height, 100),
      pointSize: 4,
      pointSizeSelected: 2,
      pointOutlineWidth: 1,
      lassoInitiator: false,
      // extend the lasso with every move of 2 pixels, however fast the hand: a quick loop
      // around a cluster is drawn as it was meant
      lassoMinDelay: 0,
      lassoMinDist: 2,
      // Escape clears the selection only while the map has the focus (useMapKeyboard): the
      // plot's own Escape listens on the whole window, so closing a dialog anywhere, or an
      // Escape in another tab, would clear every map's selection.
      deselectOnEscape: false,
    });
    plot.current = sp;
    sp.subscribe("pointOver", (i: number) => {
      const [x, y] = sp.getScreenPosition(i) ?? [0, 0];
      setHover({ i, x, y });
    });
    sp.subscribe("pointOut", () => setHover(null));
    sp.subscribe("select", ({ points: chosen }: { points: number[] }) => setSelected([...chosen]));
    sp.subscribe("deselect", () => setSelected([]));
    const ro = new ResizeObserver(([e]) => {
      const r = e.contentRect;
      if (r.width > 0 && r.height > 0) {
        renderer.resize(r.width, r.height);
        sp.set({ width: r.width, height: r.height });
      }
    });
    ro.observe(box);
    const stopMoves = moveByCss(box, canvas, () => plot.current);
    return () => {
      stopMoves();
      ro.disconnect();
      sp.destroy();
      renderer.destroy();
      plot.current = null;
    };
  }, []);

  const selectPoints = useCallback((idx: number[]) => {
    plot.current?.select([...idx]); // the plot keeps (and prunes) the array it is given
    setSelected(idx);
  }, []);

  return { plot, canvasRef, boxRef, hover, selected, selectedRef, setSelected, selectPoints };
}
