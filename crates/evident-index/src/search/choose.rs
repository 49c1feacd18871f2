//! The answering sentence: every sentence of the retrieved passages, described by what
//! makes a sentence an answer, and ranked by a model learned from thousands of public
//! questions (`search::learned`).
//!
//! A sentence answers a question when it speaks of what the question is about (its key
//! words, its meaning), says what the question asks for (an amount, a duration, who, a
//! date, whether something is allowed: `answer::asked`), and its conditions hold for
//! the question's situation (三万块 lies in "单笔报销超过20,000元的"). Each of these is a
//! feature here; how much each weighs was learned, not chosen by hand (see
//! ARCHITECTURE.md for how, and on what).
//!
//! The choice is made once, here, and used everywhere: the composer quotes the best
//! sentences in this order, each passage's highlight is its best sentence, and the
//! outcome is decided from how well the best one fits (`search::outcome`). There is no
//! second line-picker.

use std::collections::HashSet;
use std::sync::LazyLock;

use regex::Regex;
use serde::Serialize;

use super::asked::{Asked, NamesIn, Offers, TypeMatch};
use super::learned::Linear;
use super::rank::coverage;
use super::stopwords::APPROVAL_WORDS;
use super::{Passage, Query};
use evident_text::normalize::is_cjk;
use evident_text::numbers::{NumberMention, numbers_in};
use evident_text::ranges::{self, Fit};
use evident_text::segment::passage_tokens;
use evident_text::sentence::split_units;

