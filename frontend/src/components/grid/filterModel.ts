// The grid's filter model: which operators a column offers (from the driver's
// Column.filterable, the column type and the collection settings), why an operator is
// unavailable, value checks (numbers, full RFC 3339 dates, UUIDs, lists) and the shape sent
// to the backend. Pure functions; the backend (the driver) stays the judge of what runs.
import type { Column, Filter } from "../../api";
import { isVector, scalarKind } from "./columnKinds";

/** Every operator of the spec's table, in menu order (backend/driver Operators()). */
export const OPERATORS = [
  "equals",
  "not_equals",
  "greater_than",
  "greater_or_equal",
  "less_than",
  "less_or_equal",
  "contains",
  "not_contains",
  "starts_with",
  "ends_with",
  "in",
  "not_in",
  "between",
  "is_null",
  "is_not_null",
  "is_empty",
  "is_not_empty",
  "regex",
] as const;

export type Operator = (typeof OPERATORS)[number];

export const OPERATOR_LABELS: Record<Operator, string> = {
  equals: "equals",
  not_equals: "not equals",
  greater_than: "greater than",
  greater_or_equal: "greater or equal",
  less_than: "less than",
  less_or_equal: "less or equal",
  contains: "contains",
  not_contains: "not contains",
  starts_with: "starts with",
  ends_with: "ends with",
  in: "in list",
  not_in: "not in list",
  between: "between",
  is_null: "is NULL",
  is_not_null: "is not NULL",
  is_empty: "is empty",
  is_not_empty: "is not empty",
  regex: "REGEX",
};

/** How many values an operator takes: none, one, a comma-separated list, or two bounds. */
export type Arity = "none" | "one" | "list" | "two";

export function arity(op: string): Arity {
  switch (op) {
    case "is_null":
    case "is_not_null":
    case "is_empty":
    case "is_not_empty":
      return "none";
    case "in":
    case "not_in":
      return "list";
    case "between":
      return "two";
    default:
      return "one";
  }
}

/** The scalar family of a column's values (for arrays: of one element). */
export type Family = "text" | "int" | "number" | "date" | "boolean" | "uuid" | "other";

export function familyOf(column: Pick<Column, "kind" | "of">): { family: Family; array: boolean } {
  const array = column.kind === "array";
  switch (scalarKind(column)) {
    case "text":
      return { family: "text", array };
    case "integer":
      return { family: "int", array };
    case "number":
      return { family: "number", array };
    case "datetime":
    case "date":
      return { family: "date", array };
    case "boolean":
      return { family: "boolean", array };
    case "uuid":
      return { family: "uuid", array };
    default:
      return { family: "other", array };
  }
}

/** One entry of a column's operator menu. */
export interface OperatorChoice {
  op: Operator;
  label: string;
  /** False when the operator is shown but cannot run here; reason says why. */
  available: boolean;
  reason: string;
}

/**
 * operatorChoices lists the operators a column offers: those the driver lists for it
 * (Column.filterable) as available, then those it says fit the column but cannot run here
 * (Column.blocked: a table setting is off, or the database lacks the operator), shown as
 * unavailable with the driver's reason. An operator that does not fit the column is not
 * offered. A column that cannot be filtered at all (vector, objects, references) offers none.
 */
export function operatorChoices(column: Column): OperatorChoice[] {
  if (column.filterable.length === 0) return [];
  const offered = new Set(column.filterable);
  const blocked = column.blocked ?? {};
  const out: OperatorChoice[] = [];
  for (const op of OPERATORS) {
    const label = OPERATOR_LABELS[op];
    if (offered.has(op)) out.push({ op, label, available: true, reason: "" });
    else if (blocked[op]) out.push({ op, label, available: false, reason: blocked[op] });
  }
  return out;
}

/** unfilterableReason says why a column offers no filter ("" when it offers some). */
export function unfilterableReason(column: Column): string {
  if (column.filterable.length > 0) return "";
  if (isVector(column)) return "The vector column cannot be filtered; search near a vector instead (Search, or Find similar).";
  if (column.kind === "json" || column.kind === "geo") return `Properties of type ${column.type} cannot be filtered from the grid.`;
  return `${column.name} (${column.type}) cannot be filtered from the grid; filter it in the query editor, in the connection's language.`;
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** isRFC3339 accepts a full timestamp with a zone: 2024-01-31T00:00:00Z, ...+02:00, fractions. */
export function isRFC3339(s: string): boolean {
  const m = RFC3339.exec(s.trim());
  if (!m) return false;
  const [y, mo, d, h, mi, se] = m.slice(1, 7).map(Number);
  if (mo < 1 || mo > 12 || h > 23 || mi > 59 || se > 60) return false;
  const days = new Date(Date.UTC(y, mo, 0)).getUTCDate();
  return d >= 1 && d <= days;
}

/**
 * fromPicker turns a datetime-local value ("2024-01-31T10:00" or with seconds), read as
 * UTC, into a full RFC 3339 timestamp ("2024-01-31T10:00:00Z"); "" for an empty or odd value.
 */
export function fromPicker(local: string): string {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})(:\d{2})?(\.\d+)?$/.exec(local.trim());
  if (!m) return "";
  return `${m[1]}T${m[2]}${m[3] ?? ":00"}Z`;
}

