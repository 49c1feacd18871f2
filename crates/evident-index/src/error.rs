//! The core's one error type.
//!
//! Variants are split by who can act on them: problems with a user's file or input
//! (`Input`, `Unsupported`, `Pdf`, ...) are reported per file and the rest of the work
//! goes on; store problems (`DatabaseCorrupt`, `NeedsRebuild`, ...) carry a way out in
//! their message; `Sqlite` and `Io` are internal failures.

use std::path::PathBuf;

use crate::problem::Problem;

/// Result alias used throughout the core.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Everything that can go wrong in the core.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A file could not be read from disk.
    #[error("{path}: {source}")]
    Io {
        /// The file or folder that failed.
        path: PathBuf,
        /// The operating-system error.
        source: std::io::Error,
    },
    /// A user's file is readable but its content cannot be used (empty, undecodable, ...).
    #[error("{}: {why}", path.display())]
    Input {
        /// The offending file.
        path: PathBuf,
        /// What is wrong with it, as a code the user is told in their language.
        why: Problem,
    },
    /// A PDF could not be read; the reason says why (encrypted, damaged, crashed the reader).
    #[error("{}: {why}", path.display())]
    Pdf {
        /// The offending PDF.
        path: PathBuf,
        /// What is wrong with it.
        why: Problem,
    },
    /// An option or argument is out of range.
    #[error("invalid setting: {0}")]
    InvalidConfig(String),
    /// No document matches the path or id the user gave.
    #[error("no imported document matches {0:?}")]
    DocumentNotFound(String),
    /// The database file is damaged or is not an Evident database at all.
    #[error(
        "the database {path} is damaged ({reason}). Run `evident rebuild` to rebuild it from your \
         source files; the damaged file will be kept beside it as a .broken copy, and your question \
         history, aliases and settings (separate files) are kept as they are"
    )]
    DatabaseCorrupt {
        /// The database file.
        path: PathBuf,
        /// What SQLite reported.
        reason: String,
    },
    /// The database was written by a newer Evident than this one.
    #[error(
        "the database {path} was written by a newer version of Evident (schema {found}, this \
         version understands up to {supported}); update Evident or use another --db"
    )]
    DatabaseTooNew {
        /// The database file.
        path: PathBuf,
        /// Schema version in the file.
        found: i64,
        /// Newest schema this build knows.
        supported: i64,
    },
    /// The list of source files could not be recovered for a rebuild.
    #[error("cannot rebuild {path}: {reason}")]
    RebuildImpossible {
        /// The database file.
        path: PathBuf,
        /// Why the sources are unknown.
        reason: String,
    },
    /// The model server (embeddings) failed; the message says what the user can do.
    #[error("{0}")]
    Server(#[from] crate::model::ServerError),
    /// The built-in embeddings model (a GGUF file run by Evident's worker) cannot be
    /// used; search goes on by keyword.
    #[error("the embeddings model {path}: {reason}")]
    Model {
        /// The model file.
        path: PathBuf,
        /// Why it cannot be used.
        reason: String,
    },
    /// An internal SQLite failure.
    #[error("database error: {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// A thread splitting a large document into passages failed; the document is not
    /// imported (rather than imported with a hole in it).
    #[error("splitting the text into passages failed ({0}); nothing of this document was imported")]
    Chunking(String),
    /// The operating system refused a worker thread (out of memory or thread limit).
    #[error("could not start a worker thread: {0}")]
    Thread(std::io::Error),
    /// An internal JSON (de)serialisation failure.
    #[error("internal data error: {0}")]
    Json(#[from] serde_json::Error),
}

impl From<evident_model::Error> for Error {
    fn from(e: evident_model::Error) -> Self {
        match e {
            evident_model::Error::Server(e) => Self::Server(e),
            evident_model::Error::Model { path, reason } => Self::Model { path, reason },
        }
    }
}

impl From<evident_extract::Error> for Error {
    fn from(e: evident_extract::Error) -> Self {
        match e {
            evident_extract::Error::Io { path, source } => Self::Io { path, source },
            evident_extract::Error::Input { path, why } => Self::Input { path, why },
            evident_extract::Error::Pdf { path, why } => Self::Pdf { path, why },
        }
    }
}

impl Error {
    /// Builds an [`Error::Io`] for `path`.
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Self::Io {
            path: path.into(),
            source,
        }
    }

    /// Builds an [`Error::Input`] for `path`.
    pub fn input(path: impl Into<PathBuf>, why: Problem) -> Self {
        Self::Input {
            path: path.into(),
            why,
        }
    }

    /// What went wrong as a code with parameters, for the user's language. Store and
    /// internal failures, which name no file of the user's, are `Other` in English.
    pub fn problem(&self) -> Problem {
        match self {
            Self::Io { source, .. } => Problem::io(source),
            Self::Input { why, .. } | Self::Pdf { why, .. } => why.clone(),
            Self::Server(e) => Problem::Server(e.clone()),
            Self::Model { path, reason } => Problem::Model {
                path: path.display().to_string(),
                detail: reason.clone(),
            },
            other => Problem::Other {
                detail: other.to_string(),
            },
        }
    }

    /// A short, stable machine-readable code for this error, for JSON output and the UI.
    pub fn code(&self) -> ErrorCode {
        match self {
            Self::Io { .. } => ErrorCode::Io,
            Self::Input { .. } => ErrorCode::BadInput,
            Self::Pdf { .. } => ErrorCode::BadPdf,
            Self::InvalidConfig(_) => ErrorCode::InvalidConfig,
            Self::DocumentNotFound(_) => ErrorCode::NotFound,
            Self::DatabaseCorrupt { .. } => ErrorCode::DatabaseCorrupt,
            Self::DatabaseTooNew { .. } => ErrorCode::DatabaseTooNew,
            Self::RebuildImpossible { .. } => ErrorCode::RebuildImpossible,
            Self::Server(_) => ErrorCode::ModelServer,
            Self::Model { .. } => ErrorCode::ModelFile,
            Self::Sqlite(_) | Self::Json(_) | Self::Thread(_) | Self::Chunking(_) => {
                ErrorCode::Internal
            }
        }
    }

    /// The reason without the file path, for per-file summaries that print the path anyway.
    pub fn reason(&self) -> String {
        match self {
            Self::Io { source, .. } => source.to_string(),
            Self::Input { why, .. } | Self::Pdf { why, .. } => why.to_string(),
            Self::Model { reason, .. } => reason.clone(),
            other => other.to_string(),
        }
    }
}

