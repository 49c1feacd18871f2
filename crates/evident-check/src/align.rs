//! Alignment: which clause of a passage a claim speaks of.
//!
//! A passage is segmented once into [`Clause`]s with their tokens and quantities
//! ([`Evidence`]). A claim is aligned to the clause, or pair of adjacent clauses (a
//! summary of two), that shares most of its key words, with its conditions weighing
//! most: "请假3天以内的，…" aligns to the tier whose condition is 3天以内, not to the one
//! with 3天以上, whatever the consequence says. The claim is then judged there
//! ([`super::bindings`]), and that clause is the span the user is shown.

use std::collections::HashSet;
use std::sync::LazyLock;

use super::claims::{Claim, neutral, token_set, weight};
use super::clauses::{Clause, clauses};
use evident_index::search::{Aliases, Passage};
use evident_text::quantity::{Quantity, bound_span, quantities};
use evident_text::segment::passage_tokens;

/// Synonyms a faithful summary may use: search's built-in list and the check's own.
static SYNONYMS: LazyLock<Aliases> =
    LazyLock::new(|| Aliases::builtin_with(include_str!("paraphrases.txt")));

/// What a passage offers as evidence, segmented once per check.
pub struct Evidence {
    /// The passage text.
    pub text: String,
    /// Tokens of the passage's headings (a claim may name its chapter).
    pub heading_tokens: HashSet<String>,
    /// The clauses.
    pub clauses: Vec<Clause>,
    /// Index tokens of each clause.
    pub clause_tokens: Vec<HashSet<String>>,
    /// Every quantity of the passage, in passage offsets.
    pub quantities: Vec<Quantity>,
    /// Every number value of the passage (for clause references, 第X条).
    pub numbers: Vec<String>,
}

/// The clause (or two adjacent clauses) a claim aligns to.
#[derive(Debug, Clone)]
pub struct Aligned {
    /// Indices into [`Evidence::clauses`], in order (one or two).
    pub clauses: Vec<usize>,
    /// The alignment score (shared key words, conditions weighing most).
    pub score: f64,
    /// Key words of the claim found in the clause, its context or the headings.
    pub found: usize,
    /// Their share of the claim's key words, by weight ([`super::claims::weight`]).
    pub share: f64,
}

impl Evidence {
    /// Segments `p`.
    pub fn of(p: &Passage) -> Self {
        let text = p.text.clone();
        let clauses = clauses(&text);
        let clause_tokens = clauses
            .iter()
            .map(|c| token_set(&text[c.start..c.end]))
            .collect();
        Self {
            heading_tokens: token_set(&p.heading_path.join(" ")),
            clause_tokens,
            // Clause labels (第三十三条) are places, not amounts.
            quantities: quantities(&text)
                .into_iter()
                .filter(|q| !text[..q.start].trim_end().ends_with('第'))
                .collect(),
            numbers: evident_text::numbers::numbers_in(&text)
                .into_iter()
                .map(|m| m.value)
                .collect(),
            clauses,
            text,
        }
    }

    /// The quantities inside `text[s..e]`.
    fn quantities_in(&self, s: usize, e: usize) -> impl Iterator<Item = &Quantity> {
        self.quantities
            .iter()
            .filter(move |q| q.start >= s && q.end <= e)
    }

    /// The clause nearest to the aligned ones (the same article first) that holds
    /// `q`'s value.
    pub fn clause_with(&self, q: &Quantity, aligned: &Aligned) -> Option<usize> {
        let at = aligned.clauses.first().copied().unwrap_or(0);
        self.clauses
            .iter()
            .enumerate()
            .filter(|(i, c)| {
                !aligned.clauses.contains(i)
                    && self.quantities_in(c.start, c.end).any(|s| s.same_value(q))
            })
            .min_by_key(|(i, _)| i.abs_diff(at))
            .map(|(i, _)| i)
    }

    /// Clause `i`'s first condition, as written.
    pub fn condition_of(&self, i: usize) -> Option<String> {
        let &(s, e) = self.clauses.get(i)?.conditions.first()?;
        Some(self.text[s..e].trim().to_owned())
    }

