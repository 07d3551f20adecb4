// A plugin's description of its connections, read from the wire (Go's driver.Description,
// where empty lists and maps are left out) into the UI's shape, every list and map present.
import type { driver } from "../../wailsjs/go/models";
import type { ConnectionDescription, FieldKind } from "./types";

/** WireDescription is driver.Description as JSON may carry it: any optional part missing. */
export type WireDescription = Partial<Omit<driver.Description, "settings">> & { settings?: Partial<driver.SettingField>[] };

/** toDescription reads a plugin's description, every list and map present. */
export function toDescription(d: WireDescription): ConnectionDescription {
  return {
    types: (d.types ?? []).map((t) => ({ name: t.name, label: t.label, summary: t.summary ?? "" })),
    settings: (d.settings ?? []).map((f) => ({
      key: f.key ?? "",
      label: f.label ?? "",
      kind: (f.kind ?? "text") as FieldKind,
      default: f.default ?? "",
      placeholder: f.placeholder ?? "",
      help: f.help ?? "",
      required: !!f.required,
      section: f.section ?? "",
      options: f.options ?? [],
      optionHelp: f.optionHelp ?? {},
      min: f.min ?? 0,
      max: f.max ?? 0,
      format: f.format ?? "",
      showWhen: f.showWhen ? { key: f.showWhen.key, in: f.showWhen.in ?? [] } : null,
    })),
    suggestions: (d.suggestions ?? []).map((g) => ({ key: g.key, suffixes: g.suffixes ?? [], set: g.set ?? {}, text: g.text, action: g.action })),
    address: d.address ?? [],
    url: d.url ? { schemes: d.url.schemes ?? [], example: d.url.example ?? "" } : null,
  };
}

