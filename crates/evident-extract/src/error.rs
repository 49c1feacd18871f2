//! What can go wrong reading one file: the file itself could not be read, or its
//! content cannot be used (a code the user is told in their language). Either is
//! reported for that file, and the rest of the work goes on.

use std::path::PathBuf;

use evident_words::problem::Problem;

/// Result alias used throughout extraction.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Why a file could not be extracted.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The file could not be read from disk.
    #[error("{path}: {source}")]
    Io {
        /// The file that failed.
        path: PathBuf,
        /// The operating-system error.
        source: std::io::Error,
    },
    /// The file is readable but its content cannot be used (empty, undecodable, ...).
    #[error("{}: {why}", path.display())]
    Input {
        /// The offending file.
        path: PathBuf,
        /// What is wrong with it.
        why: Problem,
    },
    /// A PDF could not be read (encrypted, damaged, crashed the reader).
    #[error("{}: {why}", path.display())]
    Pdf {
        /// The offending PDF.
        path: PathBuf,
        /// What is wrong with it.
        why: Problem,
    },
}

impl Error {
    /// Builds an [`Error::Io`] for `path`.
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Error::Io {
            path: path.into(),
            source,
        }
    }

    /// Builds an [`Error::Input`] for `path`.
    pub fn input(path: impl Into<PathBuf>, why: Problem) -> Self {
        Error::Input {
            path: path.into(),
            why,
        }
    }

    /// What is wrong, as a code the user is told in their language.
    pub fn problem(&self) -> Problem {
        match self {
            Error::Io { source, .. } => Problem::io(source),
            Error::Input { why, .. } | Error::Pdf { why, .. } => why.clone(),
        }
    }

    /// What is wrong, in English, without the file's name.
    pub fn reason(&self) -> String {
        match self {
            Error::Io { source, .. } => source.to_string(),
            Error::Input { why, .. } | Error::Pdf { why, .. } => why.to_string(),
        }
    }
}
