// What a keyboard or screen-reader user meets: a second Enter does not ask twice, Esc
// closes a sentence's reasons before the source viewer, and the viewer takes the focus
// when it opens and gives it back when it closes.

import { describe, expect, it, vi } from "vitest";
import type { DocumentView, Retrieval, SentenceVerdict, Source } from "./bindings";
import { dismissReasons, renderSentence } from "./components/sentences";
import { AskPage } from "./features/ask/ask-page";
import { SourceViewer } from "./features/source/source-viewer";

const asked = vi.hoisted(() => ({ count: 0, finish: [] as (() => void)[] }));
vi.mock("./ipc", () => ({
  ipc: {
    ask: () => {
      asked.count++;
      return new Promise((resolve) => asked.finish.push(() => resolve({ answer: null, history_id: 1 })));
    },
    locateSource: (s: Source) =>
      Promise.resolve({
        doc_id: s.doc_id,
        status: "same",
        char_start: s.char_start,
        char_end: s.char_end,
        highlight_start: s.highlight.char_start,
        highlight_end: s.highlight.char_end,
      }),
    documentView: (id: number): Promise<DocumentView> =>
      Promise.resolve({
        document: {
          id,
          path: `/docs/${id}.txt`,
          kind: "text",
          title: `Doc ${id}`,
          sha256: "",
          size_bytes: 4,
          mtime: null,
          page_count: 1,
          imported_at: 0,
          status: "indexed",
          warnings: [],
          warned: [],
          chunker_version: 1,
          chunks: 1,
          missing: false,
        },
        text: "Text of the document",
        pages: [{ page_no: 1, char_start: 0, char_end: 20 }],
        layout: null,
        layout_note: null,
      }),
  },
}));

const settle = () => new Promise((r) => setTimeout(r, 0));

function source(): Source {
  return {
    n: 1,
    chunk_id: 1,
    doc_id: 1,
    doc_path: "/docs/1.txt",
    title: "Doc 1",
    kind: "text",
    heading: "",
    page_start: 1,
    page_end: 1,
    char_start: 0,
    char_end: 4,
    text: "Text",
    highlight: { char_start: 0, char_end: 4, passage_char_start: 0, passage_char_end: 4, text: "Text" },
    score: 1,
    in_context: true,
    matched_terms: [],
    why: { keyword: 1, passage_vector: null, sentence_vector: null, cosine: null, sentence_cosine: null, rerank: null, fused: 1 },
  };
}

describe("keyboard", () => {
  it("a second Enter while a question is being answered does not ask it again", async () => {
    const viewer = new SourceViewer(() => {});
    const retrieval: Retrieval = { k: 5, answer_line: null };
    const page = new AskPage(viewer, () => retrieval, () => {}, () => {});
    document.body.append(page.element);
    page.input.value = "年假有几天？";
    const enter = () => page.input.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", bubbles: true }));
    enter();
    enter();
    await settle();
    expect(asked.count).toBe(1);
    asked.finish.forEach((f) => f());
    asked.finish.length = 0;
    page.element.remove();
  });

  it("Esc closes a flagged sentence's reasons first", () => {
    const verdict = {
      text: "Employees get 30 days.",
      verdict: "unsupported",
      citations: [1],
      reasons: ["30 does not appear in [1]"],
      reason_codes: [],
      support: null,
      location: null,
    } as unknown as SentenceVerdict;
    const sentence = renderSentence(verdict, () => {});
    document.body.append(sentence);
    sentence.focus();
    // jsdom has no style sheet: the reasons show while the sentence has the focus.
    expect(dismissReasons()).toBe(true);
    expect(sentence.classList.contains("reasons-dismissed")).toBe(true);
    expect(dismissReasons()).toBe(false);
    sentence.dispatchEvent(new FocusEvent("blur"));
    expect(sentence.classList.contains("reasons-dismissed")).toBe(false);
    sentence.remove();
  });

  it("the source viewer takes the focus and gives it back to the citation on close", async () => {
    const viewer = new SourceViewer(() => {});
    document.body.append(viewer.element);
    const chip = document.createElement("button");
    document.body.append(chip);
    chip.focus();
    await viewer.open(source());
    expect(viewer.element.contains(document.activeElement)).toBe(true);
    viewer.close();
    expect(document.activeElement).toBe(chip);
    // Closed by a new question (focus in the question box): the focus stays there.
    const box = document.createElement("textarea");
    document.body.append(box);
    await viewer.open(source());
    box.focus();
    viewer.close();
    expect(document.activeElement).toBe(box);
    viewer.element.remove();
    chip.remove();
    box.remove();
  });
});
