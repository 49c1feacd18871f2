// The source viewer beside the answer: opens a cited passage in its document — the
// PDF page, or the Markdown/text document — highlighted and scrolled into view.

import type { DocumentView, Highlight } from "../../bindings";
import { openPdf, type PdfView } from "./pdf-view";
import { h, replace, scrollWithin } from "../../dom";
import { pageLabel, t } from "../../i18n";
import { ipc } from "../../ipc";
import { renderMarkdown } from "./markdown-view";
import { renderTextWithHighlight } from "./text-view";

/// What the viewer needs to show a passage.
export interface Target {
  doc_id: number;
  title: string;
  heading: string;
  page_start: number;
  page_end: number;
  highlight: Highlight;
}

/// Document texts and layouts kept.
const MAX_VIEWS = 8;

/// Puts `value` under `key` as the most recently used entry of `map`, dropping (and
/// handing to `drop`) the least recently used beyond `max`.
export function keepRecent<K, V>(map: Map<K, V>, key: K, value: V, max: number, drop?: (v: V) => void): void {
  map.delete(key);
  map.set(key, value);
  for (const [k, v] of map) {
    if (map.size <= max) break;
    map.delete(k);
    if (v !== value) drop?.(v);
  }
}

export class SourceViewer {
  readonly element: HTMLElement;
  private readonly header: HTMLElement;
  private readonly body: HTMLElement;
  // Per document id: its text and layout, the least recently used dropped beyond a few
  // so that memory stays bounded however many citations are opened. Ids are reused
  // after a rebuild or a re-import, so they are forgotten whenever the library changes.
  // A PDF page is drawn by the backend (which keeps recent pages); the window holds
  // only the one image on screen.
  private cache = new Map<number, DocumentView>();
  private pdf: { id: number; view: PdfView } | null = null;
  private pageText: HTMLElement = h("span", { class: "viewer-page" });

  constructor(private readonly onError: (e: unknown) => void) {
    this.header = h("header", { class: "viewer-header" });
    this.body = h("div", { class: "viewer-body", attrs: { tabindex: -1 } });
    this.element = h(
      "aside",
      { class: "source-viewer", testid: "source-viewer", attrs: { "aria-label": t("sources"), hidden: true } },
      this.header,
      this.body,
    );
  }

  // Counts opens and closes: an open still loading when a newer open or a close came
  // does nothing more when its loading ends (it would show a source no longer asked for).
  private generation = 0;

  close(): void {
    this.generation++;
    this.element.hidden = true;
    this.dropPdf();
    this.body.replaceChildren();
  }

  /// Drops everything cached about documents (call when the library changed).
  forget(): void {
    this.cache.clear();
    this.dropPdf();
  }

  private dropPdf(): void {
    this.pdf?.view.destroy();
    this.pdf = null;
  }

  async open(target: Target): Promise<void> {
    const generation = ++this.generation;
    const current = () => generation === this.generation;
    // Nothing of the previous document stays visible while this one loads.
    replace(this.body, h("p", { class: "busy", attrs: { role: "status" } }, "…"));
    this.element.hidden = false;
    try {
      let view = this.cache.get(target.doc_id);
      if (!view) view = await ipc.documentView(target.doc_id);
      keepRecent(this.cache, target.doc_id, view, MAX_VIEWS);
      if (!current()) return;
      const doc = view.document;
      const page =
        view.pages.find((p) => p.char_start <= target.highlight.char_start && target.highlight.char_start < p.char_end)
          ?.page_no ?? target.page_start;
      this.element.hidden = false;
      this.element.dataset.doc = doc.path;
      this.element.dataset.page = String(page);
      const pageText = h("span", { class: "viewer-page" }, pageLabel(page, page));
      this.pageText = pageText;
      replace(
        this.header,
        h("div", { class: "viewer-title" }, h("strong", {}, doc.title), target.heading ? h("span", {}, target.heading) : null, pageText),
        h("div", { class: "viewer-actions" },
          h("button", { attrs: { type: "button" }, on: { click: () => void ipc.openSource(doc.id).catch(this.onError) } }, t("openInApp")),
          h("button", { attrs: { type: "button", "aria-label": t("close") }, on: { click: () => this.close() } }, "×"),
        ),
      );
      if (doc.kind === "pdf") {
        if (this.pdf?.id !== doc.id) {
          this.dropPdf();
          const view = openPdf(doc.id, doc.page_count, (n) => {
            this.element.dataset.page = String(n);
            this.pageText.textContent = pageLabel(n, n);
          });
          this.pdf = { id: doc.id, view };
        }
        const pdf = this.pdf.view;
        replace(this.body, pdf.element);
        await pdf.show(page, target.highlight.text);
      } else {
        this.dropPdf();
        const { char_start: start, char_end: end } = target.highlight;
        const note = view.layout_note;
        replace(
          this.body,
          note
            ? h("p", { class: "viewer-note", attrs: { role: "note" } },
                note.code === "changed" ? t("layoutChanged") : `${t("layoutUnreadable")} ${note.message}`)
            : null,
          view.layout ? renderMarkdown(view.text, view.layout, start, end) : renderTextWithHighlight(view.text, start, end),
        );
        const mark = this.body.querySelector("mark");
        if (mark) scrollWithin(this.body, mark);
      }
    } catch (e) {
      // A failure of an open since superseded is about a source no longer asked for.
      if (current()) this.onError(e);
    }
  }
}