/** toPicker is the datetime-local value of a UTC RFC 3339 timestamp ("" when not one). */
export function toPicker(value: string): string {
  const m = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(\.\d+)?Z$/i.exec(value.trim());
  return m ? m[1] : "";
}

/** checkScalar says why raw is not a value of the family, or "" when it is. */
export function checkScalar(family: Family, raw: string): string {
  const s = raw.trim();
  switch (family) {
    case "int":
      return /^[+-]?\d+$/.test(s) ? "" : `"${raw}" is not an integer`;
    case "number":
      return /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(s) && Number.isFinite(Number(s)) ? "" : `"${raw}" is not a number`;
    case "date":
      return isRFC3339(s) ? "" : `"${raw}" is not a full RFC 3339 timestamp; dates need the shape YYYY-MM-DDThh:mm:ssZ, e.g. 2024-01-31T00:00:00Z`;
    case "boolean":
      return /^(true|false)$/i.test(s) ? "" : `"${raw}" is not a boolean (true or false)`;
    case "uuid":
      return UUID.test(s) ? "" : `"${raw}" is not a UUID (8-4-4-4-12 hex digits)`;
    default:
      return "";
  }
}

/**
 * splitList splits an in-list value at commas; an item in double quotes may hold a comma
 * ("a,b", c), as the backend reads it. Items are trimmed; null when the quotes do not close.
 */
