import type { SearchMode, SearchParam } from "./types";

/** The shape a search mode arrives in: the DTO (every field) or the driver's JSON (empty ones left out). */
export interface RawSearchMode {
  name: string;
  label: string;
  hint?: string;
  note?: string;
  measure: string;
  columns?: boolean;
  textColumns?: string[] | null;
  explains?: boolean;
  vector?: boolean;
  params?: RawSearchParam[] | null;
}

interface RawSearchParam {
  key: string;
  label: string;
  help?: string;
  kind: string;
  min?: number;
  max?: number;
  step?: number;
  minLabel?: string;
  maxLabel?: string;
  default?: string;
  options?: string[] | null;
  optionLabels?: Record<string, string> | null;
}

/** toSearchModes gives every field of a table's searches a value, so the panel never guesses. */
export function toSearchModes(raw: RawSearchMode[] | null | undefined): SearchMode[] {
  return (raw ?? []).map((m) => ({
    name: m.name,
    label: m.label,
    hint: m.hint ?? "",
    note: m.note ?? "",
    measure: m.measure,
    columns: !!m.columns,
    textColumns: m.textColumns ?? [],
    explains: !!m.explains,
    vector: !!m.vector,
    params: (m.params ?? []).map(toParam),
  }));
}

function toParam(p: RawSearchParam): SearchParam {
  return {
    key: p.key,
    label: p.label,
    help: p.help ?? "",
    kind: p.kind,
    min: p.min ?? 0,
    max: p.max ?? 0,
    step: p.step ?? 0,
    minLabel: p.minLabel ?? "",
    maxLabel: p.maxLabel ?? "",
    default: p.default ?? "",
    options: p.options ?? [],
    optionLabels: p.optionLabels ?? {},
  };
}
