import { useEffect, useMemo, useRef, useState } from "react";
import { parseApiError, useApi, type ApiError, type Column, type Connection, type Filter, type Grid, type MapFrame, type MapPoints, type TableInfo } from "../../api";
import { ExportDialog } from "../grid/ExportDialog";
import { formatCount } from "../explorer/format";
import { Icon, MapIcon } from "../icons";
import type { MapHighlight } from "../workspace/useWorkspace";
import { colouring, defaultColour, fit, isNumeric, labelColumn, layoutRows, sizes } from "./mapModel";
import { MapSide } from "./MapSide";
import { useScatterplot } from "./useScatterplot";
import { ErrorLine, ErrorState } from "../layout/ErrorLine";
import { useAction } from "../layout/useAction";

interface Props {
  connection: Connection;
  table: string;
  /** The grid's filters when the map was opened: they choose the rows. */
  filters: Filter[];
  /** onOpenRows opens the rows (uuids) as a grid tab, editable as any. */
  onOpenRows: (uuids: string[]) => void;
  /** Rows a search or Find similar found, shown selected once the layout is drawn. */
  highlight?: MapHighlight;
}

type Phase =
  | { step: "reading"; rows: number }
  | { step: "laying"; stage: "pca" | "umap"; epoch: number; epochs: number }
  | { step: "ready" }
  | { step: "cancelled" }
  | { step: "error"; error: ApiError };

let maps = 0;

/** gridColumn is a read-only column of the layout's grid (uuid, x, y). */
function gridColumn(name: string, type: string): Column {
  return { name, type, primaryKey: name === "uuid", readOnly: true, json: false, description: "", filterable: [], sortable: false, preview: false };
}

/**
 * MapPanel is a table's vectors on a plane (issue 22): the PCA layout at once, then UMAP's as
 * it refines, drawn with WebGL (regl-scatterplot). Colour by a column (a legend, each entry a
 * button that selects its points), size by a number, zoom and pan, hover names the point,
 * a click shows its row, and a lasso (Shift and drag) or a legend entry selects points to open
 * as a grid tab. The map and its layout (uuid, x, y) can be saved.
 */
