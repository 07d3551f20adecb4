/** One line of the shortcuts overlay: its key combinations (alternatives) and what it does. */
export interface Shortcut {
  keys: string[][];
  action: string;
}

/**
 * A keymap is the one table a keyboard handler dispatches from and the help overlay prints, so
 * the two cannot drift: each row is a line of the overlay (its description and its keys), each
 * of its bindings one key combination and the action it runs.
 *
 * A combination is written as the overlay prints it: modifiers first ("Mod" is Ctrl, or ⌘ on
 * macOS), then the key ("↑", "PgDn", "Esc", "Space", "C", "F2"...).
 */
export interface Binding<A extends string> {
  combo: string[];
  action: A;
  /**
   * Modifiers that must not be held. Other modifiers beyond the combination's own are let
   * through (Ctrl+↓ moves like ↓), as the handlers always did.
   */
  not?: Modifier[];
}

export interface KeymapRow<A extends string> {
  description: string;
  bindings: Binding<A>[];
}

export type Modifier = "Mod" | "Alt" | "Shift";

/** The names the overlay prints for the keys whose KeyboardEvent.key reads otherwise. */
const KEY_NAMES: Record<string, string> = {
  ArrowUp: "↑",
  ArrowDown: "↓",
  ArrowLeft: "←",
  ArrowRight: "→",
  PageUp: "PgUp",
  PageDown: "PgDn",
  Escape: "Esc",
  " ": "Space",
};

/** What a keymap reads of a key event (a React or a DOM one). */
export interface KeyPress {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  shiftKey: boolean;
}

/** keyName is a pressed key as the keymap writes it; letters are upper case whatever Shift. */
export function keyName(key: string): string {
  return KEY_NAMES[key] ?? (key.length === 1 ? key.toUpperCase() : key);
}

function held(e: KeyPress, m: Modifier): boolean {
  return m === "Mod" ? e.ctrlKey || e.metaKey : m === "Alt" ? e.altKey : e.shiftKey;
}

/**
 * actionFor is the action a key press runs, or null: of the bindings whose key it is and whose
 * modifiers are all held (and none of their `not`), the one that names the most modifiers.
 */
export function actionFor<A extends string>(keymap: KeymapRow<A>[], e: KeyPress): A | null {
  const key = keyName(e.key);
  let best: { action: A; mods: number } | null = null;
  for (const row of keymap) {
    for (const b of row.bindings) {
      if (b.combo[b.combo.length - 1] !== key) continue;
      const mods = b.combo.slice(0, -1) as Modifier[];
      if (!mods.every((m) => held(e, m)) || (b.not ?? []).some((m) => held(e, m))) continue;
      if (!best || mods.length > best.mods) best = { action: b.action, mods: mods.length };
    }
  }
  return best?.action ?? null;
}

/**
 * An action's handler returns false when the key is not its to take in this state (it then
 * goes on to the browser and the rest of the window); anything else means it was handled.
 */
export type Actions<A extends string> = Record<A, () => boolean | void>;

/** dispatch runs the action of a key press; it reports whether the press was handled. */
export function dispatch<A extends string>(keymap: KeymapRow<A>[], actions: Actions<A>, e: KeyPress): boolean {
  const action = actionFor(keymap, e);
  return action !== null && actions[action]() !== false;
}

/** toShortcut is a keymap row as the help overlay lists it. */
export function toShortcut<A extends string>(row: KeymapRow<A>): Shortcut {
  return { keys: row.bindings.map((b) => b.combo), action: row.description };
}

/** pressOf is the key press of a combination, for tests and for checking a keymap. */
export function pressOf(combo: string[]): KeyPress {
  const key = combo[combo.length - 1];
  const dom = Object.entries(KEY_NAMES).find(([, name]) => name === key)?.[0] ?? (key.length === 1 ? key.toLowerCase() : key);
  const mods = new Set(combo.slice(0, -1));
  return { key: dom, ctrlKey: mods.has("Mod"), metaKey: false, altKey: mods.has("Alt"), shiftKey: mods.has("Shift") };
}
