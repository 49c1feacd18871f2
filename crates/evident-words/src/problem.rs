//! Why a file could not be imported, or a model server used, as a code with
//! parameters rather than an English sentence.
//!
//! The same idea as [`crate::message`] (which says why a sentence is flagged or an
//! answer uncertain), for the other things a user is told: the window says a problem in
//! its own language (`ui/src/words.ts`), the CLI in the locale, and
//! [`Problem::text`] gives both wordings here, so that the English stays in the JSON
//! (`reason`) beside the code (`why`). Parameters are data: a number, a file's part, a
//! library's own words about a damaged file (`detail`), which no one translates.

use serde::{Deserialize, Serialize};

use crate::catalogue::{self, Kind};
use crate::message::Lang;
use crate::server::ServerError;

/// What kind of document a size limit is for.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Limited {
    /// PDF documents.
    Pdf,
    /// Word documents.
    Docx,
    /// Markdown and text documents.
    Text,
    /// Files Evident keeps for the user (aliases, settings).
    UserFile,
}

/// One problem, as a code and its parameters.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "code", content = "params", rename_all = "snake_case")]
pub enum Problem {
    /// The operating system could not read the file.
    Unreadable {
        /// `not_found`, `permission_denied` or `other`.
        cause: String,
        /// The system's words.
        detail: String,
    },
    /// The file is empty.
    Empty,
    /// A binary file with a text name.
    Binary,
    /// The text's encoding is not UTF-8 and could not be recognised (or, with an
    /// encoding, the bytes are not valid in it).
    Undecodable {
        /// The encoding it was read as, if one was recognised.
        encoding: Option<String>,
    },
    /// The file has no text at all.
    NoText,
    /// The file is larger than Evident reads.
    TooLarge {
        /// Its size in MB.
        mb: u64,
        /// The limit in MB.
        limit_mb: u64,
        /// What kind of file the limit is for.
        kind: Limited,
    },
    /// The file changed while it was read; it is read again once saved.
    Changed,
    /// A link out of the folder being imported is not followed.
    LinkOutside {
        /// Where the link points.
        target: String,
    },
    /// A format Evident does not read.
    Unsupported {
        /// The extension (`.xlsx`), or empty when there is none.
        ext: String,
    },
    /// An old binary Word document (.doc).
    OldWord,
    /// A password-protected Word document.
    WordLocked,
    /// Not a Word document (no readable archive, or no document body).
    NotWord {
        /// What the archive reader said, if anything.
        detail: String,
    },
    /// A part of the Word file is damaged.
    WordDamaged {
        /// The part (`word/document.xml`).
        part: String,
        /// What the reader said.
        detail: String,
    },
    /// The Word archive holds far more entries than a document does.
    WordTooManyParts {
        /// Entries in the archive.
        entries: usize,
    },
    /// A part of the Word archive inflates to far more than a document's (a zip bomb?).
    WordPartTooLarge {
        /// The part.
        part: String,
        /// The limit in MB.
        limit_mb: u64,
    },
    /// Not a PDF (no %PDF header).
    NotPdf,
    /// A password-protected PDF.
    PdfLocked,
    /// The PDF is damaged.
    PdfDamaged {
        /// What the reader said.
        detail: String,
    },
    /// The PDF has no pages.
    PdfNoPages,
    /// The PDF's text does not decode to readable characters.
    PdfNoUnicode,
    /// No page has a text layer: a scan.
    PdfScanned {
        /// Pages.
        pages: usize,
    },
    /// Pages without a text layer (scanned images?), not indexed; the others were.
    PagesTextless {
        /// The pages, as ranges (`2–4, 7`).
        pages: String,
        /// How many.
        count: usize,
    },
    /// Pages whose text does not decode to readable characters, not indexed.
    PagesUnreadable {
        /// The pages, as ranges (`2–4, 7`).
        pages: String,
        /// How many.
        count: usize,
    },
    /// One page could not be decoded; the text read before the failure is kept.
    PageUnread {
        /// The page.
        page: u32,
        /// What the decoder said.
        detail: String,
    },
    /// Pages without a text layer were read from their images (OCR): their text may
    /// hold reading mistakes.
    PagesRead {
        /// The pages, as ranges.
        pages: String,
        /// How many.
        count: usize,
    },
    /// Pages whose images held no text that could be read (blank, a photograph).
    PagesNoText {
        /// The pages, as ranges.
        pages: String,
        /// How many.
        count: usize,
    },
    /// Scanned pages cannot be read: Tesseract or its language data is missing.
    OcrUnavailable {
        /// The Debian packages that read scans.
        packages: String,
        /// What is missing.
        detail: String,
    },
    /// Tesseract failed on a page.
    OcrFailed {
        /// What happened, in English.
        detail: String,
    },
    /// The import was cancelled before this file was written.
    Cancelled,
    /// A drawing on the page draws itself; the loop was cut.
    FormLoop {
        /// The page.
        page: u32,
    },
    /// No text could be read, for the reasons given.
    PdfNoText {
        /// The page warnings, in English.
        detail: String,
    },
    /// The PDF reader process failed, stopped or was stopped; the file may be damaged.
    PdfReader {
        /// What happened to it, in English.
        detail: String,
    },
    /// The document could not be saved to the database.
    NotSaved {
        /// What SQLite said.
        detail: String,
    },
    /// Another Evident process is using the database.
    DatabaseBusy,
    /// The system's limit of watched folders is reached.
    WatchLimit,
    /// A folder cannot be watched for changes.
    WatchFailed {
        /// What the system said.
        detail: String,
    },
    /// The alias file is not UTF-8.
    AliasesNotUtf8,
    /// The settings file is not valid.
    SettingsInvalid {
        /// What the parser said.
        detail: String,
    },
    /// A server was set up without choosing one of its models.
    NoModelChosen,
    /// A model server failed.
    Server(ServerError),
    /// The built-in embeddings model cannot be used.
    Model {
        /// The model file.
        path: String,
        /// Why, in English.
        detail: String,
    },
    /// A model file chosen for embeddings is another kind of model.
    NotEmbeddingModel {
        /// The model file.
        path: String,
        /// llama.cpp's architecture name for it.
        architecture: String,
    },
    /// Anything else, in English.
    Other {
        /// What happened.
        detail: String,
    },
}

