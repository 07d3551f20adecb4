import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { ApiProvider, type AccessReport } from "../../api";
import { fakeApi } from "../../test/fakeApi";
import { AccessSection } from "./AccessSection";

const reader: AccessReport = {
  enforced: true,
  user: "reader",
  auth: "an API key",
  roles: [{ name: "article-reader", builtIn: false, permissions: [{ action: "read_data", scope: "collection Article", words: "reading rows on Article" }] }],
  groups: [],
  rolesShown: false,
  allRoles: [],
  usersShown: false,
  users: [],
  note: "The key may not read the database's roles (read_roles) or users (read_users), so they are not shown.",
};

// Issue 40, item 4: the connection page says who the connection is and what it may do,
// read-only; the database's roles and users where the credential may read them.
describe("the connection page's Who you are", () => {
  it("shows the key's user, its role folded to each permission in words beside the database's action, and the note for what it may not read", async () => {
    render(
      <ApiProvider api={fakeApi(async () => [], { accessControl: async () => reader })}>
        <AccessSection connectionId="demo" />
      </ApiProvider>,
    );
    expect(await screen.findByLabelText("The connection's user")).toHaveTextContent("User reader · an API key");
    const roles = screen.getByLabelText("Its roles");
    await userEvent.click(within(roles).getByText(/article-reader/));
    const perms = within(roles).getByRole("table", { name: "Permissions of article-reader" });
    const row = within(perms).getAllByRole("row")[1];
    expect(row).toHaveTextContent("reading rows on Article");
    expect(within(row).getByText("read_data").tagName).toBe("CODE");
    expect(screen.getByText(/may not read the database's roles/)).toBeInTheDocument();
    expect(screen.queryByRole("table", { name: "The database's users" })).not.toBeInTheDocument();
    expect(screen.queryByRole("button")).not.toBeInTheDocument();
  });

  it("for a key that may read them, lists the database's roles (built-in marked) and users", async () => {
    const admin: AccessReport = {
      ...reader,
      user: "admin",
      roles: [{ name: "root", builtIn: true, permissions: [] }],
      rolesShown: true,
      allRoles: [{ name: "article-reader", builtIn: false, permissions: reader.roles[0].permissions }, { name: "viewer", builtIn: true, permissions: [] }],
      usersShown: true,
      users: [{ name: "reader", kind: "API key user", active: true, roles: ["article-reader"] }],
      note: "",
    };
    render(
      <ApiProvider api={fakeApi(async () => [], { accessControl: async () => admin })}>
        <AccessSection connectionId="demo" />
      </ApiProvider>,
    );
    const all = await screen.findByRole("region", { name: "The database's roles" });
    expect(within(all).getByText(/viewer/)).toHaveTextContent("viewer built-in · 0 permissions");
    const users = screen.getByRole("table", { name: "The database's users" });
    expect(within(users).getAllByRole("row")[1]).toHaveTextContent("readerAPI key useryesarticle-reader");
  });

  it("a database that checks no roles says so", async () => {
    render(
      <ApiProvider api={fakeApi(async () => [])}>
        <AccessSection connectionId="demo" />
      </ApiProvider>,
    );
    expect(await screen.findByText(/checks no roles/)).toBeInTheDocument();
    expect(screen.getByLabelText("The connection's user")).toHaveTextContent("No user · anonymous access");
  });
});
