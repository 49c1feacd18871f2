// Check a text: paste anything, and every sentence is checked against the documents
// with the same grounding check answers get.

import type { Checked, Retrieval } from "../../bindings";
import { renderSentence } from "../../components/sentences";
import { h, replace } from "../../dom";
import { t } from "../../i18n";
import { ipc } from "../../ipc";
import { renderSources } from "../ask/answer-view";
import type { SourceViewer } from "../source/source-viewer";

export function renderChecked(c: Checked, viewer: SourceViewer): HTMLElement {
  const byN = new Map(c.sources.map((s) => [s.n, s]));
  const cite = (n: number) => {
    const s = byN.get(n);
    if (s) void viewer.open(s);
  };
  return h(
    "section",
    { class: "answer checked", testid: "answer", attrs: { "aria-live": "polite" } },
    h(
      "p",
      { class: "answer-text" },
      ...c.sentences.map((s) => {
        // An uncited sentence that a passage supports gets that passage as its chip.
        const shown = s.citations.length === 0 && s.support ? { ...s, citations: [s.support.n] } : s;
        return renderSentence(shown, cite);
      }),
    ),
    c.unchecked > 0
      ? h("p", { class: "viewer-note", attrs: { role: "note" } }, t("uncheckedNote").replace("{n}", String(c.unchecked)))
      : null,
    h("h3", {}, t("sources")),
    renderSources(c.sources, { onCite: (s) => void viewer.open(s) }),
  );
}

export class CheckPage {
  readonly element: HTMLElement;
  private readonly input: HTMLTextAreaElement;
  private readonly result: HTMLElement;

  constructor(
    private readonly viewer: SourceViewer,
    private readonly retrieval: () => Retrieval,
    private readonly onError: (e: unknown) => void,
  ) {
    this.input = h("textarea", {
      class: "check-input",
      testid: "check-input",
      attrs: { rows: 8, placeholder: t("checkPlaceholder"), "aria-label": t("tabCheck") },
    });
    this.result = h("div", { class: "result" });
    this.element = h(
      "section",
      { class: "page check-page", attrs: { "aria-label": t("tabCheck") } },
      this.input,
      h("button", { class: "primary", testid: "check-run", attrs: { type: "button" }, on: { click: () => void this.run() } }, t("checkRun")),
      this.result,
    );
  }

  private async run(): Promise<void> {
    const text = this.input.value.trim();
    if (!text) return;
    try {
      replace(this.result, renderChecked(await ipc.checkText(text, this.retrieval()), this.viewer));
    } catch (e) {
      this.onError(e);
    }
  }
}
