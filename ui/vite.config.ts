import { defineConfig } from "vitest/config";

// Built into ui/dist, which the Tauri shell embeds; everything is served locally.
export default defineConfig({
  clearScreen: false,
  base: "./",
  build: {
    outDir: "dist",
    emptyOutDir: true,
    target: "es2022",
    // pdf.js is large by nature; it is one local file, loaded on first PDF view.
    chunkSizeWarningLimit: 1500,
  },
  test: {
    environment: "jsdom",
    include: ["src/**/*.test.ts"],
  },
});
