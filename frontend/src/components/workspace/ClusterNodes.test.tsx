import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { ApiProvider, type ClusterNode } from "../../api";
import { fakeApi } from "../../test/fakeApi";
import { ClusterNodes } from "./ClusterNodes";

const node = (name: string, status = "HEALTHY"): ClusterNode => ({
  name,
  status,
  version: "1.35.2",
  objects: 12_345,
  shards: 3,
  tables: [
    { table: "Article", shards: 1, loaded: 1, objects: 12_000, shardList: [], shardsLeftOut: 0 },
    { table: "Shop", shards: 2, loaded: 1, objects: 345, shardList: [], shardsLeftOut: 0 },
  ],
});

function renderNodes(nodes: () => Promise<ClusterNode[]>) {
  const fn = vi.fn(nodes);
  render(
    <ApiProvider api={fakeApi(async () => [], { nodes: fn })}>
      <ClusterNodes connectionId="c1" />
    </ApiProvider>,
  );
  return fn;
}

describe("the cluster's nodes on the connection page (issue 23)", () => {
  it("shows each node's health, version, objects and shards", async () => {
    renderNodes(async () => [node("node-a"), node("node-b", "UNAVAILABLE")]);
    const table = await screen.findByRole("table", { name: "Nodes" });
    const rows = within(table).getAllByRole("row").slice(1);
    expect(rows.map((r) => r.textContent)).toEqual(["node-ahealthy1.35.212,3453", "node-bunavailable1.35.212,3453"]);
  });

  it("says what each collection keeps on a node, with the loaded shards when not all are", async () => {
    renderNodes(async () => [node("node-a")]);
    await userEvent.click(await screen.findByText("What each collection keeps on node-a"));
    const rows = within(screen.getByRole("table", { name: "Collections on node-a" })).getAllByRole("row").slice(1);
    expect(rows.map((r) => r.textContent)).toEqual(["Article12,0001", "Shop3452 (1)"]);
  });

  it("shows why the nodes cannot be read, and Refresh reads them again", async () => {
    let fail = true;
    const fn = renderNodes(async () => {
      if (fail) throw "query_failed: permission denied for the nodes (/v1/nodes)";
      return [node("node-a")];
    });
    expect(await screen.findByRole("alert")).toHaveTextContent("Could not read the nodes: permission denied");
    fail = false;
    await userEvent.click(screen.getByRole("button", { name: "Refresh" }));
    expect(await screen.findByRole("table", { name: "Nodes" })).toBeInTheDocument();
    expect(fn).toHaveBeenCalledTimes(2);
  });
});
