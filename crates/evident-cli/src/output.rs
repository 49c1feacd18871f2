//! Human and JSON output of the commands, and the import progress bar.

use std::io::Write;
use std::path::Path;

use evident_cli::locale::{display, lang};
use evident_core::import::{FileReport, ImportEvent, ImportSummary, Outcome, RebuildReport};
use evident_core::message::{Lang, Message};
use evident_core::search::Outcome as SearchOutcome;
use evident_core::store::{ChunkRecord, DocumentRecord, Stats};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A progress bar on stderr for long imports; invisible when stderr is not a terminal
/// or JSON output was asked for.
pub struct Progress {
    bar: Option<ProgressBar>,
    quiet: bool,
    /// Whether the bar counts passages being embedded (not files).
    embedding: bool,
    /// The last tenth of the embedding pass said as a line (when not on a terminal).
    said_tenth: usize,
}

impl Progress {
    pub fn new(quiet: bool) -> Self {
        Self {
            bar: None,
            quiet,
            embedding: false,
            said_tenth: 0,
        }
    }

    pub fn event(&mut self, event: ImportEvent<'_>) {
        match event {
            ImportEvent::Planned { files, .. } if !self.quiet => {
                let bar =
                    ProgressBar::with_draw_target(Some(files as u64), ProgressDrawTarget::stderr());
                if let Ok(style) = ProgressStyle::with_template(
                    "{bar:30} {pos}/{len} files  {elapsed}  {wide_msg}",
                ) {
                    bar.set_style(style);
                }
                self.bar = Some(bar);
            }
            ImportEvent::File(report) => {
                if let Some(bar) = &self.bar {
                    bar.set_message(display(&report.path));
                    bar.inc(1);
                }
            }
            ImportEvent::Ocr { path, page, pages } if !self.quiet => {
                let line = match lang() {
                    Lang::ZhCn => format!("正在识别扫描页 {page}/{pages}：{}", display(path)),
                    Lang::En => {
                        format!("reading scanned page {page} of {pages}: {}", display(path))
                    }
                };
                match &self.bar {
                    Some(bar) if !bar.is_hidden() => bar.set_message(line),
                    // Not a terminal: one line per page, for logs and scripts.
                    _ => eprintln!("{line}"),
                }
            }
            ImportEvent::Embedding(p) => self.embedding(p),
            _ => {}
        }
    }

    /// Shows how far embedding has come and how long the rest will take at the rate so
    /// far (the bar switches from files to the pass: every passage, then their
    /// sentences); not on a terminal, a line at each tenth of the way.
    pub fn embedding(&mut self, p: evident_core::embed::EmbedProgress) {
        if self.quiet {
            return;
        }
        let zh = lang() == Lang::ZhCn;
        let passages = p.embedded < p.total;
        let what = match (passages, zh) {
            (true, true) => "正在嵌入段落",
            (true, false) => "embedding passages",
            (false, true) => "段落均可按语义检索，正在嵌入句子",
            (false, false) => "every passage found by meaning, embedding sentences",
        };
        let message = match (p.seconds_left.map(|s| time_left(s, zh)), zh) {
            (Some(left), true) => format!("{what}，预计还需 {left}"),
            (Some(left), false) => format!("{what}, about {left} left"),
            (None, _) => what.to_owned(),
        };
        // Passages and then sentences, one bar: twice the chunks long.
        let (length, position) = (2 * p.total as u64, (p.embedded + p.sentences) as u64);
        let bar = self.bar.get_or_insert_with(|| {
            ProgressBar::with_draw_target(Some(length), ProgressDrawTarget::stderr())
        });
        if !self.embedding || bar.length() != Some(length) {
            if let Ok(style) = ProgressStyle::with_template("{bar:30} {elapsed}  {wide_msg}") {
                bar.set_style(style);
            }
            bar.set_length(length);
            self.embedding = true;
        }
        let count = if passages { p.embedded } else { p.sentences };
        bar.set_message(format!("{count}/{}  {message}", p.total));
        bar.set_position(position);
        let tenth = (position * 10 / length.max(1)) as usize;
        if bar.is_hidden()
            && p.seconds_left.is_some()
            && position < length
            && tenth > self.said_tenth
        {
            self.said_tenth = tenth;
            eprintln!("{count}/{}  {message}", p.total);
        }
    }

