import { act, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { ApiError, ApiProvider, type PluginOffer } from "../../api";
import { deferred, fakeApi } from "../../test/fakeApi";
import { NewConnectionPanel } from "./NewConnectionPanel";

function offer(overrides: Partial<PluginOffer>): PluginOffer {
  return {
    plugin: "weaviate",
    displayName: "Weaviate",
    description: "",
    publisher: "App",
    installed: false,
    version: "1.0.0",
    size: 5_545_060,
    releaseNotes: "",
    unavailable: "",
    fromMirror: false,
    ...overrides,
  };
}

function renderPanel(more: Parameters<typeof fakeApi>[2] = {}) {
  const api = fakeApi(async () => [], {}, more);
  const onSaved = vi.fn();
  const onCancel = vi.fn();
  render(
    <ApiProvider api={api}>
      <NewConnectionPanel onSaved={onSaved} onCancel={onCancel} />
    </ApiProvider>,
  );
  return { api, onSaved, onCancel };
}

describe("connection-type chooser (SPEC A.3)", () => {
  it("choosing Weaviate while its plugin is missing offers the download (name, version, size, publisher) before the form", async () => {
    renderPanel();
    await userEvent.click(await screen.findByRole("button", { name: /Weaviate/ }));
    const offer = await screen.findByRole("dialog", { name: "Download the Weaviate driver" });
    expect(offer).toHaveTextContent("1.0.0");
    expect(offer).toHaveTextContent("5.3 MB");
    expect(offer).toHaveTextContent("App");
    expect(screen.queryByRole("textbox", { name: "Host" })).not.toBeInTheDocument();
  });

  it("says when the download comes from the app's own copy of the registry (issue 20)", async () => {
    renderPanel({ plugins: { offer: async () => offer({ fromMirror: true }) } });
    await userEvent.click(await screen.findByRole("button", { name: /Weaviate/ }));
    const dialog = await screen.findByRole("dialog", { name: "Download the Weaviate driver" });
    expect(dialog).toHaveTextContent("From the app's own copy of the registry");
  });

  it("declining the offer returns to the chooser", async () => {
    renderPanel();
    await userEvent.click(await screen.findByRole("button", { name: /Weaviate/ }));
    await userEvent.click(await screen.findByRole("button", { name: "Back" }));
    expect(screen.getByRole("list", { name: "Database types" })).toBeInTheDocument();
  });

  it("accepting shows the download's progress, then opens the form", async () => {
    const install = deferred<{ plugin: string; version: string; previous: string; changed: boolean; available: string }>();
    const { api } = renderPanel({ plugins: { install: () => install.promise } });
    await userEvent.click(await screen.findByRole("button", { name: /Weaviate/ }));
    await userEvent.click(await screen.findByRole("button", { name: /Download \(5.3 MB\) and continue/ }));
    act(() => api.emitProgress({ plugin: "weaviate", version: "1.0.0", done: 2_772_530, total: 5_545_060, connectionId: "", fromMirror: false }));
    const bar = await screen.findByRole("progressbar", { name: "Downloading Weaviate 1.0.0" });
    expect(bar).toHaveAttribute("aria-valuenow", "50");
    await act(async () => install.resolve({ plugin: "weaviate", version: "1.0.0", previous: "", changed: true, available: "" }));
    expect(await screen.findByRole("textbox", { name: "Host" })).toHaveValue("localhost");
  });

  it("a refused download says why and offers to try again; nothing opens", async () => {
    renderPanel({
      plugins: {
        install: async () => {
          throw new ApiError("plugin", "The download of weaviate 1.0.0 does not match the registry's SHA-256. Nothing was installed.");
        },
      },
    });
    await userEvent.click(await screen.findByRole("button", { name: /Weaviate/ }));
    await userEvent.click(await screen.findByRole("button", { name: /Download/ }));
    expect(await screen.findByRole("alert")).toHaveTextContent("does not match the registry's SHA-256");
    expect(screen.getByRole("button", { name: "Try again" })).toBeInTheDocument();
    expect(screen.queryByRole("textbox", { name: "Host" })).not.toBeInTheDocument();
  });

  it("a plugin with no build for this platform is named as not available, with no download button", async () => {
    renderPanel({
      plugins: {
        offer: async () => offer({ version: "", size: 0, unavailable: "no build for linux/riscv64" }),
      },
    });
    await userEvent.click(await screen.findByRole("button", { name: /Weaviate/ }));
    expect(await screen.findByRole("alert")).toHaveTextContent("Not available for this platform: no build for linux/riscv64");
    expect(screen.queryByRole("button", { name: /Download/ })).not.toBeInTheDocument();
  });

  it("an installed plugin opens the form at once", async () => {
    renderPanel({
      plugins: {
        offer: async () => offer({ installed: true, size: 0 }),
      },
    });
    await userEvent.click(await screen.findByRole("button", { name: /Weaviate/ }));
    expect(await screen.findByRole("textbox", { name: "Host" })).toBeInTheDocument();
    expect(screen.queryByRole("textbox", { name: /Database/ })).not.toBeInTheDocument();
  });
});
