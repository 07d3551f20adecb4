import "@testing-library/jest-dom/vitest";
import { cleanup, configure } from "@testing-library/react";
import { afterEach } from "vitest";

// The machine is shared and sometimes busy: give findBy*/waitFor more than the default 1 s
// before calling a state missing. Passing tests do not wait longer for it.
configure({ asyncUtilTimeout: 5000 });

afterEach(() => {
  cleanup();
  window.localStorage.clear();
});
