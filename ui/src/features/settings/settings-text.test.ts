import { describe, expect, it } from "vitest";
import type { EmbeddingStatus, RerankStatus } from "../../bindings";
import { setLang } from "../../i18n";
import { PROMPT_FAMILIES, builtinText, promptLabel, promptText, statusText } from "./embeddings-section";
import { isolationText } from "./isolation-section";
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
    sentences: 10,
    total: 10,
    seconds_left: null,
    message: null,
    why: null,
    builtin: null,
    builtin_settings: { enabled: true, file: null },
    models_dir: "/home/u/.local/share/app.evident.desktop/models",
    ...overrides,
  };
}

describe("settings wording", () => {
  it("says how far the embedding pass has come, and never '0 of 0' before it has counted", () => {
    setLang("en");
    expect(statusText(status({ state: "embedding", embedded: 3, total: 11 }))).toBe(
      "Embedding passages with embeddinggemma: 3 of 11. Passages not embedded yet are found by keyword only.",
    );
    const starting = statusText(status({ state: "embedding", embedded: 0, total: 0 }));
    expect(starting).toBe("Starting embeddinggemma and counting the passages to embed. Keyword search only until it finishes.");
    setLang("zh-CN");
    expect(statusText(status({ state: "embedding", embedded: 0, total: 0 }))).toContain("仅做关键词检索");
  });

  it("says how long the rest of the embedding pass will take, once there is a rate", () => {
    setLang("en");
    expect(statusText(status({ state: "embedding", embedded: 320, total: 1254, seconds_left: 281 }))).toBe(
      "Embedding passages with embeddinggemma: 320 of 1254. Passages not embedded yet are found by keyword only. " +
        "About 5 min left at the rate so far.",
    );
    expect(statusText(status({ state: "embedding", embedded: 8, total: 20, seconds_left: 12 }))).toContain(
      "About 12 s left",
    );
    expect(statusText(status({ state: "embedding", embedded: 8, total: 90000, seconds_left: 4 * 3600 + 61 }))).toContain(
      "About 4 h 2 min left",
    );
    setLang("zh-CN");
    expect(statusText(status({ state: "embedding", embedded: 320, total: 1254, seconds_left: 281 }))).toBe(
      "正在用 embeddinggemma 嵌入段落：320 / 1254。尚未嵌入的段落只能按关键词检索。按目前的速度，预计还需 5 分钟。",
    );
  });

  it("says when every passage is found by meaning and their sentences are being embedded", () => {
    setLang("en");
    expect(statusText(status({ state: "embedding", embedded: 1254, sentences: 40, total: 1254, seconds_left: 700 }))).toBe(
      "Meaning search covers all 1254 passages (embeddinggemma). Now embedding their sentences, so that answers lead " +
        "with the right one: 40 of 1254. About 12 min left at the rate so far.",
    );
    setLang("zh-CN");
    expect(statusText(status({ state: "embedding", embedded: 1254, sentences: 40, total: 1254, seconds_left: null }))).toBe(
      "语义检索已覆盖全部 1254 个段落（embeddinggemma）。正在嵌入各段的句子，以便答案以最贴切的句子开头：40 / 1254。",
    );
  });

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

  it("says which built-in model is in use, where it was found, its size and licence", () => {
    setLang("en");
    const gemma = {
      file: "/m/embeddinggemma-300m-q8_0.gguf",
      found: "folder" as const,
      ollama_name: null,
      name: "embeddinggemma-300m",
      architecture: "gemma-embedding",
      size: 333_591_360,
      size_label: "300M",
      license: "gemma",
      licence_file: null,
      unconfined: null,
    };
    expect(builtinText(status({ base_url: null, builtin: gemma }))).toBe(
      "embeddinggemma-300m (gemma-embedding, 300M, 334 MB), found in Evident's models folder. Licence: gemma.",
    );
    // A kernel that could not confine the worker fully is said, with what it lacked.
    expect(builtinText(status({ base_url: null, builtin: { ...gemma, unconfined: "Landlock not enforced, seccomp on" } }))).toContain(
      "could not fully confine the model's worker (Landlock not enforced, seccomp on)",
    );
    expect(builtinText(status({ base_url: null, builtin: { ...gemma, found: "ollama", ollama_name: "embeddinggemma:latest", license: null } }))).toContain(
      "among Ollama's models (embeddinggemma:latest). Licence: not stated in the file.",
    );
    expect(builtinText(status({ builtin: gemma }))).toBe("A server is set up, so it is used instead.");
    expect(builtinText(status({ base_url: null, builtin_settings: { enabled: false, file: null } }))).toContain("keyword search only");
    setLang("zh-CN");
    expect(builtinText(status({ base_url: null, builtin: gemma }))).toContain("来源：Evident 的模型文件夹");
  });

  it("says a stopped embeddings server in Chinese in the zh-CN window, the server's own words kept", () => {
    setLang("zh-CN");
    const why = {
      code: "server" as const,
      params: { kind: "unreachable" as const, url: "http://127.0.0.1:9/v1", status: null, detail: "connection refused", remembered: null },
    };
    const text = statusText(status({ state: "error", message: "no model server answers at http://127.0.0.1:9/v1", why }));
    expect(text).toContain("http://127.0.0.1:9/v1 没有模型服务器应答");
    expect(text).toContain("（connection refused）");
    expect(text).not.toContain("no model server");
    setLang("en");
  });

  it("says whether a reranker orders the passages", () => {
    setLang("en");
    const off: RerankStatus = { state: "off", base_url: null, model: null, has_key: false, message: null, why: null };
    expect(rerankStatusText(off)).toBe("No reranker: passages keep their order.");
    expect(rerankStatusText({ ...off, state: "on", model: "bge-reranker-v2-m3", base_url: "http://h:1/v1" })).toContain("bge-reranker-v2-m3 at http://h:1/v1");
    expect(rerankStatusText({ ...off, state: "error", message: "https is not spoken" })).toContain("https is not spoken");
  });

  it("says the readers of PDFs and scans are confined, or names what this system could not enforce", () => {
    setLang("en");
    expect(isolationText({ pdf: null, ocr: null })).toEqual([
      "PDF files and scans are read in separate processes that can open no other file, reach no network and run no other program.",
    ]);
    const old = isolationText({ pdf: "Landlock not enforced, seccomp on", ocr: null });
    expect(old).toHaveLength(1);
    expect(old[0]).toContain("could not fully confine the process that reads PDF files (Landlock not enforced, seccomp on)");
    setLang("zh-CN");
    const both = isolationText({ pdf: "Landlock not enforced, seccomp on", ocr: "Landlock not enforced, seccomp off" });
    expect(both).toHaveLength(2);
    expect(both[1]).toContain("读取扫描件的子进程（Landlock not enforced, seccomp off）");
    setLang("en");
  });
});
