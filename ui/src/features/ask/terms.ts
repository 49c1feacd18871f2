// Marking the question's key words in a snippet. The Rust side reports which words it
// matched, as the question spells them; the passage may inflect them (leave → leaves,
// birthing) or hold them inside a longer word (副总 in 副总经理), so Latin words match
// by their stem at a word start, and Chinese words as they are.

const SUFFIX = /(?:ing|ed|es|s|ly)$/u;

function pattern(term: string): string | null {
  const t = term.trim().toLowerCase();
  // A lone Chinese character (the search tries it as a prefix) would mark every 经
  // and 元 in the snippet: noise, not guidance.
  if (!t || (Array.from(t).length < 2 && !/^[\p{Script=Latin}\d]+$/u.test(t))) return null;
  const escaped = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/gu, "\\$&");
  if (/^[\p{Script=Latin}\d]+$/u.test(t)) {
    const stem = t.length > 4 ? t.replace(SUFFIX, "") : t;
    return `(?<![\\p{L}\\p{N}])${escaped(stem)}[\\p{L}]*`;
  }
  return escaped(t);
}

/// `text` as text nodes, with every occurrence of one of `terms` wrapped in `<b>`.
export function markTerms(text: string, terms: string[]): DocumentFragment {
  const out = document.createDocumentFragment();
  const parts = terms
    .map(pattern)
    .filter((p): p is string => p !== null)
    .sort((a, b) => b.length - a.length);
  if (parts.length === 0 || !text) {
    out.append(text);
    return out;
  }
  const re = new RegExp(parts.join("|"), "giu");
  let last = 0;
  for (const m of text.matchAll(re)) {
    const at = m.index;
    if (m[0].length === 0) continue;
    if (at > last) out.append(text.slice(last, at));
    const b = document.createElement("b");
    b.className = "term";
    b.textContent = m[0];
    out.append(b);
    last = at + m[0].length;
  }
  if (last < text.length) out.append(text.slice(last));
  return out;
}
