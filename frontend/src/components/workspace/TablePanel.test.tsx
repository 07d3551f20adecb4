import { act, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { ApiProvider, type ExplorerApi, type Grid } from "../../api";
import { connection, deferred, fakeApi, grid } from "../../test/fakeApi";
import { TablePanel } from "./TablePanel";

function renderPanel(explorer: Partial<ExplorerApi> = {}, count?: number | null) {
  const api = fakeApi(async () => [], explorer);
  render(
    <ApiProvider api={api}>
      <TablePanel connection={connection({ id: "demo", name: "Demo Weaviate" })} table="Article" count={count} />
    </ApiProvider>,
  );
  return api;
}

describe("table tab", () => {
  it("shows a loading state, then the columns and a read-only grid with uuid first and vector last", async () => {
    const page = deferred<Grid>();
    const api = renderPanel({ browseTable: vi.fn(() => page.promise) }, 10);
    expect(screen.getByRole("status")).toHaveTextContent("Loading Article");
    expect(api.explorer.browseTable).toHaveBeenCalledWith("demo", "Article", 0, 100);

    await act(async () => page.resolve((await fakeApi(async () => []).explorer.browseTable("demo", "Article", 0, 100))));
    const table = screen.getByRole("table", { name: "Rows of Article" });
    const headers = within(table).getAllByRole("columnheader").slice(1); // after the row-number gutter
    expect(headers[0]).toHaveTextContent(/^uuid/);
    expect(headers[headers.length - 1]).toHaveTextContent(/^vector/);

    const rows = within(table).getAllByRole("row").slice(1);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('["programming","linux"]');
    expect(rows[0]).toHaveTextContent("[0.95,0.2,0.05,0]");
    expect(within(rows[1]).getByText("null")).toHaveClass("cell-null");

    const columns = screen.getByRole("list", { name: "Columns" });
    expect(within(columns).getAllByRole("listitem")[0]).toHaveTextContent("uuiduuidkeyread-only");
    expect(screen.getByText("Rows 1–2 of 10")).toBeInTheDocument();
    expect(screen.getByText(/Demo Weaviate · 10 rows/)).toBeInTheDocument();
  });

  it("shows the driver's message when the table cannot be read, and Retry reads again", async () => {
    let fail = true;
    const describeTable = vi.fn(async () => {
      if (fail) throw "unsupported: collection Article has multi-tenancy enabled and the grid cannot name a tenant";
      return (await fakeApi(async () => []).explorer.describeTable("demo", "Article"));
    });
    renderPanel({ describeTable });
    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent("Could not load Article");
    expect(alert).toHaveTextContent("multi-tenancy enabled");
    fail = false;
    await userEvent.click(within(alert).getByRole("button", { name: "Retry" }));
    expect(await screen.findByRole("table", { name: "Rows of Article" })).toBeInTheDocument();
  });

  it("pages forward and back by 100 rows, and shows the paging notice", async () => {
    const row = (i: number) => [`id-${i}`, `t${i}`, `${i}`, "[]", "[0]"];
    const browseTable = vi.fn(async (_id: string, _t: string, offset: number) =>
      grid(
        Array.from({ length: offset === 0 ? 100 : 3 }, (_, i) => row(offset + i)),
        offset === 0
          ? { offset, hasMore: true }
          : { offset, hasMore: false, notice: "Paging stops at row 10,000" },
      ),
    );
    renderPanel({ browseTable });
    await screen.findByRole("table");
    const next = screen.getByRole("button", { name: "Next ›" });
    const prev = screen.getByRole("button", { name: "‹ Previous" });
    expect(prev).toBeDisabled();
    await userEvent.click(next);
    expect(browseTable).toHaveBeenLastCalledWith("demo", "Article", 100, 100);
    expect(await screen.findByText("Rows 101–103")).toBeInTheDocument();
    expect(screen.getByText("Paging stops at row 10,000")).toBeInTheDocument();
    expect(next).toBeDisabled();
    expect(within(screen.getByRole("table")).getAllByRole("row")[1]).toHaveTextContent(/^101/);
    await userEvent.click(prev);
    expect(browseTable).toHaveBeenLastCalledWith("demo", "Article", 0, 100);
    expect(await screen.findByText("Rows 1–100")).toBeInTheDocument();
  });

  it("a page that fails keeps the current rows and says why", async () => {
    const browseTable = vi.fn(async (_id: string, _t: string, offset: number) => {
      if (offset > 0) throw "unavailable: the connection is not open: connect to it first";
      return grid([["id-1", "t", "1", "[]", "[0]"]], { hasMore: true });
    });
    renderPanel({ browseTable });
    await screen.findByRole("table");
    await userEvent.click(screen.getByRole("button", { name: "Next ›" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("the connection is not open: connect to it first");
    expect(screen.getByText("Rows 1–1")).toBeInTheDocument();
  });
});
