//! The keyword side of retrieval: a bounded FTS5 query, BM25 candidates, re-scored by
//! how much of the question they cover (see `rank`).

use super::query::{self, Query};
use super::rank::{self, Scored};
use super::{ROW_BUDGET, SearchOptions};
use crate::Result;
use crate::message::Message;
use crate::store::Store;

/// What the keyword side found.
pub struct Lexical {
    /// IDF weight of each of the query's terms (same order as `query.terms`).
    pub weights: Vec<f64>,
    /// Candidates, ranked best first.
    pub ranked: Vec<Scored>,
    /// Why there are none, when there are none.
    pub empty_reason: Option<Message>,
}

/// Runs the keyword side for `query` over a store of `n` chunks.
pub fn candidates(
    store: &Store,
    query: &Query,
    n: i64,
    options: &SearchOptions,
) -> Result<Lexical> {
    // Document frequency of a term: its most frequent spelling; a phrase counts as
    // frequent as its rarest word (an upper bound on the phrase). `costs` are the rows
    // the term's part of the full-text query matches (prefixes match many words).
    let mut dfs = Vec::with_capacity(query.terms.len());
    let mut costs = Vec::with_capacity(query.terms.len());
    for term in &query.terms {
        let (mut best, mut cost) = (0, 0);
        for alt in &term.alternatives {
            let mut rarest = i64::MAX;
            for token in alt {
                rarest = rarest.min(store.document_frequency(token)?);
            }
            if rarest != i64::MAX {
                best = best.max(rarest);
            }
            cost += if query::is_single_cjk(alt) {
                store.prefix_frequency(&alt[0])?
            } else if rarest == i64::MAX {
                0
            } else {
                rarest
            };
        }
        dfs.push(best);
        costs.push(cost);
    }
    let weights: Vec<f64> = query
        .terms
        .iter()
        .zip(&dfs)
        .map(|(t, &df)| rank::term_weight(t, rank::idf(df, n)))
        .collect();
    let empty = |weights: Vec<f64>, reason: Message| Lexical {
        weights,
        ranked: Vec::new(),
        empty_reason: Some(reason),
    };
    let present: Vec<usize> = (0..dfs.len()).filter(|&i| costs[i] > 0).collect();
    if present.is_empty() {
        return Ok(empty(weights, Message::NoKeyWordInDocuments));
    }
    let mut by_cost = present.clone();
    by_cost.sort_by_key(|&i| (costs[i], i));
    let within = |budget: i64| -> Vec<usize> {
        let mut rows = 0;
        let mut chosen = Vec::new();
        for &i in &by_cost {
            if !chosen.is_empty() && rows + costs[i] > budget {
                break;
            }
            rows += costs[i];
            chosen.push(i);
        }
        chosen
    };
    let chosen = within(ROW_BUDGET);
    let Some(expr) = query.match_expression(&chosen) else {
        return Ok(empty(weights, Message::NoWords));
    };
    let limit = options.candidates.max(options.k);
    let scope = options.documents.as_deref();
    let mut hits = store.match_chunks(&expr, limit, scope)?;
    // Too few candidates (a narrow scope, or only very rare words): widen once.
    if hits.len() < limit && chosen.len() < present.len() {
        let wider = if scope.is_some() {
            present.clone()
        } else {
            within(ROW_BUDGET * 4)
        };
        if wider.len() > chosen.len()
            && let Some(expr) = query.match_expression(&wider)
        {
            hits = store.match_chunks(&expr, limit, scope)?;
        }
    }
    let ids: Vec<i64> = hits.iter().map(|h| h.0).collect();
    let stored = store.passages(&ids)?;
    let mut ranked: Vec<Scored> = stored
        .into_iter()
        .zip(hits.iter().map(|h| h.1))
        .map(|(p, bm25)| rank::score(query, &weights, p, bm25))
        .collect();
    rank::rank(&mut ranked);
    let empty_reason = ranked.is_empty().then_some(Message::NoPassageWithKeyWords);
    Ok(Lexical {
        weights,
        ranked,
        empty_reason,
    })
}
