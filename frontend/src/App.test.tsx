import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { ApiProvider } from "./api";
import { App } from "./App";
import { connection, fakeApi } from "./test/fakeApi";

function renderApp() {
  const api = fakeApi(async () => [
    connection({ id: "a", name: "Local Weaviate" }),
    connection({ id: "b", name: "Staging", port: 8081 }),
  ]);
  render(
    <ApiProvider api={api}>
      <App />
    </ApiProvider>,
  );
}

describe("App shell", () => {
  it("has a header with the app name, the connection sidebar and a welcome panel", async () => {
    renderApp();
    expect(screen.getByRole("heading", { level: 1, name: "App" })).toBeInTheDocument();
    expect(await screen.findByRole("tree", { name: "Saved connections" })).toBeInTheDocument();
    expect(screen.getByText("Welcome to App")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: /Settings/ })).toBeInTheDocument();
  });

  it("Enter opens the selected connection in a tab; closing the tab returns to the welcome panel", async () => {
    renderApp();
    await screen.findByRole("tree");
    await userEvent.keyboard("{ArrowDown}{Enter}");
    expect(screen.getByRole("tab", { name: "Staging" })).toHaveAttribute("aria-selected", "true");
    expect(screen.getByRole("heading", { level: 2, name: "Staging" })).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Close Staging" }));
    expect(screen.queryByRole("tab")).not.toBeInTheDocument();
    expect(screen.getByText("Welcome to App")).toBeInTheDocument();
  });

  it("the theme toggle cycles and sets <html data-theme>; Settings can choose it too", async () => {
    renderApp();
    await screen.findByRole("tree");
    const toggle = screen.getByRole("button", { name: /System theme/ });
    await userEvent.click(toggle);
    expect(document.documentElement.dataset.theme).toBe("light");
    await userEvent.click(screen.getByRole("button", { name: /Light theme/ }));
    expect(document.documentElement.dataset.theme).toBe("dark");
    expect(window.localStorage.getItem("app.theme")).toBe("dark");

    await userEvent.keyboard("{Control>},{/Control}");
    expect(screen.getByRole("tab", { name: "Settings" })).toBeInTheDocument();
    await userEvent.click(screen.getByRole("radio", { name: "Light" }));
    expect(document.documentElement.dataset.theme).toBe("light");
  });
});
