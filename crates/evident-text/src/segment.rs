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

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::{LazyLock, OnceLock};

use bit_set::BitSet;
use jieba_rs::Jieba;
use rust_stemmers::{Algorithm, Stemmer};

use super::normalize::{flatten_lines, nfkc, normalize_numbers};

/// Name recorded in the database next to [`TOKENIZER_VERSION`].
pub const TOKENIZER_NAME: &str = "jieba-rs 0.11 cut_for_search (no HMM), lowercase, numbers, \
     Snowball English stems, fast2s Traditional-to-Simplified";

/// Version of the token rules; stored in the database and compared on open.
///
/// 2: English words are reduced to their Snowball stem (`approvals` and `approved`
/// index as `approv`), so a question matches every inflection of a word; Traditional
/// Chinese is segmented as Simplified (臺灣 and 台湾 index alike).
///
/// 3: documents are stored as written (full-width punctuation and digits kept) and
/// folded (NFKC) here, for tokens only; a database of folded text is rebuilt.
///
/// 4: one thousands-comma rule for every reader of numbers (`5，10，15` is three
/// numbers), 大写 numerals (贰万) read by value, and 千克 no longer a thousand.
pub const TOKENIZER_VERSION: u32 = 4;

/// jieba's dictionary, loaded on first use ([`jieba`]).
static JIEBA: OnceLock<Jieba> = OnceLock::new();

/// The segmenter, its dictionary loaded on first use (about 80 ms on this machine's
/// cores): a caller with other work to do first can ask [`dictionary_loaded`].
fn jieba() -> &'static Jieba {
    JIEBA.get_or_init(Jieba::new)
}

/// Whether jieba's dictionary is loaded, so that segmenting will not wait for it.
pub fn dictionary_loaded() -> bool {
    JIEBA.get().is_some()
}
static STEMMER: LazyLock<Stemmer> = LazyLock::new(|| Stemmer::create(Algorithm::English));

/// Most English words a cache of stems holds before it starts again.
const STEM_CACHE_MAX: usize = 1 << 16;

thread_local! {
    /// Stems already computed on this thread. Documents repeat their words, and Snowball
    /// was a tenth of the time spent reading files on import.
    static STEMS: RefCell<HashMap<String, String>> = RefCell::new(HashMap::new());
}

/// Tokens of `text` for the index, space-separated, and how many there are.
///
/// The string is what goes into the FTS5 table; the count is what chunk sizes are
/// measured in, so chunking and indexing agree on what a token is.
pub fn index_tokens(text: &str) -> (String, usize) {
    let prepared = prepare(text);
    let mut out = String::with_capacity(prepared.len() + prepared.len() / 2);
    let mut count = 0;
    for token in jieba().cut_for_search(&prepared, false) {
        let pushed = with_index_form(token.word, |form| {
            if count > 0 {
                out.push(' ');
            }
            out.push_str(form);
        });
        count += usize::from(pushed.is_some());
    }
    (out, count)
}

/// The words of a question or claim, in order, in index form.
///
/// Uses jieba's plain `cut`, which keeps a word whole (副总经理 stays one term); every
/// such word is also an index token, because search mode emits the whole word besides
/// the words inside it.
pub fn query_terms(text: &str) -> Vec<String> {
    let prepared = prepare(text);
    jieba()
        .cut(&prepared, false)
        .into_iter()
        .filter_map(|t| index_form(t.word))
        .collect()
}

/// A name in a question (a place, an organisation, a product): how it reads, and its
/// words in index form.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Name {
    /// As typed.
    pub text: String,
    /// Its words as the index stores them.
    pub tokens: Vec<String>,
}

/// Everyday words jieba's dictionary tags as places or bodies (东西 "a thing", 福利
/// "benefits"): never a name a question gives.
static NOT_NAMES: LazyLock<std::collections::HashSet<&'static str>> = LazyLock::new(|| {
    include_str!("not_names.txt")
        .lines()
        .filter(|l| !l.starts_with('#'))
        .flat_map(str::split_whitespace)
        .collect()
});