    pub fn finish(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
    }
}

/// A time left in words: seconds under a minute, else minutes (rounded up), else hours
/// and minutes.
fn time_left(seconds: u64, zh: bool) -> String {
    let minutes = seconds.div_ceil(60);
    match (seconds, zh) {
        (0..60, true) => format!("{seconds} 秒"),
        (0..60, false) => format!("{seconds} s"),
        (_, true) if minutes < 60 => format!("{minutes} 分钟"),
        (_, false) if minutes < 60 => format!("{minutes} min"),
        (_, true) => format!("{} 小时 {} 分钟", minutes / 60, minutes % 60),
        (_, false) => format!("{} h {} min", minutes / 60, minutes % 60),
    }
}

fn detail(report: &FileReport) -> String {
    match &report.outcome {
        Outcome::Imported {
            pages,
            chunks,
            replaced,
            warned,
            ..
        } => {
            let mut s = format!(
                "{pages} page{}, {chunks} chunk{}{}",
                if *pages == 1 { "" } else { "s" },
                if *chunks == 1 { "" } else { "s" },
                if *replaced {
                    " (replaced the older version)"
                } else {
                    ""
                }
            );
            for w in warned {
                s.push_str(&format!("\n{:>11}warning: {}", "", w.text(lang())));
            }
            s
        }
        Outcome::Unchanged { .. } => "already imported, content unchanged".into(),
        Outcome::Duplicate { of } => format!("same content as {}", display(of)),
        Outcome::Skipped { why, .. } | Outcome::Failed { why, .. } => why.text(lang()),
    }
}

pub fn import_summary(summary: &ImportSummary, json: bool) -> anyhow::Result<()> {
    if json {
        writeln!(
            std::io::stdout(),
            "{}",
            serde_json::to_string_pretty(summary)?
        )?;
        return Ok(());
    }
    for f in &summary.files {
        writeln!(
            std::io::stdout(),
            "{:<10} {}  — {}",
            f.outcome.label(),
            display(&f.path),
            detail(f)
        )?;
    }
    let totals: Vec<String> = summary
        .totals()
        .iter()
        .map(|(l, n)| format!("{n} {l}"))
        .collect();
    writeln!(
        std::io::stdout(),
        "Summary: {} ({:.1} s)",
        totals.join(", "),
        summary.elapsed_ms as f64 / 1000.0
    )?;
    if let Some(e) = &summary.embedding {
        embed_outcome(e)?;
    }
    Ok(())
}

/// One line on how embedding went after an import.
pub fn embed_outcome(e: &evident_core::import::EmbedOutcome) -> anyhow::Result<()> {
    match (&e.report, &e.error) {
        (Some(r), _) => embed_report(r, false),
        (None, Some(error)) => {
            writeln!(std::io::stderr(), "warning: embedding stopped: {error}")?;
            Ok(())
        }
        (None, None) => Ok(()),
    }
}

/// What an embedding pass did.
pub fn embed_report(r: &evident_core::embed::EmbedReport, json: bool) -> anyhow::Result<()> {
    let mut out = std::io::stdout();
    if json {
        writeln!(out, "{}", serde_json::to_string_pretty(r)?)?;
        return Ok(());
    }
    writeln!(
        out,
        "Embedding ({}, {} dimensions): {} of {} passages embedded, {} in this pass; \
         the sentences of {} of them, {} in this pass ({:.1} s){}",
        r.model,
        r.dim,
        r.coverage.embedded,
        r.coverage.total,
        r.embedded_now,
        r.coverage.sentences,
        r.sentences_now,
        r.seconds,
        if r.cancelled { ", stopped early" } else { "" }
    )?;
    Ok(())
}

