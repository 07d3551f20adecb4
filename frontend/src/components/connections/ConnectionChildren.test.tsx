import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { Capabilities, Connection, Table, TableCount } from "../../api";
import type { OpenedState } from "../opened/useOpened";
import { ConnectionChildren } from "./ConnectionChildren";

const connection = { id: "c1", name: "Shop" } as Connection;
const tables: Table[] = [
  { name: "public.items", description: "", multiTenant: false, kind: "", estimate: 1200, group: "", label: "" },
  { name: "public.cheap_items", description: "", multiTenant: false, kind: "view", estimate: null, group: "", label: "" },
];

function tree(counts: Record<string, TableCount> | null) {
  const state = { status: "ready", serverVersion: "15", capabilities: {} as Capabilities, tables, counts } as OpenedState;
  return render(
    <ul>
      <ConnectionChildren
        connection={connection}
        state={state}
        activeKey={null}
        tableRowId={(t) => t}
        onOpenTable={() => {}}
        isExpanded={() => false}
        onToggleTable={() => {}}
        onOpenTenant={() => {}}
        onReconnect={() => {}}
      />
    </ul>,
  );
}

// Issue 38, item 2: the tree says what a table is (a view) and shows the database's estimate of
// its rows, "about N", until they are counted.
describe("the tables under a connection", () => {
  it("a table shows the database's estimate until it is counted, and a view says it is one", () => {
    tree(null);
    expect(screen.getByText("about 1,200")).toBeInTheDocument();
    expect(screen.getByRole("treeitem", { name: "public.cheap_items, view" })).toHaveTextContent("view");
  });
  it("the count replaces the estimate once it arrives", () => {
    tree({ "public.items": { name: "public.items", count: 1187, estimated: false, message: "" } });
    expect(screen.queryByText("about 1,200")).toBeNull();
    expect(screen.getByText("1,187")).toBeInTheDocument();
  });
  it("a count that ran past its time is the database's estimate, and says so", () => {
    tree({ "public.items": { name: "public.items", count: 98765432, estimated: true, message: "" } });
    expect(screen.getByText("about 98,765,432")).toBeInTheDocument();
  });
});
