import { act, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from "vitest";
import { ApiProvider, type BrowseRequest, type ExplorerApi, type Grid } from "../../api";
import { articleColumns, column, connection, deferred, demoRows, fakeApi, grid, tableInfo } from "../../test/fakeApi";
import { TablePanel } from "./TablePanel";
import { DEFINITION_CHECK_MS } from "./useDefinitionWatch";

function renderPanel(explorer: Partial<ExplorerApi> = {}, count?: number | null, copy?: (t: string) => Promise<void>) {
  const api = fakeApi(
    async () => [],
    { browse: vi.fn(async () => grid(demoRows)), count: vi.fn(async () => ({ count: 2, estimated: false, refused: null })), ...explorer },
    { copy },
  );
  render(
    <ApiProvider api={api}>
      <TablePanel connection={connection({ id: "demo", name: "Demo Weaviate" })} table="Article" count={count} />
    </ApiProvider>,
  );
  return api;
}

const req = (over: Partial<BrowseRequest> = {}): BrowseRequest => ({ offset: 0, limit: 100, filters: [], sort: [], ...over });

const dateColumns = [...articleColumns.slice(0, 4), column("published", { type: "date", filterable: ["equals", "less_than", "between", "is_null", "is_not_null"] }), articleColumns[4]];


// What the Weaviate plugin blocks, with its words (its filter.go), on a collection without
// indexNullState / indexPropertyLength: the menu shows the driver's reasons as they are.
const NULL_BLOCKED = {
  is_null: "IsNull needs indexNullState, which collection Article does not enable (invertedIndexConfig.indexNullState)",
  is_not_null: "IsNull needs indexNullState, which collection Article does not enable (invertedIndexConfig.indexNullState)",
};
const EMPTY_BLOCKED = {
  is_empty: "len() needs indexPropertyLength, which collection Article does not enable (invertedIndexConfig.indexPropertyLength)",
  is_not_empty: "len() needs indexPropertyLength, which collection Article does not enable (invertedIndexConfig.indexPropertyLength)",
};

describe("table tab", () => {
  it("offers All as the driver's paging stop (Capabilities.maxResults), no size beyond it", async () => {
    const api = fakeApi(async () => [], { browse: vi.fn(async () => grid(demoRows)), count: vi.fn(async () => ({ count: 2, estimated: false, refused: null })) });
    render(
      <ApiProvider api={api}>
        <TablePanel connection={connection({ id: "demo", name: "Demo Weaviate" })} table="Article" maxResults={500} />
      </ApiProvider>,
    );
    const sizes = await screen.findByRole("combobox", { name: "Rows per page" });
    const options = within(sizes).getAllByRole("option").map((o) => [o.textContent, (o as HTMLOptionElement).value]);
    expect(options).toEqual([["50", "50"], ["100", "100"], ["250", "250"], ["All", "500"]]);
    expect(sizes).toHaveAttribute("title", expect.stringContaining("it stops at 500"));
  });

  it("shows a loading state, then the columns and a grid with uuid first and vector last", async () => {
    const page = deferred<Grid>();
    const api = renderPanel({ browse: vi.fn(() => page.promise) }, 10);
    expect(screen.getByRole("status")).toHaveTextContent("Loading Article");
    expect(api.explorer.browse).toHaveBeenCalledWith("demo", "Article", req());

    await act(async () => page.resolve(grid(demoRows)));
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
    expect(await screen.findByText("Rows 1–2 of 2")).toBeInTheDocument();
    expect(screen.getByText(/Demo Weaviate · 10 rows/)).toBeInTheDocument();
  });

  it("shows the driver's message when the table cannot be read, and Retry reads again", async () => {
    let fail = true;
    const describeTable = vi.fn(async () => {
      if (fail) throw "unsupported: collection Article has multi-tenancy enabled and the grid cannot name a tenant";
      return tableInfo("Article");
    });
    renderPanel({ describeTable });
    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent("Could not load Article");
    expect(alert).toHaveTextContent("multi-tenancy enabled");
    fail = false;
    await userEvent.click(within(alert).getByRole("button", { name: "Retry" }));
    expect(await screen.findByRole("table", { name: "Rows of Article" })).toBeInTheDocument();
  });

  it("pages forward and back, and explains the 10,000-row stop where paging stops", async () => {
    const row = (i: number) => [`id-${i}`, `t${i}`, `${i}`, "[]", "[0]"];
    const browse = vi.fn(async (_id: string, _t: string, r: BrowseRequest) =>
      grid(
        Array.from({ length: r.offset === 0 ? 100 : 3 }, (_, i) => row(r.offset + i)),
        r.offset === 0 ? { offset: r.offset, hasMore: true } : { offset: r.offset, hasMore: false, notice: "Paging stops at row 10,000" },
      ),
    );
    renderPanel({ browse, count: async () => ({ count: 20000, estimated: false, refused: null }) });
    await screen.findByRole("table");
    const next = screen.getByRole("button", { name: "Next ›" });
    const prev = screen.getByRole("button", { name: "‹ Previous" });
    expect(prev).toBeDisabled();
    expect(await screen.findByText("Rows 1–100 of 20,000")).toBeInTheDocument();
    await userEvent.click(next);
    expect(browse).toHaveBeenLastCalledWith("demo", "Article", req({ offset: 100 }));
    expect(await screen.findByText("Rows 101–103 of 20,000")).toBeInTheDocument();
    const notice = screen.getByRole("note");
    expect(notice).toHaveTextContent("Paging stops at row 10,000");
    expect(next).toBeDisabled();
    expect(next).toHaveAttribute("aria-describedby", notice.id);
    expect(within(screen.getByRole("table")).getAllByRole("row")[1]).toHaveTextContent(/^101/);
    await userEvent.click(prev);
    expect(browse).toHaveBeenLastCalledWith("demo", "Article", req());
    expect(await screen.findByText("Rows 1–100 of 20,000")).toBeInTheDocument();
  });

  it("says the total is about N when the count is the database's estimate", async () => {
    const browse = vi.fn(async () => grid(Array.from({ length: 100 }, (_, i) => [`id-${i}`, `t${i}`, `${i}`, "[]", "[0]"]), { hasMore: true }));
    renderPanel({ browse, count: async () => ({ count: 98765432, estimated: true, refused: null }) });
    expect(await screen.findByText("Rows 1–100 of about 98,765,432")).toBeInTheDocument();
  });

  it("a page that fails keeps the current rows and says why", async () => {
    const browse = vi.fn(async (_id: string, _t: string, r: BrowseRequest) => {
      if (r.offset > 0) throw "unavailable: the connection is not open: connect to it first";
      return grid([["id-1", "t", "1", "[]", "[0]"]], { hasMore: true });
    });
    renderPanel({ browse });
    await screen.findByRole("table");
    await userEvent.click(screen.getByRole("button", { name: "Next ›" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("the connection is not open: connect to it first");
    expect(screen.getByText(/^Rows 1–1/)).toBeInTheDocument();
  });

  it("the page size choice reads that many rows from the start", async () => {
    const api = renderPanel();
    await screen.findByRole("table");
    await userEvent.selectOptions(screen.getByRole("combobox", { name: "Rows per page" }), "250");
    await waitFor(() => expect(api.explorer.browse).toHaveBeenLastCalledWith("demo", "Article", req({ limit: 250 })));
  });

  it("All reads every row in blocks (200 first, then 1,000 at a time), appended; Stop keeps the rows read so far", async () => {
    const total = 2500;
    const rowsAt = (offset: number, limit: number) =>
      Array.from({ length: Math.max(0, Math.min(limit, total - offset)) }, (_, i) => {
        const n = offset + i;
        return [`00000000-0000-4000-8000-${String(n).padStart(12, "0")}`, `row ${n}`, String(n), "[]", "[0,0,0,0]"];
      });
    const browse = vi.fn(async (_id: string, _t: string, r: BrowseRequest) => grid(rowsAt(r.offset, r.limit), { offset: r.offset, hasMore: r.offset + r.limit < total }));
    renderPanel({ browse, count: vi.fn(async () => ({ count: total, estimated: false, refused: null })) });
    await screen.findByRole("table");
    await userEvent.selectOptions(screen.getByRole("combobox", { name: "Rows per page" }), "10000");
    expect(await screen.findByText("Rows 1–2,500 of 2,500")).toBeInTheDocument();
    expect(browse.mock.calls.slice(1).map((c) => [c[2].offset, c[2].limit])).toEqual([
      [0, 200],
      [200, 1000],
      [1200, 1000],
      [2200, 1000],
    ]);

    const next = deferred<Grid>();
    browse.mockImplementation(async (_id: string, _t: string, r: BrowseRequest) => (r.offset === 0 ? grid(rowsAt(0, 200), { hasMore: true }) : next.promise));
    await userEvent.selectOptions(screen.getByRole("combobox", { name: "Rows per page" }), "100");
    await userEvent.selectOptions(screen.getByRole("combobox", { name: "Rows per page" }), "10000");
    await userEvent.click(await screen.findByRole("button", { name: "Stop" }));
    await act(async () => next.resolve(grid(rowsAt(200, 1000), { offset: 200, hasMore: true })));
    expect(await screen.findByText("Rows 1–200 of 2,500")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Stop" })).not.toBeInTheDocument();
  });

  it("adds a filter from the keyboard: column, operator, value, Enter; the rows and the count follow it", async () => {
    const count = vi.fn(async (_id: string, _t: string, f: unknown[]) => ({ count: f.length ? 1 : 2, estimated: false, refused: null }));
    const api = renderPanel({ count });
    await screen.findByRole("table");
    await userEvent.click(screen.getByRole("button", { name: "+ Filter" }));
    const editor = screen.getByRole("form", { name: "Edit filter" });
    expect(within(editor).getByRole("combobox", { name: "Column" })).toHaveFocus();
    await userEvent.selectOptions(within(editor).getByRole("combobox", { name: "Column" }), "wordCount");
    const ops = within(editor).getByRole("combobox", { name: "Operator" });
    const labels = within(ops)
      .getAllByRole("option")
      .map((o) => o.textContent);
    expect(labels).toEqual([
      "equals",
      "not equals",
      "greater than",
      "greater or equal",
      "less than",
      "less or equal",
      "in list",
      "not in list",
      "between",
      "is NULL",
      "is not NULL",
      "REGEX (unavailable)",
    ]);
    await userEvent.selectOptions(ops, "greater_than");
    await userEvent.type(within(editor).getByRole("textbox", { name: "Value" }), "x");
    expect(within(editor).getByText('"x" is not an integer')).toBeInTheDocument();
    await userEvent.clear(within(editor).getByRole("textbox", { name: "Value" }));
    await userEvent.type(within(editor).getByRole("textbox", { name: "Value" }), "1000{Enter}");
    const f = { column: "wordCount", operator: "greater_than", value: "1000", value2: "" };
    await waitFor(() => expect(api.explorer.browse).toHaveBeenLastCalledWith("demo", "Article", req({ filters: [f] })));
    expect(count).toHaveBeenLastCalledWith("demo", "Article", [f]);
    expect(screen.queryByRole("form", { name: "Edit filter" })).not.toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Edit filter wordCount greater than 1000" })).toBeInTheDocument();
    expect(await screen.findByText("Rows 1–2 of 1")).toBeInTheDocument();

    // a second filter is ANDed; removing one keeps the other
    await userEvent.click(screen.getByRole("button", { name: "Filter title" }));
    const ed2 = screen.getByRole("form", { name: "Edit filter" });
    await userEvent.selectOptions(within(ed2).getByRole("combobox", { name: "Operator" }), "contains");
    await userEvent.type(within(ed2).getByRole("textbox", { name: "Value" }), "kernel{Enter}");
    const g = { column: "title", operator: "contains", value: "kernel", value2: "" };
    await waitFor(() => expect(api.explorer.browse).toHaveBeenLastCalledWith("demo", "Article", req({ filters: [f, g] })));
    const join = screen.getByRole("button", { name: /^and: combine wordCount greater than 1000 and title contains kernel with or instead$/ });
    expect(screen.getByText("Rows where wordCount greater than 1000 and title contains kernel")).toHaveAttribute("role", "status");
    // the word between them switches to "or": one group, sent as such
    await userEvent.click(join);
    await waitFor(() =>
      expect(api.explorer.browse).toHaveBeenLastCalledWith("demo", "Article", req({ filters: [{ ...f, group: 1 }, { ...g, group: 1 }] })),
    );
    expect(count).toHaveBeenLastCalledWith("demo", "Article", [{ ...f, group: 1 }, { ...g, group: 1 }]);
    expect(screen.getByRole("button", { name: /^or: combine/ })).toHaveTextContent("or");
    await userEvent.click(screen.getByRole("button", { name: /^or: combine/ }));
    await waitFor(() => expect(api.explorer.browse).toHaveBeenLastCalledWith("demo", "Article", req({ filters: [f, g] })));
    await userEvent.click(screen.getByRole("button", { name: "Remove filter wordCount greater than 1000" }));
    await waitFor(() => expect(api.explorer.browse).toHaveBeenLastCalledWith("demo", "Article", req({ filters: [g] })));
  });

  it("Escape closes the editor without filtering", async () => {
    const api = renderPanel();
    await screen.findByRole("table");
    await userEvent.click(screen.getByRole("button", { name: "+ Filter" }));
    await userEvent.keyboard("{Escape}");
    expect(screen.queryByRole("form", { name: "Edit filter" })).not.toBeInTheDocument();
    expect(screen.getByRole("button", { name: "+ Filter" })).toHaveFocus();
    expect(api.explorer.browse).toHaveBeenCalledTimes(1);
  });

  it("explains REGEX and, without indexNullState / indexPropertyLength, the null and empty operators", async () => {
    // what the driver lists for text when the collection has neither index
    const textOps = ["equals", "not_equals", "contains", "not_contains", "starts_with", "ends_with", "in", "not_in"];
    const info = tableInfo(
      "Article",
      articleColumns.map((c) => (c.name === "title" ? { ...c, filterable: textOps, blocked: { ...c.blocked, ...NULL_BLOCKED, ...EMPTY_BLOCKED } } : c)),
    );
    info.settings = { ...info.settings, indexNullState: false, indexPropertyLength: false };
    renderPanel({ describeTable: async () => info });
    await screen.findByRole("table");
    await userEvent.click(screen.getByRole("button", { name: "Filter title" }));
    const editor = screen.getByRole("form", { name: "Edit filter" });
    const ops = within(editor).getByRole("combobox", { name: "Operator" });
    expect(within(ops).getByRole("option", { name: "is NULL (unavailable)" })).toBeInTheDocument();
    expect(within(ops).getByRole("option", { name: "is empty (unavailable)" })).toBeInTheDocument();
    expect(within(ops).queryByRole("option", { name: "greater than" })).not.toBeInTheDocument();
    await userEvent.selectOptions(ops, "is_null");
    expect(within(editor).getByRole("note")).toHaveTextContent(
      "Unavailable: IsNull needs indexNullState, which collection Article does not enable",
    );
    await userEvent.selectOptions(ops, "regex");
    expect(within(editor).getByRole("note")).toHaveTextContent("Weaviate has no regular-expression filter");
  });

  it("issue 23, item 2: an unavailable filter links to the setting behind it, shown in the definition in words", async () => {
    const textOps = ["equals", "not_equals", "contains", "not_contains", "starts_with", "ends_with", "in", "not_in"];
    const info = tableInfo(
      "Article",
      articleColumns.map((c) => (c.name === "title" ? { ...c, filterable: textOps, blocked: { ...c.blocked, ...NULL_BLOCKED } } : c)),
    );
    info.settings = { ...info.settings, indexNullState: false };
    info.details = [
      { title: "Inverted index", items: [{ label: "Null state indexed", value: "no: the is null and is not null filters are refused", setting: "invertedIndexConfig.indexNullState" }] },
    ];
    renderPanel({ describeTable: async () => info });
    await screen.findByRole("table");
    await userEvent.click(screen.getByRole("button", { name: "Filter title" }));
    const editor = screen.getByRole("form", { name: "Edit filter" });
    await userEvent.selectOptions(within(editor).getByRole("combobox", { name: "Operator" }), "is_null");
    await userEvent.click(within(editor).getByRole("button", { name: "See the setting" }));
    const details = screen.getByRole("region", { name: "Details of Article" });
    const item = within(details).getByText("Null state indexed").closest(".details__item");
    expect(item).toHaveAttribute("data-highlight");
    expect(item).toHaveFocus();
    expect(screen.getByRole("button", { name: /Details/ })).toHaveAttribute("aria-pressed", "true");
    await userEvent.click(within(details).getByRole("button", { name: "Back to rows" }));
    expect(screen.queryByRole("region", { name: "Details of Article" })).not.toBeInTheDocument();
    expect(screen.getByRole("table")).toBeVisible();
  });

  it("a filter the database refuses shows its reason at the filter, and no rows", async () => {
    const browse = vi.fn(async (_id: string, _t: string, r: BrowseRequest) =>
      r.filters.length === 0
        ? grid(demoRows)
        : grid([], {
            refused: {
              index: 0,
              column: "title",
              operator: "regex",
              reason: "Weaviate has no regular-expression filter; use contains",
              message: "the filter title regex cannot run: Weaviate has no regular-expression filter; use contains",
            },
          }),
    );
    const count = vi.fn(async () => ({ count: null, estimated: false, refused: { index: 0, column: "title", operator: "regex", reason: "x", message: "x" } }));
    renderPanel({ browse, count });
    await screen.findByRole("table");
    await userEvent.click(screen.getByRole("button", { name: "Filter title" }));
    const editor = screen.getByRole("form", { name: "Edit filter" });
    await userEvent.selectOptions(within(editor).getByRole("combobox", { name: "Operator" }), "regex");
    await userEvent.type(within(editor).getByRole("textbox", { name: "Value" }), "^Rust{Enter}");
    const chips = screen.getByRole("list", { name: "Filters" });
    const alert = await within(chips).findByRole("alert");
    expect(alert).toHaveTextContent("Cannot run: Weaviate has no regular-expression filter; use contains");
    expect(within(screen.getByRole("table")).getAllByRole("row")).toHaveLength(1); // the header only
    expect(screen.getByText(/the filter above cannot run, so nothing is shown/)).toBeInTheDocument();
    expect(screen.getByText("No rows: a filter cannot run")).toBeInTheDocument();
  });

  it("the date picker writes a full RFC 3339 timestamp", async () => {
    const api = renderPanel({
      describeTable: async () => tableInfo("Article", dateColumns),
      browse: vi.fn(async () => grid([["id-1", "t", "1", "[]", "2024-01-15T10:30:00Z", "[0]"]], { columns: dateColumns })),
    });
    await screen.findByRole("table");
    await userEvent.click(screen.getByRole("button", { name: "Filter published" }));
    const editor = screen.getByRole("form", { name: "Edit filter" });
    await userEvent.selectOptions(within(editor).getByRole("combobox", { name: "Operator" }), "less_than");
    fireEvent.change(within(editor).getByLabelText("Value: pick a date and time (UTC)"), { target: { value: "2024-01-01T00:00" } });
    expect(within(editor).getByRole("textbox", { name: "Value" })).toHaveValue("2024-01-01T00:00:00Z");
    await userEvent.click(within(editor).getByRole("button", { name: "Apply" }));
    await waitFor(() =>
      expect(api.explorer.browse).toHaveBeenLastCalledWith(
        "demo",
        "Article",
        req({ filters: [{ column: "published", operator: "less_than", value: "2024-01-01T00:00:00Z", value2: "" }] }),
      ),
    );
  });

  it("sorts by header click and Enter: ascending, descending, off", async () => {
    const api = renderPanel();
    await screen.findByRole("table");
    const sortBtn = () => screen.getByRole("button", { name: /^Sort by wordCount/ });
    await userEvent.click(sortBtn());
    await waitFor(() => expect(api.explorer.browse).toHaveBeenLastCalledWith("demo", "Article", req({ sort: [{ column: "wordCount", descending: false }] })));
    expect(screen.getByRole("columnheader", { name: /wordCount/ })).toHaveAttribute("aria-sort", "ascending");
    sortBtn().focus();
    await userEvent.keyboard("{Enter}");
    await waitFor(() => expect(api.explorer.browse).toHaveBeenLastCalledWith("demo", "Article", req({ sort: [{ column: "wordCount", descending: true }] })));
    expect(screen.getByRole("columnheader", { name: /wordCount/ })).toHaveAttribute("aria-sort", "descending");
    await userEvent.click(sortBtn());
    await waitFor(() => expect(api.explorer.browse).toHaveBeenLastCalledWith("demo", "Article", req()));
    // tags (an array) and the vector do not sort
    expect(screen.queryByRole("button", { name: /^Sort by tags/ })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: /^Sort by vector/ })).not.toBeInTheDocument();
  });

  it("null and empty text look different; a long vector is shortened, expanded and copied whole", async () => {
    const vector = JSON.stringify(Array.from({ length: 1536 }, (_, i) => i / 1000));
    const copy = vi.fn(async () => {});
    renderPanel({ browse: async () => grid([["id-1", "", null, "[]", vector]]) }, undefined, copy);
    const table = await screen.findByRole("table");
    const row = within(table).getAllByRole("row")[1];
    expect(within(row).getByText('""')).toHaveClass("cell-empty");
    expect(within(row).getByText("null")).toHaveClass("cell-null");
    expect(row).toHaveTextContent("[0, 0.001, 0.002, 0.003, …] (1,536 values)");
    expect(row.textContent?.length).toBeLessThan(300);
    await userEvent.click(within(row).getByRole("button", { name: "Show the full vector of row 1" }));
    const viewer = screen.getByRole("region", { name: "vector of row 1" });
    expect(viewer).toHaveTextContent("1,536 values");
    expect(within(viewer).getByText(vector)).toBeInTheDocument();
    await userEvent.click(within(viewer).getByRole("button", { name: "Copy" }));
    expect(copy).toHaveBeenCalledWith(vector);
    expect(await within(viewer).findByRole("button", { name: "Copied" })).toBeInTheDocument();
    await userEvent.keyboard("{Escape}");
    expect(screen.queryByRole("region", { name: "vector of row 1" })).not.toBeInTheDocument();
  });

  it("a page of 1,000 rows with 1,536-dimension vectors renders only the rows in view", async () => {
    const vector = JSON.stringify(Array.from({ length: 1536 }, () => 0.123456));
    const rows = Array.from({ length: 1000 }, (_, i) => [`id-${i}`, `t${i}`, `${i}`, "[]", vector]);
    renderPanel({ browse: async () => grid(rows, { hasMore: true }) });
    const table = await screen.findByRole("table");
    const shown = within(table).getAllByRole("row").length - 1;
    expect(shown).toBeGreaterThan(10);
    expect(shown).toBeLessThan(100);
    expect(table).toHaveAttribute("aria-rowcount", "1001");
  });

  it("issue 19: a text filter says what it will match under the column's tokenization, before it runs", async () => {
    const note = "title is tokenized by word (letters and digits, lower-cased): equals matches rows holding every word of the value, in any order, not only the exact text (tokenization field would).";
    const cols = articleColumns.map((c) => (c.name === "title" ? column("title", { tokenization: "word", filterNotes: { equals: note } }) : c));
    renderPanel({ describeTable: vi.fn(async () => tableInfo("Article", cols)) });
    await screen.findByRole("table");
    await userEvent.click(screen.getByRole("button", { name: "+ Filter" }));
    const editor = screen.getByRole("form", { name: "Edit filter" });
    await userEvent.selectOptions(within(editor).getByRole("combobox", { name: "Column" }), "title");
    await userEvent.selectOptions(within(editor).getByRole("combobox", { name: "Operator" }), "equals");
    expect(within(editor).getByRole("note")).toHaveTextContent(note);
    await userEvent.selectOptions(within(editor).getByRole("combobox", { name: "Operator" }), "is_null");
    expect(within(editor).queryByRole("note")).not.toBeInTheDocument();
  });

  it("issue 25: a filter or a sort that fails to run leaves no rows under its chip or arrow, only the reason; a failed page keeps its rows", async () => {
    const browse = vi.fn(async (_id: string, _t: string, r: BrowseRequest) => {
      if (r.filters.length > 0 || r.sort.length > 0) throw new Error("query_failed: the database refused the query");
      if (r.offset > 0) throw new Error("connection: Connection failed: the node did not answer");
      return grid(demoRows, { hasMore: true });
    });
    renderPanel({ browse });
    const table = await screen.findByRole("table");
    const rows = () => within(table).queryAllByRole("row").filter((r) => r.classList.contains("data-grid__row"));
    expect(rows().length).toBe(demoRows.length);

    await userEvent.click(screen.getByRole("button", { name: "Next ›" }));
    expect(await screen.findByText(/the node did not answer/)).toBeInTheDocument();
    expect(rows().length).toBe(demoRows.length);

    await userEvent.click(screen.getByRole("button", { name: "+ Filter" }));
    const editor = screen.getByRole("form", { name: "Edit filter" });
    await userEvent.selectOptions(within(editor).getByRole("combobox", { name: "Column" }), "wordCount");
    await userEvent.selectOptions(within(editor).getByRole("combobox", { name: "Operator" }), "greater_than");
    await userEvent.type(within(editor).getByRole("textbox", { name: "Value" }), "50{Enter}");
    expect(await screen.findByText(/the database refused the query/)).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Edit filter wordCount greater than 50" })).toBeInTheDocument();
    await waitFor(() => expect(rows().length).toBe(0));
  });
});

describe("refresh (issue 23)", () => {
  it("Refresh and F5 read the columns and the rows again; neither while changes are pending", async () => {
    let rows = demoRows;
    const describeTable = vi.fn(async (_id: string, table: string) => tableInfo(table));
    const api = renderPanel({ browse: vi.fn(async () => grid(rows)), describeTable });
    const table = await screen.findByRole("table", { name: "Rows of Article" });
    expect(within(table).getAllByRole("row")).toHaveLength(demoRows.length + 1);
    rows = demoRows.slice(0, 1);
    await userEvent.click(screen.getByRole("button", { name: "Refresh" }));
    await waitFor(() => expect(within(screen.getByRole("table", { name: "Rows of Article" })).getAllByRole("row")).toHaveLength(2));
    expect(describeTable).toHaveBeenCalledTimes(2);

    rows = demoRows;
    screen.getByRole("button", { name: "Refresh" }).focus();
    await userEvent.keyboard("{F5}");
    await waitFor(() => expect(within(screen.getByRole("table", { name: "Rows of Article" })).getAllByRole("row")).toHaveLength(demoRows.length + 1));
    expect(describeTable).toHaveBeenCalledTimes(3);

    // a pending change holds Refresh and F5 back
    await userEvent.click(screen.getByRole("button", { name: "+ Add row" }));
    expect(screen.getByRole("button", { name: "Refresh" })).toBeDisabled();
    const calls = (api.explorer.browse as ReturnType<typeof vi.fn>).mock.calls.length;
    screen.getByRole("table", { name: "Rows of Article" }).focus();
    await userEvent.keyboard("{F5}");
    expect((api.explorer.browse as ReturnType<typeof vi.fn>).mock.calls.length).toBe(calls);
  });
});

describe("a collection changed outside the tab (issue 23)", () => {
  // The watch (its timer and focus listener) starts in an effect of the render that shows the
  // rows; rows on the screen do not mean the effect has run (a CI run under load dispatched
  // the focus before it had), so the tests wait for its focus listener.
  let listening: MockInstance<typeof window.addEventListener>;
  beforeEach(() => {
    listening = vi.spyOn(window, "addEventListener");
  });
  afterEach(() => listening.mockRestore());
  const armed = () => waitFor(() => expect(listening).toHaveBeenCalledWith("focus", expect.any(Function)));

  it("says so once its definition differs, and Refresh reads it again", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      let info = tableInfo("Article");
      const describeTable = vi.fn(async () => info);
      renderPanel({ describeTable });
      await screen.findByRole("table", { name: "Rows of Article" });
      await armed();
      // the same definition: nothing to say
      await act(async () => {
        await vi.advanceTimersByTimeAsync(DEFINITION_CHECK_MS);
      });
      expect(screen.queryByText(/definition changed/)).not.toBeInTheDocument();
      info = tableInfo("Article", [...articleColumns, column("rating", { type: "number" })]);
      await act(async () => {
        await vi.advanceTimersByTimeAsync(DEFINITION_CHECK_MS);
      });
      const line = await screen.findByText(/The collection's definition changed outside this tab/);
      await act(async () => {
        within(line as HTMLElement).getByRole("button", { name: "Refresh" }).click();
      });
      await waitFor(() => expect(screen.queryByText(/definition changed/)).not.toBeInTheDocument());
      expect(describeTable).toHaveBeenCalledTimes(4);
      expect(screen.getAllByText("rating").length).toBeGreaterThan(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it("says so when the server no longer has the collection (dropped outside the app)", async () => {
    let gone = false;
    const describeTable = vi.fn(async () => {
      if (gone) throw "not_found: collection Article not found";
      return tableInfo("Article");
    });
    renderPanel({ describeTable });
    await screen.findByRole("table", { name: "Rows of Article" });
    await armed();
    await act(async () => {
      window.dispatchEvent(new Event("focus"));
    });
    await waitFor(() => expect(describeTable).toHaveBeenCalledTimes(2));
    expect(screen.queryByText(/no longer exists/)).not.toBeInTheDocument();
    gone = true;
    await act(async () => {
      window.dispatchEvent(new Event("focus"));
    });
    expect(await screen.findByRole("alert")).toHaveTextContent("Article no longer exists on the server: it was dropped outside this tab.");
    expect(screen.queryByText(/definition changed/)).not.toBeInTheDocument();
  });

  it("an older check answering last does not undo what the newest one found", async () => {
    const pending: ((v: "same" | "gone") => void)[] = [];
    let first = true;
    const describeTable = vi.fn(async () => {
      if (first) {
        first = false;
        return tableInfo("Article");
      }
      const v = await new Promise<"same" | "gone">((resolve) => pending.push(resolve));
      if (v === "gone") throw "not_found: collection Article not found";
      return tableInfo("Article");
    });
    renderPanel({ describeTable });
    await screen.findByRole("table", { name: "Rows of Article" });
    await armed();
    await act(async () => {
      window.dispatchEvent(new Event("focus"));
      window.dispatchEvent(new Event("focus"));
    });
    await waitFor(() => expect(pending).toHaveLength(2));
    await act(async () => pending[1]("gone"));
    expect(await screen.findByRole("alert")).toHaveTextContent("no longer exists on the server");
    await act(async () => pending[0]("same"));
    expect(screen.getByRole("alert")).toHaveTextContent("no longer exists on the server");
  });

  it("checks again the moment the window gets the focus back, without waiting for the next check", async () => {
    let info = tableInfo("Article");
    const describeTable = vi.fn(async () => info);
    renderPanel({ describeTable });
    await screen.findByRole("table", { name: "Rows of Article" });
    await armed();
    info = tableInfo("Article", [...articleColumns, column("rating", { type: "number" })]);
    await act(async () => {
      window.dispatchEvent(new Event("focus"));
    });
    expect(await screen.findByText(/The collection's definition changed outside this tab/)).toBeInTheDocument();
    expect(describeTable).toHaveBeenCalledTimes(2);
  });
});
