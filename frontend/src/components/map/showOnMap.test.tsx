import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { ApiProvider } from "../../api";
import { connection, fakeApi, tableInfo, weaviateSearches } from "../../test/fakeApi";
import { SearchPanel } from "../search/SearchPanel";

// Issue 22: the search panel's Show on the map opens the map of the same rows (the search's
// filters) drawn on the vector the search used, with its matches selected.
/** namedVectorsApi answers a table with two named vectors a vectorizer fills (nearText runs on either). */
function namedVectorsApi() {
  return fakeApi(async () => [], {
    describeTable: async (_id: string, table: string) => {
      const info = tableInfo(table);
      return {
        ...info,
        settings: { ...info.settings, vectorizer: "text2vec-transformers", namedVectors: ["title_vec", "body_vec"], vectorizedVectors: ["title_vec", "body_vec"] },
        searches: weaviateSearches.vectorized,
      };
    },
  });
}

describe("a search's Show on the map", () => {
  const byWords = [{ column: "wordCount", operator: "greater_than", value: "1000", value2: "" }];
  const uuids = ["00000000-0000-4000-8000-000000000001", "00000000-0000-4000-8000-000000000002"];
  // the matches' keys: Article is keyed by uuid
  const keys = uuids.map((uuid) => ({ uuid }));

  it("bm25 (no vector used): the search's filters, the map's own vector left as it is", async () => {
    const onShowOnMap = vi.fn();
    render(
      <ApiProvider api={fakeApi(async () => [])}>
        <SearchPanel connection={connection({ id: "demo" })} table="Article" filters={byWords} onShowOnMap={onShowOnMap} />
      </ApiProvider>,
    );
    const form = await screen.findByRole("search");
    await userEvent.type(within(form).getByRole("searchbox", { name: "Words" }), "rust{Enter}");
    await userEvent.click(await screen.findByRole("button", { name: "Show on the map" }));
    expect(onShowOnMap).toHaveBeenCalledWith({ keys, label: 'bm25 "rust"', filters: byWords, vector: undefined });
  });

  it("Map of the matches: a map of those rows alone, the table's map filtered to their uuids", async () => {
    const onShowOnMap = vi.fn();
    render(
      <ApiProvider api={fakeApi(async () => [])}>
        <SearchPanel connection={connection({ id: "demo" })} table="Article" filters={byWords} onShowOnMap={onShowOnMap} />
      </ApiProvider>,
    );
    const form = await screen.findByRole("search");
    await userEvent.type(within(form).getByRole("searchbox", { name: "Words" }), "rust{Enter}");
    await userEvent.click(await screen.findByRole("button", { name: "Map of the matches" }));
    expect(onShowOnMap).toHaveBeenCalledWith({
      keys,
      label: 'bm25 "rust"',
      filters: [{ column: "uuid", operator: "in", value: uuids.join(", "), value2: "" }],
      vector: undefined,
    });
  });

  it("a search on a named vector: that vector, and the filters as changed in the panel", async () => {
    const api = namedVectorsApi();
    const onShowOnMap = vi.fn();
    render(
      <ApiProvider api={api}>
        <SearchPanel connection={connection({ id: "demo" })} table="Article" filters={byWords} onShowOnMap={onShowOnMap} />
      </ApiProvider>,
    );
    const form = await screen.findByRole("search");
    await userEvent.selectOptions(within(form).getByRole("combobox", { name: "Search by" }), "Near text");
    await userEvent.selectOptions(within(form).getByRole("combobox", { name: "Vector" }), "body_vec");
    await userEvent.click(screen.getByRole("button", { name: "Clear filters" }));
    await userEvent.type(within(form).getByRole("searchbox", { name: "Words" }), "stars{Enter}");
    await userEvent.click(await screen.findByRole("button", { name: "Show on the map" }));
    expect(onShowOnMap).toHaveBeenCalledWith({ keys, label: 'nearText "stars"', filters: [], vector: "body_vec" });
  });

  it("the search that found the matches, not the form as edited since: its filters, its vector", async () => {
    const api = namedVectorsApi();
    const onShowOnMap = vi.fn();
    render(
      <ApiProvider api={api}>
        <SearchPanel connection={connection({ id: "demo" })} table="Article" filters={byWords} onShowOnMap={onShowOnMap} />
      </ApiProvider>,
    );
    const form = await screen.findByRole("search");
    await userEvent.selectOptions(within(form).getByRole("combobox", { name: "Search by" }), "Near text");
    await userEvent.selectOptions(within(form).getByRole("combobox", { name: "Vector" }), "body_vec");
    await userEvent.type(within(form).getByRole("searchbox", { name: "Words" }), "stars{Enter}");
    const show = await screen.findByRole("button", { name: "Show on the map" });
    // edited after the search, not searched again
    await userEvent.selectOptions(within(form).getByRole("combobox", { name: "Vector" }), "title_vec");
    await userEvent.click(screen.getByRole("button", { name: "Clear filters" }));
    await userEvent.selectOptions(within(form).getByRole("combobox", { name: "Search by" }), "Keyword (bm25)");
    await userEvent.click(show);
    expect(onShowOnMap).toHaveBeenCalledWith({ keys, label: 'nearText "stars"', filters: byWords, vector: "body_vec" });
  });

  it("a table without a primary key: its matches cannot be found on the map, and the buttons say why", async () => {
    const api = fakeApi(async () => [], { describeTable: async (_id: string, table: string) => ({ ...tableInfo(table), primaryKey: [] }) });
    render(
      <ApiProvider api={api}>
        <SearchPanel connection={connection({ id: "demo" })} table="Article" filters={[]} onShowOnMap={vi.fn()} />
      </ApiProvider>,
    );
    const form = await screen.findByRole("search");
    await userEvent.type(within(form).getByRole("searchbox", { name: "Words" }), "rust{Enter}");
    for (const name of ["Show on the map", "Map of the matches"]) {
      const b = await screen.findByRole("button", { name });
      expect(b).toBeDisabled();
      expect(b).toHaveAttribute("title", "The table has no primary key: the map cannot find its rows one by one");
    }
  });
});
