import { describe, expect, it } from "vitest";
import { connection } from "../../test/fakeApi";
import type { Opened } from "../opened/useOpened";
import type { Tab } from "./useWorkspace";
import { windowTitle } from "./Workspace";

const c = connection({ id: "c1", name: "Demo" });
const table: Tab = { key: "table:c1:Paper", kind: "table", connection: c, table: "Paper" };
const conn: Tab = { key: "conn:c1", kind: "connection", connection: c };
const opened = (status: string) => ({ conns: { c1: { status } } }) as unknown as Opened;

describe("the window title names what is on screen once it has loaded", () => {
  it("a table once its rows are read, with ● while it has pending changes", () => {
    expect(windowTitle(table, {}, {}, opened("ready"))).toBe("App");
    expect(windowTitle(table, { [table.key]: true }, {}, opened("ready"))).toBe("Paper — App");
    expect(windowTitle(table, { [table.key]: true }, { [table.key]: 2 }, opened("ready"))).toBe("● Paper — App");
  });
  it("a connection once it is open; anything else is App", () => {
    expect(windowTitle(conn, {}, {}, opened("connecting"))).toBe("App");
    expect(windowTitle(conn, {}, {}, opened("ready"))).toBe("Demo — App");
    expect(windowTitle(null, {}, {}, opened("ready"))).toBe("App");
  });
});
