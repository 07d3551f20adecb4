import { useEffect, useId, useMemo, useRef, useState } from "react";
import { parseApiError, useApi, type ApiError, type Column, type Connection, type Filter, type Grid, type MapFrame, type MapPoints, type RowKey, type TableInfo } from "../../api";
import { keyId, keyText } from "../../api/rowKey";
import { ExportDialog } from "../grid/ExportDialog";
import { formatCount } from "../opened/format";
import { Icon, MapIcon } from "../icons";
import { filtersKey as keyOfFilters } from "../workspace/tabs";
import type { MapHighlight } from "../workspace/useWorkspace";
import { chooseVector, colouring, defaultColour, fit, isNumeric, labelColumn, layoutRows, MAP_MAX_POINTS, pointKey, sizes } from "./mapModel";
import { MAP_KEYS_TEXT } from "./mapKeymap";
import { MapRow } from "./MapRow";
import { MapSide } from "./MapSide";
import { pngDataUrl } from "./png";
import { useDocumentTheme } from "./useDocumentTheme";
import { useMapKeyboard } from "./useMapKeyboard";
import { useScatterplot } from "./useScatterplot";
import { ErrorLine, ErrorState } from "../frame/ErrorLine";
import { useAction } from "../frame/useAction";
import "./map.css";

interface Props {
  connection: Connection;
  table: string;
  /** The grid's filters when the map was opened (or the search's shown on it): they choose the rows. */
  filters: Filter[];
  /** onOpenRows opens the rows (by their keys over the table's key columns) as a grid tab, editable as any. */
  onOpenRows: (keys: RowKey[], keyColumns: string[]) => void;
  /** onFindSimilar opens the rows nearest a row's vector (the clicked row's Find similar). */
  onFindSimilar?: (key: RowKey, keyColumns: string[], targetVector: string) => void;
  /** Rows a search or Find similar found, shown selected once the layout is drawn; its vector is the one drawn. */
  highlight?: MapHighlight;
}

type Phase =
  | { step: "describing" }
  | { step: "reading"; rows: number; total: number }
  | { step: "laying"; stage: "pca" | "umap"; epoch: number; epochs: number }
  | { step: "ready" }
  | { step: "cancelled" }
  | { step: "error"; error: ApiError };

/** The Sample chooser: how many points at most (0: every row up to MAP_MAX_POINTS), beyond which a uniform sample. */
export const SAMPLES: { max: number; label: string }[] = [
  { max: 0, label: `all rows, up to ${formatCount(MAP_MAX_POINTS)}` },
  { max: 100_000, label: "up to 100,000 rows" },
  { max: 10_000, label: "up to 10,000 rows" },
  { max: 1_000, label: "up to 1,000 rows" },
];

/** The map's colours beside the points, per theme. */
const THEME_COLOURS = {
  light: { backgroundColor: "#ffffff", lassoColor: "#222222", reticleColor: "#222222" },
  dark: { backgroundColor: "#16181d", lassoColor: "#e8e8e8", reticleColor: "#e8e8e8" },
} as const;

let maps = 0;

/** samePoints: the two selections hold the same points (the plot's events give copies, in any order). */
function samePoints(a: number[], b: number[]): boolean {
  if (a.length !== b.length) return false;
  const inB = new Set(b);
  return a.every((i) => inB.has(i));
}

/** gridColumn is a read-only column of the layout's grid (the key's columns, x, y). */
function gridColumn(name: string, type: string, primaryKey = false): Column {
  return { name, type, primaryKey, readOnly: true, json: false, description: "", filterable: [], sortable: false, preview: false,
    tokenization: "", filterNotes: {}, blocked: {}, kind: "", of: "", dimension: 0 };
}

/** Why chosen points cannot be opened or searched near: the table names no row by a key. */
const NO_KEY = "The table has no primary key: its rows cannot be named one by one, so points cannot be opened or searched near";

