//! The window says a problem with the same words as the core: one example of every
//! [`Problem`] with its English and Chinese text, kept in `ui/src/fixtures/problems.json`
//! for the UI's test of `sayProblem` (`ui/src/words.test.ts`).
//!
//! `UPDATE_BINDINGS=1 cargo test --test problem_words` rewrites the file; otherwise
//! this test fails when the core's words changed and the file was not rewritten.

mod common;

use evident_core::message::Lang;
use evident_core::model::{ServerError, ServerErrorKind};
use evident_core::problem::{Limited, Problem};

fn examples() -> Vec<Problem> {
    let s = String::from;
    let mut out = vec![
        Problem::Unreadable {
            cause: s("not_found"),
            detail: s("no such file or folder"),
        },
        Problem::Unreadable {
            cause: s("permission_denied"),
            detail: s("Permission denied (os error 13)"),
        },
        Problem::Unreadable {
            cause: s("other"),
            detail: s("Input/output error (os error 5)"),
        },
        Problem::Empty,
        Problem::Binary,
        Problem::Undecodable { encoding: None },
        Problem::Undecodable {
            encoding: Some(s("GBK")),
        },
        Problem::NoText,
        Problem::Changed,
        Problem::LinkOutside { target: s("/etc") },
        Problem::Unsupported { ext: s(".xlsx") },
        Problem::Unsupported { ext: s("") },
        Problem::OldWord,
        Problem::WordLocked,
        Problem::NotWord { detail: s("") },
        Problem::NotWord {
            detail: s("invalid Zip archive"),
        },
        Problem::WordDamaged {
            part: s("word/document.xml"),
            detail: s("not well-formed XML"),
        },
        Problem::WordTooManyParts { entries: 70000 },
        Problem::WordPartTooLarge {
            part: s("word/document.xml"),
            limit_mb: 64,
        },
        Problem::NotPdf,
        Problem::PdfLocked,
        Problem::PdfDamaged {
            detail: s("invalid file trailer"),
        },
        Problem::PdfNoPages,
        Problem::PdfNoUnicode,
        Problem::PdfScanned { pages: 3 },
        Problem::PagesTextless {
            pages: s("2–4, 7"),
            count: 4,
        },
        Problem::PagesTextless {
            pages: s("3"),
            count: 1,
        },
        Problem::PagesUnreadable {
            pages: s("5"),
            count: 1,
        },
        Problem::PageUnread {
            page: 2,
            detail: s("invalid content stream"),
        },
        Problem::FormLoop { page: 4 },
        Problem::PagesRead {
            pages: s("1–3"),
            count: 3,
        },
        Problem::PagesRead {
            pages: s("2"),
            count: 1,
        },
        Problem::PagesNoText {
            pages: s("4"),
            count: 1,
        },
        Problem::OcrUnavailable {
            packages: s("tesseract-ocr tesseract-ocr-chi-sim tesseract-ocr-eng"),
            detail: s("no tesseract program"),
        },
        Problem::OcrFailed {
            detail: s("tesseract ended with exit status: 1"),
        },
        Problem::Cancelled,
        Problem::NotEmbeddingModel {
            path: s("/models/qwen2.5-coder-1.5b.gguf"),
            architecture: s("qwen2"),
        },
        Problem::PdfNoText {
            detail: s("page 2 could not be read"),
        },
        Problem::PdfReader {
            detail: s("reading the PDF took longer than 60 s and was stopped"),
        },
        Problem::NotSaved {
            detail: s("database is locked"),
        },
        Problem::DatabaseBusy,
        Problem::WatchLimit,
        Problem::WatchFailed {
            detail: s("No space left on device"),
        },
        Problem::AliasesNotUtf8,
        Problem::SettingsInvalid {
            detail: s("expected value at line 1 column 1"),
        },
        Problem::NoModelChosen,
        Problem::Model {
            path: s("/models/e5.gguf"),
            detail: s("not a GGUF file"),
        },
        Problem::Other {
            detail: s("database error: disk I/O error"),
        },
    ];
    for kind in [
        Limited::Pdf,
        Limited::Docx,
        Limited::Text,
        Limited::UserFile,
    ] {
        out.push(Problem::TooLarge {
            mb: 300,
            limit_mb: 256,
            kind,
        });
    }
    let url = "http://127.0.0.1:11434/v1";
    for kind in [
        ServerErrorKind::Unreachable,
        ServerErrorKind::TimedOut,
        ServerErrorKind::NotEmbedding,
        ServerErrorKind::KeyRejected,
        ServerErrorKind::ModelMissing,
        ServerErrorKind::Rejected,
        ServerErrorKind::ServerFailed,
        ServerErrorKind::BadReply,
        ServerErrorKind::BadSettings,
        ServerErrorKind::StreamCut,
        ServerErrorKind::Cancelled,
    ] {
        out.push(Problem::Server(ServerError::new(kind, url, "")));
    }
    out.push(Problem::Server(
        ServerError::new(ServerErrorKind::ServerFailed, url, "model not loaded").with_status(503),
    ));
    out.push(Problem::Server(ServerError::new(
        ServerErrorKind::Unreachable,
        url,
        "connection refused",
    )));
    out.push(Problem::Server(
        ServerError::new(ServerErrorKind::KeyRejected, url, "").with_status(401),
    ));
    let mut remembered = ServerError::new(ServerErrorKind::TimedOut, url, "");
    remembered.remembered = Some(12);
    out.push(Problem::Server(remembered));
    let mut half = ServerError::new(ServerErrorKind::NotEmbedding, url, "no vector within 15 s");
    half.remembered = Some(4);
    out.push(Problem::Server(half));
    out
}

#[test]
fn the_windows_words_for_problems_are_the_cores() {
    let cases: Vec<serde_json::Value> = examples()
        .into_iter()
        .map(|p| {
            serde_json::json!({
                "en": p.text(Lang::En),
                "zh": p.text(Lang::ZhCn),
                "problem": p,
            })
        })
        .collect();
    for c in &cases {
        let zh = c["zh"].as_str().unwrap_or_default();
        let en = c["en"].as_str().unwrap_or_default();
        assert!(!zh.is_empty() && !en.is_empty(), "{c}");
    }
    common::check_words_fixture(
        evident_core::catalogue::Kind::Problem,
        "Problem",
        "problem",
        &cases,
        "problems.json",
        "problem_words",
    );
}
