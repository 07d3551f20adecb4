import type { KeymapRow } from "../help/keymap";

/** What a key does on a focused map (useMapKeyboard runs them). */
export type MapAction = "up" | "down" | "left" | "right" | "toggle" | "open" | "selectAll" | "clear";

/**
 * MAP_KEYMAP is the map's keyboard while its canvas has the focus, in the order the help
 * overlay lists it. The map takes no key anywhere else: Escape in a dialog or another tab
 * leaves its selection alone.
 */
export const MAP_KEYMAP: KeymapRow<MapAction>[] = [
  {
    description: "Move the cursor to the nearest point in that direction (its name and uuid shown)",
    bindings: [
      { combo: ["↑"], action: "up" },
      { combo: ["↓"], action: "down" },
      { combo: ["←"], action: "left" },
      { combo: ["→"], action: "right" },
    ],
  },
  { description: "Add the cursor's point to the selection, or take it out", bindings: [{ combo: ["Space"], action: "toggle" }] },
  { description: "Open the cursor's row beside the map (as a click does)", bindings: [{ combo: ["Enter"], action: "open" }] },
  { description: "Select every point", bindings: [{ combo: ["Mod", "A"], action: "selectAll" }] },
  { description: "Clear the selection", bindings: [{ combo: ["Esc"], action: "clear" }] },
];

/** MAP_KEYS_TEXT is the map's keys in words, for the canvas's description (screen readers). */
export const MAP_KEYS_TEXT =
  "Arrow keys move a cursor to the nearest point in that direction; Space adds the cursor's point to the selection or takes it out; Enter opens its row; Control+A (Command+A on a Mac) selects every point; Escape clears the selection. Shift and drag draws a lasso. Open as a grid tab is above the map (Shift+Tab).";
