/// <reference types="vitest/config" />
import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";

// The Go binary embeds frontend/dist (main.go: //go:embed all:frontend/dist). dist/.gitkeep is
// tracked so a fresh clone compiles before the first build; public/.gitkeep puts the same empty
// file back after every build, so building leaves git clean.
export default defineConfig({
  plugins: [react()],
  build: {
    outDir: "dist",
    emptyOutDir: true,
    target: "es2022",
  },
  server: {
    // wails dev reads the dev server URL from Vite's output (frontend:dev:serverUrl "auto").
    strictPort: false,
  },
  test: {
    environment: "jsdom",
    globals: true,
    setupFiles: ["./src/test/setup.ts"],
    include: ["src/**/*.test.{ts,tsx}"],
    css: false,
    testTimeout: 20_000,
  },
});