/// What kind of failure an [`Error`] is, for a program to act on (the window offers a
/// rebuild for `database_corrupt`); the words for people are the error's message.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// A file or folder could not be read or written.
    Io,
    /// What was given cannot be used (a file of the wrong kind, a bad value).
    BadInput,
    /// A PDF could not be read.
    BadPdf,
    /// Settings or options that cannot work.
    InvalidConfig,
    /// The document or entry asked for is not there.
    NotFound,
    /// The database is damaged (a rebuild from the source files repairs it).
    DatabaseCorrupt,
    /// The database was written by a newer Evident.
    DatabaseTooNew,
    /// A rebuild cannot be done.
    RebuildImpossible,
    /// A model server failed.
    ModelServer,
    /// A model file cannot be used.
    ModelFile,
    /// Evident's own failure.
    Internal,
}

impl ErrorCode {
    /// The JSON name.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Io => "io",
            Self::BadInput => "bad_input",
            Self::BadPdf => "bad_pdf",
            Self::InvalidConfig => "invalid_config",
            Self::NotFound => "not_found",
            Self::DatabaseCorrupt => "database_corrupt",
            Self::DatabaseTooNew => "database_too_new",
            Self::RebuildImpossible => "rebuild_impossible",
            Self::ModelServer => "model_server",
            Self::ModelFile => "model_file",
            Self::Internal => "internal",
        }
    }
}
