//! Context assembly: which passages an answer may draw on, within a token budget.
//!
//! The budget is separate from top-k: search decides what is relevant, the budget
//! decides how much of it fits. Passages are taken in rank order; a hit that starts or
//! ends in the middle of a clause gets its neighbouring chunk from the same section, so
//! the clause can be read whole. What does not fit is listed as truncated, never
//! silently dropped.

use serde::Serialize;

use crate::Result;
use crate::extract::structure::{LineRole, line_role};
use crate::search::Passage;
use crate::store::{Store, StoredPassage};

/// Default context budget in index tokens.
pub const DEFAULT_BUDGET_TOKENS: usize = 1500;

/// A neighbouring chunk added to complete a hit's clause.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, Serialize, serde::Deserialize)]
pub struct Neighbour {
    /// The hit it belongs to (`[n]`).
    pub of: usize,
    /// Chunk id.
    pub chunk_id: i64,
    /// Whether it comes before the hit (else after).
    pub before: bool,
    /// Its text.
    pub text: String,
    /// Its size in index tokens.
    pub token_count: i64,
}

/// The passages an answer may use.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, Serialize, serde::Deserialize)]
pub struct Context {
    /// Budget in index tokens.
    pub budget_tokens: usize,
    /// Tokens used by the included passages and neighbours.
    pub used_tokens: usize,
    /// Numbers (`n`) of the passages included, in rank order.
    pub included: Vec<usize>,
    /// Neighbouring chunks added to complete clauses.
    pub neighbours: Vec<Neighbour>,
    /// Numbers of the passages that did not fit in the budget.
    pub truncated: Vec<usize>,
}

fn starts_mid_clause(p: &StoredPassage) -> bool {
    p.ordinal > 0
        && matches!(
            line_role(p.text.lines().next().unwrap_or("")),
            LineRole::Body
        )
}

/// Chooses the passages of `hits` that fit in `budget` tokens, with neighbours.
pub fn assemble(store: &Store, hits: &[Passage], budget: usize) -> Result<Context> {
    let mut ctx = Context {
        budget_tokens: budget,
        used_tokens: 0,
        included: Vec::new(),
        neighbours: Vec::new(),
        truncated: Vec::new(),
    };
    for hit in hits {
        let size = hit.token_count.max(0) as usize;
        if !ctx.truncated.is_empty() || ctx.used_tokens + size > budget {
            ctx.truncated.push(hit.n);
            continue;
        }
        ctx.used_tokens += size;
        ctx.included.push(hit.n);
        let first_line = hit.text.lines().next().unwrap_or("");
        let mid_clause_start = hit.ordinal > 0 && line_role(first_line) == LineRole::Body;
        let mut wanted = Vec::new();
        if mid_clause_start {
            wanted.push((hit.ordinal - 1, true));
        }
        wanted.push((hit.ordinal + 1, false));
        for (ordinal, before) in wanted {
            let Some(n) = store.passage_at(hit.doc_id, ordinal)? else {
                continue;
            };
            // Only the same section, and after the hit only if its clause runs on.
            if n.heading_path != hit.heading_path || (!before && !starts_mid_clause(&n)) {
                continue;
            }
            if hits.iter().any(|h| h.chunk_id == n.chunk_id)
                || ctx.neighbours.iter().any(|x| x.chunk_id == n.chunk_id)
            {
                continue;
            }
            let size = n.token_count.max(0) as usize;
            if ctx.used_tokens + size > budget {
                continue;
            }
            ctx.used_tokens += size;
            ctx.neighbours.push(Neighbour {
                of: hit.n,
                chunk_id: n.chunk_id,
                before,
                text: n.text,
                token_count: n.token_count,
            });
        }
    }
    Ok(ctx)
}
