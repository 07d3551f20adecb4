import { act, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { ApiError, ApiProvider, type ConnectionState, type ExplorerApi, type PluginsApi, type Table } from "../../api";
import { App } from "../../App";
import { connection, deferred, fakeApi, fakePlugins, weaviateCapabilities } from "../../test/fakeApi";

const demo = connection({ id: "demo", name: "Demo Weaviate", host: "127.0.0.1", port: 18080 });
const other = connection({ id: "other", name: "Staging", port: 8081 });

function renderApp(explorer: Partial<ExplorerApi> = {}) {
  const api = fakeApi(async () => [demo, other], explorer);
  render(
    <ApiProvider api={api}>
      <App />
    </ApiProvider>,
  );
  return api;
}

const tree = () => screen.getByRole("tree", { name: "Saved connections" });
const item = (name: string) => within(tree()).getByRole("treeitem", { name });

describe("opening a connection shows its collections", () => {
  it("connects with a loading state, then lists the collections sorted under it with row counts", async () => {
    const connect = deferred<ConnectionState>();
    const api = renderApp({ connect: vi.fn(() => connect.promise) });
    await screen.findByRole("tree");
    await userEvent.keyboard("{Enter}");

    expect(item("Demo Weaviate")).toHaveAttribute("aria-expanded", "true");
    expect(within(tree()).getByRole("status")).toHaveTextContent("Connecting to Demo Weaviate");
    expect(api.explorer.connect).toHaveBeenCalledWith("demo");

    await act(async () => connect.resolve({ id: "demo", connected: true, serverVersion: "1.35.2", route: "", capabilities: weaviateCapabilities }));
    const group = within(item("Demo Weaviate")).getByRole("group");
    const tables = await within(group).findAllByRole("treeitem");
    expect(tables.map((t) => t.getAttribute("aria-label"))).toEqual(["Article", "Author"]);
    expect(await within(group).findByText("10")).toBeInTheDocument();
    expect(within(group).getByText("4")).toBeInTheDocument();
    // The connection tab says so too.
    const panel = screen.getByRole("tabpanel");
    expect(within(panel).getByText(/Connected · server 1\.35\.2 · 2 collections/)).toBeInTheDocument();
    // Issue 19: the driver's capabilities reach the window.
    expect(within(panel).getByLabelText("What the driver offers")).toHaveTextContent("Editor: GraphQL reads and REST lines · paging stops at row 10,000 · edits are applied row by row");
  });

  it("shows the driver's message when connecting fails, and Retry connects again", async () => {
    let fail = true;
    const connect = vi.fn(async (id: string) => {
      if (fail) throw "connection: Connection failed: dial tcp 127.0.0.1:18080: connect: connection refused";
      return { id, connected: true, serverVersion: "", route: "", capabilities: weaviateCapabilities };
    });
    renderApp({ connect });
    await screen.findByRole("tree");
    await userEvent.keyboard("{Enter}");

    const alert = await within(tree()).findByRole("alert");
    expect(alert).toHaveTextContent("Could not connect");
    expect(alert).toHaveTextContent("Connection failed: dial tcp 127.0.0.1:18080: connect: connection refused");
    expect(alert).not.toHaveTextContent("connection: Connection");
    expect(within(item("Demo Weaviate")).getByText("Could not connect", { selector: ".visually-hidden" })).toBeInTheDocument();

    fail = false;
    await userEvent.click(within(tree()).getByRole("button", { name: "Retry" }));
    expect(await within(tree()).findByRole("treeitem", { name: "Article" })).toBeInTheDocument();
    expect(connect).toHaveBeenCalledTimes(2);
  });

  it("an authentication failure keeps the spec's prefix", async () => {
    renderApp({ connect: async () => Promise.reject(new ApiError("auth", "Authentication failed: the API key was rejected")) });
    await screen.findByRole("tree");
    await userEvent.keyboard("{Enter}");
    expect(await within(tree()).findByRole("alert")).toHaveTextContent("Authentication failed: the API key was rejected");
  });

  it("a node without collections says so", async () => {
    renderApp({ listTables: async (): Promise<Table[]> => [], tableCounts: async () => [] });
    await screen.findByRole("tree");
    await userEvent.keyboard("{Enter}");
    expect(await within(tree()).findByText("No tables")).toBeInTheDocument();
  });

  it("counts that fail leave the tree without them", async () => {
    renderApp({ tableCounts: async () => Promise.reject(new ApiError("timeout", "slow")) });
    await screen.findByRole("tree");
    await userEvent.keyboard("{Enter}");
    expect(await within(tree()).findByRole("treeitem", { name: "Article" })).not.toHaveTextContent(/\d/);
  });
});

describe("connection tree keyboard", () => {
  it("Enter opens, ArrowDown reaches a collection, Enter opens its tab; ArrowLeft/ArrowRight step out and fold", async () => {
    renderApp();
    await screen.findByRole("tree");
    await userEvent.keyboard("{Enter}");
    await within(tree()).findByRole("treeitem", { name: "Article" });

    await userEvent.keyboard("{ArrowDown}");
    expect(item("Article")).toHaveAttribute("aria-selected", "true");
    expect(tree()).toHaveAttribute("aria-activedescendant", "table-demo-Article");
    await userEvent.keyboard("{ArrowDown}{Enter}");
    expect(screen.getByRole("tab", { name: "Author" })).toHaveAttribute("aria-selected", "true");
    expect(await screen.findByRole("table", { name: "Rows of Author" })).toBeInTheDocument();

    await userEvent.keyboard("{ArrowLeft}");
    expect(item("Demo Weaviate")).toHaveAttribute("aria-selected", "true");
    await userEvent.keyboard("{ArrowLeft}");
    expect(item("Demo Weaviate")).toHaveAttribute("aria-expanded", "false");
    expect(within(tree()).queryByRole("treeitem", { name: "Article" })).not.toBeInTheDocument();
    await userEvent.keyboard("{ArrowDown}");
    expect(item("Staging")).toHaveAttribute("aria-selected", "true");
    await userEvent.keyboard("{ArrowUp}{ArrowRight}");
    expect(item("Demo Weaviate")).toHaveAttribute("aria-expanded", "true");
    await userEvent.keyboard("{ArrowRight}");
    expect(item("Article")).toHaveAttribute("aria-selected", "true");
  });

  it("a click on a collection opens its tab", async () => {
    renderApp();
    await screen.findByRole("tree");
    await userEvent.click(screen.getByText("Demo Weaviate"));
    await userEvent.click(await within(tree()).findByText("Article"));
    expect(screen.getByRole("tab", { name: "Article" })).toHaveAttribute("aria-selected", "true");
    expect(item("Article")).toHaveAttribute("data-open", "true");
  });
});

describe("a dropped connection", () => {
  it("shows a notice with the reason, marks the connection, and Reconnect connects again", async () => {
    const api = renderApp();
    await screen.findByRole("tree");
    await userEvent.keyboard("{Enter}");
    await within(tree()).findByRole("treeitem", { name: "Article" });

    act(() => api.emitDropped({ id: "demo", error: new ApiError("auth", "Authentication failed: the API key was rejected") }));
    const notice = screen.getByText("Demo Weaviate was disconnected").closest("[role=alert]") as HTMLElement;
    expect(notice).toHaveTextContent("Authentication failed: the API key was rejected");
    expect(within(tree()).queryByRole("treeitem", { name: "Article" })).not.toBeInTheDocument();
    expect(within(tree()).getByRole("alert")).toHaveTextContent("Connection dropped");

    await userEvent.click(within(notice).getByRole("button", { name: "Reconnect" }));
    expect(await within(tree()).findByRole("treeitem", { name: "Article" })).toBeInTheDocument();
    expect(screen.queryByText("Demo Weaviate was disconnected")).not.toBeInTheDocument();
  });

  it("the notice can be dismissed", async () => {
    const api = renderApp();
    await screen.findByRole("tree");
    await userEvent.keyboard("{Enter}");
    await within(tree()).findByRole("treeitem", { name: "Article" });
    act(() => api.emitDropped({ id: "demo", error: new ApiError("connection", "Connection failed: gone") }));
    await userEvent.click(screen.getByRole("button", { name: "Dismiss the notice about Demo Weaviate" }));
    expect(screen.queryByText("Demo Weaviate was disconnected")).not.toBeInTheDocument();
  });

  it("a dropped connection that comes back by itself is loaded again, and its notice goes (issue 25, item 9)", async () => {
    const api = renderApp();
    await screen.findByRole("tree");
    await userEvent.keyboard("{Enter}");
    await within(tree()).findByRole("treeitem", { name: "Article" });
    act(() => api.emitDropped({ id: "demo", error: new ApiError("connection", "Connection failed: gone") }));
    expect(await screen.findByText("Demo Weaviate was disconnected")).toBeInTheDocument();
    act(() => api.emitRestored("demo"));
    await waitFor(() => expect(screen.queryByText("Demo Weaviate was disconnected")).not.toBeInTheDocument());
    expect(await within(tree()).findByRole("treeitem", { name: "Article" })).toBeInTheDocument();
  });

  it("a drop of a connection this window never opened is ignored", async () => {
    const api = renderApp();
    await screen.findByRole("tree");
    act(() => api.emitDropped({ id: "other", error: new ApiError("connection", "Connection failed: gone") }));
    expect(screen.queryByText(/was disconnected/)).not.toBeInTheDocument();
  });
});

// Issue 44, item 4: the e2e's "Connecting to Form Weaviate…" that stayed after a plugin
// uninstall and reinstall. The e2e's sequence, in the window's own state: the form's
// connection is opened, disconnected in its tab, its plugin uninstalled in Settings, and
// another connection of the type installs it again while opening. Nothing connects the form's
// connection meanwhile, so nothing may say it is connecting; its Connect then ends connected.
describe("a connection disconnected before its plugin's uninstall and reinstall", () => {
  it("never shows 'Connecting to…' for it; it says Not connected, and its Connect ends connected", async () => {
    const form = connection({ id: "form", name: "Form Weaviate", host: "127.0.0.1", port: 18080 });
    let installed = true;
    const connect = vi.fn(async (id: string) => {
      if (!installed) {
        // Opening a saved connection installs its missing plugin (SPEC A.3).
        api.emitProgress({ plugin: "weaviate", version: "1.0.0", done: 1, total: 1, connectionId: id, fromMirror: false });
        installed = true;
      }
      return { id, connected: true, serverVersion: "1.35.2", route: "", capabilities: weaviateCapabilities };
    });
    const registry = fakePlugins();
    const plugins: Partial<PluginsApi> = {
      // The registry's row as the backend lists it: installed or not, as the flag says.
      list: async () => {
        const l = await registry.list();
        return { ...l, plugins: l.plugins.map((p) => ({ ...p, installed: installed ? "1.0.0" : "", status: installed ? "installed" : "not installed" })) };
      },
      uninstall: async () => {
        installed = false;
        return ["1.0.0"];
      },
    };
    const api = fakeApi(async () => [demo, form], { connect }, { plugins });
    render(
      <ApiProvider api={api}>
        <App />
      </ApiProvider>,
    );
    const connecting = () => screen.queryByText(/Connecting to Form Weaviate/);

    // Saved from the form: it opens, connected.
    await userEvent.click(await screen.findByText("Form Weaviate"));
    await within(item("Form Weaviate")).findByRole("treeitem", { name: "Article" });
    const formPanel = () => screen.getByRole("region", { name: "Form Weaviate" });

    // Disconnect in its tab.
    await userEvent.click(within(formPanel()).getByRole("button", { name: "Disconnect" }));
    expect(await within(formPanel()).findByText("Not connected.")).toBeInTheDocument();
    expect(connecting()).not.toBeInTheDocument();

    // Settings, Plugins: Uninstall.
    await userEvent.keyboard("{Control>},{/Control}");
    await userEvent.click(await screen.findByRole("tab", { name: "Plugins" }));
    const row = await screen.findByRole("listitem", { name: "Weaviate" });
    await userEvent.click(await within(row).findByRole("button", { name: "Uninstall Weaviate" }));
    expect(await within(row).findByRole("button", { name: "Install Weaviate" })).toBeInTheDocument();
    expect(installed).toBe(false);
    await userEvent.click(screen.getByRole("button", { name: "Close Settings" }));

    // The saved Demo Weaviate opens and installs the plugin again.
    await userEvent.click(screen.getByText("Demo Weaviate"));
    await within(item("Demo Weaviate")).findByRole("treeitem", { name: "Article" });
    expect(installed).toBe(true);
    expect(connect.mock.calls.filter(([id]) => id === "form")).toHaveLength(1); // nothing connected it again
    expect(connecting()).not.toBeInTheDocument();

    // Back on the form's tab: the tree says what it is, not connected.
    await userEvent.click(screen.getByRole("tab", { name: "Form Weaviate" }));
    await waitFor(() => expect(item("Form Weaviate")).toHaveAttribute("aria-expanded", "true"));
    expect(within(item("Form Weaviate")).getByRole("status")).toHaveTextContent("Not connected");
    expect(connecting()).not.toBeInTheDocument();

    // Its Connect ends connected, its collections listed under it.
    await userEvent.click(within(formPanel()).getByRole("button", { name: "Connect" }));
    expect(await within(item("Form Weaviate")).findByRole("treeitem", { name: "Article" })).toBeInTheDocument();
    expect(within(formPanel()).getByText(/Connected · server 1\.35\.2/)).toBeInTheDocument();
    expect(connecting()).not.toBeInTheDocument();
  });
});