/// Declares the features with their documentation, their names in the model file
/// (the field names) and their order.
macro_rules! features {
    ($(#[doc = $doc:literal] $name:ident,)*) => {
        /// What a candidate sentence is ranked on. Every value is a number, 0 or 1 for
        /// the yes/no ones; cosines are 0 when no vectors took part.
        #[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
        pub struct Features {
            $(#[doc = $doc] pub $name: f64,)*
        }

        /// The features' names, in the order of [`Features::values`].
        pub const NAMES: &[&str] = &[$(stringify!($name)),*];

        impl Features {
            /// The values, in the order of [`NAMES`].
            pub fn values(&self) -> Vec<f64> {
                vec![$(self.$name),*]
            }

            /// The features from their values in the order of [`NAMES`] (missing ones
            /// are 0).
            pub fn from_values(values: &[f64]) -> Self {
                let mut it = values.iter().copied();
                Self { $($name: it.next().unwrap_or(0.0),)* }
            }
        }
    };
}

features! {
    /// IDF-weighted share of the question's key terms the sentence holds.
    coverage,
    /// The same share for its whole passage.
    passage_coverage,
    /// Share of the question's own characters (Chinese) and words (English) in it.
    char_overlap,
    /// Cosine of its sentence vector with the question's.
    cosine,
    /// How far its cosine lies below the best sentence's among all passages.
    cosine_gap,
    /// Cosine of its passage's vector with the question's.
    passage_cosine,
    /// Place of its passage (0 = first).
    rank,
    /// Whether retrieval's fused evidence marked it as its passage's best line.
    highlighted,
    /// Whether it opens its passage.
    first_unit,
    /// Where it stands in its passage (0 = first, 1 = last).
    position,
    /// ln of its length in characters.
    log_chars,
    /// Whether it holds a number.
    has_number,
    /// How many of the question's own numbers it holds, in their unit.
    question_numbers,
    /// Whether one of its conditions holds for the question's situation.
    fit_holds,
    /// Whether it has conditions of the question's kind and none holds.
    fit_fails,
    /// The question asks for an amount and it states one.
    match_amount,
    /// The question asks how long and it states a length of time (in the unit asked).
    match_duration,
    /// The question asks how many and it holds a number.
    match_count,
    /// The question asks who and it names someone.
    match_actor,
    /// The question asks when and it holds a date.
    match_date,
    /// The question asks whether something is allowed and it rules on that.
    match_permission,
    /// The question asks where and it names a place.
    match_place,
    /// The question asks who approves and it names an approval.
    approval,
    /// The question asks for a kind of answer and it offers none.
    asked_unmet,
    /// It is written in the other language than the question.
    cross_lingual,
}

/// Candidate sentences a reranker reads: the best few, since the answer is one of
/// them.
pub const RERANK_SENTENCES: usize = 12;

/// One candidate sentence, described.
#[derive(Debug, Clone)]
pub struct Candidate {
    /// The sentence as quoted: the document's own text, without its clause label.
    pub text: String,
    /// Its passage (`[n]`).
    pub n: usize,
    /// Its clause label (第十九条, 2.1), shown beside the quote.
    pub location: Option<String>,
    /// Byte range of the whole unit (label included) in its passage's text.
    pub span: (usize, usize),
    /// What it is ranked on.
    pub features: Features,
    /// Its score: the learned model's log-odds (with a reranker's bonus).
    pub score: f64,
    /// Its place in a reranker's order, when a reranker read it.
    pub rerank: Option<usize>,
    /// Its passage's document.
    pub doc_id: i64,
    /// The values of its numbers.
    pub numbers: Vec<String>,
    /// The units its numbers are counted in.
    pub units: HashSet<String>,
    /// The question's key terms it holds (indices into the query's terms).
    pub question_terms: HashSet<usize>,
    /// Every number in its passage.
    pub passage_numbers: HashSet<String>,
    /// How its conditions meet the question's situation.
    pub fit: Fit,
}

impl Features {
    /// Whether the sentence offers some kind of answer the question asks for.
    pub fn answers_kind(&self) -> bool {
        [
            self.match_amount,
            self.match_duration,
            self.match_count,
            self.match_actor,
            self.match_date,
            self.match_permission,
            self.match_place,
            self.approval,
        ]
        .iter()
        .any(|v| *v > 0.0)
    }
}

/// The candidate sentences of `passages`, in passage order, described but not ranked.
pub fn candidates(query: &Query, weights: &[f64], passages: &[&Passage]) -> Vec<Candidate> {
    let question = Question {
        query,
        asked: Asked::of(&query.text),
        asked_unit: super::stopwords::asked_unit(&query.text),
        asked_numbers: numbers_in(&query.text)
            .iter()
            .map(|m| (m.value.clone(), unit_after(&query.text, m)))
            .collect(),
        zh: is_chinese(&query.text),
        best_cosine: passages
            .iter()
            .flat_map(|p| p.sentence_similarity.iter().map(|s| s.2))
            .reduce(f32::max),
    };
    let question_chars = Overlap::of(&query.text);
    let mut out = Vec::new();
    for (rank, p) in passages.iter().enumerate() {
        let passage_numbers: HashSet<String> =
            numbers_in(&p.text).into_iter().map(|m| m.value).collect();
        let labels = labels_in(&p.text);
        let highlight = p.highlight.passage_char_start..p.highlight.passage_char_end;
        let units: Vec<(usize, usize)> = split_units(&p.text)
            .into_iter()
            .filter(|&(s, e)| {
                let unit = p.text[s..e].trim();
                unit.chars().count() >= 4 && !is_heading(unit, &p.heading_path)
            })
            .collect();
        // A question in the document (a FAQ's "Do my options stop vesting when I
        // leave?") is not an answer, but what follows it is: the next unit is judged
        // with the question's match.
        let mut asked_line: Option<(f64, Vec<bool>, f64, f64, bool)> = None;
        for (i, &(s, e)) in units.iter().enumerate() {
            let unit = p.text[s..e].trim();
            let tokens = passage_tokens(unit);
            let set: HashSet<&str> = tokens.iter().map(String::as_str).collect();
            let (mut cov, mut found) = coverage(query, weights, &set);
            let mut overlap = question_chars.share_in(unit);
            // The closest sentence vector over this unit (sentence vectors may span two
            // short units).
            let cosine = p
                .sentence_similarity
                .iter()
                .filter(|&&(vs, ve, _)| vs < e && s < ve)
                .map(|v| v.2)
                .reduce(f32::max);
            let mut cosine = cosine.map_or(0.0, f64::from);
            let first_char = p.text[..s].chars().count();
            let last_char = first_char + p.text[s..e].chars().count();
            let mut highlighted = first_char < highlight.end && highlight.start < last_char;
            if unit.ends_with(['?', '？']) {
                asked_line = Some((cov, found, overlap, cosine, highlighted));
                continue;
            }
            if let Some((q_cov, q_found, q_overlap, q_cosine, q_highlighted)) = asked_line.take()
                && q_cov > cov
            {
                (cov, found) = (q_cov, q_found);
                overlap = overlap.max(q_overlap);
                cosine = cosine.max(q_cosine);
                highlighted |= q_highlighted;
            }
            let signals = Signals {
                rank,
                i,
                units: units.len(),
                span: (s, e),
                unit,
                coverage: cov,
                found,
                overlap,
                cosine,
                highlighted,
            };
            out.push(candidate(&question, p, &labels, &passage_numbers, signals));
        }
    }
    out
}

/// What is worked out once per question for [`candidates`].
struct Question<'a> {
    query: &'a Query,
    asked: Asked,
    asked_unit: Option<(evident_text::quantity::Unit, f64)>,
    /// The question's numbers, each with the unit written after it.
    asked_numbers: Vec<(String, Option<String>)>,
    zh: bool,
    /// The best sentence cosine among the passages (with vectors).
    best_cosine: Option<f32>,
}

/// How one unit of a passage matched the question, for [`candidate`].
struct Signals<'a> {
    /// The passage's place among the passages.
    rank: usize,
    /// The unit's place in the passage, of `units`.
    i: usize,
    units: usize,
    span: (usize, usize),
    unit: &'a str,
    coverage: f64,
    found: Vec<bool>,
    overlap: f64,
    cosine: f64,
    highlighted: bool,
}