impl Problem {
    /// A problem reading a file, from the system's error.
    pub fn io(e: &std::io::Error) -> Self {
        let cause = match e.kind() {
            std::io::ErrorKind::NotFound => "not_found",
            std::io::ErrorKind::PermissionDenied => "permission_denied",
            _ => "other",
        };
        Problem::Unreadable {
            cause: cause.into(),
            detail: e.to_string(),
        }
    }

    /// The problem in `lang`, from the catalogue of words (`catalogue/*.ftl`).
    pub fn text(&self, lang: Lang) -> String {
        let coded = serde_json::to_value(self).unwrap_or_default();
        catalogue::say(lang, Kind::Problem, &coded)
    }
}

impl std::fmt::Display for Problem {
    /// The English words, as the JSON's `reason` and the logs have them.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text(Lang::En))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::server::ServerErrorKind;

    #[test]
    fn a_problem_keeps_its_english_words_and_says_them_in_chinese() {
        let p = Problem::TooLarge {
            mb: 300,
            limit_mb: 256,
            kind: Limited::Pdf,
        };
        assert_eq!(
            p.text(Lang::En),
            "the file is 300 MB; Evident reads PDF documents of up to 256 MB"
        );
        assert_eq!(
            p.text(Lang::ZhCn),
            "文件大小为 300 MB；PDF 文件最大可读取 256 MB"
        );
        let json = serde_json::to_value(&p).expect("serialise");
        assert_eq!(json["code"], "too_large");
        assert_eq!(json["params"]["kind"], "pdf");
    }

    #[test]
    fn a_server_failure_in_chinese_names_the_address_and_keeps_the_servers_words() {
        let e = ServerError::new(
            ServerErrorKind::Unreachable,
            "http://127.0.0.1:9",
            "connection refused",
        );
        let zh = Problem::Server(e.clone()).text(Lang::ZhCn);
        assert!(
            zh.starts_with("http://127.0.0.1:9 没有模型服务器应答"),
            "{zh}"
        );
        assert!(zh.ends_with("（connection refused）"), "{zh}");
        assert!(!zh.contains("no model server"), "{zh}");
        assert_eq!(Problem::Server(e.clone()).text(Lang::En), e.to_string());
        let json = serde_json::to_value(Problem::Server(e)).expect("serialise");
        assert_eq!(json["code"], "server");
        assert_eq!(json["params"]["kind"], "unreachable");
    }
}
