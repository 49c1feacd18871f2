//! `evident-bench grounding --claims`: the grounding check measured on hand-checked,
//! realistic claims.
//!
//! The synthetic benchmark ([`crate::grounding`]) corrupts sentences with the
//! checker's own rules, so it can only confirm them. These claims were written by hand
//! over the shared corpus by people who did not read the checker: faithful ones
//! (verbatim, paraphrased, units rewritten, two clauses summarised) and the mistakes a
//! model makes when it summarises a rule (a number from the neighbouring tier, a
//! condition paired with another tier's consequence, the wrong approver, may for
//! must, a negation by paraphrase, a made-up deadline, a dropped condition).
//!
//! Three sets, beside this crate:
//! - `bench/grounding-claims.jsonl` (287 claims) is tuned on. Its odd groups were tuned
//!   on first and its even groups held out; once their figures were reported, both
//!   halves were tuned on.
//! - `bench/grounding-claims-tune2.jsonl` (128 claims) is tuned on, written in the
//!   held-out set's style by someone who saw none of its claims.
//! - `bench/grounding-claims-heldout.jsonl` (161 claims, other quotes and documents)
//!   was written by someone who read neither the checker nor the first set's claims.
//!   It is the default and the figure reported; never tune on it.
//!
//! Each claim is checked as a model's answer would be: the passages retrieved for the
//! claim (top 8), the claim citing the passage that holds its source quote (or the
//! passages, when a quote runs across two chunks). A claim whose quote no passage
//! holds as written is listed as not scored; a claim whose verdict list is empty is an
//! error, never "flagged".

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, bail};
use evident_core::grounding::{Verdict, check};
use evident_core::import::{ImportOptions, Importer};
use evident_core::search::{Aliases, Passage, SearchOptions, search};
use evident_core::store::Store;
use serde::{Deserialize, Serialize};

/// One hand-checked claim.
#[derive(Debug, Clone, Deserialize)]
pub struct ClaimCase {
    id: String,
    group: u32,
    lang: String,
    doc: String,
    quote: String,
    claim: String,
    label: String,
    kind: String,
}

/// The default claim set, beside this crate: the held-out one, never tuned on.
pub fn default_claims() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("bench/grounding-claims-heldout.jsonl")
}

/// Which groups of a set to score.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Split {
    /// Odd groups (of the first set: the half first tuned on).
    Tune,
    /// Even groups (of the first set: held out until the held-out set was written,
    /// tuned on since).
    Report,
    /// Both.
    All,
}

impl Split {
    fn holds(self, group: u32) -> bool {
        match self {
            Split::Tune => !group.is_multiple_of(2),
            Split::Report => group.is_multiple_of(2),
            Split::All => true,
        }
    }
}

#[derive(Debug, Default, Clone, Serialize)]
struct Tally {
    claims: usize,
    flagged: usize,
}

impl Tally {
    fn rate(&self) -> f64 {
        if self.claims == 0 {
            0.0
        } else {
            self.flagged as f64 / self.claims as f64
        }
    }
}

/// What a user sees of a set of claims: how many sentences showed green (supported),
/// amber (partly supported) and red (unsupported).
#[derive(Debug, Default, Clone, Copy, Serialize)]
struct Colours {
    green: usize,
    amber: usize,
    red: usize,
}

impl Colours {
    fn add(&mut self, v: Verdict) {
        match v {
            Verdict::Supported => self.green += 1,
            Verdict::PartiallySupported => self.amber += 1,
            Verdict::Unsupported => self.red += 1,
        }
    }

    fn total(&self) -> usize {
        self.green + self.amber + self.red
    }

    fn share(&self, n: usize) -> f64 {
        if self.total() == 0 {
            0.0
        } else {
            n as f64 / self.total() as f64
        }
    }

    fn line(&self) -> String {
        format!(
            "{:>4}: green {:>3} ({:>5.1}%)  amber {:>3} ({:>5.1}%)  red {:>3} ({:>5.1}%)",
            self.total(),
            self.green,
            100.0 * self.share(self.green),
            self.amber,
            100.0 * self.share(self.amber),
            self.red,
            100.0 * self.share(self.red)
        )
    }
}

