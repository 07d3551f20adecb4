import type { KeymapRow } from "../help/keymap";

/** What a key does anywhere in the window (App runs them). */
export type WindowAction = "settings" | "newConnection" | "editor" | "refresh";

/** WINDOW_KEYMAP is the window's own keys, in the order the overlay's General group lists them. */
export const WINDOW_KEYMAP: KeymapRow<WindowAction>[] = [
  { description: "Open Settings", bindings: [{ combo: ["Mod", ","], action: "settings" }] },
  { description: "New connection", bindings: [{ combo: ["Mod", "N"], action: "newConnection" }] },
  { description: "Open the query editor of the active tab's connection", bindings: [{ combo: ["Mod", "E"], action: "editor" }] },
];

/**
 * REFRESH_KEYMAP is F5, which works anywhere but reads the tree's collections and counts again,
 * so the overlay lists it with the sidebar's keys. Mod+F5 is left to the browser.
 */
export const REFRESH_KEYMAP: KeymapRow<WindowAction>[] = [
  { description: "Read the active connection's collections and counts again", bindings: [{ combo: ["F5"], action: "refresh", not: ["Mod"] }] },
];

/** WINDOW_KEYS is every key the window's handler takes. */
export const WINDOW_KEYS = [...WINDOW_KEYMAP, ...REFRESH_KEYMAP];