    /// Clause `i` as written.
    pub fn clause_text(&self, i: usize) -> String {
        self.clauses
            .get(i)
            .map(|c| self.text[c.start..c.end].trim().to_owned())
            .unwrap_or_default()
    }

    /// `q` as written, with its unit.
    pub fn written(&self, q: &Quantity) -> String {
        self.text[q.start..q.end].trim().to_owned()
    }

    /// `q` as written with its bound words.
    pub fn bound_text(&self, q: &Quantity) -> String {
        let (s, e) = bound_span(&self.text, q);
        self.text[s..e].trim().to_owned()
    }

    /// Whether the condition starting at byte `s` is a table cell's header.
    pub fn is_cell_header(&self, s: usize) -> bool {
        self.text[s..]
            .split(';')
            .next()
            .is_some_and(|cell| cell.contains(": "))
            && self
                .clauses
                .iter()
                .any(|c| c.conditions.len() > 1 && c.conditions.iter().any(|&(cs, _)| cs == s))
    }

    /// Whether the claim states the value of the table cell whose header starts at `s`.
    pub fn cell_value_claimed(&self, claim: &Claim, s: usize) -> bool {
        let cell = self.text[s..].split(';').next().unwrap_or_default();
        let e = s + cell.len();
        self.quantities_in(s, e)
            .any(|v| claim.quantities.iter().any(|q| q.same_value(v)))
    }

    /// Aligns `claim` to its best clause or pair of adjacent clauses.
    pub fn align(&self, claim: &Claim) -> Option<Aligned> {
        let single: Vec<f64> = (0..self.clauses.len())
            .map(|i| self.score(claim, &[i]))
            .collect();
        let mut best: Option<Aligned> = None;
        let mut consider = |clauses: Vec<usize>, score: f64| {
            if score > 0.0 && best.as_ref().is_none_or(|b| score > b.score) {
                best = Some(Aligned {
                    clauses,
                    score,
                    found: 0,
                    share: 0.0,
                });
            }
        };
        for (i, &s) in single.iter().enumerate() {
            consider(vec![i], s);
        }
        // A pair only for a claim that summarises two clauses: the second must add
        // several key words (not numbers: a number of the neighbouring tier is the
        // mistake this check exists to catch) that the first lacks.
        let gain = 1;
        for i in 1..self.clauses.len() {
            let (a, b) = (self.words(claim, &[i - 1]), self.words(claim, &[i]));
            let both = self.words(claim, &[i - 1, i]);
            // Or a claim that states both tiers' numbers ("3天以内的提前1个工作日，3天以上的
            // 提前5个工作日"): only the pair holds all its quantities.
            let holds_all = |w: &[usize]| {
                !claim.quantities.is_empty()
                    && claim.quantities.iter().all(|q| {
                        w.iter().any(|&j| {
                            self.quantities_in(self.clauses[j].start, self.clauses[j].end)
                                .any(|s| s.same_value(q))
                        })
                    })
            };
            // A summary states each tier whole (condition and consequence): four or
            // more quantities, each clause holding one the other lacks. A condition of
            // one tier with the number of the next (two quantities) is no summary.
            let own = |j: usize, other: usize| {
                claim.quantities.iter().any(|q| {
                    let has = |k: usize| {
                        self.quantities_in(self.clauses[k].start, self.clauses[k].end)
                            .any(|s| s.same_value(q))
                    };
                    has(j) && !has(other)
                })
            };
            let summary = claim.quantities.len() >= 4
                && holds_all(&[i - 1, i])
                && own(i - 1, i)
                && own(i, i - 1);
            // With numbers, a pair only when each clause holds a number of the claim the
            // other lacks: two facts from two clauses, not one clause's number borrowed.
            // Or each clause holds one of them and together they hold all: two tiers
            // that share a number ("难产的，增加15天；多胞胎的，每多1个，增加15天").
            let holds_one = |j: usize| {
                claim.quantities.iter().any(|q| {
                    self.quantities_in(self.clauses[j].start, self.clauses[j].end)
                        .any(|s| s.same_value(q))
                })
            };
            let numbers_fit = claim.quantities.is_empty()
                || (own(i - 1, i) && own(i, i - 1))
                || (holds_all(&[i - 1, i]) && holds_one(i - 1) && holds_one(i));
            // Two tiers, each with its own condition, for a claim that states one
            // condition: the consequence of one borrowed for the other, never a summary.
            let two_tiers = !self.clauses[i - 1].conditions.is_empty()
                && !self.clauses[i].conditions.is_empty()
                && claim.conditions.len() == 1;
            if (numbers_fit && !two_tiers && both >= a.max(b) + gain && a.min(b) >= 2) || summary {
                consider(vec![i - 1, i], self.score(claim, &[i - 1, i]));
            }
        }
        let mut best = best?;
        let found = self.found(claim, &best.clauses);
        best.found = found.len();
        // Grammatical words count when found and are not missed when not.
        let total: f64 = claim
            .terms
            .iter()
            .filter(|t| !neutral(t) || found.contains(t))
            .map(|t| weight(t))
            .sum();
        best.share = if total > 0.0 {
            found.iter().map(|t| weight(t)).sum::<f64>() / total
        } else {
            1.0
        };
        Some(best)
    }

