import { act, cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { StrictMode } from "react";
import { describe, expect, it, vi } from "vitest";
import { ApiProvider, type ExportResult, type TransferProgress } from "../../api";
import { fakeApi } from "../../test/fakeApi";
import { ExportDialog } from "./ExportDialog";
import { chooseImportFile, ImportDialog } from "./ImportDialog";

describe("Export… (issue 21: a whole table or the filtered rows, with progress and Cancel)", () => {
  it("exports in the chosen format with the grid's filters, showing progress, then where the file went", async () => {
    let finish: (r: ExportResult) => void = () => {};
    let progress: (p: TransferProgress) => void = () => {};
    const api = fakeApi(async () => [], {
      exportTable: () => new Promise((resolve) => (finish = resolve)),
      onTransferProgress: (cb) => {
        progress = cb;
        return () => {};
      },
    });
    const exportTable = vi.spyOn(api.explorer, "exportTable");
    const cancel = vi.spyOn(api.explorer, "cancelTransfer");
    const filters = [{ column: "wordCount", operator: "greater_than", value: "50", value2: "" }];
    render(
      <ApiProvider api={api}>
        <ExportDialog connectionId="demo" table="Article" filters={filters} sort={[]} hasVectors keyColumns={["uuid"]} onClose={() => {}} />
      </ApiProvider>,
    );
    fireEvent.click(screen.getByRole("radio", { name: /Parquet/ }));
    fireEvent.click(screen.getByRole("checkbox", { name: "Include the vectors" }));
    fireEvent.click(screen.getByRole("button", { name: "Export…" }));
    expect(exportTable).toHaveBeenCalledWith(expect.any(String), "demo", "Article", { format: "parquet", filters, sort: [], vectors: true });
    const id = exportTable.mock.calls[0][0];
    act(() => progress({ id, rows: 2500, total: 10000, rate: 5000, leftMs: 1500 }));
    expect(screen.getByRole("progressbar", { name: "Exported" })).toHaveAttribute("aria-valuenow", "25");
    expect(screen.getByText(/2,500 of 10,000 rows/)).toBeInTheDocument();
    expect(screen.getByText(/5,000 rows\/s · 2 s left/)).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Close" })).toBeDisabled();
    fireEvent.click(screen.getByRole("button", { name: "Cancel" }));
    expect(cancel).toHaveBeenCalledWith(id);
    await act(async () => finish({ status: "done", rows: 10000, path: "/tmp/Article.parquet", bytes: 1, elapsedMs: 1 }));
    expect(screen.getByRole("status", { name: "Export" })).toHaveTextContent("Exported 10,000 rows to /tmp/Article.parquet");
  });

  it("a closed save dialog goes back to the choices; a cancelled export says no file was written", async () => {
    const results: ExportResult[] = [
      { status: "not_chosen", rows: 0, path: "", bytes: 0, elapsedMs: 0 },
      { status: "cancelled", rows: 0, path: "", bytes: 0, elapsedMs: 0 },
    ];
    const api = fakeApi(async () => [], { exportTable: async () => results.shift()! });
    render(
      <ApiProvider api={api}>
        <ExportDialog connectionId="demo" table="Article" filters={[]} sort={[]} hasVectors={false} keyColumns={["uuid"]} onClose={() => {}} />
      </ApiProvider>,
    );
    // without filters or a sort, the driver's cursor walks every row in the key's order
    expect(screen.getByText("Every row, in uuid order.")).toBeInTheDocument();
    fireEvent.click(screen.getByRole("button", { name: "Export…" }));
    expect(await screen.findByRole("button", { name: "Export…" })).toBeInTheDocument();
    fireEvent.click(screen.getByRole("button", { name: "Export…" }));
    expect(await screen.findByRole("status", { name: "Export" })).toHaveTextContent("Export cancelled: no file was written.");
  });

  it("says why an export cannot run, and keeps the choices", async () => {
    const api = fakeApi(async () => [], {
      exportTable: async () => {
        throw "unsupported: Article has 12000 matching rows and the database sorts only its first 10000";
      },
    });
    render(
      <ApiProvider api={api}>
        <ExportDialog connectionId="demo" table="Article" filters={[]} sort={[{ column: "title", descending: false }]} hasVectors={false} keyColumns={["uuid"]} onClose={() => {}} />
      </ApiProvider>,
    );
    fireEvent.click(screen.getByRole("checkbox", { name: /In the grid's order/ }));
    fireEvent.click(screen.getByRole("button", { name: "Export…" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("sorts only its first 10000");
    expect(screen.getByRole("button", { name: "Export…" })).toBeInTheDocument();
  });
});

describe("Import… (issue 21: a preview checked by the table's types, a mapping, a summary)", () => {
  it("previews the first rows with the refused cell marked, sends the mapping, and reports what happened", async () => {
    const api = fakeApi(async () => []);
    const importFile = vi.spyOn(api.explorer, "importFile");
    const onWritten = vi.fn();
    render(
      <ApiProvider api={api}>
        <ImportDialog connectionId="demo" table="Article" source={{ path: "/tmp/rows.csv" }} onClose={() => {}} onWritten={onWritten} />
      </ApiProvider>,
    );
    const table = await screen.findByRole("table", { name: "The file's first rows" });
    const bad = within(table).getByText("many").closest("td")!;
    expect(bad).toHaveClass("transfer__cell--bad");
    expect(bad).toHaveAttribute("title", "expects a whole number");
    expect(screen.getByRole("alert")).toHaveTextContent("1 of these rows have a cell the table's types refuse");
    fireEvent.change(screen.getByRole("combobox", { name: "Where title goes" }), { target: { value: "-" } });
    fireEvent.click(screen.getByRole("button", { name: "Import" }));
    expect(importFile).toHaveBeenCalledWith(expect.any(String), "demo", "Article", "/tmp/rows.csv", { title: "-" });
    const summary = await screen.findByRole("status", { name: "Import" });
    expect(summary).toHaveTextContent("1 written, 1 skipped, 0 failed");
    expect(within(summary).getByRole("list", { name: "Rejected rows" })).toHaveTextContent("Line 3: column wordCount (int): expects a whole number");
    expect(summary).toHaveTextContent("Every rejected row is listed in /tmp/rows.rejected.csv");
    expect(onWritten).toHaveBeenCalled();
  });

  it("asks natively for the file in the click, once, and says why a file cannot be read", async () => {
    const closed = fakeApi(async () => [], { chooseImportFile: async () => "" });
    expect(await chooseImportFile(closed)).toBeNull();
    const refused = fakeApi(async () => [], {
      chooseImportFile: async () => {
        throw new Error("unavailable: no open dialog here");
      },
    });
    expect(await chooseImportFile(refused)).toEqual({ error: "unavailable: no open dialog here" });
    // React runs a new component's effects twice in development: the dialog never asks
    // for the file itself, so the native dialog cannot open twice.
    const api = fakeApi(async () => []);
    const ask = vi.spyOn(api.explorer, "chooseImportFile");
    const { unmount } = render(
      <StrictMode>
        <ApiProvider api={api}>
          <ImportDialog connectionId="demo" table="Article" source={{ path: "/tmp/rows.csv" }} onClose={() => {}} />
        </ApiProvider>
      </StrictMode>,
    );
    expect(await screen.findByRole("table", { name: "The file's first rows" })).toBeInTheDocument();
    expect(ask).not.toHaveBeenCalled();
    unmount();
    render(
      <ApiProvider api={closed}>
        <ImportDialog connectionId="demo" table="Article" source={{ error: "unavailable: no open dialog here" }} onClose={() => {}} />
      </ApiProvider>,
    );
    expect(await screen.findByRole("alert")).toHaveTextContent("no open dialog here");
    cleanup();
    const broken = fakeApi(async () => [], {
      previewImport: async () => {
        throw "query_failed: /tmp/x.parquet is a truncated Parquet file: it does not end with PAR1";
      },
    });
    render(
      <ApiProvider api={broken}>
        <ImportDialog connectionId="demo" table="Article" source={{ path: "/tmp/x.parquet" }} onClose={() => {}} />
      </ApiProvider>,
    );
    expect(await screen.findByRole("alert")).toHaveTextContent("truncated Parquet file");
  });

  it("offers to create a table that does not exist, naming it on the button", async () => {
    const api = fakeApi(async () => [], {
      previewImport: async (_id, _t, path) => ({ path, format: "jsonl", columns: ["title"], targets: ["title"], rows: [["a"]], problems: {}, broken: [], exists: false, tableColumns: [] }),
    });
    render(
      <ApiProvider api={api}>
        <ImportDialog connectionId="demo" table="Fresh" source={{ path: "/tmp/rows.jsonl" }} onClose={() => {}} />
      </ApiProvider>,
    );
    expect(await screen.findByRole("button", { name: "Create Fresh and import" })).toBeInTheDocument();
    expect(screen.getByText(/Fresh does not exist: it will be created from these columns, after you confirm/)).toBeInTheDocument();
  });
});

describe("Export… of a result the window holds (issue 21: the editor's result, Find similar's tab)", () => {
  it("exports the rows shown in the chosen format, and says when the result was cut", async () => {
    const api = fakeApi(async () => []);
    const exportGrid = vi.spyOn(api.explorer, "exportGrid");
    const grid = { columns: [], rows: [["a"], ["b"]], offset: 0, hasMore: true, notice: "", refused: null };
    render(
      <ApiProvider api={api}>
        <ExportDialog grid={grid} table="Article result" onClose={() => {}} />
      </ApiProvider>,
    );
    expect(screen.getByText(/The 2 rows shown, as they show \(the result was cut/)).toBeInTheDocument();
    fireEvent.click(screen.getByRole("radio", { name: /JSON Lines/ }));
    fireEvent.click(screen.getByRole("button", { name: "Export…" }));
    expect(exportGrid).toHaveBeenCalledWith("Article result", "jsonl", grid);
    expect(await screen.findByRole("status", { name: "Export" })).toHaveTextContent("Exported 2 rows to /tmp/Article result.jsonl");
  });
});
