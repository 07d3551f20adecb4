// complete-lockfile.mjs: add the lockfile entries npm left out for Rollup's native
// packages of other platforms, so `npm ci` accepts package-lock.json on every OS.
//
// Why: npm 11 validates that every optional dependency Rollup names has an entry in the
// lockfile. A registry mirror that serves only this machine's platform package (as on the
// development box this project started on) makes `npm install` skip the others silently,
// and `npm ci` then fails with "Missing: @rollup/rollup-<platform>@ from lock file". The
// entries added here carry version, os, cpu and libc (derived from the package name, as
// Rollup publishes them); npm skips them on other platforms and fetches the one it needs.
//
// Usage (after any change to the dependencies): node scripts/complete-lockfile.mjs
import { readFileSync, writeFileSync } from "node:fs";

const LOCK = new URL("../package-lock.json", import.meta.url);
const lock = JSON.parse(readFileSync(LOCK, "utf8"));
const pkgs = lock.packages;

const OS = { android: "android", darwin: "darwin", freebsd: "freebsd", linux: "linux", openbsd: "openbsd", openharmony: "openharmony", win32: "win32" };

// "@rollup/rollup-linux-arm-musleabihf" -> { os: linux, cpu: arm, libc: musl }
function platformOf(name) {
  const m = /^@rollup\/rollup-([a-z0-9]+)-([a-z0-9]+)(?:-([a-z0-9]+))?$/.exec(name);
  if (!m || !OS[m[1]]) return null;
  const [, os, cpu, abi] = m;
  const entry = { os: [OS[os]], cpu: [cpu] };
  if (os === "linux" && abi) entry.libc = [abi.startsWith("musl") ? "musl" : "glibc"];
  return entry;
}

let added = 0;
for (const [path, meta] of Object.entries(pkgs)) {
  for (const [name, version] of Object.entries(meta.optionalDependencies ?? {})) {
    const at = (path === "" ? "" : path + "/") + "node_modules/" + name;
    if (pkgs[at] || pkgs["node_modules/" + name]) continue;
    const platform = platformOf(name);
    if (!platform) {
      console.error(`complete-lockfile: ${name}@${version} (optional dependency of ${path || "the root"}) is missing and is not a Rollup native package; fix the lockfile by hand.`);
      process.exit(1);
    }
    if (!/^\d+\.\d+\.\d+$/.test(version)) {
      console.error(`complete-lockfile: ${name} is wanted as "${version}", not an exact version; cannot complete it.`);
      process.exit(1);
    }
    pkgs["node_modules/" + name] = { version, ...platform, dev: meta.dev || undefined, license: "MIT", optional: true };
    added++;
  }
}

if (added === 0) {
  console.log("complete-lockfile: nothing missing.");
  process.exit(0);
}

// Keep npm's own order: packages sorted by path. (`npm install` afterwards normalises the
// key order inside each entry.)
lock.packages = Object.fromEntries(Object.entries(pkgs).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a < b ? -1 : a > b ? 1 : 0)));
writeFileSync(LOCK, JSON.stringify(lock, null, 2) + "\n");
console.log(`complete-lockfile: added ${added} entr${added === 1 ? "y" : "ies"}.`);