export function splitList(value: string): string[] | null {
  const out: string[] = [];
  let cur = "";
  let quoted = false;
  let wasQuoted = false;
  for (let i = 0; i < value.length; i++) {
    const ch = value[i];
    if (quoted) {
      if (ch === '"' && value[i + 1] === '"') {
        cur += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cur += ch;
    } else if (ch === '"' && cur.trim() === "") {
      quoted = true;
      wasQuoted = true;
      cur = "";
    } else if (ch === ",") {
      out.push(wasQuoted ? cur : cur.trim());
      cur = "";
      wasQuoted = false;
    } else cur += ch;
  }
  if (quoted) return null;
  out.push(wasQuoted ? cur : cur.trim());
  return out;
}

/**
 * validateFilter says why the filter's value does not fit its column, or "" when it does:
 * the hint shown at the filter while it is typed. The backend checks again and refuses what
 * cannot run.
 */
export function validateFilter(column: Column, f: Pick<Filter, "operator" | "value" | "value2">): string {
  const { family } = familyOf(column);
  switch (arity(f.operator)) {
    case "none":
      return "";
    case "two": {
      if (f.value.trim() === "" || f.value2.trim() === "") return "between needs two bounds (both inclusive)";
      const a = checkScalar(family, f.value) || checkScalar(family, f.value2);
      if (a) return a;
      if ((family === "int" || family === "number") && Number(f.value) > Number(f.value2))
        return "the lower bound is above the upper bound: no row can match";
      if (family === "date" && Date.parse(f.value) > Date.parse(f.value2))
        return "the first date is after the second: no row can match";
      return "";
    }
    case "list": {
      if (f.value.trim() === "") return "the list is empty; separate values with commas";
      const items = splitList(f.value);
      if (items === null) return "a quoted item is not closed";
      if (items.some((it) => it === "")) return "the list has an empty item";
      for (const it of items) {
        const e = checkScalar(family, it);
        if (e) return e;
      }
      return "";
    }
    default:
      if (["contains", "not_contains", "starts_with", "ends_with"].includes(f.operator))
        return f.value === "" ? "the pattern is empty" : "";
      if (f.operator === "regex") return "";
      if (f.value.trim() === "" && family !== "text") return "a value is needed";
      return checkScalar(family, f.value);
  }
}

/** toApiFilter is the filter as sent: values only where the operator takes them. */
export function toApiFilter(f: Filter): Filter {
  const group = f.group ? { group: f.group } : {};
  switch (arity(f.operator)) {
    case "none":
      return { column: f.column, operator: f.operator, value: "", value2: "", ...group };
    case "two":
      return { column: f.column, operator: f.operator, value: f.value, value2: f.value2, ...group };
    default:
      return { column: f.column, operator: f.operator, value: f.value, value2: "", ...group };
  }
}

/**
 * joinedWithPrevious says whether filters[i] is ORed with the filter before it: the grid keeps
 * an OR group as a run of chips, so "(a or b) and c" reads left to right as it runs.
 */
export function joinedWithPrevious(filters: Filter[], i: number): boolean {
  const g = filters[i]?.group ?? 0;
  return i > 0 && g !== 0 && g === (filters[i - 1].group ?? 0);
}

/**
 * toggleJoin flips the word between filters[i - 1] and filters[i] ("and" <-> "or") and numbers
 * the groups again from the runs of "or": each run of chips joined by "or" is one group
 * (1, 2, …), every other chip stands alone (group 0).
 */
export function toggleJoin(filters: Filter[], i: number): Filter[] {
  const or = filters.map((_, k) => (k === i ? !joinedWithPrevious(filters, k) : joinedWithPrevious(filters, k)));
  const out: Filter[] = [];
  let group = 0;
  for (let k = 0; k < filters.length; k++) {
    if (or[k]) out.push({ ...filters[k], group });
    else if (or[k + 1]) out.push({ ...filters[k], group: ++group });
    else out.push({ ...filters[k], group: 0 });
  }
  return out;
}

/** describeFilters is the whole condition in words: `(a or b) and c`. */
export function describeFilters(filters: Filter[]): string {
  const terms: string[][] = [];
  filters.forEach((f, i) => {
    if (joinedWithPrevious(filters, i)) terms[terms.length - 1].push(describeFilter(f));
    else terms.push([describeFilter(f)]);
  });
  return terms.map((t) => (t.length > 1 && terms.length > 1 ? `(${t.join(" or ")})` : t.join(" or "))).join(" and ");
}

/** describeFilter is the filter on one line, as its chip shows it: `wordCount between 1 and 9`. */
export function describeFilter(f: Filter): string {
  const label = OPERATOR_LABELS[f.operator as Operator] ?? f.operator;
  switch (arity(f.operator)) {
    case "none":
      return `${f.column} ${label}`;
    case "two":
      return `${f.column} between ${f.value} and ${f.value2}`;
    case "list": {
      // A long list (a map's selection: hundreds of keys) names its first values and counts the rest.
      const items = f.value.split(",").map((v) => v.trim()).filter((v) => v !== "");
      if (items.length <= 5) return `${f.column} ${label} (${f.value})`;
      return `${f.column} ${label} (${items.slice(0, 3).join(", ")} and ${(items.length - 3).toLocaleString("en-US")} more)`;
    }
    default:
      return `${f.column} ${label} ${f.value}`;
  }
}

/**
 * shortVector shortens a long JSON vector for its cell: the first numbers and how many there
 * are, `[0.1, 0.2, 0.3, 0.4, …] (1,536 values)`. Short text and non-arrays (named vectors
 * are objects) are cut at 60 characters; the cell's expand and copy give the full value.
 */
export function shortVector(text: string, keep = 4): string {
  if (text.length <= 60) return text;
  const t = text.trim();
  if (!t.startsWith("[") || t.startsWith("[[") || t.startsWith("[{")) return `${t.slice(0, 57)}…`;
  // Called for every vector cell on screen while scrolling: take the first numbers and count
  // the rest without splitting (a 1,536-number vector is ~11 kB of text).
  const body = t.endsWith("]") ? t.slice(1, -1) : t.slice(1);
  const head: string[] = [];
  let from = 0;
  for (let i = body.indexOf(","); i >= 0 && head.length < keep; i = body.indexOf(",", i + 1)) {
    head.push(body.slice(from, i).trim());
    from = i + 1;
  }
  if (head.length < keep) head.push(body.slice(from).trim());
  return `[${head.join(", ")}, …] (${vectorSize(t).toLocaleString("en-US")} values)`;
}

/** vectorSize is how many numbers a flat vector's JSON text holds, counted without parsing. */
export function vectorSize(text: string): number {
  const t = text.trim();
  if (/^\[\s*\]$/.test(t)) return 0;
  let n = 1;
  for (let i = t.indexOf(","); i >= 0; i = t.indexOf(",", i + 1)) n++;
  return n;
}

/**
 * namedVector is one member of a named-vectors cell (`{"title_vec":[...],"body_vec":[...]}`)
 * as its JSON text, found without parsing the others (a cell can hold several 1,536-number
 * vectors and the grid reads only the visible rows' cells). null when the row has none.
 */
export function namedVector(text: string, name: string): string | null {
  const key = `${JSON.stringify(name)}:`;
  const at = text.indexOf(key);
  if (at < 0) return null;
  let i = at + key.length;
  while (text[i] === " ") i++;
  if (text[i] !== "[") return null;
  const close = text[i + 1] === "[" ? "]]" : "]"; // a multi-vector is a list of lists
  const end = text.indexOf(close, i);
  return end < 0 ? null : text.slice(i, end + close.length);
}