/// The clause a unit of `text` at `span` belongs to: its own label (then quoted
/// without it, as its location), else the last label before it; and the quote.
fn clause_of<'a>(
    labels: &[(usize, usize, &'a str)],
    text: &'a str,
    (s, e): (usize, usize),
    unit: &'a str,
) -> (Option<&'a str>, &'a str) {
    match labels.iter().find(|(at, _, _)| *at == s) {
        Some(&(_, label_end, label)) if label_end <= e && !text[label_end..e].trim().is_empty() => {
            (Some(label), text[label_end..e].trim())
        }
        _ => (
            labels.iter().rev().find(|(at, _, _)| *at < s).map(|l| l.2),
            unit,
        ),
    }
}

/// The candidate answer sentence a unit of `p` makes: where it is, what it quotes, and
/// the features the ranker reads.
fn candidate(
    question: &Question<'_>,
    p: &Passage,
    labels: &[(usize, usize, &str)],
    passage_numbers: &HashSet<String>,
    signals: Signals<'_>,
) -> Candidate {
    let query = question.query;
    let Signals {
        rank,
        i,
        units,
        span: (s, e),
        unit,
        coverage: cov,
        found,
        overlap,
        cosine,
        highlighted,
    } = signals;
    let (location, quote) = clause_of(labels, &p.text, (s, e), unit);
    // Numbers of the quote, not of its label: 第十一条 answers no "how much".
    let mentions = numbers_in(quote);
    let numbers: Vec<String> = mentions.iter().map(|m| m.value.clone()).collect();
    // The question's own numbers (its condition: 满10年), each in its unit:
    // the 10 of 每月10号 is no 10年.
    let same_numbers = question
        .asked_numbers
        .iter()
        .filter(|(value, unit)| {
            mentions.iter().any(|m| {
                m.value == *value
                    && (unit.is_none() || unit_after(quote, m).as_deref() == unit.as_deref())
            })
        })
        .count();
    // A tier whose condition holds for the question's situation (两年 in 一年以上不满
    // 三年) counts as naming it; one whose condition fails does not, whatever
    // numbers it shares with the question.
    let fit = ranges::fit(&query.text, quote);
    let question_numbers = match fit {
        Fit::Holds => same_numbers.max(1),
        Fit::Fails => 0,
        Fit::Unrelated => same_numbers,
    };
    let offers = Offers::of(quote, &NamesIn::of(quote));
    let mut matched = TypeMatch::of(&question.asked, &offers);
    // A duration in another unit than the one asked (3个月 for 几天) is weaker:
    // the unit asked is what 几天 wants.
    if let Some(unit) = question.asked_unit {
        matched.duration = mentions.iter().any(|m| in_unit(quote, m, unit));
    }
    let approval = query.asks_approver && names_approval(quote);
    let answers_kind = matched.any() || approval;
    let best = question.best_cosine.map_or(0.0, f64::from);
    let with_vectors = !p.sentence_similarity.is_empty();
    let yes = |b: bool| if b { 1.0 } else { 0.0 };
    let features = Features {
        coverage: cov,
        passage_coverage: p.coverage,
        char_overlap: overlap,
        cosine,
        cosine_gap: if with_vectors { best - cosine } else { 0.0 },
        passage_cosine: p.why.cosine.map_or(0.0, f64::from),
        rank: rank as f64,
        highlighted: yes(highlighted),
        first_unit: yes(i == 0),
        position: if units > 1 {
            i as f64 / (units - 1) as f64
        } else {
            0.0
        },
        log_chars: (unit.chars().count() as f64).ln(),
        has_number: yes(!mentions.is_empty()),
        question_numbers: question_numbers as f64,
        fit_holds: yes(fit == Fit::Holds),
        fit_fails: yes(fit == Fit::Fails),
        match_amount: yes(matched.amount),
        match_duration: yes(matched.duration),
        match_count: yes(matched.count),
        match_actor: yes(matched.actor),
        match_date: yes(matched.date),
        match_permission: yes(matched.permission),
        match_place: yes(matched.place),
        approval: yes(approval),
        asked_unmet: yes((question.asked.any() || query.asks_approver) && !answers_kind),
        cross_lingual: yes(is_chinese(quote) != question.zh),
    };
    Candidate {
        text: quote.to_owned(),
        n: p.n,
        location: location.map(|l| l.split_whitespace().collect()),
        span: (s, e),
        features,
        score: 0.0,
        rerank: None,
        doc_id: p.doc_id,
        units: units_of(quote, &mentions),
        numbers,
        question_terms: found
            .iter()
            .enumerate()
            .filter(|(_, f)| **f)
            .map(|(i, _)| i)
            .collect(),
        passage_numbers: passage_numbers.clone(),
        fit,
    }
}

/// Scores every candidate with `model` and sorts them best first (ties: the earlier
/// passage).
pub fn rank(candidates: &mut [Candidate], model: &Linear) {
    for c in candidates.iter_mut() {
        c.score = model.score(&c.features.values());
    }
    sort(candidates);
}

/// How much a reranker's order adds at most: the sentence it scores highest among the
/// best [`RERANK_SENTENCES`] gains this much log-odds (and twice the learned scores'
/// spread among them), the others their share by where their score lies between its
/// lowest and highest. Larger than the learned scores of
/// the best few usually differ by: a cross-encoder reads question and sentence
/// together, which none of the other signals does, so where it sees a clear difference
/// it decides. (Not calibrated: no reranker model can be installed where Evident is
/// measured.)
pub const RERANK_WEIGHT: f64 = 4.0;

/// Lets `reranker` read the best [`RERANK_SENTENCES`] candidates with the question, adds
/// its bonus and sorts them again. Scores are on each model's own scale (logits,
/// probabilities), so only where a score lies between the lowest and the highest counts.
pub fn rerank(
    candidates: &mut [Candidate],
    question: &str,
    reranker: &dyn crate::model::Reranker,
) -> Result<(), crate::message::Message> {
    use crate::message::Message;
    let n = candidates.len().min(RERANK_SENTENCES);
    if n < 2 {
        return Ok(());
    }
    let texts: Vec<&str> = candidates[..n].iter().map(|c| c.text.as_str()).collect();
    let scores = reranker
        .rerank(question, &texts)
        .map_err(|e| Message::RerankUnusable {
            detail: e.to_string(),
            why: Some(e.problem()),
        })?;
    if scores.len() != n {
        return Err(Message::RerankUnusable {
            detail: format!("{} scores for {n} sentences", scores.len()),
            why: None,
        });
    }
    let places = super::rerank::places_by_score(&scores);
    let (low, high) = scores
        .iter()
        .fold((f32::MAX, f32::MIN), |(l, h), &x| (l.min(x), h.max(x)));
    let spread = f64::from(high - low);
    // Plus twice the learned scores' own spread among them: a sentence the reranker
    // puts half its range above another overtakes it, whatever the ranker said.
    let (learned_low, learned_high) = candidates[..n]
        .iter()
        .fold((f64::MAX, f64::MIN), |(l, h), c| {
            (l.min(c.score), h.max(c.score))
        });
    let weight = RERANK_WEIGHT + 2.0 * (learned_high - learned_low);
    for ((c, place), score) in candidates[..n].iter_mut().zip(places).zip(&scores) {
        c.rerank = Some(place);
        if spread > 0.0 {
            c.score += weight * f64::from(score - low) / spread;
        }
    }
    sort(candidates);
    Ok(())
}

/// Sorts candidates best first; ties go to the earlier passage. A tier whose condition
/// fails for the question's situation (asked about twelve years of service, "已满1年不满
/// 10年的，年休假5天") goes after every sentence whose condition does not fail, whatever
/// its score: conditions are logic, not a weight, and the public sets the ranker learned
/// from hardly have any, so it gave them almost none.
pub fn sort(candidates: &mut [Candidate]) {
    candidates.sort_by(|a, b| {
        fails(a)
            .cmp(&fails(b))
            .then(b.score.total_cmp(&a.score))
            .then(a.n.cmp(&b.n))
    });
}

/// Whether `c` is a tier whose condition fails for the question's situation.
fn fails(c: &Candidate) -> bool {
    c.features.fit_fails > 0.0 && c.features.fit_holds == 0.0
}

/// Characters and words of a question, to measure how much of it a sentence repeats:
/// Chinese characters one by one (a different cut of the same words still overlaps),
/// English words as the index stems them, question words left out.
struct Overlap {
    chars: HashSet<char>,
    words: HashSet<String>,
}

/// Characters that carry the form of a Chinese question or sentence, not its topic.
const FUNCTION_CHARS: &str = "的了吗呢吧啊呀么是在有和与及或就都也还又被把对给让会能要得地这那个什哪谁几多少怎样如何我你他她它们请问可以应该该";

impl Overlap {
    fn of(question: &str) -> Self {
        let folded = evident_text::segment::simplified(&evident_text::normalize::nfkc(question));
        Self {
            chars: folded
                .chars()
                .filter(|&c| is_cjk(c) && c.is_alphanumeric() && !FUNCTION_CHARS.contains(c))
                .collect(),
            words: english_words(&folded)
                .into_iter()
                .filter(|w| !super::stopwords::is_stop_word(w))
                .collect(),
        }
    }

    /// The share of the question's characters and words found in `sentence`.
    fn share_in(&self, sentence: &str) -> f64 {
        let total = self.chars.len() + self.words.len();
        if total == 0 {
            return 0.0;
        }
        let folded = evident_text::segment::simplified(&evident_text::normalize::nfkc(sentence));
        let chars: HashSet<char> = folded.chars().collect();
        let words: HashSet<String> = english_words(&folded).into_iter().collect();
        let found = self.chars.iter().filter(|c| chars.contains(c)).count()
            + self.words.iter().filter(|w| words.contains(*w)).count();
        found as f64 / total as f64
    }
}

/// English words of `text` in index form.
fn english_words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| w.len() > 1 && w.chars().any(|c| c.is_ascii_alphabetic()))
        .filter_map(evident_text::segment::term_form)
        .collect()
}

