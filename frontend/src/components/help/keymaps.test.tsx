import { render, screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { TREE_KEYMAP } from "../connections/treeKeymap";
import { GRID_KEYMAP } from "../grid/gridKeymap";
import { REFRESH_KEYMAP, WINDOW_KEYMAP } from "../frame/windowKeymap";
import { MAP_KEYMAP, MAP_KEYS_TEXT, MAP_SHORTCUTS } from "../map/mapKeymap";
import { actionFor, dispatch, pressOf, type Actions, type KeymapRow } from "./keymap";
import { keysText, SHORTCUTS } from "./shortcuts";
import { ShortcutsOverlay } from "./ShortcutsHelp";

/** Each keymap a handler dispatches from, and the overlay's group that lists it. */
const KEYMAPS: [string, string, KeymapRow<string>[]][] = [
  ["grid's", "Grid", GRID_KEYMAP],
  ["window's", "General", WINDOW_KEYMAP],
  ["tree's", "Sidebar", TREE_KEYMAP],
  ["refresh", "Sidebar", REFRESH_KEYMAP],
  ["map's", "Map", MAP_KEYMAP],
];

function spies(keymap: KeymapRow<string>[]) {
  return Object.fromEntries(keymap.flatMap((r) => r.bindings).map((b) => [b.action, vi.fn()])) as Actions<string> & Record<string, ReturnType<typeof vi.fn>>;
}

describe.each(KEYMAPS)("the %s keymap: one table for the handler and the help overlay (%s)", (_name, group, keymap) => {
  it("every row of it is in the overlay's group, with its keys", () => {
    render(<ShortcutsOverlay onClose={() => {}} />);
    const section = screen.getByRole("region", { name: new RegExp(`^${group}`) });
    for (const row of keymap) {
      const action = within(section).getByText(row.description);
      const keys = action.closest(".help-list__row")?.querySelector("dt");
      expect(keys).toHaveAttribute("aria-label", keysText(row.bindings.map((b) => b.combo)));
    }
  });

  it.each(keymap.flatMap((r) => r.bindings).map((b) => [b.combo.join("+"), b.action] as const))("%s dispatches %s, and nothing else", (combo, action) => {
    const actions = spies(keymap);
    expect(dispatch(keymap, actions, pressOf(combo.split("+")))).toBe(true);
    expect(actions[action]).toHaveBeenCalledTimes(1);
    for (const [name, fn] of Object.entries(actions)) if (name !== action) expect(fn).not.toHaveBeenCalled();
  });
});

describe("matching a key press", () => {
  it("an action that declines the key leaves it unhandled", () => {
    const keymap: KeymapRow<string>[] = GRID_KEYMAP;
    const actions = spies(keymap);
    actions.copy.mockReturnValue(false);
    expect(dispatch(keymap, actions, pressOf(["Mod", "C"]))).toBe(false);
  });

  it("extra modifiers pass as they always did, but not a forbidden one; the most specific binding wins", () => {
    expect(actionFor(GRID_KEYMAP, { ...pressOf(["↓"]), ctrlKey: true })).toBe("down");
    expect(actionFor(GRID_KEYMAP, { ...pressOf(["↓"]), shiftKey: true })).toBe("extendDown");
    expect(actionFor(GRID_KEYMAP, { ...pressOf(["Mod", "S"]), shiftKey: true })).toBe("commit");
    expect(actionFor(GRID_KEYMAP, { ...pressOf(["Mod", "Z"]), shiftKey: true })).toBeNull();
    expect(actionFor(GRID_KEYMAP, { key: "C", ctrlKey: false, metaKey: true, altKey: false, shiftKey: true })).toBe("copyJSON");
    expect(actionFor(GRID_KEYMAP, pressOf(["C"]))).toBeNull();
    expect(actionFor(REFRESH_KEYMAP, { ...pressOf(["F5"]), metaKey: true })).toBeNull();
  });
});

describe("the map's keys: one list for the overlay, the handler and the canvas's description", () => {
  it("the overlay's Map group is that list, each entry once; the description says each of them", () => {
    const group = SHORTCUTS.find((g) => g.title === "Map")!;
    expect(group.shortcuts).toEqual(MAP_SHORTCUTS);
    for (const row of MAP_KEYMAP) expect(MAP_SHORTCUTS).toContainEqual({ keys: row.bindings.map((b) => b.combo), action: row.description });
    for (const s of MAP_SHORTCUTS) expect(MAP_KEYS_TEXT).toContain(`: ${s.action}.`);
    expect(MAP_SHORTCUTS.map((s) => s.keys)).toContainEqual([["Shift", "drag"]]);
    expect(MAP_SHORTCUTS.map((s) => s.keys)).toContainEqual([["Shift", "Tab"]]);
    expect(MAP_KEYS_TEXT).toContain("Control+A (Command+A on a Mac): Select every point.");
  });

  it("a map key is taken with exactly its modifiers: none more (Ctrl or ⌘ only for Mod+A)", () => {
    for (const b of MAP_KEYMAP.flatMap((r) => r.bindings)) {
      const press = pressOf(b.combo);
      expect(actionFor(MAP_KEYMAP, press)).toBe(b.action);
      for (const extra of ["ctrlKey", "metaKey", "altKey", "shiftKey"] as const) {
        if (press[extra] || (extra === "metaKey" && press.ctrlKey)) continue;
        expect(actionFor(MAP_KEYMAP, { ...press, [extra]: true }), `${b.combo.join("+")} with ${extra}`).toBeNull();
      }
    }
    expect(actionFor(MAP_KEYMAP, { ...pressOf(["A"]), metaKey: true })).toBe("selectAll");
  });
});

