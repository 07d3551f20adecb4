import { TREE_KEYMAP } from "../connections/treeKeymap";
import { GRID_KEYMAP } from "../grid/gridKeymap";
import { REFRESH_KEYMAP, WINDOW_KEYMAP } from "../frame/windowKeymap";
import { MAP_SHORTCUTS } from "../map/mapKeymap";
import { toShortcut, type Shortcut } from "./keymap";

/**
 * The app's keyboard shortcuts: the one list the help overlay (F1, ?) shows. The grid's, the
 * tree's and the window's come from their keymaps (grid/gridKeymap.ts,
 * connections/treeKeymap.ts, frame/windowKeymap.ts, map/mapKeymap.ts's MAP_SHORTCUTS), which their handlers dispatch from; when another component gains or changes a shortcut, change it here too.
 *
 * A shortcut's `keys` are its alternatives, each a combination of keys pressed together.
 * "Mod" is Ctrl, or ⌘ on macOS (the handlers test ctrlKey || metaKey).
 */
export interface ShortcutGroup {
  title: "General" | "Sidebar" | "Grid" | "Map" | "Editor";
  /** Where the shortcuts work. */
  where: string;
  shortcuts: Shortcut[];
}

export const SHORTCUTS: ShortcutGroup[] = [
  {
    title: "General",
    where: "anywhere in the window",
    shortcuts: [
      { keys: [["?"], ["F1"]], action: "Show these keyboard shortcuts (? not while typing)" },
      ...WINDOW_KEYMAP.map(toShortcut),
      { keys: [["Esc"]], action: "Close this overlay; cancel a connection form" },
    ],
  },
  {
    title: "Sidebar",
    where: "in the connection tree",
    shortcuts: [
      ...TREE_KEYMAP.map(toShortcut),
      ...REFRESH_KEYMAP.map(toShortcut),
    ],
  },
  {
    title: "Grid",
    where: "in a table's rows",
    shortcuts: [
      // The keys the grid handles are its keymap's, so this list cannot drift from them.
      ...GRID_KEYMAP.map(toShortcut),
      { keys: [["Shift", "click"]], action: "On a column header: add it as another sort key" },
      { keys: [["F5"]], action: "Read the table again: columns, rows and count (not while changes are pending)" },
    ],
  },
  {
    title: "Map",
    where: "on a map of vectors (Tab to it)",
    shortcuts: [
      // the map's one list: its keymap's and the pointer's, said too by the canvas's description
      ...MAP_SHORTCUTS,
    ],
  },
  {
    title: "Editor",
    where: "in the query editor",
    shortcuts: [
      { keys: [["Mod", "Enter"]], action: "Run the statement under the cursor (or the selection)" },
      { keys: [["Mod", "Shift", "Enter"]], action: "Run the whole text, each statement's answer shown" },
      { keys: [["Ctrl", "Space"]], action: "Show completions (collections, properties, operators)" },
      { keys: [["Enter"]], action: "Accept the chosen completion" },
      { keys: [["Esc"]], action: "Close the completion list" },
      { keys: [["Mod", "Z"]], action: "Undo" },
      { keys: [["Mod", "Shift", "Z"], ["Mod", "Y"]], action: "Redo" },
    ],
  },
];

/** isMac: the platform shows ⌘ for Mod. */
export function isMac(): boolean {
  const nav = typeof navigator === "undefined" ? undefined : navigator;
  return !!nav && /Mac|iPhone|iPad/.test(nav.platform || nav.userAgent);
}

/** keyLabel is how a key is printed: Mod as Ctrl or ⌘. */
export function keyLabel(key: string, mac = isMac()): string {
  if (key === "Mod") return mac ? "⌘" : "Ctrl";
  return key;
}

/** keysText is a shortcut's keys as words, for screen readers and titles ("Ctrl+Enter"). */
export function keysText(keys: string[][], mac = isMac()): string {
  return keys.map((combo) => combo.map((k) => keyLabel(k, mac)).join("+")).join(" or ");
}
