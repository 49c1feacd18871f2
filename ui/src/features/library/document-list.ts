// The Library's documents, however many: searched by name or path, filtered by kind,
// folder and status, sorted, and drawn a screenful at a time (only the rows in view
// exist in the page, so 2,000 documents cost what 20 do). The list is one long-lived
// element: a tab switch or a sync event gives it new documents, and its scroll
// position, search and the focused button stay where the user left them.

import type { DocumentRecord } from "../../bindings";
import { h, replace } from "../../dom";
import { t } from "../../i18n";
import { sayProblem } from "../../words";

/** A document's warnings in the window's language (English words for one imported
 *  before warnings were stored as codes). */
export function warningsOf(d: DocumentRecord): string[] {
  return d.warned.length ? d.warned.map(sayProblem) : d.warnings;
}

/// Height of one row in CSS pixels (rows are laid out at this fixed height).
export const ROW_HEIGHT = 64;
/// Rows drawn above and below the visible ones, so a quick scroll shows no gap.
const OVERSCAN = 8;

export type SortKey = "title" | "kind" | "imported" | "folder";
export type StatusFilter = "all" | "ok" | "warnings" | "missing";

export interface ListFilter {
  query: string;
  kind: DocumentRecord["kind"] | "all";
  folder: string;
  status: StatusFilter;
  sort: SortKey;
}

export interface DocumentListHandlers {
  kindText: (kind: DocumentRecord["kind"]) => string;
  onReimport: (id: number) => void;
  onRemove: (doc: DocumentRecord) => void;
}

/// The folder a document's file is in.
export function folderOf(path: string): string {
  const cut = Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\"));
  return cut > 0 ? path.slice(0, cut) : path;
}

/// Lower case, full-width forms folded, for matching what the user types.
function fold(s: string): string {
  return s.normalize("NFKC").toLowerCase();
}

/// The documents `filter` keeps, in its order.
export function applyFilter(docs: DocumentRecord[], filter: ListFilter): DocumentRecord[] {
  const words = fold(filter.query).split(/\s+/u).filter(Boolean);
  const kept = docs.filter((d) => {
    if (filter.kind !== "all" && d.kind !== filter.kind) return false;
    if (filter.folder && folderOf(d.path) !== filter.folder) return false;
    if (filter.status === "missing" && !d.missing) return false;
    if (filter.status === "warnings" && d.warnings.length === 0) return false;
    if (filter.status === "ok" && (d.missing || d.warnings.length > 0)) return false;
    if (words.length) {
      const hay = fold(`${d.title} ${d.path}`);
      if (!words.every((w) => hay.includes(w))) return false;
    }
    return true;
  });
  const byTitle = (a: DocumentRecord, b: DocumentRecord) => a.title.localeCompare(b.title) || a.path.localeCompare(b.path);
  const order: Record<SortKey, (a: DocumentRecord, b: DocumentRecord) => number> = {
    title: byTitle,
    kind: (a, b) => a.kind.localeCompare(b.kind) || byTitle(a, b),
    imported: (a, b) => b.imported_at - a.imported_at || byTitle(a, b),
    folder: (a, b) => a.path.localeCompare(b.path),
  };
  return kept.sort(order[filter.sort]);
}

export class DocumentList {
  readonly element: HTMLElement;
  private readonly search: HTMLInputElement;
  private readonly kind: HTMLSelectElement;
  private readonly folder: HTMLSelectElement;
  private readonly status: HTMLSelectElement;
  private readonly sort: HTMLSelectElement;
  private readonly count: HTMLElement;
  private readonly viewport: HTMLElement;
  private readonly spacer: HTMLElement;
  private readonly rows: HTMLElement;
  private docs: DocumentRecord[] = [];
  private shown: DocumentRecord[] = [];
  private hiddenIds = new Set<number>();
  private drawn = { first: -1, last: -1, version: -1 };
  private version = 0;

  constructor(private readonly handlers: DocumentListHandlers) {
    const changed = () => this.refilter();
    this.search = h("input", {
      testid: "library-search",
      attrs: { type: "search", placeholder: t("librarySearch"), "aria-label": t("librarySearch") },
      on: { input: changed },
    });
    const select = (testid: string, label: string, options: [string, string][]) =>
      h(
        "select",
        { testid, attrs: { "aria-label": label }, on: { change: changed } },
        ...options.map(([value, text]) => h("option", { attrs: { value } }, text)),
      );
    this.kind = select("library-kind", t("kind"), [
      ["all", t("allKinds")],
      ["pdf", handlers.kindText("pdf")],
      ["docx", handlers.kindText("docx")],
      ["markdown", handlers.kindText("markdown")],
      ["text", handlers.kindText("text")],
    ]);
    this.folder = select("library-folder", t("folder"), [["", t("allFolders")]]);
    this.status = select("library-status", t("status"), [
      ["all", t("allStatuses")],
      ["ok", t("statusOk")],
      ["warnings", t("statusWarnings")],
      ["missing", t("missingOnDisk")],
    ]);
    this.sort = select("library-sort", t("sortBy"), [
      ["title", t("sortTitle")],
      ["imported", t("sortImported")],
      ["kind", t("sortKind")],
      ["folder", t("sortFolder")],
    ]);
    this.count = h("span", { class: "library-count", testid: "library-count", attrs: { role: "status", "aria-live": "polite" } });
    this.rows = h("div", { class: "doc-rows", attrs: { role: "rowgroup" } });
    this.spacer = h("div", { class: "doc-spacer" }, this.rows);
    this.viewport = h(
      "div",
      { class: "doc-viewport", testid: "library-documents", attrs: { role: "table", "aria-label": t("documents") } },
      this.spacer,
    );
    this.viewport.addEventListener("scroll", () => this.draw(), { passive: true });
    this.element = h(
      "div",
      { class: "documents" },
      h("div", { class: "library-filters" }, this.search, this.kind, this.folder, this.status, this.sort, this.count),
      this.viewport,
    );
  }

