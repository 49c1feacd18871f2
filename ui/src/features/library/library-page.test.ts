import { describe, expect, it, vi } from "vitest";
import type { DocumentRecord, ImportSummary } from "../../bindings";
import { setLang } from "../../i18n";
import { LibraryPage } from "./library-page";

// The backend as the Library sees it: imports that finish when a test says so, and a
// removal that fails.
const backend = vi.hoisted(() => ({
  imports: [] as { paths: string[]; finish: () => void }[],
  progress: [] as ((p: unknown) => void)[],
  synced: [] as ((s: unknown) => void)[],
  cancels: 0,
  removeFails: false,
  removed: [] as number[],
}));
vi.mock("@tauri-apps/plugin-dialog", () => ({ open: () => Promise.resolve(null) }));
vi.mock("../../ipc", () => {
  const never = () => Promise.resolve(() => {});
  const summary: ImportSummary = { files: [], elapsed_ms: 0, embedding: null } as unknown as ImportSummary;
  return {
    ipc: {
      onLibrarySynced: (handler: (s: unknown) => void) => {
        backend.synced.push(handler);
        return Promise.resolve(() => {});
      },
      onEmbeddingStatus: never,
      onImportProgress: (handler: (p: unknown) => void) => {
        backend.progress.push(handler);
        return Promise.resolve(() => {});
      },
      cancelImport: () => {
        backend.cancels += 1;
        return Promise.resolve(true);
      },
      onRebuildWaiting: never,
      librarySync: () => new Promise(() => {}),
      embeddingStatus: () => new Promise(() => {}),
      documents: () => Promise.resolve([doc(1), doc(2)]),
      importPaths: (paths: string[]) =>
        new Promise<ImportSummary>((resolve) => backend.imports.push({ paths, finish: () => resolve(summary) })),
      removeDocument: (id: number) => {
        if (backend.removeFails) return Promise.reject(new Error("database is locked"));
        backend.removed.push(id);
        return Promise.resolve(true);
      },
    },
  };
});

function doc(id: number): DocumentRecord {
  return {
    id,
    path: `/p/${id}.md`,
    kind: "markdown",
    title: `Policy ${id}`,
    sha256: "",
    size_bytes: 1,
    mtime: null,
    page_count: 1,
    imported_at: 0,
    status: "indexed",
    warnings: [],
    warned: [],
    chunker_version: 1,
    chunks: 1,
    missing: false,
  };
}

const settle = () => new Promise((r) => setTimeout(r, 0));

describe("LibraryPage", () => {
  it("says which scanned page it reads, offers Cancel while importing, and clears both after", async () => {
    setLang("en");
    const page = new LibraryPage(() => {}, () => {});
    const line = () => page.element.querySelector<HTMLElement>("[data-testid=library-ocr]");
    const cancel = () => page.element.querySelector<HTMLButtonElement>("[data-testid=library-cancel]");
    expect(cancel()?.hidden).toBe(true);
    const running = page.import(["/scans/notice.pdf"]);
    await settle();
    expect(cancel()?.hidden).toBe(false);
    for (const handler of backend.progress) handler({ kind: "ocr", path: "/scans/notice.pdf", page: 2, pages: 5 });
    expect(line()?.textContent).toBe("Reading scanned page 2 of 5 of notice.pdf (OCR)…");
    expect(line()?.dataset.page).toBe("2");
    cancel()?.click();
    expect(backend.cancels).toBe(1);
    backend.imports[0]?.finish();
    await running;
    expect(cancel()?.hidden).toBe(true);
    expect(line()?.textContent).toBe("");
    backend.imports.length = 0;
  });

  it("a sync pass reading a new scan shows its page and can be cancelled, and both go when it ends", async () => {
    setLang("en");
    backend.synced.length = 0;
    backend.progress.length = 0;
    backend.cancels = 0;
    const page = new LibraryPage(() => {}, () => {});
    const line = () => page.element.querySelector<HTMLElement>("[data-testid=library-ocr]");
    const cancel = () => page.element.querySelector<HTMLButtonElement>("[data-testid=library-cancel]");
    expect(cancel()?.hidden).toBe(true);
    // No import was started: the page is the sync pass's.
    for (const handler of backend.progress) handler({ kind: "ocr", path: "/watched/scan.pdf", page: 1, pages: 3 });
    expect(line()?.textContent).toBe("Reading scanned page 1 of 3 of scan.pdf (OCR)…");
    expect(cancel()?.hidden).toBe(false);
    cancel()?.click();
    expect(backend.cancels).toBe(1);
    const synced = {
      at: 1,
      counts: { added: 0, updated: 0, renamed: 0, removed: 0, failed: 0, duplicates: 0, unchanged: 0 },
      changes: [],
      watching: [],
      unreachable: [],
      unwatched: [],
      error: null,
    };
    for (const handler of backend.synced) handler(synced);
    expect(cancel()?.hidden).toBe(true);
    expect(line()?.textContent).toBe("");
  });

  it("imports files dropped during an import once it is done, not never", async () => {
    setLang("en");
    const page = new LibraryPage(() => {}, () => {});
    const first = page.import(["/drop/a.md"]);
    await settle();
    await page.import(["/drop/b.md", "/drop/c.md"]);
    expect(backend.imports.map((i) => i.paths)).toEqual([["/drop/a.md"]]);
    backend.imports[0]?.finish();
    await first;
    await settle();
    expect(backend.imports.map((i) => i.paths)).toEqual([["/drop/a.md"], ["/drop/b.md", "/drop/c.md"]]);
    backend.imports[1]?.finish();
    await settle();
    backend.imports.length = 0;
  });

  it("a removal can be undone, and one that fails puts the row back and says why", async () => {
    vi.useFakeTimers();
    const errors: unknown[] = [];
    const page = new LibraryPage((e) => errors.push(e), () => {});
    await page.refresh();
    const titles = () => [...page.element.querySelectorAll(".doc-title")].map((t) => t.textContent);
    expect(titles()).toEqual(["Policy 1", "Policy 2"]);
    const remove = (id: number) =>
      page.element.querySelector<HTMLButtonElement>(`[data-doc-id="${id}"][data-action="remove"]`)?.click();

    remove(1);
    expect(titles()).toEqual(["Policy 2"]);
    page.element.querySelector<HTMLButtonElement>("[data-testid=library-undo]")?.click();
    expect(titles()).toEqual(["Policy 1", "Policy 2"]);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(backend.removed).toEqual([]);

    backend.removeFails = true;
    remove(2);
    expect(titles()).toEqual(["Policy 1"]);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(String(errors[0])).toContain("database is locked");
    expect(titles()).toEqual(["Policy 1", "Policy 2"]);
    backend.removeFails = false;
    vi.useRealTimers();
  });
});
