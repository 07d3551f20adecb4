import { render, screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { actionFor, dispatch, pressOf, type Actions } from "../help/keymap";
import { keysText, SHORTCUTS } from "../help/shortcuts";
import { ShortcutsOverlay } from "../help/ShortcutsHelp";
import { GRID_KEYMAP, type GridAction } from "./gridKeymap";

const bindings = GRID_KEYMAP.flatMap((row) => row.bindings);

function spies() {
  const actions = Object.fromEntries(bindings.map((b) => [b.action, vi.fn()])) as unknown as Actions<GridAction> & Record<GridAction, ReturnType<typeof vi.fn>>;
  return actions;
}

describe("the grid's keymap: one table for the handler and the help overlay", () => {
  it("every row of it is in the help overlay's Grid group, with its keys", () => {
    render(<ShortcutsOverlay onClose={() => {}} />);
    const group = screen.getByRole("region", { name: /^Grid/ });
    for (const row of GRID_KEYMAP) {
      const action = within(group).getByText(row.description);
      const keys = action.closest(".help-list__row")?.querySelector("dt");
      expect(keys).toHaveAttribute("aria-label", keysText(row.bindings.map((b) => b.combo)));
    }
    const grid = SHORTCUTS.find((g) => g.title === "Grid")!;
    expect(grid.shortcuts.slice(0, GRID_KEYMAP.length).map((s) => s.action)).toEqual(GRID_KEYMAP.map((r) => r.description));
  });

  it.each(bindings.map((b) => [b.combo.join("+"), b.action] as const))("%s dispatches %s, and nothing else", (combo, action) => {
    const actions = spies();
    expect(dispatch(GRID_KEYMAP, actions, pressOf(combo.split("+")))).toBe(true);
    expect(actions[action]).toHaveBeenCalledTimes(1);
    for (const [name, fn] of Object.entries(actions)) if (name !== action) expect(fn).not.toHaveBeenCalled();
  });

  it("an action that declines the key leaves it unhandled", () => {
    const actions = spies();
    actions.copy.mockReturnValue(false);
    expect(dispatch(GRID_KEYMAP, actions, pressOf(["Mod", "C"]))).toBe(false);
  });

  it("extra modifiers pass as they always did, but not a forbidden one; the most specific binding wins", () => {
    expect(actionFor(GRID_KEYMAP, { ...pressOf(["↓"]), ctrlKey: true })).toBe("down");
    expect(actionFor(GRID_KEYMAP, { ...pressOf(["↓"]), shiftKey: true })).toBe("extendDown");
    expect(actionFor(GRID_KEYMAP, { ...pressOf(["Mod", "S"]), shiftKey: true })).toBe("commit");
    expect(actionFor(GRID_KEYMAP, { ...pressOf(["Mod", "Z"]), shiftKey: true })).toBeNull();
    expect(actionFor(GRID_KEYMAP, { key: "C", ctrlKey: false, metaKey: true, altKey: false, shiftKey: true })).toBe("copyJSON");
    expect(actionFor(GRID_KEYMAP, pressOf(["C"]))).toBeNull();
  });
});