export function MapPanel({ connection, table, filters, onOpenRows, highlight }: Props) {
  const api = useApi();
  const [info, setInfo] = useState<TableInfo | null>(null);
  const [vector, setVector] = useState<string | null>(null);
  const [points, setPoints] = useState<MapPoints | null>(null);
  const [xy, setXY] = useState<Float32Array | null>(null);
  const [phase, setPhase] = useState<Phase>({ step: "reading", rows: 0 });
  const { plot, canvasRef, boxRef, hover, selected, selectedRef, setSelected, selectPoints } = useScatterplot();
  const [colourBy, setColourBy] = useState("");
  const [sizeBy, setSizeBy] = useState("");
  const [exporting, setExporting] = useState(false);
  const [saved, setSaved] = useState("");
  const picture = useAction();
  const [run, setRun] = useState(0);
  const mapId = useRef("");

  useEffect(() => {
    let live = true;
    api.explorer.describeTable(connection.id, table).then(
      (i) => {
        if (!live) return;
        setInfo(i);
        // a collection's own vector first, where it has one beside named ones
        setVector((v) => v ?? (i.settings.ownVector ? "" : (i.settings.namedVectors[0] ?? "")));
      },
      (e) => live && setPhase({ step: "error", error: parseApiError(e) }),
    );
    return () => {
      live = false;
    };
    // run: Retry after a failed read of the table describes it again
  }, [api, connection.id, table, run]);

  // Read the vectors and follow the layout's frames; a new run (another vector, Recompute) or
  // closing the tab cancels the one before.
  useEffect(() => {
    if (vector === null) return;
    const id = `map-${++maps}`;
    mapId.current = id;
    setPoints(null);
    setXY(null);
    setSelected([]);
    setPhase({ step: "reading", rows: 0 });
    const offProgress = api.explorer.onTransferProgress((p) => {
      if (p.id === id) setPhase((ph) => (ph.step === "reading" ? { step: "reading", rows: p.rows } : ph));
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
      setXY(f.xy);
      setPhase(f.done ? { step: "ready" } : { step: "laying", stage: f.stage, epoch: f.epoch, epochs: f.epochs });
    });
    api.explorer.openMap(id, connection.id, table, { vector, filters, max: 0, fresh: run > 0 }).then(
      (p) => {
        if (mapId.current !== id) return;
        setPoints(p);
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
  }, [api, connection.id, table, vector, filters, run]);


  const colourColumn = points?.columns.find((c) => c.name === colourBy);
  const sizeColumn = points?.columns.find((c) => c.name === sizeBy);
  const colours = useMemo(() => colouring(points?.uuids.length ?? 0, colourColumn), [points, colourColumn]);
  const sized = useMemo(() => sizes(points?.uuids.length ?? 0, sizeColumn), [points, sizeColumn]);
  const label = points ? labelColumn(points.columns) : undefined;
  const dark = document.documentElement.dataset.theme === "dark";

  useEffect(() => {
    const sp = plot.current;
    if (!sp || !xy || !points || xy.length !== 2 * points.uuids.length) return;
    const { x, y } = fit(xy);
    sp.set({
      backgroundColor: dark ? "#16181d" : "#ffffff",
      pointColor: colours.colours,
      colorBy: colours.kind === "none" ? null : "valueA",
      pointSize: sizeColumn ? [2, 3, 4, 5, 6, 8, 10] : 4,
      sizeBy: sizeColumn ? "valueB" : null,
      lassoColor: dark ? "#e8e8e8" : "#222222",
    });
    void sp
      .draw(
        { x: [...x], y: [...y], valueA: colours.values, valueB: sized },
        { zDataType: colours.kind === "continuous" ? "continuous" : "categorical", wDataType: "continuous", preventFilterReset: true },
      )
      .then(() => {
        if (plot.current !== sp) return;
        if (selectedRef.current.length > 0) sp.select(selectedRef.current, { preventEvent: true });
        // How many layouts are on the screen: the benchmark times the first frame by it.
        const box = boxRef.current;
        if (box) box.dataset.frames = String(Number(box.dataset.frames ?? 0) + 1);
      })
      .catch(() => {}); // a plot destroyed while drawing (the tab closed) has nothing to show
  }, [xy, points, colours, sized, sizeColumn, dark]);

  // A search's or Find similar's rows, selected once their points are drawn: how many of them
  // the map holds is said (a sample or the filters may leave some out).
  const [shown, setShown] = useState<{ label: string; found: number; of: number } | null>(null);
  const drawn = xy !== null && points !== null;
  useEffect(() => {
    if (!highlight || !drawn || !points) return;
    const at = new Map(points.uuids.map((u, i) => [u, i]));
    const idx = highlight.uuids.map((u) => at.get(u)).filter((i): i is number => i !== undefined);
    selectPoints(idx);
    setShown({ label: highlight.label, found: idx.length, of: highlight.uuids.length });
  }, [highlight, drawn, points, selectPoints]);

  // A new save replaces what the last one said.
  const savePicture = () => {
    setSaved("");
    return picture.run(
      async () => {
        const sp = plot.current;
        if (!sp) return null;
        const img = await sp.export({ scale: 1, antiAliasing: 1, pixelAligned: false });
        const c = document.createElement("canvas");
        c.width = img.width;
        c.height = img.height;
        c.getContext("2d")?.putImageData(img, 0, 0);
        return api.explorer.saveMapImage(`${table} map`, c.toDataURL("image/png"));
      },
      (r) => setSaved(r?.status === "done" ? `Saved ${r.path}` : ""),
    );
  };

  // The layout as rows (uuid, x, y) for Export layout…, made when it is asked for: 100,000
  // rows of text on every render (each hover, each frame of the layout) would stall the map.
  const layoutGrid: Grid | null = useMemo(
    () =>
      exporting && points && xy
        ? {
            columns: [gridColumn("uuid", "uuid"), gridColumn("x", "number"), gridColumn("y", "number")],
            rows: layoutRows(points.uuids, xy),
            offset: 0,
            hasMore: false,
            notice: "",
            refused: null,
          }
        : null,
    [exporting, points, xy],
  );

  const one = selected.length === 1 && points ? selected[0] : null;
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
                {" "}· {formatCount(points.uuids.length)} points{points.sampled ? `, a uniform sample of ${formatCount(points.matched - points.skipped)} rows` : ""} · {points.dims} dimensions
                {points.skipped > 0 && <> · {formatCount(points.skipped)} rows without this vector left out</>}
              </>
            )}
          </p>
        </div>
      </header>
      <div className="grid-bar map-bar">
        {info && info.settings.namedVectors.length > 0 && (
          <label className="grid-bar__size">
            Vector{" "}
            <select className="input input--small" value={vector ?? ""} onChange={(e) => setVector(e.target.value)}>
              {info.settings.ownVector && <option value="">its own vector</option>}
              {info.settings.namedVectors.map((n) => (
                <option key={n}>{n}</option>
              ))}
            </select>
          </label>
        )}
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
          {phase.step === "reading" && <>Reading vectors… {formatCount(phase.rows)} rows</>}
          {phase.step === "laying" && (phase.stage === "pca" ? "Laying out: PCA…" : `Refining (UMAP): ${phase.epoch} of ${phase.epochs}`)}
          {phase.step === "ready" && (points?.kept ? "Layout kept from before (Recompute lays it out again)" : "Layout done (UMAP)")}
          {phase.step === "cancelled" && (xy ? "Stopped: the layout so far is shown (Recompute lays it out again)" : "Cancelled")}
        </span>
        {(phase.step === "reading" || phase.step === "laying") && (
          <button type="button" className="btn btn--small" onClick={() => void api.explorer.cancelTransfer(mapId.current)}>
            Cancel
          </button>
        )}
        <button type="button" className="btn btn--small" disabled={phase.step === "reading" || phase.step === "laying"} onClick={() => setRun((r) => r + 1)}>
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
      {phase.step === "error" && (
        <ErrorState title={<>No map of {table}</>} error={phase.error} onRetry={() => setRun((r) => r + 1)} />
      )}
      {shown && (
        <p className="panel__note" role="status">
          {shown.found === shown.of ? `The ${shown.of} rows of ${shown.label} are selected.` : `${shown.found} of the ${shown.of} rows of ${shown.label} are on the map, selected.`}
        </p>
      )}
      {selected.length > 1 && (
        <div className="notice-line" role="status">
          {formatCount(selected.length)} points selected
          <button type="button" className="btn btn--small btn--primary" onClick={() => points && onOpenRows(selected.map((i) => points.uuids[i]))}>
            Open as a grid tab
          </button>
          <button type="button" className="btn btn--small" onClick={() => selectPoints([])}>
            Clear
          </button>
        </div>
      )}
      <div className="map-body" hidden={phase.step === "error"}>
        <div className="map-canvas" ref={boxRef}>
          <canvas ref={canvasRef} aria-label={`Map of ${table}: ${points ? points.uuids.length : 0} points; Shift and drag to select with a lasso, Escape to clear`} />
          {hover && points && (
            <div className="map-tooltip" role="tooltip" style={{ left: hover.x + 12, top: hover.y + 12 }}>
              {label && <strong>{label.values[hover.i] ?? "(no " + label.name + ")"}</strong>}
              <code>{points.uuids[hover.i]}</code>
            </div>
          )}
        </div>
        <MapSide colourBy={colourBy} colours={colours} points={points} one={one} onSelect={selectPoints} onOpenRows={onOpenRows} />
      </div>
    </section>
  );
}
