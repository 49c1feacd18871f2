//! The composer before the learned ranker, kept only to be measured beside it: its
//! hand-tuned sum (coverage, a sentence-vector bonus of 0.3, a number bonus, an
//! approver bonus, the question's numbers, the rank of the passage) and its gate, as
//! `answer::compose` computed them until the ranker was learned. Applied to the same
//! candidates, so that both are measured on exactly the same sentences.

use evident_core::search::Query;
use evident_core::search::choose::Candidate;
use evident_core::search::stopwords::{Quantity, asked_quantity, asked_unit};
use evident_text::numbers::{NumberMention, numbers_in};
use evident_text::quantity::unit_at;
use evident_text::ranges::Fit;

// The hand weights, as they were (Weights::default()).
const MIN_COVERAGE: f64 = 0.3;
const RANK_PENALTY: f64 = 0.03;
const NUMBER_BONUS: f64 = 0.2;
const VECTOR_WEIGHT: f64 = 0.3;
const VECTOR_SCALE: f64 = 0.08;

/// The old composer's score of `c` for `query`, or `None` when its gate left it out.
pub fn score(query: &Query, c: &Candidate) -> Option<f64> {
    let f = &c.features;
    let cov = f.coverage;
    let closeness = if f.cosine != 0.0 || f.cosine_gap != 0.0 {
        (1.0 - f.cosine_gap / VECTOR_SCALE).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let approval = f.approval > 0.0;
    let answers_situation = c.fit == Fit::Holds && (approval || query.asks_number);
    if cov < MIN_COVERAGE && closeness < 0.5 && !(cov > 0.0 && answers_situation) {
        return None;
    }
    let mut score = cov - RANK_PENALTY * f.rank + VECTOR_WEIGHT * closeness;
    let mentions = numbers_in(&c.text);
    let of_kind = match (asked_unit(&query.text), asked_quantity(&query.text)) {
        (Some(unit), _) => mentions
            .iter()
            .any(|m| unit_at(&c.text[m.end..]) == Some(unit)),
        (None, Some(kind)) => mentions
            .iter()
            .any(|m| quantity_of(&c.text, m) == Some(kind)),
        (None, None) => !mentions.is_empty(),
    };
    if query.asks_number && of_kind {
        score += NUMBER_BONUS;
    } else if query.asks_number && !mentions.is_empty() {
        score += NUMBER_BONUS * 0.5;
    }
    if approval {
        score += NUMBER_BONUS;
    }
    score += NUMBER_BONUS * f.question_numbers;
    Some(score)
}

/// The kind of quantity a number of `sentence` is (as the old composer read it).
fn quantity_of(sentence: &str, m: &NumberMention) -> Option<Quantity> {
    let before = &sentence[..m.start];
    if before.ends_with(['$', '¥', '￥', '€', '£']) || before.ends_with("百分之") {
        return Some(Quantity::Amount);
    }
    match unit_at(&sentence[m.end..]) {
        Some((unit, _)) if unit.is_time() => Some(Quantity::Duration),
        Some(_) => Some(Quantity::Amount),
        None => None,
    }
}
