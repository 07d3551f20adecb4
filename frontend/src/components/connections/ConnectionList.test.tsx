import { act, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { ApiError, ApiProvider, type Api, type Capabilities, type Connection, type Table } from "../../api";
import type { OpenedState } from "../opened/useOpened";
import { connection, deferred, fakeApi, tenantPages } from "../../test/fakeApi";
import { ConnectionList } from "./ConnectionList";
import { sortTables } from "../opened/format";
import { useConnections } from "./useConnections";

function Harness({ onOpen }: { onOpen: (c: Connection) => void }) {
  const { state, reload } = useConnections();
  return <ConnectionList state={state} onRetry={() => void reload()} onOpen={onOpen} />;
}

function renderList(api: Api, onOpen: (c: Connection) => void = () => {}) {
  return render(
    <ApiProvider api={api}>
      <Harness onOpen={onOpen} />
    </ApiProvider>,
  );
}

const three = [
  connection({ id: "a", name: "Local Weaviate", host: "localhost", port: 8080 }),
  connection({ id: "b", name: "Staging", host: "10.0.0.5", port: 8081 }),
  connection({ id: "c", name: "Cloud", host: "x.weaviate.cloud", port: 443, sslMode: "Required" }),
];

describe("connection list states", () => {
  it("shows a loading state until the list arrives", async () => {
    const d = deferred<Connection[]>();
    renderList(fakeApi(() => d.promise));
    expect(screen.getByRole("status")).toHaveTextContent("Loading connections");
    expect(screen.queryByRole("tree")).not.toBeInTheDocument();
    await act(async () => d.resolve(three));
    expect(screen.getByRole("tree")).toBeInTheDocument();
    expect(screen.queryByText("Loading connections…")).not.toBeInTheDocument();
  });

  it("shows the empty state when nothing is saved", async () => {
    renderList(fakeApi(async () => []));
    expect(await screen.findByText("No saved connections")).toBeInTheDocument();
    expect(screen.queryByRole("tree")).not.toBeInTheDocument();
  });

  it("the empty sidebar offers New connection (issue 37)", async () => {
    const onNew = vi.fn();
    render(
      <ConnectionList state={{ status: "ready", connections: [] }} onRetry={() => {}} onOpen={() => {}} onNew={onNew} />,
    );
    await userEvent.click(screen.getByRole("button", { name: "New connection" }));
    expect(onNew).toHaveBeenCalledOnce();
  });

  it("shows the error message and retries on request", async () => {
    let fail = true;
    const api = fakeApi(async () => {
      if (fail) throw "unavailable: the config dir is locked";
      return three;
    });
    renderList(api);
    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent("Could not load connections");
    expect(alert).toHaveTextContent("the config dir is locked");
    expect(alert).not.toHaveTextContent("unavailable:");

    fail = false;
    await userEvent.click(within(alert).getByRole("button", { name: "Retry" }));
    expect(await screen.findByRole("tree")).toBeInTheDocument();
    expect(api.calls.list).toBe(2);
  });

  it("keeps the typed error when the Api already threw an ApiError", async () => {
    renderList(fakeApi(async () => Promise.reject(new ApiError("internal", "disk full"))));
    expect(await screen.findByRole("alert")).toHaveTextContent("disk full");
  });

  it("lists each connection with name, type and host:port", async () => {
    renderList(fakeApi(async () => three));
    const options = await screen.findAllByRole("treeitem");
    expect(options).toHaveLength(3);
    expect(options[0]).toHaveTextContent("Local Weaviate");
    expect(options[0]).toHaveTextContent("Weaviate");
    expect(options[0]).toHaveTextContent("localhost:8080");
    expect(options[1]).toHaveTextContent("10.0.0.5:8081");
    expect(options[2]).toHaveTextContent("TLS");
    expect(options[0]).not.toHaveTextContent("TLS");
  });
});

describe("connection list keyboard", () => {
  it("arrow keys move the selection, stopping at the ends; Enter opens", async () => {
    const onOpen = vi.fn();
    renderList(fakeApi(async () => three), onOpen);
    const list = await screen.findByRole("tree");
    // The tree takes the focus in an effect after it renders: wait for it, do not race it.
    await waitFor(() => expect(list).toHaveFocus());
    const selected = () => screen.getAllByRole("treeitem").findIndex((o) => o.getAttribute("aria-selected") === "true");

    expect(selected()).toBe(0);
    await userEvent.keyboard("{ArrowDown}");
    expect(selected()).toBe(1);
    expect(list).toHaveAttribute("aria-activedescendant", "conn-b");
    await userEvent.keyboard("{ArrowDown}{ArrowDown}{ArrowDown}");
    expect(selected()).toBe(2);
    await userEvent.keyboard("{ArrowUp}");
    expect(selected()).toBe(1);
    await userEvent.keyboard("{Home}");
    expect(selected()).toBe(0);
    await userEvent.keyboard("{ArrowUp}");
    expect(selected()).toBe(0);
    await userEvent.keyboard("{End}{Enter}");
    expect(onOpen).toHaveBeenCalledTimes(1);
    expect(onOpen).toHaveBeenCalledWith(three[2]);
  });

  it("a click selects and opens", async () => {
    const onOpen = vi.fn();
    renderList(fakeApi(async () => three), onOpen);
    await userEvent.click(await screen.findByText("Staging"));
    expect(onOpen).toHaveBeenCalledWith(three[1]);
    expect(screen.getAllByRole("treeitem")[1]).toHaveAttribute("aria-selected", "true");
  });
});

describe("connection list refresh", () => {
  it("reloads quietly when the backend reports a change, keeping the list on screen", async () => {
    let items = three.slice(0, 1);
    const d = deferred<Connection[]>();
    let pending: Promise<Connection[]> | null = null;
    const api = fakeApi(() => pending ?? Promise.resolve(items));
    renderList(api);
    expect(await screen.findAllByRole("treeitem")).toHaveLength(1);

    items = three;
    pending = d.promise;
    act(() => api.emitChanged());
    // While the refresh is in flight the old list stays; no loading skeleton.
    expect(screen.getAllByRole("treeitem")).toHaveLength(1);
    expect(screen.queryByText("Loading connections…")).not.toBeInTheDocument();
    await act(async () => d.resolve(three));
    expect(screen.getAllByRole("treeitem")).toHaveLength(3);
    expect(api.calls.list).toBe(2);
  });
});

describe("connection list after a disconnect", () => {
  it("folds a connection up when it is disconnected, instead of showing a spinner for a connection nothing is connecting", async () => {
    const ready: OpenedState = { status: "ready", serverVersion: "1.35.2", capabilities: {} as Capabilities, tables: [{ name: "Article" } as Table], counts: null };
    const state = { status: "ready" as const, connections: three };
    const { rerender } = render(<ConnectionList state={state} onRetry={() => {}} onOpen={() => {}} opened={{ a: ready }} openId="a" />);
    const item = screen.getAllByRole("treeitem")[0];
    await waitFor(() => expect(item).toHaveAttribute("aria-expanded", "true"));
    expect(within(item).getByRole("treeitem", { name: "Article" })).toBeInTheDocument();
    rerender(<ConnectionList state={state} onRetry={() => {}} onOpen={() => {}} opened={{}} openId="a" />);
    await waitFor(() => expect(screen.getAllByRole("treeitem")[0]).toHaveAttribute("aria-expanded", "false"));
    expect(screen.queryByText(/Connecting to/)).not.toBeInTheDocument();
  });

  it("a connection shown open but not connected says so and offers Connect, with no spinner", async () => {
    const onReconnect = vi.fn();
    const state = { status: "ready" as const, connections: three };
    render(<ConnectionList state={state} onRetry={() => {}} onOpen={() => {}} opened={{}} openId="a" onReconnect={onReconnect} />);
    const item = screen.getAllByRole("treeitem")[0];
    await waitFor(() => expect(item).toHaveAttribute("aria-expanded", "true"));
    expect(within(item).getByRole("status")).toHaveTextContent("Not connected");
    expect(screen.queryByText(/Connecting to/)).not.toBeInTheDocument();
    await userEvent.click(within(item).getByRole("button", { name: "Connect" }));
    expect(onReconnect).toHaveBeenCalledWith(three[0]);
  });
});

describe("a multi-tenant table in the tree (issue 23)", () => {
  const tables = [{ name: "Article", description: "", multiTenant: false, kind: "", estimate: null, group: "", label: "" }, { name: "Shop", description: "", multiTenant: true, kind: "", estimate: null, group: "", label: "" }];
  const ready: OpenedState = {
    status: "ready",
    serverVersion: "1.35.2",
    capabilities: {} as Capabilities,
    tables,
    counts: { Article: { name: "Article", count: 10, estimated: false, message: "" }, Shop: { name: "Shop", count: null, estimated: false, tenants: 3, message: "multi-tenant" } },
  };
  const state = { status: "ready" as const, connections: three };
  const api = fakeApi(async () => three, {
    listTenants: tenantPages(async () => [
      { name: "north", table: "Shop@north", status: "ACTIVE" },
      { name: "south", table: "Shop@south", status: "INACTIVE" },
    ]),
  });
  const renderTree = (onOpenTable = vi.fn()) =>
    render(
      <ApiProvider api={api}>
        <ConnectionList state={state} onRetry={() => {}} onOpen={() => {}} opened={{ a: ready }} openId="a" onOpenTable={onOpenTable} />
      </ApiProvider>,
    );

  it("counts its tenants and expands to them instead of opening a tab; a tenant opens as a table", async () => {
    const onOpenTable = vi.fn();
    renderTree(onOpenTable);
    const shop = await screen.findByRole("treeitem", { name: "Shop, multi-tenant" });
    expect(shop).toHaveAttribute("aria-expanded", "false");
    expect(shop).toHaveTextContent("3 tenants");
    await userEvent.click(within(shop).getByText("Shop"));
    expect(onOpenTable).not.toHaveBeenCalled();
    expect(shop).toHaveAttribute("aria-expanded", "true");
    await userEvent.click(await within(shop).findByText("south"));
    expect(onOpenTable).toHaveBeenCalledWith(three[0], "Shop@south");
    await userEvent.click(within(shop).getByText("Shop"));
    expect(shop).toHaveAttribute("aria-expanded", "false");
    expect(within(shop).queryByRole("listbox")).not.toBeInTheDocument();
  });

  it("expands and folds with the arrows from the keyboard", async () => {
    renderTree();
    const shop = await screen.findByRole("treeitem", { name: "Shop, multi-tenant" });
    screen.getByRole("tree").focus();
    // The connection row, then Article, then Shop.
    await userEvent.keyboard("{ArrowDown}{ArrowDown}");
    expect(shop).toHaveAttribute("aria-selected", "true");
    await userEvent.keyboard("{ArrowRight}");
    expect(shop).toHaveAttribute("aria-expanded", "true");
    expect(await within(shop).findByRole("listbox")).toBeInTheDocument();
    await userEvent.keyboard("{ArrowLeft}");
    expect(shop).toHaveAttribute("aria-expanded", "false");
  });
});

// Issue 40, item 3: where the database puts tables in groups (an operator's view of Weaviate's
// namespaces), each group is a level of the tree, folded at first, its tables shown by their
// label and opened by their name; tables in no group stay at the top.
describe("groups of tables as a level of the tree (issue 40)", () => {
  const table = (name: string, group = "", label = "") => ({ name, description: "", multiTenant: false, kind: "", estimate: null, group, label });
  const tables = sortTables([table("globex:Invoice", "globex", "Invoice"), table("Loose"), table("acme:Article", "acme", "Article"), table("acme:Author", "acme", "Author")]);
  const ready: OpenedState = { status: "ready", serverVersion: "1.39.0", capabilities: {} as Capabilities, tables, counts: null };
  const state = { status: "ready" as const, connections: three };
  const renderTree = (onOpenTable = vi.fn()) =>
    render(
      <ApiProvider api={fakeApi(async () => three)}>
        <ConnectionList state={state} onRetry={() => {}} onOpen={() => {}} opened={{ a: ready }} openId="a" onOpenTable={onOpenTable} />
      </ApiProvider>,
    );

  it("lists the ungrouped table first, then each group folded with its count", async () => {
    renderTree();
    await screen.findByRole("treeitem", { name: "acme, 2 tables" });
    const level2 = screen.getAllByRole("treeitem").filter((i) => i.getAttribute("aria-level") === "2");
    expect(level2.map((i) => i.getAttribute("aria-label"))).toEqual(["Loose", "acme, 2 tables", "globex, 1 table"]);
    expect(screen.getByRole("treeitem", { name: "acme, 2 tables" })).toHaveAttribute("aria-expanded", "false");
    expect(screen.queryByRole("treeitem", { name: "Article" })).not.toBeInTheDocument();
  });

  it("a group opens with a click or ArrowRight; its tables show their label and open by their name", async () => {
    const onOpenTable = vi.fn();
    renderTree(onOpenTable);
    const acme = await screen.findByRole("treeitem", { name: "acme, 2 tables" });
    screen.getByRole("tree").focus();
    // The connection row, Loose, then acme.
    await userEvent.keyboard("{ArrowDown}{ArrowDown}");
    expect(acme).toHaveAttribute("aria-selected", "true");
    await userEvent.keyboard("{ArrowRight}");
    expect(acme).toHaveAttribute("aria-expanded", "true");
    const article = within(acme).getByRole("treeitem", { name: "Article" });
    expect(article).toHaveAttribute("aria-level", "3");
    await userEvent.keyboard("{ArrowDown}{Enter}");
    expect(onOpenTable).toHaveBeenCalledWith(three[0], "acme:Article");
    await userEvent.keyboard("{ArrowLeft}");
    expect(acme).toHaveAttribute("aria-selected", "true");
    await userEvent.keyboard("{ArrowLeft}");
    expect(acme).toHaveAttribute("aria-expanded", "false");
    await userEvent.click(within(screen.getByRole("treeitem", { name: "globex, 1 table" })).getByText("globex"));
    await userEvent.click(await screen.findByText("Invoice"));
    expect(onOpenTable).toHaveBeenCalledWith(three[0], "globex:Invoice");
  });
});
