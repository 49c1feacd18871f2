//! `evident-bench ocr`: how well scanned pages are read. Pages of the corpus PDFs are
//! turned into scans at run time ([`crate::scans`]: clean; noisy with a turn, grey
//! grain and, on Chinese pages, a red seal; and the kinds company copiers make, low
//! JPEG, blur, bleed-through, binarised, sideways, upside down, a red header, two
//! pages on a sheet), read the way an import reads them,
//! and compared with the original's text layer: character accuracy per language
//! (1 − edit distance / length, white space and width forms ignored), and pages read
//! per second on all cores, on a tuning split and a held-out one ([`Split`]). With
//! `--retrieval`, colloquial-dev's questions are asked of the corpus with every PDF
//! replaced by its clean scan, beside the born-digital corpus (hit@5, keyword search;
//! see [`hit_at_5`] for how the questions reach the PDFs). `--dump` writes what was
//! read beside the truth.

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, bail};
use evident_core::extract::pdf::{PdfReader, PdfSandbox, ocr};
use serde::Serialize;

use crate::scans::{Look, scan_pdf};

/// One page read.
#[derive(Debug, Clone, Serialize)]
struct PageResult {
    file: String,
    page: u32,
    lang: &'static str,
    split: Split,
    look: &'static str,
    accuracy: f64,
    seconds: f64,
}

/// A page to read.
struct Job {
    file: String,
    /// The scanned copy of the whole file.
    scan: std::sync::Arc<Vec<u8>>,
    page: u32,
    lang: &'static str,
    split: Split,
    look: &'static str,
    /// The original's text layer of the page.
    truth: String,
}

/// The figures.
#[derive(Debug, Serialize)]
struct Report {
    pages: Vec<PageResult>,
    /// Mean accuracy by language, split and look.
    accuracy: Vec<Mean>,
    pages_per_second: f64,
    threads: usize,
    /// colloquial-dev hit@5, with `--retrieval`.
    retrieval: Option<Retrieval>,
}

/// The mean accuracy of a group of pages.
#[derive(Debug, Serialize)]
struct Mean {
    lang: &'static str,
    split: Split,
    look: &'static str,
    accuracy: f64,
    pages: usize,
}

