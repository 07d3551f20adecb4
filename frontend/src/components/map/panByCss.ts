/** The part of regl-scatterplot's plot a pan needs. */
export interface Pannable {
  get(property: "camera"): unknown;
  subscribe(event: "draw", handler: () => void, times?: number): unknown;
  redraw(): void;
}

/** How far the pointer moves before a press becomes a pan (a click moves less). */
const PAN_AFTER_PX = 3;

/**
 * panByCss makes a drag on the map move the picture already drawn (a CSS transform of the
 * canvas, as web maps move their tiles) and draws the points again once, where the drag
 * ended: drawing 100,000 points costs tens of milliseconds a frame with software WebGL,
 * moving a picture costs nothing (issue 22: panning p95 under 33 ms). Points outside the view
 * when the drag began appear when it ends.
 *
 * The press itself still reaches the plot, so a click selects a point and Shift and drag
 * draws the lasso as before; only once the pointer has moved PAN_AFTER_PX does the pan take
 * the moves (the plot neither pans nor redraws for them), and at the release the plot's
 * camera pans by the distance the picture moved, the same view its own drag would give.
 * Returns the function that detaches it.
 */
export function panByCss(box: HTMLElement, canvas: HTMLCanvasElement, plot: () => Pannable | null): () => void {
  // press: where the button went down, and the last place the plot was given (a move)
  let press: { x: number; y: number; seenX: number; seenY: number } | null = null;
  let pan: { x: number; y: number; dx: number; dy: number } | null = null;

  const down = (e: MouseEvent) => {
    press = e.button === 0 && !e.shiftKey ? { x: e.clientX, y: e.clientY, seenX: e.clientX, seenY: e.clientY } : null;
  };
  const move = (e: MouseEvent) => {
    if (!press) return;
    if (!pan) {
      if (Math.hypot(e.clientX - press.x, e.clientY - press.y) < PAN_AFTER_PX) {
        press.seenX = e.clientX; // the plot is given this move
        press.seenY = e.clientY;
        return;
      }
      // from here on the moves are the pan's; the plot saw the ones before (its own pan of
      // them is kept), so the picture moves from the last of them
      pan = { x: press.seenX, y: press.seenY, dx: 0, dy: 0 };
    }
    e.stopImmediatePropagation();
    pan.dx = e.clientX - pan.x;
    pan.dy = e.clientY - pan.y;
    canvas.style.transform = `translate(${pan.dx}px, ${pan.dy}px)`;
  };
  const up = () => {
    const done = pan;
    press = null;
    pan = null;
    const sp = plot();
    if (!done || !sp || (done.dx === 0 && done.dy === 0)) {
      canvas.style.transform = "";
      return;
    }
    // The release also reaches the plot (it ends its press); the pan is then the camera's,
    // in its units: the view is 2 wide (times the aspect ratio) and 2 high, y up.
    const r = canvas.getBoundingClientRect();
    const camera = sp.get("camera") as { pan(by: [number, number]): void } | undefined;
    if (!camera || r.width === 0 || r.height === 0) {
      canvas.style.transform = "";
      return;
    }
    camera.pan([(done.dx / r.height) * 2, -(done.dy / r.height) * 2]);
    // The moved picture stays until the one drawn at the new view replaces it. The plot
    // draws when told (its own drag tells it with each move it was not given here).
    sp.subscribe("draw", () => (canvas.style.transform = ""), 1);
    sp.redraw();
  };

  box.addEventListener("mousedown", down, true);
  window.addEventListener("mousemove", move, true);
  window.addEventListener("mouseup", up, true);
  return () => {
    box.removeEventListener("mousedown", down, true);
    window.removeEventListener("mousemove", move, true);
    window.removeEventListener("mouseup", up, true);
    canvas.style.transform = "";
  };
}
