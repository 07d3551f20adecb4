import { act, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { ApiProvider, type CommitRequest, type CommitResult, type ExplorerApi, type RowKey } from "../../api";
import { keyId } from "../../api/rowKey";
import { column, connection, deferred, demoRows, fakeApi, grid, tableInfo } from "../../test/fakeApi";
import { TablePanel } from "./TablePanel";

const A = demoRows[0][0]!;
const B = demoRows[1][0]!;
/** refOf is the grid's own name of a stored Article row: its key's id (Article is keyed by uuid). */
const refOf = (uuid: string) => keyId({ uuid }, ["uuid"]);

function renderPanel(explorer: Partial<ExplorerApi> = {}, onFindSimilar?: (key: RowKey, keyColumns: string[], target: string) => void) {
  const copy = vi.fn(async (_t: string) => {});
  const api = fakeApi(async () => [], { browse: vi.fn(async () => grid(demoRows)), ...explorer }, { copy });
  render(
    <ApiProvider api={api}>
      <TablePanel connection={connection({ id: "demo", name: "Demo Weaviate" })} table="Article" onFindSimilar={onFindSimilar} />
    </ApiProvider>,
  );
  return { api, copy };
}

const gridRegion = () => screen.getByRole("region", { name: "Grid of Article" });
const bodyRows = () => within(screen.getByRole("table", { name: "Rows of Article" })).getAllByRole("row").slice(1);

/** focusCell focuses the grid and moves the active cell to (row, col) of the page with the keyboard. */
async function focusCell(row: number, col: number) {
  gridRegion().focus();
  await waitFor(() => expect(document.querySelector('[data-active="true"]')).not.toBeNull());
  fireEvent.keyDown(gridRegion(), { key: "Home", ctrlKey: true });
  for (let i = 0; i < row; i++) fireEvent.keyDown(gridRegion(), { key: "ArrowDown" });
  for (let j = 0; j < col; j++) fireEvent.keyDown(gridRegion(), { key: "ArrowRight" });
}

async function typeInto(row: number, col: number, text: string) {
  await focusCell(row, col);
  fireEvent.keyDown(gridRegion(), { key: "Enter" });
  const input = await screen.findByRole("textbox", { name: /^Edit / });
  await userEvent.clear(input);
  await userEvent.type(input, text);
  fireEvent.keyDown(input, { key: "Enter" });
}

describe("grid editing (issue 14: inline edits collected as pending changes)", () => {
  it("an edited cell is pending and highlighted; Commit sends only that cell, and the page is read again", async () => {
    const commit = vi.fn(async (_id: string, _t: string, req: CommitRequest): Promise<CommitResult> => ({
      outcomes: req.updates.map((u) => ({ ref: u.ref, action: "update", key: u.key, status: "ok", code: "", message: "" })),
      declined: false,
    }));
    const { api } = renderPanel({ commit });
    await screen.findByText("Rows 1–2 of 2");
    await typeInto(0, 1, "Rust, edited");
    const bar = await screen.findByRole("region", { name: "Pending changes" });
    expect(bar).toHaveTextContent("1 row changed, not yet written");
    const cell = within(bodyRows()[0]).getByText("Rust, edited");
    expect(cell.closest("td")).toHaveClass("cell--edited");

    const reads = vi.mocked(api.explorer.browse).mock.calls.length;
    fireEvent.click(within(bar).getByRole("button", { name: "Commit" }));
    await waitFor(() => expect(commit).toHaveBeenCalledTimes(1));
    expect(commit.mock.calls[0][2]).toEqual({ updates: [{ ref: refOf(A), key: { uuid: A }, values: { title: "Rust, edited" }, original: { title: "Rust in the Linux kernel" } }], inserts: [], deletes: [] });
    expect(await screen.findByText("1 row written")).toBeInTheDocument();
    await waitFor(() => expect(vi.mocked(api.explorer.browse).mock.calls.length).toBeGreaterThan(reads));
    // The outcome stays until dismissed (nothing is pending any more).
    fireEvent.click(within(screen.getByRole("region", { name: "Pending changes" })).getByRole("button", { name: "Dismiss" }));
    expect(screen.queryByRole("region", { name: "Pending changes" })).not.toBeInTheDocument();
  });

  it("a value the schema refuses is named at the cell before anything is sent, and Commit waits", async () => {
    const checkCells = vi.fn(async (_i: string, _t: string, values: Record<string, string | null>): Promise<Record<string, string>> =>
      values.wordCount === "many" ? { wordCount: 'wordCount (int): "many" is not an integer' } : {},
    );
    const commit = vi.fn();
    renderPanel({ checkCells, commit });
    await screen.findByText("Rows 1–2 of 2");
    await typeInto(0, 2, "many");
    await waitFor(() => expect(document.querySelector("td.cell--invalid")).not.toBeNull());
    expect(document.querySelector("td.cell--invalid")).toHaveAttribute("title", 'wordCount (int): "many" is not an integer');
    const bar = screen.getByRole("region", { name: "Pending changes" });
    expect(bar).toHaveTextContent("1 value does not fit its column");
    expect(within(bar).getByRole("button", { name: "Commit" })).toBeDisabled();
    fireEvent.keyDown(gridRegion(), { key: "s", ctrlKey: true });
    expect(commit).not.toHaveBeenCalled();
    expect(checkCells).toHaveBeenCalledWith("demo", "Article", { wordCount: "many" });
  });

  it("a commit where one row fails keeps that row pending with its reason; the applied one leaves", async () => {
    const commit = vi.fn(async (_id: string, _t: string, req: CommitRequest): Promise<CommitResult> => ({
      outcomes: req.updates.map((u) =>
        u.key.uuid === B
          ? { ref: u.ref, action: "update", key: u.key, status: "failed", code: "not_found", message: "object does not exist in Article" }
          : { ref: u.ref, action: "update", key: u.key, status: "ok", code: "", message: "" },
      ),
      declined: false,
    }));
    renderPanel({ commit });
    await screen.findByText("Rows 1–2 of 2");
    await typeInto(0, 1, "one");
    await typeInto(1, 1, "two");
    fireEvent.keyDown(gridRegion(), { key: "s", ctrlKey: true });
    expect(await screen.findByText(/1 row written; 1 row not: it stays pending, the reason below/)).toBeInTheDocument();
    expect(screen.getByRole("region", { name: "Pending changes" })).toHaveTextContent("1 row changed");
    expect(screen.getByRole("img", { name: "Row 2 not applied: object does not exist in Article" })).toBeInTheDocument();
    expect(screen.getByRole("list", { name: "Rows not applied" })).toHaveTextContent(`${B}: object does not exist in Article`);
    expect(within(bodyRows()[1]).getByText("two")).toBeInTheDocument();
  });

  it("a commit that cannot run at all keeps every typed value and says why", async () => {
    const commit = vi.fn(async () => {
      throw "unavailable: the connection is not open: connect to it first";
    });
    renderPanel({ commit });
    await screen.findByText("Rows 1–2 of 2");
    await typeInto(0, 1, "kept");
    fireEvent.click(screen.getByRole("button", { name: "Commit" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("Not committed: the connection is not open: connect to it first. Your changes are kept.");
    expect(within(bodyRows()[0]).getByText("kept")).toBeInTheDocument();
  });

  it("Delete sets a cell NULL, Ctrl+Z undoes it; Add row and Delete row are pending until Commit", async () => {
    const commit = vi.fn(async (): Promise<CommitResult> => ({ outcomes: [], declined: true }));
    renderPanel({ commit });
    await screen.findByText("Rows 1–2 of 2");
    await focusCell(0, 1);
    fireEvent.keyDown(gridRegion(), { key: "Delete" });
    expect(within(bodyRows()[0]).getAllByText("null").length).toBeGreaterThan(0);
    fireEvent.keyDown(gridRegion(), { key: "z", ctrlKey: true });
    expect(within(bodyRows()[0]).getByText("Rust in the Linux kernel")).toBeInTheDocument();

    fireEvent.click(screen.getByRole("button", { name: "+ Add row" }));
    expect(bodyRows()[0]).toHaveClass("data-grid__row--new");
    await typeInto(0, 1, "brand new");
    // Select the second stored row by its number and mark it for deletion.
    fireEvent.click(within(bodyRows()[2]).getAllByRole("cell")[0]);
    fireEvent.click(screen.getByRole("button", { name: "Delete row" }));
    expect(bodyRows()[2]).toHaveClass("data-grid__row--deleted");
    expect(screen.getByRole("region", { name: "Pending changes" })).toHaveTextContent("2 rows changed");
    fireEvent.click(screen.getByRole("button", { name: "Commit" }));
    await waitFor(() => expect(commit).toHaveBeenCalled());
    expect(commit.mock.calls[0]).toEqual([
      "demo",
      "Article",
      { updates: [], inserts: [{ ref: "new:1", key: {}, values: { title: "brand new" } }], deletes: [{ ref: refOf(B), key: { uuid: B }, values: {} }] },
    ]);
    expect(await screen.findByText("Nothing was written: the deletion was not confirmed.")).toBeInTheDocument();
    expect(screen.getByRole("region", { name: "Pending changes" })).toHaveTextContent("2 rows changed");
  });

  it("copies the cell, rows as TSV with a header, and rows as JSON typed by column", async () => {
    const { copy } = renderPanel();
    await screen.findByText("Rows 1–2 of 2");
    await focusCell(0, 2);
    fireEvent.keyDown(gridRegion(), { key: "c", ctrlKey: true });
    await waitFor(() => expect(copy).toHaveBeenLastCalledWith("1450"));
    fireEvent.keyDown(gridRegion(), { key: " " });
    fireEvent.keyDown(gridRegion(), { key: "ArrowDown", shiftKey: true });
    fireEvent.keyDown(gridRegion(), { key: "c", ctrlKey: true });
    await waitFor(() => expect(copy).toHaveBeenCalledTimes(2));
    expect(copy.mock.calls[1][0].split("\n")).toEqual([
      "uuid\ttitle\twordCount\ttags\tvector",
      `${A}\tRust in the Linux kernel\t1450\t["programming","linux"]\t[0.95,0.2,0.05,0]`,
      `${B}\tVector search explained\t\t[]\t[0.85,0.45,0.05,0]`,
    ]);
    fireEvent.keyDown(gridRegion(), { key: "C", ctrlKey: true, shiftKey: true });
    await waitFor(() => expect(copy).toHaveBeenCalledTimes(3));
    expect(JSON.parse(copy.mock.calls[2][0])).toEqual([
      { uuid: A, title: "Rust in the Linux kernel", wordCount: 1450, tags: ["programming", "linux"], vector: [0.95, 0.2, 0.05, 0] },
      { uuid: B, title: "Vector search explained", wordCount: null, tags: [], vector: [0.85, 0.45, 0.05, 0] },
    ]);
  });

  it("the row detail panel shows every field and the vector's dimension; Find similar searches with the row", async () => {
    const onFindSimilar = vi.fn();
    renderPanel({}, onFindSimilar);
    await screen.findByText("Rows 1–2 of 2");
    await focusCell(1, 0);
    fireEvent.click(screen.getByRole("button", { name: "Row details" }));
    const detail = screen.getByRole("complementary", { name: `Details of ${B}` });
    expect(detail).toHaveTextContent("Vector search explained");
    expect(detail).toHaveTextContent("4 dimensions");
    await act(async () => fireEvent.click(within(detail).getByRole("button", { name: "Find similar" })));
    expect(onFindSimilar).toHaveBeenCalledWith({ uuid: B }, ["uuid"], "");
  });

  it("a page carries vector previews; expand and copy read the full vector by the row's key", async () => {
    const cols = grid(demoRows).columns.map((c) => (c.name === "vector" ? { ...c, preview: true } : c));
    const previewRows = demoRows.map((r) => [...r.slice(0, -1), '{"dimensions":1536,"head":[0.95,0.2,0.05,0]}']);
    const full = "[" + Array.from({ length: 1536 }, (_, i) => (i / 1536).toFixed(4)).join(",") + "]";
    const vectors = vi.fn(async (_id: string, _t: string, keys: RowKey[]) => keys.map(() => full));
    const { copy } = renderPanel({ browse: vi.fn(async () => grid(previewRows, { columns: cols })), vectors });
    await screen.findByText("Rows 1–2 of 2");
    expect(within(bodyRows()[0]).getByText("[0.95, 0.2, 0.05, 0, …] (1,536 values)")).toBeInTheDocument();
    fireEvent.click(screen.getByRole("button", { name: "Show the full vector of row 1" }));
    const viewer = screen.getByRole("region", { name: "vector of row 1" });
    await waitFor(() => expect(viewer).toHaveTextContent(full));
    expect(vectors).toHaveBeenCalledWith("demo", "Article", [{ uuid: A }]);
    fireEvent.keyDown(viewer, { key: "Escape" });
    await focusCell(0, 0);
    fireEvent.keyDown(gridRegion(), { key: "C", ctrlKey: true, shiftKey: true });
    await waitFor(() => expect(copy).toHaveBeenCalled());
    expect(JSON.parse(copy.mock.calls[0][0])[0].vector).toHaveLength(1536);
  });

  it("the active cell is scrolled into view when it moves, not whenever the grid renders again", async () => {
    const had = Object.getOwnPropertyDescriptor(Element.prototype, "scrollIntoView");
    const scrolled = vi.fn();
    Element.prototype.scrollIntoView = scrolled;
    try {
      renderPanel();
      await screen.findByText("Rows 1–2 of 2");
      await focusCell(0, 1);
      await waitFor(() => expect(scrolled).toHaveBeenCalled());
      scrolled.mockClear();
      // Renders that do not move the active cell: the detail panel opening and closing.
      fireEvent.click(screen.getByRole("button", { name: "Row details" }));
      await screen.findByRole("complementary", { name: /^Details of / });
      fireEvent.click(screen.getByRole("button", { name: "Row details" }));
      await waitFor(() => expect(screen.queryByRole("complementary", { name: /^Details of / })).toBeNull());
      expect(scrolled).not.toHaveBeenCalled();
      fireEvent.keyDown(gridRegion(), { key: "ArrowDown" });
      await waitFor(() => expect(scrolled).toHaveBeenCalledTimes(1));
      // Rows shifting under the active cell do not scroll: an added row (which becomes the
      // active one: a move) undone while B is active moves B up one place.
      fireEvent.click(screen.getByRole("button", { name: "+ Add row" }));
      await waitFor(() => expect(bodyRows()).toHaveLength(3));
      fireEvent.keyDown(gridRegion(), { key: "ArrowDown" });
      fireEvent.keyDown(gridRegion(), { key: "ArrowDown" });
      await waitFor(() => expect(bodyRows()[2].querySelector('[data-active="true"]')).not.toBeNull());
      scrolled.mockClear();
      fireEvent.keyDown(gridRegion(), { key: "z", ctrlKey: true });
      await waitFor(() => expect(bodyRows()).toHaveLength(2));
      expect(bodyRows()[1].querySelector('[data-active="true"]')).not.toBeNull();
      expect(scrolled).not.toHaveBeenCalled();
    } finally {
      if (had) Object.defineProperty(Element.prototype, "scrollIntoView", had);
      else delete (Element.prototype as Partial<Element>).scrollIntoView;
    }
  });

  it("the full value viewer follows its row, not its place: a late read of another row and an added row change nothing", async () => {
    const cols = grid(demoRows).columns.map((c) => (c.name === "vector" ? { ...c, preview: true } : c));
    const previewRows = demoRows.map((r) => [...r.slice(0, -1), '{"dimensions":4,"head":[0.9,0.2,0.05,0]}']);
    const slowA = deferred<(string | null)[]>();
    const vectors = vi.fn(async (_id: string, _t: string, keys: RowKey[]) => (keys[0].uuid === A ? slowA.promise : ["[0.85,0.45,0.05,0]"]));
    renderPanel({ browse: vi.fn(async () => grid(previewRows, { columns: cols })), vectors });
    await screen.findByText("Rows 1–2 of 2");
    fireEvent.click(screen.getByRole("button", { name: "Show the full vector of row 1" }));
    fireEvent.click(screen.getByRole("button", { name: "Show the full vector of row 2" }));
    const viewer = screen.getByRole("region", { name: "vector of row 2" });
    await waitFor(() => expect(viewer).toHaveTextContent("[0.85,0.45,0.05,0]"));
    await act(async () => slowA.resolve(["[0.95,0.2,0.05,0]"]));
    expect(viewer).toHaveTextContent("[0.85,0.45,0.05,0]");
    // An added row goes first, one place above B: the viewer stays on B (database row 2).
    fireEvent.click(screen.getByRole("button", { name: "+ Add row" }));
    await waitFor(() => expect(bodyRows()).toHaveLength(3));
    expect(screen.getByRole("region", { name: "vector of row 2" })).toHaveTextContent("[0.85,0.45,0.05,0]");
  });

  it("Escape leaves the cell as it was; Enter records the edit once, so one Ctrl+Z undoes it", async () => {
    const checkCells = vi.fn(async (): Promise<Record<string, string>> => ({}));
    renderPanel({ checkCells });
    await screen.findByText("Rows 1–2 of 2");
    await focusCell(0, 1);
    fireEvent.keyDown(gridRegion(), { key: "Enter" });
    const input = await screen.findByRole("textbox", { name: /^Edit title/ });
    await userEvent.clear(input);
    await userEvent.type(input, "oops");
    fireEvent.keyDown(input, { key: "Escape" });
    expect(screen.queryByRole("region", { name: "Pending changes" })).not.toBeInTheDocument();
    expect(within(bodyRows()[0]).getByText("Rust in the Linux kernel")).toBeInTheDocument();

    await typeInto(0, 1, "once");
    expect(checkCells).toHaveBeenCalledTimes(1);
    fireEvent.keyDown(gridRegion(), { key: "z", ctrlKey: true });
    expect(within(bodyRows()[0]).getByText("Rust in the Linux kernel")).toBeInTheDocument();
    expect(screen.queryByRole("region", { name: "Pending changes" })).not.toBeInTheDocument();
  });

  it("a NULL text cell opened and closed without typing stays NULL", async () => {
    const rows = [demoRows[0].map((c, j) => (j === 1 ? null : c)), demoRows[1]];
    renderPanel({ browse: vi.fn(async () => grid(rows)) });
    await screen.findByText("Rows 1–2 of 2");
    await focusCell(0, 1);
    fireEvent.keyDown(gridRegion(), { key: "F2" });
    fireEvent.keyDown(await screen.findByRole("textbox", { name: /^Edit title/ }), { key: "Enter" });
    expect(screen.queryByRole("region", { name: "Pending changes" })).not.toBeInTheDocument();
  });

  it("a NULL text cell typed into and erased again becomes empty text, not NULL", async () => {
    const rows = [demoRows[0].map((c, j) => (j === 1 ? null : c)), demoRows[1]];
    renderPanel({ browse: vi.fn(async () => grid(rows)) });
    await screen.findByText("Rows 1–2 of 2");
    await focusCell(0, 1);
    fireEvent.keyDown(gridRegion(), { key: "F2" });
    const input = await screen.findByRole("textbox", { name: /^Edit title/ });
    await userEvent.type(input, "x{Backspace}");
    fireEvent.keyDown(input, { key: "Enter" });
    const bar = await screen.findByRole("region", { name: "Pending changes" });
    expect(bar).toHaveTextContent("1 row changed, not yet written");
    const cell = bodyRows()[0].querySelectorAll("td")[2];
    expect(cell).toHaveClass("cell--edited");
    expect(cell).not.toHaveTextContent("NULL");
  });

  it("an undo that brings back a refused value checks it again, so Commit waits for it", async () => {
    let answer: (v: Record<string, string>) => void = () => {};
    const checkCells = vi.fn(
      (_i: string, _t: string, values: Record<string, string | null>): Promise<Record<string, string>> =>
        values.wordCount === "many" && checkCells.mock.calls.length === 1
          ? new Promise((r) => (answer = r)) // the first check answers late
          : Promise.resolve<Record<string, string>>(values.wordCount === "many" ? { wordCount: 'wordCount (int): "many" is not an integer' } : {}),
    );
    renderPanel({ checkCells });
    await screen.findByText("Rows 1–2 of 2");
    await typeInto(0, 2, "many");
    await typeInto(1, 1, "other");
    await act(async () => answer({ wordCount: 'wordCount (int): "many" is not an integer' }));
    fireEvent.keyDown(gridRegion(), { key: "z", ctrlKey: true }); // undoes "other"
    await waitFor(() => expect(screen.getByRole("region", { name: "Pending changes" })).toHaveTextContent("1 value does not fit its column"));
    expect(within(screen.getByRole("region", { name: "Pending changes" })).getByRole("button", { name: "Commit" })).toBeDisabled();
  });

  it("the pending changes stay on screen, and cannot change, while a commit runs", async () => {
    const answer = deferred<CommitResult>();
    renderPanel({ commit: vi.fn(() => answer.promise) });
    await screen.findByText("Rows 1–2 of 2");
    await typeInto(0, 1, "while committing");
    fireEvent.keyDown(gridRegion(), { key: "s", ctrlKey: true });
    expect(await screen.findByText("Committing 1 row…")).toBeInTheDocument();
    expect(within(bodyRows()[0]).getByText("while committing").closest("td")).toHaveClass("cell--edited");
    await focusCell(1, 1);
    fireEvent.keyDown(gridRegion(), { key: "Enter" });
    expect(screen.queryByRole("textbox", { name: /^Edit / })).not.toBeInTheDocument();
    await act(async () => answer.resolve({ outcomes: [{ ref: refOf(A), action: "update", key: { uuid: A }, status: "ok", code: "", message: "" }], declined: false }));
    expect(await screen.findByText("1 row written")).toBeInTheDocument();
  });
});

describe("rows keyed by their primary key (issue 37, item 3)", () => {
  // Orders is keyed by two columns, a tenant's text and a numeric id; neither is read-only
  // in the schema, and the grid reads both as text.
  const orderColumns = [column("tenant", { primaryKey: true }), column("id", { type: "int", primaryKey: true }), column("title"), column("vector", { type: "vector", readOnly: true, json: true, filterable: [], sortable: false })];
  const orderRows = [
    ["north", "7", "Seven", "[1,0]"],
    ["south", "7", "Other seven", "[0,1]"],
  ];
  const ordersGrid = grid(orderRows, { columns: orderColumns });
  const ordersRows = () => within(screen.getByRole("table", { name: "Rows of Orders" })).getAllByRole("row").slice(1);
  const ordersRegion = () => screen.getByRole("region", { name: "Grid of Orders" });

  function renderOrders(primaryKey: string[], explorer: Partial<ExplorerApi> = {}, onFindSimilar = vi.fn()) {
    const api = fakeApi(async () => [], {
      describeTable: async () => ({ ...tableInfo("Orders", orderColumns), primaryKey }),
      browse: vi.fn(async () => ordersGrid),
      ...explorer,
    });
    render(
      <ApiProvider api={api}>
        <TablePanel connection={connection({ id: "demo" })} table="Orders" onFindSimilar={onFindSimilar} />
      </ApiProvider>,
    );
    return { onFindSimilar };
  }

  async function at(row: number, col: number) {
    ordersRegion().focus();
    await waitFor(() => expect(document.querySelector('[data-active="true"]')).not.toBeNull());
    fireEvent.keyDown(ordersRegion(), { key: "Home", ctrlKey: true });
    for (let i = 0; i < row; i++) fireEvent.keyDown(ordersRegion(), { key: "ArrowDown" });
    for (let j = 0; j < col; j++) fireEvent.keyDown(ordersRegion(), { key: "ArrowRight" });
  }

  async function typeAt(row: number, col: number, text: string) {
    await at(row, col);
    fireEvent.keyDown(ordersRegion(), { key: "Enter" });
    const input = await screen.findByRole("textbox", { name: /^Edit / });
    await userEvent.clear(input);
    await userEvent.type(input, text);
    fireEvent.keyDown(input, { key: "Enter" });
  }

  it("a composite key: an update and a delete send the row's key by column, a new row's typed key cells go among its values", async () => {
    const commit = vi.fn(async (_id: string, _t: string, req: CommitRequest): Promise<CommitResult> => ({
      outcomes: [
        ...req.updates.map((u) => ({ ref: u.ref, action: "update" as const, key: u.key, status: "ok" as const, code: "", message: "" })),
        ...req.inserts.map((u) => ({ ref: u.ref, action: "insert" as const, key: { tenant: "east", id: 9 }, status: "ok" as const, code: "", message: "" })),
        ...req.deletes.map((u) => ({ ref: u.ref, action: "delete" as const, key: u.key, status: "failed" as const, code: "conflict", message: "the order is locked" })),
      ],
      declined: false,
    }));
    renderOrders(["tenant", "id"], { commit });
    await screen.findByText("Rows 1–2 of 2");
    await typeAt(0, 2, "Seven, edited");
    // a stored row's key cells name it: they stay as read
    await at(0, 1);
    fireEvent.keyDown(ordersRegion(), { key: "Enter" });
    expect(screen.queryByRole("textbox", { name: /^Edit / })).not.toBeInTheDocument();
    expect(screen.getByText("id is part of the row's key: it cannot be changed")).toBeInTheDocument();
    fireEvent.click(within(ordersRows()[1]).getAllByRole("cell")[0]);
    fireEvent.click(screen.getByRole("button", { name: "Delete row" }));
    // a new row may type its key
    fireEvent.click(screen.getByRole("button", { name: "+ Add row" }));
    await typeAt(0, 0, "east");
    await typeAt(0, 1, "9");
    await typeAt(0, 2, "Nine");
    fireEvent.keyDown(ordersRegion(), { key: "s", ctrlKey: true });
    await waitFor(() => expect(commit).toHaveBeenCalled());
    expect(commit.mock.calls[0][2]).toEqual({
      updates: [{ ref: keyId({ tenant: "north", id: "7" }, ["tenant", "id"]), key: { tenant: "north", id: "7" }, values: { title: "Seven, edited" }, original: { title: "Seven" } }],
      inserts: [{ ref: "new:1", key: {}, values: { tenant: "east", id: "9", title: "Nine" } }],
      deletes: [{ ref: keyId({ tenant: "south", id: "7" }, ["tenant", "id"]), key: { tenant: "south", id: "7" }, values: {} }],
    });
    // the row not applied is named by its key, for a person
    expect(await screen.findByRole("list", { name: "Rows not applied" })).toHaveTextContent("tenant=south, id=7: the order is locked");
  });

  it("a composite key: the row detail names the row by its key and Find similar gets the key by column", async () => {
    const { onFindSimilar } = renderOrders(["tenant", "id"]);
    await screen.findByText("Rows 1–2 of 2");
    await at(1, 2);
    fireEvent.click(screen.getByRole("button", { name: "Row details" }));
    const detail = screen.getByRole("complementary", { name: "Details of tenant=south, id=7" });
    await act(async () => fireEvent.click(within(detail).getByRole("button", { name: "Find similar" })));
    expect(onFindSimilar).toHaveBeenCalledWith({ tenant: "south", id: "7" }, ["tenant", "id"], "");
  });

  it("a table without a primary key: rows are read and added, but not changed, deleted or searched near, each refusal with its reason", async () => {
    const commit = vi.fn();
    renderOrders([], { commit });
    await screen.findByText("Rows 1–2 of 2");
    expect(screen.getByRole("note")).toHaveTextContent("Orders has no primary key: its rows can be read and added, but not changed, deleted or searched near (Find similar) one by one.");
    const why = "The table has no primary key: its rows cannot be named one by one, so they cannot be changed, deleted or searched near (Find similar)";
    await at(0, 2);
    fireEvent.keyDown(ordersRegion(), { key: "Enter" });
    expect(screen.queryByRole("textbox", { name: /^Edit / })).not.toBeInTheDocument();
    expect(screen.getByText(why)).toBeInTheDocument();
    const del = screen.getByRole("button", { name: "Delete row" });
    expect(del).toBeDisabled();
    expect(del).toHaveAttribute("title", why);
    fireEvent.keyDown(ordersRegion(), { key: "Delete", ctrlKey: true });
    expect(ordersRows()[0]).not.toHaveClass("data-grid__row--deleted");
    fireEvent.click(screen.getByRole("button", { name: "Row details" }));
    const similar = within(screen.getByRole("complementary", { name: "Details of row" })).getByRole("button", { name: "Find similar" });
    expect(similar).toBeDisabled();
    expect(similar).toHaveAttribute("title", why);
    // an added row needs no key of the table's
    fireEvent.click(screen.getByRole("button", { name: "+ Add row" }));
    await typeAt(0, 2, "Added");
    expect(screen.getByRole("region", { name: "Pending changes" })).toHaveTextContent("1 row changed, not yet written");
  });
});
