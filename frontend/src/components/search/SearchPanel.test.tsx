import { fireEvent, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { ApiProvider } from "../../api";
import { connection, fakeApi, tableInfo, weaviateSearches } from "../../test/fakeApi";
import { SearchPanel } from "./SearchPanel";

describe("a table's search panel (issue 23, item 3)", () => {
  it("runs a bm25 search in the chosen properties with the grid's filters and lists the matches score first", async () => {
    const api = fakeApi(async () => []);
    const search = vi.spyOn(api.explorer, "search");
    render(
      <ApiProvider api={api}>
        <SearchPanel connection={connection({ id: "demo" })} table="Article" filters={[{ column: "title", operator: "contains", value: "Rust", value2: "" }]} />
      </ApiProvider>,
    );
    const form = await screen.findByRole("search", { name: "Search Article" });
    expect(within(form).getByRole("button", { name: "Search" })).toBeDisabled();
    await userEvent.click(within(form).getByRole("checkbox", { name: "title" }));
    await userEvent.type(within(form).getByRole("searchbox", { name: "Words" }), "async rust{Enter}");
    expect(search).toHaveBeenCalledWith(
      "demo",
      "Article",
      expect.objectContaining({ by: "words", mode: "bm25", query: "async rust", searchColumns: ["title"], filters: [{ column: "title", operator: "contains", value: "Rust", value2: "" }], limit: 25 }),
    );
    const table = await screen.findByRole("table");
    const heads = within(table)
      .getAllByRole("columnheader")
      .map((h) => h.querySelector(".data-grid__name")?.textContent ?? "");
    expect(heads.slice(1, 3)).toEqual(["uuid", "score"]);
    expect(screen.getByText(/matches, best first by score · bm25 "async rust"/)).toBeInTheDocument();
  });

  it("draws the mode's note, parameters and choices from the driver's description, and sends them as the mode's params", async () => {
    const api = fakeApi(async () => []);
    const search = vi.spyOn(api.explorer, "search");
    render(
      <ApiProvider api={api}>
        <SearchPanel connection={connection({ id: "demo" })} table="Article" filters={[]} />
      </ApiProvider>,
    );
    const form = await screen.findByRole("search");
    await userEvent.selectOptions(within(form).getByRole("combobox", { name: "Search by" }), "Hybrid");
    expect(within(form).getByRole("note")).toHaveTextContent("Article has no vectorizer");
    expect(within(form).queryByRole("option", { name: "Near text" })).not.toBeInTheDocument();
    await userEvent.selectOptions(within(form).getByRole("combobox", { name: "Fusion" }), "ranked");
    await userEvent.type(within(form).getByRole("searchbox", { name: "Words" }), "rust{Enter}");
    expect(search).toHaveBeenCalledWith("demo", "Article", expect.objectContaining({ by: "words", mode: "hybrid", params: { alpha: "0", fusion: "ranked", vector: "" } }));
  });

  it("on a collection with a vectorizer, the alpha slider weighs the search: its value is sent, in words beside it", async () => {
    const api = fakeApi(async () => [], {
      describeTable: async (_id: string, table: string) => {
        return { ...tableInfo(table), searches: weaviateSearches.vectorized };
      },
    });
    const search = vi.spyOn(api.explorer, "search");
    render(
      <ApiProvider api={api}>
        <SearchPanel connection={connection({ id: "demo" })} table="Article" filters={[]} />
      </ApiProvider>,
    );
    const form = await screen.findByRole("search");
    await userEvent.selectOptions(within(form).getByRole("combobox", { name: "Search by" }), "Hybrid");
    expect(within(form).queryByRole("note")).not.toBeInTheDocument();
    const slider = within(form).getByRole("slider", { name: /Alpha/ });
    expect(slider).toHaveValue("0.75");
    fireEvent.change(slider, { target: { value: "0.4" } });
    expect(within(form).getByText("0.40")).toBeInTheDocument();
    expect(slider.getAttribute("aria-valuetext")).toMatch(/^0.4: /);
    fireEvent.change(slider, { target: { value: "0" } });
    expect(slider.getAttribute("aria-valuetext")).toBe("0: keywords only");
    fireEvent.change(slider, { target: { value: "0.4" } });
    await userEvent.type(within(form).getByRole("searchbox", { name: "Words" }), "rust{Enter}");
    expect(search).toHaveBeenCalledWith("demo", "Article", expect.objectContaining({ mode: "hybrid", params: { alpha: "0.4", fusion: "", vector: "" } }));
  });

  it("a filter refusal links to the setting behind it, which opens the definition in words there, and back to the search", async () => {
    const reason = "IsNull needs indexNullState, which collection Article does not enable (invertedIndexConfig.indexNullState)";
    const base = fakeApi(async () => []);
    const api = fakeApi(async () => [], {
      search: async (id: string, table: string, req: Parameters<typeof base.explorer.search>[2]) => ({
        ...(await base.explorer.search(id, table, req)),
        refused: { index: 0, column: "title", operator: "is_null", reason, message: reason },
      }),
    });
    render(
      <ApiProvider api={api}>
        <SearchPanel connection={connection({ id: "demo" })} table="Article" filters={[{ column: "title", operator: "is_null", value: "", value2: "" }]} />
      </ApiProvider>,
    );
    const form = await screen.findByRole("search");
    await userEvent.type(within(form).getByRole("searchbox", { name: "Words" }), "rust{Enter}");
    await userEvent.click(await screen.findByRole("button", { name: "See the setting" }));
    const details = screen.getByRole("region", { name: "Details of Article" });
    expect(within(details).getByText("Null state indexed").closest(".details__item")).toHaveAttribute("data-highlight");
    expect(screen.queryByRole("search")).not.toBeInTheDocument();
    await userEvent.click(within(details).getByRole("button", { name: "Back to the search" }));
    expect(await screen.findByRole("search")).toBeInTheDocument();
    expect(within(screen.getByRole("search")).getByRole("searchbox", { name: "Words" })).toHaveValue("rust");
  });

  it("issue 40: hybrid takes the person's own vector beside the words, sent as the mode's vector parameter", async () => {
    const api = fakeApi(async () => []);
    const search = vi.spyOn(api.explorer, "search");
    render(
      <ApiProvider api={api}>
        <SearchPanel connection={connection({ id: "demo" })} table="Article" filters={[]} />
      </ApiProvider>,
    );
    const form = await screen.findByRole("search");
    await userEvent.selectOptions(within(form).getByRole("combobox", { name: "Search by" }), "Hybrid");
    const own = within(form).getByRole("textbox", { name: "Your vector" });
    fireEvent.change(own, { target: { value: "[0.5, -1]" } });
    fireEvent.change(within(form).getByRole("slider", { name: /Alpha/ }), { target: { value: "0.5" } });
    await userEvent.type(within(form).getByRole("searchbox", { name: "Words" }), "rust{Enter}");
    expect(search).toHaveBeenCalledWith("demo", "Article", expect.objectContaining({ mode: "hybrid", params: { alpha: "0.5", fusion: "", vector: "[0.5, -1]" } }));
  });

  it("issue 40: hybrid takes a row's stored vector beside the words, by the row's key", async () => {
    const api = fakeApi(async () => []);
    const search = vi.spyOn(api.explorer, "search");
    render(
      <ApiProvider api={api}>
        <SearchPanel connection={connection({ id: "demo" })} table="Article" filters={[]} />
      </ApiProvider>,
    );
    const form = await screen.findByRole("search");
    await userEvent.selectOptions(within(form).getByRole("combobox", { name: "Search by" }), "Hybrid");
    await userEvent.type(within(form).getByRole("textbox", { name: "Your vector: the row whose vector" }), " 00000000-0000-4000-8000-000000000001 ");
    await userEvent.type(within(form).getByRole("searchbox", { name: "Words" }), "rust{Enter}");
    expect(search).toHaveBeenCalledWith("demo", "Article", expect.objectContaining({ mode: "hybrid", vectorRow: { uuid: "00000000-0000-4000-8000-000000000001" } }));
    await userEvent.selectOptions(within(form).getByRole("combobox", { name: "Search by" }), "Keyword (bm25)");
    await userEvent.type(within(form).getByRole("searchbox", { name: "Words" }), "{Enter}");
    expect(search).toHaveBeenLastCalledWith("demo", "Article", expect.objectContaining({ mode: "bm25", vectorRow: {} }));
  });

  it("issue 37: near a row of a one-column key, one input whose text is the key", async () => {
    const api = fakeApi(async () => []);
    const search = vi.spyOn(api.explorer, "search");
    render(
      <ApiProvider api={api}>
        <SearchPanel connection={connection({ id: "demo" })} table="Article" filters={[]} />
      </ApiProvider>,
    );
    const form = await screen.findByRole("search");
    await userEvent.selectOptions(within(form).getByRole("combobox", { name: "Search by" }), "Near row");
    const row = within(form).getByRole("textbox", { name: "Row uuid" });
    expect(row).toHaveAttribute("placeholder", "the key of a row");
    await userEvent.type(row, " 00000000-0000-4000-8000-000000000001 {Enter}");
    expect(search).toHaveBeenCalledWith("demo", "Article", expect.objectContaining({ by: "row", row: { uuid: "00000000-0000-4000-8000-000000000001" } }));
  });

  it("issue 37: a key of several columns is typed in one labelled input per column, near a row and for hybrid's row vector", async () => {
    const api = fakeApi(async () => [], { describeTable: async (_id: string, table: string) => ({ ...tableInfo(table), primaryKey: ["tenant", "id"] }) });
    const search = vi.spyOn(api.explorer, "search");
    render(
      <ApiProvider api={api}>
        <SearchPanel connection={connection({ id: "demo" })} table="Orders" filters={[]} />
      </ApiProvider>,
    );
    const form = await screen.findByRole("search");
    await userEvent.selectOptions(within(form).getByRole("combobox", { name: "Search by" }), "Hybrid");
    await userEvent.type(within(form).getByRole("textbox", { name: "Your vector: the row whose vector, its tenant" }), "north");
    await userEvent.type(within(form).getByRole("searchbox", { name: "Words" }), "rust");
    // a key typed in part is not sent: the search says what is missing
    expect(within(form).getByRole("button", { name: "Search" })).toBeDisabled();
    expect(within(form).getByRole("button", { name: "Search" })).toHaveAttribute("title", "Give the id of the row whose vector");
    await userEvent.type(within(form).getByRole("textbox", { name: "Your vector: the row whose vector, its id" }), "7{Enter}");
    expect(search).toHaveBeenLastCalledWith("demo", "Orders", expect.objectContaining({ mode: "hybrid", vectorRow: { tenant: "north", id: "7" } }));

    await userEvent.selectOptions(within(form).getByRole("combobox", { name: "Search by" }), "Near row");
    const rowKey = within(form).getByRole("group", { name: "Row" });
    await userEvent.type(within(rowKey).getByRole("textbox", { name: "Row tenant" }), "south");
    await userEvent.type(within(rowKey).getByRole("textbox", { name: "Row id" }), "9{Enter}");
    expect(search).toHaveBeenLastCalledWith("demo", "Orders", expect.objectContaining({ by: "row", row: { tenant: "south", id: "9" }, vectorRow: {} }));
  });

  it("on a table whose driver plugin predates described searches, offers the vector searches and says to update it for words", async () => {
    const api = fakeApi(async () => [], { describeTable: async (_id: string, table: string) => ({ ...tableInfo(table), searches: [] }) });
    render(
      <ApiProvider api={api}>
        <SearchPanel connection={connection({ id: "demo" })} table="Article" filters={[]} wordsNeedUpdate />
      </ApiProvider>,
    );
    const form = await screen.findByRole("search");
    const choices = within(within(form).getByRole("combobox", { name: "Search by" })).getAllByRole("option").map((o) => o.textContent);
    expect(choices).toEqual(["Near vector", "Near row"]);
    expect(within(form).getByRole("note")).toHaveTextContent("This version of the driver plugin cannot search by words: update it in Settings, Plugins.");
  });

  it("shows the server's error when a search fails, and keeps the form", async () => {
    const api = fakeApi(async () => [], {
      search: async () => {
        throw "invalid_argument: the vector must be a JSON array of numbers, e.g. [0.12, -0.5, 0.33]";
      },
    });
    render(
      <ApiProvider api={api}>
        <SearchPanel connection={connection()} table="Article" filters={[]} />
      </ApiProvider>,
    );
    const form = await screen.findByRole("search");
    await userEvent.selectOptions(within(form).getByRole("combobox", { name: "Search by" }), "Near vector");
    await userEvent.type(within(form).getByRole("textbox", { name: "Vector" }), "0.1, 0.2");
    await userEvent.click(within(form).getByRole("button", { name: "Search" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("the vector must be a JSON array of numbers");
    expect(within(form).getByRole("textbox", { name: "Vector" })).toHaveValue("0.1, 0.2");
  });

  it("where the database profiles searches, Profile asks for the server's own profile, shown as a table with a bar for each timed phase (issue 40, item 6)", async () => {
    const api = fakeApi(async () => [], {
      describeTable: async (_id: string, table: string) => ({ ...tableInfo(table), profiles: true }),
    });
    const search = vi.spyOn(api.explorer, "search");
    render(
      <ApiProvider api={api}>
        <SearchPanel connection={connection({ id: "demo" })} table="Article" filters={[]} />
      </ApiProvider>,
    );
    const form = await screen.findByRole("search");
    await userEvent.click(within(form).getByRole("checkbox", { name: "Profile" }));
    await userEvent.type(within(form).getByRole("searchbox", { name: "Words" }), "rust{Enter}");
    expect(search).toHaveBeenCalledWith("demo", "Article", expect.objectContaining({ profile: true }));
    const profile = await screen.findByRole("region", { name: "Query profile" });
    const table = within(profile).getByRole("table", { name: /keyword search · shard article_sMsSObsI0KUQ on node1/ });
    const rows = within(table).getAllByRole("row").slice(1);
    expect(rows.map((r) => within(r).getByRole("rowheader").textContent)).toEqual(["kwd method", "kwd time", "total took"]);
    expect(within(rows[0]).getByText("blockmaxwand")).toBeInTheDocument();
    expect(within(rows[0]).queryByRole("img")).not.toBeInTheDocument();
    expect(within(rows[1]).getByText("200 µs")).toBeInTheDocument();
    expect(within(rows[1]).getByRole("img", { name: "50% of the longest phase" })).toHaveStyle({ width: "50%" });
    expect(within(rows[2]).getByRole("img", { name: "100% of the longest phase" })).toBeInTheDocument();
  });

  it("where the database has no profiles, there is no Profile choice and none is asked for", async () => {
    const api = fakeApi(async () => []);
    const search = vi.spyOn(api.explorer, "search");
    render(
      <ApiProvider api={api}>
        <SearchPanel connection={connection({ id: "demo" })} table="Article" filters={[]} />
      </ApiProvider>,
    );
    const form = await screen.findByRole("search");
    expect(within(form).queryByRole("checkbox", { name: "Profile" })).not.toBeInTheDocument();
    await userEvent.type(within(form).getByRole("searchbox", { name: "Words" }), "rust{Enter}");
    expect(search).toHaveBeenCalledWith("demo", "Article", expect.objectContaining({ profile: false }));
    await screen.findByRole("table");
    expect(screen.queryByRole("region", { name: "Query profile" })).not.toBeInTheDocument();
  });
});
