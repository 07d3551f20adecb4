import { describe, expect, it } from "vitest";
import { nextPreference, readPreference, resolveTheme, THEME_STORAGE_KEY } from "./theme";

describe("theme", () => {
  it("follows prefers-color-scheme when the preference is system", () => {
    expect(resolveTheme("system", true)).toBe("dark");
    expect(resolveTheme("system", false)).toBe("light");
  });

  it("an explicit choice overrides the system setting", () => {
    expect(resolveTheme("light", true)).toBe("light");
    expect(resolveTheme("dark", false)).toBe("dark");
  });

  it("the toggle cycles system, light, dark", () => {
    expect(nextPreference("system")).toBe("light");
    expect(nextPreference("light")).toBe("dark");
    expect(nextPreference("dark")).toBe("system");
  });

  it("reads a stored preference and ignores junk", () => {
    const store = (v: string | null) => ({ getItem: (k: string) => (k === THEME_STORAGE_KEY ? v : null) });
    expect(readPreference(store("dark"))).toBe("dark");
    expect(readPreference(store("purple"))).toBe("system");
    expect(readPreference(store(null))).toBe("system");
    expect(readPreference(undefined)).toBe("system");
    expect(
      readPreference({
        getItem: () => {
          throw new Error("denied");
        },
      }),
    ).toBe("system");
  });
});
