import { defineConfig } from "vitest/config";

// Built into ui/dist, which the Tauri shell embeds; everything is served locally.
export default defineConfig({
  clearScreen: false,
  base: "./",
  build: {
    outDir: "dist",
    emptyOutDir: true,
    target: "es2022",
  },
  test: {
    environment: "jsdom",
    include: ["src/**/*.test.ts"],
  },
});
