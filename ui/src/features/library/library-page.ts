// Library: import by dropping files or folders anywhere on the window, or with the
// native dialog; a per-file progress list and a final summary; the document list; and,
// while the library is being embedded for meaning search, how far that has come (and
// that questions are answered by keyword meanwhile).

import { open } from "@tauri-apps/plugin-dialog";
import type { DocumentRecord, EmbeddingStatus, FileReport, ImportSummary, LibrarySync, Outcome } from "../../bindings";
import { type Child, h, replace } from "../../dom";
import { t } from "../../i18n";
import { ipc } from "../../ipc";
import { showProgress, statusText } from "../settings/embeddings-section";
import { renderSync } from "./sync-view";
import { DocumentList } from "./document-list";
import { sayProblem } from "../../words";

function outcomeText(o: Outcome): string {
  switch (o.status) {
    case "imported":
    {
      // Reports from before warnings had codes carry only the English words.
      const warnings = o.warned.length ? o.warned.map(sayProblem) : o.warnings;
      return t("outcomeImported", { pages: o.pages, chunks: o.chunks }) + (warnings.length ? ` · ${warnings.join(t("listSeparator"))}` : "");
    }
    case "unchanged":
      return t("outcomeUnchanged");
    case "duplicate":
      return t("outcomeDuplicate", { of: o.of });
    case "skipped":
      return t("outcomeSkipped", { reason: sayProblem(o.why) });
    case "failed":
      return t("outcomeFailed", { reason: sayProblem(o.why) });
  }
}

function kindText(kind: DocumentRecord["kind"]): string {
  switch (kind) {
    case "pdf":
      return t("kindPdf");
    case "markdown":
      return t("kindMarkdown");
    case "text":
      return t("kindText");
    case "docx":
      return t("kindWord");
  }
}

export function summaryText(s: ImportSummary): string {
  const count = (status: string) => s.files.filter((f) => f.status === status).length;
  return t("importSummary", {
    imported: count("imported"),
    unchanged: count("unchanged"),
    duplicate: count("duplicate"),
    skipped: count("skipped"),
    failed: count("failed"),
  });
}

/// How long a removed document can be brought back.
const REMOVE_UNDO_MS = 8000;

export class LibraryPage {
  readonly element: HTMLElement;
  private readonly progress: HTMLElement;
  private readonly summary: HTMLElement;
  private readonly list: DocumentList;
  private readonly undoBar: HTMLElement;
  // A removal that can still be undone: the row is hidden, the document still there.
  private pendingRemoval: { doc: DocumentRecord; timer: number } | null = null;
  // Paths dropped or picked while an import or rebuild was running: imported next.
  private queued: string[] = [];
  private readonly sync: HTMLElement;
  private readonly embedding: HTMLElement;
  private readonly embeddingText: HTMLElement;
  private readonly embeddingBar: HTMLProgressElement;
  private readonly rebuildButton: HTMLButtonElement;
  private readonly cancelButton: HTMLButtonElement;
  // Which scanned page is being read (OCR), while one is.
  private readonly ocrLine: HTMLElement;
  private busy = false;

