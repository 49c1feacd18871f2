//! Citation markers in an answer: `[1]`, `[1, 2]`, `[1][2]`, `【1】`, `[^1]`.
//!
//! Whoever wrote the answer (Evident's extractive composer, a model, a person), the
//! markers are parsed the same way, and the sentence text is checked without them.

use std::sync::LazyLock;

use regex::Regex;

static MARKER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\[\^?\s*(\d{1,4}(?:\s*[,，、;；]\s*\^?\d{1,4})*)\s*\]|【\s*(\d{1,4}(?:\s*[,，、;；]\s*\d{1,4})*)\s*】")
        .expect("valid regex")
});

/// A citation marker found in text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Marker {
    /// Byte range of the marker.
    pub start: usize,
    /// Byte offset just past the marker.
    pub end: usize,
    /// The passage numbers it cites, in order.
    pub numbers: Vec<usize>,
}

/// Every citation marker in `text`, in order.
pub fn markers(text: &str) -> Vec<Marker> {
    MARKER
        .captures_iter(text)
        .filter_map(|c| {
            let whole = c.get(0)?;
            let list = c.get(1).or_else(|| c.get(2))?.as_str();
            let numbers = list
                .split(|ch: char| !ch.is_ascii_digit())
                .filter_map(|n| n.parse().ok())
                .collect();
            Some(Marker {
                start: whole.start(),
                end: whole.end(),
                numbers,
            })
        })
        .collect()
}

/// `text` with its citation markers removed.
pub fn strip_markers(text: &str) -> String {
    MARKER.replace_all(text, "").into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cited(s: &str) -> Vec<usize> {
        markers(s).into_iter().flat_map(|m| m.numbers).collect()
    }

    #[test]
    fn every_usual_form_parses() {
        assert_eq!(cited("审批[1]"), [1]);
        assert_eq!(cited("审批[1, 2]"), [1, 2]);
        assert_eq!(cited("审批[1][2]"), [1, 2]);
        assert_eq!(cited("审批【3】"), [3]);
        assert_eq!(cited("approval[^4]"), [4]);
        assert_eq!(cited("审批[1，2、3]"), [1, 2, 3]);
    }

    #[test]
    fn brackets_that_are_not_citations_are_left_alone() {
        assert!(cited("see [the policy] and [a]").is_empty());
        assert_eq!(strip_markers("超过5000元[1][2]。"), "超过5000元。");
    }
}
