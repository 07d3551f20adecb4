import { useEffect, useState, type KeyboardEvent, type RefObject } from "react";
import { dispatch, type Actions } from "../help/keymap";
import { MAP_KEYMAP, type MapAction } from "./mapKeymap";
import { nearestInDirection, nearestTo, toggled, type Direction } from "./mapModel";
import type { Scatterplot } from "./useScatterplot";

interface Options {
  plot: RefObject<Scatterplot | null>;
  /** The points' places as drawn (mapModel.fit), null before the first frame. */
  fitted: { x: Float32Array; y: Float32Array } | null;
  /** Changes with each new set of points (another vector, sample, Recompute): the cursor starts again. */
  points: unknown;
  selected: number[];
  selectPoints: (idx: number[]) => void;
}

/**
 * useMapKeyboard is the map's keyboard (MAP_KEYMAP) while its canvas has the focus: a cursor
 * the arrow keys move to the nearest point in their direction (the plot's reticle marks it,
 * and `tip` is where to name it), Space to add or take out its point, Enter to open its row
 * (the point alone selected, as a click does), Mod+A to select every point, Escape to clear.
 * The first arrow (or a Space before any) starts at the one point selected (a click's), else
 * the point nearest the middle of the map. A key not taken (Escape with nothing selected, or
 * with a modifier its binding does not name) goes on to the window.
 */
export function useMapKeyboard({ plot, fitted, points, selected, selectPoints }: Options) {
  const [cursor, setCursor] = useState<number | null>(null);
  // The cursor is named while the keyboard moves it, not after a press of the pointer.
  const [keyboard, setKeyboard] = useState(false);
  const [focused, setFocused] = useState(false);
  const [, setView] = useState(0);
  const n = fitted?.x.length ?? 0;

  useEffect(() => setCursor(null), [points]);

  // The cursor's place on the screen follows pans, zooms and the layout's frames.
  const shown = focused && keyboard && cursor !== null;
  useEffect(() => {
    const sp = plot.current;
    if (!sp || !shown) return;
    const sub = sp.subscribe("view", () => setView((v) => v + 1));
    return () => sp.unsubscribe(sub);
  }, [plot, shown]);

  const show = (i: number) => {
    setCursor(i);
    setKeyboard(true);
    plot.current?.hover(i, { showReticleOnce: true, preventEvent: true });
  };
  // Where the cursor is, else where it starts: at the one point selected (a click's).
  const from = () => (cursor !== null && cursor < n ? cursor : selected.length === 1 && selected[0] < n ? selected[0] : null);
  const move = (dir: Direction) => {
    if (!fitted || n === 0) return false;
    const at = from();
    const next = at === null ? nearestTo(fitted.x, fitted.y, 0, 0) : (nearestInDirection(fitted.x, fitted.y, at, dir) ?? at);
    if (next !== null) show(next);
  };
  const actions: Actions<MapAction> = {
    up: () => move("up"),
    down: () => move("down"),
    left: () => move("left"),
    right: () => move("right"),
    // Space is taken even with no point to toggle: on the canvas it would only scroll the panel.
    toggle: () => {
      if (!fitted || n === 0) return;
      // no cursor yet: it starts where the first arrow would start it, and its point is toggled
      const at = from() ?? nearestTo(fitted.x, fitted.y, 0, 0);
      if (at === null) return;
      if (at !== cursor) show(at);
      selectPoints(toggled(selected, at));
    },
    open: () => {
      if (cursor === null || cursor >= n) return false;
      selectPoints([cursor]);
    },
    selectAll: () => {
      if (n === 0) return false;
      selectPoints(Array.from({ length: n }, (_, i) => i));
    },
    clear: () => {
      if (selected.length === 0) return false;
      selectPoints([]);
    },
  };

  const onKeyDown = (e: KeyboardEvent<HTMLElement>) => {
    if (dispatch(MAP_KEYMAP, actions, e)) {
      e.preventDefault();
      e.stopPropagation();
    }
  };
  const at = shown ? plot.current?.getScreenPosition(cursor) : undefined;
  return {
    cursor,
    /** Where the cursor's point is drawn, while the keyboard moves it on the focused map. */
    tip: shown && at ? { i: cursor, x: at[0], y: at[1] } : null,
    handlers: {
      onKeyDown,
      onFocus: () => setFocused(true),
      onBlur: () => setFocused(false),
      onMouseDown: () => {
        setKeyboard(false);
        setCursor(null);
      },
    },
  };
}
