/** The part of regl-scatterplot's plot a move of the picture needs. */
export interface Movable {
  get(property: "camera"): unknown;
  subscribe(event: "draw", handler: () => void, times?: number): unknown;
  redraw(): void;
}

/** The camera's programmatic moves, in its units: the view is 2 high (and 2 x aspect wide), y up. */
interface Camera {
  pan(by: [number, number]): void;
  scale(by: [number, number], about: [number, number]): void;
}

/** How far the pointer moves before a press becomes a pan (a click moves less). */
const PAN_AFTER_PX = 3;

/** How long the wheel rests before the points are drawn again at the view it reached. */
export const ZOOM_SETTLE_MS = 120;

/**
 * moveByCss makes a drag or the wheel on the map move the picture already drawn (a CSS
 * transform of the canvas, as web maps move their tiles) and draws the points again once, at
 * the view the gesture reached: drawing 100,000 points costs tens of milliseconds a frame with
 * software WebGL, moving a picture costs nothing (issue 22: panning p95 under 33 ms; issue 42:
 * pan and zoom p95 within one display period). Points outside the view when the gesture began
 * appear when the points are drawn again; a picture zoomed in is coarse until then.
 *
 * Drag: the press still reaches the plot, so a click selects a point and Shift and drag draws
 * the lasso as before; only once the pointer has moved PAN_AFTER_PX does the pan take the
 * moves, and at the release the plot's camera moves by what the picture moved.
 *
 * Wheel: each step scales the picture about the pointer by what the plot's own wheel would
 * (exp(-delta / height)); the plot sees none of them. Once the wheel has rested ZOOM_SETTLE_MS
 * (or a press begins), the camera takes the whole zoom and the points are drawn again. Moves
 * of the pointer meanwhile do not reach the plot: what it would hover is where the picture
 * was, not where it is.
 *
 * The picture's move is one map of the screen, q -> s q + t (CSS pixels from the canvas's top
 * left): a pan adds to t, a wheel step scales about the pointer. Returns the function that
 * detaches it.
 */
export function moveByCss(box: HTMLElement, canvas: HTMLCanvasElement, plot: () => Movable | null): () => void {
  // press: where the button went down, and the last place the plot was given (a move)
  let press: { x: number; y: number; seenX: number; seenY: number } | null = null;
  // pan: the drag's last pointer position, once the press has become a pan
  let pan: { x: number; y: number } | null = null;
  // the picture's move since the points were last drawn
  let s = 1;
  let tx = 0;
  let ty = 0;
  let settle: ReturnType<typeof setTimeout> | undefined;

  const moved = () => s !== 1 || tx !== 0 || ty !== 0;
  const show = () => {
    canvas.style.transformOrigin = "0 0";
    canvas.style.transform = moved() ? `matrix(${s}, 0, 0, ${s}, ${tx}, ${ty})` : "";
  };

  /** commit gives the camera the picture's move and draws the points there. */
  const commit = () => {
    clearTimeout(settle);
    settle = undefined;
    const sp = plot();
    const w = canvas.clientWidth;
    const h = canvas.clientHeight;
    const camera = sp?.get("camera") as Camera | undefined;
    const was = { s, tx, ty };
    s = 1;
    tx = 0;
    ty = 0;
    if (!sp || !camera || w === 0 || h === 0 || (was.s === 1 && was.tx === 0 && was.ty === 0)) {
      show();
      return;
    }
    // In the camera's units (n = ((2x - w) / h, 1 - 2y / h)) the screen's q -> s q + t is
    // n -> s n + d: a scale about the origin, then a pan by d.
    if (was.s !== 1) camera.scale([was.s, was.s], [0, 0]);
    camera.pan([(2 * was.tx + (was.s - 1) * w) / h, 1 - was.s - (2 * was.ty) / h]);
    // The moved picture stays until the one drawn at the new view replaces it (unless another
    // move has begun since). The plot draws when told.
    sp.subscribe("draw", () => (moved() ? show() : (canvas.style.transform = "")), 1);
    sp.redraw();
  };

  // The pointer relative to the canvas as laid out (its offsets ignore the transform).
  const at = (e: MouseEvent) => {
    const r = box.getBoundingClientRect();
    return { x: e.clientX - r.left - canvas.offsetLeft, y: e.clientY - r.top - canvas.offsetTop };
  };

  const down = (e: MouseEvent) => {
    if (settle !== undefined) commit();
    press = e.button === 0 && !e.shiftKey ? { x: e.clientX, y: e.clientY, seenX: e.clientX, seenY: e.clientY } : null;
  };
  const move = (e: MouseEvent) => {
    if (!press) {
      if (settle !== undefined) e.stopImmediatePropagation(); // a zoom waits to be drawn
      return;
    }
    if (!pan) {
      if (Math.hypot(e.clientX - press.x, e.clientY - press.y) < PAN_AFTER_PX) {
        press.seenX = e.clientX; // the plot is given this move
        press.seenY = e.clientY;
        return;
      }
      // from here on the moves are the pan's; the plot saw the ones before (its own pan of
      // them is kept), so the picture moves from the last of them
      pan = { x: press.seenX, y: press.seenY };
    }
    e.stopImmediatePropagation();
    tx += e.clientX - pan.x;
    ty += e.clientY - pan.y;
    pan = { x: e.clientX, y: e.clientY };
    show();
  };
  const up = () => {
    const panned = pan !== null;
    press = null;
    pan = null;
    // The release also reaches the plot (it ends its press).
    if (panned) commit();
  };
  const wheel = (e: WheelEvent) => {
    if (press) return; // the plot's own wheel during a press, as before
    const h = canvas.clientHeight;
    if (h === 0) return;
    e.preventDefault();
    e.stopImmediatePropagation();
    const delta = (e.deltaMode === 1 ? 12 : 1) * (e.deltaY || e.deltaX || 0);
    const f = Math.exp(-delta / h);
    const p = at(e);
    // scale about p: q -> f (q - p) + p, after the move so far
    s *= f;
    tx = f * (tx - p.x) + p.x;
    ty = f * (ty - p.y) + p.y;
    show();
    clearTimeout(settle);
    settle = setTimeout(commit, ZOOM_SETTLE_MS);
  };

  box.addEventListener("mousedown", down, true);
  box.addEventListener("wheel", wheel, { capture: true, passive: false });
  window.addEventListener("mousemove", move, true);
  window.addEventListener("mouseup", up, true);
  return () => {
    clearTimeout(settle);
    box.removeEventListener("mousedown", down, true);
    box.removeEventListener("wheel", wheel, true);
    window.removeEventListener("mousemove", move, true);
    window.removeEventListener("mouseup", up, true);
    canvas.style.transform = "";
  };
}
