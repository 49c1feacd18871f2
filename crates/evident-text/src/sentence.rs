//! Sentence boundaries for Chinese and English policy text.
//!
//! A chunk may only end at a sentence boundary, so this is where "never cut mid-sentence"
//! is decided. Ends are 。！？；!? and a full stop followed by white space, except in
//! decimals (3.5), list numbers (`1. `) and common abbreviations (e.g., Mr., No.).
//! Closing quotes and brackets stay with the sentence they close.

/// Byte ranges of the sentences in `text`, trimmed of surrounding white space.
pub fn split_sentences(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut iter = text.char_indices().peekable();
    while let Some((i, c)) = iter.next() {
        let is_end = match c {
            '。' | '！' | '？' | '；' | '!' | '?' | '…' => true,
            ';' => true,
            '.' => full_stop_ends_sentence(text, start, i),
            _ => false,
        };
        if !is_end {
            continue;
        }
        let mut end = i + c.len_utf8();
        // Absorb runs of terminators and closing quotes/brackets: 。” ?! ……）
        while let Some(&(j, d)) = iter.peek() {
            if matches!(
                d,
                '。' | '！'
                    | '？'
                    | '!'
                    | '?'
                    | '…'
                    | '.'
                    | '”'
                    | '’'
                    | '"'
                    | '\''
                    | '」'
                    | '』'
                    | '）'
                    | ')'
                    | '】'
                    | '》'
            ) {
                end = j + d.len_utf8();
                iter.next();
            } else {
                break;
            }
        }
        push_trimmed(text, start, end, &mut out);
        start = end;
    }
    push_trimmed(text, start, text.len(), &mut out);
    out
}

/// Sentences that also end at line breaks: in extracted text a line break separates
/// blocks (a heading from its paragraph, one list item from the next), so a unit
/// quoted as an answer or highlighted as a match never runs across them. Chunking uses
/// [`split_sentences`], which keeps hard-wrapped lines of one sentence together.
pub fn split_units(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for (s, e) in split_sentences(text) {
        let mut start = s;
        for (i, _) in text[s..e].match_indices('\n') {
            push_trimmed(text, start, s + i, &mut out);
            start = s + i + 1;
        }
        push_trimmed(text, start, e, &mut out);
    }
    out
}

fn push_trimmed(text: &str, start: usize, end: usize, out: &mut Vec<(usize, usize)>) {
    let piece = &text[start..end];
    let lead = piece.len() - piece.trim_start().len();
    let trail = piece.len() - piece.trim_end().len();
    if lead + trail < piece.len() {
        out.push((start + lead, end - trail));
    }
}

const ABBREVIATIONS: &[&str] = &[
    "e.g", "i.e", "etc", "mr", "mrs", "ms", "dr", "prof", "no", "vs", "inc", "ltd", "co", "jr",
    "sr", "st", "u.s", "fig", "art", "sec", "approx", "dept", "p", "pp", "cf", "al",
];

fn full_stop_ends_sentence(text: &str, sentence_start: usize, dot: usize) -> bool {
    let after = text[dot + 1..].chars().next();
    // Only a full stop followed by white space (or the end) can end a sentence: this
    // keeps 3.5, v1.2, example.com and 1.1 together.
    if after.is_some_and(|a| !a.is_whitespace() && !matches!(a, '"' | '”' | ')' | '）')) {
        return false;
    }
    let before = &text[sentence_start..dot];
    let word = before
        .rsplit(|c: char| c.is_whitespace() || c == '(' || c == '（')
        .next()
        .unwrap_or("");
    if word.is_empty() {
        return true;
    }
    // "1." "a." "iv." at the start of a sentence are list markers, not sentences.
    if before.trim() == word
        && (word.chars().all(|c| c.is_ascii_digit() || c == '.')
            || (word.chars().count() == 1 && word.chars().all(char::is_alphabetic)))
    {
        return false;
    }
    let lower = word.to_lowercase();
    // Abbreviations and initials ("J. Smith") do not end sentences.
    let initial = word.chars().count() == 1 && word.chars().all(char::is_uppercase);
    !(ABBREVIATIONS.contains(&lower.as_str()) || initial)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units_end_at_line_breaks_too() {
        let text = "3. Sick leave\n3.1 Employees may take 10 days. Unused days lapse.";
        let units: Vec<&str> = split_units(text)
            .into_iter()
            .map(|(s, e)| &text[s..e])
            .collect();
        assert_eq!(
            units,
            [
                "3. Sick leave",
                "3.1 Employees may take 10 days.",
                "Unused days lapse."
            ]
        );
    }

    fn sentences(s: &str) -> Vec<&str> {
        split_sentences(s)
            .into_iter()
            .map(|(a, b)| &s[a..b])
            .collect()
    }

    #[test]
    fn chinese_terminators_including_semicolon() {
        assert_eq!(
            sentences("第一条 为规范报销，制定本办法。单笔超过5000元的；需审批！可以吗？"),
            vec![
                "第一条 为规范报销，制定本办法。",
                "单笔超过5000元的；",
                "需审批！",
                "可以吗？"
            ]
        );
    }

    #[test]
    fn closing_quotes_stay_with_their_sentence() {
        assert_eq!(
            sentences("他说：“同意。”然后走了。"),
            vec!["他说：“同意。”", "然后走了。"]
        );
    }

    #[test]
    fn decimals_abbreviations_and_list_numbers_do_not_end_sentences() {
        assert_eq!(
            sentences("Rates rose 3.5 percent, e.g. in the U.S. office. 1. Submit receipts. Done"),
            vec![
                "Rates rose 3.5 percent, e.g. in the U.S. office.",
                "1. Submit receipts.",
                "Done"
            ]
        );
    }

    #[test]
    fn whitespace_only_input_has_no_sentences() {
        assert!(split_sentences("  \n ").is_empty());
    }
}