pub fn rebuild(db: &Path, report: &RebuildReport, json: bool) -> anyhow::Result<()> {
    if json {
        writeln!(
            std::io::stdout(),
            "{}",
            serde_json::to_string_pretty(report)?
        )?;
        return Ok(());
    }
    if let Some(aside) = &report.broken_copy {
        writeln!(
            std::io::stdout(),
            "The damaged database was kept as {}",
            aside.display()
        )?;
    }
    if !report.sources_recovered {
        writeln!(
            std::io::stdout(),
            "The list of documents could not be recovered from the damaged database; a fresh, empty database was created at {}. Import your documents again with `evident import`.",
            db.display()
        )?;
    }
    writeln!(
        std::io::stdout(),
        "Rebuilt {} from {} source file(s):",
        db.display(),
        report.sources
    )?;
    import_summary(&report.summary, false)
}

fn status(doc: &DocumentRecord) -> &'static str {
    if doc.chunker_version != evident_core::chunk::CHUNKER_VERSION {
        return "needs rebuild";
    }
    match std::fs::metadata(&doc.path) {
        Err(_) => "missing",
        Ok(m) if m.len() as i64 != doc.size_bytes => "changed on disk",
        Ok(_) if doc.status == evident_core::store::DocumentStatus::IndexedWithWarnings => {
            "warnings"
        }
        Ok(_) => "indexed",
    }
}

pub fn docs(docs: &[DocumentRecord], json: bool) -> anyhow::Result<()> {
    if json {
        let rows: Vec<serde_json::Value> = docs
            .iter()
            .map(|d| {
                let mut v = serde_json::to_value(d).unwrap_or_default();
                v["freshness"] = status(d).into();
                v
            })
            .collect();
        writeln!(
            std::io::stdout(),
            "{}",
            serde_json::to_string_pretty(&rows)?
        )?;
        return Ok(());
    }
    if docs.is_empty() {
        writeln!(
            std::io::stdout(),
            "No documents yet. Add some with `evident import PATH...`."
        )?;
        return Ok(());
    }
    writeln!(
        std::io::stdout(),
        "{:>4}  {:<8} {:>5} {:>6} {:>9}  {:<15} title — path",
        "id",
        "kind",
        "pages",
        "chunks",
        "size",
        "status"
    )?;
    for d in docs {
        writeln!(
            std::io::stdout(),
            "{:>4}  {:<8} {:>5} {:>6} {:>9}  {:<15} {} — {}",
            d.id,
            d.kind.as_str(),
            d.page_count,
            d.chunks,
            human_bytes(d.size_bytes as u64),
            status(d),
            d.title,
            display(&d.path)
        )?;
        // In the locale's language when stored as codes; older ones as they were said.
        let said: Vec<String> = if d.warned.is_empty() {
            d.warnings.clone()
        } else {
            d.warned.iter().map(|w| w.text(lang())).collect()
        };
        for w in said {
            writeln!(std::io::stdout(), "{:>6}warning: {w}", "")?;
        }
    }
    Ok(())
}

pub fn chunks(doc: &DocumentRecord, chunks: &[ChunkRecord], json: bool) -> anyhow::Result<()> {
    if json {
        writeln!(
            std::io::stdout(),
            "{}",
            serde_json::to_string_pretty(chunks)?
        )?;
        return Ok(());
    }
    writeln!(
        std::io::stdout(),
        "{} — {} chunks\n",
        display(&doc.path),
        chunks.len()
    )?;
    for c in chunks {
        let pages = if c.page_start == c.page_end {
            format!("p{}", c.page_start)
        } else {
            format!("p{}-{}", c.page_start, c.page_end)
        };
        writeln!(
            std::io::stdout(),
            "#{} {pages} chars {}..{} {} tokens  [{}]",
            c.ordinal,
            c.char_start,
            c.char_end,
            c.token_count,
            c.heading_path.join(" › ")
        )?;
        writeln!(std::io::stdout(), "{}\n", c.text)?;
    }
    Ok(())
}

