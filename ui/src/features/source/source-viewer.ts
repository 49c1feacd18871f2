// The source viewer beside the answer: opens a cited passage in its document — the
// PDF page, or the Markdown/text document — highlighted and scrolled into view.

import type { DocumentView, Source } from "../../bindings";
import { openPdf, type PdfView } from "./pdf-view";
import { h, replace, scrollWithin } from "../../dom";
import { pageLabel, t } from "../../i18n";
import { ipc } from "../../ipc";
import { renderMarkdown } from "./markdown-view";
import { renderTextWithHighlight } from "./text-view";

/// What the viewer needs to show a passage: a cited source (as an answer, fresh or
/// from History, lists it).
export type Target = Source;

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

  /// The cited document is no longer in the library (removed, or its file gone).
  private showGone(target: Target): void {
    delete this.element.dataset.doc;
    // Said, not left "loading": whoever waits for the viewer learns the source is gone.
    this.element.dataset.located = "gone";
    replace(
      this.header,
      h("div", { class: "viewer-title" }, h("strong", {}, target.title)),
      h("div", { class: "viewer-actions" },
        h("button", { attrs: { type: "button", "aria-label": t("close") }, on: { click: () => this.close() } }, "×"),
      ),
    );
    replace(
      this.body,
      h("div", { class: "viewer-note", testid: "source-gone", attrs: { role: "note" } },
        t("sourceGone", { path: target.doc_path }),
        h("details", {}, h("summary", {}, t("sourceAsCited")), h("blockquote", { class: "quote" }, target.text)),
      ),
    );
  }

  // Where focus was when the viewer opened (a citation chip), to give it back on close.
  private returnFocus: HTMLElement | null = null;

  close(): void {
    this.generation++;
    // Focus inside the viewer goes back where it came from; focus elsewhere (the
    // question box, when a new question closes the viewer) stays where it is.
    const active = document.activeElement;
    const hadFocus = active instanceof Node && this.element.contains(active);
    this.element.hidden = true;
    if (hadFocus && this.returnFocus?.isConnected) this.returnFocus.focus();
    this.returnFocus = null;
    this.dropPdf();
    this.body.replaceChildren();
  }

  /// Drops what is cached about documents (call when the library changed): the next
  /// source opened is read afresh. The page on screen stays: a sync pass that changed
  /// another document must not blank the page being read (its image is drawn again,
  /// from the file as it is now, when the reader turns the page or opens a source).
  forget(): void {
    this.cache.clear();
  }

  private dropPdf(): void {
    this.pdf?.view.destroy();
    this.pdf = null;
  }

  async open(target: Target): Promise<void> {
    const generation = ++this.generation;
    const current = () => generation === this.generation;
    const active = document.activeElement;
    if (active instanceof HTMLElement && !this.element.contains(active) && active !== document.body) this.returnFocus = active;
    // Nothing of the previous document stays visible while this one loads, and nothing
    // says it was located before it is.
    delete this.element.dataset.located;
    replace(this.body, h("p", { class: "busy", attrs: { role: "status" } }, "…"));
    this.element.hidden = false;
    try {
      // Found again by its file and its own text: ids and offsets of an answer given
      // before a rebuild or an edit no longer point at it.
      const found = await ipc.locateSource(target);
      if (!current()) return;
      if (!found) {
        this.showGone(target);
        return;
      }
      const changed = found.status === "changed";
      let view = this.cache.get(found.doc_id);
      if (!view) view = await ipc.documentView(found.doc_id);
      keepRecent(this.cache, found.doc_id, view, MAX_VIEWS);
      if (!current()) return;
      const doc = view.document;
      const page =
        view.pages.find((p) => p.char_start <= found.highlight_start && found.highlight_start < p.char_end)?.page_no ??
        target.page_start;
      this.element.hidden = false;
      this.element.dataset.doc = doc.path;
      this.element.dataset.page = String(page);
      this.element.dataset.located = found.status;
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
      // A passage no longer in the file: said, with its words as they were cited, and
      // the document as it is now (nothing in it is marked as the passage).
      const notice = changed
        ? h(
            "div",
            { class: "viewer-note", testid: "source-changed", attrs: { role: "note" } },
            t("sourceChanged"),
            h("details", {}, h("summary", {}, t("sourceAsCited")), h("blockquote", { class: "quote" }, target.text)),
          )
        : null;
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
        replace(this.body, notice, pdf.element);
        await pdf.show(page, changed ? null : target.highlight.text);
      } else {
        this.dropPdf();
        const start = found.highlight_start;
        const end = changed ? start : found.highlight_end;
        const note = view.layout_note;
        replace(
          this.body,
          notice,
          note
            ? h("p", { class: "viewer-note", attrs: { role: "note" } },
                note.code === "changed" ? t("layoutChanged") : `${t("layoutUnreadable")} ${note.message}`)
            : null,
          view.layout ? renderMarkdown(view.text, view.layout, start, end) : renderTextWithHighlight(view.text, start, end),
        );
        const mark = this.body.querySelector("mark");
        if (mark && changed) {
          // Only where the passage was: not a highlight.
          mark.className = "source-was-here";
          delete mark.dataset.testid;
        }
        if (mark) scrollWithin(this.body, mark);
      }
      // The viewer takes focus (a screen reader reads the source; Esc closes it).
      if (current()) this.body.focus({ preventScroll: true });
    } catch (e) {
      // A failure of an open since superseded is about a source no longer asked for.
      if (current()) this.onError(e);
    }
  }
}