#[derive(Debug, Serialize)]
struct Outcome {
    id: String,
    kind: String,
    label: String,
    claim: String,
    flagged: bool,
    verdict: Verdict,
    reasons: Vec<String>,
    /// The spans the check compared the claim's sentences with, `|`-separated.
    compared: Option<String>,
    /// The hand-checked source quote.
    quote: String,
}

#[derive(Debug, Serialize)]
struct Report {
    split: String,
    claims: usize,
    mistaken_flagged: f64,
    faithful_flagged: f64,
    kinds: BTreeMap<String, Tally>,
    languages: BTreeMap<String, (Tally, Tally)>,
    /// The colours shown, by label (`mistaken`, `faithful`), then by label and kind and
    /// by label and language ("mistaken/actor_swap", "faithful/zh").
    colours: BTreeMap<String, Colours>,
    /// Mistakes shown green: the failure that hurts.
    mistaken_green: f64,
    /// Faithful claims shown red: what teaches people to ignore red.
    faithful_red: f64,
    /// Faithful claims shown amber.
    faithful_amber: f64,
    p95_ms_five_sentences_eight_passages: f64,
    /// Claims whose quote no passage (or pair of passages) holds as written, such as a
    /// table quoted in its Markdown form: listed, not scored.
    skipped: Vec<String>,
    outcomes: Vec<Outcome>,
}

fn load(path: &Path) -> anyhow::Result<Vec<ClaimCase>> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read the claim set {}", path.display()))?;
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            serde_json::from_str(l)
                .with_context(|| format!("{}: line {} is not a claim", path.display(), i + 1))
        })
        .collect()
}

/// Whitespace- and markup-free form, for finding a quote in a passage however lines
/// were joined and whatever Markdown emphasis the source used.
fn squash(s: &str) -> String {
    s.chars()
        .filter(|c| !c.is_whitespace() && !matches!(c, '*' | '_' | '`'))
        .collect()
}

/// The pieces of a quote to find in passages: its sentences and lines without list
/// markers, and a table's cells (a table is stored as "header: cell; …" lines).
fn pieces(quote: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in quote.lines() {
        let line = line.trim_start();
        let line = ["- ", "* ", "+ "]
            .iter()
            .find_map(|m| line.strip_prefix(m))
            .unwrap_or(line);
        let cells: Vec<&str> = if line.contains('|') {
            line.split('|').collect()
        } else {
            line.split_inclusive(['。', '；', ';']).collect()
        };
        out.extend(
            cells
                .into_iter()
                .map(squash)
                .filter(|c| c.chars().count() > 1 && !c.chars().all(|x| matches!(x, '-' | ':'))),
        );
    }
    out
}

/// The passages a model would have been given for `claim`, with those holding the
/// quote among them: `(passages, n of each passage the quote is in)`. A quote that
/// runs across two chunks (an article's last sentence and the next one's first) is
/// cited as both.
fn passages_for(
    store: &Store,
    case: &ClaimCase,
    aliases: &Aliases,
) -> anyhow::Result<Option<(Vec<Passage>, Vec<usize>)>> {
    let options = SearchOptions {
        k: 8,
        answer_line: Some(0.0),
        ..SearchOptions::default()
    };
    let pieces = pieces(&case.quote);
    if pieces.is_empty() {
        return Ok(None);
    }
    let in_doc = |p: &Passage| p.doc_path.ends_with(doc_name(&case.doc));
    let holds = |p: &Passage, piece: &str| in_doc(p) && squash(&p.text).contains(piece);
    let holds_all = |p: &Passage| pieces.iter().all(|x| holds(p, x));
    let mut passages = search(store, &case.claim, aliases, &options)?.passages;
    // Room for a passage the claim's own search missed: the last one that holds none
    // of the quote goes.
    let make_room = |passages: &mut Vec<Passage>| {
        if passages.len() >= 8 {
            let at = passages
                .iter()
                .rposition(|p| !pieces.iter().any(|x| holds(p, x)))
                .unwrap_or(passages.len() - 1);
            passages.remove(at);
        }
    };
    if !passages.iter().any(holds_all) {
        let by_quote = search(store, &case.quote, aliases, &options)?.passages;
        if let Some(source) = by_quote.into_iter().find(|p| holds_all(p)) {
            make_room(&mut passages);
            passages.push(source);
        } else {
            for piece in &pieces {
                if passages.iter().any(|p| holds(p, piece)) {
                    continue;
                }
                let Some(source) = search(store, piece, aliases, &options)?
                    .passages
                    .into_iter()
                    .find(|p| holds(p, piece))
                else {
                    return Ok(None);
                };
                make_room(&mut passages);
                passages.push(source);
            }
        }
    }
    for (i, p) in passages.iter_mut().enumerate() {
        p.n = i + 1;
    }
    let cited: Vec<usize> = match passages.iter().find(|p| holds_all(p)) {
        Some(p) => vec![p.n],
        None => {
            let mut cited = Vec::new();
            for piece in &pieces {
                let Some(p) = passages.iter().find(|p| holds(p, piece)) else {
                    return Ok(None);
                };
                if !cited.contains(&p.n) {
                    cited.push(p.n);
                }
            }
            cited
        }
    };
    Ok(Some((passages, cited)))
}

