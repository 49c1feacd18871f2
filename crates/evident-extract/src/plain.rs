//! Plain text: decoding (UTF-8 with or without BOM, UTF-16 with BOM, GB18030/GBK and
//! other legacy encodings by detection) and structure by [`super::structure`].
//!
//! Many Chinese company files are still GBK; chardetng guesses the encoding the way a
//! browser would, and a file that still does not decode cleanly is rejected with a
//! reason rather than indexed as mojibake.

use std::path::Path;

use encoding_rs::{Encoding, UTF_8, UTF_16BE, UTF_16LE};

use super::{Extracted, PageSpan, structure::blocks_from_plain};
use crate::{Error, Result};
use evident_words::problem::Problem;

/// Decodes a text file's bytes to a `String` with `\n` line ends.
pub fn decode(path: &Path, bytes: &[u8]) -> Result<String> {
    if bytes.is_empty() {
        return Err(Error::input(path, Problem::Empty));
    }
    let text = if let Some((encoding, bom_len)) = Encoding::for_bom(bytes) {
        decode_strict(path, encoding, &bytes[bom_len..])?
    } else if let Ok(s) = std::str::from_utf8(bytes) {
        check_not_binary(path, s)?;
        s.to_owned()
    } else {
        if bytes.iter().take(8192).any(|&b| b == 0) {
            return Err(Error::input(path, Problem::Binary));
        }
        let mut detector = chardetng::EncodingDetector::new();
        detector.feed(bytes, true);
        let encoding = detector.guess(None, true);
        if encoding == UTF_8 || encoding == UTF_16LE || encoding == UTF_16BE {
            return Err(Error::input(path, Problem::Undecodable { encoding: None }));
        }
        let s = decode_strict(path, encoding, bytes)?;
        check_not_binary(path, &s)?;
        s
    };
    Ok(text.replace("\r\n", "\n").replace('\r', "\n"))
}

fn decode_strict(path: &Path, encoding: &'static Encoding, bytes: &[u8]) -> Result<String> {
    let (text, had_errors) = encoding.decode_without_bom_handling(bytes);
    if had_errors {
        return Err(Error::input(
            path,
            Problem::Undecodable {
                encoding: Some(encoding.name().to_owned()),
            },
        ));
    }
    Ok(text.into_owned())
}

/// Rejects text full of control characters: that is a binary file with a text name.
fn check_not_binary(path: &Path, s: &str) -> Result<()> {
    let sample: Vec<char> = s.chars().take(4096).collect();
    let control = sample
        .iter()
        .filter(|c| c.is_control() && !matches!(c, '\n' | '\r' | '\t' | '\x0c'))
        .count();
    if control * 20 > sample.len().max(1) {
        return Err(Error::input(path, Problem::Binary));
    }
    Ok(())
}

/// Extracts a decoded plain-text document. Form feeds (`\f`) separate pages.
pub fn extract(source: &str, fallback_title: &str) -> Extracted {
    // The document's own characters: matching folds its own copy (`text::segment`).
    let text = source.to_owned();
    let mut pages = Vec::new();
    let mut start = 0;
    for (i, piece) in text.split('\x0c').enumerate() {
        let end = start + piece.len();
        pages.push(PageSpan {
            number: i as u32 + 1,
            start,
            end,
        });
        start = end + 1;
    }
    let title = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .filter(|l| l.chars().count() <= 60)
        .map(|l| l.trim_start_matches('#').trim().to_owned())
        .unwrap_or_else(|| fallback_title.to_owned());
    let blocks = blocks_from_plain(&text);
    Extracted {
        title,
        text,
        pages,
        blocks,
        warnings: Vec::new(),
        ocr_pages: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p() -> &'static Path {
        Path::new("x.txt")
    }

    #[test]
    fn decodes_utf8_with_and_without_bom() {
        assert_eq!(decode(p(), "报销".as_bytes()).ok().as_deref(), Some("报销"));
        let mut bom = vec![0xEF, 0xBB, 0xBF];
        bom.extend_from_slice("报销".as_bytes());
        assert_eq!(decode(p(), &bom).ok().as_deref(), Some("报销"));
    }

    #[test]
    fn decodes_utf16_with_bom() {
        let mut le = vec![0xFF, 0xFE];
        le.extend("请假 leave".encode_utf16().flat_map(u16::to_le_bytes));
        assert_eq!(decode(p(), &le).ok().as_deref(), Some("请假 leave"));
        let mut be = vec![0xFE, 0xFF];
        be.extend("请假".encode_utf16().flat_map(u16::to_be_bytes));
        assert_eq!(decode(p(), &be).ok().as_deref(), Some("请假"));
    }

    #[test]
    fn detects_gbk() {
        let source = "第一条 单笔报销超过五千元的，需经分管副总经理审批。员工请假应当提前申请。";
        let (gbk, _, _) = encoding_rs::GBK.encode(source);
        assert_eq!(decode(p(), &gbk).ok().as_deref(), Some(source));
    }

    #[test]
    fn rejects_empty_and_binary() {
        let empty = decode(p(), b"").map_err(|e| e.reason());
        assert_eq!(empty, Err("the file is empty".to_owned()));
        let binary: Vec<u8> = (0..=255u8).cycle().take(4096).collect();
        let err = decode(p(), &binary)
            .map_err(|e| e.reason())
            .expect_err("binary must fail");
        assert!(err.contains("binary"), "{err}");
    }

    #[test]
    fn crlf_becomes_lf_and_form_feeds_split_pages() {
        let text = decode(p(), b"Page one.\r\n\x0cPage two.").unwrap_or_default();
        let doc = extract(&text, "x");
        assert_eq!(doc.pages.len(), 2);
        assert_eq!(&doc.text[doc.pages[1].start..doc.pages[1].end], "Page two.");
    }
}
