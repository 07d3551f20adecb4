import { act, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { ApiProvider, type ExplorerApi, type Filter, type Grid, type MapFrame, type MapPoints, type RowKey, type TableInfo, type TransferProgress } from "../../api";
import { formatCount } from "../opened/format";
import { column, connection, fakeApi, grid, tableInfo } from "../../test/fakeApi";
import type { MapHighlight } from "../workspace/useWorkspace";
import { MapPanel, SAMPLES } from "./MapPanel";
import { fit, MAP_MAX_POINTS, NO_VALUE_COLOUR } from "./mapModel";

// WebGL is not in jsdom: regl-scatterplot is replaced at its boundary by a plot that records
// what the map asks of it (its settings, the points drawn, the selection) and answers as the
// library does (a selection publishes "select", the export an ImageData).
const fake = vi.hoisted(() => {
  type Handler = (payload?: unknown) => void;
  class FakePlot {
    options: Record<string, unknown>;
    sets: Record<string, unknown>[] = [];
    drawn: { x: number[]; y: number[]; valueA: number[]; valueB: number[] } | null = null;
    selected: number[] = [];
    hovered = -1;
    handlers = new Map<string, Set<Handler>>();
    constructor(options: Record<string, unknown>) {
      this.options = options;
    }
    set(p: Record<string, unknown>) {
      this.sets.push(p);
      return Promise.resolve();
    }
    /** The last value the map set of a property. */
    last(key: string) {
      for (let i = this.sets.length - 1; i >= 0; i--) if (key in this.sets[i]) return this.sets[i][key];
      return undefined;
    }
    /** hold: draws end when the test says (pending), as a million points' draw takes seconds. */
    static hold = false;
    draws = 0;
    pending: (() => void)[] = [];
    draw(points: FakePlot["drawn"]) {
      this.drawn = points;
      this.draws++;
      if (FakePlot.hold) return new Promise<void>((resolve) => this.pending.push(resolve));
      return Promise.resolve();
    }
    subscribe(event: string, handler: Handler) {
      if (!this.handlers.has(event)) this.handlers.set(event, new Set());
      this.handlers.get(event)!.add(handler);
      return { event, handler };
    }
    unsubscribe(sub: { event: string; handler: Handler }) {
      this.handlers.get(sub.event)?.delete(sub.handler);
    }
    publish(event: string, payload?: unknown) {
      for (const h of this.handlers.get(event) ?? []) h(payload);
    }
    select(idx: number[], opts: { preventEvent?: boolean } = {}) {
      const had = this.selected.length;
      this.selected = [...idx];
      if (opts.preventEvent) return;
      if (idx.length === 0) {
        if (had > 0) this.publish("deselect");
      } else this.publish("select", { points: [...idx] });
    }
    deselect() {
      this.select([]);
    }
    hover(i: number) {
      this.hovered = i;
    }
    getScreenPosition(i: number): [number, number] {
      return [10 + 10 * i, 20 + 10 * i];
    }
    export() {
      // 2 x 1 pixels: red, then blue
      return Promise.resolve({ width: 2, height: 1, data: Uint8ClampedArray.from([255, 0, 0, 255, 0, 0, 255, 255]) });
    }
    get() {
      return undefined;
    }
    redraw() {}
    destroy() {}
  }
  return { FakePlot, plots: [] as FakePlot[] };
});

vi.mock("regl-scatterplot", () => ({
  default: (options: Record<string, unknown>) => {
    const p = new fake.FakePlot(options);
    fake.plots.push(p);
    return p;
  },
  createRenderer: () => ({ resize() {}, destroy() {} }),
}));

beforeAll(() => {
  // jsdom has no ResizeObserver; the map sizes its plot to its box with one
  globalThis.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
});

afterEach(() => {
  fake.plots.length = 0;
  delete document.documentElement.dataset.theme;
});

const U = ["00000000-0000-4000-8000-00000000000a", "00000000-0000-4000-8000-00000000000b", "00000000-0000-4000-8000-00000000000c"];
const LONG = "A long abstract. ".repeat(20).trim();

/** Three points: a at the middle, b to its right, c above it. */
function mapPoints(id: string, over: Partial<MapPoints> = {}): MapPoints {
  return {
    id,
    keyColumns: ["uuid"],
    keys: U.map((u) => [u]),
    columns: [
      { name: "title", type: "text", kind: "text", values: ["Alpha", "Beta", "Gamma"] },
      { name: "citations", type: "int", kind: "integer", values: ["10", null, "30"] },
      { name: "abstract", type: "text", kind: "text", values: [LONG.slice(0, 120) + "…", null, null] },
    ],
    vector: "",
    dims: 4,
    matched: 3,
    skipped: 0,
    sampled: false,
    kept: false,
    ...over,
  };
}
const LAYOUT = new Float32Array([0, 0, 1, 0, 0, 1]);

/**
 * harness is a fake opened whose map events the test sends: openMap answers `answer` (or is
 * rejected by cancelTransfer while `hold` keeps it waiting, as the backend's cancelled read).
 */
function harness(opts: { info?: TableInfo; answer?: (mapId: string) => Promise<MapPoints>; hold?: boolean } = {}) {
  const frames = new Set<(f: MapFrame) => void>();
  const progress = new Set<(p: TransferProgress) => void>();
  const waiting = new Map<string, (reason: unknown) => void>();
  const opened: Partial<ExplorerApi> = {
    describeTable: async (_id, table) => opts.info ?? tableInfo(table),
    onMapFrame: (cb) => {
      frames.add(cb);
      return () => frames.delete(cb);
    },
    onTransferProgress: (cb) => {
      progress.add(cb);
      return () => progress.delete(cb);
    },
    openMap: (mapId, _id, _table, req) =>
      opts.hold
        ? new Promise<MapPoints>((_resolve, reject) => waiting.set(mapId, reject))
        : (opts.answer ?? (async (m: string) => mapPoints(m, { vector: req.vector })))(mapId),
    cancelTransfer: async (id) => {
      waiting.get(id)?.("cancelled: the map's read was cancelled");
      waiting.delete(id);
    },
    browse: async () =>
      grid([[U[0], "Alpha", LONG, "[0.1,0.2,0.3,0.4]"]], {
        columns: [column("uuid", { type: "uuid", primaryKey: true, readOnly: true }), column("title"), column("abstract"), column("vector", { type: "vector", readOnly: true })],
      }),
  };
  const api = fakeApi(async () => [], opened);
  const openMap = vi.spyOn(api.explorer, "openMap");
  const frame = (f: Partial<MapFrame>) =>
    act(async () => frames.forEach((cb) => cb({ id: openMap.mock.calls.at(-1)![0], stage: "umap", epoch: 1, epochs: 1, xy: LAYOUT, done: true, error: "", cancelled: false, ...f })));
  const step = (rows: number, total: number) => act(() => progress.forEach((cb) => cb({ id: openMap.mock.calls.at(-1)![0], rows, total, rate: 0, leftMs: 0 })));
  return { api, openMap, frame, step };
}

function renderMap(h: ReturnType<typeof harness>, props: { highlight?: MapHighlight; onOpenRows?: (keys: RowKey[], keyColumns: string[]) => void; onFindSimilar?: (key: RowKey, keyColumns: string[], t: string) => void } = {}) {
  const onOpenRows = props.onOpenRows ?? vi.fn();
  const el = (highlight?: MapHighlight, filters: Filter[] = []) => (
    <ApiProvider api={h.api}>
      <MapPanel connection={connection({ id: "demo" })} table="Article" filters={filters} highlight={highlight} onOpenRows={onOpenRows} onFindSimilar={props.onFindSimilar} />
    </ApiProvider>
  );
  const r = render(el(props.highlight));
  /** rerenderWith renders the map again with this highlight and these filters (the tab's), in one render. */
  return { ...r, rerenderWith: (highlight?: MapHighlight, filters: Filter[] = []) => r.rerender(el(highlight, filters)) };
}

/** drawn renders a map of the three points and waits until they are on the plot. */
async function drawn(h = harness(), props: Parameters<typeof renderMap>[1] = {}) {
  const r = renderMap(h, props);
  await waitFor(() => expect(h.openMap).toHaveBeenCalled());
  await screen.findByText(/3 points/);
  await h.frame({});
  const plot = fake.plots[0];
  await waitFor(() => expect(plot.drawn?.x).toHaveLength(3));
  return { ...r, plot, canvas: screen.getByRole("application", { name: "Map of Article: 3 points" }) };
}

describe("the map follows the theme (issue 22: light and dark themes)", () => {
  it("a switch of the window's theme sets the plot's background and lasso colours at once", async () => {
    document.documentElement.dataset.theme = "light";
    const { plot } = await drawn();
    expect(plot.last("backgroundColor")).toBe("#ffffff");
    // what useTheme's effect does after a render of the app, not of the map
    act(() => {
      document.documentElement.dataset.theme = "dark";
    });
    await waitFor(() => expect(plot.last("backgroundColor")).toBe("#16181d"));
    expect(plot.last("lassoColor")).toBe("#e8e8e8");
    act(() => {
      document.documentElement.dataset.theme = "light";
    });
    await waitFor(() => expect(plot.last("backgroundColor")).toBe("#ffffff"));
  });
});

describe("the map's keyboard (issue 22: keyboard access to the selection)", () => {
  it("the canvas takes the focus and says its keys; the plot's own window-wide Escape is off", async () => {
    const { plot, canvas } = await drawn();
    expect(canvas).toHaveAttribute("tabindex", "0");
    // the keys in words, made from the list the help overlay shows (mapKeymap's MAP_SHORTCUTS)
    expect(canvas).toHaveAccessibleDescription(
      /^Up arrow, Down arrow, Left arrow or Right arrow: Move the cursor.*\. Space: Add the cursor's point.*\. Enter: Open the cursor's row.*\. Control\+A \(Command\+A on a Mac\): Select every point\. Escape: Clear the selection\. Shift\+drag: Draw a lasso.*\. Shift\+Tab: .*Open as a grid tab.*\.$/,
    );
    expect(plot.options.deselectOnEscape).toBe(false);
  });

  it("arrows move a cursor named as hover names a point; Space selects, Enter opens the row, Mod+A selects all, Escape clears only on the map", async () => {
    const { plot, canvas } = await drawn();
    act(() => canvas.focus());
    await userEvent.keyboard("{ArrowRight}");
    // the first arrow starts at the point nearest the middle: a
    let tip = screen.getByRole("tooltip");
    expect(tip).toHaveTextContent("Alpha");
    expect(tip).toHaveTextContent(U[0]);
    expect(plot.hovered).toBe(0);
    await userEvent.keyboard("{ArrowRight}");
    tip = screen.getByRole("tooltip");
    expect(tip).toHaveTextContent("Beta");
    expect(tip).toHaveTextContent(U[1]);
    expect(tip).toHaveStyle({ left: "32px", top: "42px" }); // where the plot draws b, plus 12
    await userEvent.keyboard(" ");
    expect(plot.selected).toEqual([1]);
    await userEvent.keyboard("{ArrowLeft}{ArrowUp}");
    expect(screen.getByRole("tooltip")).toHaveTextContent("Gamma");
    await userEvent.keyboard(" ");
    expect(await screen.findByText("2 points selected")).toBeInTheDocument();
    // Space again takes the point out
    await userEvent.keyboard(" ");
    expect(plot.selected).toEqual([1]);
    await userEvent.keyboard(" ");
    // an Escape elsewhere (a dialog closing, another tab) leaves the map's selection alone
    fireEvent.keyDown(document.body, { key: "Escape" });
    fireEvent.keyUp(window, { key: "Escape" });
    expect(screen.getByText("2 points selected")).toBeInTheDocument();
    // Shift+Tab from the map: Clear, then Open as a grid tab, just above it
    const open = screen.getByRole("button", { name: "Open as a grid tab" });
    await userEvent.tab({ shift: true });
    expect(screen.getByRole("button", { name: "Clear" })).toHaveFocus();
    await userEvent.tab({ shift: true });
    expect(open).toHaveFocus();
    act(() => canvas.focus());
    await userEvent.keyboard("{Escape}");
    expect(screen.queryByText(/points selected/)).not.toBeInTheDocument();
    expect(open).not.toBeInTheDocument();
    expect(plot.selected).toEqual([]);
    await userEvent.keyboard("{Control>}a{/Control}");
    expect(screen.getByText("3 points selected")).toBeInTheDocument();
    // Enter opens the cursor's row, as a click does: the point alone selected, its row read
    await userEvent.keyboard("{Enter}");
    expect(plot.selected).toEqual([2]);
    expect(await screen.findByRole("group", { name: `Row ${U[2]}` })).toBeInTheDocument();
    // an Escape with nothing to clear goes on to the window
    await userEvent.keyboard("{Escape}");
    const onWindow = vi.fn();
    window.addEventListener("keydown", onWindow);
    await userEvent.keyboard("{Escape}");
    window.removeEventListener("keydown", onWindow);
    expect(onWindow).toHaveBeenCalledTimes(1);
  });

  it("Tab from the map's buttons reaches Open as a grid tab before the canvas, and Shift+Tab from the canvas reaches it (the DOM's order)", async () => {
    const { canvas } = await drawn();
    act(() => canvas.focus());
    await userEvent.keyboard("{Control>}a{/Control}");
    const open = screen.getByRole("button", { name: "Open as a grid tab" });
    const clear = screen.getByRole("button", { name: "Clear" });
    // forwards: the bar's last button, then Open as a grid tab, Clear, and the canvas
    act(() => screen.getByRole("button", { name: "Export layout…" }).focus());
    await userEvent.tab();
    expect(open).toHaveFocus();
    await userEvent.tab();
    expect(clear).toHaveFocus();
    await userEvent.tab();
    expect(canvas).toHaveFocus();
    // backwards from the canvas: Clear, then Open as a grid tab
    await userEvent.tab({ shift: true });
    expect(clear).toHaveFocus();
    await userEvent.tab({ shift: true });
    expect(open).toHaveFocus();
  });

  it("a key with a modifier the map's keymap does not name is not the map's: it goes on, its default not prevented", async () => {
    const { plot, canvas } = await drawn();
    act(() => canvas.focus());
    const others = [
      { key: "ArrowRight", shiftKey: true },
      { key: "ArrowLeft", altKey: true },
      { key: "ArrowUp", ctrlKey: true },
      { key: "ArrowDown", metaKey: true },
      { key: " ", ctrlKey: true },
      { key: " ", shiftKey: true },
      { key: "Escape", shiftKey: true },
      { key: "a", ctrlKey: true, shiftKey: true },
      { key: "a", ctrlKey: true, altKey: true },
      { key: "a" },
    ];
    for (const k of others) expect(fireEvent.keyDown(canvas, k), JSON.stringify(k)).toBe(true);
    expect(screen.queryByRole("tooltip")).not.toBeInTheDocument();
    expect(plot.selected).toEqual([]);
    // an arrow alone is the map's; then Enter with Ctrl is not (the row stays closed)
    expect(fireEvent.keyDown(canvas, { key: "ArrowRight" })).toBe(false);
    expect(screen.getByRole("tooltip")).toHaveTextContent("Alpha");
    expect(fireEvent.keyDown(canvas, { key: "Enter", ctrlKey: true })).toBe(true);
    expect(plot.selected).toEqual([]);
    // Command+A (a Mac's Mod) selects every point
    expect(fireEvent.keyDown(canvas, { key: "a", metaKey: true })).toBe(false);
    expect(await screen.findByText("3 points selected")).toBeInTheDocument();
  });

  it("Space before any arrow starts the cursor where the first arrow would and selects its point: the panel does not scroll", async () => {
    const { plot, canvas } = await drawn();
    act(() => canvas.focus());
    expect(fireEvent.keyDown(canvas, { key: " " })).toBe(false);
    expect(plot.selected).toEqual([0]); // a, the point nearest the middle
    expect(screen.getByRole("tooltip")).toHaveTextContent("Alpha");
    expect(await screen.findByRole("group", { name: `Row ${U[0]}` })).toBeInTheDocument();
    // Space again takes it out, as with a cursor the arrows moved
    expect(fireEvent.keyDown(canvas, { key: " " })).toBe(false);
    expect(plot.selected).toEqual([]);
  });
});

describe("colour by a number (issue 22: a legend for numbers)", () => {
  it("draws a ramp named by its smallest, middle and largest values, quartile buttons, and the rows with no value grey", async () => {
    const { plot } = await drawn();
    await userEvent.selectOptions(screen.getByRole("combobox", { name: "Colour by" }), "citations");
    const legend = screen.getByRole("complementary", { name: "Legend" });
    const ramp = within(legend).getByRole("img", { name: "citations: from 10 to 30" });
    expect(ramp).toHaveTextContent(/10.*20.*30/);
    await waitFor(() => expect(plot.last("pointColor")).toContain(NO_VALUE_COLOUR));
    const colours = plot.last("pointColor") as string[];
    expect(colours[plot.drawn!.valueA[1]]).toBe(NO_VALUE_COLOUR);
    expect(colours[plot.drawn!.valueA[0]]).not.toBe(NO_VALUE_COLOUR);
    const none = within(legend).getByRole("button", { name: "Select the 1 points with no citations" });
    expect(none).toHaveTextContent("no value");
    within(legend).getByRole("button", { name: "Select the 1 points of 30" }).focus();
    await userEvent.keyboard("{Enter}");
    expect(plot.selected).toEqual([2]);
    await userEvent.click(none);
    expect(plot.selected).toEqual([1]);
  });
});

describe("a click opens the row detail (issue 22)", () => {
  it("reads the row whole (every field at full length, the vector, Find similar) beside the map; Open the row", async () => {
    const onOpenRows = vi.fn();
    const onFindSimilar = vi.fn();
    const h = harness();
    let answer: (g: Grid) => void = () => {};
    const browse = vi.spyOn(h.api.explorer, "browse").mockImplementation(() => new Promise<Grid>((r) => (answer = r)));
    const { plot } = await drawn(h, { onOpenRows, onFindSimilar });
    act(() => plot.publish("select", { points: [0] })); // the plot's click on a
    expect(await screen.findByText("Reading the row…")).toBeInTheDocument();
    expect(browse).toHaveBeenCalledWith("demo", "Article", { offset: 0, limit: 1, filters: [{ column: "uuid", operator: "equals", value: U[0], value2: "" }], sort: [] });
    await act(async () =>
      answer(
        grid([[U[0], "Alpha", LONG, "[0.1,0.2,0.3,0.4]"]], {
          columns: [column("uuid", { type: "uuid", primaryKey: true, readOnly: true }), column("title"), column("abstract"), column("vector", { type: "vector", readOnly: true })],
        }),
      ),
    );
    const row = screen.getByRole("group", { name: `Row ${U[0]}` });
    expect(row).toHaveTextContent(LONG); // not cut at 120 characters as the map's points are
    expect(within(row).getByText("4 dimensions")).toBeInTheDocument();
    await userEvent.click(within(row).getByRole("button", { name: "Find similar" }));
    expect(onFindSimilar).toHaveBeenCalledWith({ uuid: U[0] }, ["uuid"], "");
    await userEvent.click(within(row).getByRole("button", { name: "Open the row" }));
    expect(onOpenRows).toHaveBeenCalledWith([{ uuid: U[0] }], ["uuid"]);
    await userEvent.click(within(row).getByRole("button", { name: "Close the details" }));
    expect(plot.selected).toEqual([]);
    expect(screen.queryByRole("group", { name: `Row ${U[0]}` })).not.toBeInTheDocument();
  });

  it("says why a row cannot be read, with Retry", async () => {
    const h = harness();
    const browse = vi.spyOn(h.api.explorer, "browse").mockRejectedValueOnce("connection: the node is gone");
    const { plot } = await drawn(h);
    act(() => plot.publish("select", { points: [1] }));
    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent("Could not read the row");
    expect(alert).toHaveTextContent("the node is gone");
    await userEvent.click(within(alert).getByRole("button", { name: "Retry" }));
    expect(browse).toHaveBeenCalledTimes(2);
    expect(await screen.findByRole("group", { name: `Row ${U[1]}` })).toBeInTheDocument();
  });
});

describe("what cannot be mapped says so, never a spinner (issue 22)", () => {
  const named = (names: string[], own = false): TableInfo => {
    const info = tableInfo("Article");
    return { ...info, settings: { ...info.settings, namedVectors: names, ownVector: own } };
  };

  it("a table with only named vectors: the Vector chooser names them and the map says which one it draws", async () => {
    const h = harness({ info: named(["title_vec", "body_vec"]), answer: async (m) => mapPoints(m, { vector: "title_vec" }) });
    renderMap(h);
    const chooser = await screen.findByRole("combobox", { name: "Vector" });
    expect(within(chooser).getAllByRole("option").map((o) => o.textContent)).toEqual(["title_vec", "body_vec"]);
    expect(chooser).toHaveValue("title_vec");
    await waitFor(() => expect(h.openMap).toHaveBeenCalledWith(expect.any(String), "demo", "Article", expect.objectContaining({ vector: "title_vec" })));
    expect(await screen.findByText(/vector title_vec, 3 points/)).toBeInTheDocument();
    await userEvent.selectOptions(chooser, "body_vec");
    expect(h.openMap).toHaveBeenLastCalledWith(expect.any(String), "demo", "Article", expect.objectContaining({ vector: "body_vec" }));
  });

  it("a table without vectors: the backend's sentence, no Cancel, nothing read any more", async () => {
    const h = harness({ answer: async () => Promise.reject("unsupported: none of the 3 rows of Article has a vector: there is nothing to map") });
    renderMap(h);
    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent("No map of Article");
    expect(alert).toHaveTextContent("none of the 3 rows of Article has a vector: there is nothing to map");
    expect(screen.queryByRole("button", { name: "Cancel" })).not.toBeInTheDocument();
    expect(screen.queryByText(/Reading vectors/)).not.toBeInTheDocument();
    expect(document.querySelector(".spinner")).toBeNull();
    expect(within(alert).getByRole("button", { name: "Retry" })).toBeInTheDocument();
  });

  it("vectors of different lengths: its sentence", async () => {
    const h = harness({ answer: async () => Promise.reject("unsupported: the vectors of Article have different lengths (3 and 4 numbers): a map needs one length") });
    renderMap(h);
    expect(await screen.findByRole("alert")).toHaveTextContent("the vectors of Article have different lengths (3 and 4 numbers)");
    expect(screen.queryByRole("button", { name: "Cancel" })).not.toBeInTheDocument();
  });

  it("the read shows N of M rows; Cancel during it says Cancelled, and Retry reads again", async () => {
    const h = harness({ hold: true });
    renderMap(h);
    await waitFor(() => expect(h.openMap).toHaveBeenCalledTimes(1));
    await h.step(1000, 3000);
    expect(screen.getByText("Reading vectors… 1,000 of 3,000 rows")).toBeInTheDocument();
    await h.step(2000, -1);
    expect(screen.getByText("Reading vectors… 2,000 rows")).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Cancel" }));
    expect(await screen.findByText("The map was cancelled")).toBeInTheDocument();
    expect(screen.getAllByRole("status").some((s) => s.textContent === "Cancelled")).toBe(true);
    expect(screen.queryByRole("button", { name: "Cancel" })).not.toBeInTheDocument();
    expect(screen.queryByText(/Reading vectors/)).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Retry" }));
    await waitFor(() => expect(h.openMap).toHaveBeenCalledTimes(2));
    expect(h.openMap.mock.calls[1][3]).toMatchObject({ fresh: false });
    expect(screen.getByRole("button", { name: "Cancel" })).toBeInTheDocument();
  });
});

describe("the sample (issue 22: all rows up to 1,000,000 since issue 42, else a uniform sample, saying so)", () => {
  it("the Sample chooser asks for at most that many points; the subtitle says a sample is one", async () => {
    let reads = 0;
    const h = harness({ answer: async (m) => (++reads > 1 ? mapPoints(m, { sampled: true, matched: 3000 }) : mapPoints(m)) });
    renderMap(h);
    await screen.findByText(/3 points/);
    expect(h.openMap.mock.calls[0][3]).toMatchObject({ max: 0 });
    const sample = screen.getByRole("combobox", { name: "Sample" });
    expect(within(sample).getAllByRole("option").map((o) => o.textContent)).toEqual(["all rows, up to 1,000,000", "up to 100,000 rows", "up to 10,000 rows", "up to 1,000 rows"]);
    // the first's "up to" is the one constant (the backend's vectormap.DefaultMaxPoints)
    expect(MAP_MAX_POINTS).toBe(1_000_000);
    expect(SAMPLES[0]).toEqual({ max: 0, label: `all rows, up to ${formatCount(MAP_MAX_POINTS)}` });
    await userEvent.selectOptions(sample, "up to 1,000 rows");
    await waitFor(() => expect(h.openMap).toHaveBeenCalledTimes(2));
    expect(h.openMap.mock.calls[1][3]).toMatchObject({ max: 1000 });
    expect(await screen.findByText(/3 points, a uniform sample of 3,000 rows/)).toBeInTheDocument();
  });

  it("Recompute asks for a fresh layout", async () => {
    const h = harness();
    await drawn(h);
    await userEvent.click(screen.getByRole("button", { name: "Recompute" }));
    await waitFor(() => expect(h.openMap).toHaveBeenCalledTimes(2));
    expect(h.openMap.mock.calls[1][3]).toMatchObject({ fresh: true });
  });
});

describe("a search's or Find similar's rows on the map (issue 22)", () => {
  it("draws the vector searched, and another when a new search brings it", async () => {
    const info = tableInfo("Article");
    const h = harness({ info: { ...info, settings: { ...info.settings, namedVectors: ["title_vec", "body_vec"] } } });
    const { rerenderWith } = renderMap(h, { highlight: { keys: [{ uuid: U[1] }], label: "similar to a", vector: "body_vec" } });
    await waitFor(() => expect(h.openMap).toHaveBeenCalledWith(expect.any(String), "demo", "Article", expect.objectContaining({ vector: "body_vec" })));
    expect(h.openMap).toHaveBeenCalledTimes(1);
    await h.frame({});
    expect(await screen.findByRole("group", { name: `Row ${U[1]}` })).toBeInTheDocument(); // one row found: its detail
    expect(screen.getByText("The 1 rows of similar to a are selected.")).toBeInTheDocument();
    rerenderWith({ keys: [{ uuid: U[2] }], label: 'nearText "x"', vector: "title_vec" });
    await waitFor(() => expect(h.openMap).toHaveBeenLastCalledWith(expect.any(String), "demo", "Article", expect.objectContaining({ vector: "title_vec" })));
    expect(h.openMap).toHaveBeenCalledTimes(2);
  });
});

describe("a search's rows and the map's points are of one read (issue 22)", () => {
  const D = "00000000-0000-4000-8000-00000000000d";
  const byTopic: Filter[] = [{ column: "topic", operator: "equals", value: "astronomy", value2: "" }];
  const found: MapHighlight = { keys: [{ uuid: U[2] }, { uuid: U[1] }], label: 'bm25 "x"', filters: byTopic };

  it("a search with other filters: nothing is selected on the old points, and its rows are those of the new ones once drawn", async () => {
    const onOpenRows = vi.fn();
    let give: (p: MapPoints) => void = () => {};
    let reads = 0;
    const h = harness({ answer: (m) => (++reads === 1 ? Promise.resolve(mapPoints(m)) : new Promise<MapPoints>((r) => (give = r))) });
    const { plot, rerenderWith } = await drawn(h, { onOpenRows });
    // the tab's new highlight and its search's filters come in one render
    rerenderWith(found, byTopic);
    await waitFor(() => expect(h.openMap).toHaveBeenCalledTimes(2));
    expect(h.openMap.mock.calls[1][3]).toMatchObject({ filters: byTopic });
    expect(plot.selected).toEqual([]);
    expect(screen.queryByText(/rows of bm25/)).not.toBeInTheDocument();
    // the new points, in another order: U[2] first, U[1] last; their layout not drawn yet
    const id = h.openMap.mock.calls[1][0];
    await act(async () =>
      give(mapPoints(id, { keys: [[U[2]], [D], [U[1]]], columns: [{ name: "title", type: "text", kind: "text", values: ["Gamma", "Delta", "Beta"] }] })),
    );
    await screen.findByText(/3 points/);
    expect(screen.queryByText(/points selected/)).not.toBeInTheDocument();
    expect(screen.queryByRole("group", { name: /^Row / })).not.toBeInTheDocument();
    expect(screen.queryByText(/rows of bm25/)).not.toBeInTheDocument();
    await h.frame({});
    expect(await screen.findByText('The 2 rows of bm25 "x" are selected.')).toBeInTheDocument();
    expect(plot.selected).toEqual([0, 2]);
    await userEvent.click(screen.getByRole("button", { name: "Open as a grid tab" }));
    expect(onOpenRows).toHaveBeenCalledWith([{ uuid: U[2] }, { uuid: U[1] }], ["uuid"]);
  });

  it("the note that a search's rows are selected goes once the selection is another: Clear, Escape, a lasso, another vector", async () => {
    const info = tableInfo("Article");
    const h = harness({ info: { ...info, settings: { ...info.settings, namedVectors: ["title_vec", "body_vec"] } } });
    const shown = (): MapHighlight => ({ keys: [{ uuid: U[0] }, { uuid: U[1] }], label: 'nearText "x"', vector: "title_vec" });
    const note = 'The 2 rows of nearText "x" are selected.';
    const { plot, canvas, rerenderWith } = await drawn(h, { highlight: shown() });
    expect(await screen.findByText(note)).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Clear" }));
    expect(screen.queryByText(note)).not.toBeInTheDocument();
    // the same search shown again selects its rows again, and says so
    rerenderWith(shown());
    expect(await screen.findByText(note)).toBeInTheDocument();
    act(() => canvas.focus());
    await userEvent.keyboard("{Escape}");
    expect(screen.queryByText(note)).not.toBeInTheDocument();
    rerenderWith(shown());
    expect(await screen.findByText(note)).toBeInTheDocument();
    act(() => plot.publish("select", { points: [2] })); // a lasso (or a click) of another point
    expect(screen.queryByText(note)).not.toBeInTheDocument();
    rerenderWith(shown());
    expect(await screen.findByText(note)).toBeInTheDocument();
    await userEvent.selectOptions(screen.getByRole("combobox", { name: "Vector" }), "body_vec");
    expect(screen.queryByText(note)).not.toBeInTheDocument();
    await waitFor(() => expect(h.openMap).toHaveBeenLastCalledWith(expect.any(String), "demo", "Article", expect.objectContaining({ vector: "body_vec" })));
    await screen.findByText(/vector body_vec, 3 points/);
    await h.frame({});
    expect(screen.queryByText(note)).not.toBeInTheDocument();
    expect(plot.selected).toEqual([]);
  });

  it("the same filters written another way (another key order, no group for group 0) read nothing again", async () => {
    const h = harness();
    const { rerenderWith } = await drawn(h);
    rerenderWith(undefined, [{ column: "topic", operator: "equals", value: "astronomy", value2: "" }]);
    await waitFor(() => expect(h.openMap).toHaveBeenCalledTimes(2));
    rerenderWith(undefined, [{ value2: "", value: "astronomy", operator: "equals", column: "topic", group: 0 }]);
    await act(async () => {});
    expect(h.openMap).toHaveBeenCalledTimes(2);
  });
});

describe("Save picture… (issue 22)", () => {
  it("sends the plot's picture to the backend as a PNG data URL", async () => {
    const h = harness();
    const save = vi.spyOn(h.api.explorer, "saveMapImage");
    await drawn(h);
    await userEvent.click(screen.getByRole("button", { name: "Save picture…" }));
    await waitFor(() => expect(save).toHaveBeenCalledTimes(1));
    const [name, url] = save.mock.calls[0];
    expect(name).toBe("Article");
    expect(url.startsWith("data:image/png;base64,")).toBe(true);
    const bytes = Uint8Array.from(atob(url.slice("data:image/png;base64,".length)), (c) => c.charCodeAt(0));
    expect([...bytes.slice(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const view = new DataView(bytes.buffer);
    expect(String.fromCharCode(...bytes.slice(12, 16))).toBe("IHDR");
    expect([view.getUint32(16), view.getUint32(20)]).toEqual([2, 1]); // the exported picture's size
    expect(await screen.findByText("Saved /tmp/Article map.png")).toBeInTheDocument();
  });
});

describe("points keyed by their table's primary key (issue 37, item 3)", () => {
  // Orders is keyed by a tenant and a numeric id: the map's keys carry the id as a number.
  const ordersInfo: TableInfo = { ...tableInfo("Article"), primaryKey: ["tenant", "id"] };
  const orders = (m: string) => mapPoints(m, { keyColumns: ["tenant", "id"], keys: [["north", 1], ["north", 2], ["south", 1]] });

  it("a point names its row col=value; a search's rows (ids read as text) select their points; the selection opens by key", async () => {
    const onOpenRows = vi.fn();
    const browse = vi.fn(async () => grid([["north", "2", "Beta"]], { columns: [column("tenant", { primaryKey: true }), column("id", { type: "int", primaryKey: true }), column("title")] }));
    const h = harness({ info: ordersInfo, answer: async (m) => orders(m) });
    vi.spyOn(h.api.explorer, "browse").mockImplementation(browse);
    const found: MapHighlight = { keys: [{ tenant: "south", id: "1" }, { tenant: "north", id: "2" }], label: 'bm25 "x"' };
    const { plot, canvas } = await drawn(h, { onOpenRows, highlight: found });
    expect(await screen.findByText('The 2 rows of bm25 "x" are selected.')).toBeInTheDocument();
    expect(plot.selected).toEqual([2, 1]);
    await userEvent.click(screen.getByRole("button", { name: "Open as a grid tab" }));
    expect(onOpenRows).toHaveBeenCalledWith([{ tenant: "south", id: 1 }, { tenant: "north", id: 2 }], ["tenant", "id"]);
    act(() => canvas.focus());
    await userEvent.keyboard("{Escape}{ArrowRight}{ArrowRight}");
    expect(screen.getByRole("tooltip")).toHaveTextContent("tenant=north, id=2");
    await userEvent.keyboard("{Enter}");
    expect(await screen.findByRole("group", { name: "Row tenant=north, id=2" })).toBeInTheDocument();
    expect(browse).toHaveBeenCalledWith("demo", "Article", {
      offset: 0,
      limit: 1,
      filters: [
        { column: "tenant", operator: "equals", value: "north", value2: "" },
        { column: "id", operator: "equals", value: "2", value2: "" },
      ],
      sort: [],
    });
  });

  it("a table without a primary key: its points cannot be opened, and say why", async () => {
    const h = harness({ info: { ...ordersInfo, primaryKey: [] }, answer: async (m) => mapPoints(m, { keyColumns: [], keys: [[], [], []] }) });
    const { plot } = await drawn(h);
    act(() => plot.publish("select", { points: [0, 1] }));
    const open = await screen.findByRole("button", { name: "Open as a grid tab" });
    expect(open).toBeDisabled();
    expect(open).toHaveAttribute("title", expect.stringMatching(/^The table has no primary key/));
    act(() => plot.publish("select", { points: [0] }));
    expect(await screen.findByRole("note")).toHaveTextContent(/no primary key/);
    expect(screen.queryByRole("group", { name: /^Row / })).not.toBeInTheDocument();
  });
});

describe("a million points (issue 42, target 3: the layout's frames come faster than a million points are drawn)", () => {
  it("a frame that comes while the plot draws waits, and only the latest of those is drawn next", async () => {
    const h = harness();
    renderMap(h);
    await screen.findByText(/3 points/);
    fake.FakePlot.hold = true;
    try {
      await h.frame({ done: false, xy: new Float32Array([0, 0, 1, 0, 0, 1]) });
      const plot = fake.plots[0];
      await waitFor(() => expect(plot.draws).toBe(1));
      await h.frame({ done: false, xy: new Float32Array([0, 0, 2, 0, 0, 1]) });
      const last = new Float32Array([0, 0, 1, 0, 0, 3]);
      await h.frame({ done: true, xy: last });
      expect(plot.draws).toBe(1); // both wait for the draw under way
      await act(async () => plot.pending.shift()!());
      await waitFor(() => expect(plot.draws).toBe(2));
      expect(plot.drawn?.y).toEqual([...fit(last).y]); // the latest, the one between never drawn
      await act(async () => plot.pending.shift()!());
      expect(plot.draws).toBe(2);
    } finally {
      fake.FakePlot.hold = false;
    }
  });
});
