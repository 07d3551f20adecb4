import { act, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { ApiProvider, type Tenant, type TenantStatus } from "../../api";
import { fakeApi, tenantPages } from "../../test/fakeApi";
import { TENANT_ROW_HEIGHT, TENANT_WINDOW, TenantList } from "./TenantList";

const tenant = (name: string, status = "ACTIVE"): Tenant => ({ name, table: `Shop@${name}`, status });

function renderTenants(
  tenants: Tenant[] | (() => Promise<Tenant[]>),
  onOpenTenant: (t: Tenant) => void = () => {},
  setTenantStatus: (id: string, table: string, tenant: string, status: TenantStatus) => Promise<boolean> = async () => true,
) {
  const listTenants = vi.fn(tenantPages(typeof tenants === "function" ? tenants : async () => tenants));
  const set = vi.fn(setTenantStatus);
  const api = fakeApi(async () => [], { listTenants, setTenantStatus: set });
  render(
    <ApiProvider api={api}>
      <TenantList connectionId="c1" table="Shop" onOpenTenant={onOpenTenant} />
    </ApiProvider>,
  );
  return { listTenants, setTenantStatus: set };
}

describe("the tenants of a multi-tenant table (issue 23)", () => {
  it("lists each tenant with its activity status in a word (hot, cold, frozen), and says all in words on hover", async () => {
    renderTenants([tenant("north"), tenant("west", "INACTIVE"), tenant("ice", "OFFLOADED")]);
    const list = await screen.findByRole("listbox", { name: "Tenants of Shop" });
    const rows = within(list).getAllByRole("option");
    expect(rows.map((r) => r.textContent)).toEqual(["northhotDeactivate", "westcoldActivate", "icefrozenActivate"]);
    expect(within(rows[0]).getByText("hot")).toHaveAttribute("title", "active (hot)");
    expect(within(rows[1]).getByText("west")).toHaveAttribute("title", "west: inactive (cold)");
    expect(within(rows[2]).getByText("frozen")).toHaveAttribute("title", "offloaded (frozen)");
  });

  it("asks for a window of 50,000 tenants, renders a screenful, and reads the window a scroll reaches", async () => {
    const many = Array.from({ length: 50_000 }, (_, i) => tenant(`t${String(i).padStart(5, "0")}`));
    const { listTenants } = renderTenants(many);
    const list = await screen.findByRole("listbox");
    expect(within(list).getAllByRole("option").length).toBeLessThan(40);
    expect(screen.getByRole("combobox")).toHaveAttribute("placeholder", `Filter ${(50_000).toLocaleString()} tenants`);
    expect(listTenants.mock.calls[0].slice(2)).toEqual(["", 0, TENANT_WINDOW, false]);
    const view = list.parentElement as HTMLElement;
    await act(async () => {
      view.scrollTop = TENANT_ROW_HEIGHT * 30_000;
      view.dispatchEvent(new Event("scroll"));
    });
    expect(await within(list).findByText("t30000")).toBeInTheDocument();
    expect(within(list).getAllByRole("option").length).toBeLessThan(40);
    const last = listTenants.mock.calls[listTenants.mock.calls.length - 1];
    expect(last[5]).toBe(false);
    expect(last[3]).toBeLessThanOrEqual(30_000);
    expect(last[3] + TENANT_WINDOW).toBeGreaterThan(30_012);
  });

  it("reads the tenants fresh from the node when the tree is refreshed (F5, Refresh), keeping the filter", async () => {
    let status = "ACTIVE";
    const listTenants = vi.fn(tenantPages(async () => [tenant("north", status), tenant("northwest"), tenant("south")]));
    const api = fakeApi(async () => [], { listTenants });
    const view = (refreshed: number) => (
      <ApiProvider api={api}>
        <TenantList connectionId="c1" table="Shop" onOpenTenant={() => {}} refreshed={refreshed} />
      </ApiProvider>
    );
    const { rerender } = render(view(0));
    await userEvent.type(await screen.findByRole("combobox", { name: "Filter the tenants of Shop" }), "north");
    await waitFor(() => expect(within(screen.getByRole("listbox")).getAllByRole("option")).toHaveLength(2));
    const before = listTenants.mock.calls.length;
    rerender(view(0));
    expect(listTenants.mock.calls.length).toBe(before);
    status = "INACTIVE";
    rerender(view(1));
    await waitFor(() => expect(listTenants.mock.calls.length).toBe(before + 1));
    expect(listTenants.mock.calls[before].slice(2)).toEqual(["north", 0, TENANT_WINDOW, true]);
    expect(await screen.findByText("cold")).toBeInTheDocument();
    expect(within(screen.getByRole("listbox")).getAllByRole("option")).toHaveLength(2);
  });

  it("filters as the person types, and says when nothing matches", async () => {
    renderTenants([tenant("north"), tenant("south"), tenant("northwest")]);
    const box = await screen.findByRole("combobox", { name: "Filter the tenants of Shop" });
    await userEvent.type(box, "NORTH");
    expect(within(screen.getByRole("listbox")).getAllByRole("option").map((r) => r.querySelector(".tenant-item__name")?.textContent)).toEqual([
      "north",
      "northwest",
    ]);
    await userEvent.type(box, "x");
    expect(screen.getByRole("status")).toHaveTextContent("No tenant matches");
  });

  it("opens the tenant the arrows reach with Enter, and the one clicked", async () => {
    const open = vi.fn();
    renderTenants([tenant("a"), tenant("b"), tenant("c")], open);
    const box = await screen.findByRole("combobox");
    box.focus();
    await userEvent.keyboard("{ArrowDown}{ArrowDown}{ArrowDown}{ArrowUp}{Enter}");
    expect(open).toHaveBeenLastCalledWith(tenant("b"));
    expect(box).toHaveAttribute("aria-activedescendant", "tenants-c1-Shop-1");
    await userEvent.click(screen.getByText("c"));
    expect(open).toHaveBeenLastCalledWith(tenant("c"));
  });

  it("activates an inactive tenant through the asking call, then lists again", async () => {
    let status = "INACTIVE";
    const { listTenants, setTenantStatus } = renderTenants(async () => [tenant("west", status)], undefined, async () => {
      status = "ACTIVE";
      return true;
    });
    const button = await screen.findByRole("button", { name: "Activate tenant west" });
    await userEvent.click(button);
    expect(setTenantStatus).toHaveBeenCalledWith("c1", "Shop", "west", "ACTIVE");
    expect(await screen.findByRole("button", { name: "Deactivate tenant west" })).toBeInTheDocument();
    // Read when the list opened, then the window again from the backend's listing.
    expect(listTenants.mock.calls.map((c) => c[5])).toEqual([false, false]);
  });

  it("a No changes nothing and lists nothing again", async () => {
    const { listTenants } = renderTenants([tenant("north")], undefined, async () => false);
    await userEvent.click(await screen.findByRole("button", { name: "Deactivate tenant north" }));
    await waitFor(() => expect(screen.getByRole("button", { name: "Deactivate tenant north" })).toBeEnabled());
    expect(listTenants).toHaveBeenCalledTimes(1);
  });

  it("shows why the tenants cannot be listed, and retries", async () => {
    let fail = true;
    renderTenants(async () => {
      if (fail) throw "connection: the node does not answer";
      return [tenant("north")];
    });
    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent("Could not list the tenants: the node does not answer");
    fail = false;
    await userEvent.click(within(alert).getByRole("button", { name: "Retry" }));
    expect(await screen.findByRole("listbox")).toBeInTheDocument();
  });

  it("shows a failed status change at the list", async () => {
    renderTenants([tenant("north")], undefined, async () => {
      throw "query_failed: offloading needs an offload module";
    });
    await userEvent.click(await screen.findByRole("button", { name: "Deactivate tenant north" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("offloading needs an offload module");
  });

  it("opens from the listing the tree's count kept, at once, then reads the tenants fresh behind it", async () => {
    let status = "ACTIVE";
    const listTenants = vi.fn(async (_id: string, _t: string, _f: string, offset: number, _l: number, fresh: boolean) => ({
      total: 1,
      matched: 1,
      offset,
      tenants: [tenant("north", status)],
      kept: !fresh,
    }));
    render(
      <ApiProvider api={fakeApi(async () => [], { listTenants })}>
        <TenantList connectionId="c1" table="Shop" onOpenTenant={() => {}} />
      </ApiProvider>,
    );
    status = "INACTIVE";
    // the kept listing said active; the fresh read says inactive, and the row follows it
    expect(await screen.findByText("cold")).toBeInTheDocument();
    expect(listTenants.mock.calls.map((c) => c[5])).toEqual([false, true]);
  });
});
