// The Playwright Test runner's configuration for the e2e specs (*.spec.mjs), run by
// e2e_test.go against the servers and the `wails dev` app it started (README.md). One worker
// runs the spec files one after the other in the order of their names (the numbers in front),
// all on the one dev app; each spec opens its own page (lib.mjs, useApp). A failed test does
// not stop the tests after it: the runner starts the spec's worker again and goes on with the
// next test. reporter.mjs prints one JSON line per test, the lines e2e_test.go makes subtests of.
import { defineConfig } from "@playwright/test";
import { join } from "node:path";
import { chromiumLaunchOptions } from "./chromium.mjs";

export default defineConfig({
  testDir: ".",
  testMatch: /\.spec\.mjs$/,
  workers: 1,
  fullyParallel: false,
  retries: 0,
  // A guard against a hang only: a test's own waits are much shorter (the Map's layout waits
  // up to 4 minutes on a loaded machine).
  timeout: 10 * 60_000,
  globalSetup: "./global-setup.mjs",
  reporter: [["./reporter.mjs"]],
  outputDir: join(process.env.APP_E2E_ARTIFACTS || ".", "playwright-output"),
  use: {
    browserName: "chromium",
    launchOptions: chromiumLaunchOptions(),
    headless: true,
    actionTimeout: 30_000,
    navigationTimeout: 30_000,
  },
});
