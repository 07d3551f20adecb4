import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { ApiError, ApiProvider } from "../../api";
import { connection, fakeApi } from "../../test/fakeApi";
import { SettingsPanel } from "./SettingsPanel";
import { TokensSettings } from "./TokensSettings";

function renderTokens(more: Parameters<typeof fakeApi>[2] = {}) {
  const api = fakeApi(async () => [], {}, more);
  render(
    <ApiProvider api={api}>
      <TokensSettings connections={[connection({ id: "c1", name: "Local" }), connection({ id: "c2", name: "Cloud" })]} />
    </ApiProvider>,
  );
  return api;
}

describe("Settings, MCP tokens (issue 11)", () => {
  it("creates a token limited to a connection, shows it once with a copy button, and lists it without the secret", async () => {
    const copy = vi.fn(async () => {});
    renderTokens({ copy });
    expect(await screen.findByText("No tokens yet.")).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText("Token name"), "claude");
    await userEvent.selectOptions(screen.getByLabelText("Level"), "readWrite");
    await userEvent.click(screen.getByRole("checkbox", { name: "Cloud" }));
    await userEvent.click(screen.getByRole("button", { name: "Create token" }));
    const shown = await screen.findByRole("status", { name: "New token" });
    expect(shown).toHaveTextContent("app_secret1");
    await userEvent.click(within(shown).getByRole("button", { name: "Copy token" }));
    expect(copy).toHaveBeenCalledWith("app_secret1");
    expect(within(shown).getByRole("button", { name: "Copied" })).toBeInTheDocument();
    const row = screen.getByRole("row", { name: "claude" });
    expect(row).toHaveTextContent("readWrite");
    expect(row).toHaveTextContent("Cloud");
    expect(row).not.toHaveTextContent("app_secret1");
    await userEvent.click(within(shown).getByRole("button", { name: "Done" }));
    expect(screen.queryByText("app_secret1")).not.toBeInTheDocument();
  });

  it("a token made by Connect a client is listed, and the secret shown once here stays on screen", async () => {
    const api = fakeApi(async () => [], {}, {});
    const pair = api.pairing.connect;
    api.pairing.connect = async (req) => {
      await api.tokens.create({ name: "Other", level: req.level, connections: [], expires: "" });
      return pair(req);
    };
    render(
      <ApiProvider api={api}>
        <SettingsPanel preference="light" onChoose={() => {}} connections={[connection({ id: "c1", name: "Local" })]} />
      </ApiProvider>,
    );
    await userEvent.click(screen.getByRole("tab", { name: "Tokens" }));
    await screen.findByText("No tokens yet.");
    await userEvent.type(screen.getByLabelText("Token name"), "claude");
    await userEvent.click(screen.getByRole("button", { name: "Create token" }));
    expect(await screen.findByRole("status", { name: "New token" })).toHaveTextContent("app_secret1");
    // Connect a client is under Clients; the Tokens section keeps what it showed meanwhile.
    await userEvent.click(screen.getByRole("tab", { name: "Clients" }));
    const pairing = screen.getByRole("group", { name: "Connect a client" });
    await userEvent.selectOptions(await within(pairing).findByLabelText("Client"), "other");
    await userEvent.click(screen.getByRole("button", { name: "Connect Other" }));
    await screen.findByRole("status", { name: "Client configuration" });
    await userEvent.click(screen.getByRole("tab", { name: "Tokens" }));
    expect(await screen.findByRole("row", { name: "Other" })).toBeInTheDocument();
    expect(screen.getByRole("status", { name: "New token" })).toHaveTextContent("app_secret1");
  });

  it("revoke removes the token only when the native dialog says yes", async () => {
    const revoke = vi.fn(async () => false);
    renderTokens({ tokens: { revoke } });
    await screen.findByText("No tokens yet.");
    await userEvent.type(screen.getByLabelText("Token name"), "cursor");
    await userEvent.click(screen.getByRole("button", { name: "Create token" }));
    await userEvent.click(await screen.findByRole("button", { name: "Revoke cursor" }));
    expect(revoke).toHaveBeenCalledWith("t1");
    expect(screen.getByRole("row", { name: "cursor" })).toBeInTheDocument();
  });

  it("a refused create says why beside the form", async () => {
    renderTokens({
      tokens: {
        create: async () => {
          throw new ApiError("invalid_argument", 'create token: a token named "claude" already exists');
        },
      },
    });
    await screen.findByText("No tokens yet.");
    await userEvent.type(screen.getByLabelText("Token name"), "claude");
    await userEvent.click(screen.getByRole("button", { name: "Create token" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("already exists");
  });
});
