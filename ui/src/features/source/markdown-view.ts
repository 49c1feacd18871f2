// Markdown sources, rendered. The structure (headings, lists, tables, bold, links)
// comes from the layout the Rust side computed; every character shown is a text node
// cut from the stored text, so nothing from the document is ever parsed as markup and
// there is nothing to sanitise. Because the layout's ranges are char offsets into that
// same text, the cited passage is marked exactly, even across bold or link boundaries.

import type { DocumentLayout, InlineMark, LayoutBlock } from "../../bindings";
import { h } from "../../dom";

type Range = [number, number];

/// Renders `text` as laid out by `layout`, with chars [start, end) highlighted.
export function renderMarkdown(text: string, layout: DocumentLayout, start: number, end: number): HTMLElement {
  const chars = Array.from(text);
  const highlight: Range = [start, Math.max(start, end)];
  const root = h("div", { class: "doc-text doc-markdown" });
  // Open lists, outermost first, and the table rows are being added to.
  let lists: HTMLElement[] = [];
  let table: { header: string; body: HTMLElement } | null = null;

  for (const block of layout.blocks) {
    const kind = block.kind;
    if (kind.type !== "list_item") lists = [];
    if (kind.type !== "table_row") table = null;
    switch (kind.type) {
      case "heading": {
        const level = Math.min(6, Math.max(1, kind.level));
        const tag = `h${level}` as "h1" | "h2" | "h3" | "h4" | "h5" | "h6";
        root.append(h(tag, { class: "md-heading" }, inline(chars, block, blockRange(block), highlight)));
        break;
      }
      case "paragraph":
        root.append(h("p", {}, inline(chars, block, blockRange(block), highlight)));
        break;
      case "code":
        root.append(h("pre", {}, inline(chars, block, blockRange(block), highlight)));
        break;
      case "list_item": {
        const depth = Math.max(1, kind.depth);
        lists = lists.slice(0, depth);
        while (lists.length < depth) {
          const list = h(kind.ordered ? "ol" : "ul", {});
          const parent = lists.at(-1);
          const host = parent?.lastElementChild ?? parent ?? root;
          host.append(list);
          lists.push(list);
        }
        lists[depth - 1]?.append(h("li", {}, inline(chars, block, blockRange(block), highlight)));
        break;
      }
      case "table_row": {
        const header = JSON.stringify(kind.header);
        if (!table || table.header !== header) {
          const body = h("tbody", {});
          const head =
            kind.header.length > 0
              ? h("thead", {}, h("tr", {}, ...kind.header.map((cell) => h("th", { attrs: { scope: "col" } }, cell))))
              : null;
          root.append(h("table", { class: "md-table" }, head, body));
          table = { header, body };
        }
        const columns = Math.max(kind.header.length, ...block.cells.map((c) => c.column + 1));
        const row = h("tr", {});
        for (let column = 0; column < columns; column++) {
          const cell = block.cells.find((c) => c.column === column);
          row.append(h("td", {}, cell ? inline(chars, block, [cell.char_start, cell.char_end], highlight) : null));
        }
        table.body.append(row);
        break;
      }
    }
  }
  return root;
}

function blockRange(block: LayoutBlock): Range {
  return [block.char_start, block.char_end];
}

/// The chars of `range` with the block's inline styles, the part inside `highlight`
/// wrapped in one `<mark>` so the whole passage reads as one piece.
function inline(chars: string[], block: LayoutBlock, [s, e]: Range, [hs, he]: Range): DocumentFragment {
  const out = document.createDocumentFragment();
  const ms = Math.min(Math.max(hs, s), e);
  const me = Math.min(Math.max(he, ms), e);
  out.append(styled(chars, block.marks, s, ms));
  if (me > ms) {
    out.append(
      h("mark", { class: "source-highlight", testid: "source-highlight" }, styled(chars, block.marks, ms, me)),
    );
  }
  out.append(styled(chars, block.marks, me, e));
  return out;
}

/// Chars [s, e) split wherever an inline style starts or ends; each piece is wrapped
/// in the elements of the styles that cover it.
function styled(chars: string[], marks: InlineMark[], s: number, e: number): DocumentFragment {
  const out = document.createDocumentFragment();
  if (e <= s) return out;
  const cuts = new Set([s, e]);
  for (const m of marks) {
    if (m.char_start > s && m.char_start < e) cuts.add(m.char_start);
    if (m.char_end > s && m.char_end < e) cuts.add(m.char_end);
  }
  const points = [...cuts].sort((a, b) => a - b);
  for (let i = 0; i + 1 < points.length; i++) {
    const a = points[i] ?? s;
    const b = points[i + 1] ?? e;
    let node: Node = document.createTextNode(chars.slice(a, b).join(""));
    for (const m of marks) {
      if (m.char_start <= a && b <= m.char_end) node = wrap(m, node);
    }
    out.append(node);
  }
  return out;
}

function wrap(mark: InlineMark, child: Node): HTMLElement {
  switch (mark.style) {
    case "strong":
      return h("strong", {}, child);
    case "emphasis":
      return h("em", {}, child);
    case "code":
      return h("code", {}, child);
    case "strikethrough":
      return h("s", {}, child);
    case "link":
      // Shown as a link, never followed: the target is only a tooltip.
      return h("span", { class: "md-link", attrs: { title: mark.target ?? undefined } }, child);
  }
}
