//! `evident-bench grounding`'s second half: a **regression smoke test** of the
//! grounding check, not a measure of its accuracy.
//!
//! Its corruptions are made by rules, one of them ([`flip_negation`]) with the
//! checker's own negation reader: a checker is bound to catch the mistakes it was used
//! to make, so a high rate here proves only that nothing that used to be caught has
//! stopped being caught. How well the check does on mistakes nobody built from its
//! rules is what the hand-checked claims measure ([`crate::claims`], held-out and
//! blind splits).
//!
//! For a question whose answer-bearing passage is retrieved, the passage sentence that
//! holds the gold answer is the faithful claim: copied with its citation, lightly
//! reworded ("根据规定，…" / "According to the policy, …") and without a citation.
//! Corrupted claims are made from it: a number changed, a negation added or removed,
//! the citation pointed at another retrieved passage from a different document, a
//! citation number that was not retrieved, and a sentence from a different document
//! cited as if it came from this passage. A claim is flagged when its verdict is not
//! `supported`. Rates are reported per language.

use std::io::Write;
use std::path::{Path, PathBuf};

use evident_core::grounding::{Verdict, check, negation::denials};
use evident_core::import::{ImportOptions, Importer};
use evident_core::search::{Aliases, Passage, SearchOptions, search};
use evident_core::store::Store;
use evident_text::sentence::split_units;
use serde::Serialize;

use crate::dataset::{self, Question};

/// Counts for one kind of claim.
#[derive(Debug, Default, Clone, Serialize)]
struct Tally {
    claims: usize,
    flagged: usize,
}

impl Tally {
    fn add(&mut self, flagged: bool) {
        self.claims += 1;
        self.flagged += usize::from(flagged);
    }
    fn rate(&self) -> f64 {
        if self.claims == 0 {
            0.0
        } else {
            self.flagged as f64 / self.claims as f64
        }
    }
}

const KINDS: [&str; 8] = [
    "faithful: copied",
    "faithful: reworded",
    "faithful: uncited",
    "corrupt: number changed",
    "corrupt: negation flipped",
    "corrupt: cites another passage",
    "corrupt: cites unretrieved [n]",
    "corrupt: other document's sentence",
];

#[derive(Debug, Serialize)]
struct LanguageReport {
    language: String,
    sets: Vec<String>,
    questions_used: usize,
    kinds: Vec<(String, Tally)>,
    false_flag_rate: f64,
    detection_rate: f64,
}

fn cite(sentence: &str, n: usize) -> String {
    evident_core::answer::compose::with_citation(&evident_core::answer::compose::Draft {
        text: sentence.to_owned(),
        n,
        location: None,
    })
}

/// The first number written in digits, changed by one: "5000" → "5001".
fn change_number(s: &str) -> Option<String> {
    let start = s.find(|c: char| c.is_ascii_digit())?;
    let len = s[start..]
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(s.len() - start);
    let n: u64 = s[start..start + len].parse().ok()?;
    Some(format!("{}{}{}", &s[..start], n + 1, &s[start + len..]))
}

/// The sentence with its negation removed, or one added before its main verb.
fn flip_negation(s: &str, zh: bool) -> Option<String> {
    if !denials(s).is_empty() {
        for cue in [
            "不得", "不能", "不是", "没有", "不", "未", "无", " not ", " no ", " never ",
        ] {
            if let Some(i) = s.find(cue) {
                let repl = if cue.starts_with(' ') { " " } else { "" };
                return Some(format!("{}{repl}{}", &s[..i], &s[i + cue.len()..]));
            }
        }
        return None;
    }
    if zh {
        for (verb, negated) in [
            ("应当", "不应当"),
            ("可以", "不可以"),
            ("是", "不是"),
            ("有", "没有"),
            ("能", "不能"),
            ("会", "不会"),
            ("在", "不在"),
        ] {
            if let Some(i) = s.find(verb) {
                return Some(format!("{}{negated}{}", &s[..i], &s[i + verb.len()..]));
            }
        }
        None
    } else {
        for verb in [
            " is ", " are ", " was ", " were ", " can ", " will ", " may ", " should ", " must ",
            " has ", " have ",
        ] {
            if let Some(i) = s.find(verb) {
                return Some(format!("{}{verb}not {}", &s[..i], &s[i + verb.len()..]));
            }
        }
        None
    }
}

fn gold_sentence(p: &Passage, answers: &[String]) -> Option<String> {
    split_units(&p.text)
        .into_iter()
        .map(|(s, e)| p.text[s..e].replace('\n', " "))
        .find(|u| {
            let n = dataset::norm(u);
            answers.iter().any(|a| n.contains(a))
        })
        .filter(|u| u.chars().count() >= 8)
}

fn flagged(answer: &str, passages: &[Passage]) -> bool {
    let v = check(answer, passages);
    v.is_empty() || v.iter().any(|s| s.verdict != Verdict::Supported)
}

