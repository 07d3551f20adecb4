import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { ApiProvider } from "../../api";
import { connection, fakeApi } from "../../test/fakeApi";
import { SimilarPanel } from "./SimilarPanel";

describe("Find similar's tab (issue 14: results in a new tab with distance)", () => {
  it("lists the matches best first with distance next to uuid, and names the vector searched", async () => {
    const api = fakeApi(async () => []);
    const findSimilar = vi.spyOn(api.explorer, "findSimilar");
    render(
      <ApiProvider api={api}>
        <SimilarPanel connection={connection({ id: "demo", name: "Demo" })} table="Article" row={{ uuid: "00000000-0000-4000-8000-000000000001" }} keyColumns={["uuid"]} targetVector="" />
      </ApiProvider>,
    );
    expect(screen.getByRole("status")).toHaveTextContent("Searching");
    const table = await screen.findByRole("table");
    const heads = within(table)
      .getAllByRole("columnheader")
      .map((h) => h.querySelector(".data-grid__name")?.textContent ?? "");
    expect(heads.slice(1, 3)).toEqual(["uuid", "distance"]);
    expect(screen.getByText(/4 dimensions · best first by distance/)).toBeInTheDocument();
    expect(findSimilar).toHaveBeenCalledWith("demo", "Article", { uuid: "00000000-0000-4000-8000-000000000001" }, "", 0);
    // a one-column key reads as its value alone
    expect(screen.getByRole("region", { name: "Similar to 00000000-0000-4000-8000-000000000001" })).toHaveTextContent("nearest to 00000000-0000-4000-8000-000000000001");
  });

  it("says why when the search cannot run, with Retry", async () => {
    const api = fakeApi(async () => [], {
      findSimilar: async () => {
        throw "invalid_argument: Article has several named vectors: choose one of a, b";
      },
    });
    render(
      <ApiProvider api={api}>
        <SimilarPanel connection={connection()} table="Article" row={{ uuid: "u" }} keyColumns={["uuid"]} targetVector="" />
      </ApiProvider>,
    );
    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent("several named vectors: choose one of a, b");
    expect(within(alert).getByRole("button", { name: "Retry" })).toBeInTheDocument();
  });

  it("Show on the map carries the vector searched, so the map draws that one", async () => {
    const api = fakeApi(async () => []);
    const found = await api.explorer.findSimilar("demo", "Article", { uuid: "u" }, "", 0);
    vi.spyOn(api.explorer, "findSimilar").mockResolvedValue({ ...found, targetVector: "title_vec" });
    const onShowOnMap = vi.fn();
    render(
      <ApiProvider api={api}>
        <SimilarPanel connection={connection()} table="Article" row={{ uuid: "00000000-0000-4000-8000-000000000001" }} keyColumns={["uuid"]} targetVector="" onShowOnMap={onShowOnMap} />
      </ApiProvider>,
    );
    await userEvent.click(await screen.findByRole("button", { name: "Show on the map" }));
    expect(onShowOnMap).toHaveBeenCalledWith({
      keys: [{ uuid: "00000000-0000-4000-8000-000000000001" }, { uuid: "00000000-0000-4000-8000-000000000002" }],
      label: "similar to 00000000-0000-4000-8000-000000000001",
      vector: "title_vec",
    });
  });

  it("a row of a table keyed by two columns: Find similar gets its key by column, the tab names it col=value", async () => {
    const api = fakeApi(async () => []);
    const findSimilar = vi.spyOn(api.explorer, "findSimilar");
    render(
      <ApiProvider api={api}>
        <SimilarPanel connection={connection({ id: "demo" })} table="Orders" row={{ tenant: "north", id: "7" }} keyColumns={["tenant", "id"]} targetVector="" />
      </ApiProvider>,
    );
    await screen.findByRole("table");
    expect(findSimilar).toHaveBeenCalledWith("demo", "Orders", { tenant: "north", id: "7" }, "", 0);
    expect(screen.getByRole("region", { name: "Similar to tenant=north, id=7" })).toBeInTheDocument();
  });
});