fn doc_name(doc: &str) -> &str {
    doc.rsplit('/').next().unwrap_or(doc)
}

/// Imports the documents the claims are about into `db`.
fn index(db: &Path, eval_dir: &Path, cases: &[ClaimCase]) -> anyhow::Result<Store> {
    let mut store = Store::open(db)?;
    let corpus = eval_dir.join("corpus");
    let samples = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../samples");
    let mut files: Vec<PathBuf> = cases
        .iter()
        .map(|c| match c.doc.strip_prefix("samples/") {
            Some(name) => samples.join(name),
            None => corpus.join(&c.doc),
        })
        .collect();
    files.sort();
    files.dedup();
    // The rest of each folder too: the passages retrieved must compete with the
    // neighbouring documents, as they would in a real library.
    for folder in ["zh-laws", "handbook-sourcegraph", "handbook-18f"] {
        for entry in std::fs::read_dir(corpus.join(folder))
            .with_context(|| format!("cannot read {}", corpus.join(folder).display()))?
        {
            let path = entry?.path();
            if path.extension().is_some_and(|e| e == "md")
                && path.file_name().is_some_and(|n| n != "SOURCE.md")
            {
                files.push(path);
            }
        }
    }
    files.sort();
    files.dedup();
    Importer::new(ImportOptions::sandboxed()?).run(&mut store, &files, &mut |_| {})?;
    Ok(store)
}