/// Proper names in `text`: Chinese words of two characters or more that jieba's
/// dictionary tags as places (`ns`) or organisations (`nt`), but for everyday words it
/// tags so (`not_names.txt`), and runs of capitalised English words that do not merely
/// start a sentence ("New York City", "MacBook", but not "Can" in "Can I ...").
///
/// A question about a place or body the documents never mention cannot be answered
/// with confidence from them, whatever else matches (see `search::outcome`).
pub fn proper_names(text: &str) -> Vec<Name> {
    let mut names: Vec<Name> = Vec::new();
    let prepared = prepare(text);
    for tag in jieba().tag(&prepared, false) {
        if matches!(tag.tag, "ns" | "nt")
            && tag
                .word
                .chars()
                .filter(|&c| super::normalize::is_cjk(c))
                .count()
                >= 2
            && !NOT_NAMES.contains(tag.word)
            && let Some(token) = index_form(tag.word)
        {
            names.push(Name {
                text: tag.word.to_owned(),
                tokens: vec![token],
            });
        }
    }
    let mut run: Vec<&str> = Vec::new();
    let mut sentence_start = true;
    let flush = |run: &mut Vec<&str>, names: &mut Vec<Name>| {
        if !run.is_empty() {
            names.push(Name {
                text: run.join(" "),
                tokens: run.iter().filter_map(|w| term_form(w)).collect(),
            });
            run.clear();
        }
    };
    let folded = nfkc(text);
    for piece in folded.split_inclusive(|c: char| !(c.is_ascii_alphanumeric() || c == '\'')) {
        let word = piece.trim_end_matches(|c: char| !(c.is_ascii_alphanumeric() || c == '\''));
        let end = &piece[word.len()..];
        let capitalised = word.starts_with(|c: char| c.is_ascii_uppercase())
            && word.len() > 1
            && !word.contains('\'');
        if capitalised && !sentence_start {
            run.push(word);
        } else if !word.is_empty() {
            flush(&mut run, &mut names);
        }
        if !word.is_empty() || end.chars().any(super::normalize::is_cjk) {
            sentence_start = false;
        }
        if !end.trim_matches(' ').is_empty() {
            flush(&mut run, &mut names);
        }
        if end.contains(['.', '?', '!', ':', '\n', '。', '？', '！', '：']) {
            sentence_start = true;
        }
    }
    flush(&mut run, &mut names);
    names.retain(|n| !n.tokens.is_empty());
    names.dedup();
    names
}

/// Index tokens of `text` as a list (see [`index_tokens`]); for matching a question's
/// words against a passage already in memory.
pub fn passage_tokens(text: &str) -> Vec<String> {
    let prepared = prepare(text);
    jieba()
        .cut_for_search(&prepared, false)
        .into_iter()
        .filter_map(|t| index_form(t.word))
        .collect()
}

/// Text as the segmenter sees it: NFKC-folded (documents are stored as written, with
/// full-width digits and punctuation; `２０，０００` must find `20,000`), lower case,
/// lines joined, numbers unified, and
/// Traditional Chinese characters mapped to Simplified (char for char, so lengths keep).
/// jieba's dictionary is Simplified; without the mapping it cuts Traditional text into
/// odd pieces, and a question typed in one script would miss a document in the other.
fn prepare(text: &str) -> String {
    to_simplified(normalize_numbers(&flatten_lines(&lowercase(&nfkc(text)))))
}

/// `fast2s::convert`, skipped for text in which it has nothing to convert: most text is
/// already Simplified Chinese or English, and the conversion looks up every Chinese
/// character in three hash maps (a twentieth of the time spent reading files).
fn to_simplified(text: String) -> String {
    if text.chars().any(|c| MAY_CONVERT.contains(c as usize)) {
        fast2s::convert(&text)
    } else {
        text
    }
}