pub fn stats(s: &Stats, json: bool) -> anyhow::Result<()> {
    if json {
        writeln!(std::io::stdout(), "{}", serde_json::to_string_pretty(s)?)?;
        return Ok(());
    }
    writeln!(std::io::stdout(), "database        {}", s.path.display())?;
    writeln!(
        std::io::stdout(),
        "file size       {}",
        human_bytes(s.file_bytes)
    )?;
    writeln!(std::io::stdout(), "schema          {}", s.schema_version)?;
    writeln!(std::io::stdout(), "tokenizer       {}", s.tokenizer)?;
    writeln!(
        std::io::stdout(),
        "chunker         version {}",
        s.chunker_version
    )?;
    writeln!(std::io::stdout(), "documents       {}", s.documents)?;
    writeln!(std::io::stdout(), "pages           {}", s.pages)?;
    writeln!(std::io::stdout(), "chunks          {}", s.chunks)?;
    writeln!(std::io::stdout(), "tokens          {}", s.tokens)?;
    if s.needs_rebuild > 0 {
        writeln!(
            std::io::stdout(),
            "needs rebuild   {} document(s): run `evident rebuild`",
            s.needs_rebuild
        )?;
    }
    Ok(())
}

pub fn human_bytes(n: u64) -> String {
    const UNITS: [&str; 4] = ["B", "KB", "MB", "GB"];
    let mut v = n as f64;
    let mut u = 0;
    while v >= 1024.0 && u < UNITS.len() - 1 {
        v /= 1024.0;
        u += 1;
    }
    if u == 0 {
        format!("{n} B")
    } else {
        format!("{v:.1} {}", UNITS[u])
    }
}

/// Prints search results: ranked passages, or "not found" with the related ones.
pub fn search(r: &evident_core::search::SearchResult, json: bool) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    if json {
        writeln!(out, "{}", serde_json::to_string_pretty(r)?)?;
        return Ok(());
    }
    if r.query.truncated {
        writeln!(
            out,
            "note: only the first 1000 characters of the question were used"
        )?;
    }
    if r.retrieval.note.is_some() {
        let note = say(r.retrieval.note_code.as_ref(), r.retrieval.note.as_deref());
        writeln!(out, "note: {note}")?;
    }
    if let Some(why) = &r.retrieval.rerank_note {
        writeln!(out, "note: {}", say(Some(why), None))?;
    }
    match r.status {
        SearchOutcome::NotFound => {
            let reason = say(r.reason.as_ref(), r.not_found_reason.as_deref());
            writeln!(out, "{}: {reason}.", words(Words::NotFound))?;
            if !r.passages.is_empty() {
                writeln!(out, "{}:", words(Words::Related))?;
            }
        }
        SearchOutcome::Uncertain => {
            writeln!(
                out,
                "{} ({}).",
                words(Words::Uncertain),
                say(r.reason.as_ref(), r.not_found_reason.as_deref())
            )?;
        }
        SearchOutcome::Answered => {}
    }
    for p in &r.passages {
        let pages = if p.page_start == p.page_end {
            format!("p. {}", p.page_start)
        } else {
            format!("pp. {}-{}", p.page_start, p.page_end)
        };
        let heading = evident_core::answer::heading_path(&p.title, &p.heading_path);
        let heading = if heading.is_empty() {
            String::new()
        } else {
            format!(" > {heading}")
        };
        writeln!(
            out,
            "[{}] {}{heading} ({pages}, {}) covers {:.0}%{}",
            p.n,
            p.title,
            display(&p.doc_path),
            100.0 * p.coverage,
            why(&p.why)
        )?;
        writeln!(out, "    {}", p.highlight.text.replace('\n', " "))?;
    }
    Ok(())
}

/// "keyword #2, passage vector #1, sentence vector #4" for a passage's ranks.
fn why(r: &evident_core::search::Ranks) -> String {
    let parts: Vec<String> = [
        ("keyword", r.keyword),
        ("passage vector", r.passage_vector),
        ("sentence vector", r.sentence_vector),
        ("reranker", r.rerank),
    ]
    .iter()
    .filter_map(|(name, place)| place.map(|p| format!("{name} #{p}")))
    .collect();
    if r.passage_vector.is_none() && r.sentence_vector.is_none() && r.rerank.is_none() {
        return String::new();
    }
    format!(" — {}, fused {:.4}", parts.join(", "), r.fused)
}