/**
 * MapPanel is a table's vectors on a plane (issue 22): the PCA layout at once, then UMAP's as
 * it refines, drawn with WebGL (regl-scatterplot). Choose the vector and the sample; colour by
 * a column (a legend, each entry a button that selects its points), size by a number, zoom and
 * pan, hover (or the keyboard's cursor) names the point, a click (or Enter) opens its row
 * beside the map, and a lasso (Shift and drag), a legend entry or the keyboard selects points
 * to open as a grid tab. The map and its layout (each point's key, x, y) can be saved.
 */
export function MapPanel({ connection, table, filters, onOpenRows, onFindSimilar, highlight }: Props) {
  const api = useApi();
  const [info, setInfo] = useState<TableInfo | null>(null);
  // The vector asked for (the chooser, or a search's): drawn when the table has it.
  const [wanted, setWanted] = useState<string | null>(highlight?.vector ?? null);
  const vector = info ? chooseVector(info.settings, wanted) : null;
  const [max, setMax] = useState(0);
  // The points and the layout of a read, each with the id of the read it answers (MapPoints.id,
  // layout.id): a render may still hold those of the read before, until the new ones come.
  const [points, setPoints] = useState<MapPoints | null>(null);
  const [layout, setLayout] = useState<{ id: string; xy: Float32Array } | null>(null);
  const xy = layout?.xy ?? null;
  // The id of the read whose points the plot has drawn (the last draw that ended).
  const [drawnId, setDrawnId] = useState("");
  const [phase, setPhase] = useState<Phase>({ step: "describing" });
  const { plot, canvasRef, boxRef, hover, selected, selectedRef, setSelected, selectPoints } = useScatterplot();
  // What the note says of the highlight's rows, and the points it selected (the note's while selected).
  const [shown, setShown] = useState<{ label: string; found: number; of: number; points: number[] } | null>(null);
  const [colourBy, setColourBy] = useState("");
  const [sizeBy, setSizeBy] = useState("");
  const [exporting, setExporting] = useState(false);
  const [saved, setSaved] = useState("");
  const picture = useAction();
  // attempt: Retry (describe the table again); run: each read, fresh for Recompute.
  const [attempt, setAttempt] = useState(0);
  const [run, setRun] = useState({ n: 0, fresh: false });
  const mapId = useRef("");
  const keysId = useId();
  const theme = useDocumentTheme();
  // The filters by value: the same filters in a new array (a search shown again) read nothing again.
  const filtersKey = keyOfFilters(filters);
  const filtersRef = useRef(filters);
  filtersRef.current = filters;

  useEffect(() => {
    let live = true;
    api.explorer.describeTable(connection.id, table).then(
      (i) => live && setInfo(i),
      (e) => live && setPhase({ step: "error", error: parseApiError(e) }),
    );
    return () => {
      live = false;
    };
  }, [api, connection.id, table, attempt]);

  // A search's or Find similar's vector is the one the map draws.
  const highlightVector = highlight?.vector;
  useEffect(() => {
    if (highlightVector !== undefined) setWanted(highlightVector);
  }, [highlight, highlightVector]);

  // Read the vectors and follow the layout's frames; a new run (another vector or sample,
  // Recompute, Retry) or closing the tab cancels the one before.
  useEffect(() => {
    if (vector === null) return;
    const id = `map-${++maps}`;
    mapId.current = id;
    // A selection is of the points it was made on: dropped with them.
    const dropSelection = () => {
      plot.current?.select([], { preventEvent: true });
      setSelected([]);
    };
    setPoints(null);
    setLayout(null);
    // the picture of the read before stays until the new one is drawn: without its selection
    dropSelection();
    setShown(null);
    setPhase({ step: "reading", rows: 0, total: -1 });
    const offProgress = api.explorer.onTransferProgress((p) => {
      if (p.id === id) setPhase((ph) => (ph.step === "reading" ? { step: "reading", rows: p.rows, total: p.total } : ph));
    });
    const offFrame = api.explorer.onMapFrame((f: MapFrame) => {
      if (f.id !== id) return;
      if (f.error) {
        setPhase({ step: "error", error: parseApiError(`query_failed: ${f.error}`) });
        return;
      }
      if (f.cancelled) {
        setPhase({ step: "cancelled" });
        return;
      }
      setLayout({ id, xy: f.xy });
      setPhase(f.done ? { step: "ready" } : { step: "laying", stage: f.stage, epoch: f.epoch, epochs: f.epochs });
    });
    api.explorer.openMap(id, connection.id, table, { vector, filters: filtersRef.current, max, fresh: run.fresh }).then(
      (p) => {
        if (mapId.current !== id) return;
        // a lasso drawn on the old picture while this read ran chose old positions
        dropSelection();
        setPoints({ ...p, id });
        setColourBy((c) => c || defaultColour(p.columns));
        setPhase((ph) => (ph.step === "reading" ? { step: "laying", stage: "pca", epoch: 0, epochs: 0 } : ph));
      },
      (e) => {
        if (mapId.current !== id) return;
        const err = parseApiError(e);
        setPhase(err.code === "cancelled" ? { step: "cancelled" } : { step: "error", error: err });
      },
    );
    return () => {
      offProgress();
      offFrame();
      void api.explorer.cancelTransfer(id);
    };
  }, [api, connection.id, table, vector, filtersKey, max, run, plot, setSelected]);

  const colourColumn = points?.columns.find((c) => c.name === colourBy);
  const sizeColumn = points?.columns.find((c) => c.name === sizeBy);
  const count = points?.keys.length ?? 0;
  const colours = useMemo(() => colouring(points?.keys.length ?? 0, colourColumn), [points, colourColumn]);
  const sized = useMemo(() => sizes(points?.keys.length ?? 0, sizeColumn), [points, sizeColumn]);
  // The layout fitted to the plot, once it is of the points (the same read, as many places).
  const fitted = useMemo(
    () => (layout && points && layout.id === points.id && layout.xy.length === 2 * points.keys.length ? { id: points.id, ...fit(layout.xy) } : null),
    [layout, points],
  );
  const keys = useMapKeyboard({ plot, fitted, points, selected, selectPoints });

  // The theme's colours, again whenever the window's theme changes.
  useEffect(() => {
    void plot.current?.set({ ...THEME_COLOURS[theme] });
  }, [plot, theme]);

  // One draw at a time: a frame that comes while one is drawn waits, and only the latest of
  // those is drawn next. A million points take seconds to draw on a loaded machine (the plot's
  // spatial index is built in a worker from a million points), longer than the layout's frames
  // are apart; overlapping draws shared the cores and put off the first picture (issue 42).
  const drawing = useRef<{ plot: unknown; next: (() => void) | null }>({ plot: null, next: null });
  useEffect(() => {
    const sp = plot.current;
    if (!sp || !fitted) return;
    const draw = () => {
      if (plot.current !== sp) return;
      drawing.current = { plot: sp, next: null }; // drawing on sp (a new plot draws at once)
      void sp.set({
        pointColor: colours.colours,
        colorBy: colours.kind === "none" ? null : "valueA",
        pointSize: sizeColumn ? [2, 3, 4, 5, 6, 8, 10] : 4,
        sizeBy: sizeColumn ? "valueB" : null,
      });
      void sp
        .draw(
          // colours are indices (a number's missing value has a colour of its own), sizes along a scale
          { x: [...fitted.x], y: [...fitted.y], valueA: colours.values, valueB: sized },
          { zDataType: "categorical", wDataType: "continuous", preventFilterReset: true },
        )
        .then(() => {
          if (plot.current !== sp) return;
          if (selectedRef.current.length > 0) sp.select([...selectedRef.current], { preventEvent: true });
          setDrawnId(fitted.id);
          // How many layouts are on the screen: the benchmark times the first frame by it.
          const box = boxRef.current;
          if (box) box.dataset.frames = String(Number(box.dataset.frames ?? 0) + 1);
        })
        .catch(() => {}) // a plot destroyed while drawing (the tab closed) has nothing to show
        .finally(() => {
          if (drawing.current.plot !== sp) return;
          const next = drawing.current.next;
          drawing.current = { plot: null, next: null };
          next?.();
        });
    };
    if (drawing.current.plot === sp) drawing.current.next = draw;
    else draw();
  }, [plot, boxRef, selectedRef, fitted, colours, sized, sizeColumn]);

  // The note is said while the selection is the highlight's: another selection (Clear, Escape,
  // a lasso, a click, a legend entry) or a new read (another vector, sample, filters) ends it.
  useEffect(() => {
    if (shown && !samePoints(selected, shown.points)) setShown(null);
  }, [selected, shown]);

  // A search's or Find similar's rows, selected once their points are drawn: how many of them
  // the map holds is said (a sample or the filters may leave some out). Only the points of the
  // read under way count, drawn: a highlight and new filters come in one render, while the
  // points and the layout held are still the read before's (positions in another set).
  useEffect(() => {
    if (!highlight || !points || points.id !== mapId.current || drawnId !== points.id) return;
    // a highlight on another vector waits for the map of that vector
    if (highlight.vector !== undefined && info && chooseVector(info.settings, highlight.vector) !== points.vector) return;
    // Points and rows meet by their keys' ids (a map's number key and a grid's text are one row).
    const cols = points.keyColumns;
    const at = new Map<string, number>();
    points.keys.forEach((_, i) => {
      const k = pointKey(points, i);
      if (k) at.set(keyId(k, cols), i);
    });
    const idx = highlight.keys.map((k) => at.get(keyId(k, cols))).filter((i): i is number => i !== undefined);
    selectPoints(idx);
    setShown({ label: highlight.label, found: idx.length, of: highlight.keys.length, points: idx });
  }, [highlight, drawnId, points, info, selectPoints]);

  // A new save replaces what the last one said.
  const savePicture = () => {
    setSaved("");
    return picture.run(
      async () => {
        const sp = plot.current;
        if (!sp) return null;
        const img = await sp.export({ scale: 1, antiAliasing: 1, pixelAligned: false });
        return api.explorer.saveMapImage(table, await pngDataUrl(img));
      },
      (r) => setSaved(r?.status === "done" ? `Saved ${r.path}` : ""),
    );
  };

  // The layout as rows (the key's columns, x, y) for Export layout…, made when it is asked for:
  // 100,000 rows of text on every render (each hover, each frame of the layout) would stall the map.
  const layoutGrid: Grid | null = useMemo(
    () =>
      exporting && points && layout && layout.id === points.id
        ? {
            columns: [
              ...points.keyColumns.map((c) => gridColumn(c, info?.columns.find((x) => x.name === c)?.type ?? "text", true)),
              gridColumn("x", "number"),
              gridColumn("y", "number"),
            ],
            rows: layoutRows(points.keys, layout.xy),
            offset: 0,
            hasMore: false,
            notice: "",
            refused: null,
          }
        : null,
    [exporting, points, layout, info],
  );

  const busy = phase.step === "reading" || phase.step === "laying";
  const retry = () => {
    setPhase({ step: "describing" });
    if (!info) setAttempt((a) => a + 1);
    else setRun((r) => ({ n: r.n + 1, fresh: false }));
  };
  const one = selected.length === 1 && points ? selected[0] : null;
  const tip = hover ?? keys.tip;
  const label = points ? labelColumn(points.columns) : undefined;
  const name = (i: number) => (label ? (label.values[i] ?? `(no ${label.name})`) : "");
  // A point's row key, and its text for a person (a one-column key: the value alone, a uuid).
  const keyOfPoint = (i: number) => (points ? pointKey(points, i) : null);
  const keyName = (i: number) => {
    const k = keyOfPoint(i);
    return k && points ? keyText(k, points.keyColumns) : "";
  };
  // One object per point chosen: MapRow reads its row again only when another point is chosen.
  const oneKey = useMemo(() => (one !== null && points ? pointKey(points, one) : null), [one, points]);
  const keyless = points !== null && points.keyColumns.length === 0;
  const named = info !== null && info.settings.namedVectors.length > 0;
  const stoppedEarly = phase.step === "cancelled" && !xy;
  return (
    <section className="panel panel--table panel--map" aria-label={`Map of ${table}`}>
      <header className="panel__head">
        <span className="table-icon" aria-hidden="true">
          <Icon icon={MapIcon} size={16} />
        </span>
        <div className="panel__titles">
          <h2 className="panel__title">Map of {table}</h2>
          <p className="panel__subtitle">
            {connection.name}
            {points && (
              <>
                {" "}· {named && (points.vector ? `vector ${points.vector}, ` : "its own vector, ")}
                {formatCount(points.keys.length)} points{points.sampled ? `, a uniform sample of ${formatCount(points.matched - points.skipped)} rows` : ""} · {points.dims} dimensions
                {points.skipped > 0 && <> · {formatCount(points.skipped)} rows without this vector left out</>}
              </>
            )}
          </p>
        </div>
      </header>
      <div className="grid-bar map-bar">
        {info && named && (
          <label className="grid-bar__size">
            Vector{" "}
            <select className="input input--small" value={vector ?? ""} onChange={(e) => setWanted(e.target.value)}>
              {info.settings.ownVector && <option value="">its own vector</option>}
              {info.settings.namedVectors.map((n) => (
                <option key={n}>{n}</option>
              ))}
            </select>
          </label>
        )}
        <label className="grid-bar__size">
          Sample{" "}
          <select className="input input--small" value={max} onChange={(e) => setMax(Number(e.target.value))}>
            {SAMPLES.map((s) => (
              <option key={s.max} value={s.max}>
                {s.label}
              </option>
            ))}
          </select>
        </label>
        <label className="grid-bar__size">
          Colour by{" "}
          <select className="input input--small" value={colourBy} onChange={(e) => setColourBy(e.target.value)} disabled={!points}>
            <option value="">nothing</option>
            {points?.columns.map((c) => (
              <option key={c.name}>{c.name}</option>
            ))}
          </select>
        </label>
        <label className="grid-bar__size">
          Size by{" "}
          <select className="input input--small" value={sizeBy} onChange={(e) => setSizeBy(e.target.value)} disabled={!points}>
            <option value="">nothing</option>
            {points?.columns.filter(isNumeric).map((c) => (
              <option key={c.name}>{c.name}</option>
            ))}
          </select>
        </label>
        <span className="grid-bar__range" role="status" aria-live="polite">
          {phase.step === "describing" && `Reading ${table}…`}
          {phase.step === "reading" &&
            (phase.total >= 0 && phase.rows <= phase.total
              ? `Reading vectors… ${formatCount(phase.rows)} of ${formatCount(phase.total)} rows`
              : `Reading vectors… ${formatCount(phase.rows)} rows`)}
          {phase.step === "laying" && (phase.stage === "pca" ? "Laying out: PCA…" : `Refining (UMAP): ${phase.epoch} of ${phase.epochs}`)}
          {phase.step === "ready" && (points?.kept ? "Layout kept from before (Recompute lays it out again)" : "Layout done (UMAP)")}
          {phase.step === "cancelled" && (xy ? "Stopped: the layout so far is shown (Recompute lays it out again)" : "Cancelled")}
        </span>
        {busy && (
          <button type="button" className="btn btn--small" onClick={() => void api.explorer.cancelTransfer(mapId.current)}>
            Cancel
          </button>
        )}
        <button type="button" className="btn btn--small" disabled={busy || phase.step === "describing"} onClick={() => setRun((r) => ({ n: r.n + 1, fresh: true }))}>
          Recompute
        </button>
        <button type="button" className="btn btn--small" disabled={!xy} onClick={() => void savePicture()}>
          Save picture…
        </button>
        <button type="button" className="btn btn--small" disabled={!points || !xy} onClick={() => setExporting(true)}>
          Export layout…
        </button>
      </div>
      {exporting && layoutGrid && <ExportDialog grid={layoutGrid} table={`${table} layout`} onClose={() => setExporting(false)} />}
      {saved && <p className="panel__note" role="status">{saved}</p>}
      {picture.error && <ErrorLine>Could not save the picture: {picture.error.message}</ErrorLine>}
      {phase.step === "error" && <ErrorState title={<>No map of {table}</>} error={phase.error} onRetry={retry} />}
      {stoppedEarly && (
        <div className="list-state" role="status">
          <p className="list-state__title">The map was cancelled</p>
          <p className="list-state__hint">It was stopped before its points were drawn; Retry reads the vectors again.</p>
          <button type="button" className="btn btn--small" onClick={retry}>
            Retry
          </button>
        </div>
      )}
      {shown && (
        <p className="panel__note" role="status">
          {shown.found === shown.of ? `The ${shown.of} rows of ${shown.label} are selected.` : `${shown.found} of the ${shown.of} rows of ${shown.label} are on the map, selected.`}
        </p>
      )}
      {selected.length > 1 && (
        <div className="notice-line" role="status">
          {formatCount(selected.length)} points selected
          <button
            type="button"
            className="btn btn--small btn--primary"
            disabled={keyless}
            title={keyless ? NO_KEY : undefined}
            onClick={() => points && onOpenRows(selected.map(keyOfPoint).filter((k): k is RowKey => k !== null), points.keyColumns)}
          >
            Open as a grid tab
          </button>
          <button type="button" className="btn btn--small" onClick={() => selectPoints([])}>
            Clear
          </button>
        </div>
      )}
      <div className="map-body" hidden={phase.step === "error" || stoppedEarly}>
        <div className="map-canvas" ref={boxRef}>
          <canvas
            ref={canvasRef}
            tabIndex={0}
            role="application"
            aria-label={`Map of ${table}: ${count} points`}
            aria-describedby={keysId}
            {...keys.handlers}
          />
          <p id={keysId} className="visually-hidden">
            {MAP_KEYS_TEXT}
          </p>
          {tip && points && tip.i < points.keys.length && (
            <div className="map-tooltip" role="tooltip" style={{ left: tip.x + 12, top: tip.y + 12 }}>
              {label && <strong>{name(tip.i)}</strong>}
              {!keyless && <code>{keyName(tip.i)}</code>}
            </div>
          )}
          <p className="visually-hidden" aria-live="polite">
            {keys.tip && points ? `${name(keys.tip.i)} ${keyName(keys.tip.i)}${selected.includes(keys.tip.i) ? ", selected" : ""}` : ""}
          </p>
        </div>
        <MapSide colourBy={colourBy} colours={colours} onSelect={selectPoints}>
          {one !== null && points && info && oneKey && (
            <MapRow
              key={keyId(oneKey, points.keyColumns)}
              connection={connection}
              table={table}
              row={oneKey}
              keyColumns={points.keyColumns}
              namedVectors={info.settings.namedVectors}
              onOpenRows={onOpenRows}
              onFindSimilar={onFindSimilar}
              onClose={() => selectPoints([])}
            />
          )}
          {one !== null && keyless && (
            <p className="map-row panel__note" role="note">
              {NO_KEY}.
            </p>
          )}
        </MapSide>
      </div>
    </section>
  );
}
