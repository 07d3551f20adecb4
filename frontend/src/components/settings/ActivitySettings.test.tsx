import { fireEvent, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { ApiProvider, type ActivityEntry, type ActivityQuery } from "../../api";
import { fakeApi } from "../../test/fakeApi";
import { ActivitySettings, ROW_HEIGHT } from "./ActivitySettings";

const TOTAL = 1000;

function entry(i: number): ActivityEntry {
  return {
    id: TOTAL - i,
    time: "2026-11-23T10:00:00Z",
    clientName: "Cursor",
    clientVersion: "1.7",
    principal: "token:t1",
    tokenName: "cursor",
    level: "readOnly",
    method: "tools/call",
    name: "list_connections",
    connection: "",
    statement: `statement ${TOTAL - i}`,
    outcome: i % 7 === 0 ? "-33007" : "ok",
    durationMs: 3,
    prevHash: "p",
    hash: "h",
    trace: "",
  };
}

function renderLog(more: Parameters<typeof fakeApi>[2] = {}) {
  const list = vi.fn(async (q: ActivityQuery) => {
    const n = Math.max(0, Math.min(q.limit, TOTAL - q.offset));
    return { entries: Array.from({ length: n }, (_, k) => entry(q.offset + k)), total: TOTAL, offset: q.offset };
  });
  render(
    <ApiProvider api={fakeApi(async () => [], {}, { activity: { list, ...more.activity } })}>
      <ActivitySettings />
    </ApiProvider>,
  );
  return list;
}

describe("Settings, Activity log (issue 11)", () => {
  it("is virtualized: 1,000 entries, only the rows in view in the page; scrolling fetches the page it reaches", async () => {
    const list = renderLog();
    expect(await screen.findByText("1,000 entries")).toBeInTheDocument();
    const grid = screen.getByRole("grid", { name: "Activity entries" });
    expect(grid).toHaveAttribute("aria-rowcount", "1000");
    expect(screen.getAllByRole("row").length).toBeLessThan(30);
    expect(list).toHaveBeenCalledWith(expect.objectContaining({ offset: 0, limit: 200 }));
    grid.scrollTop = 500 * ROW_HEIGHT;
    fireEvent.scroll(grid);
    expect(await screen.findByRole("row", { name: `entry ${TOTAL - 500}` })).toHaveAttribute("aria-rowindex", "501");
    expect(list).toHaveBeenCalledWith(expect.objectContaining({ offset: 400, limit: 200 }));
    expect(screen.getAllByRole("row").length).toBeLessThan(30);
  });

  it("filters and search go to the backend; a row opens its detail", async () => {
    const list = renderLog();
    await screen.findByText("1,000 entries");
    await userEvent.type(screen.getByLabelText("Search"), "list_conn");
    await userEvent.type(screen.getByLabelText("Outcome"), "error");
    await userEvent.selectOptions(screen.getByLabelText("Time"), "24h");
    await userEvent.click(screen.getByRole("button", { name: "Apply filters" }));
    expect(list).toHaveBeenLastCalledWith(expect.objectContaining({ search: "list_conn", outcome: "error", since: "24h", offset: 0 }));
    await userEvent.click(await screen.findByRole("row", { name: `entry ${TOTAL}` }));
    expect(screen.getByLabelText(`Entry ${TOTAL}`)).toHaveTextContent(`statement ${TOTAL}`);
  });

  it("the chain check says intact, or names the first broken link; export says where it wrote", async () => {
    renderLog({
      activity: {
        verify: async () => ({ entries: 0, anchorId: 0, intact: false, brokenId: 42, reason: "its hash does not match its contents" }),
        exportCSV: async () => "/home/me/activity.csv",
      },
    });
    await screen.findByText("1,000 entries");
    await userEvent.click(screen.getByRole("button", { name: "Check the chain" }));
    expect(await screen.findByRole("status", { name: "Chain check" })).toHaveTextContent(
      "The chain is broken at entry 42: its hash does not match its contents",
    );
    await userEvent.click(screen.getByRole("button", { name: "Export CSV…" }));
    expect(await screen.findByRole("status", { name: "Export" })).toHaveTextContent("Exported to /home/me/activity.csv");
  });
});
