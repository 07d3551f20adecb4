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
} from "./pendingModel";

const A = "00000000-0000-4000-8000-00000000000a";
const B = "00000000-0000-4000-8000-00000000000b";

describe("pending changes (issue 14: inline edits collected as pending changes)", () => {
  it("an edited cell is pending and shows its new text; the rest of the row is not sent", () => {
    const p = editCell(emptyPending, A, "title", "New", "Old");
    expect(cellOf(p, A, "title", "Old")).toEqual({ value: "New", edited: true });
    expect(cellOf(p, A, "year", "1999")).toEqual({ value: "1999", edited: false });
    expect(toCommit(p)).toEqual({ updates: [{ key: A, uuid: A, values: { title: "New" } }], inserts: [], deletes: [] });
    expect(changedRows(p)).toBe(1);
  });

  it("typing the original text back drops the edit", () => {
    let p = editCell(emptyPending, A, "title", "New", "Old");
    p = editCell(p, A, "title", "Newer", "New");
    p = editCell(p, A, "title", "Old", "Newer");
    expect(p.edits).toEqual({});
    expect(changedRows(p)).toBe(0);
  });

  it("NULL is a value of its own, apart from empty text", () => {
    let p = editCell(emptyPending, A, "title", null, "Old");
    p = editCell(p, B, "title", "", "Old");
    expect(toCommit(p).updates.map((u) => u.values)).toEqual([{ title: null }, { title: "" }]);
  });

  it("undo steps back one change at a time", () => {
    let p = editCell(emptyPending, A, "title", "1", "0");
    p = editCell(p, A, "year", "2", "0");
    [p] = addRow(p);
    p = deleteRows(p, [{ key: B, uuid: B }]);
    expect(changedRows(p)).toBe(3);
    p = undo(p);
    expect(p.deletes).toEqual({});
    p = undo(p);
    expect(p.inserts).toEqual([]);
    p = undo(p);
    expect(p.edits[A].cells).toEqual({ title: "1" });
    p = undo(undo(p));
    expect(p.edits).toEqual({});
  });

  it("an added row is POSTed with a uuid only when one was typed", () => {
    let [p, k1] = addRow(emptyPending);
    let k2: string;
    [p, k2] = addRow(p);
    p = editCell(p, k1, "uuid", ` ${A} `, null);
    p = editCell(p, k1, "title", "typed id", null);
    p = editCell(p, k2, "title", "no id", null);
    expect(toCommit(p).inserts).toEqual([
      { key: k1, uuid: A, values: { title: "typed id" } },
      { key: k2, uuid: "", values: { title: "no id" } },
    ]);
  });

  it("deleting an added row drops it; deleting an edited row sends only the DELETE", () => {
    let [p, k] = addRow(emptyPending);
    p = editCell(p, A, "title", "x", "y");
    p = deleteRows(p, [
      { key: k, uuid: "" },
      { key: A, uuid: A },
    ]);
    expect(toCommit(p)).toEqual({ updates: [], inserts: [], deletes: [{ key: A, uuid: A, values: {} }] });
    expect(changedRows(p)).toBe(1);
  });

  it("a commit where one row fails keeps that row pending with its reason and drops the applied ones", () => {
    let p = editCell(emptyPending, A, "title", "ok", "a");
    p = editCell(p, B, "year", "many", "1");
    let k: string;
    [p, k] = addRow(p);
    p = editCell(p, k, "title", "new", null);
    p = applyOutcomes(p, [
      { key: A, action: "update", uuid: A, status: "ok", code: "", message: "" },
      { key: B, action: "update", uuid: B, status: "failed", code: "invalid_argument", message: 'year (int): "many" is not an integer' },
      { key: k, action: "insert", uuid: "x", status: "ok", code: "", message: "" },
    ]);
    expect(Object.keys(p.edits)).toEqual([B]);
    expect(cellOf(p, B, "year", "1").value).toBe("many");
    expect(p.rowErrors).toEqual({ [B]: 'year (int): "many" is not an integer' });
    expect(p.inserts).toEqual([]);
    expect(p.undo).toEqual([]);
  });

  it("a value the schema refuses is known before anything is sent, and commit waits for it", () => {
    let p = editCell(emptyPending, A, "year", "12.5", "1");
    p = setCellErrors(p, A, { year: 'year (int): "12.5" is not an integer' }, ["year"]);
    expect(badCells(p)).toBe(1);
    p = editCell(p, A, "year", "12", "12.5");
    expect(badCells(p)).toBe(0);
    p = setCellErrors(p, A, {}, ["year"]);
    expect(p.cellErrors).toEqual({});
  });

  it("editing a row again clears the reason its last commit failed", () => {
    let p = editCell(emptyPending, B, "year", "many", "1");
    p = applyOutcomes(p, [{ key: B, action: "update", uuid: B, status: "failed", code: "invalid_argument", message: "bad" }]);
    p = editCell(p, B, "year", "2", "many");
    expect(p.rowErrors).toEqual({});
  });

  it("an undo keeps what a late check found about text it brings back", () => {
    let p = editCell(emptyPending, A, "year", "many", "1");
    p = editCell(p, B, "title", "other", "t"); // remembered before the check of "many" answered
    p = setCellErrors(p, A, { year: "not an integer" }, ["year"]);
    p = undo(p);
    expect(p.cellErrors).toEqual({ [A]: { year: "not an integer" } });
    expect(badCells(p)).toBe(1);
  });

  it("an applied row leaves only the cells that were sent; text typed since stays pending", () => {
    let p = editCell(emptyPending, A, "title", "sent", "t");
    const req = toCommit(p);
    p = editCell(p, A, "year", "typed later", "1");
    p = applyOutcomes(p, [{ key: A, action: "update", uuid: A, status: "ok", code: "", message: "" }], req);
    expect(p.edits[A].cells).toEqual({ year: "typed later" });
  });
});
