import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { ApiProvider, type PairingRequest } from "../../api";
import { fakeApi } from "../../test/fakeApi";
import { PairingSettings } from "./PairingSettings";

describe("Settings, Connect a client (issue 11)", () => {
  it("connects the chosen client: the configuration holds the token and has a copy button", async () => {
    const copy = vi.fn(async () => {});
    render(
      <ApiProvider api={fakeApi(async () => [], {}, { copy })}>
        <PairingSettings />
      </ApiProvider>,
    );
    await userEvent.selectOptions(await screen.findByLabelText("Client"), "other");
    await userEvent.click(screen.getByRole("button", { name: "Connect Other" }));
    const shown = await screen.findByRole("status", { name: "Client configuration" });
    expect(shown).toHaveTextContent('"Authorization":"Bearer app_secret"');
    await userEvent.click(screen.getByRole("button", { name: "Copy configuration" }));
    await waitFor(() => expect(copy).toHaveBeenCalledWith(expect.stringContaining("Bearer app_secret")));
  });

  it("offers to write the client's own file, and says where it wrote", async () => {
    render(
      <ApiProvider api={fakeApi(async () => [])}>
        <PairingSettings />
      </ApiProvider>,
    );
    await userEvent.click(await screen.findByRole("checkbox", { name: /Write it into \/home\/me\/.cursor\/mcp.json/ }));
    await userEvent.click(screen.getByRole("button", { name: "Connect Cursor" }));
    expect(await screen.findByRole("status", { name: "Client configuration" })).toHaveTextContent("Written into /home/me/.cursor/mcp.json");
  });

  it("Claude Desktop gets the stdio bridge: the choice is made and cannot be undone", async () => {
    const connect = vi.fn(async (req: PairingRequest) => ({
      json: "{}",
      file: "",
      note: "",
      token: { id: "t1", name: "Claude Desktop", level: req.level, connections: [], expiresAt: "", createdAt: "", lastUsedAt: "", expired: false },
      written: "",
      backup: "",
      declined: false,
    }));
    render(
      <ApiProvider api={fakeApi(async () => [], {}, { pairing: { connect } })}>
        <PairingSettings />
      </ApiProvider>,
    );
    await userEvent.selectOptions(await screen.findByLabelText("Client"), "claude-desktop");
    const bridge = screen.getByRole("checkbox", { name: /Through the stdio bridge app-mcp/ });
    expect(bridge).toBeChecked();
    expect(bridge).toBeDisabled();
    await userEvent.click(screen.getByRole("button", { name: "Connect Claude Desktop" }));
    await waitFor(() => expect(connect).toHaveBeenCalledWith(expect.objectContaining({ client: "claude-desktop", stdio: true })));
  });

  it("another client may ask for the stdio bridge", async () => {
    const connect = vi.fn(async (req: PairingRequest) => ({
      json: "{}",
      file: "",
      note: "",
      token: { id: "t1", name: "Cursor", level: req.level, connections: [], expiresAt: "", createdAt: "", lastUsedAt: "", expired: false },
      written: "",
      backup: "",
      declined: false,
    }));
    render(
      <ApiProvider api={fakeApi(async () => [], {}, { pairing: { connect } })}>
        <PairingSettings />
      </ApiProvider>,
    );
    await userEvent.click(await screen.findByRole("checkbox", { name: /Through the stdio bridge app-mcp/ }));
    await userEvent.click(screen.getByRole("button", { name: "Connect Cursor" }));
    await waitFor(() => expect(connect).toHaveBeenCalledWith(expect.objectContaining({ client: "cursor", stdio: true })));
  });

});
