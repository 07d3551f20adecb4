// The reader of the backend's answers: it gives a value the type generated from its Go type
// (./gen, `go generate ./app/dto`) and makes the value what that type says, from the shape
// generated beside it (gen/shapes.ts). This is the one conversion the wire needs: Go sends a
// nil list or map as null and leaves out an omitempty field, where the window reads a list,
// a map or a value; a pointer it sends as null stays null. Fields the type does not name are
// dropped.
import { shapes, type Shapes } from "./gen/shapes";

/** read makes value the Go type named by key ("dto.Connection"): every field there, lists and maps never null. */
export function read<K extends keyof Shapes>(key: K, value: unknown): Shapes[K] {
  return fill(key, value) as Shapes[K];
}

/** readList is read for a list of them (null: none). */
export function readList<K extends keyof Shapes>(key: K, value: unknown): Shapes[K][] {
  return fill("[]" + key, value) as Shapes[K][];
}

const zero: Record<string, unknown> = { string: "", number: 0, boolean: false };

/** flat tells a shape whose values are taken as they come (a scalar, a pointer to one, unknown). */
function flat(shape: string): boolean {
  return shape in zero || shape === "unknown" || (shape.startsWith("*") && flat(shape.slice(1)));
}

function fill(shape: string, v: unknown): unknown {
  if (shape in zero) return v ?? zero[shape];
  if (shape === "unknown") return v === undefined ? null : v;
  if (shape.startsWith("*")) return v == null ? null : fill(shape.slice(1), v);
  if (shape.startsWith("[]")) {
    const elem = shape.slice(2);
    if (!Array.isArray(v)) return [];
    return flat(elem) ? v : v.map((e) => fill(elem, e));
  }
  if (shape.startsWith("{}")) {
    const elem = shape.slice(2);
    if (v === null || typeof v !== "object") return {};
    if (flat(elem)) return v;
    return Object.fromEntries(Object.entries(v).map(([k, e]) => [k, fill(elem, e)]));
  }
  const fields = (shapes as Record<string, Readonly<Record<string, string>>>)[shape];
  if (!fields) throw new Error(`read: no shape ${shape}`);
  const src = (v !== null && typeof v === "object" ? v : {}) as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [name, s] of Object.entries(fields)) {
    if (s.startsWith("?")) {
      if (src[name] != null) out[name] = fill(s.slice(1), src[name]);
    } else {
      out[name] = fill(s, src[name]);
    }
  }
  return out;
}
