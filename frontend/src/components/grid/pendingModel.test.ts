import { describe, expect, it } from "vitest";
import {
  addRow,
  applyOutcomes,
  badCells,
  cellOf,
  changedRows,
  deleteRows,
  editCell,
  emptyPending,
  setCellErrors,
  toCommit,
  undo,
  type RowRef,
} from "./pendingModel";
import { keyId } from "../../api/rowKey";

const A = "00000000-0000-4000-8000-00000000000a";
const B = "00000000-0000-4000-8000-00000000000b";
// A Weaviate table: its rows are keyed by their uuid alone.
const PK = ["uuid"];
/** stored is a read row as the grid names it: its ref (the key's id) and its key. */
const stored = (uuid: string): RowRef => ({ ref: keyId({ uuid }, PK), key: { uuid } });
const a = stored(A);
const b = stored(B);
/** added is a row added in the grid: named by its ref alone until stored. */
const added = (ref: string): RowRef => ({ ref, key: null });

describe("pending changes (issue 14: inline edits collected as pending changes)", () => {
  it("an edited cell is pending and shows its new text; the rest of the row is not sent", () => {
    const p = editCell(emptyPending, a, "title", "New", "Old");
    expect(cellOf(p, a.ref, "title", "Old")).toEqual({ value: "New", edited: true });
    expect(cellOf(p, a.ref, "year", "1999")).toEqual({ value: "1999", edited: false });
    expect(toCommit(p, PK)).toEqual({ updates: [{ ref: a.ref, key: { uuid: A }, values: { title: "New" }, original: { title: "Old" } }], inserts: [], deletes: [] });
    expect(changedRows(p)).toBe(1);
  });

  it("issue 38: an update carries each edited cell as first read, so a row changed since is not overwritten", () => {
    let p = editCell(emptyPending, a, "title", "One", "Old");
    p = editCell(p, a, "title", "Two", "One");
    p = editCell(p, a, "year", null, "1999");
    expect(toCommit(p, PK).updates[0].original).toEqual({ title: "Old", year: "1999" });
  });

  it("typing the original text back drops the edit", () => {
    let p = editCell(emptyPending, a, "title", "New", "Old");
    p = editCell(p, a, "title", "Newer", "New");
    p = editCell(p, a, "title", "Old", "Newer");
    expect(p.edits).toEqual({});
    expect(changedRows(p)).toBe(0);
  });

  it("NULL is a value of its own, apart from empty text", () => {
    let p = editCell(emptyPending, a, "title", null, "Old");
    p = editCell(p, b, "title", "", "Old");
    expect(toCommit(p, PK).updates.map((u) => u.values)).toEqual([{ title: null }, { title: "" }]);
  });

  it("undo steps back one change at a time", () => {
    let p = editCell(emptyPending, a, "title", "1", "0");
    p = editCell(p, a, "year", "2", "0");
    [p] = addRow(p);
    p = deleteRows(p, [b]);
    expect(changedRows(p)).toBe(3);
    p = undo(p);
    expect(p.deletes).toEqual({});
    p = undo(p);
    expect(p.inserts).toEqual([]);
    p = undo(p);
    expect(p.edits[a.ref].cells).toEqual({ title: "1" });
    p = undo(undo(p));
    expect(p.edits).toEqual({});
  });

  it("an added row is POSTed with no key, its uuid among its values only when one was typed", () => {
    let [p, k1] = addRow(emptyPending);
    let k2: string;
    [p, k2] = addRow(p);
    let k3: string;
    [p, k3] = addRow(p);
    p = editCell(p, added(k1), "uuid", ` ${A} `, null);
    p = editCell(p, added(k1), "title", "typed id", null);
    p = editCell(p, added(k2), "title", "no id", null);
    p = editCell(p, added(k3), "uuid", " ", null);
    expect(toCommit(p, PK).inserts).toEqual([
      { ref: k1, key: {}, values: { uuid: A, title: "typed id" } },
      { ref: k2, key: {}, values: { title: "no id" } },
      { ref: k3, key: {}, values: {} },
    ]);
  });

  it("deleting an added row drops it; deleting an edited row sends only the DELETE", () => {
    let [p, k] = addRow(emptyPending);
    p = editCell(p, a, "title", "x", "y");
    p = deleteRows(p, [added(k), a]);
    expect(toCommit(p, PK)).toEqual({ updates: [], inserts: [], deletes: [{ ref: a.ref, key: { uuid: A }, values: {} }] });
    expect(changedRows(p)).toBe(1);
  });

  it("a commit where one row fails keeps that row pending with its reason and drops the applied ones", () => {
    let p = editCell(emptyPending, a, "title", "ok", "a");
    p = editCell(p, b, "year", "many", "1");
    let k: string;
    [p, k] = addRow(p);
    p = editCell(p, added(k), "title", "new", null);
    p = applyOutcomes(
      p,
      [
        { ref: a.ref, action: "update", key: { uuid: A }, status: "ok", code: "", message: "" },
        { ref: b.ref, action: "update", key: { uuid: B }, status: "failed", code: "invalid_argument", message: 'year (int): "many" is not an integer' },
        { ref: k, action: "insert", key: { uuid: "x" }, status: "ok", code: "", message: "" },
      ],
      undefined,
      PK,
    );
    expect(Object.keys(p.edits)).toEqual([b.ref]);
    expect(cellOf(p, b.ref, "year", "1").value).toBe("many");
    expect(p.rowErrors).toEqual({ [b.ref]: 'year (int): "many" is not an integer' });
    expect(p.inserts).toEqual([]);
    expect(p.undo).toEqual([]);
  });

  it("a value the schema refuses is known before anything is sent, and commit waits for it", () => {
    let p = editCell(emptyPending, a, "year", "12.5", "1");
    p = setCellErrors(p, a.ref, { year: 'year (int): "12.5" is not an integer' }, ["year"]);
    expect(badCells(p)).toBe(1);
    p = editCell(p, a, "year", "12", "12.5");
    expect(badCells(p)).toBe(0);
    p = setCellErrors(p, a.ref, {}, ["year"]);
    expect(p.cellErrors).toEqual({});
  });

  it("editing a row again clears the reason its last commit failed", () => {
    let p = editCell(emptyPending, b, "year", "many", "1");
    p = applyOutcomes(p, [{ ref: b.ref, action: "update", key: { uuid: B }, status: "failed", code: "invalid_argument", message: "bad" }], undefined, PK);
    p = editCell(p, b, "year", "2", "many");
    expect(p.rowErrors).toEqual({});
  });

  it("an undo keeps what a late check found about text it brings back", () => {
    let p = editCell(emptyPending, a, "year", "many", "1");
    p = editCell(p, b, "title", "other", "t"); // remembered before the check of "many" answered
    p = setCellErrors(p, a.ref, { year: "not an integer" }, ["year"]);
    p = undo(p);
    expect(p.cellErrors).toEqual({ [a.ref]: { year: "not an integer" } });
    expect(badCells(p)).toBe(1);
  });

  it("an applied row leaves only the cells that were sent; text typed since stays pending", () => {
    let p = editCell(emptyPending, a, "title", "sent", "t");
    const req = toCommit(p, PK);
    p = editCell(p, a, "year", "typed later", "1");
    p = applyOutcomes(p, [{ ref: a.ref, action: "update", key: { uuid: A }, status: "ok", code: "", message: "" }], req, PK);
    expect(p.edits[a.ref].cells).toEqual({ year: "typed later" });
  });
});

