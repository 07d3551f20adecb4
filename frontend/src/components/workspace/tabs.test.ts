import { describe, expect, it } from "vitest";
import { connection } from "../../test/fakeApi";
import { filtersKey, noTabs, sameFilters, tabsReducer, type MapHighlight, type Tab, type TabsAction, type TabsState } from "./tabs";

const c1 = connection({ id: "c1", name: "One" });
const c2 = connection({ id: "c2", name: "Two" });
const conn1: Tab = { key: "conn:c1", kind: "connection", connection: c1 };
const paper: Tab = { key: "table:c1:Paper", kind: "table", connection: c1, table: "Paper" };
const editor2: Tab = { key: "editor:c2", kind: "editor", connection: c2 };
const settings: Tab = { key: "settings", kind: "settings" };
const byTopic = [{ column: "topic", operator: "equals", value: "astronomy", value2: "" }];
const map = (filters = byTopic, highlight?: MapHighlight): Extract<Tab, { kind: "map" }> => ({
  key: "map:c1:Paper", kind: "map", connection: c1, table: "Paper", filters, highlight,
});

const state = (tabs: Tab[], active: string | null): TabsState => ({ tabs, active });
const keys = (s: TabsState) => [s.tabs.map((t) => t.key), s.active];
const run = (s: TabsState, ...actions: TabsAction[]) => actions.reduce(tabsReducer, s);

