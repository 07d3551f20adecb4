// 19-console: no page of the specs on the Weaviate nodes (01 to 14) logged an error in its
// console in this run (lib.mjs keeps them; the PostgreSQL and SQLite specs check their own).
// Wails' browser IPC shim (/wails/ipc.js, dev server only) throws one TypeError at load,
// which is left out.
import { test } from "@playwright/test";
import { assert, consoleErrors } from "./lib.mjs";

test("no errors in the page console", async () => {
  const errors = consoleErrors("ui");
  assert(errors.length === 0, errors.join(" | "));
});
