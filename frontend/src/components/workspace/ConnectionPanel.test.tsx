import { render, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { ApiProvider } from "../../api";
import type { OpenedState } from "../opened/useOpened";
import { connection, fakeApi, weaviateCapabilities } from "../../test/fakeApi";
import { ConnectionPanel } from "./ConnectionPanel";

const ready = (nodes: boolean): Extract<OpenedState, { status: "ready" }> => ({
  status: "ready",
  serverVersion: "1.35.2",
  capabilities: { ...weaviateCapabilities, nodes },
  tables: [],
  counts: null,
});

// Contract 3, item 1: what a driver lacks is not offered, rather than refused after a click.
describe("the connection page shows the optional features its driver declares", () => {
  it.each([
    [true, 1],
    [false, 0],
  ])("nodes declared %s: the cluster's nodes are read %i times", async (nodes, reads) => {
    const read = vi.fn(async () => []);
    render(
      <ApiProvider api={fakeApi(async () => [], { nodes: read })}>
        <ConnectionPanel connection={connection()} state={ready(nodes)} onReconnect={() => {}} onDisconnect={() => {}} onOpenTable={() => {}} />
      </ApiProvider>,
    );
    await screen.findByRole("heading", { level: 2 });
    await new Promise((r) => setTimeout(r, 20));
    expect(read).toHaveBeenCalledTimes(reads);
  });
});

describe("the connection page lists the settings its driver describes", () => {
  it("shows each described setting by its label, and nothing its driver does not describe", async () => {
    const c = connection({ type: "testdb", typeLabel: "Test DB", address: "/data/shop.db", settings: [{ label: "Open mode", value: "read-write" }] });
    render(
      <ApiProvider api={fakeApi(async () => [])}>
        <ConnectionPanel connection={c} onReconnect={() => {}} onDisconnect={() => {}} onOpenTable={() => {}} />
      </ApiProvider>,
    );
    expect(await screen.findByText("Open mode")).toBeInTheDocument();
    expect(screen.getByText("read-write")).toBeInTheDocument();
    expect(screen.getByText("/data/shop.db")).toBeInTheDocument();
    expect(screen.queryByText("SSL Mode")).not.toBeInTheDocument();
    expect(screen.queryByText("Auth Method")).not.toBeInTheDocument();
  });
});

// Issue 40, item 7: a connection that reaches its database another way than the usual says so
// in its status line, in the driver's words; the usual way says nothing more.
describe("the connection page's status line says how the database is reached", () => {
  it.each([
    ["gRPC over gRPC-Web on the REST port (127.0.0.1:50051 does not answer)", true],
    ["", false],
  ])("route %j shown: %s", async (route, shown) => {
    render(
      <ApiProvider api={fakeApi(async () => [])}>
        <ConnectionPanel connection={connection()} state={{ ...ready(false), serverVersion: "1.39.0", route }} onReconnect={() => {}} onDisconnect={() => {}} onOpenTable={() => {}} />
      </ApiProvider>,
    );
    const line = await screen.findByText(/^Connected/);
    expect(line.textContent).toBe(shown ? `Connected · server 1.39.0 · ${route} · 0 collections` : "Connected · server 1.39.0 · 0 collections");
  });
});
