import type { KeymapRow } from "../help/keymap";

/** What a key does in the connection tree. */
export type TreeAction = "up" | "down" | "first" | "last" | "expand" | "collapse" | "open" | "editor" | "edit" | "delete";

/** The tree's moves (useTreeNavigation runs them); the rest act on the row's connection. */
export type TreeMove = Extract<TreeAction, "up" | "down" | "first" | "last" | "expand" | "collapse" | "open">;

const row = (description: string, ...bindings: [string, TreeAction][]): KeymapRow<TreeAction> => ({
  description,
  bindings: bindings.map(([combo, action]) => ({ combo: combo.split("+"), action })),
});

/** TREE_KEYMAP is the connection tree's keyboard, in the order the help overlay lists it. */
export const TREE_KEYMAP: KeymapRow<TreeAction>[] = [
  row("Previous / next connection or collection", ["↑", "up"], ["↓", "down"]),
  row("First / last row", ["Home", "first"], ["End", "last"]),
  row("Expand a connection (connects it); then move to its first collection", ["→", "expand"]),
  row("Collapse a connection; from a collection, go to its connection", ["←", "collapse"]),
  row("Open the connection (and its last open table) or the collection", ["Enter", "open"]),
  row("Open the query editor of the row's connection", ["Mod+E", "editor"]),
  row("Edit the connection", ["F2", "edit"]),
  row("Delete the connection (asks first)", ["Delete", "delete"]),
];