    /// Key words of `claim` (numbers aside) found in `window`.
    fn words(&self, claim: &Claim, window: &[usize]) -> usize {
        claim
            .terms
            .iter()
            .filter(|t| window.iter().any(|&i| self.clause_tokens[i].contains(*t)))
            .count()
    }

    /// Key words of `claim` in the clauses, their context and the headings; a word
    /// counts as found when a synonym of it is there (员工 for 劳动者, let know for
    /// inform: the built-in synonyms and the check's own paraphrase list).
    fn found<'c>(&self, claim: &'c Claim, window: &[usize]) -> Vec<&'c String> {
        let context: Vec<usize> = window
            .iter()
            .flat_map(|&i| self.clauses[i].context.iter().copied())
            .collect();
        let here = |t: &str| {
            window
                .iter()
                .chain(&context)
                .any(|&i| self.clause_tokens[i].contains(t))
                || self.heading_tokens.contains(t)
        };
        // A word's other forms: "employment" for "employee" (one stem begins the
        // other), 书面通知 for 以书面形式通知 (each part of a compound there).
        let tokens: Vec<&String> = window
            .iter()
            .chain(&context)
            .flat_map(|&i| self.clause_tokens[i].iter())
            .chain(&self.heading_tokens)
            .collect();
        let texts: Vec<Vec<char>> = window
            .iter()
            .chain(&context)
            .map(|&i| {
                self.text[self.clauses[i].start..self.clauses[i].end]
                    .chars()
                    .collect()
            })
            .collect();
        let related = |t: &str| {
            if t.chars().any(evident_text::normalize::is_cjk) {
                let parts: Vec<String> = passage_tokens(t)
                    .into_iter()
                    .filter(|p| p != t && p.chars().count() >= 2)
                    .collect();
                let compound = t.chars().count() >= 3
                    && parts.len() >= 2
                    && parts.iter().all(|p| here(p.as_str()));
                compound || texts.iter().any(|x| abbreviates(t, x))
            } else {
                t.len() >= 5
                    && tokens.iter().any(|w| {
                        w.len() >= 5
                            && w.is_ascii()
                            && (w.starts_with(t) || t.starts_with(w.as_str()))
                    })
            }
        };
        let synonyms = SYNONYMS.matches(&claim.tokens);
        claim
            .terms
            .iter()
            .filter(|t| {
                here(t.as_str())
                    || related(t.as_str())
                    || synonyms.iter().any(|(start, len, group)| {
                        claim.tokens[*start..start + len].contains(t)
                            && group
                                .iter()
                                .any(|p| p.tokens.iter().all(|pt| here(pt.as_str())))
                    })
            })
            .collect()
    }

    /// How well `window` matches `claim`: shared key words, plus the claim's quantities
    /// found there, those of its conditions in the clause's conditions counting most.
    fn score(&self, claim: &Claim, window: &[usize]) -> f64 {
        let terms = claim
            .terms
            .iter()
            .filter(|t| window.iter().any(|&i| self.clause_tokens[i].contains(*t)))
            .count() as f64;
        let mut bonus = 0.0;
        for q in &claim.quantities {
            let in_window: Vec<&Quantity> = window
                .iter()
                .flat_map(|&i| self.quantities_in(self.clauses[i].start, self.clauses[i].end))
                .filter(|s| s.same_value(q))
                .collect();
            if in_window.is_empty() {
                continue;
            }
            bonus += 2.0;
            if claim.in_condition(q) {
                let fits = in_window.iter().any(|s| {
                    !s.direction.opposes(q.direction)
                        && window.iter().any(|&i| {
                            self.clauses[i]
                                .conditions
                                .iter()
                                .any(|&(cs, ce)| s.start >= cs && s.end <= ce)
                        })
                });
                // The claim's condition is the clause's condition: the strongest sign
                // that this is the tier it speaks of.
                bonus += if fits { 2.0 } else { -2.0 };
            }
        }
        terms + bonus
    }
}

