import { describe, expect, it } from "vitest";
import type { Answer, Source } from "../../bindings";
import { setLang } from "../../i18n";
import { renderAnswer } from "./answer-view";

function source(n: number, text: string): Source {
  return {
    n,
    chunk_id: n,
    doc_id: n,
    doc_path: `/docs/${n}.md`,
    title: `Doc ${n}`,
    kind: "markdown",
    heading: "第二章 费用报销",
    page_start: 1,
    page_end: 1,
    char_start: 0,
    char_end: text.length,
    text,
    highlight: { char_start: 0, char_end: 5, passage_char_start: 0, passage_char_end: 5, text: text.slice(0, 5) },
    score: 1,
    in_context: true,
    matched_terms: [],
    why: { keyword: n, passage_vector: null, sentence_vector: null, cosine: null, sentence_cosine: null, rerank: null, fused: 1 },
  };
}

function answer(overrides: Partial<Answer> = {}): Answer {
  return {
    status: "answered",
    question: "单笔报销超过多少需要审批？",
    text: "",
    sentences: [
      { text: "单笔报销超过20,000元的，须经分管副总经理审批。", start: 0, end: 10, citations: [1], verdict: "supported", reasons: [], support: null, location: null, reason_codes: [] },
      { text: "报销超过8000元须审批。", start: 10, end: 20, citations: [2], verdict: "unsupported", reasons: ["8000 does not appear in [2]"], support: null, location: null, reason_codes: [] },
      { text: "部分内容。", start: 20, end: 25, citations: [1], verdict: "partially_supported", reasons: ["2 of its 4 key words appear in [1]"], support: null, location: null, reason_codes: [] },
    ],
    notes: [],
    not_found_reason: null,
    reason: null,
    note_codes: [],
    sources: [source(1, "单笔报销超过20,000元的，须经分管副总经理审批。"), source(2, "<script>window.pwned = true</script><img src=x onerror=alert(1)>")],
    context: { budget_tokens: 1500, used_tokens: 10, included: [1, 2], neighbours: [], truncated: [] },
    timings_ms: { search: 1, compose: 1, ground: 1, total: 3 },
    retrieval: { used: "keyword", model: null, note: null, embed_ms: 0, note_code: null, reranker: null, rerank_note: null, rerank_ms: 0, sentences_by_meaning: false },
    evidence: { coverage: 0.8, sentence_coverage: 0.8, agreement: null, standout: null, top_cosine: null, unmentioned: [], fit: 0.9, terms_found: 0.8 },
    mode: "extractive",
    fallback: null,
    fallback_reason: null,
    generation: null,
    ...overrides,
  };
}