  constructor(
    private readonly onError: (e: unknown) => void,
    private readonly onChanged: () => void,
  ) {
    // Not a live region: a screen reader hears the summary, not one line per file.
    this.progress = h("ol", { class: "import-progress" });
    this.summary = h("p", { class: "import-summary", testid: "library-import-summary", attrs: { role: "status" } });
    this.list = new DocumentList({
      kindText,
      onReimport: (id) => void this.reimport(id),
      onRemove: (doc) => this.remove(doc),
    });
    this.undoBar = h("p", { class: "undo-bar", testid: "library-undo-bar", attrs: { role: "status" } });
    this.ocrLine = h("p", { class: "ocr-line", testid: "library-ocr", attrs: { role: "status" } });
    this.cancelButton = h(
      "button",
      { testid: "library-cancel", attrs: { type: "button", hidden: true }, on: { click: () => void ipc.cancelImport().catch(this.onError) } },
      t("cancelImport"),
    );
    this.sync = h("div", { class: "library-sync", testid: "library-sync", attrs: { role: "status", "aria-live": "polite" } });
    this.embeddingText = h("span", {});
    this.embeddingBar = h("progress", {});
    this.embedding = h(
      "div",
      { class: "library-embedding", testid: "library-embedding", attrs: { role: "status", "aria-live": "polite" } },
      this.embeddingText,
      this.embeddingBar,
    );
    this.embedding.hidden = true;
    this.rebuildButton = h(
      "button",
      { testid: "library-rebuild", attrs: { type: "button", title: t("rebuildHint") }, on: { click: () => void this.rebuild() } },
      t("rebuild"),
    );
    this.element = h(
      "section",
      { class: "page library-page", attrs: { "aria-label": t("tabLibrary") } },
      h("p", { class: "drop-hint" }, t("dropHere")),
      h(
        "div",
        { class: "library-actions" },
        h("button", { class: "primary", attrs: { type: "button" }, on: { click: () => void this.pick(false) } }, t("addDocuments")),
        h("button", { attrs: { type: "button" }, on: { click: () => void this.pick(true) } }, t("addFolder")),
        this.rebuildButton,
        this.cancelButton,
      ),
      this.summary,
      this.ocrLine,
      this.progress,
      this.sync,
      this.embedding,
      h("h2", {}, t("documents")),
      this.undoBar,
      this.list.element,
    );
    void ipc.onLibrarySynced((s) => {
      // A pass that read a new scan is over: its page line and Cancel go.
      if (!this.busy) {
        this.cancelButton.hidden = true;
        replace(this.ocrLine);
      }
      this.showSync(s);
      void this.refresh();
      if (s.counts.added + s.counts.updated + s.counts.renamed + s.counts.removed > 0) this.onChanged();
    });
    void ipc.librarySync().then((s) => this.showSync(s), this.onError);
    void ipc.onEmbeddingStatus((s) => this.showEmbedding(s));
    void ipc.embeddingStatus().then((s) => this.showEmbedding(s), this.onError);
    // A rebuild asked for while questions are being answered starts when they are done.
    void ipc.onRebuildWaiting((users) => {
      if (this.busy) replace(this.summary, h("span", { testid: "rebuild-waiting", attrs: { role: "status" } }, t("rebuildWaiting", { n: users })));
    });
    void ipc.onImportProgress((p) => {
      if (p.kind === "planned") {
        replace(this.summary, `${t("importing")} ${p.files}…`);
      } else if (p.kind === "ocr") {
        const name = p.path.split(/[\\/]/).pop() ?? p.path;
        this.ocrLine.dataset.page = String(p.page);
        this.ocrLine.dataset.pages = String(p.pages);
        replace(this.ocrLine, t("ocrReading", { page: p.page, pages: p.pages, file: name }));
        // Whoever reads it (an import, or a sync pass that found a new scan in a
        // watched folder), the reading can be stopped.
        this.cancelButton.hidden = false;
      } else {
        this.addProgress(p.report);
      }
    });
  }

  private showSync(s: LibrarySync): void {
    replace(this.sync, ...renderSync(s));
  }

  /// Shown only while passages are being embedded: the settings page holds the rest.
  private showEmbedding(s: EmbeddingStatus): void {
    this.embedding.hidden = !showProgress(this.embeddingBar, s);
    if (!this.embedding.hidden) this.embeddingText.textContent = statusText(s);
  }

  private addProgress(r: FileReport): void {
    this.progress.append(
      h("li", { class: `outcome-${r.status}` }, h("span", { class: "path" }, r.path), " — ", outcomeText(r)),
    );
  }

  private async pick(directory: boolean): Promise<void> {
    const chosen = await open({
      multiple: true,
      directory,
      filters: directory ? undefined : [{ name: "Documents", extensions: ["md", "markdown", "txt", "pdf", "docx"] }],
    });
    if (!chosen) return;
    await this.import(Array.isArray(chosen) ? chosen : [chosen]);
  }

