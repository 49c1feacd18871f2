// PDF sources: the real page rendered by pdf.js (served locally), with a text layer
// on which the passage is highlighted, and page navigation.

import * as pdfjs from "pdfjs-dist";
import workerUrl from "pdfjs-dist/build/pdf.worker.min.mjs?url";
import { h, replace, scrollWithin } from "../../dom";
import { t } from "../../i18n";
import { locate } from "./highlight";

pdfjs.GlobalWorkerOptions.workerSrc = workerUrl;

export interface PdfView {
  element: HTMLElement;
  show(page: number, highlight: string | null): Promise<void>;
  /// Frees the document in pdf.js's worker.
  destroy(): void;
}

export async function openPdf(bytes: ArrayBuffer, pageCount: number, onPage: (n: number) => void): Promise<PdfView> {
  // Each document gets its own pdf.js worker, ended with it: a web worker's whole heap
  // goes when it is terminated, whereas a shared worker keeps what every document it
  // parsed left behind until its garbage collector and allocator decide otherwise.
  const worker = new pdfjs.PDFWorker();
  // No eval: fonts are drawn without compiling code from the document.
  const doc = await pdfjs
    .getDocument({ data: new Uint8Array(bytes), isEvalSupported: false, worker })
    .promise.catch((e: unknown) => {
      worker.destroy();
      throw e;
    });
  const pageBox = h("div", { class: "pdf-page" });
  const label = h("span", { class: "page-label", attrs: { "aria-live": "polite" } });
  let current = 1;
  let currentHighlight: string | null = null;
  const view: PdfView = {
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
      void doc.destroy().finally(() => worker.destroy());
    },
  };
  // Only the page on screen holds memory: its canvas backing store, its text layer and
  // pdf.js's parsed resources for it are released when another page (or document)
  // takes its place. A click while a page is still rendering cancels that rendering.
  let generation = 0;
  let shown: { canvas: HTMLCanvasElement; task: pdfjs.RenderTask | null; text: pdfjs.TextLayer | null; page: pdfjs.PDFPageProxy } | null = null;
  function release(): void {
    if (!shown) return;
    shown.task?.cancel();
    shown.text?.cancel();
    // A zero-sized canvas gives its pixels back now, not at the next garbage collection.
    shown.canvas.width = 0;
    shown.canvas.height = 0;
    shown.page.cleanup();
    shown = null;
  }
  async function go(n: number): Promise<void> {
    const mine = ++generation;
    const total = Math.max(1, Math.min(pageCount || doc.numPages, doc.numPages));
    current = Math.max(1, Math.min(total, n));
    label.textContent = `${current} / ${total}`;
    onPage(current);
    const page = await doc.getPage(current);
    if (mine !== generation) return;
    release();
    const width = Math.max(300, pageBox.clientWidth || 700);
    const base = page.getViewport({ scale: 1 });
    const viewport = page.getViewport({ scale: width / base.width });
    const canvas = h("canvas", { attrs: { "aria-hidden": "true" } });
    const ratio = window.devicePixelRatio || 1;
    canvas.width = Math.floor(viewport.width * ratio);
    canvas.height = Math.floor(viewport.height * ratio);
    canvas.style.width = `${viewport.width}px`;
    canvas.style.height = `${viewport.height}px`;
    const layer = h("div", { class: "textLayer" });
    layer.style.setProperty("--scale-factor", String(viewport.scale));
    const holder = h("div", { class: "pdf-canvas-holder" }, canvas, layer);
    holder.style.width = `${viewport.width}px`;
    holder.style.height = `${viewport.height}px`;
    replace(pageBox, holder);
    const here: NonNullable<typeof shown> = { canvas, task: null, text: null, page };
    shown = here;
    try {
      const ctx = canvas.getContext("2d");
      if (ctx) {
        ctx.scale(ratio, ratio);
        here.task = page.render({ canvasContext: ctx, viewport });
        await here.task.promise;
      }
      if (mine !== generation) return;
      here.text = new pdfjs.TextLayer({
        textContentSource: await page.getTextContent(),
        container: layer,
        viewport,
      });
      await here.text.render();
    } catch (e) {
      // Cancelled by a newer page: nothing to report.
      if (mine !== generation) return;
      throw e;
    }
    if (mine !== generation) return;
    if (currentHighlight) markText(here.text.textDivs, currentHighlight);
  }
  return view;
}

/// Marks the text-layer spans that hold `passage`.
function markText(divs: HTMLElement[], passage: string): void {
  const texts = divs.map((d) => d.textContent ?? "");
  const joined = texts.join("");
  const range = locate(joined, passage);
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