fn edit_distance(a: &[char], b: &[char]) -> usize {
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for (i, ca) in a.iter().enumerate() {
        cur[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            cur[j + 1] = (prev[j] + usize::from(ca != cb))
                .min(prev[j + 1] + 1)
                .min(cur[j] + 1);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

/// Character accuracy of `read` against `truth`.
pub fn accuracy(read: &str, truth: &str) -> f64 {
    // The scoring rule's comparison form: NFKC, lower case, no white space.
    let squeezed = |s: &str| crate::dataset::norm(s).chars().collect::<Vec<char>>();
    let (r, t) = (squeezed(read), squeezed(truth));
    if t.is_empty() {
        return if r.is_empty() { 1.0 } else { 0.0 };
    }
    (1.0 - edit_distance(&r, &t) as f64 / t.len() as f64).max(0.0)
}

/// Which pages a figure comes from. The reading settings (resolution, rule removal)
/// were chosen on `tune` only; `held-out` pages were measured after, never looked at
/// while choosing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
enum Split {
    Tune,
    HeldOut,
}

/// The PDFs measured, their language, split and pages (`pages_each` of each long one).
fn pdfs(eval: &Path, pages_each: u32) -> Vec<(PathBuf, &'static str, Split, Vec<u32>)> {
    let corpus = eval.join("corpus");
    let range = |n: u32| (1..=n).collect::<Vec<u32>>();
    let generated = |name: &str| corpus.join("pdf-generated").join(name);
    let real = |name: &str| corpus.join("pdf-real").join(name);
    use Split::{HeldOut, Tune};
    vec![
        (
            generated("zh-labour-contract-law.pdf"),
            "zh",
            Tune,
            range(pages_each),
        ),
        (
            real("zh-bond-prospectus-ch7-excerpt.pdf"),
            "zh",
            Tune,
            vec![1],
        ),
        (
            generated("en-sourcegraph-travel-policy.pdf"),
            "en",
            Tune,
            range(pages_each),
        ),
        (
            generated("zh-work-injury-insurance-regulations.pdf"),
            "zh",
            HeldOut,
            range(pages_each),
        ),
        (
            real("zh-anhui-land-use-standard-2020-excerpt.pdf"),
            "zh",
            HeldOut,
            vec![1],
        ),
        (
            real("zh-broker-report-table-page.pdf"),
            "zh",
            HeldOut,
            vec![1],
        ),
        (real("zh-journal-article-page.pdf"), "zh", HeldOut, vec![1]),
        (
            real("en-federal-register-2020-17221.pdf"),
            "en",
            HeldOut,
            range(pages_each.min(2)),
        ),
        (
            real("en-tam-review-working-paper.pdf"),
            "en",
            HeldOut,
            range(pages_each.min(2)),
        ),
        (
            real("en-tracemonkey-pldi09.pdf"),
            "en",
            HeldOut,
            range(pages_each.min(2)),
        ),
    ]
}

/// The pages to read: each chosen page of each corpus PDF, scanned clean and noisy,
/// with its text layer as the truth (pages whose layer decodes to noise are left out).
fn jobs(eval: &Path, pages_each: u32, sandbox: &PdfSandbox) -> anyhow::Result<Vec<Job>> {
    let mut jobs: Vec<Job> = Vec::new();
    for (pdf, lang, split, pages) in pdfs(eval, pages_each) {
        let bytes =
            std::fs::read(&pdf).with_context(|| format!("cannot read {}", pdf.display()))?;
        let truth = evident_core::extract::pdf::read::read_pdf(&bytes)
            .map_err(|why| anyhow::anyhow!("{}: {why}", pdf.display()))?;
        let name = pdf
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        for (look, look_name) in Look::ALL {
            let wanted = pages.clone();
            let scan =
                std::sync::Arc::new(scan_pdf(sandbox, &bytes, |n| wanted.contains(&n), look)?);
            for &page in &pages {
                let Some(text) = truth.pages.get(page as usize - 1).map(|p| p.text.clone()) else {
                    continue;
                };
                // A text layer that decodes to noise is no truth to measure against
                // (an import reads such a page by OCR too).
                if evident_core::extract::pdf::clean::is_unreadable(&text) {
                    continue;
                }
                jobs.push(Job {
                    file: name.clone(),
                    scan: scan.clone(),
                    page,
                    lang,
                    split,
                    look: look_name,
                    truth: text,
                });
            }
        }
        // Two pages on one sheet: the first two chosen pages, read as one page.
        if let [first, second, ..] = pages[..]
            && second == first + 1
        {
            let text = |n: u32| truth.pages.get(n as usize - 1).map(|p| p.text.clone());
            if let (Some(a), Some(b)) = (text(first), text(second))
                && !evident_core::extract::pdf::clean::is_unreadable(&a)
                && !evident_core::extract::pdf::clean::is_unreadable(&b)
            {
                jobs.push(Job {
                    file: name.clone(),
                    scan: std::sync::Arc::new(crate::scans::two_up_pdf(sandbox, &bytes, first)?),
                    page: 1,
                    lang,
                    split,
                    look: TWO_UP,
                    truth: format!("{a}\n\n{b}"),
                });
            }
        }
    }
    Ok(jobs)
}

/// The name of the two-pages-on-one-sheet kind in reports.
const TWO_UP: &str = "two-up";

/// Mean character accuracy by split, language and look.
fn means(pages: &[PageResult]) -> Vec<Mean> {
    let mut accuracy_by: Vec<Mean> = Vec::new();
    for split in [Split::Tune, Split::HeldOut] {
        for lang in ["zh", "en"] {
            for look in Look::ALL.iter().map(|(_, name)| *name).chain([TWO_UP]) {
                let of: Vec<f64> = pages
                    .iter()
                    .filter(|p| p.lang == lang && p.look == look && p.split == split)
                    .map(|p| p.accuracy)
                    .collect();
                if !of.is_empty() {
                    accuracy_by.push(Mean {
                        lang,
                        split,
                        look,
                        accuracy: of.iter().sum::<f64>() / of.len() as f64,
                        pages: of.len(),
                    });
                }
            }
        }
    }
    accuracy_by
}

/// The report as text.
fn print_report(report: &Report) {
    println!(
        "Scanned pages read ({}, {} dpi, {} threads):",
        ocr::engine().map(|e| e.version).unwrap_or_default(),
        ocr::DPI,
        report.threads
    );
    for m in &report.accuracy {
        println!(
            "  {} {:<8} {:<13}  character accuracy {:.2}%  ({} pages)",
            m.lang,
            if m.split == Split::Tune {
                "tune"
            } else {
                "held-out"
            },
            m.look,
            m.accuracy * 100.0,
            m.pages
        );
    }
    println!("  {:.2} pages per second", report.pages_per_second);
    if let Some(r) = &report.retrieval {
        let f = |v: Option<f64>| v.map_or("?".to_owned(), |v| format!("{v:.3}"));
        println!(
            "  colloquial-dev hit@5 (keyword search), all {} questions: born-digital PDFs {}, scanned {}",
            r.questions,
            f(r.born_digital_all),
            f(r.scanned_all)
        );
        println!(
            "  the {} questions answered in the PDFs: born-digital {}, scanned {}",
            r.pdf_questions,
            f(r.born_digital_pdf_questions),
            f(r.scanned_pdf_questions)
        );
    }
}

/// Reads the pages of [`jobs`] on every core and reports their accuracy and speed (and,
/// with `retrieval`, hit@5 with every corpus PDF scanned).
pub fn run(
    eval: &Path,
    pages_each: u32,
    retrieval: bool,
    dump: Option<&Path>,
    json: bool,
) -> anyhow::Result<serde_json::Value> {
    if let Some(dir) = dump {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    ocr::engine().map_err(|why| anyhow::anyhow!("{why}"))?;
    let sandbox = PdfSandbox::current_exe()?;
    let reader = PdfReader::Sandboxed(sandbox.clone());
    let jobs = jobs(eval, pages_each, &sandbox)?;
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results = std::sync::Mutex::new(Vec::new());
    let started = Instant::now();
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(job) = jobs.get(i) else {
                        break;
                    };
                    let t = Instant::now();
                    // As an import reads the first page of a wholly scanned file.
                    let read = reader.read_scanned_page(&job.scan, job.page);
                    let text = read.map(|p| p.text).unwrap_or_default();
                    if let Some(dir) = dump {
                        let stem = format!("{}-{}-{}", job.file, job.page, job.look);
                        // Best effort: the figures matter more than the dump.
                        let _ = std::fs::write(dir.join(format!("{stem}.ocr.txt")), &text);
                        let _ = std::fs::write(dir.join(format!("{stem}.truth.txt")), &job.truth);
                    }
                    let result = PageResult {
                        file: job.file.clone(),
                        page: job.page,
                        lang: job.lang,
                        split: job.split,
                        look: job.look,
                        accuracy: accuracy(&text, &job.truth),
                        seconds: t.elapsed().as_secs_f64(),
                    };
                    if let Ok(mut r) = results.lock() {
                        r.push(result);
                    }
                }
            });
        }
    });
    let elapsed = started.elapsed().as_secs_f64();
    let mut pages = results.into_inner().unwrap_or_default();
    pages.sort_by(|a, b| (&a.file, a.page, a.look).cmp(&(&b.file, b.page, b.look)));
    let accuracy_by = means(&pages);
    let retrieval = if retrieval {
        Some(hit_at_5(eval)?)
    } else {
        None
    };
    let report = Report {
        pages_per_second: pages.len() as f64 / elapsed.max(1e-9),
        threads,
        accuracy: accuracy_by,
        pages,
        retrieval,
    };
    let value = serde_json::to_value(&report)?;
    if !json {
        print_report(&report);
    }
    Ok(value)
}