/// Whether `text` is mostly Chinese (by its letters).
pub fn is_chinese(text: &str) -> bool {
    let (mut cjk, mut latin) = (0usize, 0usize);
    for c in text.chars() {
        if is_cjk(c) && c.is_alphanumeric() {
            cjk += 1;
        } else if c.is_ascii_alphabetic() {
            latin += 1;
        }
    }
    // A Chinese character carries about a word; an English word about five letters.
    cjk * 5 >= latin
}

static CLAUSE_LABEL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?m)^\s*(第[^\S\n]*[零〇一二三四五六七八九十百千两0-9０-９]+[^\S\n]*条|[0-9]{1,2}(?:\.[0-9]{1,2})+)")
        .expect("valid regex")
});

/// The clause labels that open a line of `text` (第十九条, 2.1), as byte ranges. A
/// numbered label (2.1) counts only when a space and a capital or a Chinese word
/// follow it and the text has at least two of them, so that "1.5 times", "3.5 元"
/// and a lone "2.5 Days" stay numbers.
pub fn labels_in(text: &str) -> Vec<(usize, usize, &str)> {
    let found: Vec<(usize, usize, &str)> = CLAUSE_LABEL
        .captures_iter(text)
        .filter_map(|c| c.get(1))
        .filter(|m| {
            if m.as_str().starts_with('第') {
                return true;
            }
            let rest = &text[m.end()..];
            let after = rest.trim_start_matches([' ', '\t', '\u{3000}']);
            after.len() < rest.len()
                && after.chars().next().is_some_and(|c| {
                    c.is_uppercase()
                        || (is_cjk(c)
                            && !"元日天个月年倍周岁次人名条款项页章节小时分钟秒号种级类份万千百亿"
                                .contains(c))
                })
        })
        .map(|m| (m.start(), m.end(), m.as_str()))
        .collect();
    let numbered = found.iter().filter(|l| !l.2.starts_with('第')).count();
    if numbered >= 2 {
        found
    } else {
        found
            .into_iter()
            .filter(|l| l.2.starts_with('第'))
            .collect()
    }
}