describe("pending changes on a table keyed by two columns (issue 37, item 3: rows keyed by their primary key)", () => {
  // A tenant's text and a numeric id, read as the grid reads every cell: as text.
  const PK2 = ["tenant", "id"];
  const row = (tenant: string, id: string): RowRef => ({ ref: keyId({ tenant, id }, PK2), key: { tenant, id } });
  const north7 = row("north", "7");
  const south7 = row("south", "7");

  it("an update and a delete name their row by its key, column by column; rows sharing an id are apart by tenant", () => {
    let p = editCell(emptyPending, north7, "title", "New", "Old");
    p = deleteRows(p, [south7]);
    expect(north7.ref).not.toBe(south7.ref);
    expect(toCommit(p, PK2)).toEqual({
      updates: [{ ref: north7.ref, key: { tenant: "north", id: "7" }, values: { title: "New" }, original: { title: "Old" } }],
      inserts: [],
      deletes: [{ ref: south7.ref, key: { tenant: "south", id: "7" }, values: {} }],
    });
  });

  it("a new row's typed key cells go among its values as text, trimmed; it is sent with no key", () => {
    let [p, k] = addRow(emptyPending);
    p = editCell(p, added(k), "tenant", "north", null);
    p = editCell(p, added(k), "id", " 42 ", null);
    p = editCell(p, added(k), "title", "t", null);
    expect(toCommit(p, PK2).inserts).toEqual([{ ref: k, key: {}, values: { tenant: "north", id: "42", title: "t" } }]);
  });

  it("an insert's outcome key makes it the stored row: text typed in it since the commit stays pending as that row's edit", () => {
    let [p, k] = addRow(emptyPending);
    p = editCell(p, added(k), "tenant", "north", null);
    p = editCell(p, added(k), "id", "42", null);
    p = editCell(p, added(k), "title", "sent", null);
    const req = toCommit(p, PK2);
    p = editCell(p, added(k), "title", "typed later", null);
    p = editCell(p, added(k), "id", "43", null); // a stored row's key is read-only: not carried over
    p = setCellErrors(p, k, { title: "too long" }, ["title"]);
    p = applyOutcomes(p, [{ ref: k, action: "insert", key: { tenant: "north", id: 42 }, status: "ok", code: "", message: "" }], req, PK2);
    expect(p.inserts).toEqual([]);
    // the database's number 42 and the grid's text "42" name one row
    const ref = keyId({ tenant: "north", id: "42" }, PK2);
    expect(p.edits).toEqual({ [ref]: { key: { tenant: "north", id: 42 }, cells: { title: "typed later" }, original: { title: "sent" } } });
    expect(p.cellErrors).toEqual({ [ref]: { title: "too long" } });
    expect(toCommit(p, PK2).updates).toEqual([{ ref, key: { tenant: "north", id: 42 }, values: { title: "typed later" }, original: { title: "sent" } }]);
  });

  it("a stored row that cannot be named (no key) is neither edited nor marked for deletion", () => {
    const unnamed: RowRef = { ref: "row:3", key: null };
    expect(editCell(emptyPending, unnamed, "title", "x", "y")).toBe(emptyPending);
    expect(deleteRows(emptyPending, [unnamed])).toBe(emptyPending);
  });
});