/// Checks each claim of `cases` against the passages its question retrieves from the
/// documents indexed in `tmp`, and counts the outcomes.
fn measure(
    tmp: &Path,
    eval_dir: &Path,
    claims: &Path,
    cases: &[ClaimCase],
    split: Split,
) -> anyhow::Result<Report> {
    let store = index(&tmp.join("index.sqlite3"), eval_dir, cases)?;
    let aliases = Aliases::default();
    let mut outcomes = Vec::new();
    let mut kinds: BTreeMap<String, Tally> = BTreeMap::new();
    let mut languages: BTreeMap<String, (Tally, Tally)> = BTreeMap::new();
    let mut timing_sets: Vec<(String, Vec<Passage>, Vec<usize>)> = Vec::new();
    let mut skipped: Vec<String> = Vec::new();
    for case in cases {
        let Some((passages, cited)) = passages_for(&store, case, &aliases)? else {
            // Said in the report, never scored as either outcome.
            skipped.push(case.id.clone());
            continue;
        };
        let markers: String = cited.iter().map(|n| format!("[{n}]")).collect();
        let answer = format!("{}{markers}", case.claim.trim());
        let verdicts = check(&answer, &passages);
        if verdicts.is_empty() {
            bail!(
                "{}: the check returned no verdict for {}",
                claims.display(),
                case.id
            );
        }
        let flagged = verdicts.iter().any(|v| v.verdict != Verdict::Supported);
        let worst = verdicts
            .iter()
            .map(|v| v.verdict)
            .min_by_key(|v| match v {
                Verdict::Unsupported => 0,
                Verdict::PartiallySupported => 1,
                Verdict::Supported => 2,
            })
            .unwrap_or(Verdict::Unsupported);
        let t = kinds.entry(case.kind.clone()).or_default();
        t.claims += 1;
        t.flagged += usize::from(flagged);
        let l = languages.entry(case.lang.clone()).or_default();
        let side = if case.label == "faithful" {
            &mut l.1
        } else {
            &mut l.0
        };
        side.claims += 1;
        side.flagged += usize::from(flagged);
        outcomes.push(Outcome {
            id: case.id.clone(),
            kind: case.kind.clone(),
            label: case.label.clone(),
            claim: case.claim.clone(),
            flagged,
            verdict: worst,
            reasons: verdicts.iter().flat_map(|v| v.reasons.clone()).collect(),
            compared: Some(
                verdicts
                    .iter()
                    .filter_map(|v| v.support.as_ref().map(|s| s.span.text.clone()))
                    .collect::<Vec<_>>()
                    .join(" | "),
            )
            .filter(|c| !c.is_empty()),
            quote: case.quote.clone(),
        });
        timing_sets.push((case.claim.trim().to_owned(), passages, cited.clone()));
    }
    let mut colours: BTreeMap<String, Colours> = BTreeMap::new();
    for o in &outcomes {
        let lang = cases
            .iter()
            .find(|c| c.id == o.id)
            .map_or("?", |c| c.lang.as_str());
        for key in [
            o.label.clone(),
            format!("{}/{}", o.label, o.kind),
            format!("{}/{lang}", o.label),
        ] {
            colours.entry(key).or_default().add(o.verdict);
        }
    }
    let of = |label: &str| colours.get(label).copied().unwrap_or_default();
    let (mistaken, faithful) = (of("mistaken"), of("faithful"));
    let rate = |label: &str| {
        let (mut c, mut f) = (0, 0);
        for o in outcomes.iter().filter(|o| o.label == label) {
            c += 1;
            f += usize::from(o.flagged);
        }
        Tally {
            claims: c,
            flagged: f,
        }
        .rate()
    };
    Ok(Report {
        split: format!("{split:?}").to_lowercase(),
        claims: outcomes.len(),
        mistaken_flagged: rate("mistaken"),
        faithful_flagged: rate("faithful"),
        kinds,
        languages,
        mistaken_green: mistaken.share(mistaken.green),
        faithful_red: faithful.share(faithful.red),
        faithful_amber: faithful.share(faithful.amber),
        colours,
        p95_ms_five_sentences_eight_passages: p95_ms(&timing_sets),
        skipped,
        outcomes,
    })
}

/// The report as text, with every misleading colour when `verbose`.
fn print_report(report: &Report, claims: &Path, verbose: bool) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "Hand-checked claims ({} split, {} claims, {})",
        report.split,
        report.claims,
        claims.display()
    )?;
    for (kind, t) in &report.kinds {
        writeln!(
            out,
            "  {kind:<22} {:>4} claims, {:>4} flagged ({:.1}%)",
            t.claims,
            t.flagged,
            100.0 * t.rate()
        )?;
    }
    for (lang, (mistaken, faithful)) in &report.languages {
        writeln!(
            out,
            "  {lang}: mistaken flagged {:.1}% of {}, faithful flagged {:.1}% of {}",
            100.0 * mistaken.rate(),
            mistaken.claims,
            100.0 * faithful.rate(),
            faithful.claims
        )?;
    }
    writeln!(out, "  colours shown:")?;
    for (key, c) in &report.colours {
        writeln!(out, "    {key:<30} {}", c.line())?;
    }
    writeln!(
        out,
        "  mistakes shown green {:.1}%, faithful shown red {:.1}%, faithful shown amber {:.1}%",
        100.0 * report.mistaken_green,
        100.0 * report.faithful_red,
        100.0 * report.faithful_amber
    )?;
    writeln!(
        out,
        "  mistaken flagged {:.1}%, faithful flagged {:.1}%; check p95 {:.2} ms (5 sentences, 8 passages)",
        100.0 * report.mistaken_flagged,
        100.0 * report.faithful_flagged,
        report.p95_ms_five_sentences_eight_passages
    )?;
    if !report.skipped.is_empty() {
        writeln!(
            out,
            "  not scored: {} claims whose quote no passage holds as written ({})",
            report.skipped.len(),
            report.skipped.join(", ")
        )?;
    }
    if verbose {
        // What a user would be misled by: a mistake in green, a faithful sentence in
        // red; then faithful sentences left amber.
        let misleading = |o: &&Outcome| match (o.label.as_str(), o.verdict) {
            ("mistaken", Verdict::Supported) => Some("GREEN MISTAKE"),
            ("faithful", Verdict::Unsupported) => Some("RED FAITHFUL"),
            ("faithful", Verdict::PartiallySupported) => Some("AMBER FAITHFUL"),
            _ => None,
        };
        for o in report.outcomes.iter().filter(|o| misleading(o).is_some()) {
            let what = misleading(&o).unwrap_or_default();
            writeln!(out, "  {what} {} [{}] {}", o.id, o.kind, o.claim)?;
            for r in &o.reasons {
                writeln!(out, "       - {r}")?;
            }
            writeln!(out, "       quote:    {}", o.quote)?;
            if let Some(c) = &o.compared {
                writeln!(out, "       compared: {c}")?;
                let there = evident_core::grounding::claims::token_set(c);
                let missing: Vec<String> = evident_core::grounding::claims::Claim::of(&o.claim)
                    .terms
                    .into_iter()
                    .filter(|t| !there.contains(t))
                    .collect();
                writeln!(out, "       words not in it: {}", missing.join(" "))?;
            }
        }
    }
    Ok(())
}

