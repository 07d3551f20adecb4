// The connection form's rules, apart from its markup so they are tested on their own. The
// fields are the ones the type's plugin describes (contract 3): nothing here knows a database.
import type { ConnectionDescription, ConnectionForm, SettingField, Suggestion } from "../../api";

export const EXTERNAL_ACCESS = [
  { value: "blocked", label: "Blocked: invisible to AI clients" },
  { value: "readOnly", label: "Read-only" },
  { value: "readWrite", label: "Read and write (writes are approved by you)" },
] as const;

export const AI_POLICIES = [
  { value: "alwaysAsk", label: "Always ask, reads too" },
  { value: "askForWrites", label: "Ask for writes" },
  { value: "neverForWrites", label: "Never allow writes" },
] as const;

/** applies tells whether a field applies to the values (its showWhen holds). */
export function applies(f: SettingField, values: Record<string, string>): boolean {
  return !f.showWhen || f.showWhen.in.includes(values[f.showWhen.key] ?? "");
}

/** endsWithSuffix tells whether a value ends with one of the suffixes (case-insensitive), with more before it. */
function endsWithSuffix(value: string, suffixes: string[]): boolean {
  const v = value.trim().toLowerCase().replace(/\.$/, "");
  return suffixes.some((s) => v.endsWith(s.toLowerCase()) && v.length > s.length);
}

/**
 * suggestionFor is what the form offers for the values: the first suggestion whose field ends
 * with one of its suffixes while some value it would set differs, or null.
 */
export function suggestionFor(d: ConnectionDescription, values: Record<string, string>): Suggestion | null {
  for (const g of d.suggestions) {
    if (!endsWithSuffix(values[g.key] ?? "", g.suffixes)) continue;
    if (Object.entries(g.set).some(([k, v]) => (values[k] ?? "") !== v)) return g;
  }
  return null;
}

/** A problem the form names at one of its fields: the field's key ("name" for the name) and words. */
export interface FieldProblem {
  field: string;
  message: string;
}

function label(d: ConnectionDescription, key: string): string {
  return d.settings.find((f) => f.key === key)?.label ?? key;
}

/**
 * fieldProblem is the first thing the form must fix before it is sent, at its field, or null
 * when none. The backend (and the plugin) check again; this only saves a round trip for what
 * is plain to see from the description.
 */
export function fieldProblem(d: ConnectionDescription, f: ConnectionForm, secrets: Record<string, string>, forSave: boolean): FieldProblem | null {
  if (forSave && f.name.trim() === "") return { field: "name", message: "Name is required." };
  for (const s of d.settings) {
    if (!applies(s, f.values)) continue;
    const v = (f.values[s.key] ?? "").trim();
    const at = (message: string) => ({ field: s.key, message });
    switch (s.kind) {
      case "secret":
        if (s.required && (secrets[s.key] ?? "") === "" && !f.savedSecrets.includes(s.key)) {
          return at(s.showWhen ? `Enter the ${s.label}, or change ${label(d, s.showWhen.key)}.` : `Enter the ${s.label}.`);
        }
        break;
      case "int": {
        if (v === "" || (!s.required && v === "0")) {
          if (s.required) return at(`${s.label} is required.`);
          break;
        }
        const n = intValue(v);
        const bounded = s.min !== 0 || s.max !== 0;
        if (Number.isNaN(n) || (bounded && (n < s.min || n > s.max))) {
          const range = bounded ? ` from ${s.min} to ${s.max}` : "";
          return at(`${s.label} must be a number${range}${s.required ? "" : ", or empty for the default"}.`);
        }
        break;
      }
      case "bool":
        break;
      case "enum":
        if (v === "" && s.required) return at(`${s.label} is required.`);
        if (v !== "" && !s.options.includes(v)) return at(`${s.label} must be one of ${s.options.join(", ")}.`);
        break;
      default:
        if (v === "") {
          if (s.required) return at(`${s.label} is required.`);
          break;
        }
        if (s.format === "host" && v.includes("://")) return at(`${s.label} is a host name without http:// or https://.`);
        if (s.format === "host" && /[/?#@ ]/.test(v)) return at(`${s.label} is a host name, without path, user or spaces.`);
    }
  }
  return null;
}

/** intValue reads an int field as typed: a whole number, else NaN. */
export function intValue(text: string): number {
  const t = text.trim();
  return /^\d+$/.test(t) ? Number(t) : Number.NaN;
}

/** newConnectionForm is a new connection of a type, with its description's defaults. */
export function newConnectionForm(type: string, d: ConnectionDescription): ConnectionForm {
  const values: Record<string, string> = {};
  for (const f of d.settings) {
    if (f.kind !== "secret" && f.default !== "") values[f.key] = f.default;
  }
  return { id: "", name: "", type, values, externalAccess: "readWrite", aiPolicy: "askForWrites", savedSecrets: [] };
}

/** sections are the description's fields grouped: the main group ("") first, then each named one in order. */
export function sections(d: ConnectionDescription): { name: string; fields: SettingField[] }[] {
  const out: { name: string; fields: SettingField[] }[] = [];
  for (const f of d.settings) {
    let s = out.find((x) => x.name === f.section);
    if (!s) {
      s = { name: f.section, fields: [] };
      if (f.section === "") out.unshift(s);
      else out.push(s);
    }
    s.fields.push(f);
  }
  return out;
}
