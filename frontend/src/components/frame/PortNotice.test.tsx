import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { ApiProvider, type MCPSettings } from "../../api";
import { fakeApi, fakeSettings } from "../../test/fakeApi";
import { PortNotice } from "./PortNotice";

describe("PortNotice (issue 25, item 10)", () => {
  it("after a fallback, names the clients to re-pair and opens Settings", async () => {
    const base = await fakeSettings().mcp();
    const fellBack: MCPSettings = {
      ...base,
      boundPort: 23818,
      portNotice: "Port 23817 is taken by another program, so App listens on 23818.",
      staleClients: [{ client: "cursor", title: "Cursor", file: "/home/me/.cursor/mcp.json", url: "http://127.0.0.1:23817/mcp" }],
    };
    let started: () => void = () => {};
    let state = base;
    const open = vi.fn();
    render(
      <ApiProvider
        api={fakeApi(async () => [], {}, {
          settings: {
            mcp: async () => state,
            onStarted: (cb) => {
              started = cb;
              return () => {};
            },
          },
        })}
      >
        <PortNotice onOpenSettings={open} />
      </ApiProvider>,
    );
    // The window opened before the backend started: nothing to say yet.
    expect(screen.queryByRole("status", { name: "MCP port" })).not.toBeInTheDocument();
    state = fellBack;
    started();
    const notice = await screen.findByRole("status", { name: "MCP port" });
    expect(notice).toHaveTextContent("MCP server moved to port 23818");
    expect(notice).toHaveTextContent("Cursor cannot reach App until it is re-paired.");
    await userEvent.click(screen.getByRole("button", { name: "Re-pair in Settings" }));
    expect(open).toHaveBeenCalledOnce();
    expect(screen.queryByRole("status", { name: "MCP port" })).not.toBeInTheDocument();
  });
});
