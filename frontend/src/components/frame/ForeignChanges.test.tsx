import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { fakeApi } from "../../test/fakeApi";
import { ForeignChanges } from "./ForeignChanges";
import { ApiProvider, type ForeignChange } from "../../api";

const changed: ForeignChange = { name: "mcp-tokens.json", path: "/cfg/mcp-tokens.json", what: "changed", canRevert: true, sealedAt: "2026-12-07T09:00:00Z" };
const unsealed: ForeignChange = { name: "settings.json", path: "/cfg/settings.json", what: "unsealed", canRevert: false, sealedAt: "" };

function setup(initial: ForeignChange[]) {
  let list = [...initial];
  const api = fakeApi(async () => []);
  const revert = vi.fn(async (name: string) => void (list = list.filter((c) => c.name !== name)));
  const accept = vi.fn(async (name: string) => void (list = list.filter((c) => c.name !== name)));
  api.settings = { ...api.settings, foreignChanges: async () => list, revertForeignChange: revert, acceptForeignChange: accept };
  render(
    <ApiProvider api={api}>
      <ForeignChanges />
    </ApiProvider>,
  );
  return { revert, accept };
}

describe("ForeignChanges", () => {
  it("shows nothing when no policy file was changed by another program", async () => {
    setup([]);
    await new Promise((r) => setTimeout(r, 10));
    expect(screen.queryByRole("dialog")).toBeNull();
  });

  it("names each changed file and what it holds, and reverting one asks the backend and reads the list again", async () => {
    const { revert } = setup([changed, unsealed]);
    expect(await screen.findByText("Files changed by another program")).toBeTruthy();
    expect(screen.getByText(/the AI clients' tokens and their levels/)).toBeTruthy();
    const reverts = screen.getAllByRole("button", { name: "Revert to App's version" });
    // App has no version of its own of an unsealed file: only accept is offered.
    expect((reverts[1] as HTMLButtonElement).disabled).toBe(true);
    await userEvent.click(reverts[0]);
    expect(revert).toHaveBeenCalledWith("mcp-tokens.json");
    await waitFor(() => expect(screen.queryByText("mcp-tokens.json")).toBeNull());
    expect(screen.getByText("settings.json")).toBeTruthy();
  });

  it("accepting the last change closes the dialog", async () => {
    const { accept } = setup([unsealed]);
    await userEvent.click(await screen.findByRole("button", { name: "Accept the change" }));
    expect(accept).toHaveBeenCalledWith("settings.json");
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
  });
});
