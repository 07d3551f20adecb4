import { act, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { ApiError, ApiProvider } from "./api";
import { App } from "./App";
import type { ConnectionState, Layout } from "./api";
import { connection, deferred, emptyLayout, fakeApi, fakeSettings, weaviateCapabilities } from "./test/fakeApi";

function renderApp(more: Parameters<typeof fakeApi>[2] = {}) {
  const api = fakeApi(
    async () => [connection({ id: "a", name: "Local Weaviate" }), connection({ id: "b", name: "Staging", port: 8081 })],
    {},
    more,
  );
  render(
    <ApiProvider api={api}>
      <App />
    </ApiProvider>,
  );
  return api;
}

describe("App shell", () => {
  it("has a header with the app name, the connection sidebar and a welcome panel", async () => {
    renderApp();
    expect(screen.getByRole("heading", { level: 1, name: "App" })).toBeInTheDocument();
    expect(await screen.findByRole("tree", { name: "Saved connections" })).toBeInTheDocument();
    expect(screen.getByText("Welcome to App")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: /Settings/ })).toBeInTheDocument();
  });

  it("Enter opens the selected connection in a tab; closing the tab returns to the welcome panel", async () => {
    renderApp();
    await screen.findByRole("tree");
    await userEvent.keyboard("{ArrowDown}{Enter}");
    expect(screen.getByRole("tab", { name: "Staging" })).toHaveAttribute("aria-selected", "true");
    expect(screen.getByRole("heading", { level: 2, name: "Staging" })).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Close Staging" }));
    expect(screen.queryByRole("tab")).not.toBeInTheDocument();
    expect(screen.getByText("Welcome to App")).toBeInTheDocument();
  });

  it("the theme toggle cycles and sets <html data-theme>; Settings can choose it too", async () => {
    renderApp();
    await screen.findByRole("tree");
    const toggle = screen.getByRole("button", { name: /System theme/ });
    await userEvent.click(toggle);
    expect(document.documentElement.dataset.theme).toBe("light");
    await userEvent.click(screen.getByRole("button", { name: /Light theme/ }));
    expect(document.documentElement.dataset.theme).toBe("dark");
    expect(window.localStorage.getItem("app.theme")).toBe("dark");

    await userEvent.keyboard("{Control>},{/Control}");
    expect(screen.getByRole("tab", { name: "Settings" })).toBeInTheDocument();
    await userEvent.click(screen.getByRole("radio", { name: "Light" }));
    expect(document.documentElement.dataset.theme).toBe("light");
  });

  it("Settings keeps the section last shown while its tab is away; Re-pair in Settings opens MCP server", async () => {
    const base = await fakeSettings().mcp();
    renderApp({
      settings: {
        mcp: async () => ({ ...base, staleClients: [{ client: "cursor", title: "Cursor", file: "/home/me/.cursor/mcp.json", url: "http://127.0.0.1:23817/mcp" }] }),
      },
    });
    await screen.findByRole("tree");
    await userEvent.keyboard("{Control>},{/Control}");
    expect(screen.getByRole("tab", { name: "General" })).toHaveAttribute("aria-selected", "true");
    await userEvent.click(screen.getByRole("tab", { name: "Plugins" }));
    await userEvent.keyboard("{Control>}n{/Control}");
    await userEvent.click(screen.getByRole("tab", { name: "Settings" }));
    expect(screen.getByRole("tab", { name: "Plugins" })).toHaveAttribute("aria-selected", "true");
    await userEvent.click(await screen.findByRole("button", { name: "Re-pair in Settings" }));
    expect(screen.getByRole("tab", { name: "MCP server" })).toHaveAttribute("aria-selected", "true");
    expect(screen.getByRole("tabpanel", { name: "MCP server" })).toBeVisible();
  });

  it("New connection opens the connection-type chooser from the sidebar, the welcome panel and Ctrl+N", async () => {
    renderApp();
    await screen.findByRole("tree");
    await userEvent.click(within(screen.getByRole("navigation", { name: "Connections" })).getByRole("button", { name: "New connection" }));
    expect(screen.getByRole("tab", { name: "New connection" })).toHaveAttribute("aria-selected", "true");
    expect(screen.getByRole("list", { name: "Database types" })).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Close New connection" }));
    await userEvent.click(within(screen.getByRole("region", { name: "Welcome" })).getByRole("button", { name: "New connection" }));
    expect(screen.getByRole("list", { name: "Database types" })).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Close New connection" }));
    await userEvent.keyboard("{Control>}n{/Control}");
    expect(screen.getByRole("list", { name: "Database types" })).toBeInTheDocument();
  });

  it("Delete on a connection row asks the backend's native dialog; a No keeps it, a Yes removes it and its tabs", async () => {
    const remove = vi.fn(async () => false);
    renderApp({ connections: { remove } });
    await screen.findByRole("tree");
    await userEvent.keyboard("{Enter}");
    expect(screen.getByRole("tab", { name: "Local Weaviate" })).toBeInTheDocument();
    await userEvent.click(screen.getByRole("tree"));
    await userEvent.keyboard("{Delete}");
    expect(remove).toHaveBeenCalledWith("a");
    expect(screen.getByRole("tab", { name: "Local Weaviate" })).toBeInTheDocument();
    remove.mockResolvedValue(true);
    await userEvent.keyboard("{Delete}");
    await vi.waitFor(() => expect(screen.queryByRole("tab", { name: "Local Weaviate" })).not.toBeInTheDocument());
  });

  it("F2 on a connection row opens its edit form with the saved values", async () => {
    renderApp();
    await screen.findByRole("tree");
    await userEvent.click(screen.getByRole("tree"));
    await userEvent.keyboard("{F2}");
    expect(screen.getByRole("tab", { name: "Edit Local Weaviate" })).toBeInTheDocument();
    expect(await screen.findByRole("textbox", { name: "Name" })).toHaveValue("Local Weaviate");
  });

  it("Ctrl+E on a connection row connects it and opens its query editor (issue 14)", async () => {
    const api = renderApp();
    const connect = vi.spyOn(api.explorer, "connect");
    await screen.findByRole("tree");
    await userEvent.click(screen.getByRole("tree"));
    await userEvent.keyboard("{Control>}e{/Control}");
    expect(screen.getByRole("tab", { name: "Query · Local Weaviate" })).toHaveAttribute("aria-selected", "true");
    expect(connect).toHaveBeenCalledWith("a");
    expect(await screen.findByRole("region", { name: "Query Local Weaviate" })).toBeInTheDocument();
  });

  it("a saved connection waiting for its plugin shows the download in its sidebar entry", async () => {
    const api = renderApp({});
    await screen.findByRole("tree");
    api.explorer.connect = () => new Promise(() => {});
    await userEvent.keyboard("{Enter}");
    act(() => api.emitProgress({ plugin: "weaviate", version: "1.0.0", done: 1, total: 4, connectionId: "a", fromMirror: false }));
    expect(await screen.findByRole("progressbar", { name: "Installing the Weaviate driver" })).toHaveAttribute("aria-valuenow", "25");
    // Issue 20: the sidebar says when the package's own mirror serves the download.
    expect(screen.getByText(/Installing the Weaviate driver 1\.0\.0 · 25%/)).toBeInTheDocument();
    act(() => api.emitProgress({ plugin: "weaviate", version: "1.0.0", done: 2, total: 4, connectionId: "a", fromMirror: true }));
    expect(await screen.findByText(/Installing the Weaviate driver 1\.0\.0 from the app's own copy · 50%/)).toBeInTheDocument();
  });
});

describe("the layout is remembered (issue 14, Everywhere)", () => {
  function remembered(layout: Layout, more: Parameters<typeof fakeApi>[2] = {}) {
    const saveLayout = vi.fn(async (_l: Layout) => {});
    const api = renderApp({ layout: { layout: async () => structuredClone(layout), saveLayout }, ...more });
    return { api, saveLayout };
  }

  it("reopens the remembered tabs whose connection still exists, connected first, and makes the remembered one active", async () => {
    const { api } = remembered(
      emptyLayout({
        tabs: [
          { kind: "connection", connectionId: "a", table: "" },
          { kind: "table", connectionId: "a", table: "Article" },
          { kind: "editor", connectionId: "deleted", table: "" },
          { kind: "table", connectionId: "deleted", table: "Article" },
          { kind: "table", connectionId: "b", table: "DroppedCollection" },
          { kind: "editor", connectionId: "b", table: "" },
          { kind: "settings", connectionId: "", table: "" },
        ],
        active: "editor:b",
      }),
    );
    const connect = vi.spyOn(api.explorer, "connect");
    expect(await screen.findByRole("tab", { name: "Query · Staging" })).toHaveAttribute("aria-selected", "true");
    // The deleted connection's tabs and the table that no longer exists are dropped quietly.
    expect(screen.getByRole("tab", { name: "Local Weaviate" })).toBeInTheDocument();
    expect(screen.getByRole("tab", { name: "Article" })).toBeInTheDocument();
    expect(screen.getByRole("tab", { name: "Settings" })).toBeInTheDocument();
    expect(screen.getAllByRole("tab")).toHaveLength(4);
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
    expect(connect).not.toHaveBeenCalledWith("deleted");
  });

  it("the restored active table's connection is expanded in the sidebar, with that table marked open", async () => {
    remembered(
      emptyLayout({
        tabs: [
          { kind: "connection", connectionId: "b", table: "" },
          { kind: "table", connectionId: "a", table: "Article" },
        ],
        active: "table:a:Article",
      }),
    );
    expect(await screen.findByRole("tab", { name: "Article" })).toHaveAttribute("aria-selected", "true");
    const tree = screen.getByRole("tree");
    const local = within(tree).getByRole("treeitem", { name: /Local Weaviate/ });
    await waitFor(() => expect(local).toHaveAttribute("aria-expanded", "true"));
    expect(within(local).getByRole("treeitem", { name: "Article" })).toHaveAttribute("aria-current", "page");
    // Only the active tab's connection: Staging's tab is open but not active.
    expect(within(tree).getByRole("treeitem", { name: /Staging/ })).toHaveAttribute("aria-expanded", "false");
  });

  it("issue 25: after a commit adds a row, the sidebar's row count follows the grid", async () => {
    let rows = 10;
    const tableCounts = vi.fn(async () => [
      { name: "Author", count: 4, estimated: false, message: "" },
      { name: "Article", count: rows, estimated: false, message: "" },
    ]);
    const api = fakeApi(async () => [connection({ id: "a", name: "Local Weaviate" })], { tableCounts }, {
      layout: { layout: async () => emptyLayout({ tabs: [{ kind: "table", connectionId: "a", table: "Article" }], active: "table:a:Article" }), saveLayout: async () => {} },
    });
    render(
      <ApiProvider api={api}>
        <App />
      </ApiProvider>,
    );
    const tree = await screen.findByRole("tree");
    const article = await within(tree).findByRole("treeitem", { name: "Article" });
    await waitFor(() => expect(article).toHaveTextContent(/Article\s*10$/));
    await screen.findByText("Rows 1–2 of 2");
    await userEvent.click(screen.getByRole("button", { name: "+ Add row" }));
    rows = 11;
    const bar = await screen.findByRole("region", { name: "Pending changes" });
    await userEvent.click(within(bar).getByRole("button", { name: "Commit" }));
    await waitFor(() => expect(article).toHaveTextContent(/Article\s*11$/));
  });

  it("skips the tabs of a connection that cannot connect and keeps the rest", async () => {
    const layout = emptyLayout({
      tabs: [
        { kind: "table", connectionId: "a", table: "Article" },
        { kind: "connection", connectionId: "b", table: "" },
        { kind: "editor", connectionId: "b", table: "" },
        { kind: "settings", connectionId: "", table: "" },
      ],
      active: "conn:b",
    });
    const api = fakeApi(
      async () => [connection({ id: "a", name: "Local Weaviate" }), connection({ id: "b", name: "Staging", port: 8081 })],
      {
        connect: async (id) => {
          if (id === "b") throw new ApiError("unavailable", "Connection failed: connection refused");
          return { id, connected: true, serverVersion: "1.35.2", route: "", capabilities: weaviateCapabilities };
        },
      },
      { layout: { layout: async () => layout, saveLayout: async () => {} } },
    );
    render(
      <ApiProvider api={api}>
        <App />
      </ApiProvider>,
    );
    expect(await screen.findByRole("tab", { name: "Article" })).toBeInTheDocument();
    expect(screen.getByRole("tab", { name: "Settings" })).toBeInTheDocument();
    expect(screen.queryByRole("tab", { name: "Staging" })).not.toBeInTheDocument();
    expect(screen.queryByRole("tab", { name: "Query · Staging" })).not.toBeInTheDocument();
    // The remembered active tab is gone: the last reopened one is active.
    expect(screen.getByRole("tab", { name: "Settings" })).toHaveAttribute("aria-selected", "true");
  });

  it("saves the tabs and the active tab, debounced, after a change", async () => {
    const { saveLayout } = remembered(emptyLayout());
    await screen.findByRole("tree");
    await userEvent.keyboard("{Enter}");
    expect(screen.getByRole("tab", { name: "Local Weaviate" })).toBeInTheDocument();
    await vi.waitFor(() =>
      expect(saveLayout).toHaveBeenLastCalledWith(
        expect.objectContaining({ tabs: [{ kind: "connection", connectionId: "a", table: "" }], active: "conn:a" }),
      ),
    );
    const calls = saveLayout.mock.calls.length;
    await userEvent.keyboard("{Control>},{/Control}");
    await vi.waitFor(() =>
      expect(saveLayout).toHaveBeenLastCalledWith(
        expect.objectContaining({
          tabs: [
            { kind: "connection", connectionId: "a", table: "" },
            { kind: "settings", connectionId: "", table: "" },
          ],
          active: "settings",
        }),
      ),
    );
    // One write for the change, not one per render.
    expect(saveLayout.mock.calls.length).toBe(calls + 1);
  });

  it("a connection slow to connect does not land on its last table once the user has gone to another tab", async () => {
    const slow = deferred<ConnectionState>();
    const api = fakeApi(
      async () => [connection({ id: "a", name: "Local Weaviate" }), connection({ id: "b", name: "Staging", port: 8081 })],
      { connect: (id) => (id === "b" ? slow.promise : Promise.resolve({ id, connected: true, serverVersion: "1.35.2", route: "", capabilities: weaviateCapabilities })) },
      { layout: { layout: async () => emptyLayout({ lastTable: { b: "Author" } }), saveLayout: async () => {} } },
    );
    render(
      <ApiProvider api={api}>
        <App />
      </ApiProvider>,
    );
    await screen.findByRole("tree");
    await userEvent.keyboard("{ArrowDown}{Enter}");
    expect(screen.getByRole("tab", { name: "Staging" })).toHaveAttribute("aria-selected", "true");
    await userEvent.keyboard("{Control>},{/Control}");
    expect(screen.getByRole("tab", { name: "Settings" })).toHaveAttribute("aria-selected", "true");
    await act(async () => slow.resolve({ id: "b", connected: true, serverVersion: "1.35.2", route: "", capabilities: weaviateCapabilities }));
    await within(screen.getByRole("tree")).findByRole("treeitem", { name: "Author" });
    expect(screen.getByRole("tab", { name: "Settings" })).toHaveAttribute("aria-selected", "true");
    expect(screen.queryByRole("tab", { name: "Author" })).not.toBeInTheDocument();
  });

  it("remembers the active table as its connection's last table and lands there when the connection is opened again", async () => {
    const { saveLayout } = remembered(emptyLayout({ lastTable: { b: "Author" } }));
    await screen.findByRole("tree");
    // Opening Staging from the sidebar lands on its last table.
    await userEvent.keyboard("{ArrowDown}{Enter}");
    expect(await screen.findByRole("tab", { name: "Author" })).toHaveAttribute("aria-selected", "true");
    expect(screen.getByRole("tab", { name: "Staging" })).toBeInTheDocument();
    // Opening a table of Local Weaviate from the connection panel records it.
    await userEvent.click(screen.getByRole("tree"));
    await userEvent.keyboard("{Home}{Enter}");
    await userEvent.click(within(await screen.findByRole("list", { name: "Collections" })).getByRole("button", { name: /^\s*Article/ }));
    await vi.waitFor(() =>
      expect(saveLayout).toHaveBeenLastCalledWith(expect.objectContaining({ lastTable: { b: "Author", a: "Article" }, active: "table:a:Article" })),
    );
  });
});
