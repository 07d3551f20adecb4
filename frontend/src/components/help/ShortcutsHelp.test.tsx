import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { ApiProvider } from "../../api";
import { App } from "../../App";
import { connection, fakeApi } from "../../test/fakeApi";
import { SHORTCUTS } from "./shortcuts";
import { ShortcutsOverlay, useShortcutsHelp } from "./ShortcutsHelp";

/** A page with a text field, a textarea, a button and the overlay, as the window has them. */
function Page() {
  const help = useShortcutsHelp();
  return (
    <div>
      <label>
        Name <input type="text" />
      </label>
      <label>
        Query <textarea />
      </label>
      <div className="cm-editor">
        <div className="cm-content" contentEditable suppressContentEditableWarning role="textbox" aria-label="Editor">
          x
        </div>
      </div>
      <button type="button">Somewhere</button>
      <button type="button" onClick={help.show}>
        Show shortcuts
      </button>
      {help.open && <ShortcutsOverlay onClose={help.close} />}
    </div>
  );
}

const dialog = () => screen.queryByRole("dialog", { name: "Keyboard shortcuts" });

describe("the keyboard shortcuts overlay (issue 14: keyboard shortcuts listed in a help overlay)", () => {
  it("? opens it, modal, with every group of shortcuts.ts", async () => {
    render(<Page />);
    await userEvent.click(screen.getByRole("button", { name: "Somewhere" }));
    await userEvent.keyboard("?");
    const d = dialog();
    expect(d).toBeInTheDocument();
    expect(d).toHaveAttribute("aria-modal", "true");
    for (const g of SHORTCUTS) {
      expect(within(d!).getByRole("heading", { level: 3, name: new RegExp(`^${g.title}`) })).toBeInTheDocument();
      for (const s of g.shortcuts) expect(within(d!).getAllByText(s.action).length).toBeGreaterThan(0);
    }
    expect(within(d!).getByText("Set the selected cell to NULL (pending)")).toBeInTheDocument();
    expect(within(d!).getByText("Run the statement under the cursor (or the selection)")).toBeInTheDocument();
  });

  it("F1 opens it, also from a text field", async () => {
    render(<Page />);
    await userEvent.click(screen.getByRole("textbox", { name: "Name" }));
    await userEvent.keyboard("{F1}");
    expect(dialog()).toBeInTheDocument();
  });

  it.each([
    ["a text field", "Name"],
    ["a textarea", "Query"],
    ["the query editor", "Editor"],
  ])("? typed in %s is a character, not the overlay", async (_what, name) => {
    render(<Page />);
    const field = screen.getByRole("textbox", { name });
    await userEvent.click(field);
    await userEvent.keyboard("?");
    expect(dialog()).not.toBeInTheDocument();
    if (name !== "Editor") expect(field).toHaveValue("?");
  });

  it("Escape closes it and focus returns to where it was", async () => {
    render(<Page />);
    const somewhere = screen.getByRole("button", { name: "Somewhere" });
    await userEvent.click(somewhere);
    await userEvent.keyboard("?");
    expect(dialog()).toContainElement(document.activeElement as HTMLElement);
    await userEvent.keyboard("{Escape}");
    expect(dialog()).not.toBeInTheDocument();
    expect(somewhere).toHaveFocus();
  });

  it("Tab and Shift+Tab stay inside while it is open; the window's other shortcuts wait", async () => {
    const other = vi.fn();
    window.addEventListener("keydown", other);
    render(<Page />);
    await userEvent.click(screen.getByRole("button", { name: "Show shortcuts" }));
    const d = dialog()!;
    for (let i = 0; i < 5; i++) {
      await userEvent.tab();
      expect(d).toContainElement(document.activeElement as HTMLElement);
    }
    for (let i = 0; i < 5; i++) {
      await userEvent.tab({ shift: true });
      expect(d).toContainElement(document.activeElement as HTMLElement);
    }
    await userEvent.keyboard("{Control>}n{/Control}");
    expect(other).not.toHaveBeenCalled();
    await userEvent.click(within(d).getByRole("button", { name: "Close" }));
    expect(dialog()).not.toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Show shortcuts" })).toHaveFocus();
    window.removeEventListener("keydown", other);
  });

  it("the header's Keyboard shortcuts button opens it in the window, and Escape gives focus back to the button", async () => {
    const api = fakeApi(async () => [connection({ id: "a", name: "Local Weaviate" })]);
    render(
      <ApiProvider api={api}>
        <App />
      </ApiProvider>,
    );
    await screen.findByRole("tree");
    const button = within(screen.getByRole("banner")).getByRole("button", { name: "Keyboard shortcuts" });
    await userEvent.click(button);
    expect(dialog()).toBeInTheDocument();
    // Ctrl+N would open a tab behind the overlay; it waits.
    await userEvent.keyboard("{Control>}n{/Control}");
    expect(screen.queryByRole("tab", { name: "New connection" })).not.toBeInTheDocument();
    await userEvent.keyboard("{Escape}");
    expect(dialog()).not.toBeInTheDocument();
    expect(button).toHaveFocus();
    // ? from the connection tree opens it too.
    await userEvent.click(screen.getByRole("tree"));
    await userEvent.keyboard("?");
    expect(dialog()).toBeInTheDocument();
  });
});
