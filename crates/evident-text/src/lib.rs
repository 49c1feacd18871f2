//! Text primitives shared by indexing and (later) querying: Unicode normalisation,
//! line joining, sentence boundaries and the jieba-based segmenter.
//!
//! Indexing and querying must agree byte for byte on how text becomes tokens, so
//! everything that shapes a token lives here and nowhere else.

pub mod normalize;
pub mod numbers;
pub mod quantity;
pub mod ranges;
pub mod segment;
pub mod sentence;
