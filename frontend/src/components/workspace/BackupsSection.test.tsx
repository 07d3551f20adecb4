import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { ApiProvider } from "../../api";
import { fakeApi, fakeBackup } from "../../test/fakeApi";
import { BackupsSection } from "./BackupsSection";

// Issue 40, item 5: the connection page's backups, over the window's API (the backend and the
// driver are held to a real weaviate-server in Go; here, what the section does with answers).
describe("the connection page's backups", () => {
  it("backs up the tables ticked, follows the phase with Cancel while it runs to its end, and lists the backups again", async () => {
    // The fake database runs the backup until it is asked to cancel it: each step waits on the
    // test, never on the clock.
    let cancelled = false;
    const api = fakeApi(async () => [], {
      backupStatus: async (_id: string, backend: string, backupId: string) =>
        cancelled ? fakeBackup({ id: backupId, backend, state: "cancelled", phase: "CANCELED", tables: ["Article"] }) : fakeBackup({ id: backupId, backend, phase: "TRANSFERRING" }),
      cancelBackup: async () => {
        cancelled = true;
      },
    });
    const create = vi.spyOn(api.explorer, "createBackup");
    const cancel = vi.spyOn(api.explorer, "cancelBackup");
    const list = vi.spyOn(api.explorer, "backups");
    render(
      <ApiProvider api={api}>
        <BackupsSection connectionId="demo" tables={["Article", "Author"]} pollMs={10} />
      </ApiProvider>,
    );
    const form = await screen.findByRole("form", { name: "New backup" });
    expect(screen.getByText("Kept on the server's disk.")).toBeInTheDocument();
    await userEvent.click(within(form).getByRole("checkbox", { name: "Article" }));
    await userEvent.click(within(form).getByRole("button", { name: "Back up" }));
    expect(create).toHaveBeenCalledWith("demo", "filesystem", ["Article"]);
    const running = await screen.findByText(/Backing up app-1: transferring…/);
    await userEvent.click(within(running).getByRole("button", { name: "Cancel" }));
    expect(cancel).toHaveBeenCalledWith("demo", "filesystem", "app-1");
    expect(await screen.findByText("Backup app-1 was cancelled.")).toBeInTheDocument();
    expect(list).toHaveBeenCalledTimes(2);
  });

  it("a backup that ends by itself says it finished, with its tables", async () => {
    let asked = 0;
    const api = fakeApi(async () => [], {
      backupStatus: async (_id: string, backend: string, backupId: string) =>
        ++asked < 3 ? fakeBackup({ id: backupId, backend, phase: "TRANSFERRING" }) : fakeBackup({ id: backupId, backend, state: "succeeded", phase: "SUCCESS", tables: ["Article", "Author"] }),
    });
    render(
      <ApiProvider api={api}>
        <BackupsSection connectionId="demo" tables={["Article", "Author"]} pollMs={10} />
      </ApiProvider>,
    );
    await userEvent.click(within(await screen.findByRole("form", { name: "New backup" })).getByRole("button", { name: "Back up" }));
    expect(await screen.findByText("Backup app-1 finished: Article, Author.")).toBeInTheDocument();
  });

  it("a restore the person declines in the native dialog sends nothing and says so", async () => {
    const api = fakeApi(async () => [], {
      backups: async () => ({ backends: [{ name: "filesystem", label: "the server's disk", where: "/backups" }], backups: [fakeBackup({ id: "nightly", state: "succeeded", phase: "SUCCESS", tables: ["Article"], bytes: 2048 })] }),
      restoreBackup: async (_id: string, backend: string, backupId: string) => ({ restore: null, plan: { id: backupId, backend, tables: ["Article"], creates: ["Article"], overwrites: [], refused: [], note: "" }, declined: true }),
    });
    const restore = vi.spyOn(api.explorer, "restoreBackup");
    const status = vi.spyOn(api.explorer, "restoreStatus");
    render(
      <ApiProvider api={api}>
        <BackupsSection connectionId="demo" tables={["Article"]} pollMs={10} />
      </ApiProvider>,
    );
    const table = await screen.findByRole("table", { name: "Backups" });
    expect(within(table).getByText("2.0 KB")).toBeInTheDocument();
    expect(screen.getByText("Kept on the server's disk (/backups).")).toBeInTheDocument();
    await userEvent.click(within(table).getByRole("button", { name: "Restore nightly" }));
    expect(restore).toHaveBeenCalledWith("demo", "filesystem", "nightly", []);
    expect(await screen.findByText("Not restored: nothing was sent.")).toBeInTheDocument();
    expect(status).not.toHaveBeenCalled();
  });

  it("a restore said yes to is followed to its end; a refusal is shown in the database's words", async () => {
    const api = fakeApi(async () => [], {
      backups: async () => ({ backends: [{ name: "filesystem", label: "the server's disk", where: "" }], backups: [fakeBackup({ id: "nightly", state: "succeeded", phase: "SUCCESS" }), fakeBackup({ id: "old", state: "succeeded", phase: "SUCCESS" })] }),
    });
    const restore = vi.spyOn(api.explorer, "restoreBackup");
    render(
      <ApiProvider api={api}>
        <BackupsSection connectionId="demo" tables={["Article"]} pollMs={10} />
      </ApiProvider>,
    );
    const table = await screen.findByRole("table", { name: "Backups" });
    await userEvent.click(within(table).getByRole("button", { name: "Restore nightly" }));
    expect(await screen.findByText("Restore of nightly finished.")).toBeInTheDocument();
    restore.mockRejectedValueOnce("conflict: the restore of old cannot run: Article: a collection of that name exists");
    await userEvent.click(within(table).getByRole("button", { name: "Restore old" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("the restore of old cannot run: Article: a collection of that name exists");
  });
});
