// Markdown and plain-text sources: the document's text with the passage marked and
// scrolled into view. Text only — nothing from the document is parsed as markup.

import { h } from "../../dom";

/// Renders `text` with chars [start, end) (code-point offsets) highlighted.
export function renderTextWithHighlight(text: string, start: number, end: number): HTMLElement {
  const chars = Array.from(text);
  const s = Math.max(0, Math.min(chars.length, start));
  const e = Math.max(s, Math.min(chars.length, end));
  return h(
    "div",
    { class: "doc-text" },
    chars.slice(0, s).join(""),
    h("mark", { class: "source-highlight", testid: "source-highlight" }, chars.slice(s, e).join("")),
    chars.slice(e).join(""),
  );
}
