// Finding a passage in text whose white space and width forms differ from the
// passage's: a PDF page's text boxes split lines (and keep a hyphen or a header the
// import dropped), while the stored passage has its lines joined. Both sides are
// compared squeezed: NFKC, lower case, no white space. What is shown stays as written.

/// `s` in comparison form, and for each of its characters the index of the input
/// character it came from.
export function squeeze(s: string): { text: string; origin: number[] } {
  let text = "";
  const origin: number[] = [];
  let i = 0;
  for (const ch of Array.from(s)) {
    const norm = ch.normalize("NFKC").toLowerCase();
    for (const c of Array.from(norm)) {
      if (/\s/u.test(c)) continue;
      text += c;
      origin.push(i);
    }
    i++;
  }
  return { text, origin };
}

/// Index range (in characters of `haystack`) of `needle`, ignoring white space and
/// width; `null` if absent. Falls back to the needle's longest prefix that is found,
/// so a passage cut by a page break is still marked on the page that holds its start.
export function locate(haystack: string, needle: string): [number, number] | null {
  const h = squeeze(haystack);
  const n = squeeze(needle).text;
  if (!n) return null;
  for (let len = n.length; len >= Math.min(n.length, 8); len = Math.floor(len * 0.75)) {
    const at = h.text.indexOf(n.slice(0, len));
    if (at >= 0) {
      const startIdx = h.origin[at] ?? 0;
      const endIdx = (h.origin[at + len - 1] ?? startIdx) + 1;
      return [startIdx, endIdx];
    }
    if (len <= 8) break;
  }
  return null;
}
