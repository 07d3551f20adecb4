import { describe, expect, it } from "vitest";
import { read, readList } from "./read";

describe("read gives an answer its generated type, as Go's JSON may carry it", () => {
  it("a nil list or map (null) is empty, a left-out omitempty field its zero value", () => {
    const t = read("dto.TestResult", { serverVersion: "1.35.2", paths: null });
    expect(t).toEqual({ serverVersion: "1.35.2", paths: [], changed: {} });
  });

  it("a pointer Go sends as null stays null; one it leaves out (omitempty) stays out", () => {
    const c = read("dto.TableCount", { name: "Shop", count: null, estimated: false, message: "multi-tenant" });
    expect(c.count).toBeNull();
    expect("tenants" in c).toBe(false);
    expect(read("dto.TableCount", { name: "Shop", count: null, tenants: 3 }).tenants).toBe(3);
  });

  it("reads nested structs, lists of them and their cells, null cells kept", () => {
    const g = read("dto.Grid", { columns: [{ name: "uuid", filterable: null }], rows: [["a", null]], offset: 0, hasMore: false, notice: "", refused: null });
    expect(g.columns[0]).toMatchObject({ name: "uuid", type: "", filterable: [], filterNotes: {}, blocked: {}, kind: "" });
    expect(g.rows).toEqual([["a", null]]);
    expect(g.refused).toBeNull();
  });

  it("fills what a plugin's description leaves out, in each field and condition", () => {
    const d = read("driver.Description", { types: [{ name: "x", label: "X" }], settings: [{ key: "host", label: "Host", kind: "text", showWhen: { key: "mode" } }] });
    expect(d.types[0].summary).toBe("");
    expect(d.settings[0]).toMatchObject({ default: "", options: [], optionHelp: {}, required: false, min: 0, showWhen: { key: "mode", in: [] } });
    expect(d.suggestions).toEqual([]);
    expect("url" in d).toBe(false);
  });

  it("drops what the type does not name, and reads a missing answer or list as empty", () => {
    expect(read("dto.PathStatus", { name: "REST", ok: true, detail: "", extra: 1 })).toEqual({ name: "REST", ok: true, detail: "" });
    expect(readList("dto.Connection", null)).toEqual([]);
    expect(read("dto.ConnectionRestored", undefined)).toEqual({ id: "" });
  });
});
