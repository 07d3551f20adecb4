import { act, fireEvent, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { ApiError, ApiProvider, type ApprovalsApi } from "../../api";
import { fakeApi } from "../../test/fakeApi";
import { ApprovalNotices } from "./ApprovalNotices";

function renderNotices(approvals: Partial<ApprovalsApi> = {}) {
  const api = fakeApi(async () => [], {}, { approvals });
  render(
    <ApiProvider api={api}>
      <ApprovalNotices />
    </ApiProvider>,
  );
  return api;
}

const grant = { ticket: "t1", client: "Claude Code 2.1", connection: "notes", token: "laptop" };

describe("ApprovalNotices", () => {
  it("offers to remember an approval for its connection, and remembers it by its ticket", async () => {
    const remember = vi.fn(async () => {});
    const api = renderNotices({ remember });
    act(() => api.emitGranted(grant));
    expect(screen.getByText("Approved Claude Code 2.1's statement on notes")).toBeTruthy();
    await userEvent.click(screen.getByRole("button", { name: "Remember for notes until App restarts" }));
    expect(remember).toHaveBeenCalledWith("t1");
    expect(screen.queryByText(/Approved Claude Code/)).toBeNull();
  });

  it("dismissing forgets nothing and remembers nothing", async () => {
    const remember = vi.fn(async () => {});
    const api = renderNotices({ remember });
    act(() => api.emitGranted(grant));
    await userEvent.click(screen.getByRole("button", { name: "Dismiss the approval notice for notes" }));
    expect(remember).not.toHaveBeenCalled();
    expect(screen.queryByRole("status")).toBeNull();
  });

  it("says why an approval could not be remembered", async () => {
    const api = renderNotices({ remember: async () => Promise.reject(new ApiError("internal", "that approval can no longer be remembered")) });
    act(() => api.emitGranted(grant));
    await userEvent.click(screen.getByRole("button", { name: "Remember for notes until App restarts" }));
    expect(screen.getByRole("alert").textContent).toContain("that approval can no longer be remembered");
  });

  it("reports the window's focus and blur, for the desktop notification of a waiting approval", () => {
    const setFocused = vi.fn(async () => {});
    const hasFocus = vi.spyOn(document, "hasFocus").mockReturnValue(true);
    renderNotices({ setFocused });
    fireEvent.blur(window);
    fireEvent.focus(window);
    expect(setFocused.mock.calls).toEqual([[true], [false], [true]]);
    hasFocus.mockRestore();
  });

  it("reports where the focus starts: a window that opens unfocused says so at once", () => {
    const setFocused = vi.fn(async () => {});
    const hasFocus = vi.spyOn(document, "hasFocus").mockReturnValue(false);
    renderNotices({ setFocused });
    expect(setFocused.mock.calls).toEqual([[false]]);
    hasFocus.mockRestore();
  });
});