/// Characters fast2s 0.3 converts only next to certain neighbours (its special cases,
/// such as 藉口 → 借口); a character on its own stays.
const CONVERTED_IN_CONTEXT: [char; 7] = ['藉', '著', '苧', '闔', '鍾', '讎', '畫'];

/// Every character fast2s may change: those it converts on their own, and those it
/// converts in context. fast2s only ever looks at characters of three UTF-8 bytes, which
/// include the context ones.
static MAY_CONVERT: LazyLock<BitSet> = LazyLock::new(|| {
    let mut set = BitSet::with_capacity(0x10000);
    let mut one = String::new();
    for c in '\u{800}'..='\u{FFFF}' {
        one.clear();
        one.push(c);
        if CONVERTED_IN_CONTEXT.contains(&c) || fast2s::convert(&one) != one {
            set.insert(c as usize);
        }
    }
    set
});

/// `str::to_lowercase`, but CJK characters, which have no case, are copied without a
/// lookup in the Unicode case tables (that lookup was a third of this function's time
/// on Chinese text).
fn lowercase(text: &str) -> String {
    // Σ lower-cases by its context (word-final ς); leave that rule to the standard library.
    if text.contains('Σ') {
        return text.to_lowercase();
    }
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_ascii() {
            out.push(c.to_ascii_lowercase());
        } else if CASELESS_CJK.contains(&c) {
            out.push(c);
        } else {
            out.extend(c.to_lowercase());
        }
    }
    out
}

/// CJK punctuation, kana, Hangul letters, CJK compatibility forms and ideographs: no
/// character in this range has a lower-case form.
const CASELESS_CJK: std::ops::RangeInclusive<char> = '\u{3000}'..='\u{9FFF}';

/// A jieba word as the index stores it (see [`with_index_form`]).
fn index_form(word: &str) -> Option<String> {
    with_index_form(word, str::to_owned)
}

/// Calls `f` with `word` as the index stores it: trimmed, stemmed when it is an English
/// word (from this thread's cache of stems), or returns `None` when it holds no letter
/// or digit (punctuation, spaces).
fn with_index_form<R>(word: &str, f: impl FnOnce(&str) -> R) -> Option<R> {
    let word = word.trim();
    if !has_alphanumeric(word) {
        return None;
    }
    if !is_english_word(word) {
        return Some(f(word));
    }
    Some(STEMS.with_borrow_mut(|stems| {
        if !stems.contains_key(word) {
            if stems.len() >= STEM_CACHE_MAX {
                stems.clear();
            }
            stems.insert(word.to_owned(), STEMMER.stem(word).into_owned());
        }
        f(&stems[word])
    }))
}

/// Lower-case ASCII words longer than two letters are stemmed.
fn is_english_word(word: &str) -> bool {
    word.len() > 2 && word.bytes().all(|b| b.is_ascii_lowercase())
}

/// True when `word` holds a letter or digit. Common Chinese characters and ASCII are
/// decided without the Unicode tables.
fn has_alphanumeric(word: &str) -> bool {
    word.chars().any(|c| {
        c.is_ascii_alphanumeric()
            || ('\u{4E00}'..='\u{9FFF}').contains(&c)
            || (!c.is_ascii() && c.is_alphanumeric())
    })
}

/// `text` with Traditional Chinese characters mapped to Simplified (char for char), as
/// the segmenter reads it; for matching cue words written in Simplified.
pub fn simplified(text: &str) -> String {
    to_simplified(text.to_owned())
}

/// Calls `each` with jieba's part-of-speech tag of every word of `text` (`nr` a
/// person, `ns` a place, `nt` an organisation ...), in order.
pub fn for_each_tag(text: &str, mut each: impl FnMut(&str)) {
    let prepared = prepare(text);
    for t in jieba().tag(&prepared, false) {
        each(t.tag);
    }
}

/// One word in index form (lower-cased, stemmed if English); `None` for punctuation.
pub fn term_form(word: &str) -> Option<String> {
    index_form(&word.to_lowercase())
}

