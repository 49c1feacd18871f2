//! The fused top passages reordered by a cross-encoder, when the user has one.
//!
//! Fusion decides which passages are candidates; a reranker (`model::Reranker`) reads
//! the question with each of the best [`RERANK_CANDIDATES`] and puts them in its own
//! order, which then decides the top k. Only its order is used: its scores mean
//! different things per model. A reranker that fails leaves the fused order as it was
//! and says why, as a missing embeddings server leaves keyword search.

use std::collections::HashMap;

use super::fuse::Fused;
use super::rank::Scored;
use crate::message::Message;
use crate::model::Reranker;

/// Fused passages a reranker reads (at least k): enough to lift a passage fusion put
/// tenth, few enough for a cross-encoder on a CPU to read in about a second.
pub const RERANK_CANDIDATES: usize = 20;

/// What a passage is to a reranker: where it stands (title, then headings, each
/// once), then its text.
pub fn rerank_text(scored: &Scored) -> String {
    let p = &scored.passage;
    let mut place: Vec<&str> = Vec::new();
    for part in std::iter::once(p.title.as_str()).chain(p.heading_path.iter().map(String::as_str)) {
        let part = part.trim();
        if !part.is_empty() && !place.contains(&part) {
            place.push(part);
        }
    }
    if place.is_empty() {
        p.text.clone()
    } else {
        format!("{}\n{}", place.join(" > "), p.text)
    }
}

/// Puts `fused` in the reranker's order (each passage's place in it kept in its ranks).
/// `by_id` must hold every passage of `fused`. On failure `fused` is left as it was and
/// the reason is returned.
pub fn reorder(
    reranker: &dyn Reranker,
    question: &str,
    fused: &mut [Fused],
    by_id: &HashMap<i64, Scored>,
) -> Result<(), Message> {
    let texts: Vec<String> = fused
        .iter()
        .map(|f| by_id.get(&f.chunk_id).map(rerank_text).unwrap_or_default())
        .collect();
    let documents: Vec<&str> = texts.iter().map(String::as_str).collect();
    let scores = reranker
        .rerank(question, &documents)
        .map_err(|e| Message::RerankUnusable {
            detail: e.to_string(),
            why: Some(e.problem()),
        })?;
    if scores.len() != fused.len() {
        return Err(Message::RerankUnusable {
            detail: format!("{} scores for {} passages", scores.len(), fused.len()),
            why: None,
        });
    }
    let places = places_by_score(&scores);
    for (f, place) in fused.iter_mut().zip(&places) {
        f.ranks.rerank = Some(*place);
    }
    fused.sort_by_key(|f| f.ranks.rerank.unwrap_or(usize::MAX));
    Ok(())
}

/// The 1-based place of each score when sorted best first (ties keep their order).
pub fn places_by_score(scores: &[f32]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..scores.len()).collect();
    order.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]).then(a.cmp(&b)));
    let mut places = vec![0; scores.len()];
    for (place, i) in order.into_iter().enumerate() {
        places[i] = place + 1;
    }
    places
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_put_the_highest_score_first_and_keep_ties_in_order() {
        assert_eq!(places_by_score(&[0.1, 3.0, -2.0, 3.0]), [3, 1, 4, 2]);
        assert_eq!(places_by_score(&[]), Vec::<usize>::new());
    }
}
