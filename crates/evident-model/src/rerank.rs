//! Reranking: a cross-encoder reads the question and each passage together and says how
//! well the passage answers it. The seam retrieval and the composer use ([`Reranker`])
//! and the [`ModelServer`]'s `/v1/rerank` client behind it.
//!
//! An embedding model compares two vectors made apart; a reranker (bge-reranker-v2-m3,
//! jina-reranker, Qwen3-Reranker) sees both texts at once, which is what choosing the one
//! sentence that answers a colloquial question needs. Many users run one behind the
//! rerank API that llama.cpp's server, vLLM, Infinity, Jina and Cohere share: a
//! `{model, query, documents, top_n}` request and a `{results: [{index,
//! relevance_score}]}` reply. Nothing here is trusted either: every document must come
//! back exactly once with a finite score, whatever order the server sends them in
//! (most send the best first). Infinity serves the API at `/rerank` without `/v1`:
//! when `…/v1/rerank` is not there, `…/rerank` is tried once.
//!
//! A reranker only reorders: scores mean different things per model (llama.cpp sends
//! raw logits, Cohere values in 0..1), so passages take its order, and sentences where
//! each score lies between its lowest and highest for the question.

use std::time::Duration;

use serde::Deserialize;
use serde_json::json;

use super::{ModelServer, ServerError, ServerErrorKind};
use crate::Result;

/// Longest a rerank request may take: a cross-encoder on a CPU reads every passage with
/// the question, about a tenth of a second each for a small one.
pub const RERANK_TIMEOUT: Duration = Duration::from_secs(30);

/// Scores texts against a question: the seam between answering and a cross-encoder.
pub trait Reranker: Send + Sync {
    /// One relevance score per document, in the documents' order (higher is better).
    fn rerank(&self, query: &str, documents: &[&str]) -> Result<Vec<f32>>;

    /// The model's name, for the record and for messages.
    fn model(&self) -> String;
}

#[derive(Deserialize)]
#[serde(untagged)]
enum RerankReply {
    /// Jina, Cohere, llama.cpp, vLLM, Infinity.
    Results { results: Vec<RerankItem> },
    /// Some servers call the list `data`.
    Data { data: Vec<RerankItem> },
    /// Hugging Face TEI's `/rerank`: a bare list.
    List(Vec<RerankItem>),
}

#[derive(Deserialize)]
struct RerankItem {
    index: usize,
    #[serde(alias = "score")]
    relevance_score: f64,
}

impl ModelServer {
    fn rerank_at(
        &self,
        url: &str,
        query: &str,
        documents: &[&str],
        timeout: Duration,
    ) -> std::result::Result<Vec<f32>, ServerError> {
        let body = json!({
            "model": self.config().model.trim(),
            "query": query,
            "documents": documents,
            "top_n": documents.len(),
            "return_documents": false,
        });
        let response = self
            .send_request_once_timed_out(|client| client.post(url).json(&body).timeout(timeout))?;
        let bytes = response
            .bytes()
            .map_err(|e| self.error(ServerErrorKind::BadReply, format!("reply cut off: {e}")))?;
        let reply: RerankReply = serde_json::from_slice(&bytes).map_err(|e| {
            self.error(
                ServerErrorKind::BadReply,
                format!("not a rerank reply: {e}"),
            )
        })?;
        let items = match reply {
            RerankReply::Results { results } => results,
            RerankReply::Data { data } => data,
            RerankReply::List(items) => items,
        };
        scores_in_order(items, documents.len())
            .map_err(|why| self.error(ServerErrorKind::BadReply, why))
    }

    /// [`Reranker::rerank`] with the error as the server gave it.
    fn rerank_within(
        &self,
        query: &str,
        documents: &[&str],
        timeout: Duration,
    ) -> std::result::Result<Vec<f32>, ServerError> {
        if documents.is_empty() {
            return Ok(Vec::new());
        }
        if self.config().model.trim().is_empty() {
            return Err(self.error(ServerErrorKind::BadSettings, "no reranker model is set"));
        }
        self.ensure_model_listed()?;
        let url = self.endpoint("rerank");
        match self.rerank_at(&url, query, documents, timeout) {
            Err(e) if e.status == Some(404) && e.kind != ServerErrorKind::ModelMissing => {
                // Infinity and TEI serve `/rerank` at the root.
                match self.root_endpoint("rerank") {
                    Some(root) if root != url => {
                        // The first error is the one to report: the address given.
                        self.rerank_at(&root, query, documents, timeout)
                            .map_err(|_| e)
                    }
                    _ => Err(e),
                }
            }
            other => other,
        }
    }
}

/// The scores of `items` in document order: every document exactly once, finite.
fn scores_in_order(
    items: Vec<RerankItem>,
    documents: usize,
) -> std::result::Result<Vec<f32>, String> {
    let mut scores: Vec<Option<f32>> = vec![None; documents];
    for item in items {
        let Some(slot) = scores.get_mut(item.index) else {
            return Err(format!(
                "a score for document {} of {documents}",
                item.index + 1
            ));
        };
        if slot.is_some() {
            return Err(format!("two scores for document {}", item.index + 1));
        }
        if !item.relevance_score.is_finite() {
            return Err(format!(
                "score of document {} is not a number",
                item.index + 1
            ));
        }
        *slot = Some(item.relevance_score as f32);
    }
    let missing = scores.iter().filter(|s| s.is_none()).count();
    if missing > 0 {
        return Err(format!("no score for {missing} of {documents} documents"));
    }
    Ok(scores.into_iter().flatten().collect())
}

impl Reranker for ModelServer {
    fn rerank(&self, query: &str, documents: &[&str]) -> Result<Vec<f32>> {
        Ok(self.rerank_within(query, documents, self.rerank_timeout())?)
    }

    fn model(&self) -> String {
        self.config().model.trim().to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(index: usize, relevance_score: f64) -> RerankItem {
        RerankItem {
            index,
            relevance_score,
        }
    }

    #[test]
    fn scores_come_back_in_document_order_whatever_order_they_arrive_in() {
        let got = scores_in_order(vec![item(2, 0.9), item(0, -1.5), item(1, 0.1)], 3);
        assert_eq!(got, Ok(vec![-1.5, 0.1, 0.9]));
    }

    #[test]
    fn a_reply_missing_doubling_or_inventing_documents_is_refused() {
        let missing = scores_in_order(vec![item(0, 1.0)], 2);
        assert_eq!(missing, Err("no score for 1 of 2 documents".into()));
        let twice = scores_in_order(vec![item(0, 1.0), item(0, 2.0)], 2);
        assert_eq!(twice, Err("two scores for document 1".into()));
        let beyond = scores_in_order(vec![item(5, 1.0)], 2);
        assert_eq!(beyond, Err("a score for document 6 of 2".into()));
        let nan = scores_in_order(vec![item(0, f64::NAN)], 1);
        assert!(nan.is_err_and(|e| e.contains("not a number")));
    }

    #[test]
    fn every_reply_shape_parses() {
        for body in [
            r#"{"results":[{"index":0,"relevance_score":0.5}]}"#,
            r#"{"model":"m","object":"list","results":[{"index":0,"relevance_score":0.5,"document":{"text":"x"}}],"usage":{}}"#,
            r#"{"data":[{"index":0,"relevance_score":0.5}]}"#,
            r#"[{"index":0,"score":0.5}]"#,
        ] {
            assert!(serde_json::from_str::<RerankReply>(body).is_ok(), "{body}");
        }
    }
}