describe("the tabs (tabsReducer)", () => {
  const cases: { rule: string; from: TabsState; actions: TabsAction[]; want: [string[], string | null] }[] = [
    { rule: "open adds a tab at the end and makes it active", from: noTabs, actions: [{ type: "open", tab: conn1 }, { type: "open", tab: paper }],
      want: [["conn:c1", "table:c1:Paper"], "table:c1:Paper"] },
    { rule: "open of a tab already open adds nothing and makes it active", from: state([conn1, paper], "table:c1:Paper"), actions: [{ type: "open", tab: conn1 }],
      want: [["conn:c1", "table:c1:Paper"], "conn:c1"] },
    { rule: "activate makes an open tab active", from: state([conn1, paper], "conn:c1"), actions: [{ type: "activate", key: "table:c1:Paper" }],
      want: [["conn:c1", "table:c1:Paper"], "table:c1:Paper"] },
    { rule: "activate of a key not open changes nothing", from: state([conn1], "conn:c1"), actions: [{ type: "activate", key: "nope" }],
      want: [["conn:c1"], "conn:c1"] },
    { rule: "closing the active tab makes the one that took its place active", from: state([conn1, paper, settings], "table:c1:Paper"), actions: [{ type: "close", key: "table:c1:Paper" }],
      want: [["conn:c1", "settings"], "settings"] },
    { rule: "closing the active last tab makes the one before it active", from: state([conn1, paper], "table:c1:Paper"), actions: [{ type: "close", key: "table:c1:Paper" }],
      want: [["conn:c1"], "conn:c1"] },
    { rule: "closing another tab keeps the active one", from: state([conn1, paper, settings], "settings"), actions: [{ type: "close", key: "conn:c1" }],
      want: [["table:c1:Paper", "settings"], "settings"] },
    { rule: "closing the only tab leaves none active", from: state([conn1], "conn:c1"), actions: [{ type: "close", key: "conn:c1" }], want: [[], null] },
    { rule: "closing a tab not open changes nothing", from: state([conn1], "conn:c1"), actions: [{ type: "close", key: "nope" }], want: [["conn:c1"], "conn:c1"] },
    { rule: "closeConnection closes every tab of the connection; the active one, if closed, becomes the last", from: state([conn1, editor2, paper, settings], "table:c1:Paper"),
      actions: [{ type: "closeConnection", id: "c1" }], want: [["editor:c2", "settings"], "settings"] },
    { rule: "closeConnection keeps the active tab of another connection", from: state([conn1, editor2], "editor:c2"), actions: [{ type: "closeConnection", id: "c1" }],
      want: [["editor:c2"], "editor:c2"] },
    { rule: "restore adds remembered tabs after the open ones, each key once, and makes the remembered active one active", from: noTabs,
      actions: [{ type: "restore", tabs: [conn1, paper, conn1], active: "conn:c1" }], want: [["conn:c1", "table:c1:Paper"], "conn:c1"] },
    { rule: "restore keeps the tab the user opened meanwhile active, and does not add it twice", from: state([paper], "table:c1:Paper"),
      actions: [{ type: "restore", tabs: [conn1, paper], active: "conn:c1" }], want: [["table:c1:Paper", "conn:c1"], "table:c1:Paper"] },
    { rule: "restore with a remembered active tab that is gone makes the last tab active", from: noTabs,
      actions: [{ type: "restore", tabs: [conn1, paper], active: "editor:c9" }], want: [["conn:c1", "table:c1:Paper"], "table:c1:Paper"] },
  ];
  for (const c of cases) {
    it(c.rule, () => expect(keys(run(c.from, ...c.actions))).toEqual(c.want));
  }

  it("an action that changes nothing returns the same state (no re-render)", () => {
    const s = state([conn1, paper], "conn:c1");
    for (const a of [{ type: "activate", key: "conn:c1" }, { type: "activate", key: "nope" }, { type: "close", key: "nope" }, { type: "closeConnection", id: "c9" }] as TabsAction[]) {
      expect(tabsReducer(s, a)).toBe(s);
    }
  });

  it("a map opened again from a grid follows that grid's filters and drops its highlight", () => {
    const s = run(noTabs, { type: "openMap", tab: map(byTopic, { keys: [{ uuid: "u1" }], label: "bm25" }) }, { type: "open", tab: paper }, { type: "openMap", tab: map([]) });
    const m = s.tabs.find((t) => t.kind === "map");
    expect(s.tabs).toHaveLength(2);
    expect(s.active).toBe("map:c1:Paper");
    expect(m).toMatchObject({ filters: [], highlight: undefined });
  });

  it("a highlight shown on an open map keeps the map's own filters", () => {
    const s = run(noTabs, { type: "openMap", tab: map(byTopic) }, { type: "openMap", tab: map([], { keys: [{ uuid: "u1" }, { uuid: "u2" }], label: 'bm25 "rust"' }) });
    expect(s.tabs).toHaveLength(1);
    expect(s.tabs[0]).toMatchObject({ filters: byTopic, highlight: { keys: [{ uuid: "u1" }, { uuid: "u2" }], label: 'bm25 "rust"' } });
  });

  it("a search's rows shown on an open map bring the search's filters and vector: the map follows them", () => {
    const wide = [{ column: "year", operator: "greater_than", value: "2000", value2: "" }];
    const h: MapHighlight = { keys: [{ uuid: "u1" }], label: 'nearText "stars"', filters: wide, vector: "title_vec" };
    const s = run(noTabs, { type: "openMap", tab: map(byTopic) }, { type: "openMap", tab: map(wide, h) });
    expect(s.tabs).toHaveLength(1);
    expect(s.tabs[0]).toMatchObject({ filters: wide, highlight: h });
    // the same filters again (a new array): the tab keeps its own, so the map reads nothing again
    const again = tabsReducer(s, { type: "openMap", tab: map([...wide], { ...h, filters: [...wide] }) });
    expect((again.tabs[0] as Extract<Tab, { kind: "map" }>).filters).toBe((s.tabs[0] as Extract<Tab, { kind: "map" }>).filters);
  });

  it("a map opened again with the same filters is the same tab object (nothing for it to redo)", () => {
    const first = run(noTabs, { type: "openMap", tab: map(byTopic) });
    const again = tabsReducer(first, { type: "openMap", tab: map([...byTopic]) });
    expect(again.tabs[0]).toBe(first.tabs[0]);
  });

  it("the same filters by value (sameFilters, the one test the map shares): another key order, group 0 or none, a new array", () => {
    const reordered = [{ value2: "", value: "astronomy", operator: "equals", column: "topic", group: 0 }];
    expect(sameFilters(byTopic, reordered)).toBe(true);
    expect(filtersKey(byTopic)).toBe(filtersKey(reordered));
    expect(sameFilters(byTopic, [{ ...byTopic[0], group: 1 }])).toBe(false);
    expect(sameFilters(byTopic, [{ ...byTopic[0], value: "biology" }])).toBe(false);
    expect(sameFilters(byTopic, [...byTopic, ...byTopic])).toBe(false);
    expect(sameFilters([], [])).toBe(true);
    const first = run(noTabs, { type: "openMap", tab: map(byTopic, { keys: [{ uuid: "u1" }], label: "bm25" }) });
    const again = tabsReducer(first, { type: "openMap", tab: map(reordered) });
    expect(again.tabs[0]).toBe(first.tabs[0]); // the highlight stays, nothing is read again
  });
});
