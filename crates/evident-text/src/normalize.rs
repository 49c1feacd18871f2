//! Normalisation: NFKC, CJK-aware line joining, de-hyphenation and number forms.

use icu_normalizer::ComposingNormalizerBorrowed;

/// NFKC (ICU4X): it copies the runs that are already normalised as they are and only
/// decomposes around the characters that change, which is most of Chinese text (its
/// full-width punctuation fold, its ideographs do not). It was a fifth of the time spent
/// reading files with a normaliser that decomposed every character.
static NFKC: ComposingNormalizerBorrowed<'static> = ComposingNormalizerBorrowed::new_nfkc();

/// NFKC-normalises `s` (full-width letters and digits become ASCII, ligatures split).
pub fn nfkc(s: &str) -> String {
    NFKC.normalize(s).into_owned()
}

/// Folds only what a PDF's fonts put in place of ordinary characters: ligatures (ﬁ),
/// Kangxi and supplementary radicals (⼈ for 人) and compatibility ideographs. A reader
/// sees the ordinary character, so that is the document's text; everything else
/// (full-width punctuation, digits, quotes) stays as written.
pub fn fold_font_artefacts(s: &str) -> String {
    let artefact = |c: char| matches!(c as u32, 0xFB00..=0xFB4F | 0x2E80..=0x2FDF | 0xF900..=0xFAFF | 0x2F800..=0x2FA1F);
    if !s.chars().any(artefact) {
        return s.to_owned();
    }
    let mut out = String::with_capacity(s.len());
    let mut one = [0u8; 4];
    for c in s.chars() {
        if artefact(c) {
            out.push_str(&NFKC.normalize(c.encode_utf8(&mut one)));
        } else {
            out.push(c);
        }
    }
    out
}

/// True for characters of CJK scripts and CJK/full-width punctuation: text made of these
/// is written without spaces, so no space may be inserted between two of them.
pub fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x2E80..=0x2FDF     // radicals
        | 0x3000..=0x303F   // CJK symbols and punctuation
        | 0x3040..=0x30FF   // kana
        | 0x3100..=0x312F   // bopomofo
        | 0x3190..=0x31FF
        | 0x3400..=0x4DBF   // extension A
        | 0x4E00..=0x9FFF   // unified ideographs
        | 0xF900..=0xFAFF   // compatibility ideographs
        | 0xFE30..=0xFE4F   // compatibility forms
        | 0xFF00..=0xFF65   // full-width forms and punctuation
        | 0x20000..=0x3134F // extensions B–G
    ) || matches!(c, '“' | '”' | '‘' | '’' | '…' | '—')
}

/// Joins two pieces of one paragraph that a line break separated: no space between CJK
/// text (Chinese has none to lose), otherwise exactly one space; a hyphen at the break
/// is kept (`in-` + `person` → `in-person`).
pub fn join_into(out: &mut String, next: &str) {
    join_lines_into(out, next, &|_, _| false);
}

/// Like [`join_into`], but a word hyphenated over the break is rejoined without its
/// hyphen when `dehyphenate(head, tail)` says the hyphen was only a line-break hyphen
/// (`employ-` + `ment` → `employment`). Returns the byte offset in `out` where `next`'s
/// text now starts.
pub fn join_lines_into(
    out: &mut String,
    next: &str,
    dehyphenate: &dyn Fn(&str, &str) -> bool,
) -> usize {
    let next = next.trim_start();
    let trimmed_len = out.trim_end().len();
    out.truncate(trimmed_len);
    if next.is_empty() {
        return out.len();
    }
    if let Some(last) = out.chars().last() {
        join_separator(out, last, next, dehyphenate);
    }
    let start = out.len();
    out.push_str(next);
    start
}

/// What goes between `out` (ending in `last`) and `next`: nothing, a space, or the
/// removal of a line-break hyphen.
fn join_separator(
    out: &mut String,
    last: char,
    next: &str,
    dehyphenate: &dyn Fn(&str, &str) -> bool,
) {
    let first = next.chars().next().unwrap_or(' ');
    if last == '-' && first.is_lowercase() {
        let stem = &out[..out.len() - 1];
        if stem.chars().last().is_some_and(char::is_alphabetic) {
            let head = stem
                .rsplit(|c: char| !c.is_alphabetic())
                .next()
                .unwrap_or("");
            let tail = next
                .split(|c: char| !c.is_alphabetic())
                .next()
                .unwrap_or("");
            if dehyphenate(head, tail) {
                out.pop();
            }
            return;
        }
    }
    if !(is_cjk(last) || is_cjk(first)) {
        out.push(' ');
    }
}

/// Rewrites the text so that a number is written one way for the index: thousands
/// separators inside digit groups are dropped (`5,000` and `5，000` become `5000`),
/// by the one comma rule of [`crate::numbers::is_thousands_comma`].
pub fn normalize_numbers(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut copied = 0;
    for (i, comma) in s.match_indices([',', '，']) {
        if crate::numbers::is_thousands_comma(s, i) {
            out.push_str(&s[copied..i]);
            copied = i + comma.len();
        }
    }
    out.push_str(&s[copied..]);
    out
}

/// Flattens line breaks for tokenisation: a break between CJK characters disappears
/// (hard-wrapped Chinese must not split a word), any other break becomes a space.
pub fn flatten_lines(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut lines = s.split('\n');
    if let Some(first) = lines.next() {
        out.push_str(first.trim_end());
    }
    for line in lines {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let last = out.chars().last();
        let first = line.chars().next();
        match (last, first) {
            (Some(a), Some(b)) if is_cjk(a) && is_cjk(b) => {}
            (None, _) => {}
            _ => out.push(' '),
        }
        out.push_str(line);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn joins_chinese_without_space_and_english_with_one() {
        let mut s = String::from("单笔报销超过五千元的，需经分管");
        join_into(&mut s, "副总审批。");
        assert_eq!(s, "单笔报销超过五千元的，需经分管副总审批。");
        let mut e = String::from("Employees may take  ");
        join_into(&mut e, "  ten days");
        assert_eq!(e, "Employees may take ten days");
    }

    #[test]
    fn rejoins_hyphenated_words_only_when_told_and_keeps_real_hyphens() {
        let mut s = String::from("continuous employ-");
        join_lines_into(&mut s, "ment counts", &|h, t| h == "employ" && t == "ment");
        assert_eq!(s, "continuous employment counts");
        let mut c = String::from("meet in-");
        join_into(&mut c, "person");
        assert_eq!(c, "meet in-person", "a compound keeps its hyphen");
        let mut t = String::from("see section 3 -");
        join_into(&mut t, "and more");
        assert_eq!(
            t, "see section 3 - and more",
            "a dash after a space is not a hyphenation"
        );
    }

    #[test]
    fn thousands_separators_are_dropped_only_inside_numbers() {
        assert_eq!(normalize_numbers("超过5,000元"), "超过5000元");
        assert_eq!(
            normalize_numbers("1,234,567 and 5，000"),
            "1234567 and 5000"
        );
        assert_eq!(normalize_numbers("a, b, 12,34"), "a, b, 12,34");
        assert_eq!(
            normalize_numbers("1,2345"),
            "1,2345",
            "four digits is not a thousands group"
        );
    }

    #[test]
    fn nfkc_folds_full_width_forms() {
        assert_eq!(nfkc("５０００元ＡＢＣ"), "5000元ABC");
    }

    #[test]
    fn flattening_removes_breaks_inside_chinese_only() {
        assert_eq!(flatten_lines("分管副\n总经理"), "分管副总经理");
        assert_eq!(flatten_lines("parental\nleave"), "parental leave");
    }
}
