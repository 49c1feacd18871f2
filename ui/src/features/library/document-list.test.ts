import { describe, expect, it } from "vitest";
import type { DocumentRecord } from "../../bindings";
import { setLang } from "../../i18n";
import { applyFilter, DocumentList, ROW_HEIGHT, warningsOf, type ListFilter } from "./document-list";

function doc(id: number, over: Partial<DocumentRecord> = {}): DocumentRecord {
  return {
    id,
    path: `/lib/${id % 10 === 0 ? "合同" : "制度"}/doc-${String(id).padStart(4, "0")}.md`,
    kind: id % 3 === 0 ? "pdf" : "markdown",
    title: `政策 ${String(id).padStart(4, "0")}`,
    sha256: "",
    size_bytes: 100,
    mtime: null,
    page_count: 1,
    imported_at: 1_700_000_000 + id,
    status: "indexed",
    warnings: [],
    warned: [],
    chunker_version: 1,
    chunks: 2,
    missing: false,
    ...over,
  };
}

function must<T>(x: T | null | undefined): T {
  if (x === null || x === undefined) throw new Error("missing element");
  return x;
}

const all: ListFilter = { query: "", kind: "all", folder: "", status: "all", sort: "title" };
const many = Array.from({ length: 2000 }, (_, i) => doc(i + 1));

describe("warningsOf", () => {
  it("says a document's stored warning codes in the window's language, older English words as they are", () => {
    const warned = doc(1, {
      warnings: ["pages 2–4 without text (scanned images?) could not be indexed"],
      warned: [{ code: "pages_textless", params: { pages: "2–4", count: 3 } }],
    });
    setLang("zh-CN");
    expect(warningsOf(warned)).toEqual(["第 2–4 页没有文字（可能是扫描图像），未能建立索引"]);
    setLang("en");
    expect(warningsOf(warned)).toEqual(["pages 2–4 without text (scanned images?) could not be indexed"]);
    const older = doc(2, { warnings: ["an older warning"], warned: [] });
    setLang("zh-CN");
    expect(warningsOf(older)).toEqual(["an older warning"]);
    setLang("en");
  });
});

describe("applyFilter", () => {
  it("searches name and folder, width-folded, every word", () => {
    expect(applyFilter(many, { ...all, query: "ＤＯＣ-0042" }).map((d) => d.id)).toEqual([42]);
    expect(applyFilter(many, { ...all, query: "合同 doc-01" }).map((d) => d.id)).toEqual([100, 110, 120, 130, 140, 150, 160, 170, 180, 190]);
  });

  it("filters by kind, folder and status, and sorts", () => {
    const mixed = [doc(1, { missing: true }), doc(2, { warnings: ["page 2 …"] }), doc(3), doc(10)];
    expect(applyFilter(mixed, { ...all, kind: "pdf" }).map((d) => d.id)).toEqual([3]);
    expect(applyFilter(mixed, { ...all, folder: "/lib/合同" }).map((d) => d.id)).toEqual([10]);
    expect(applyFilter(mixed, { ...all, status: "missing" }).map((d) => d.id)).toEqual([1]);
    expect(applyFilter(mixed, { ...all, status: "warnings" }).map((d) => d.id)).toEqual([2]);
    expect(applyFilter(mixed, { ...all, status: "ok" }).map((d) => d.id)).toEqual([3, 10]);
    expect(applyFilter(mixed, { ...all, sort: "imported" }).map((d) => d.id)).toEqual([10, 3, 2, 1]);
  });
});

describe("DocumentList", () => {
  const handlers = { kindText: (k: string) => k, onReimport: () => {}, onRemove: () => {} };

  it("draws only the rows in view of 2,000, and the rows further down once scrolled there", () => {
    setLang("en");
    const list = new DocumentList(handlers);
    document.body.append(list.element);
    list.setDocuments(many);
    const rows = () => [...list.element.querySelectorAll<HTMLElement>("[data-testid=library-row]")];
    expect(rows().length).toBeLessThan(40);
    expect(list.element.querySelector("[data-testid=library-count]")?.textContent).toBe("2000 documents");
    const viewport = must(list.element.querySelector<HTMLElement>("[data-testid=library-documents]"));
    viewport.scrollTop = 1990 * ROW_HEIGHT;
    viewport.dispatchEvent(new Event("scroll"));
    expect(rows().at(-1)?.querySelector(".doc-title")?.textContent).toBe("政策 2000");
    expect(rows().length).toBeLessThan(40);
    list.element.remove();
  });

  it("keeps its scroll position and the focused button when the documents are given again", () => {
    const list = new DocumentList(handlers);
    document.body.append(list.element);
    list.setDocuments(many);
    const viewport = must(list.element.querySelector<HTMLElement>("[data-testid=library-documents]"));
    viewport.scrollTop = 500 * ROW_HEIGHT;
    viewport.dispatchEvent(new Event("scroll"));
    const button = must(list.element.querySelector<HTMLElement>('[data-doc-id="505"][data-action="remove"]'));
    button.focus();
    // A sync event: the same documents and one more.
    list.setDocuments([...many, doc(2001)]);
    expect(viewport.scrollTop).toBe(500 * ROW_HEIGHT);
    const focused = document.activeElement as HTMLElement;
    expect([focused.dataset.docId, focused.dataset.action]).toEqual(["505", "remove"]);
    list.element.remove();
  });

  it("hides a document while its removal can be undone", () => {
    const list = new DocumentList(handlers);
    list.setDocuments([doc(1), doc(2)]);
    list.setHidden(1, true);
    expect([...list.element.querySelectorAll(".doc-title")].map((t) => t.textContent)).toEqual(["政策 0002"]);
    list.setHidden(1, false);
    expect(list.element.querySelectorAll(".doc-title").length).toBe(2);
  });
});