/// hit@5 of colloquial-dev's questions, keyword search, on a corpus and on the same
/// corpus with every PDF replaced by its clean scan.
#[derive(Debug, Default, Serialize)]
struct Retrieval {
    /// Questions whose gold passage is in a PDF (see [`hit_at_5`]).
    pdf_questions: usize,
    questions: usize,
    born_digital_all: Option<f64>,
    scanned_all: Option<f64>,
    born_digital_pdf_questions: Option<f64>,
    scanned_pdf_questions: Option<f64>,
}

/// The questions are written against the Markdown sources, and three of the corpus's
/// PDFs are typeset from three of them (`pdf-generated/sources.json`). So that the
/// answers must come from the PDFs, both corpora leave those three Markdown files out
/// and the questions' gold documents become the PDFs; a hit still needs the answer's
/// exact words in a passage, so a misread character in them is a miss.
fn hit_at_5(eval: &Path) -> anyhow::Result<Retrieval> {
    let corpus = eval.join("corpus");
    let twins: serde_json::Map<String, serde_json::Value> = serde_json::from_str(
        &std::fs::read_to_string(corpus.join("pdf-generated/sources.json"))
            .context("pdf-generated/sources.json")?,
    )?;
    // Markdown source → the PDF typeset from it.
    let pdf_of: std::collections::HashMap<String, String> = twins
        .iter()
        .filter_map(|(pdf, v)| Some((v["source"].as_str()?.to_owned(), pdf.clone())))
        .collect();
    let tmp = tempfile_dir()?;
    let sandbox = PdfSandbox::current_exe()?;
    let (born, scanned) = (tmp.join("born-digital"), tmp.join("scanned"));
    for entry in walk(&corpus)? {
        let rel = entry.strip_prefix(&corpus)?;
        if pdf_of.contains_key(rel.to_string_lossy().as_ref()) {
            continue;
        }
        for root in [&born, &scanned] {
            if let Some(parent) = root.join(rel).parent() {
                std::fs::create_dir_all(parent)?;
            }
        }
        std::fs::copy(&entry, born.join(rel))?;
        if entry.extension().is_some_and(|e| e == "pdf") {
            let bytes = std::fs::read(&entry)?;
            std::fs::write(
                scanned.join(rel),
                scan_pdf(&sandbox, &bytes, |_| true, Look::Clean)?,
            )?;
        } else {
            std::fs::copy(&entry, scanned.join(rel))?;
        }
    }
    // The questions with their gold documents moved to the PDFs.
    let text = std::fs::read_to_string(eval.join("datasets/colloquial-dev/questions.jsonl"))
        .context("colloquial-dev/questions.jsonl")?;
    let mut all = String::new();
    let mut on_pdfs = String::new();
    let mut r = Retrieval::default();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let mut q: serde_json::Value = serde_json::from_str(line)?;
        let mut moved = false;
        let mut retarget = |doc: &mut serde_json::Value| {
            if let Some(pdf) = doc.as_str().and_then(|d| pdf_of.get(d)) {
                *doc = pdf.clone().into();
                moved = true;
            }
        };
        // (`get_mut`, not indexing: indexing would add the fields a question leaves out.)
        if let Some(doc) = q.get_mut("doc") {
            retarget(doc);
        }
        if let Some(alts) = q.get_mut("alt").and_then(|a| a.as_array_mut()) {
            for doc in alts.iter_mut().filter_map(|alt| alt.get_mut("doc")) {
                retarget(doc);
            }
        }
        let line = format!("{q}\n");
        all.push_str(&line);
        r.questions += 1;
        if moved {
            on_pdfs.push_str(&line);
            r.pdf_questions += 1;
        }
    }
    let (all_file, pdf_file) = (tmp.join("all.jsonl"), tmp.join("pdf.jsonl"));
    std::fs::write(&all_file, all)?;
    std::fs::write(&pdf_file, on_pdfs)?;
    let exe = std::env::current_exe()?;
    let hits = |docs: &Path, name: &str| -> anyhow::Result<(Option<f64>, Option<f64>)> {
        // One index per corpus (its OCR cache beside it), asked both sets.
        let db = tmp.join(format!("{name}.sqlite3"));
        // `evident --db <db> <args>`, its output when it succeeds.
        let run = |args: &[&str], extra: &Path, what: &str| -> anyhow::Result<Vec<u8>> {
            let out = std::process::Command::new(&exe)
                .arg("--db")
                .arg(&db)
                .args(args)
                .arg(extra)
                .output()?;
            if !out.status.success() {
                bail!(
                    "{what} the {name} corpus failed: {}",
                    String::from_utf8_lossy(&out.stderr)
                );
            }
            Ok(out.stdout)
        };
        run(
            &["import", "--no-embed", "--no-remember", "--json"],
            docs,
            "importing",
        )?;
        let at_5 = |questions: &Path| -> anyhow::Result<Option<f64>> {
            let out = run(
                &["eval", "--no-embed", "--json", "--questions"],
                questions,
                "evaluating on",
            )?;
            let v: serde_json::Value = serde_json::from_slice(&out)?;
            Ok(v["modes"][0]["hit_at"]
                .as_array()
                .and_then(|a| a.iter().find(|p| p[0].as_u64() == Some(5)))
                .and_then(|p| p[1].as_f64()))
        };
        Ok((at_5(&all_file)?, at_5(&pdf_file)?))
    };
    (r.born_digital_all, r.born_digital_pdf_questions) = hits(&born, "born-digital")?;
    (r.scanned_all, r.scanned_pdf_questions) = hits(&scanned, "scanned")?;
    let _ = std::fs::remove_dir_all(&tmp);
    Ok(r)
}

fn tempfile_dir() -> anyhow::Result<PathBuf> {
    let dir = std::env::temp_dir().join(format!("evident-bench-ocr-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    Ok(dir)
}

fn walk(dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            out.extend(walk(&path)?);
        } else {
            out.push(path);
        }
    }
    out.sort();
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accuracy_counts_edits_against_the_truth() {
        assert_eq!(accuracy("第七条 用人单位", "第七条用人单位"), 1.0);
        assert!((accuracy("第七条用人单每", "第七条用人单位") - (1.0 - 1.0 / 7.0)).abs() < 1e-9);
        assert_eq!(accuracy("", "abc"), 0.0);
    }
}
