import { afterEach, describe, expect, it, vi } from "vitest";
import type { DocumentView } from "../../bindings";
import { keepRecent, SourceViewer, type Target } from "./source-viewer";

// The document views the viewer asks for, answered when a test says so.
const pending = vi.hoisted(() => new Map<number, (view: DocumentView) => void>());
vi.mock("../../ipc", () => ({
  ipc: {
    documentView: (id: number) => new Promise<DocumentView>((resolve) => pending.set(id, resolve)),
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
      status: "ok",
      warnings: [],
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
    doc_id: id,
    title: `Doc ${id}`,
    heading: "",
    page_start: 1,
    page_end: 1,
    highlight: { char_start: 0, char_end: 4, passage_char_start: 0, passage_char_end: 4, text: "" },
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

  it("stays closed when closed while a source was still loading", async () => {
    const viewer = new SourceViewer(() => {});
    const opening = viewer.open(target(1));
    expect(viewer.element.hidden).toBe(false);
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
    pending.get(2)?.(view(2, "Text of two"));
    await second;
    pending.get(1)?.(view(1, "Text of one"));
    await first;
    await settle();
    expect(viewer.element.hidden).toBe(false);
    expect(viewer.element.dataset.doc).toBe("/docs/2.txt");
    expect(viewer.element.querySelector(".doc-text")?.textContent).toBe("Text of two");
  });
});
