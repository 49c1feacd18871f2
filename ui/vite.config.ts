import { defineConfig } from "vitest/config";

// Built into ui/dist, which the Tauri shell embeds; everything is served locally.
export default defineConfig({
  clearScreen: false,
  base: "./",
  // The words come from the catalogue the core reads too (src/words.ts).
  server: { fs: { allow: [".", "../crates/evident-words/catalogue"] } },
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