  /// The list's documents now (after a tab switch, an import or a sync): what is shown
  /// follows the filters, and the scroll position and focus stay.
  setDocuments(docs: DocumentRecord[]): void {
    this.docs = docs;
    const folders = [...new Set(docs.map((d) => folderOf(d.path)))].sort();
    const chosen = this.folder.value;
    replace(
      this.folder,
      h("option", { attrs: { value: "" } }, t("allFolders")),
      ...folders.map((f) => h("option", { attrs: { value: f } }, f)),
    );
    this.folder.value = folders.includes(chosen) ? chosen : "";
    this.refilter();
  }

  /// Hides a document (while its removal can still be undone) or shows it again.
  setHidden(id: number, hidden: boolean): void {
    if (hidden) this.hiddenIds.add(id);
    else this.hiddenIds.delete(id);
    this.refilter();
  }

  private filter(): ListFilter {
    return {
      query: this.search.value,
      kind: this.kind.value as ListFilter["kind"],
      folder: this.folder.value,
      status: this.status.value as StatusFilter,
      sort: this.sort.value as SortKey,
    };
  }

  private refilter(): void {
    this.shown = applyFilter(
      this.docs.filter((d) => !this.hiddenIds.has(d.id)),
      this.filter(),
    );
    this.version++;
    this.spacer.style.height = `${this.shown.length * ROW_HEIGHT}px`;
    this.viewport.setAttribute("aria-rowcount", String(this.shown.length));
    this.count.textContent =
      this.shown.length === this.docs.length ? t("libraryCountAll", { n: this.docs.length }) : t("libraryCount", { n: this.shown.length, total: this.docs.length });
    if (this.docs.length === 0) {
      replace(this.rows, h("p", { class: "empty" }, t("noDocuments")));
      this.drawn = { first: -1, last: -1, version: this.version };
      return;
    }
    this.draw();
  }

  /// Draws the rows in view (and a few around them).
  private draw(): void {
    const height = this.viewport.clientHeight || 600;
    const first = Math.max(0, Math.floor(this.viewport.scrollTop / ROW_HEIGHT) - OVERSCAN);
    const last = Math.min(this.shown.length, Math.ceil((this.viewport.scrollTop + height) / ROW_HEIGHT) + OVERSCAN);
    if (first === this.drawn.first && last === this.drawn.last && this.version === this.drawn.version) return;
    this.drawn = { first, last, version: this.version };
    // The focused button is found again in the new rows (by document and action).
    const active = document.activeElement as HTMLElement | null;
    const focus = active && this.rows.contains(active) ? { id: active.dataset.docId, action: active.dataset.action } : null;
    this.rows.style.transform = `translateY(${first * ROW_HEIGHT}px)`;
    replace(this.rows, ...this.shown.slice(first, last).map((d, i) => this.row(d, first + i)));
    if (focus) {
      this.rows.querySelector<HTMLElement>(`[data-doc-id="${focus.id}"][data-action="${focus.action}"]`)?.focus({ preventScroll: true });
    }
  }

  private row(d: DocumentRecord, index: number): HTMLElement {
    const id = String(d.id);
    return h(
      "div",
      {
        class: `doc-row${d.missing ? " doc-missing" : ""}`,
        testid: "library-row",
        attrs: { role: "row", "aria-rowindex": index + 1, "data-doc-id": id },
      },
      h(
        "div",
        { class: "doc-main", attrs: { role: "cell" } },
        h("span", { class: "doc-title" }, d.title),
        d.missing ? h("span", { class: "badge badge-missing", testid: "doc-missing" }, t("missingOnDisk")) : null,
        d.warnings.length ? h("span", { class: "badge", attrs: { title: warningsOf(d).join("\n") } }, t("statusWarnings")) : null,
        h("span", { class: "path" }, d.path),
      ),
      h("div", { class: "doc-kind", attrs: { role: "cell" } }, this.handlers.kindText(d.kind)),
      h("div", { class: "doc-size", attrs: { role: "cell" } }, t("pagesChunks", { pages: d.page_count, chunks: d.chunks })),
      h("div", { class: "doc-date", attrs: { role: "cell" } }, new Date(d.imported_at * 1000).toLocaleDateString()),
      h(
        "div",
        { class: "doc-actions", attrs: { role: "cell" } },
        h("button", { attrs: { type: "button", "data-doc-id": id, "data-action": "reimport", "aria-label": `${t("reindex")} ${d.title}` }, on: { click: () => this.handlers.onReimport(d.id) } }, t("reindex")),
        h(
          "button",
          {
            class: "danger",
            testid: "library-remove",
            attrs: { type: "button", "data-doc-id": id, "data-action": "remove", "aria-label": `${t("remove")} ${d.title}` },
            on: { click: () => this.handlers.onRemove(d) },
          },
          t("remove"),
        ),
      ),
    );
  }
}
