// Sentences with their grounding verdicts: those that match their cited passage plain,
// partly matching ones in amber, the rest in red ("not found in the cited passage", or
// "contradicted by [n]") — never by colour alone: an icon and a text label say it too,
// and the reasons are one focus (or hover) away.

import type { SentenceVerdict, Verdict } from "../bindings";
import { h } from "../dom";
import { t } from "../i18n";
import { sayAll, verdictLabel } from "../words";

const ICON: Record<Verdict, string> = {
  supported: "",
  partially_supported: "◐",
  unsupported: "⚠",
};

let nextId = 0;

/** Keeps a sentence's reasons inside the window: a sentence that starts near the right
 * edge would otherwise open them half off-screen. Shifted left by what overflows, never
 * past the window's left edge. */
function keepReasonsInView(e: Event): void {
  const reasons = (e.currentTarget as HTMLElement).querySelector<HTMLElement>(".reasons");
  if (!reasons) return;
  reasons.style.left = "";
  requestAnimationFrame(() => {
    const box = reasons.getBoundingClientRect();
    const margin = 8;
    const overflow = box.right - (document.documentElement.clientWidth - margin);
    const shift = Math.min(overflow, box.left - margin);
    if (shift > 0) reasons.style.left = `${-shift}px`;
  });
}

/** Hides the reasons of a sentence whose reasons are showing (hovered or focused);
 * true if there was one. Esc does this before it closes the source viewer. */
export function dismissReasons(): boolean {
  for (const sentence of document.querySelectorAll<HTMLElement>(".sentence:hover, .sentence:focus")) {
    const reasons = sentence.querySelector<HTMLElement>(".reasons");
    if (!sentence.classList.contains("reasons-dismissed") && reasons && getComputedStyle(reasons).display !== "none") {
      sentence.classList.add("reasons-dismissed");
      return true;
    }
  }
  return false;
}

export function renderSentence(s: SentenceVerdict, onCite: (n: number) => void): HTMLElement {
  const reasonsId = `reasons-${++nextId}`;
  const flagged = s.verdict !== "supported";
  return h(
    "span",
    {
      class: `sentence verdict-${s.verdict}`,
      testid: "answer-sentence",
      attrs: {
        "data-verdict": s.verdict,
        tabindex: 0,
        "aria-describedby": reasonsId,
      },
      on: {
        mouseenter: keepReasonsInView,
        focus: keepReasonsInView,
        // Esc hides the reasons until the sentence is left (see main.ts).
        mouseleave: (e) => (e.currentTarget as HTMLElement).classList.remove("reasons-dismissed"),
        blur: (e) => (e.currentTarget as HTMLElement).classList.remove("reasons-dismissed"),
      },
    },
    flagged ? h("span", { class: "verdict-icon", attrs: { "aria-hidden": "true" } }, ICON[s.verdict]) : null,
    // Where the quote stands (第十九条): beside the document's words, not inside them.
    s.location ? h("span", { class: "location", testid: "sentence-location" }, s.location) : null,
    h("span", { class: "sentence-text" }, s.text),
    ...s.citations.map((n) =>
      h(
        "button",
        {
          class: "citation",
          testid: "citation",
          attrs: { "data-n": n, type: "button", "aria-label": `${t("sources")} ${n}` },
          on: { click: () => onCite(n) },
        },
        `[${n}]`,
      ),
    ),
    h(
      "span",
      { class: "reasons", attrs: { role: "tooltip", id: reasonsId } },
      h("strong", {}, verdictLabel(s.verdict, s.reason_codes ?? [])),
      ...sayAll(s.reason_codes, s.reasons).map((r) => h("span", { class: "reason" }, r)),
    ),
    " ",
  );
}
