import { act, renderHook } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { ApiError } from "../../api";
import { deferred } from "../../test/fakeApi";
import { useAction } from "./useAction";

describe("useAction, the write side", () => {
  it("is busy while the action runs, then runs onDone with its result and resolves true", async () => {
    const { result } = renderHook(() => useAction());
    const d = deferred<number>();
    const onDone = vi.fn();
    let done: Promise<boolean> = Promise.resolve(false);
    act(() => {
      done = result.current.run(() => d.promise, onDone);
    });
    expect(result.current.busy).toBe(true);
    await act(async () => d.resolve(7));
    expect(await done).toBe(true);
    expect(onDone).toHaveBeenCalledWith(7);
    expect(result.current.busy).toBe(false);
    expect(result.current.error).toBeNull();
  });

  it("keeps why it failed (the backend's error as it is, anything else as a message), resolves false and skips onDone", async () => {
    const { result } = renderHook(() => useAction());
    const onDone = vi.fn();
    let ok = true;
    await act(async () => {
      ok = await result.current.run(() => Promise.reject(new ApiError("invalid_argument", "a token named claude already exists")), onDone);
    });
    expect(ok).toBe(false);
    expect(onDone).not.toHaveBeenCalled();
    expect(result.current.error?.message).toBe("a token named claude already exists");
    expect(result.current.busy).toBe(false);
    await act(async () => {
      await result.current.run(() => Promise.reject(new Error("disk full")));
    });
    expect(result.current.error?.message).toContain("disk full");
  });

  it("a failing onDone (reading the result back) is the action's failure too", async () => {
    const { result } = renderHook(() => useAction());
    await act(async () => {
      await result.current.run(
        () => Promise.resolve(1),
        () => Promise.reject(new ApiError("unavailable", "the list could not be read")),
      );
    });
    expect(result.current.error?.message).toBe("the list could not be read");
  });

  it("a new run clears the last error, and clear does too", async () => {
    const { result } = renderHook(() => useAction());
    await act(async () => {
      await result.current.run(() => Promise.reject(new ApiError("internal", "no")));
    });
    expect(result.current.error).not.toBeNull();
    const d = deferred<void>();
    act(() => {
      void result.current.run(() => d.promise);
    });
    expect(result.current.error).toBeNull();
    await act(async () => d.resolve());
    await act(async () => {
      await result.current.run(() => Promise.reject(new ApiError("internal", "no")));
    });
    act(() => result.current.clear());
    expect(result.current.error).toBeNull();
  });

  it("an action that ends after the component is gone sets nothing", async () => {
    const { result, unmount } = renderHook(() => useAction());
    const d = deferred<void>();
    let done: Promise<boolean> = Promise.resolve(true);
    act(() => {
      done = result.current.run(() => d.promise);
    });
    unmount();
    const spy = vi.spyOn(console, "error").mockImplementation(() => {});
    d.reject(new Error("late"));
    expect(await done).toBe(false);
    expect(spy).not.toHaveBeenCalled();
    spy.mockRestore();
  });
});