/// The units a sentence's numbers are counted in: the word right after each number
/// (元, 个月, 日, %, weeks), folded so that full-width and ASCII forms agree.
fn units_of(sentence: &str, mentions: &[NumberMention]) -> HashSet<String> {
    mentions
        .iter()
        .filter_map(|m| unit_after(sentence, m))
        .collect()
}

/// The unit written right after a number (元, 个月, 日, %, week), folded.
fn unit_after(sentence: &str, m: &NumberMention) -> Option<String> {
    let after = evident_text::normalize::nfkc(sentence[m.end..].trim_start());
    let mut chars = after.chars();
    let first = chars.next()?;
    if first.is_alphabetic() && !is_cjk(first) {
        let word: String = after
            .chars()
            .take_while(|c| c.is_alphabetic())
            .collect::<String>()
            .to_lowercase();
        return Some(word.trim_end_matches('s').to_owned());
    }
    let unit: String = match first {
        '个' | '周' | '倍' | '小' => after.chars().take(2).collect(),
        c if c.is_alphanumeric() || c == '%' => c.to_string(),
        _ => return None,
    };
    Some(unit)
}

/// Whether a number of `sentence` is written in `unit` (the unit of time a question
/// asks in: 几天 is answered by 10天 or 5个工作日, not by 3个月 nor 2周).
fn in_unit(sentence: &str, m: &NumberMention, unit: (evident_text::quantity::Unit, f64)) -> bool {
    evident_text::quantity::unit_at(&sentence[m.end..]) == Some(unit)
}