describe("renderAnswer", () => {
  const run = (draft: Answer["sentences"] = []) => ({
    model: "smollm2 (http://127.0.0.1:8080/v1)",
    first_text_ms: 300,
    total_ms: 900,
    finish_reason: "stop",
    passages: [1, 2],
    raw_text: "<b>raw</b>",
    draft,
  });

  it("says a model wrote the answer, and which", () => {
    setLang("en");
    const el = renderAnswer(answer({ mode: "generated", generation: run() }), { onCite: () => {} });
    expect(el.querySelector("[data-testid=written-by]")?.textContent).toContain("smollm2");
    expect(el.querySelector("[data-testid=fallback]")).toBeNull();
  });

  it("says why the model's answer was not used, with its draft checked and inert", () => {
    setLang("en");
    const draft = [
      { text: "Annual leave is <img src=x onerror=alert(1)> 3 days.", start: 0, end: 10, citations: [], verdict: "unsupported" as const, reasons: [], support: null, location: null, reason_codes: [{ code: "uncited_unsupported" as const }] },
    ];
    const el = renderAnswer(
      answer({ fallback: { code: "model_cited_nothing" }, fallback_reason: "x", generation: run(draft) }),
      { onCite: () => {} },
    );
    const note = el.querySelector("[data-testid=fallback]");
    expect(note?.textContent).toContain("cites no passage");
    const red = note?.querySelectorAll("[data-testid=answer-sentence][data-verdict=unsupported]") ?? [];
    expect(red.length).toBe(1);
    expect(note?.querySelector("img")).toBeNull();
    expect(el.querySelector("[data-testid=written-by]")).toBeNull();
    // The extractive answer is still there.
    expect(el.querySelectorAll(":scope > .answer-text > [data-testid=answer-sentence]").length).toBe(3);
  });

  it("marks every sentence with its verdict, not by colour alone", () => {
    const el = renderAnswer(answer(), { onCite: () => {} });
    const sentences = [...el.querySelectorAll<HTMLElement>("[data-testid=answer-sentence]")];
    expect(sentences.map((s) => s.dataset.verdict)).toEqual(["supported", "unsupported", "partially_supported"]);
    const red = sentences[1];
    expect(red?.classList.contains("verdict-unsupported")).toBe(true);
    expect(red?.querySelector(".verdict-icon")?.textContent).toBe("⚠");
    expect(red?.textContent).toContain("8000 does not appear in [2]");
    expect(red?.getAttribute("tabindex")).toBe("0");
    const tooltip = red?.querySelector("[role=tooltip]");
    expect(tooltip?.id).toBe(red?.getAttribute("aria-describedby"));
  });

  it("says what each colour knows: matches, partly matches, not found, contradicted by [n]", () => {
    const el = renderAnswer(answer(), { onCite: () => {} });
    const labels = [...el.querySelectorAll("[data-testid=answer-sentence] [role=tooltip] strong")].map((s) => s.textContent);
    expect(labels).toEqual(["Matches the cited passage", "Not found in the cited passage", "Partly matches the cited passage"]);
    const contradicted = answer();
    contradicted.sentences = contradicted.sentences.map((s, i) =>
      i === 1 ? { ...s, reason_codes: [{ code: "negates_source" as const, params: { n: 2 } }] } : s,
    );
    const red = renderAnswer(contradicted, { onCite: () => {} }).querySelectorAll("[role=tooltip] strong")[1];
    expect(red?.textContent).toBe("Contradicted by [2]");
    // How often each colour was wrong on the blind claims, one click away.
    const help = el.querySelector<HTMLDetailsElement>("[data-testid=colour-help]");
    expect(help?.open).toBe(false);
    expect(help?.textContent).toMatch(/27% of the sentences shown as matching were in fact mistaken/);
  });

  it("turns citations into chips that open their source", () => {
    const opened: number[] = [];
    const el = renderAnswer(answer(), { onCite: (s) => opened.push(s.n) });
    const chips = [...el.querySelectorAll<HTMLButtonElement>("[data-testid=citation]")];
    expect(chips.map((c) => c.dataset.n)).toEqual(["1", "2", "1"]);
    chips[1]?.click();
    expect(opened).toEqual([2]);
  });

  it("renders document text as text: markup in a source runs nothing", () => {
    const el = renderAnswer(answer(), { onCite: () => {} });
    document.body.append(el);
    expect(el.querySelector("script")).toBeNull();
    expect(el.querySelector("img")).toBeNull();
    expect(el.textContent).toContain("<script>window.pwned = true</script>");
    expect((window as unknown as { pwned?: boolean }).pwned).toBeUndefined();
  });

  it("shows not found as its own state with the related passages folded away", () => {
    const el = renderAnswer(answer({ status: "not_found", sentences: [], not_found_reason: "the closest passages miss key words" }), {
      onCite: () => {},
    });
    expect(el.querySelector("[data-testid=not-found]")?.textContent).toContain("the closest passages miss key words");
    expect(el.querySelectorAll("[data-testid=answer-sentence]")).toHaveLength(0);
    const closest = el.querySelector("[data-testid=closest]");
    expect(closest?.tagName).toBe("DETAILS");
    expect(closest?.hasAttribute("open")).toBe(false);
    expect(closest?.querySelectorAll("[data-testid=source]")).toHaveLength(2);
    expect(el.querySelectorAll("[data-testid=source]")).toHaveLength(2);
  });

  it("shows an uncertain answer as its reason and the closest passages, folded, with no answer-like sentence", () => {
    setLang("en");
    const sources = [
      { ...source(1, "公司年会由行政部组织。"), matched_terms: ["公司", "年会"] },
      source(2, "其他内容。"),
      source(3, "第三段。"),
    ];
    const el = renderAnswer(answer({ status: "uncertain", sources, not_found_reason: "they may not answer your question" }), {
      onCite: () => {},
    });
    const banner = el.querySelector("[data-testid=uncertain]");
    expect(banner?.getAttribute("role")).toBe("status");
    expect(banner?.textContent).toContain("they may not answer your question");
    expect(el.classList.contains("uncertain-state")).toBe(true);
    // Nothing a skimming reader takes for the answer.
    expect(el.querySelector(".answer-text")).toBeNull();
    expect(el.querySelectorAll("[data-testid=answer-sentence]")).toHaveLength(0);
    expect(el.querySelectorAll("[data-testid=citation]")).toHaveLength(0);
    // The closest passages, one per passage, closed, the question's words marked.
    const closest = el.querySelector("[data-testid=closest]");
    expect(closest?.tagName).toBe("DETAILS");
    expect(closest?.hasAttribute("open")).toBe(false);
    expect(closest?.querySelector("summary")?.textContent).toBe("Closest passages (3)");
    const listed = [...(closest?.querySelectorAll<HTMLElement>("[data-testid=source]") ?? [])];
    expect(listed.map((b) => b.dataset.n)).toEqual(["1", "2", "3"]);
    expect(el.querySelectorAll("[data-testid=source]")).toHaveLength(3);
    const marked = [...(listed[0]?.querySelectorAll(".snippet .term") ?? [])].map((m) => m.textContent);
    expect(marked).toEqual(["公司", "年会"]);
  });

  it("says the closest passages in Chinese in the Chinese window", () => {
    setLang("zh-CN");
    try {
      const el = renderAnswer(answer({ status: "uncertain" }), { onCite: () => {} });
      expect(el.querySelector("[data-testid=closest] summary")?.textContent).toBe("最接近的段落（2）");
    } finally {
      setLang("en");
    }
  });

  it("says nothing about the context budget when nothing was answered", () => {
    setLang("en");
    const note_codes: Answer["note_codes"] = [
      { code: "over_budget", params: { passages: [5], budget: 1500 } },
      { code: "sources_differ", params: { a: 1, b: 2 } },
    ];
    const notes = ["Passages [5] did not fit in the context budget of 1500 tokens and were not used.", "Note: ..."];
    const budget = (el: HTMLElement) => [...el.querySelectorAll(".note")].some((n) => n.textContent?.includes("context budget"));
    const answered = renderAnswer(answer({ note_codes, notes }), { onCite: () => {} });
    expect(budget(answered)).toBe(true);
    const uncertain = renderAnswer(answer({ status: "uncertain", note_codes, notes }), { onCite: () => {} });
    expect(budget(uncertain)).toBe(false);
    expect(uncertain.textContent).not.toContain("context budget");
    // Other notes stay.
    expect([...uncertain.querySelectorAll(".note")].map((n) => n.textContent)).toHaveLength(1);
    const notFound = renderAnswer(answer({ status: "not_found", sentences: [], note_codes, notes }), { onCite: () => {} });
    expect(notFound.textContent).not.toContain("context budget");
    // Stored answers with English notes only.
    const old = renderAnswer(answer({ status: "uncertain", note_codes: [], notes }), { onCite: () => {} });
    expect(old.textContent).not.toContain("context budget");
    expect(old.querySelectorAll(".note")).toHaveLength(1);
  });

  it("folds a model's unsupported sentences away, still marked red", () => {
    setLang("en");
    const sentences = [
      { text: "The first prize is a car.", start: 0, end: 10, citations: [1], verdict: "unsupported" as const, reasons: [], support: null, location: null, reason_codes: [{ code: "uncited_unsupported" as const }] },
    ];
    const generation = {
      model: "smollm2",
      first_text_ms: 300,
      total_ms: 900,
      finish_reason: "stop",
      passages: [1, 2],
      raw_text: "The first prize is a car. [1]",
      draft: [],
    };
    const el = renderAnswer(answer({ status: "uncertain", mode: "generated", generation, sentences }), { onCite: () => {} });
    const folded = el.querySelector("[data-testid=model-unsupported]");
    expect(folded?.tagName).toBe("DETAILS");
    expect(folded?.hasAttribute("open")).toBe(false);
    expect(folded?.querySelector("summary")?.textContent).toBe("What the model wrote (not supported by your documents)");
    const all = [...el.querySelectorAll("[data-testid=answer-sentence]")];
    expect(all).toHaveLength(1);
    expect(all.every((s) => folded?.contains(s))).toBe(true);
    expect(all[0]?.getAttribute("data-verdict")).toBe("unsupported");
    expect([...el.querySelectorAll("[data-testid=citation]")].every((c) => folded?.contains(c))).toBe(true);
    expect(el.querySelector(".answer-text")).toBeNull();
    expect(el.querySelector("[data-testid=closest]")).not.toBeNull();
  });

  it("lists the cited sources first and folds the others away", () => {
    const sources = [source(1, "甲"), source(2, "乙"), source(3, "丙")];
    const sentences = [
      { text: "甲。", start: 0, end: 3, citations: [1], verdict: "supported" as const, reasons: [], support: null, location: "第八条", reason_codes: [] },
    ];
    const el = renderAnswer(answer({ sources, sentences }), { onCite: () => {} });
    const folded = el.querySelector("[data-testid=also-retrieved]");
    expect(folded?.hasAttribute("open")).toBe(false);
    expect([...(folded?.querySelectorAll<HTMLElement>("[data-testid=source]") ?? [])].map((b) => b.dataset.n)).toEqual(["2", "3"]);
    const first = el.querySelector<HTMLElement>("[data-testid=source]");
    expect(first?.dataset.n).toBe("1");
    expect(el.querySelector("[data-testid=sentence-location]")?.textContent).toBe("第八条");
    expect(el.querySelector(".sentence-text")?.textContent).toBe("甲。");
  });

  it("says a flagged sentence's reasons in the window's language", () => {
    setLang("zh-CN");
    try {
      const sentences = [
        {
          text: "报销超过8000元须审批。",
          start: 0,
          end: 10,
          citations: [1],
          verdict: "unsupported" as const,
          reasons: ["8000 does not appear in [1]"],
          support: null,
          location: null,
          reason_codes: [{ code: "number_missing" as const, params: { value: "8000", n: 1 } }],
        },
      ];
      const el = renderAnswer(answer({ sentences, note_codes: [{ code: "sources_differ", params: { a: 1, b: 2 } }], notes: ["Note: ..."] }), { onCite: () => {} });
      expect(el.querySelector(".sentence .reason")?.textContent).toBe("[1] 中没有 8000");
      expect(el.querySelector(".note")?.textContent).toContain("来自不同文件");
    } finally {
      setLang("en");
    }
  });

  it("names the places the documents never mention as the reason for doubt", () => {
    const evidence = { coverage: 0.9, sentence_coverage: 0.5, agreement: 0.6, standout: null, top_cosine: null, unmentioned: ["New York City"], fit: 0.3, terms_found: 0.9 };
    const el = renderAnswer(answer({ status: "uncertain", evidence }), { onCite: () => {} });
    expect(el.querySelector("[data-testid=uncertain] .reason")?.textContent).toContain("New York City");
  });

  it("says when search was keyword-only, and why", () => {
    const note = "no embeddings server is set up; keyword search only";
    const el = renderAnswer(
      answer({ retrieval: { used: "keyword", model: null, note, embed_ms: 0, note_code: null, reranker: null, rerank_note: null, rerank_ms: 0, sentences_by_meaning: false } }),
      { onCite: () => {} },
    );
    expect(el.querySelector("[data-testid=retrieval-note]")?.textContent).toContain(note);
  });

  it("explains a passage's ranks only when meaning search took part", () => {
    const hybrid = source(1, "单笔报销超过20,000元的，须经分管副总经理审批。");
    hybrid.why = { keyword: null, passage_vector: 2, sentence_vector: 1, cosine: 0.9, sentence_cosine: 0.93, rerank: null, fused: 0.1742 };
    const el = renderAnswer(answer({ sources: [hybrid, source(2, "其他")] }), { onCite: () => {} });
    const why = el.querySelectorAll("[data-testid=why]");
    expect(why).toHaveLength(1);
    expect(why[0]?.textContent).toContain("#2");
    expect(why[0]?.textContent).toContain("0.1742");
    expect(why[0]?.textContent).toContain("—");
  });

  it("shows the reranker's place, and why a reranker that is set up was not used", () => {
    setLang("en");
    const reranked = source(1, "单笔报销超过20,000元的，须经分管副总经理审批。");
    reranked.why = { keyword: 3, passage_vector: null, sentence_vector: null, cosine: null, sentence_cosine: null, rerank: 1, fused: 0.07 };
    const el = renderAnswer(answer({ sources: [reranked] }), { onCite: () => {} });
    const why = el.querySelector("[data-testid=why]");
    expect(why?.textContent).toContain("reranker rank");
    expect(why?.textContent).toContain("#1");
    const failed = renderAnswer(
      answer({
        retrieval: {
          used: "keyword",
          model: null,
          note: null,
          embed_ms: 0,
          note_code: null,
          reranker: null,
          rerank_note: {
            code: "rerank_unusable",
            params: { detail: "the model server at http://127.0.0.1:8012/v1 did not answer in time", why: null },
          },
          rerank_ms: 30000,
          sentences_by_meaning: false,
        },
      }),
      { onCite: () => {} },
    );
    const note = failed.querySelector("[data-testid=rerank-note]")?.textContent ?? "";
    expect(note).toContain("the reranker could not be used");
    expect(note).toContain("did not answer in time");
  });
});
