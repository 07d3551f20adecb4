import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { ApiError, ApiProvider } from "../../api";
import { fakeApi, fakeSettings } from "../../test/fakeApi";
import { MCPServerSettings } from "./MCPServerSettings";

function renderSettings(more: Parameters<typeof fakeApi>[2] = {}) {
  render(
    <ApiProvider api={fakeApi(async () => [], {}, more)}>
      <MCPServerSettings />
    </ApiProvider>,
  );
}

describe("Settings, MCP server (issue 11)", () => {
  it("shows the status line and the settings; a switch applies at once", async () => {
    renderSettings();
    expect(await screen.findByRole("status", { name: "MCP server status" })).toHaveTextContent("Running on 127.0.0.1:23817");
    const run = screen.getByRole("checkbox", { name: "Run the MCP server" });
    expect(run).toBeChecked();
    await userEvent.click(run);
    expect(await screen.findByRole("status", { name: "MCP server status" })).toHaveTextContent("Stopped (the server is turned off)");
    expect(screen.getByRole("checkbox", { name: "Run the MCP server" })).not.toBeChecked();
    expect(screen.getByRole("checkbox", { name: /Require a token/ })).toBeChecked();
    expect(screen.getByLabelText("Maximum row limit")).toHaveValue("10000");
  });

  it("issue 25: turning Require a token off says that paired clients become the anonymous, read-only caller", async () => {
    renderSettings();
    const require = await screen.findByRole("checkbox", { name: /Require a token/ });
    expect(screen.queryByRole("note")).not.toBeInTheDocument();
    await userEvent.click(require);
    expect(await screen.findByRole("note")).toHaveTextContent(/paired ones included, is the anonymous caller, which only reads/);
    await userEvent.click(screen.getByRole("checkbox", { name: /Require a token/ }));
    await waitFor(() => expect(screen.queryByRole("note")).not.toBeInTheDocument());
  });

  it("a number is applied on Enter; a refused one is named and the field keeps what was typed", async () => {
    renderSettings({
      settings: {
        setMCP: async (key, value) => {
          throw new ApiError("invalid_argument", `mcp.${key} must be between 1 and 10000, got ${value}`);
        },
      },
    });
    const max = await screen.findByLabelText("Maximum row limit");
    await userEvent.clear(max);
    await userEvent.type(max, "20000{Enter}");
    expect(await screen.findByRole("alert")).toHaveTextContent("mcp.maxRowLimit must be between 1 and 10000, got 20000");
    expect(max).toHaveValue("20000");
  });
});

describe("Settings, MCP server switches", () => {
  it("a switch shows its new state before the answer, and goes back when the change is refused", async () => {
    let release!: () => void;
    renderSettings({
      settings: {
        setMCP: (key) =>
          new Promise((_, reject) => {
            release = () => reject(new ApiError("internal", `cannot write mcp.${key}`));
          }),
      },
    });
    const req = await screen.findByRole("checkbox", { name: /Require a token/ });
    await userEvent.click(req);
    expect(req).not.toBeChecked();
    release();
    expect(await screen.findByRole("alert")).toHaveTextContent("cannot write mcp.requireAuth");
    expect(req).toBeChecked();
  });

  it("changes are sent in order, and a refused one puts back only its own switch", async () => {
    const base = fakeSettings();
    let refuse!: () => void;
    const sent: string[] = [];
    renderSettings({
      settings: {
        ...base,
        setMCP: (key, value) => {
          sent.push(key);
          if (key === "requireAuth") return new Promise((_, reject) => (refuse = () => reject(new ApiError("internal", "cannot write mcp.requireAuth"))));
          return base.setMCP(key, value);
        },
      },
    });
    const req = await screen.findByRole("checkbox", { name: /Require a token/ });
    const ext = screen.getByRole("checkbox", { name: /Allow AI clients/ });
    await userEvent.click(req);
    await userEvent.click(ext);
    expect(req).not.toBeChecked();
    expect(ext).not.toBeChecked();
    // The second change waits for the first one's answer.
    expect(sent).toEqual(["requireAuth"]);
    refuse();
    expect(await screen.findByRole("alert")).toHaveTextContent("cannot write mcp.requireAuth");
    await waitFor(() => expect(sent).toEqual(["requireAuth", "externalAccess"]));
    expect(req).toBeChecked();
    await waitFor(() => expect(screen.getByRole("checkbox", { name: /Allow AI clients/ })).not.toHaveAttribute("aria-busy"));
    expect(ext).not.toBeChecked();
  });
});

describe("Settings, MCP server: a taken port (issue 25, item 10)", () => {
  it("names the clients set up with the old port and re-pairs them in one click", async () => {
    const settings = fakeSettings();
    const first = await settings.mcp();
    const fellBack = {
      ...first,
      boundPort: 23818,
      status: "Running on 127.0.0.1:23818",
      portNotice: "Port 23817 is taken by another program, so App listens on 23818.",
      staleClients: [
        { client: "cursor", title: "Cursor", file: "/home/me/.cursor/mcp.json", url: "http://127.0.0.1:23817/mcp" },
        { client: "vscode", title: "VS Code", file: "/home/me/.config/Code/User/mcp.json", url: "http://127.0.0.1:23817/mcp" },
      ],
    };
    let repairs = 0;
    renderSettings({
      settings: {
        mcp: async () => fellBack,
        repairClients: async () => {
          repairs++;
          return {
            repaired: fellBack.staleClients.map((c) => ({ title: c.title, file: c.file, backup: `${c.file}.bak-1`, error: "" })),
            settings: { ...fellBack, staleClients: [] },
          };
        },
      },
    });
    const region = await screen.findByRole("region", { name: "Clients to re-pair" });
    expect(region).toHaveTextContent("Port 23817 is taken by another program");
    expect(region).toHaveTextContent("These 2 clients point at another port");
    expect(region).toHaveTextContent("Cursor (/home/me/.cursor/mcp.json: http://127.0.0.1:23817/mcp)");
    await userEvent.click(screen.getByRole("button", { name: "Re-pair 2 clients" }));
    const done = await screen.findByRole("list", { name: "Re-paired clients" });
    expect(done).toHaveTextContent("Cursor: now points at port 23818 (backup /home/me/.cursor/mcp.json.bak-1)");
    expect(screen.queryByRole("button", { name: /Re-pair/ })).not.toBeInTheDocument();
    expect(repairs).toBe(1);
  });

  it("says nothing when every client reaches the server", async () => {
    renderSettings();
    await screen.findByRole("status", { name: "MCP server status" });
    expect(screen.queryByRole("region", { name: "Clients to re-pair" })).not.toBeInTheDocument();
  });
});
