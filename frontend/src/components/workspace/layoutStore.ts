import type { Api, Layout, LayoutApi } from "../../api";

// Layout limits, the backend's (app/layout.go): a save beyond them is refused whole, so the
// window trims first (the oldest entries go).
export const LAYOUT_MAX_TABS = 100;
export const LAYOUT_MAX_TABLES = 200;
export const LAYOUT_MAX_COLUMNS = 500;
export const LAYOUT_MIN_WIDTH = 40;
export const LAYOUT_MAX_WIDTH = 2000;
/** How long after the last change the layout is written. */
export const LAYOUT_SAVE_DELAY_MS = 500;

export function without<V>(m: Record<string, V>, key: string): Record<string, V> {
  const { [key]: _, ...rest } = m;
  return rest;
}

/** capped keeps the newest `max` entries of m (insertion order: the newest last). */
export function capped<V>(m: Record<string, V>, max = LAYOUT_MAX_TABLES): Record<string, V> {
  const keys = Object.keys(m);
  if (keys.length <= max) return m;
  return Object.fromEntries(keys.slice(keys.length - max).map((k) => [k, m[k]]));
}

/**
 * LayoutStore is the window's copy of the layout document (LayoutApi, layout.json in the
 * config dir): loaded once, changed in memory, written LAYOUT_SAVE_DELAY_MS after the last
 * change. Changes made before it has loaded are applied on top of what was loaded, so nothing
 * remembered is overwritten by an early change. A failed load or save is quiet: it is only
 * layout.
 */
export class LayoutStore {
  private layout: Layout = { tabs: [], active: "", lastTable: {}, columnWidths: {} };
  private loading: Promise<Layout> | null = null;
  private loaded = false;
  private queued: ((l: Layout) => Layout)[] = [];
  private timer: ReturnType<typeof setTimeout> | null = null;
  private listeners = new Set<() => void>();

  constructor(private readonly api: LayoutApi) {}

  /** load reads the document once; later calls return the same answer. */
  load(): Promise<Layout> {
    this.loading ??= this.api
      .layout()
      .catch(() => this.layout)
      .then((l) => {
        this.layout = this.queued.reduce((acc, fn) => fn(acc), l);
        this.loaded = true;
        if (this.queued.length > 0) this.schedule();
        this.queued = [];
        this.notify();
        return this.layout;
      });
    return this.loading;
  }

  /** current is the layout as the window has it now (empty before it loaded). */
  current(): Layout {
    return this.layout;
  }

  /** update changes the layout (fn returns a new object, or the same one for no change) and schedules the write. */
  update(fn: (l: Layout) => Layout) {
    if (!this.loaded) {
      this.queued.push(fn);
      void this.load();
      return;
    }
    const next = fn(this.layout);
    if (next === this.layout) return;
    this.layout = next;
    this.notify();
    this.schedule();
  }

  /** flush writes a scheduled change now. */
  flush() {
    if (this.timer === null) return;
    clearTimeout(this.timer);
    this.timer = null;
    void this.api.saveLayout(this.layout).catch(() => {});
  }

  subscribe(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  private schedule() {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.flush(), LAYOUT_SAVE_DELAY_MS);
  }

  private notify() {
    this.listeners.forEach((l) => l());
  }
}

const stores = new WeakMap<Api, LayoutStore>();

/** layoutStore is the one LayoutStore of an Api (the window has one Api; each test its own). */
export function layoutStore(api: Api): LayoutStore {
  let s = stores.get(api);
  if (!s) {
    s = new LayoutStore(api.layout);
    stores.set(api, s);
  }
  return s;
}
