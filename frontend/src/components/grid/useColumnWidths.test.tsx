import { act, renderHook } from "@testing-library/react";
import type { ReactNode } from "react";
import { describe, expect, it, vi } from "vitest";
import { ApiProvider, type Layout } from "../../api";
import { emptyLayout, fakeApi } from "../../test/fakeApi";
import { useColumnWidths } from "./useColumnWidths";
import { layoutStore } from "../workspace/layoutStore";

function setup(saved: Layout) {
  const saveLayout = vi.fn(async (_l: Layout) => {});
  const api = fakeApi(async () => [], {}, { layout: { layout: async () => structuredClone(saved), saveLayout } });
  const wrapper = ({ children }: { children: ReactNode }) => <ApiProvider api={api}>{children}</ApiProvider>;
  return { api, saveLayout, wrapper };
}

describe("useColumnWidths (issue 14: the layout remembers column widths)", () => {
  it("gives the remembered widths of its table only", async () => {
    const { wrapper } = setup(emptyLayout({ columnWidths: { "a/Article": { title: 240 }, "a/Author": { name: 90 } } }));
    const { result } = renderHook(() => useColumnWidths("a", "Article"), { wrapper });
    await vi.waitFor(() => expect(result.current[0]).toEqual({ title: 240 }));
  });

  it("setWidth clamps to 40..2000 px, shows at once, and saves through the layout document without losing the rest", async () => {
    const { api, wrapper, saveLayout } = setup(emptyLayout({ lastTable: { a: "Article" }, columnWidths: { "a/Author": { name: 90 } } }));
    const { result } = renderHook(() => [useColumnWidths("a", "Article"), useColumnWidths("a", "Article")] as const, { wrapper });
    await act(() => layoutStore(api).load());
    act(() => result.current[0][1]("title", 12));
    act(() => result.current[0][1]("body", 5000.4));
    act(() => result.current[0][1]("uuid", 120.6));
    // Every grid of the same table sees the change.
    expect(result.current[1][0]).toEqual({ title: 40, body: 2000, uuid: 121 });
    await vi.waitFor(() => expect(saveLayout).toHaveBeenCalledTimes(1));
    expect(saveLayout).toHaveBeenCalledWith(
      emptyLayout({ lastTable: { a: "Article" }, columnWidths: { "a/Author": { name: 90 }, "a/Article": { title: 40, body: 2000, uuid: 121 } } }),
    );
  });

  it("a change made before the layout has loaded is applied on top of it, not instead of it", async () => {
    const { wrapper, saveLayout } = setup(emptyLayout({ columnWidths: { "a/Author": { name: 90 } } }));
    const { result } = renderHook(() => useColumnWidths("a", "Article"), { wrapper });
    act(() => result.current[1]("title", 300));
    await vi.waitFor(() => expect(saveLayout).toHaveBeenCalledTimes(1));
    expect(saveLayout.mock.calls[0][0].columnWidths).toEqual({ "a/Author": { name: 90 }, "a/Article": { title: 300 } });
    expect(result.current[0]).toEqual({ title: 300 });
  });
});
