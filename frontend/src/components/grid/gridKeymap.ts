import type { KeymapRow } from "../help/keymap";

/** What a key does in the grid (useGridKeyboard runs them). */
export type GridAction =
  | "up"
  | "down"
  | "left"
  | "right"
  | "nextColumn"
  | "previousColumn"
  | "pageUp"
  | "pageDown"
  | "rowStart"
  | "rowEnd"
  | "firstRow"
  | "lastRow"
  | "edit"
  | "escape"
  | "setNull"
  | "toggleRow"
  | "extendUp"
  | "extendDown"
  | "addRow"
  | "deleteRows"
  | "commit"
  | "undo"
  | "copy"
  | "copyJSON";

const row = (description: string, ...bindings: [string, GridAction, ...("Shift" | "Mod" | "Alt")[]][]): KeymapRow<GridAction> => ({
  description,
  bindings: bindings.map(([combo, action, ...not]) => ({ combo: combo.split("+"), action, ...(not.length > 0 ? { not } : {}) })),
});

/**
 * GRID_KEYMAP is the grid's keyboard, in the order the help overlay lists it. Typing a
 * character on a cell starts editing it with that character; it is no key combination of its
 * own, so it is told in the Edit row.
 */
export const GRID_KEYMAP: KeymapRow<GridAction>[] = [
  row("Move the selected cell", ["↑", "up"], ["↓", "down"], ["←", "left"], ["→", "right"]),
  row("Move to the next or previous column", ["Tab", "nextColumn"], ["Shift+Tab", "previousColumn"]),
  row("Move a screen of rows; to the first or last column", ["PgUp", "pageUp"], ["PgDn", "pageDown"], ["Home", "rowStart"], ["End", "rowEnd"]),
  row("Move to the first or last row", ["Mod+Home", "firstRow"], ["Mod+End", "lastRow"]),
  row("Edit the selected cell (or just start typing)", ["Enter", "edit"], ["F2", "edit"]),
  row("Cancel the edit; close the filter editor or the expanded value; clear the row selection", ["Esc", "escape"]),
  row("Set the selected cell to NULL (pending)", ["Delete", "setNull"]),
  row("Select rows (also Shift+ or Ctrl+click on the row number)", ["Space", "toggleRow"], ["Shift+↑", "extendUp"], ["Shift+↓", "extendDown"]),
  row("Add a row (written on Commit)", ["Alt+Insert", "addRow"]),
  row("Mark the selected rows for deletion (Commit asks first)", ["Mod+Delete", "deleteRows"], ["Mod+Backspace", "deleteRows"]),
  row("Commit the pending changes", ["Mod+S", "commit"]),
  // Mod+Shift+Z is redo elsewhere: here it does nothing rather than undo.
  row("Undo the last pending change", ["Mod+Z", "undo", "Shift"]),
  row("Copy the selected rows as TSV (or the selected cell)", ["Mod+C", "copy"]),
  row("Copy the selected rows (or the selected cell's row) as JSON", ["Mod+Shift+C", "copyJSON"]),
];