/// Whether a sentence speaks of approving (审批, 批准, approve ...).
fn names_approval(sentence: &str) -> bool {
    let lower = sentence.to_lowercase();
    APPROVAL_WORDS.iter().any(|w| lower.contains(w))
}

/// A heading line says what a section is about, not what the policy says.
fn is_heading(unit: &str, headings: &[String]) -> bool {
    use crate::extract::structure::{LineRole, line_role};
    let ends = unit.chars().last().is_some_and(|c| {
        matches!(
            c,
            '。' | '！' | '？' | '；' | '.' | '!' | '?' | ';' | '：' | ':'
        )
    });
    headings.iter().any(|h| h.trim() == unit)
        || matches!(line_role(unit), LineRole::Heading(_))
        || (!ends && unit.chars().count() <= 40 && !unit.chars().any(|c| c == '，' || c == ','))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_question_shares_its_characters_and_words() {
        let q = Overlap::of("单笔报销超过多少需要分管副总审批？");
        let share = q.share_in("单笔报销超过20,000元的，须经分管副总经理审批。");
        assert!(share > 0.8, "{share}");
        let en = Overlap::of("How many weeks of parental leave do I get?");
        assert!(en.share_in("Birthing parents receive 16 weeks of parental leave.") > 0.6);
        assert!(en.share_in("单笔报销超过20,000元的") < 0.01);
    }

    #[test]
    fn languages_are_told_apart_by_their_letters() {
        assert!(is_chinese("年假有几天？"));
        assert!(!is_chinese("How many days of PTO do I get?"));
        assert!(is_chinese("我的PTO有几天？"));
    }

    #[test]
    fn every_feature_has_a_name_and_a_value() {
        assert_eq!(NAMES.len(), Features::default().values().len());
        let unique: HashSet<&&str> = NAMES.iter().collect();
        assert_eq!(unique.len(), NAMES.len());
    }
}