/// Runs the claim set; prints per-kind rates and the check's latency unless `json`,
/// and returns the report.
pub fn run(
    eval_dir: &Path,
    claims: &Path,
    split: Split,
    json: bool,
    verbose: bool,
) -> anyhow::Result<serde_json::Value> {
    let cases: Vec<ClaimCase> = load(claims)?
        .into_iter()
        .filter(|c| split.holds(c.group))
        .collect();
    if cases.is_empty() {
        bail!("{}: no claims in this split", claims.display());
    }
    let tmp = std::env::temp_dir().join(format!("evident-bench-claims-{}", std::process::id()));
    std::fs::create_dir_all(&tmp)?;
    let result = measure(&tmp, eval_dir, claims, &cases, split);
    let _ = std::fs::remove_dir_all(&tmp);
    let report = result?;
    let value = serde_json::to_value(&report)?;
    if json {
        return Ok(value);
    }
    print_report(&report, claims, verbose)?;
    Ok(value)
}

/// The 95th percentile, in milliseconds, of checking five claims at once against
/// eight passages (each claim's own retrieved set).
/// The 95th percentile time of checking five claims at once against the passages they
/// cite, pooled: each window of five consecutive claims is one answer of five
/// sentences, its citations renumbered into the union of their passages (at most eight,
/// as an answer's context holds; a citation whose passage does not fit is dropped).
fn p95_ms(sets: &[(String, Vec<Passage>, Vec<usize>)]) -> f64 {
    const MAX_PASSAGES: usize = 8;
    let mut times: Vec<f64> = Vec::new();
    for window in sets.windows(5) {
        let mut pooled: Vec<Passage> = Vec::new();
        let mut sentences: Vec<String> = Vec::new();
        for (claim, passages, cited) in window {
            let mut markers = String::new();
            for &n in cited {
                let Some(p) = n.checked_sub(1).and_then(|i| passages.get(i)) else {
                    continue;
                };
                let at = match pooled.iter().position(|q| q.chunk_id == p.chunk_id) {
                    Some(at) => at,
                    None if pooled.len() < MAX_PASSAGES => {
                        pooled.push(p.clone());
                        pooled.len() - 1
                    }
                    None => continue,
                };
                markers.push_str(&format!("[{}]", at + 1));
            }
            sentences.push(format!("{claim}{markers}"));
        }
        let answer = sentences.join(" ");
        let start = Instant::now();
        let v = check(&answer, &pooled);
        times.push(start.elapsed().as_secs_f64() * 1000.0);
        std::hint::black_box(v);
    }
    times.sort_by(f64::total_cmp);
    times
        .get(((times.len() as f64) * 0.95) as usize)
        .or(times.last())
        .copied()
        .unwrap_or(0.0)
}
