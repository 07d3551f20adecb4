// A column's portable kind (Column.kind, the driver's ColumnKind) is what the window branches on;
// these read it in one place.
import type { Column } from "../../api";

/** isVector tells the vector column: kind vector, or the contract's vector types from a plugin that sends no kinds (the driver's Column.IsVector). */
export const isVector = (c: Pick<Column, "type" | "kind">) => c.kind === "vector" || c.type === "vector" || c.type === "vectors";

/** scalarKind is the kind of a column's values: its own, or an array's element kind. */
export const scalarKind = (c: Pick<Column, "kind" | "of">) => (c.kind === "array" ? c.of ?? "" : c.kind ?? "");

/** isNumeric tells a column of numbers (integer or number, not an array of them). */
export const isNumeric = (c: Pick<Column, "kind">) => c.kind === "integer" || c.kind === "number";
