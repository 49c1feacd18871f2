//! PDF extraction against poppler's `pdftotext` as the reference, page by page, on every
//! PDF in the evaluation corpus, white space ignored:
//!
//! * content: the characters we extract match the reference's (as a multiset) with at
//!   least 0.98 similarity — nothing lost, nothing invented, no mis-decoded glyphs;
//! * order: on the policy-style PDFs (`pdf-generated`, single-column running text) the
//!   character sequence matches with at least 0.98 similarity. Pages with tables, side
//!   notes or several columns are read in a defensible order that is not always
//!   poppler's, so for them the sequence similarity is reported, not asserted;
//! * Chinese is never split by spaces.
//!
//! `en-tam-review-working-paper.pdf` is the exception: its fonts carry no usable Unicode
//! mapping, so poppler and we both produce unreadable symbols (different ones); the test
//! asserts instead that we flag those pages as unreadable.

mod common;

use std::collections::HashMap;
use std::process::Command;

use evident_core::extract::pdf::clean;
use evident_core::extract::pdf::read::read_pdf;
use similar::TextDiff;

const MIN_SIMILARITY: f32 = 0.98;

/// Pages where pdf-extract's font decoding differs from poppler's, with the content
/// similarity measured when this list was written: they may improve, never regress.
/// tracemonkey p6 holds a code figure in a Type 1 font with a custom encoding that the two
/// decoders map differently.
const KNOWN_DIFFERENCES: &[(&str, u32, f32)] = &[("en-tracemonkey-pldi09.pdf", 6, 0.976)];

fn pdftotext(pdf: &std::path::Path, page: u32) -> String {
    let out = Command::new("pdftotext")
        .args([
            "-f",
            &page.to_string(),
            "-l",
            &page.to_string(),
            "-enc",
            "UTF-8",
        ])
        .arg(pdf)
        .arg("-")
        .output()
        .expect("pdftotext (poppler-utils) must be installed; .ci/run installs it");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Multiset similarity of the characters: 2·|A∩B| / (|A|+|B|).
fn content_similarity(a: &str, b: &str) -> f32 {
    let mut counts: HashMap<char, i64> = HashMap::new();
    for c in a.chars() {
        *counts.entry(c).or_default() += 1;
    }
    let mut common = 0i64;
    for c in b.chars() {
        if let Some(n) = counts.get_mut(&c).filter(|n| **n > 0) {
            *n -= 1;
            common += 1;
        }
    }
    let total = (a.chars().count() + b.chars().count()) as f32;
    if total == 0.0 {
        1.0
    } else {
        2.0 * common as f32 / total
    }
}

fn flagged(doc: &evident_core::extract::Extracted, page: u32) -> bool {
    // Unreadable pages are listed as ranges: "3" or "2–22, 25".
    doc.warnings.iter().any(|w| match w {
        evident_core::problem::Problem::PagesUnreadable { pages, .. } => {
            pages.split(", ").any(|t| match t.split_once('–') {
                Some((a, b)) => {
                    a.parse::<u32>().is_ok_and(|a| a <= page)
                        && b.parse::<u32>().is_ok_and(|b| page <= b)
                }
                None => t.parse::<u32>() == Ok(page),
            })
        }
        _ => false,
    })
}

#[test]
fn every_eval_pdf_page_matches_pdftotext() {
    let mut failures = Vec::new();
    let mut report = String::new();
    for pdf in common::eval_pdfs() {
        let bytes = std::fs::read(&pdf).expect("read pdf");
        let raw = read_pdf(&bytes).unwrap_or_else(|e| panic!("{}: {e}", pdf.display()));
        let name = pdf
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        let generated = pdf.parent().is_some_and(|p| p.ends_with("pdf-generated"));
        let unreadable_fonts = name.starts_with("en-tam-review");
        let (mut worst_content, mut worst_order, mut sum_order) = (1.0f32, 1.0f32, 0.0f32);
        let assembled = clean::assemble(raw.clone(), "x");
        for page in &raw.pages {
            assert!(
                page.error.is_none(),
                "{name} page {}: {:?}",
                page.number,
                page.error
            );
            let reference = common::squeeze(&pdftotext(&pdf, page.number));
            let ours = common::squeeze(&page.text);
            let content = content_similarity(&reference, &ours);
            let order = TextDiff::from_chars(reference.as_str(), ours.as_str()).ratio();
            worst_content = worst_content.min(content);
            worst_order = worst_order.min(order);
            sum_order += order;
            let splits = common::cjk_space_splits(&page.text);
            let page_id = format!("{name} p{}", page.number);
            if splits > 0 {
                failures.push(format!("{page_id}: Chinese split by spaces {splits}x"));
            }
            if unreadable_fonts {
                // Pages whose text is symbols must be flagged, not indexed.
                if content < 0.5 && !flagged(&assembled, page.number) {
                    failures.push(format!("{page_id}: unreadable text was not flagged"));
                }
                continue;
            }
            let floor = KNOWN_DIFFERENCES
                .iter()
                .find(|(n, p, _)| *n == name && *p == page.number)
                .map_or(MIN_SIMILARITY, |(_, _, f)| *f);
            if content < floor {
                failures.push(format!("{page_id}: content similarity {content:.4}"));
            }
            if generated && order < MIN_SIMILARITY {
                failures.push(format!("{page_id}: order similarity {order:.4}"));
            }
        }
        report.push_str(&format!(
            "{name}: {} pages, worst content {worst_content:.4}, order worst {worst_order:.4} mean {:.4}\n",
            raw.pages.len(),
            sum_order / raw.pages.len().max(1) as f32
        ));
    }
    eprintln!("{report}");
    assert!(
        failures.is_empty(),
        "pages that do not match pdftotext:\n{}",
        failures.join("\n")
    );
}
