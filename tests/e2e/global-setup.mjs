// global-setup.mjs makes the run's scratch directory (APP_E2E_RUN_DIR, which every worker
// inherits): which specs started already, and the pages' console errors (lib.mjs). It is
// removed when the run ends.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export default function globalSetup() {
  const dir = mkdtempSync(join(tmpdir(), "app-e2e-run-"));
  process.env.APP_E2E_RUN_DIR = dir;
  return () => rmSync(dir, { recursive: true, force: true });
}