  async import(paths: string[]): Promise<void> {
    if (paths.length === 0) return;
    if (this.busy) {
      // Not lost: imported as soon as the running import or rebuild is done.
      this.queued.push(...paths);
      this.summary.dataset.queued = String(this.queued.length);
      return;
    }
    await this.run(t("importing"), async () => [summaryText(await ipc.importPaths(paths))]);
  }

  /// Imports a document's file again, by its id (its shown path may not name the file).
  private async reimport(id: number): Promise<void> {
    await this.run(t("importing"), async () => [summaryText(await ipc.reimportDocuments([id]))]);
  }

  /// Removes a document after a moment in which it can be undone; a removal that fails
  /// puts the row back and says why.
  private remove(doc: DocumentRecord): void {
    void this.commitRemoval();
    this.list.setHidden(doc.id, true);
    const timer = window.setTimeout(() => void this.commitRemoval(), REMOVE_UNDO_MS);
    this.pendingRemoval = { doc, timer };
    replace(
      this.undoBar,
      t("removedDocument", { title: doc.title }),
      " ",
      h("button", { testid: "library-undo", attrs: { type: "button" }, on: { click: () => this.undoRemoval() } }, t("undo")),
    );
  }

  private undoRemoval(): void {
    const pending = this.pendingRemoval;
    if (!pending) return;
    window.clearTimeout(pending.timer);
    this.pendingRemoval = null;
    this.list.setHidden(pending.doc.id, false);
    replace(this.undoBar, t("removalUndone", { title: pending.doc.title }));
  }

  private async commitRemoval(): Promise<void> {
    const pending = this.pendingRemoval;
    if (!pending) return;
    window.clearTimeout(pending.timer);
    this.pendingRemoval = null;
    replace(this.undoBar);
    try {
      await ipc.removeDocument(pending.doc.id);
      await this.refresh();
      this.onChanged();
    } catch (e) {
      this.onError(e);
    } finally {
      this.list.setHidden(pending.doc.id, false);
    }
  }

  /// Rebuilds the index from every document's source file into a fresh database (the
  /// way out of a damaged one, which is kept aside), showing per-file progress.
  async rebuild(): Promise<boolean> {
    return this.run(t("rebuilding"), async () => {
      const r = await ipc.rebuildIndex();
      const lost = r.summary.files.filter((f) => f.status === "failed");
      return [
        `${t("rebuilt")} ${summaryText(r.summary)}`,
        r.broken_copy ? h("span", { class: "path" }, ` · ${t("brokenKept")} ${r.broken_copy}`) : null,
        r.sources_recovered ? null : ` · ${t("sourcesLost")}`,
        ` · ${t("historyKept")}`,
        lost.length
          ? h(
              "span",
              { class: "error", testid: "rebuild-not-reread" },
              ` ${t("notReread")} `,
              ...lost.map((f, i) =>
                h("span", { class: "path", attrs: { title: f.status === "failed" ? sayProblem(f.why) : "" } }, `${i ? ", " : ""}${f.path}`),
              ),
            )
          : null,
      ];
    });
  }

  /// Runs an import or a rebuild: one at a time, per-file progress from a clean list,
  /// the summary `job` returns once it is done. False when it did not run or failed.
  private async run(label: string, job: () => Promise<Child[]>): Promise<boolean> {
    if (this.busy) return false;
    this.busy = true;
    this.rebuildButton.disabled = true;
    this.cancelButton.hidden = label !== t("importing");
    replace(this.progress);
    replace(this.summary, `${label}…`);
    delete this.summary.dataset.done;
    try {
      replace(this.summary, ...(await job()));
      this.summary.dataset.done = "true";
      await this.refresh();
      this.onChanged();
      return true;
    } catch (e) {
      replace(this.summary);
      this.onError(e);
      return false;
    } finally {
      this.busy = false;
      this.rebuildButton.disabled = false;
      this.cancelButton.hidden = true;
      replace(this.ocrLine);
      const next = this.queued.splice(0);
      delete this.summary.dataset.queued;
      if (next.length) void this.import(next);
    }
  }

  async refresh(): Promise<void> {
    try {
      this.list.setDocuments(await ipc.documents());
    } catch (e) {
      this.onError(e);
    }
  }
}
