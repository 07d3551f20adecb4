import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { ApiProvider, type ConnectedClient } from "../../api";
import { fakeApi } from "../../test/fakeApi";
import { ClientsSettings, tokenText } from "./ClientsSettings";

const cursor: ConnectedClient = {
  name: "Cursor",
  version: "1.7",
  principal: "token:t1",
  tokenName: "cursor",
  level: "readWrite",
  firstSeen: "2026-11-23T10:00:00Z",
  lastSeen: "2026-11-23T10:05:00Z",
  requests: 12,
  errors: 1,
};
const curl: ConnectedClient = { ...cursor, name: "curl", version: "", principal: "anonymous", tokenName: "", level: "" };

describe("Settings, Connected clients (issue 11)", () => {
  it("lists each client with its token, times and counts; disconnect goes through the backend's dialog", async () => {
    let list = [cursor, curl];
    const disconnect = vi.fn(async () => {
      list = [curl];
      return true;
    });
    render(
      <ApiProvider api={fakeApi(async () => [], {}, { clients: { recent: async () => list, disconnect } })}>
        <ClientsSettings />
      </ApiProvider>,
    );
    const row = await screen.findByRole("row", { name: "Cursor" });
    expect(row).toHaveTextContent("cursor (readWrite)");
    expect(row).toHaveTextContent("10:05:00");
    expect(row).toHaveTextContent("12");
    const anon = screen.getByRole("row", { name: "curl" });
    expect(tokenText({ ...cursor, principal: "" })).toBe("no valid token (refused)");
    expect(anon).toHaveTextContent("anonymous");
    expect(within(anon).queryByRole("button")).not.toBeInTheDocument();
    await userEvent.click(within(row).getByRole("button", { name: "Disconnect Cursor" }));
    expect(disconnect).toHaveBeenCalledWith("token:t1", "Cursor");
    await vi.waitFor(() => expect(screen.queryByRole("row", { name: "Cursor" })).not.toBeInTheDocument());
  });

  it("says so when no client called lately", async () => {
    render(
      <ApiProvider api={fakeApi(async () => [])}>
        <ClientsSettings />
      </ApiProvider>,
    );
    expect(await screen.findByText("No AI client called in the last 15 minutes.")).toBeInTheDocument();
  });
});
