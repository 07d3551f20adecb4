import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { ApiError, ApiProvider } from "../../api";
import { fakeApi } from "../../test/fakeApi";
import { PluginsSettings } from "./PluginsSettings";

function renderPlugins(more: Parameters<typeof fakeApi>[2] = {}) {
  const api = fakeApi(async () => [], {}, more);
  render(
    <ApiProvider api={api}>
      <PluginsSettings />
    </ApiProvider>,
  );
  return api;
}

describe("Settings, Plugins (SPEC A.3)", () => {
  it("lists the registry's plugins with installed and available versions; install, then uninstall", async () => {
    renderPlugins();
    const row = await screen.findByRole("listitem", { name: "Weaviate" });
    expect(row).toHaveTextContent("not installed");
    expect(row).toHaveTextContent("Available: 1.0.0 (5.3 MB)");
    await userEvent.click(within(row).getByRole("button", { name: "Install Weaviate" }));
    expect(await within(row).findByRole("button", { name: "Uninstall Weaviate" })).toBeInTheDocument();
    expect(row).toHaveTextContent("Installed: 1.0.0");
    await userEvent.click(within(row).getByRole("button", { name: "Uninstall Weaviate" }));
    expect(await within(row).findByRole("button", { name: "Install Weaviate" })).toBeInTheDocument();
  });

  it("says when the app's own copy of the registry answered (the online one could not be reached)", async () => {
    renderPlugins({
      plugins: {
        list: async () => ({
          plugins: [
            {
              name: "weaviate",
              displayName: "Weaviate",
              description: "",
              publisher: "App",
              installed: "2.0.0",
              available: "2.0.0",
              size: 1,
              releaseNotes: "",
              status: "installed",
              reason: "",
              fromMirror: true,
            },
          ],
          registryError: "",
        }),
      },
    });
    const row = await screen.findByRole("listitem", { name: "Weaviate" });
    expect(row).toHaveTextContent("From the app's own copy of the registry: the online registry could not be reached");
  });

  it("a failed install shows its reason beside the plugin", async () => {
    renderPlugins({
      plugins: {
        install: async () => {
          throw new ApiError("plugin", "The plugin registry at 127.0.0.1 is signed with key 0123, which this app does not trust.");
        },
      },
    });
    const row = await screen.findByRole("listitem", { name: "Weaviate" });
    await userEvent.click(within(row).getByRole("button", { name: "Install Weaviate" }));
    expect(await within(row).findByRole("alert")).toHaveTextContent("which this app does not trust");
  });

  it("an unreadable registry is said, and the installed plugins are listed anyway", async () => {
    renderPlugins({
      plugins: {
        list: async () => ({
          plugins: [
            {
              name: "weaviate",
              displayName: "",
              description: "",
              publisher: "",
              installed: "1.0.0",
              available: "",
              size: 0,
              releaseNotes: "",
              status: "installed",
              reason: "",
              fromMirror: false,
            },
          ],
          registryError: "The plugin registry at 127.0.0.1:9 cannot be reached.",
        }),
      },
    });
    expect(await screen.findByRole("alert")).toHaveTextContent("cannot be reached");
    expect(screen.getByRole("listitem", { name: "weaviate" })).toHaveTextContent("Installed: 1.0.0");
  });
});
