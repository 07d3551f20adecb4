import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { ApiProvider } from "../../api";
import { fakeApi } from "../../test/fakeApi";
import { SettingsPanel } from "./SettingsPanel";

function renderSettings() {
  render(
    <ApiProvider api={fakeApi(async () => [])}>
      <SettingsPanel preference="system" onChoose={() => {}} />
    </ApiProvider>,
  );
}

describe("SettingsPanel", () => {
  it("lists its sections and shows the chosen one only, General first", async () => {
    renderSettings();
    const tabs = screen.getAllByRole("tab").map((t) => t.textContent);
    expect(tabs).toEqual(["General", "MCP server", "Clients", "Tokens", "Activity", "Plugins"]);
    expect(screen.getByRole("tab", { name: "General" })).toHaveAttribute("aria-selected", "true");
    expect(screen.getByRole("radiogroup", { name: "Theme" })).toBeInTheDocument();
    expect(screen.queryByRole("group", { name: "Plugins" })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole("tab", { name: "Plugins" }));
    expect(screen.getByRole("tab", { name: "Plugins" })).toHaveAttribute("aria-selected", "true");
    expect(screen.getByRole("group", { name: "Plugins" })).toBeInTheDocument();
    expect(screen.queryByRole("radiogroup", { name: "Theme" })).not.toBeInTheDocument();
  });

  it("the arrows, Home and End move through the sections, and Tab reaches the chosen one only", async () => {
    renderSettings();
    await userEvent.tab();
    expect(screen.getByRole("tab", { name: "General" })).toHaveFocus();
    await userEvent.keyboard("{ArrowDown}");
    expect(screen.getByRole("tab", { name: "MCP server" })).toHaveFocus();
    expect(screen.getByRole("tabpanel", { name: "MCP server" })).toBeInTheDocument();
    await userEvent.keyboard("{End}");
    expect(screen.getByRole("tab", { name: "Plugins" })).toHaveAttribute("aria-selected", "true");
    await userEvent.keyboard("{ArrowDown}");
    expect(screen.getByRole("tab", { name: "General" })).toHaveFocus();
    await userEvent.keyboard("{ArrowUp}");
    expect(screen.getByRole("tab", { name: "Plugins" })).toHaveFocus();
    await userEvent.keyboard("{Home}");
    expect(screen.getByRole("tab", { name: "General" })).toHaveAttribute("aria-selected", "true");
    expect(screen.getAllByRole("tab").filter((t) => t.tabIndex === 0)).toHaveLength(1);
  });
});
