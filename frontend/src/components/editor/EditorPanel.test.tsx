import { act, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { ApiError, ApiProvider, type EditorApi, type RunResult } from "../../api";
import { column, connection, deferred, fakeApi, grid } from "../../test/fakeApi";
import { EditorView } from "@codemirror/view";
import { EditorPanel } from "./EditorPanel";

const base: RunResult = { kind: "json", grid: null, json: "", text: "", table: "", status: 0, message: "", access: "read", destructive: false, elapsedMs: 3, notice: "", tag: "", before: [] };

function renderEditor(editor: Partial<EditorApi>, text: string, id = `c-${Math.random()}`) {
  const api = fakeApi(async () => [], {}, { editor });
  const view = render(
    <ApiProvider api={api}>
      <EditorPanel connection={connection({ id, name: "Demo" })} initialText={text} />
    </ApiProvider>,
  );
  return Object.assign(api, { unmount: view.unmount });
}

const runButton = () => screen.getByRole("button", { name: /Run/ });

describe("query editor (issue 14)", () => {
  it("runs the statement under the cursor; a Get shows as a grid with uuid and each _additional member", async () => {
    const g = grid([["00000000-0000-4000-8000-000000000001", "Alpha", "0.01"]], {
      columns: [column("uuid", { type: "uuid", primaryKey: true }), column("title", { type: "" }), column("distance", { type: "" })],
    });
    const run = vi.fn(async () => ({ ...base, kind: "grid" as const, grid: g, table: "Typed" }));
    renderEditor({ run }, "{ Get { Typed(nearVector: {vector: [1]}) { title _additional { id distance } } } }\n\nGET /v1/schema");
    fireEvent.click(runButton());
    await screen.findByRole("table", { name: "Rows of Typed" });
    expect(run).toHaveBeenCalledWith(expect.any(String), "{ Get { Typed(nearVector: {vector: [1]}) { title _additional { id distance } } } }");
    const headers = within(screen.getByRole("table", { name: "Rows of Typed" })).getAllByRole("columnheader").slice(1);
    expect(headers[0]).toHaveTextContent(/^uuid/);
    expect(headers[1]).toHaveTextContent(/^title/);
    expect(headers[2]).toHaveTextContent(/^distance/);
    expect(screen.getByText(/1 row/)).toBeInTheDocument();
  });

  it("shows what the driver says about the answer: a Get translated to gRPC on a server with GraphQL off", async () => {
    const g = grid([["00000000-0000-4000-8000-000000000001", "Alpha"]], { columns: [column("uuid", { type: "uuid", primaryKey: true }), column("title")] });
    const notice = "This server has GraphQL off: the query was translated to its gRPC API and answered in GraphQL's shape";
    const run = vi.fn(async () => ({ ...base, kind: "grid" as const, grid: g, table: "Typed", notice }));
    renderEditor({ run }, "{ Get { Typed { title _additional { id } } } }");
    fireEvent.click(runButton());
    await screen.findByRole("table", { name: "Rows of Typed" });
    expect(screen.getByText(notice)).toHaveAttribute("role", "status");
  });

  it("shows anything else as collapsible JSON", async () => {
    const run = vi.fn(async () => ({ ...base, json: '{\n  "data": {\n    "Aggregate": { "Typed": [ { "meta": { "count": 5 } } ] }\n  }\n}' }));
    renderEditor({ run }, "{ Aggregate { Typed { meta { count } } } }");
    fireEvent.click(runButton());
    const json = await screen.findByRole("region", { name: "JSON result" });
    expect(json).toHaveTextContent('"count": 5');
    const details = json.querySelectorAll("details");
    expect(details.length).toBeGreaterThan(3);
    expect(details[0]).toHaveAttribute("open");
  });

  it("shows a plan as the text the database wrote, its indentation kept, and each server notice on its own line", async () => {
    const plan = "Sort\n  Sort Key: v\n  ->  Seq Scan on t\n        Filter: (id > 10)";
    const run = vi.fn(async () => ({ ...base, kind: "text" as const, text: plan, notice: "NOTICE: one\nWARNING: two" }));
    renderEditor({ run }, "EXPLAIN (COSTS OFF) SELECT * FROM t WHERE id > 10 ORDER BY v");
    fireEvent.click(runButton());
    const shown = await screen.findByLabelText("Plan");
    expect(shown.tagName).toBe("PRE");
    expect(shown.textContent).toBe(plan);
    expect(screen.queryByRole("region", { name: "JSON result" })).toBeNull();
    expect(screen.getByRole("status")).toHaveTextContent("NOTICE: one WARNING: two");
  });

  it("shows each statement's answer of a run of several, in order, each with its rows and the database's tag", async () => {
    const first = grid([["1", "one"]], { columns: [column("id"), column("name")] });
    const last = grid([["2"], ["3"]], { columns: [column("id")] });
    const run = vi.fn(async () => ({
      ...base,
      kind: "grid" as const,
      grid: last,
      tag: "SELECT 2",
      before: [
        { kind: "json" as const, grid: null, json: '{ "commands": ["CREATE TABLE"] }', text: "", tag: "CREATE TABLE", notice: "" },
        { kind: "grid" as const, grid: first, json: "", text: "", tag: "SELECT 1", notice: "" },
      ],
    }));
    renderEditor({ run }, "CREATE TABLE t (id int);\nSELECT 1 AS id, 'one' AS name;\nSELECT 2 UNION SELECT 3");
    fireEvent.click(runButton());
    const one = await screen.findByRole("region", { name: "Statement 1 of 3" });
    expect(one).toHaveTextContent("CREATE TABLE");
    const two = screen.getByRole("region", { name: "Statement 2 of 3" });
    expect(two).toHaveTextContent("1 row · SELECT 1");
    expect(within(two).getByRole("table")).toHaveTextContent("one");
    expect(screen.getByText(/Statement 3 of 3 · 2 rows · SELECT 2/)).toBeInTheDocument();
  });

  it("Ctrl+Shift+Enter runs the whole text, every statement of it", async () => {
    const run = vi.fn(async () => base);
    renderEditor({ run }, "SELECT 1\n\nSELECT 2");
    const content = document.querySelector(".cm-content") as HTMLElement;
    fireEvent.keyDown(content, { key: "Enter", ctrlKey: true, shiftKey: true });
    await waitFor(() => expect(run).toHaveBeenCalledWith(expect.any(String), "SELECT 1\n\nSELECT 2"));
  });

  it("shows a refusal inline with its reason, and a declined write as not run", async () => {
    const run = vi
      .fn()
      .mockRejectedValueOnce(new ApiError("unsupported", "GraphQL mutation is not available: Weaviate's GraphQL only reads. Writes go through REST"))
      .mockResolvedValueOnce({ ...base, kind: "not_run", message: "Not run: the write was not confirmed, nothing was sent.", access: "write" });
    renderEditor({ run }, "mutation { Add { id } }");
    fireEvent.click(runButton());
    expect(await screen.findByRole("alert")).toHaveTextContent("GraphQL mutation is not available");
    fireEvent.click(runButton());
    // The run shows "Running…" as a status first: wait for the answer, not the first status.
    await waitFor(() => expect(screen.getByRole("status")).toHaveTextContent("Not run"));
  });

  it("underlines a syntax error at its line and column", async () => {
    const run = vi.fn().mockRejectedValue(new ApiError("invalid_argument", "GraphQL syntax error: Expected Name, found } (line 2, column 3)"));
    renderEditor({ run }, "{ Get {\n  } }\n\nGET /v1/meta");
    fireEvent.click(runButton());
    expect(await screen.findByRole("alert")).toHaveTextContent("line 2, column 3");
    await waitFor(() => expect(document.querySelector(".cm-lintRange-error")?.textContent).toBe("}"));
  });

  it("an error answering after the text changed underlines the statement where it is now", async () => {
    const answer = deferred<RunResult>();
    renderEditor({ run: () => answer.promise }, "{ Get {\n  } }\n\nGET /v1/meta");
    fireEvent.click(runButton());
    const v = EditorView.findFromDOM(document.querySelector(".cm-editor") as HTMLElement);
    act(() => v?.dispatch({ changes: { from: 0, insert: "GET /v1/schema\n\n" } }));
    await act(async () => answer.reject(new ApiError("invalid_argument", "GraphQL syntax error: Expected Name, found } (line 2, column 3)")));
    expect(await screen.findByRole("alert")).toHaveTextContent("line 2, column 3");
    await waitFor(() => expect(document.querySelector(".cm-lintRange-error")?.textContent).toBe("}"));
  });

  it("shows the last result again when the tab comes back", async () => {
    const run = vi.fn(async () => ({ ...base, json: '{"kept": true}' }));
    const first = renderEditor({ run }, "GET /v1/meta", "kept-conn");
    fireEvent.click(runButton());
    await screen.findByRole("region", { name: "JSON result" });
    first.unmount();
    renderEditor({ run }, "GET /v1/meta", "kept-conn");
    expect(screen.getByRole("region", { name: "JSON result" })).toHaveTextContent('"kept": true');
  });

  it("offers Cancel while running, which cancels the connection's run", async () => {
    const pending = deferred<RunResult>();
    const cancel = vi.fn(async () => true);
    renderEditor({ run: () => pending.promise, cancel }, "GET /v1/schema");
    fireEvent.click(runButton());
    fireEvent.click(await screen.findByRole("button", { name: "Cancel" }));
    expect(cancel).toHaveBeenCalled();
    await act(async () => pending.reject(new ApiError("cancelled", "the query was cancelled")));
    expect(await screen.findByRole("alert")).toHaveTextContent("Cancelled: the query was cancelled");
    expect(runButton()).toBeInTheDocument();
  });

  it("keeps a searchable history and saved queries", async () => {
    renderEditor({}, "GET /v1/schema");
    fireEvent.click(runButton());
    await screen.findByRole("region", { name: "JSON result" });
    fireEvent.click(screen.getByRole("button", { name: "History" }));
    const history = screen.getByRole("complementary", { name: "History" });
    await waitFor(() => expect(history).toHaveTextContent("GET /v1/schema"));
    fireEvent.change(within(history).getByRole("searchbox"), { target: { value: "aggregate" } });
    await waitFor(() => expect(history).toHaveTextContent("Nothing matches."));

    fireEvent.click(screen.getByRole("button", { name: "Saved" }));
    const saved = screen.getByRole("complementary", { name: "Saved queries" });
    fireEvent.change(within(saved).getByRole("textbox", { name: "Saved query name" }), { target: { value: "schema" } });
    fireEvent.click(within(saved).getByRole("button", { name: "Save current" }));
    expect(await within(saved).findByRole("button", { name: "schema" })).toHaveAttribute("title", "GET /v1/schema");
  });
});

// Contract 3, item 1: the template menu is the driver's, written for the connection's first
// table; choosing one inserts its text. No template text lives in the window.
describe("the editor's templates come from the driver", () => {
  it("lists the driver's templates for the first table and inserts the one chosen", async () => {
    const templates = vi.fn(async (_id: string, table: string) => [{ name: "Count", text: `COUNT ${table}` }]);
    const api = fakeApi(async () => [], { listTables: async () => [{ name: "Article", count: 1 }, { name: "Author", count: 1 }] } as never, { editor: { templates } });
    render(
      <ApiProvider api={api}>
        <EditorPanel connection={connection({ id: "tpl", name: "Demo" })} initialText="" ready />
      </ApiProvider>,
    );
    const menu = screen.getByRole("combobox", { name: "Insert a template" });
    await waitFor(() => expect(menu).toBeEnabled());
    expect(templates).toHaveBeenCalledWith("tpl", "Article");
    fireEvent.change(menu, { target: { value: "Count" } });
    await waitFor(() => expect(document.querySelector(".cm-content")?.textContent).toContain("COUNT Article"));
  });
});
