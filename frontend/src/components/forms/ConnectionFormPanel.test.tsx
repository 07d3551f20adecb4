import { act, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { ApiError, ApiProvider, type ConnectionDescription, type ConnectionForm, type TestResult } from "../../api";
import { read } from "../../api/read";
import { connectionForm, deferred, fakeApi, weaviateDescription } from "../../test/fakeApi";
import { ConnectionFormPanel } from "./ConnectionFormPanel";

function renderForm(initial: ConnectionForm, more: Parameters<typeof fakeApi>[2] = {}, description: ConnectionDescription = weaviateDescription()) {
  const api = fakeApi(async () => [], {}, more);
  const onSaved = vi.fn();
  const onCancel = vi.fn();
  render(
    <ApiProvider api={api}>
      <ConnectionFormPanel initial={initial} description={description} onSaved={onSaved} onCancel={onCancel} />
    </ApiProvider>,
  );
  return { onSaved, onCancel };
}

describe("connection form (SPEC A Connection settings, A.4)", () => {
  it("has Name, Host, Port, Auth Method, SSL Mode and an Advanced section, and no Database field", () => {
    renderForm(connectionForm());
    for (const name of ["Name", "Host", "Port"]) expect(screen.getByRole("textbox", { name })).toBeInTheDocument();
    expect(screen.getByRole("combobox", { name: "Auth Method" })).toHaveValue("None");
    expect(screen.getByRole("combobox", { name: "SSL Mode" })).toHaveValue("Disabled");
    expect(screen.getByText("Advanced")).toBeInTheDocument();
    expect(screen.queryByRole("textbox", { name: /Database/ })).not.toBeInTheDocument();
    expect(screen.queryByText(/SSH/)).not.toBeInTheDocument();
  });

  it("the API key field is masked and appears only for Auth Method API Key", async () => {
    renderForm(connectionForm());
    expect(screen.queryByLabelText("API Key")).not.toBeInTheDocument();
    await userEvent.selectOptions(screen.getByRole("combobox", { name: "Auth Method" }), "API Key");
    expect(screen.getByLabelText("API Key")).toHaveAttribute("type", "password");
  });

  it("a hosted-cloud host suggests port 443, SSL Mode Required and API Key", async () => {
    renderForm(connectionForm());
    const host = screen.getByRole("textbox", { name: "Host" });
    await userEvent.clear(host);
    await userEvent.type(host, "abc.c0.europe-west3.gcp.weaviate.cloud");
    await userEvent.click(screen.getByRole("button", { name: "Use port 443, SSL Required and API Key" }));
    expect(screen.getByRole("textbox", { name: "Port" })).toHaveValue("443");
    expect(screen.getByRole("combobox", { name: "SSL Mode" })).toHaveValue("Required");
    expect(screen.getByRole("combobox", { name: "Auth Method" })).toHaveValue("API Key");
  });

  it("Test shows the server version on success", async () => {
    renderForm(connectionForm());
    await userEvent.click(screen.getByRole("button", { name: "Test" }));
    expect(await screen.findByText("Connected: Weaviate 1.35.2")).toBeInTheDocument();
  });

  it("issue 25: a bad port is named at its field, keeps what was typed, and takes the focus", async () => {
    const test = vi.fn(async () => ({ serverVersion: "1.35.2", paths: [], changed: {} }));
    renderForm(connectionForm(), { connections: { test } });
    const port = screen.getByRole("textbox", { name: "Port" });
    for (const typed of ["abc", "99999"]) {
      await userEvent.clear(port);
      await userEvent.type(port, typed);
      expect(port).toHaveValue(typed);
      await userEvent.click(screen.getByRole("button", { name: "Test" }));
      expect(port).toHaveAttribute("aria-invalid", "true");
      expect(port).toHaveAccessibleDescription(/Port must be a number from 1 to 65535/);
      expect(port).toHaveFocus();
      expect(port).toHaveValue(typed);
    }
    expect(test).not.toHaveBeenCalled();
    await userEvent.clear(port);
    await userEvent.type(port, "8080");
    expect(port).not.toHaveAttribute("aria-invalid");
    await userEvent.click(screen.getByRole("button", { name: "Test" }));
    expect(test).toHaveBeenCalledTimes(1);
  });

  it("issue 19: a Test reports REST, GraphQL and gRPC separately, and a failing path says why", async () => {
    const paths = [
      { name: "REST", ok: true, detail: "ok, server 1.35.2" },
      { name: "GraphQL", ok: true, detail: "off (filters, sorts, counts and search read over gRPC)" },
      { name: "gRPC", ok: false, detail: "Connection failed: the gRPC API at db:50051 does not answer" },
    ];
    renderForm(connectionForm(), { connections: { test: async () => ({ serverVersion: "1.35.2", paths, changed: {} }) } });
    await userEvent.click(screen.getByRole("button", { name: "Test" }));
    const line = await screen.findByRole("status");
    expect(line).toHaveTextContent(
      "REST ok, server 1.35.2; GraphQL off (filters, sorts, counts and search read over gRPC); gRPC: Connection failed: the gRPC API at db:50051 does not answer",
    );
    expect(line).toHaveClass("form-msg--error");
  });

  it("a Test answering after the values changed is dropped: its result would describe other values", async () => {
    const answer = deferred<TestResult>();
    renderForm(connectionForm(), { connections: { test: () => answer.promise } });
    await userEvent.click(screen.getByRole("button", { name: "Test" }));
    const host = screen.getByRole("textbox", { name: "Host" });
    await userEvent.clear(host);
    await userEvent.type(host, "other.example");
    await act(async () => answer.resolve({ serverVersion: "1.35.2", paths: [], changed: {} }));
    expect(screen.queryByText("Connected: Weaviate 1.35.2")).not.toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Test" })).toBeEnabled();
  });

  it("Test shows the driver's Authentication failed: message as it is", async () => {
    const msg = "Authentication failed: the node at 127.0.0.1:8080 rejected the API key (HTTP 401). Check the key, or enter the new one after a rotation.";
    renderForm(connectionForm({ values: { authMethod: "API Key" }, savedSecrets: ["apiKey"] }), {
      connections: {
        test: async () => {
          throw new ApiError("auth", msg);
        },
      },
    });
    await userEvent.click(screen.getByRole("button", { name: "Test" }));
    expect(await screen.findByRole("alert")).toHaveTextContent(msg);
  });

  it("a bad value is named before anything is sent; Enter saves a good form", async () => {
    const save = vi.fn(async (f: ConnectionForm) => ({ ...connectionForm(), id: "n1", name: f.name, createdAt: "", skipTLSVerify: false }));
    const { onSaved } = renderForm(connectionForm(), { connections: { save: save as never } });
    await userEvent.click(screen.getByRole("button", { name: "Save" }));
    expect(screen.getByRole("alert")).toHaveTextContent("Name is required.");
    expect(save).not.toHaveBeenCalled();
    await userEvent.type(screen.getByRole("textbox", { name: "Name" }), "Local{Enter}");
    expect(save).toHaveBeenCalledTimes(1);
    expect(save.mock.calls[0][0].name).toBe("Local");
    await vi.waitFor(() => expect(onSaved).toHaveBeenCalled());
  });

  it("editing a connection with a saved key says so and sends an empty key (kept)", async () => {
    const save = vi.fn(async () => ({ ...connectionForm(), id: "c1", name: "Cloud", createdAt: "", skipTLSVerify: false }));
    renderForm(connectionForm({ id: "c1", name: "Cloud", values: { authMethod: "API Key" }, savedSecrets: ["apiKey"] }), { connections: { save: save as never } });
    expect(screen.getByLabelText("API Key")).toHaveAttribute("placeholder", "Saved in the keyring; type a new one to replace it");
    await userEvent.click(screen.getByRole("button", { name: "Save" }));
    expect(save).toHaveBeenCalledWith(expect.objectContaining({ id: "c1" }), {});
  });

  it("a key typed before switching back to Auth Method None is not sent", async () => {
    const save = vi.fn(async () => ({ ...connectionForm(), id: "n1", name: "N", createdAt: "", skipTLSVerify: false }));
    renderForm(connectionForm({ name: "N" }), { connections: { save: save as never } });
    await userEvent.selectOptions(screen.getByRole("combobox", { name: "Auth Method" }), "API Key");
    await userEvent.type(screen.getByLabelText("API Key"), "typed-key");
    await userEvent.selectOptions(screen.getByRole("combobox", { name: "Auth Method" }), "None");
    await userEvent.click(screen.getByRole("button", { name: "Save" }));
    expect(save).toHaveBeenCalledWith(expect.objectContaining({ values: expect.objectContaining({ authMethod: "None" }) }), {});
  });

  it("a bad value in the folded Advanced section opens it, names the problem there and takes the focus", async () => {
    renderForm(connectionForm({ name: "N", values: { grpcPort: "70000" } }));
    expect(screen.getByText("Advanced").closest("details")).not.toHaveAttribute("open");
    await userEvent.click(screen.getByRole("button", { name: "Save" }));
    expect(screen.getByText("Advanced").closest("details")).toHaveAttribute("open");
    const port = screen.getByRole("textbox", { name: "gRPC port" });
    expect(port).toHaveAccessibleDescription(/gRPC port must be a number from 1 to 65535/);
    await vi.waitFor(() => expect(port).toHaveFocus());
  });

  it("a saved connection lacking a field its plugin added since shows that field's default", () => {
    const saved = connectionForm({ id: "c1", name: "Old" });
    delete saved.values.sslMode;
    renderForm(saved);
    expect(screen.getByRole("combobox", { name: "SSL Mode" })).toHaveValue("Disabled");
  });

  it("Escape cancels", async () => {
    const { onCancel } = renderForm(connectionForm());
    await userEvent.keyboard("{Escape}");
    expect(onCancel).toHaveBeenCalled();
  });
});

describe("edit form actions", () => {
  it("an edited connection can be duplicated and deleted from the form; a new one cannot", async () => {
    const onDuplicate = vi.fn();
    const onDelete = vi.fn();
    const api = fakeApi(async () => []);
    const { unmount } = render(
      <ApiProvider api={api}>
        <ConnectionFormPanel initial={connectionForm({ id: "c1", name: "Cloud" })} onSaved={() => {}} onCancel={() => {}} onDuplicate={onDuplicate} onDelete={onDelete} />
      </ApiProvider>,
    );
    await userEvent.click(await screen.findByRole("button", { name: "Duplicate" }));
    await userEvent.click(screen.getByRole("button", { name: "Delete" }));
    expect(onDuplicate).toHaveBeenCalledTimes(1);
    expect(onDelete).toHaveBeenCalledTimes(1);
    unmount();
    render(
      <ApiProvider api={api}>
        <ConnectionFormPanel initial={connectionForm()} onSaved={() => {}} onCancel={() => {}} onDuplicate={onDuplicate} onDelete={onDelete} />
      </ApiProvider>,
    );
    await screen.findByRole("button", { name: "Save" });
    expect(screen.queryByRole("button", { name: "Delete" })).not.toBeInTheDocument();
  });
});

// Contract 3, item 1: the form is the plugin's description and nothing else. A type the
// host has never heard of, with one field of each kind, gets a control of that kind for
// each, its defaults, its checks named at the field, and its secrets sent apart.
describe("a form from a description alone", () => {
  const testdb: ConnectionDescription = {
    types: [{ name: "testdb", label: "Test DB", summary: "" }],
    settings: [
      { key: "path", label: "File", kind: "path", default: "", placeholder: "/data/x.db", help: "The database file", required: true, section: "", options: [], optionHelp: {}, min: 0, max: 0, format: "" },
      { key: "mode", label: "Mode", kind: "enum", default: "ro", placeholder: "", help: "", required: true, section: "", options: ["ro", "rw"], optionHelp: { rw: "Writes allowed" }, min: 0, max: 0, format: "" },
      { key: "timeout", label: "Timeout", kind: "int", default: "5", placeholder: "", help: "", required: false, section: "Advanced", options: [], optionHelp: {}, min: 1, max: 60, format: "" },
      { key: "wal", label: "Use WAL", kind: "bool", default: "", placeholder: "", help: "Write-ahead log", required: false, section: "Advanced", options: [], optionHelp: {}, min: 0, max: 0, format: "" },
      { key: "note", label: "Note", kind: "text", default: "", placeholder: "anything", help: "", required: false, section: "", options: [], optionHelp: {}, min: 0, max: 0, format: "" },
      { key: "password", label: "Password", kind: "secret", default: "", placeholder: "", help: "", required: true, section: "", options: [], optionHelp: {}, min: 0, max: 0, format: "", showWhen: { key: "mode", in: ["rw"] } },
    ],
    suggestions: [],
    address: ["path"],
    url: read("driver.URLForm", { schemes: ["testdb"], example: "testdb:///home/me/shop.db?mode=ro" }),
  };
  const blank = (): ConnectionForm => ({ id: "", name: "", type: "testdb", values: { mode: "ro", timeout: "5" }, externalAccess: "readWrite", aiPolicy: "askForWrites", savedSecrets: [] });

  it("renders each kind as its control, with the description's defaults and words", async () => {
    const chooseFile = vi.fn(async () => "/home/me/shop.db");
    renderForm(blank(), { connections: { chooseFile } }, testdb);
    expect(screen.getByRole("heading", { name: "New Test DB connection" })).toBeInTheDocument();
    expect(screen.getByRole("textbox", { name: "File" })).toHaveAccessibleDescription("The database file");
    expect(screen.getByRole("combobox", { name: "Mode" })).toHaveValue("ro");
    expect(screen.getByRole("textbox", { name: "Timeout" })).toHaveValue("5");
    expect(screen.getByRole("checkbox", { name: "Use WAL" })).not.toBeChecked();
    expect(screen.getByRole("textbox", { name: "Note" })).toHaveAttribute("placeholder", "anything");
    expect(screen.queryByLabelText("Password")).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Choose File" }));
    expect(chooseFile).toHaveBeenCalledWith("File");
    expect(screen.getByRole("textbox", { name: "File" })).toHaveValue("/home/me/shop.db");
    await userEvent.selectOptions(screen.getByRole("combobox", { name: "Mode" }), "rw");
    expect(screen.getByRole("combobox", { name: "Mode" })).toHaveAccessibleDescription("Writes allowed");
    expect(screen.getByLabelText("Password")).toHaveAttribute("type", "password");
  });

  it("takes the settings a Test changed with the person's Yes (a missing file created) before it saves", async () => {
    const test = vi.fn(async () => ({ serverVersion: "", paths: [], changed: { wal: "true" } }));
    const save = vi.fn(async () => ({ ...connectionForm(), id: "n1", name: "Shop", createdAt: "", skipTLSVerify: false }));
    renderForm({ ...blank(), name: "Shop", values: { ...blank().values, path: "/data/new.db" } }, { connections: { test, save: save as never } }, testdb);
    expect(screen.getByRole("checkbox", { name: "Use WAL" })).not.toBeChecked();
    await userEvent.click(screen.getByRole("button", { name: "Test" }));
    expect(await screen.findByText(/Connected/)).toBeInTheDocument();
    expect(screen.getByRole("checkbox", { name: "Use WAL" })).toBeChecked();
  });

  it("fills the fields and the secret from a connection URL as the backend reads it, and names a URL it refuses at its field", async () => {
    const fromURL = vi.fn(async (_type: string, url: string) => {
      if (url.includes("colour")) throw 'invalid_argument: the URL\'s parameter "colour" is not one these connections take (cache, mode)';
      return { values: { path: "/data/shop.db", mode: "rw" }, secrets: { password: "from-url" } };
    });
    const save = vi.fn(async () => ({ ...connectionForm(), id: "n1", name: "Shop", createdAt: "", skipTLSVerify: false }));
    renderForm(blank(), { connections: { fromURL, save: save as never } }, testdb);
    const url = screen.getByRole("textbox", { name: "Connection URL" });
    expect(url).toHaveAttribute("placeholder", "testdb:///home/me/shop.db?mode=ro");
    await userEvent.type(url, "testdb:///data/shop.db?colour=red{Enter}");
    expect(url).toHaveAccessibleDescription(/"colour" is not one these connections take/);
    expect(screen.getByRole("textbox", { name: "File" })).toHaveValue("");
    await userEvent.clear(url);
    await userEvent.type(url, "testdb://:from-url@/data/shop.db?mode=rw");
    await userEvent.click(screen.getByRole("button", { name: "Fill" }));
    expect(fromURL).toHaveBeenLastCalledWith("testdb", "testdb://:from-url@/data/shop.db?mode=rw");
    expect(screen.getByRole("textbox", { name: "File" })).toHaveValue("/data/shop.db");
    expect(screen.getByRole("combobox", { name: "Mode" })).toHaveValue("rw");
    expect(screen.getByLabelText("Password")).toHaveValue("from-url");
    expect(url).toHaveValue("");
    await userEvent.type(screen.getByRole("textbox", { name: "Name" }), "Shop");
    await userEvent.click(screen.getByRole("button", { name: "Save" }));
    expect(save).toHaveBeenCalledWith(expect.objectContaining({ values: { path: "/data/shop.db", mode: "rw", timeout: "5" } }), { password: "from-url" });
  });

  it("checks each field as described, at the field, and sends secrets apart from the values", async () => {
    const save = vi.fn(async () => ({ ...connectionForm(), id: "n1", name: "Shop", createdAt: "", skipTLSVerify: false }));
    renderForm(blank(), { connections: { save: save as never } }, testdb);
    await userEvent.type(screen.getByRole("textbox", { name: "Name" }), "Shop");
    await userEvent.click(screen.getByRole("button", { name: "Save" }));
    expect(screen.getByRole("textbox", { name: "File" })).toHaveAccessibleDescription(/File is required/);
    await userEvent.type(screen.getByRole("textbox", { name: "File" }), "/data/shop.db");
    const timeout = screen.getByRole("textbox", { name: "Timeout" });
    await userEvent.clear(timeout);
    await userEvent.type(timeout, "99");
    await userEvent.click(screen.getByRole("button", { name: "Save" }));
    expect(timeout).toHaveAccessibleDescription(/Timeout must be a number from 1 to 60, or empty for the default/);
    await userEvent.clear(timeout);
    await userEvent.selectOptions(screen.getByRole("combobox", { name: "Mode" }), "rw");
    await userEvent.click(screen.getByRole("button", { name: "Save" }));
    expect(screen.getByLabelText("Password")).toHaveAccessibleDescription(/Enter the Password, or change Mode/);
    await userEvent.type(screen.getByLabelText("Password"), "s3cret");
    await userEvent.click(screen.getByRole("checkbox", { name: "Use WAL" }));
    await userEvent.click(screen.getByRole("button", { name: "Save" }));
    expect(save).toHaveBeenCalledWith(
      expect.objectContaining({ type: "testdb", values: { path: "/data/shop.db", mode: "rw", timeout: "", wal: "true" } }),
      { password: "s3cret" },
    );
  });
});