/// The mark before a sentence: ✓ it matches its passage, ◐ partly, ⚠ not.
fn verdict_mark(v: evident_core::grounding::Verdict) -> &'static str {
    use evident_core::grounding::Verdict;
    match v {
        Verdict::Supported => "✓",
        Verdict::PartiallySupported => "◐",
        Verdict::Unsupported => "⚠",
    }
}

/// The words around an answer.
#[derive(Clone, Copy)]
enum Words {
    NotFound,
    Related,
    Uncertain,
    Sources,
    PassagesReferred,
    WrittenBy,
    AlsoRetrieved,
    AllSourcesHint,
    Closest,
    ModelUnsupported,
}

/// [`Words`] in the user's language.
fn words(w: Words) -> &'static str {
    match (w, lang()) {
        (Words::NotFound, Lang::ZhCn) => "您的文件中没有找到答案",
        (Words::NotFound, Lang::En) => "Not found in your documents",
        (Words::Related, Lang::ZhCn) => "相关段落（不是答案）",
        (Words::Related, Lang::En) => "Related, but not an answer",
        (Words::Uncertain, Lang::ZhCn) => "不确定：以下是最接近的段落，可能并不回答您的问题",
        (Words::Uncertain, Lang::En) => {
            "Uncertain: these are the closest passages; they may not answer your question"
        }
        (Words::Sources, Lang::ZhCn) => "来源",
        (Words::Sources, Lang::En) => "Sources",
        (Words::PassagesReferred, Lang::ZhCn) => "[n] 所指的段落",
        (Words::PassagesReferred, Lang::En) => "Passages [n] refers to",
        (Words::WrittenBy, Lang::ZhCn) => "由模型撰写，每句均已核对：",
        (Words::WrittenBy, Lang::En) => "Written by a model, every sentence checked:",
        (Words::AlsoRetrieved, Lang::ZhCn) => "另检索到",
        (Words::AlsoRetrieved, Lang::En) => "also retrieved",
        (Words::AllSourcesHint, Lang::ZhCn) => "用 --all-sources 列出全部",
        (Words::AllSourcesHint, Lang::En) => "--all-sources lists them",
        (Words::Closest, Lang::ZhCn) => "最接近的段落（不是答案）",
        (Words::Closest, Lang::En) => "Closest passages (not an answer)",
        (Words::ModelUnsupported, Lang::ZhCn) => "模型所写（您的文件不支持）",
        (Words::ModelUnsupported, Lang::En) => {
            "What the model wrote (not supported by your documents)"
        }
    }
}

/// Sources that quote the same text (the handbook imported as PDF and as TXT): each
/// group once, in the order of its first member. What is shown of a source is its
/// quote, so two sources with one quote would read as the same source twice.
fn same_passages(
    sources: &[evident_core::answer::Source],
) -> Vec<Vec<&evident_core::answer::Source>> {
    let key = |s: &evident_core::answer::Source| -> String {
        evident_text::normalize::nfkc(&s.highlight.text)
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect()
    };
    let mut groups: Vec<(String, Vec<&evident_core::answer::Source>)> = Vec::new();
    for s in sources {
        let k = key(s);
        match groups.iter_mut().find(|(g, _)| *g == k) {
            Some((_, members)) => members.push(s),
            None => groups.push((k, vec![s])),
        }
    }
    groups.into_iter().map(|(_, members)| members).collect()
}

fn pages(s: &evident_core::answer::Source) -> String {
    if s.page_start == s.page_end {
        format!("p. {}", s.page_start)
    } else {
        format!("pp. {}-{}", s.page_start, s.page_end)
    }
}

