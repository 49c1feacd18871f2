// PDF sources: the page as Evident's confined PDF worker drew it (one image), the
// page's text laid over it as transparent boxes (selectable, and the cited passage
// marked), and page navigation. Nothing of the PDF itself is parsed in the window.

import type { PageImage } from "../../bindings";
import { h, replace, scrollWithin } from "../../dom";
import { t } from "../../i18n";
import { ipc } from "../../ipc";
import { locate } from "./highlight";

export interface PdfView {
  element: HTMLElement;
  show(page: number, highlight: string | null): Promise<void>;
  /// Lets go of the page image.
  destroy(): void;
}

/// A drawn page as the backend sends it: a little-endian u32 with the JSON's length,
/// the JSON (`PageImage`), then the PNG.
export function parsePage(frame: ArrayBuffer): { page: PageImage; png: Blob } {
  if (frame.byteLength < 4) throw new Error("the page image is missing");
  const length = new DataView(frame).getUint32(0, true);
  if (4 + length > frame.byteLength) throw new Error("the page image is cut short");
  const page = JSON.parse(new TextDecoder().decode(new Uint8Array(frame, 4, length))) as PageImage;
  return { page, png: new Blob([frame.slice(4 + length)], { type: "image/png" }) };
}

export function openPdf(docId: number, pageCount: number, onPage: (n: number) => void): PdfView {
  const pageBox = h("div", { class: "pdf-page" });
  const label = h("span", { class: "page-label", attrs: { "aria-live": "polite" } });
  let total = Math.max(1, pageCount);
  let current = 1;
  let currentHighlight: string | null = null;
  // Counts page requests: a page that arrives after a newer one was asked for is dropped.
  let generation = 0;
  let url: string | null = null;
  function release(): void {
    if (url) URL.revokeObjectURL(url);
    url = null;
  }
  async function go(n: number): Promise<void> {
    const mine = ++generation;
    current = Math.max(1, Math.min(total, n));
    label.textContent = `${current} / ${total}`;
    onPage(current);
    const width = Math.max(300, pageBox.clientWidth || 700);
    const ratio = window.devicePixelRatio || 1;
    const { page, png } = parsePage(await ipc.pdfPage(docId, current, Math.round(width * ratio)));
    if (mine !== generation) return;
    total = Math.max(1, page.page_count);
    current = page.page;
    label.textContent = `${current} / ${total}`;
    release();
    url = URL.createObjectURL(png);
    const image = h("img", {
      class: "pdf-page-image",
      attrs: { src: url, alt: "", width: String(page.width), height: String(page.height), draggable: "false" },
    });
    // Boxes are placed in shares of the image, so they follow it however wide it is shown.
    const cssScale = width / Math.max(1, page.width);
    const boxes = page.boxes.map((b) => {
      const span = h("span", {}, b.text);
      span.style.left = `${(b.x / page.width) * 100}%`;
      span.style.top = `${(b.y / page.height) * 100}%`;
      span.style.width = `${(b.w / page.width) * 100}%`;
      span.style.height = `${(b.h / page.height) * 100}%`;
      span.style.fontSize = `${Math.max(1, b.h * cssScale * 0.85)}px`;
      return span;
    });
    const layer = h("div", { class: "pdf-text-layer" }, ...boxes);
    replace(pageBox, h("div", { class: "pdf-canvas-holder" }, image, layer));
    if (currentHighlight) markText(boxes, currentHighlight);
  }
  return {
    element: h(
      "div",
      { class: "pdf-view" },
      h(
        "div",
        { class: "pdf-nav" },
        h("button", { attrs: { type: "button", "aria-label": t("prevPage") }, on: { click: () => void go(current - 1) } }, "‹"),
        label,
        h("button", { attrs: { type: "button", "aria-label": t("nextPage") }, on: { click: () => void go(current + 1) } }, "›"),
      ),
      pageBox,
    ),
    show: async (page, highlight) => {
      currentHighlight = highlight;
      await go(page);
    },
    destroy: () => {
      generation++;
      release();
      pageBox.replaceChildren();
    },
  };
}

/// Marks the text boxes that hold `passage` and scrolls the first into view.
export function markText(divs: HTMLElement[], passage: string): void {
  const texts = divs.map((d) => d.textContent ?? "");
  const range = locate(texts.join(""), passage);
  if (!range) return;
  let offset = 0;
  let first: HTMLElement | null = null;
  divs.forEach((div, i) => {
    const len = Array.from(texts[i] ?? "").length;
    const [s, e] = range;
    if (offset < e && offset + len > s) {
      div.classList.add("source-highlight");
      if (!first) {
        first = div;
        div.dataset.testid = "source-highlight";
      }
    }
    offset += len;
  });
  const target = first as HTMLElement | null;
  const container = target?.closest(".viewer-body");
  if (target && container) scrollWithin(container, target);
}
