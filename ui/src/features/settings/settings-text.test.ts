import { describe, expect, it } from "vitest";
import type { EmbeddingStatus, RerankStatus } from "../../bindings";
import { setLang } from "../../i18n";
import { PROMPT_FAMILIES, promptLabel, promptText } from "./embeddings-section";
import { rerankStatusText } from "./rerank-section";

function status(overrides: Partial<EmbeddingStatus>): EmbeddingStatus {
  return {
    state: "ready",
    base_url: "http://127.0.0.1:11434/v1",
    model: "embeddinggemma",
    has_key: false,
    prompt: null,
    prompt_in_use: "embedding-gemma",
    embedded: 10,
    total: 10,
    message: null,
    ...overrides,
  };
}

describe("settings wording", () => {
  it("says which prompts are in use and whether they were recognised or chosen", () => {
    setLang("en");
    expect(promptText(status({}))).toBe("Recognised from the model's name: EmbeddingGemma (task: … | query: / title: … | text:)");
    expect(promptText(status({ prompt: "none", prompt_in_use: "none" }))).toBe("none (texts as they are)");
    expect(promptText(status({ prompt_in_use: null }))).toBe("");
    setLang("zh-CN");
    expect(promptText(status({ prompt: "e5", prompt_in_use: "e5" }))).toBe("e5（query: / passage:）");
    for (const f of PROMPT_FAMILIES) {
      expect(promptLabel(f), f).not.toMatch(/^prompt_/);
    }
  });

  it("says whether a reranker orders the passages", () => {
    setLang("en");
    const off: RerankStatus = { state: "off", base_url: null, model: null, has_key: false, message: null };
    expect(rerankStatusText(off)).toBe("No reranker: passages keep their order.");
    expect(rerankStatusText({ ...off, state: "on", model: "bge-reranker-v2-m3", base_url: "http://h:1/v1" })).toContain("bge-reranker-v2-m3 at http://h:1/v1");
    expect(rerankStatusText({ ...off, state: "error", message: "https is not spoken" })).toContain("https is not spoken");
  });
});