/// The question's words found in `text`, marked (bold on a terminal, else as written:
/// a file or a pipe gets the document's text unchanged).
fn mark_terms(text: &str, terms: &[String]) -> String {
    use std::io::IsTerminal;
    if terms.is_empty() || !std::io::stdout().is_terminal() {
        return text.to_owned();
    }
    let lower = text.to_lowercase();
    // Lower-casing can change byte lengths; mark only where it does not.
    if lower.len() != text.len() {
        return text.to_owned();
    }
    let mut marked = vec![false; text.len()];
    for t in terms
        .iter()
        .map(|t| t.to_lowercase())
        .filter(|t| !t.is_empty())
    {
        for (at, _) in lower.match_indices(&t) {
            marked[at..at + t.len()].iter_mut().for_each(|m| *m = true);
        }
    }
    let mut out = String::with_capacity(text.len() + 16);
    let mut bold = false;
    for (i, c) in text.char_indices() {
        if marked[i] != bold {
            out.push_str(if marked[i] { "\x1b[1m" } else { "\x1b[0m" });
            bold = marked[i];
        }
        out.push(c);
    }
    if bold {
        out.push_str("\x1b[0m");
    }
    out
}

/// Prints sources in full: each passage once with its best sentence quoted, naming
/// every file that holds the same text.
fn print_sources(
    out: &mut impl Write,
    sources: &[evident_core::answer::Source],
) -> anyhow::Result<()> {
    print_groups(out, &same_passages(sources))
}

/// Prints groups of sources that quote the same text, each once.
fn print_groups(
    out: &mut impl Write,
    groups: &[Vec<&evident_core::answer::Source>],
) -> anyhow::Result<()> {
    for group in groups {
        let s = group[0];
        let numbers: String = group.iter().map(|g| format!("[{}]", g.n)).collect();
        let heading = if s.heading.is_empty() {
            String::new()
        } else {
            format!(" > {}", s.heading)
        };
        let unused = if group.iter().any(|g| g.in_context) {
            ""
        } else {
            " (over budget, not used)"
        };
        let files: Vec<String> = group
            .iter()
            .map(|g| format!("{}, {}", pages(g), display(&g.doc_path)))
            .collect();
        writeln!(
            out,
            "{numbers} {}{heading} ({}){unused}",
            s.title,
            files.join("; ")
        )?;
        let quote = s.highlight.text.replace('\n', " ");
        writeln!(out, "    \"{}\"", mark_terms(&quote, &s.matched_terms))?;
    }
    Ok(())
}

/// The sources not cited, as one line: "also retrieved: [2] title · [3] title".
fn print_also_retrieved(
    out: &mut impl Write,
    groups: &[Vec<&evident_core::answer::Source>],
) -> anyhow::Result<()> {
    if groups.is_empty() {
        return Ok(());
    }
    let items: Vec<String> = groups
        .iter()
        .map(|group| {
            let numbers: String = group.iter().map(|g| format!("[{}]", g.n)).collect();
            format!("{numbers} {}", group[0].title)
        })
        .collect();
    writeln!(
        out,
        "\n{}: {}  ({})",
        words(Words::AlsoRetrieved),
        items.join(" · "),
        words(Words::AllSourcesHint)
    )?;
    Ok(())
}

/// A message in the user's language, or the English text stored before codes existed.
fn say(code: Option<&Message>, english: Option<&str>) -> String {
    code.map(|m| m.text(lang()))
        .or_else(|| english.map(str::to_owned))
        .unwrap_or_default()
}

/// Several messages the same way.
fn say_all(codes: &[Message], english: &[String]) -> Vec<String> {
    if codes.is_empty() {
        english.to_vec()
    } else {
        codes.iter().map(|m| m.text(lang())).collect()
    }
}

fn print_verdicts(
    out: &mut impl Write,
    sentences: &[evident_core::grounding::SentenceVerdict],
) -> anyhow::Result<()> {
    for s in sentences {
        let cites: String = s.citations.iter().map(|n| format!("[{n}]")).collect();
        let label = evident_core::message::verdict_label(s.verdict, &s.reason_codes, lang());
        writeln!(
            out,
            "  {} {}{cites} — {label}",
            verdict_mark(s.verdict),
            s.text
        )?;
        for r in say_all(&s.reason_codes, &s.reasons) {
            writeln!(out, "      - {r}")?;
        }
    }
    Ok(())
}

