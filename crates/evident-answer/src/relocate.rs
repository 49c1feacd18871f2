//! Finding a cited passage again in the library as it is now.
//!
//! A source remembers the document id and character offsets it had when the answer was
//! given. Neither lasts: a rebuild numbers documents anew, a re-import after an edit
//! gives the file a new id, and an edit moves every offset after it. Opening an old
//! answer by id could show another document, or the right one at the wrong place. So a
//! source is found again by what survives: the file's path and the passage's own text.
//! The passage found where it was, or elsewhere in the same file, is shown there; a
//! passage no longer in the file is said to have changed, and the document as it is now
//! is offered.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::Result;
use crate::store::Store;

/// Where a cited passage is now.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Located {
    /// The document's id now.
    pub doc_id: i64,
    /// `same` (where it was), `moved` (the same text elsewhere in the file: an edit
    /// before it, or a rebuild) or `changed` (its text is no longer in the file; the
    /// offsets are then where it was, kept within the document).
    pub status: LocatedStatus,
    /// Char offset of the passage in the document's current text.
    pub char_start: i64,
    /// Char offset just past it.
    pub char_end: i64,
    /// The highlighted sentence's offsets, moved with the passage.
    pub highlight_start: i64,
    /// See `highlight_start`.
    pub highlight_end: i64,
}

/// Whether a passage is still where the answer found it.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LocatedStatus {
    /// Same text, same place.
    Same,
    /// Same text, another place in the same file.
    Moved,
    /// The text is no longer in the file.
    Changed,
}

/// Finds the passage `text`, once at `[char_start, char_end)` with its highlight at
/// `[highlight_start, highlight_end)`, in the document now stored for `path`. `None`
/// when no document of that path is in the library.
///
/// The document is the one with `doc_id` while that id still holds a file shown as
/// `path` (a stored answer holds a name that is not UTF-8 as it was shown, lossily,
/// and two such names can read alike); after a rebuild renumbered the documents, the
/// one at `path` exactly, else the only one shown as `path`.
pub fn locate(
    store: &Store,
    doc_id: i64,
    path: &Path,
    text: &str,
    char_start: i64,
    char_end: i64,
    highlight: (i64, i64),
) -> Result<Option<Located>> {
    let shown = path.to_string_lossy();
    let doc = match store.document(doc_id)? {
        Some(doc) if doc.path.to_string_lossy() == shown => Some(doc),
        _ => match store.document_by_path(path)? {
            Some(doc) => Some(doc),
            None => store.document_by_shown_path(&shown)?,
        },
    };
    let Some(doc) = doc else {
        return Ok(None);
    };
    let pages = store.pages_of(doc.id)?;
    let current: String = pages.iter().map(|p| p.text.as_str()).collect();
    let len = current.chars().count() as i64;
    let within = |v: i64| v.clamp(0, len);
    let (status, start) = match nearest(&current, text, char_start) {
        Some(at) if at == char_start => (LocatedStatus::Same, at),
        Some(at) => (LocatedStatus::Moved, at),
        None => (LocatedStatus::Changed, within(char_start)),
    };
    let shift = start - char_start;
    let passage_len = text.chars().count() as i64;
    let end = if status == LocatedStatus::Changed {
        within(char_end)
    } else {
        start + passage_len
    };
    let (hl_start, hl_end) = if status == LocatedStatus::Changed {
        (within(highlight.0), within(highlight.1))
    } else {
        (
            (highlight.0 + shift).clamp(start, end),
            (highlight.1 + shift).clamp(start, end),
        )
    };
    Ok(Some(Located {
        doc_id: doc.id,
        status,
        char_start: start,
        char_end: end,
        highlight_start: hl_start,
        highlight_end: hl_end,
    }))
}

/// The char offset of the occurrence of `needle` in `haystack` nearest to `hint`.
fn nearest(haystack: &str, needle: &str, hint: i64) -> Option<i64> {
    if needle.is_empty() {
        return None;
    }
    let mut best: Option<i64> = None;
    let mut chars_before = 0i64;
    let mut last_byte = 0usize;
    for (byte, _) in haystack.match_indices(needle) {
        chars_before += haystack[last_byte..byte].chars().count() as i64;
        last_byte = byte;
        if best.is_none_or(|b| (chars_before - hint).abs() < (b - hint).abs()) {
            best = Some(chars_before);
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::nearest;

    #[test]
    fn the_occurrence_nearest_the_old_place_is_taken() {
        let text = "甲条。乙条。甲条。丙条。";
        assert_eq!(nearest(text, "甲条。", 0), Some(0));
        assert_eq!(nearest(text, "甲条。", 7), Some(6));
        assert_eq!(nearest(text, "丁条。", 0), None);
    }
}
