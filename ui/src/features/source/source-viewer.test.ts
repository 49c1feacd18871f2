import { afterEach, describe, expect, it, vi } from "vitest";
import type { DocumentView, Located, Source } from "../../bindings";
import { keepRecent, SourceViewer, type Target } from "./source-viewer";

// The document views the viewer asks for, answered when a test says so.
const pending = vi.hoisted(() => new Map<number, (view: DocumentView) => void>());
// Where the backend finds each source now (by default: where it was).
const located = vi.hoisted(() => new Map<number, Located | null>());
// The PDF pages the viewer asks for, answered at once with a page that holds "Text".
const pagesAsked = vi.hoisted(() => [] as number[]);
vi.mock("../../ipc", () => ({
  ipc: {
    pdfPage: (id: number, page: number) => {
      pagesAsked.push(id);
      const json = new TextEncoder().encode(
        JSON.stringify({ page, page_count: 2, width: 100, height: 140, boxes: [{ text: "Text", x: 1, y: 1, w: 50, h: 9 }], text_note: null }),
      );
      const out = new Uint8Array(4 + json.length + 4);
      new DataView(out.buffer).setUint32(0, json.length, true);
      out.set(json, 4);
      return Promise.resolve(out.buffer);
    },
    documentView: (id: number) => new Promise<DocumentView>((resolve) => pending.set(id, resolve)),
    locateSource: (s: Source) =>
      Promise.resolve(
        located.has(s.doc_id)
          ? located.get(s.doc_id)
          : {
              doc_id: s.doc_id,
              status: "same",
              char_start: s.char_start,
              char_end: s.char_end,
              highlight_start: s.highlight.char_start,
              highlight_end: s.highlight.char_end,
            },
      ),
  },
}));

function view(id: number, text: string): DocumentView {
  return {
    document: {
      id,
      path: `/docs/${id}.txt`,
      kind: "text",
      title: `Doc ${id}`,
      sha256: "",
      size_bytes: text.length,
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
    text,
    pages: [{ page_no: 1, char_start: 0, char_end: text.length }],
    layout: null,
    layout_note: null,
  };
}

function target(id: number): Target {
  return {
    n: 1,
    chunk_id: id * 10,
    doc_id: id,
    doc_path: `/docs/${id}.txt`,
    title: `Doc ${id}`,
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

/** Lets the viewer's awaits after a resolved view run. */
const settle = () => new Promise((r) => setTimeout(r, 0));

describe("keepRecent", () => {
  it("keeps the most recently used entries and hands the others back to be freed", () => {
    const map = new Map<number, string>();
    const dropped: string[] = [];
    const drop = (v: string) => dropped.push(v);
    keepRecent(map, 1, "a", 2, drop);
    keepRecent(map, 2, "b", 2, drop);
    keepRecent(map, 1, "a", 2, drop); // used again: now the newest
    keepRecent(map, 3, "c", 2, drop);
    expect([...map.keys()]).toEqual([1, 3]);
    expect(dropped).toEqual(["b"]);
    for (let i = 10; i < 30; i++) keepRecent(map, i, `d${i}`, 2, drop);
    expect(map.size).toBe(2);
    expect(dropped.length).toBe(21);
  });
});

describe("SourceViewer", () => {
  afterEach(() => pending.clear());

  it("keeps the PDF page being read when the library changes elsewhere", async () => {
    URL.createObjectURL = () => "blob:test/page";
    URL.revokeObjectURL = () => {};
    const viewer = new SourceViewer(() => {});
    const opening = viewer.open(target(5));
    await settle();
    const pdf = view(5, "Text of five");
    pdf.document.kind = "pdf";
    pdf.document.page_count = 2;
    pending.get(5)?.(pdf);
    await opening;
    await settle();
    expect(viewer.element.querySelector("img.pdf-page-image")).not.toBeNull();
    expect(viewer.element.querySelector("[data-testid=source-highlight]")?.textContent).toBe("Text");
    // A sync pass imported or removed some other file.
    viewer.forget();
    await settle();
    expect(viewer.element.querySelector("img.pdf-page-image")).not.toBeNull();
    expect(viewer.element.querySelector("[data-testid=source-highlight]")?.textContent).toBe("Text");
    // The next source is located and read afresh, not from what was cached.
    const again = viewer.open(target(5));
    await settle();
    expect(pending.has(5)).toBe(true);
    pending.get(5)?.(pdf);
    await again;
    expect(pagesAsked.filter((id) => id === 5).length).toBe(2);
  });

  it("stays closed when closed while a source was still loading", async () => {
    const viewer = new SourceViewer(() => {});
    const opening = viewer.open(target(1));
    expect(viewer.element.hidden).toBe(false);
    await settle();
    viewer.close();
    pending.get(1)?.(view(1, "Text of one"));
    await opening;
    await settle();
    expect(viewer.element.hidden).toBe(true);
    expect(viewer.element.querySelector(".doc-text")).toBeNull();
    expect(viewer.element.dataset.doc).toBeUndefined();
  });

  it("shows the newest source when an older one finishes loading last", async () => {
    const viewer = new SourceViewer(() => {});
    const first = viewer.open(target(1));
    const second = viewer.open(target(2));
    await settle();
    pending.get(2)?.(view(2, "Text of two"));
    await second;
    pending.get(1)?.(view(1, "Text of one"));
    await first;
    await settle();
    expect(viewer.element.hidden).toBe(false);
    expect(viewer.element.dataset.doc).toBe("/docs/2.txt");
    expect(viewer.element.querySelector(".doc-text")?.textContent).toBe("Text of two");
  });

  it("finds a source again under its new id, and says when its text has changed", async () => {
    const viewer = new SourceViewer(() => {});
    // Rebuilt: document 1 is now 7, and the passage moved by 5 characters.
    located.set(1, { doc_id: 7, status: "moved", char_start: 5, char_end: 9, highlight_start: 5, highlight_end: 9 });
    const moved = viewer.open(target(1));
    await settle();
    pending.get(7)?.(view(7, "New. Text of one"));
    await moved;
    expect(viewer.element.dataset.located).toBe("moved");
    expect(viewer.element.querySelector("[data-testid=source-highlight]")?.textContent).toBe("Text");
    expect(viewer.element.querySelector("[data-testid=source-changed]")).toBeNull();

    // Edited: the passage is no longer in the file.
    located.set(2, { doc_id: 8, status: "changed", char_start: 0, char_end: 4, highlight_start: 0, highlight_end: 4 });
    const changed = viewer.open(target(2));
    await settle();
    pending.get(8)?.(view(8, "Entirely new wording."));
    await changed;
    expect(viewer.element.querySelector("[data-testid=source-changed]")?.textContent).toContain("Text");
    expect(viewer.element.querySelector("[data-testid=source-highlight]")).toBeNull();

    // Removed from the library.
    located.set(3, null);
    await viewer.open(target(3));
    expect(viewer.element.querySelector("[data-testid=source-gone]")?.textContent).toContain("/docs/3.txt");
    located.clear();
  });
});