fn run_set(
    questions_path: &Path,
    limit: usize,
    zh: bool,
    tallies: &mut [Tally],
) -> anyhow::Result<usize> {
    let all: Vec<Question> = dataset::load(questions_path)?;
    let step = (all.len() / limit.max(1)).max(1);
    let docs = questions_path
        .parent()
        .unwrap_or(Path::new("."))
        .join("docs");
    let tmp = std::env::temp_dir().join(format!("evident-bench-grounding-{}", std::process::id()));
    std::fs::create_dir_all(&tmp)?;
    let db = tmp.join("index.sqlite3");
    let _ = std::fs::remove_file(&db);
    let result = (|| -> anyhow::Result<usize> {
        let mut store = Store::open(&db)?;
        Importer::new(ImportOptions::sandboxed()?).run(&mut store, &[docs], &mut |_| {})?;
        let documents = store.documents()?;
        let aliases = Aliases::default();
        let mut used = 0;
        let mut previous: Option<(String, PathBuf)> = None;
        for q in all.iter().step_by(step).take(limit) {
            let scope = q.policy.as_ref().map(|_| {
                documents
                    .iter()
                    .filter(|d| q.is_gold(&d.path))
                    .map(|d| d.id)
                    .collect::<Vec<_>>()
            });
            let options = SearchOptions {
                k: 5,
                answer_line: Some(0.0),
                documents: scope,
                ..SearchOptions::default()
            };
            let result = search(&store, &q.question, &aliases, &options)?;
            let answers = q.normalised_answers();
            let Some((hit, sentence)) = result.passages.iter().find_map(|p| {
                if !q.is_gold(&p.doc_path) {
                    return None;
                }
                gold_sentence(p, &answers).map(|s| (p, s))
            }) else {
                continue;
            };
            used += 1;
            let ps = &result.passages;
            let n = hit.n;
            tallies[0].add(flagged(&cite(&sentence, n), ps));
            let reworded = if zh {
                format!("根据规定，{sentence}")
            } else {
                let mut c = sentence.chars();
                let first = c.next().map(|f| f.to_lowercase().collect::<String>());
                format!(
                    "According to the policy, {}{}",
                    first.unwrap_or_default(),
                    c.as_str()
                )
            };
            tallies[1].add(flagged(&cite(&reworded, n), ps));
            tallies[2].add(flagged(&sentence, ps));
            if let Some(changed) = change_number(&sentence) {
                tallies[3].add(flagged(&cite(&changed, n), ps));
            }
            if let Some(flipped) = flip_negation(&sentence, zh) {
                tallies[4].add(flagged(&cite(&flipped, n), ps));
            }
            if let Some(other) = ps.iter().find(|p| p.doc_id != hit.doc_id) {
                tallies[5].add(flagged(&cite(&sentence, other.n), ps));
            }
            tallies[6].add(flagged(&cite(&sentence, ps.len() + 3), ps));
            if let Some((prev, path)) = &previous
                && *path != hit.doc_path
            {
                tallies[7].add(flagged(&cite(prev, n), ps));
            }
            previous = Some((sentence, hit.doc_path.clone()));
        }
        Ok(used)
    })();
    let _ = std::fs::remove_dir_all(&tmp);
    result
}

/// Runs the synthetic corruptions; prints them unless `json`, and returns the reports.
pub fn run(eval_dir: &Path, limit: usize, json: bool) -> anyhow::Result<serde_json::Value> {
    let datasets = eval_dir.join("datasets");
    let mut reports = Vec::new();
    for (language, sets, zh) in [
        ("Chinese", vec!["cmrc2018-dev", "drcd-dev"], true),
        ("English", vec!["policyqa-test"], false),
    ] {
        let mut tallies = vec![Tally::default(); KINDS.len()];
        let mut used = 0;
        for set in &sets {
            used += run_set(
                &datasets.join(set).join("questions.jsonl"),
                limit,
                zh,
                &mut tallies,
            )?;
        }
        let sum = |range: std::ops::Range<usize>| {
            tallies[range].iter().fold(Tally::default(), |mut t, x| {
                t.claims += x.claims;
                t.flagged += x.flagged;
                t
            })
        };
        reports.push(LanguageReport {
            language: language.into(),
            sets: sets.iter().map(|s| s.to_string()).collect(),
            questions_used: used,
            false_flag_rate: sum(0..3).rate(),
            detection_rate: sum(3..KINDS.len()).rate(),
            kinds: KINDS.iter().map(|k| k.to_string()).zip(tallies).collect(),
        });
    }
    let value = serde_json::to_value(&reports)?;
    if json {
        return Ok(value);
    }
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "Regression smoke test (rule-made corruptions, some by the checker's own negation \
         reader: not an accuracy figure; see the hand-checked claims for that)"
    )?;
    for r in &reports {
        writeln!(
            out,
            "{} ({}; {} questions with the answer sentence retrieved)",
            r.language,
            r.sets.join(", "),
            r.questions_used
        )?;
        for (kind, t) in &r.kinds {
            writeln!(
                out,
                "  {kind:<36} {:>5} claims, {:>5} flagged ({:.1}%)",
                t.claims,
                t.flagged,
                100.0 * t.rate()
            )?;
        }
        writeln!(
            out,
            "  corrupted flagged {:.1}%, faithful flagged {:.1}%",
            100.0 * r.detection_rate,
            100.0 * r.false_flag_rate
        )?;
    }
    Ok(value)
}
