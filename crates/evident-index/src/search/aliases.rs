//! The user's alias table: words their company uses for the same thing.
//!
//! A plain UTF-8 file, one group per line, phrases separated by `=`:
//!
//! ```text
//! # Evident aliases: a question with any phrase of a line also finds the others.
//! 退钱 = 退款
//! APM-210 = APM210
//! Q1 = 第一季度 = first quarter
//! ```
//!
//! Aliases expand the question, not the index, so editing the file takes effect on the
//! next question with no re-index. Lines that are blank or start with `#` are ignored;
//! a line with fewer than two phrases is reported, not guessed at.

use std::path::{Path, PathBuf};

use crate::problem::Problem;
use crate::{Error, Result};
use evident_text::normalize::nfkc;
use evident_text::segment::query_terms;

/// File name of the alias table, kept next to the database.
pub const ALIASES_FILE: &str = "aliases.txt";

/// A parsed alias table.
#[derive(Debug, Clone, Default)]
pub struct Aliases {
    groups: Vec<Vec<Phrase>>,
}

/// One phrase of an alias group: how it reads and its index tokens.
#[derive(Debug, Clone)]
pub struct Phrase {
    /// The phrase, NFKC-normalised and lower-cased.
    pub text: String,
    /// Its index tokens, in order.
    pub tokens: Vec<String>,
}

/// A problem on one line of the alias file.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct AliasWarning {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong.
    pub reason: String,
}

/// The built-in synonym list (see `synonyms.txt`).
const BUILTIN: &str = include_str!("synonyms.txt");

impl Aliases {
    /// The built-in synonyms: everyday words for the terms policies use (周末 = 休息日,
    /// 辞职 = 解除劳动合同, PTO = paid time off).
    pub fn builtin() -> Self {
        Self::parse(BUILTIN).0
    }

    /// The built-in synonyms but the lines in `left_out` (as written in the list), to
    /// measure what each line adds (`evident-bench eval --synonyms-without`).
    pub fn builtin_except(left_out: &[String]) -> Self {
        let kept: String = BUILTIN
            .lines()
            .filter(|l| !left_out.iter().any(|x| x.trim() == l.trim()))
            .map(|l| format!("{l}\n"))
            .collect();
        Self::parse(&kept).0
    }

    /// The built-in synonyms with `extra` lines in the same format added.
    pub fn builtin_with(extra: &str) -> Self {
        let mut all = Self::builtin();
        all.groups.extend(Self::parse(extra).0.groups);
        all
    }

    /// The built-in synonyms plus the user's table at `path` (missing file: none).
    pub fn load_with_builtin(path: &Path) -> Result<(Self, Vec<AliasWarning>)> {
        let (user, warnings) = Self::load(path)?;
        let mut all = Self::builtin();
        all.groups.extend(user.groups);
        Ok((all, warnings))
    }

    /// Parses alias lines; returns the table and one warning per unusable line.
    pub fn parse(text: &str) -> (Self, Vec<AliasWarning>) {
        let mut groups = Vec::new();
        let mut warnings = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let phrases: Vec<Phrase> = line
                .split('=')
                .map(|p| nfkc(p.trim()).to_lowercase())
                .filter(|p| !p.is_empty())
                .map(|text| Phrase {
                    tokens: query_terms(&text),
                    text,
                })
                .filter(|p| !p.tokens.is_empty())
                .collect();
            if phrases.len() < 2 {
                warnings.push(AliasWarning {
                    line: i + 1,
                    reason: "needs at least two phrases separated by '=', e.g. 退钱 = 退款".into(),
                });
                continue;
            }
            groups.push(phrases);
        }
        (Self { groups }, warnings)
    }

    /// Loads the table from `path`; a missing file is an empty table.
    pub fn load(path: &Path) -> Result<(Self, Vec<AliasWarning>)> {
        let what = crate::problem::Limited::UserFile;
        match crate::limits::read_capped_if_present(path, crate::limits::MAX_USER_FILE_BYTES, what)?
        {
            Some(bytes) => {
                let text = String::from_utf8(bytes)
                    .map_err(|_| Error::input(path, Problem::AliasesNotUtf8))?;
                Ok(Self::parse(&text))
            }
            None => Ok((Self::default(), vec![])),
        }
    }

    /// Saves `text` as the alias file at `path`: atomically and one writer at a time
    /// ([`crate::user_file`]), so a crash or a second writer never leaves half a table.
    pub fn save(path: &Path, text: &str) -> Result<()> {
        crate::user_file::locked(path, || {
            crate::user_file::write(path, text.as_bytes(), false)
        })
    }

    /// The alias file that belongs to the database at `db`.
    pub fn path_for(db: &Path) -> PathBuf {
        db.parent()
            .unwrap_or_else(|| Path::new("."))
            .join(ALIASES_FILE)
    }

    /// Groups with a phrase whose tokens occur in order in `tokens` (a question's terms):
    /// `(start, len, group)` for each match.
    pub fn matches<'a>(&'a self, tokens: &[String]) -> Vec<(usize, usize, &'a [Phrase])> {
        let mut out = Vec::new();
        for group in &self.groups {
            for phrase in group {
                let n = phrase.tokens.len();
                if let Some(start) = tokens
                    .windows(n)
                    .position(|w| w == phrase.tokens.as_slice())
                {
                    out.push((start, n, group.as_slice()));
                    break;
                }
            }
        }
        out
    }

    /// Number of alias groups.
    pub fn len(&self) -> usize {
        self.groups.len()
    }

    /// Whether the table is empty.
    pub fn is_empty(&self) -> bool {
        self.groups.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_parse_and_bad_lines_are_reported() {
        let (a, w) =
            Aliases::parse("# comment\n退钱 = 退款\n\nAPM-210 = APM210 = ＡＰＭ２１０\noops\n");
        assert_eq!(a.len(), 2);
        assert_eq!(w.len(), 1);
        assert_eq!(w[0].line, 5, "the warning names the line: {w:?}");
    }

    #[test]
    fn a_phrase_matches_the_question_terms_in_order() {
        let (a, _) = Aliases::parse("退钱 = 退款\n");
        let q = query_terms("怎么退钱");
        let m = a.matches(&q);
        assert_eq!(m.len(), 1, "{q:?}");
        assert!(m[0].2.iter().any(|p| p.text == "退款"));
    }

    #[test]
    fn the_builtin_synonyms_parse_cleanly() {
        let (a, w) = Aliases::parse(BUILTIN);
        assert!(w.is_empty(), "{w:?}");
        assert!(a.len() > 20);
    }

    #[test]
    fn a_missing_file_is_an_empty_table() {
        let (a, w) = Aliases::load(Path::new("/nonexistent/evident/aliases.txt"))
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(a.is_empty() && w.is_empty());
    }
}
