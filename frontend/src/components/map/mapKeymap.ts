import { toShortcut, type Binding, type KeymapRow, type Modifier, type Shortcut } from "../help/keymap";

/** What a key does on a focused map (useMapKeyboard runs them). */
export type MapAction = "up" | "down" | "left" | "right" | "toggle" | "open" | "selectAll" | "clear";

const MODIFIERS: Modifier[] = ["Mod", "Alt", "Shift"];

/**
 * exactly is a binding taken with its combination's modifiers and no other: Shift+↑, Alt+←,
 * Ctrl+Enter or Ctrl+Shift+A on the map are not its keys, and go on to the window untouched.
 */
function exactly(combo: string[], action: MapAction): Binding<MapAction> {
  return { combo, action, not: MODIFIERS.filter((m) => !combo.includes(m)) };
}

/**
 * MAP_KEYMAP is the map's keyboard while its canvas has the focus, in the order the help
 * overlay lists it. The map takes no key anywhere else: Escape in a dialog or another tab
 * leaves its selection alone.
 */
export const MAP_KEYMAP: KeymapRow<MapAction>[] = [
  {
    description: "Move the cursor to the nearest point in that direction (its name and key shown)",
    bindings: [exactly(["↑"], "up"), exactly(["↓"], "down"), exactly(["←"], "left"), exactly(["→"], "right")],
  },
  { description: "Add the cursor's point to the selection, or take it out", bindings: [exactly(["Space"], "toggle")] },
  { description: "Open the cursor's row beside the map (as a click does)", bindings: [exactly(["Enter"], "open")] },
  { description: "Select every point", bindings: [exactly(["Mod", "A"], "selectAll")] },
  { description: "Clear the selection", bindings: [exactly(["Esc"], "clear")] },
];

/**
 * MAP_SHORTCUTS is the one list of the map's keys: its keymap's, then what the pointer and the
 * focus do, which the plot and the page handle. The help overlay lists it and the canvas's
 * description (MAP_KEYS_TEXT) says it.
 */
export const MAP_SHORTCUTS: Shortcut[] = [
  ...MAP_KEYMAP.map(toShortcut),
  { keys: [["Shift", "drag"]], action: "Draw a lasso around the points to select" },
  { keys: [["Shift", "Tab"]], action: "From the map: to Open as a grid tab, above it, once points are selected" },
];

/** How a key is said: Mod is said for both platforms where its combination is (comboInWords). */
const SAID: Record<string, string> = {
  "↑": "Up arrow",
  "↓": "Down arrow",
  "←": "Left arrow",
  "→": "Right arrow",
  Esc: "Escape",
};

/** comboInWords is a combination as words: "Control+A (Command+A on a Mac)", "Shift+drag". */
function comboInWords(combo: string[]): string {
  const said = (mod: string) => combo.map((k) => (k === "Mod" ? mod : (SAID[k] ?? k))).join("+");
  return combo.includes("Mod") ? `${said("Control")} (${said("Command")} on a Mac)` : said("");
}

/** keysInWords is a shortcut's alternatives as words: "Up arrow, Down arrow or Left arrow". */
function keysInWords(keys: string[][]): string {
  const each = keys.map(comboInWords);
  return each.length > 1 ? `${each.slice(0, -1).join(", ")} or ${each[each.length - 1]}` : each.join("");
}

/** MAP_KEYS_TEXT is MAP_SHORTCUTS in words, for the canvas's description (screen readers). */
export const MAP_KEYS_TEXT = MAP_SHORTCUTS.map((s) => `${keysInWords(s.keys)}: ${s.action}.`).join(" ");
