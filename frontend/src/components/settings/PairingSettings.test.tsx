import { render, screen, waitFor, within } from "@testing-library/react";
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
      text: "{}",
      format: "json",
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
      text: "{}",
      format: "json",
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

  it("lists every client with its file, its format and the check that proves it (issue 41)", async () => {
    render(
      <ApiProvider api={fakeApi(async () => [])}>
        <PairingSettings />
      </ApiProvider>,
    );
    const table = await screen.findByRole("table", { name: "Clients the app configures" });
    const codex = within(table).getByRole("row", { name: "Codex" });
    expect(codex).toHaveTextContent("/home/me/.codex/config.toml (TOML)");
    expect(codex).toHaveTextContent("codex mcp get app --json");
    expect(codex).toHaveTextContent("configured");
    expect(within(table).getByRole("row", { name: "Claude Code (this project)" })).toHaveTextContent(".mcp.json in the project folder");
    await userEvent.click(within(codex).getByRole("button", { name: "Codex" }));
    expect(screen.getByLabelText("Client")).toHaveValue("codex");
  });

  it("a project's file asks for the folder and no token level; it is written without a token", async () => {
    const connect = vi.fn(async (req: PairingRequest) => ({
      text: '{"mcpServers":{"app":{"type":"stdio","command":"app-mcp","args":[]}}}',
      format: "json",
      file: `${req.project}/.mcp.json`,
      note: "",
      token: null,
      written: `${req.project}/.mcp.json`,
      backup: "",
      declined: false,
    }));
    render(
      <ApiProvider api={fakeApi(async () => [], {}, { pairing: { connect } })}>
        <PairingSettings />
      </ApiProvider>,
    );
    await userEvent.selectOptions(await screen.findByLabelText("Client"), "claude-code-project");
    expect(screen.queryByLabelText("Level")).not.toBeInTheDocument();
    await userEvent.type(screen.getByLabelText("Project folder"), "/src/shop");
    await userEvent.click(screen.getByRole("checkbox", { name: /Write it into \/src\/shop\/.mcp.json/ }));
    await userEvent.click(screen.getByRole("button", { name: "Connect Claude Code (this project)" }));
    await waitFor(() => expect(connect).toHaveBeenCalledWith(expect.objectContaining({ project: "/src/shop", write: true })));
    const shown = await screen.findByRole("status", { name: "Client configuration" });
    expect(shown).toHaveTextContent("No token: this file is shared.");
    expect(shown).toHaveTextContent("Written into /src/shop/.mcp.json");
  });

  it("Remove takes the app's server out of a configured client's file and names the revoked token", async () => {
    const remove = vi.fn(async () => ({ file: "/home/me/.codex/config.toml", backup: "/home/me/.codex/config.toml.bak-1", revoked: "Codex 2026-12-06", declined: false }));
    const onTokensChanged = vi.fn();
    render(
      <ApiProvider api={fakeApi(async () => [], {}, { pairing: { remove } })}>
        <PairingSettings onTokensChanged={onTokensChanged} />
      </ApiProvider>,
    );
    await userEvent.selectOptions(await screen.findByLabelText("Client"), "codex");
    await userEvent.click(screen.getByRole("button", { name: "Remove from Codex" }));
    const said = await screen.findByRole("status", { name: "Client removed" });
    expect(said).toHaveTextContent("Removed the app's server from /home/me/.codex/config.toml (backup: /home/me/.codex/config.toml.bak-1).");
    expect(said).toHaveTextContent("The token Codex 2026-12-06 it held is revoked.");
    expect(remove).toHaveBeenCalledWith({ client: "codex", project: "" });
    expect(onTokensChanged).toHaveBeenCalled();
  });

  it("an unconfigured client offers no Remove", async () => {
    render(
      <ApiProvider api={fakeApi(async () => [])}>
        <PairingSettings />
      </ApiProvider>,
    );
    await screen.findByRole("button", { name: "Connect Cursor" });
    expect(screen.queryByRole("button", { name: /Remove from/ })).not.toBeInTheDocument();
  });
});