impl Aligned {
    /// The byte range the window spans in the passage.
    pub fn span(&self, ev: &Evidence) -> (usize, usize) {
        let first = self.clauses.first().map_or(0, |&i| ev.clauses[i].start);
        let last = self.clauses.last().map_or(0, |&i| ev.clauses[i].end);
        (first, last)
    }

    /// The window's text in `ev`.
    pub fn text_in(&self, ev: &Evidence) -> String {
        let (s, e) = self.span(ev);
        ev.text[s..e].to_owned()
    }

    /// The window's conditions (byte ranges in the passage).
    pub fn conditions<'a>(&'a self, ev: &'a Evidence) -> impl Iterator<Item = &'a (usize, usize)> {
        self.clauses
            .iter()
            .flat_map(move |&i| ev.clauses[i].conditions.iter())
    }

    /// The window's first condition, as written.
    pub fn condition_text(&self, ev: &Evidence) -> Option<String> {
        self.clauses.iter().find_map(|&i| ev.condition_of(i))
    }

    /// The quantities inside the window.
    pub fn quantities<'e>(&self, ev: &'e Evidence) -> Vec<&'e Quantity> {
        let (s, e) = self.span(ev);
        ev.quantities_in(s, e).collect()
    }

    /// The quantities of the window's context (article head, list lead), where that
    /// context is no rule of its own: an article head that is itself the first tier
    /// ("第九条 …已满1年不满10年的，年休假5天；") binds nothing to the next tier.
    pub fn context_quantities<'e>(&self, ev: &'e Evidence) -> Vec<&'e Quantity> {
        self.clauses
            .iter()
            .flat_map(|&i| ev.clauses[i].context.iter())
            .filter(|c| !self.clauses.contains(c) && ev.clauses[**c].conditions.is_empty())
            .flat_map(|&c| ev.quantities_in(ev.clauses[c].start, ev.clauses[c].end))
            .collect()
    }
}

/// Whether the Chinese word `short` abbreviates words of `text`: its characters in
/// order within a short span (社保费 in 社会保险费, 人员名单 in 人员的名单, 所在单位 in
/// 所在用人单位).
fn abbreviates(short: &str, text: &[char]) -> bool {
    let want: Vec<char> = short.chars().collect();
    if want.len() < 2 {
        return false;
    }
    let max_span = 2 * want.len() + 2;
    text.iter().enumerate().any(|(start, &c)| {
        if c != want[0] {
            return false;
        }
        let mut k = 1;
        for (offset, &x) in text[start + 1..].iter().enumerate() {
            if offset + 2 > max_span || !evident_text::normalize::is_cjk(x) {
                break;
            }
            if x == want[k] {
                k += 1;
                if k == want.len() {
                    return true;
                }
            }
        }
        false
    })
}