/// Number of index tokens in `text` (see [`index_tokens`]).
pub fn token_count(text: &str) -> usize {
    index_tokens(text).1
}

/// Loads the dictionary now rather than on first use (for predictable timings).
pub fn warm_up() {
    jieba();
    LazyLock::force(&MAY_CONVERT);
    LazyLock::force(&STEMMER);
}

#[cfg(test)]
mod tests {
    #[test]
    fn proper_names_are_places_bodies_and_capitalised_runs() {
        let names = |q: &str| -> Vec<String> {
            super::proper_names(q).into_iter().map(|n| n.text).collect()
        };
        assert_eq!(
            names("我在深圳上班，现在当地的最低工资标准是多少？"),
            ["深圳"]
        );
        assert_eq!(
            names("What's the per diem for a TTS trip to New York City? Can I claim it?"),
            ["TTS", "New York City"]
        );
        assert_eq!(
            names("Can I take leave? Does it count?"),
            Vec::<String>::new()
        );
        assert_eq!(names("我想去New York出差"), ["New York"]);
        assert_eq!(
            names("公司发的东西能带回家吗？福利有哪些？"),
            Vec::<String>::new(),
            "东西 (a thing) and 福利 (benefits) are everyday words, not places"
        );
        let york = super::proper_names("a trip to New York");
        assert_eq!(york[0].tokens, ["new", "york"]);
    }

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
        assert!(t.contains(&"parent".to_owned()), "{t:?}");
        assert!(t.contains(&"leav".to_owned()), "{t:?}");
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
    fn english_inflections_index_alike() {
        assert_eq!(tokens("approvals"), tokens("approved"));
        assert_eq!(tokens("Leaves"), tokens("leave"));
        assert_eq!(
            query_terms("How many days of parental leave?"),
            ["how", "mani", "day", "of", "parent", "leav"],
            "questions are stemmed exactly like documents"
        );
    }

    #[test]
    fn query_terms_keep_whole_words_that_the_index_also_holds() {
        let q = query_terms("分管副总经理");
        let index = tokens("需经分管副总经理审批");
        for term in &q {
            assert!(index.contains(term), "{term} of {q:?} not in {index:?}");
        }
        assert_eq!(
            query_terms("ＡＰＭ２１０"),
            ["apm210"],
            "full width is folded"
        );
    }

    #[test]
    fn traditional_and_simplified_index_alike() {
        assert_eq!(
            tokens("員工請假須經經理審批"),
            tokens("员工请假须经经理审批")
        );
    }

    #[test]
    fn hard_wrapped_chinese_segments_as_if_unwrapped() {
        assert_eq!(index_tokens("副总\n经理"), index_tokens("副总经理"));
    }

    #[test]
    fn simplified_only_where_fast2s_converts() {
        for text in [
            "員工請假須經經理審批",
            "藉口 憑藉 慰藉 看著 著作 苧麻 闔家 鍾書 校讎 計畫 畫家 乾隆 乾淨",
            "员工请假须经经理审批 parental leave",
        ] {
            assert_eq!(
                to_simplified(text.to_owned()),
                fast2s::convert(text),
                "{text}"
            );
        }
        assert!(MAY_CONVERT.contains('員' as usize) && !MAY_CONVERT.contains('员' as usize));
    }

    #[test]
    fn lowercase_matches_the_standard_library() {
        for c in CASELESS_CJK {
            assert!(c.to_lowercase().eq([c]), "{c:?} has a lower-case form");
        }
        for s in ["ÀÉÎ Straße ΑΣ ΟΔΟΣ İ", "Parental LEAVE 副总经理 ＡＢＣ", ""] {
            assert_eq!(lowercase(s), s.to_lowercase(), "{s}");
        }
    }

    #[test]
    fn empty_and_punctuation_only_text_has_no_tokens() {
        assert_eq!(index_tokens(""), (String::new(), 0));
        assert_eq!(index_tokens("，。！？ ..."), (String::new(), 0));
    }
}
