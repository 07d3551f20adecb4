import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { moveByCss, ZOOM_SETTLE_MS, type Movable } from "./moveByCss";

const W = 400;
const H = 200;

/** A plot whose camera records the programmatic moves, applied to NDC points as the camera does. */
function fakePlot() {
  const moves: ((n: [number, number]) => [number, number])[] = [];
  const camera = {
    scale: vi.fn((by: [number, number], about: [number, number]) =>
      moves.push(([x, y]) => [by[0] * (x - about[0]) + about[0], by[1] * (y - about[1]) + about[1]]),
    ),
    pan: vi.fn((by: [number, number]) => moves.push(([x, y]) => [x + by[0], y + by[1]])),
  };
  const draws: (() => void)[] = [];
  const plot: Movable = {
    get: () => camera,
    subscribe: (_e, handler) => draws.push(handler),
    redraw: vi.fn(() => draws.splice(0).forEach((d) => d())),
  };
  /** where a point at n (NDC) is shown after the camera's moves */
  const apply = (n: [number, number]) => moves.reduce((p, m) => m(p), n);
  return { plot, camera, apply };
}

/** A screen point of the canvas in the camera's units. */
const ndc = (x: number, y: number): [number, number] => [(2 * x - W) / H, 1 - (2 * y) / H];

describe("moveByCss", () => {
  let box: HTMLDivElement;
  let canvas: HTMLCanvasElement;
  beforeEach(() => {
    vi.useFakeTimers();
    box = document.createElement("div");
    canvas = document.createElement("canvas");
    box.appendChild(canvas);
    document.body.appendChild(box);
    Object.defineProperty(canvas, "clientWidth", { value: W });
    Object.defineProperty(canvas, "clientHeight", { value: H });
    box.getBoundingClientRect = () => ({ left: 10, top: 20, width: W, height: H, right: 10 + W, bottom: 20 + H, x: 10, y: 20, toJSON: () => ({}) });
  });
  afterEach(() => {
    box.remove();
    vi.useRealTimers();
  });

  it("a wheel moves the drawn picture only, then the camera takes the whole zoom once, the point under the pointer staying put", () => {
    const { plot, camera, apply } = fakePlot();
    const plotsOwnWheel = vi.fn();
    canvas.addEventListener("wheel", plotsOwnWheel);
    const stop = moveByCss(box, canvas, () => plot);
    const wheel = (x: number, y: number, deltaY: number) =>
      canvas.dispatchEvent(new WheelEvent("wheel", { clientX: 10 + x, clientY: 20 + y, deltaY, bubbles: true, cancelable: true }));
    wheel(100, 50, -40);
    wheel(100, 50, -40);
    wheel(300, 150, 20); // the pointer moved between steps
    expect(plotsOwnWheel).not.toHaveBeenCalled();
    expect(camera.scale).not.toHaveBeenCalled();
    expect(plot.redraw).not.toHaveBeenCalled();
    const m = /matrix\(([^)]*)\)/.exec(canvas.style.transform);
    expect(m).not.toBeNull();
    const [s, , , , tx, ty] = m![1].split(",").map(Number);
    expect(s).toBeCloseTo(Math.exp(60 / H), 10);

    vi.advanceTimersByTime(ZOOM_SETTLE_MS);
    expect(plot.redraw).toHaveBeenCalledTimes(1);
    expect(canvas.style.transform).toBe("");
    // Every point drawn at q is now drawn where the picture showed it, s q + t.
    for (const [x, y] of [[0, 0], [100, 50], [300, 150], [W, H]]) {
      const [gx, gy] = apply(ndc(x, y));
      const [wx, wy] = ndc(s * x + tx, s * y + ty);
      expect(gx).toBeCloseTo(wx, 9);
      expect(gy).toBeCloseTo(wy, 9);
    }
    stop();
  });

  it("a drag pans the picture, and at the release the camera pans by what it moved (the same move as before)", () => {
    const { plot, camera } = fakePlot();
    const stop = moveByCss(box, canvas, () => plot);
    const ev = (type: string, x: number, y: number) =>
      canvas.dispatchEvent(new MouseEvent(type, { clientX: x, clientY: y, button: 0, buttons: type === "mouseup" ? 0 : 1, bubbles: true }));
    ev("mousedown", 100, 100);
    ev("mousemove", 101, 100); // under PAN_AFTER_PX: the plot's
    ev("mousemove", 131, 90);
    expect(canvas.style.transform).toBe("matrix(1, 0, 0, 1, 30, -10)");
    ev("mouseup", 131, 90);
    expect(camera.scale).not.toHaveBeenCalled();
    expect(camera.pan).toHaveBeenCalledWith([(30 / H) * 2, (10 / H) * 2]);
    expect(canvas.style.transform).toBe("");
    stop();
  });

  it("while a zoom waits to be drawn the plot hears no pointer moves, and a press draws it at once", () => {
    const { plot, camera } = fakePlot();
    const plotsMoves = vi.fn();
    window.addEventListener("mousemove", plotsMoves);
    const stop = moveByCss(box, canvas, () => plot);
    canvas.dispatchEvent(new WheelEvent("wheel", { clientX: 110, clientY: 70, deltaY: -40, bubbles: true, cancelable: true }));
    canvas.dispatchEvent(new MouseEvent("mousemove", { clientX: 120, clientY: 70, bubbles: true }));
    expect(plotsMoves).not.toHaveBeenCalled();
    canvas.dispatchEvent(new MouseEvent("mousedown", { clientX: 120, clientY: 70, button: 0, bubbles: true }));
    expect(camera.scale).toHaveBeenCalledTimes(1);
    expect(plot.redraw).toHaveBeenCalledTimes(1);
    canvas.dispatchEvent(new MouseEvent("mousemove", { clientX: 121, clientY: 70, bubbles: true }));
    expect(plotsMoves).toHaveBeenCalledTimes(1);
    window.removeEventListener("mousemove", plotsMoves);
    stop();
  });
});
