//! The segmenter: turns text into the tokens the full-text index stores.
//!
//! Documents are cut with jieba's search mode (`cut_for_search`), which also emits the
//! shorter words inside a long one, so a query for 副总 finds 副总经理. Tokens are
//! lower-cased, numbers written one way, and punctuation dropped. The jieba dictionary is
//! loaded once per process (it takes ~150 ms) and shared.
//!
//! jieba's HMM guesser for unknown words is off: it may cut the same unknown string
//! differently in a short query than in a long document sentence, which makes matches
//! depend on context, and it costs a third of the time. Without it an unknown word
//! becomes single characters, which a phrase query still matches in order.
//!
//! Changing anything here changes the index: bump [`TOKENIZER_VERSION`] so existing
//! databases are detected and re-indexed instead of silently mixing two tokenisations.

use std::sync::LazyLock;

use jieba_rs::Jieba;

use super::normalize::{flatten_lines, normalize_numbers};

/// Name recorded in the database next to [`TOKENIZER_VERSION`].
pub const TOKENIZER_NAME: &str = "jieba-rs 0.11 cut_for_search (no HMM), lowercase, numbers";

/// Version of the token rules; stored in the database and compared on open.
pub const TOKENIZER_VERSION: u32 = 1;

static JIEBA: LazyLock<Jieba> = LazyLock::new(Jieba::new);

/// Tokens of `text` for the index, space-separated, and how many there are.
///
/// The string is what goes into the FTS5 table; the count is what chunk sizes are
/// measured in, so chunking and indexing agree on what a token is.
pub fn index_tokens(text: &str) -> (String, usize) {
    let prepared = normalize_numbers(&flatten_lines(&text.to_lowercase()));
    let mut out = String::with_capacity(prepared.len() + prepared.len() / 2);
    let mut count = 0;
    for token in JIEBA.cut_for_search(&prepared, false) {
        let token = token.word;
        if !token.chars().any(char::is_alphanumeric) {
            continue;
        }
        if count > 0 {
            out.push(' ');
        }
        out.push_str(token.trim());
        count += 1;
    }
    (out, count)
}

/// Number of index tokens in `text` (see [`index_tokens`]).
pub fn token_count(text: &str) -> usize {
    index_tokens(text).1
}

/// Loads the dictionary now rather than on first use (for predictable timings).
pub fn warm_up() {
    LazyLock::force(&JIEBA);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(s: &str) -> Vec<String> {
        index_tokens(s).0.split(' ').map(str::to_owned).collect()
    }

    #[test]
    fn search_mode_emits_inner_words() {
        let t = tokens("需经分管副总经理审批");
        assert!(t.contains(&"副总经理".to_owned()), "{t:?}");
        assert!(
            t.contains(&"经理".to_owned()),
            "inner words make partial queries match: {t:?}"
        );
        assert!(t.contains(&"审批".to_owned()), "{t:?}");
    }

    #[test]
    fn mixed_text_is_lowercased_and_numbers_unified() {
        let t = tokens("Parental Leave 超过5,000元");
        assert!(t.contains(&"parental".to_owned()), "{t:?}");
        assert!(t.contains(&"leave".to_owned()), "{t:?}");
        assert!(
            t.contains(&"5000".to_owned()),
            "5,000 must index as 5000: {t:?}"
        );
        assert!(
            !t.iter().any(|x| x == "," || x == " "),
            "punctuation is dropped: {t:?}"
        );
    }

    #[test]
    fn hard_wrapped_chinese_segments_as_if_unwrapped() {
        assert_eq!(index_tokens("副总\n经理"), index_tokens("副总经理"));
    }

    #[test]
    fn empty_and_punctuation_only_text_has_no_tokens() {
        assert_eq!(index_tokens(""), (String::new(), 0));
        assert_eq!(index_tokens("，。！？ ..."), (String::new(), 0));
    }
}
