//! A checked sentence's verdict: the colour the window shows it in.

use serde::Serialize;

/// How well a sentence is backed by its sources.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// A cited (or, if uncited, some retrieved) passage backs the sentence.
    Supported,
    /// Some of it is backed; the reasons say what is not.
    PartiallySupported,
    /// Nothing retrieved backs it (or it cites what was not retrieved).
    Unsupported,
}