/// Prints an answer as the window shows it: the sentences with their verdicts and
/// notes, then the cited sources in full and the rest on one line (all of them with
/// `all_sources`). An answer that is uncertain or not found shows no answer-like
/// sentence: its reason, then the closest passages with the question's words marked.
pub fn answer(
    a: &evident_core::answer::Answer,
    json: bool,
    all_sources: bool,
) -> anyhow::Result<()> {
    use evident_core::answer::{Mode, Status};
    let mut out = std::io::stdout().lock();
    if json {
        writeln!(out, "{}", serde_json::to_string_pretty(a)?)?;
        return Ok(());
    }
    if a.retrieval.note.is_some() {
        let note = say(a.retrieval.note_code.as_ref(), a.retrieval.note.as_deref());
        writeln!(out, "note: {note}\n")?;
    }
    if let Some(why) = &a.retrieval.rerank_note {
        writeln!(out, "note: {}\n", say(Some(why), None))?;
    }
    if a.fallback.is_some() || a.fallback_reason.is_some() {
        let why = say(a.fallback.as_ref(), a.fallback_reason.as_deref());
        writeln!(out, "note: {why}\n")?;
    } else if let (Mode::Generated, Some(g), Status::Answered) = (a.mode, &a.generation, a.status) {
        writeln!(out, "{} {}\n", words(Words::WrittenBy), g.model)?;
    }
    let reason = say(a.reason.as_ref(), a.not_found_reason.as_deref());
    match a.status {
        Status::Answered => {
            writeln!(out, "{}\n", a.text)?;
            print_verdicts(&mut out, &a.sentences)?;
            for n in say_all(&a.note_codes, &a.notes) {
                writeln!(out, "\n{n}")?;
            }
            let cited: std::collections::HashSet<usize> = a
                .sentences
                .iter()
                .flat_map(|s| s.citations.iter().copied())
                .collect();
            // A cited quote found in several files is one cited source naming them all.
            let (first, rest): (Vec<_>, Vec<_>) = same_passages(&a.sources)
                .into_iter()
                .partition(|g| g.iter().any(|s| cited.contains(&s.n)));
            writeln!(out, "\n{}:", words(Words::Sources))?;
            print_groups(&mut out, &first)?;
            if all_sources {
                if !rest.is_empty() {
                    writeln!(out, "\n{}:", words(Words::AlsoRetrieved))?;
                    print_groups(&mut out, &rest)?;
                }
            } else {
                print_also_retrieved(&mut out, &rest)?;
            }
            Ok(())
        }
        Status::Uncertain | Status::NotFound => {
            match (a.status, reason.is_empty()) {
                (Status::Uncertain, false) => {
                    writeln!(out, "{} ({reason}).", words(Words::Uncertain))?
                }
                (Status::Uncertain, true) => writeln!(out, "{}.", words(Words::Uncertain))?,
                (_, false) => writeln!(out, "{}: {reason}.", words(Words::NotFound))?,
                (_, true) => writeln!(out, "{}.", words(Words::NotFound))?,
            }
            for n in say_all(&a.note_codes, &a.notes) {
                writeln!(out, "{n}")?;
            }
            if a.mode == Mode::Generated && !a.sentences.is_empty() {
                writeln!(out, "\n{}:", words(Words::ModelUnsupported))?;
                print_verdicts(&mut out, &a.sentences)?;
            }
            if !a.sources.is_empty() {
                writeln!(out, "\n{}:", words(Words::Closest))?;
                print_sources(&mut out, &a.sources)?;
            }
            Ok(())
        }
    }
}

/// Prints the verdicts on a checked answer.
pub fn checked(c: &evident_core::answer::Checked, json: bool) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    if json {
        writeln!(out, "{}", serde_json::to_string_pretty(c)?)?;
        return Ok(());
    }
    print_verdicts(&mut out, &c.sentences)?;
    if c.unchecked > 0 {
        writeln!(
            out,
            "\n{} more sentence(s) not checked: at most {} are checked at once.",
            c.unchecked,
            evident_core::answer::pasted::MAX_SENTENCES
        )?;
    }
    writeln!(out, "\n{}:", words(Words::PassagesReferred))?;
    print_sources(&mut out, &c.sources)
}
