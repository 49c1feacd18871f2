//! Word documents (`.docx`): headings from paragraph styles and outline levels,
//! automatic numbering rendered into the text (so an auto-numbered 第十九条 can be found
//! and cited), tables one row per block, lists, footnotes and endnotes; tracked changes
//! read as accepted. Page headers and footers, comments and field codes are left out.
//!
//! Built on `zip` and `quick-xml` rather than a DOCX crate: the crates that read DOCX
//! (docx-rs, docx-rust) parse into their own object model but do not render numbering
//! labels, resolve style inheritance into headings or drop field codes — the parts that
//! decide whether a policy's text comes out right — so a streaming reader over the XML
//! is both smaller and complete. It keeps no recursion and caps every part's size (see
//! [`package`]), so hostile input ends in a per-file error, never a hang or a blow-up;
//! that is why it runs in-process, unlike the PDF reader.
//!
//! Word has no fixed pages: the whole document is one page, and passages are cited by
//! heading path and position, like Markdown.

mod body;
mod numbering;
mod package;
mod styles;
mod xml;

use std::path::Path;

use body::{Item, NoteKind, Paragraph, Row};
use numbering::Numbering;
use package::Package;
use styles::{NumRef, StyleRole, Styles};

use super::assemble::{Assembler, table_row_text};
use super::layout::{BlockStyle, LayoutKind};
use super::structure::{LineRole, line_role};
use super::{BlockKind, Extracted, ensure_has_text, file_title};
use crate::{Error, Result};
use evident_words::problem::Problem;

/// Extracts a Word document from its bytes.
pub fn extract(path: &Path, bytes: &[u8]) -> Result<Extracted> {
    let (extracted, _) = read(path, bytes, false)?;
    ensure_has_text(path, extracted)
}

/// Extracts a Word document and how each block looks, for the source viewer.
pub(crate) fn extract_with_styles(
    path: &Path,
    bytes: &[u8],
) -> Result<(Extracted, Vec<BlockStyle>)> {
    read(path, bytes, true)
}

fn read(path: &Path, bytes: &[u8], keep_styles: bool) -> Result<(Extracted, Vec<BlockStyle>)> {
    let mut package = Package::open(path, bytes)?;
    let parts = package.parts()?;
    let document = package.part(&parts.document)?.ok_or_else(|| {
        Error::input(
            path,
            Problem::NotWord {
                detail: String::new(),
            },
        )
    })?;
    let body = body::parse_body(&document).map_err(|e| damaged(path, &parts.document, e))?;
    let styles = parsed(&mut package, parts.styles.as_deref(), Styles::parse)?;
    let numbering = parsed(&mut package, parts.numbering.as_deref(), Numbering::parse)?;
    let notes = [
        (NoteKind::Footnote, parts.footnotes.as_deref()),
        (NoteKind::Endnote, parts.endnotes.as_deref()),
    ]
    .into_iter()
    .map(|(kind, name)| Ok((kind, parsed(&mut package, name, body::parse_notes)?)))
    .collect::<Result<Vec<_>>>()?;

    let mut writer = Writer {
        out: Assembler::new(keep_styles),
        styles,
        numbering,
        title: None,
    };
    for item in body.items {
        match item {
            Item::Paragraph(p) => writer.paragraph(p),
            Item::Table(rows) => writer.table(rows),
        }
    }
    // Notes follow the body under a heading of their own, numbered in order of first
    // reference as Word shows them.
    let cjk = writer.mostly_cjk();
    let mut numbered = 0;
    for (kind, id) in &body.note_refs {
        let Some(paragraphs) = notes
            .iter()
            .find(|(k, _)| k == kind)
            .and_then(|(_, n)| n.get(id))
        else {
            continue;
        };
        let text = paragraphs
            .iter()
            .map(|p| p.text.trim())
            .filter(|t| !t.is_empty())
            .collect::<Vec<_>>()
            .join(" ");
        if text.is_empty() {
            continue;
        }
        numbered += 1;
        if numbered == 1 {
            let heading = if cjk { "注释" } else { "Notes" };
            writer
                .out
                .push(BlockKind::Heading { level: 1 }, heading, || {
                    style(LayoutKind::Heading { level: 1 })
                });
        }
        let label = if cjk {
            format!("注{numbered}：")
        } else {
            format!("{numbered}. ")
        };
        writer
            .out
            .push(BlockKind::Paragraph, &format!("{label}{text}"), || {
                style(LayoutKind::Paragraph)
            });
    }
    let title = writer
        .title
        .clone()
        .or_else(|| writer.out.first_h1.clone())
        .unwrap_or_else(|| file_title(path));
    Ok(writer.out.finish(title))
}

/// The optional part `name` read with `parse`; a part the package lacks reads as empty.
fn parsed<T: Default>(
    package: &mut Package<'_>,
    name: Option<&str>,
    parse: impl FnOnce(&str) -> std::result::Result<T, quick_xml::Error>,
) -> Result<T> {
    let Some(name) = name else {
        return Ok(T::default());
    };
    match package.part(name)? {
        Some(xml) => parse(&xml).map_err(|e| damaged(package.path(), name, e)),
        None => Ok(T::default()),
    }
}

fn damaged(path: &Path, part: &str, e: quick_xml::Error) -> Error {
    Error::input(
        path,
        Problem::WordDamaged {
            part: part.to_owned(),
            detail: format!("not well-formed XML: {e}"),
        },
    )
}

fn style(kind: LayoutKind) -> BlockStyle {
    BlockStyle {
        kind,
        marks: Vec::new(),
        cells: Vec::new(),
    }
}

/// Turns paragraphs and tables into blocks, applying styles and numbering in document
/// order.
struct Writer {
    out: Assembler,
    styles: Styles,
    numbering: Numbering,
    /// The text of a paragraph in the Title style.
    title: Option<String>,
}

impl Writer {
    /// The paragraph's numbering label (`None` when not numbered) and its full text.
    fn render(&mut self, p: &Paragraph) -> (Option<(numbering::Label, u8)>, String) {
        let num = match &p.num {
            // `numId` 0 (or none given) on the paragraph switches numbering off.
            Some(n) if n.num_id.is_empty() || n.num_id == "0" => None,
            Some(n) => Some(n.clone()),
            None => self.styles.numbering(p.style.as_deref()),
        };
        let label = num.and_then(|NumRef { num_id, level }| {
            self.numbering.next(&num_id, level).map(|l| (l, level))
        });
        let text = match &label {
            Some((l, _)) => format!("{}{}", l.text, p.text.trim_start()),
            None => p.text.clone(),
        };
        (label, text)
    }

    fn paragraph(&mut self, p: Paragraph) {
        let role = match p.outline.filter(|&l| l < 9) {
            Some(level) => StyleRole::Heading(level + 1),
            None => self.styles.role(p.style.as_deref()),
        };
        if role == StyleRole::Contents {
            return;
        }
        let (label, text) = self.render(&p);
        let trimmed = text.trim();
        if trimmed.is_empty() {
            return;
        }
        let (kind, look) = match role {
            StyleRole::Heading(level) => {
                (BlockKind::Heading { level }, LayoutKind::Heading { level })
            }
            StyleRole::Title => {
                self.title.get_or_insert_with(|| trimmed.to_owned());
                (
                    BlockKind::Heading { level: 1 },
                    LayoutKind::Heading { level: 1 },
                )
            }
            _ => match (&label, line_role(trimmed)) {
                // A typed 第一章 without a heading style is still a heading.
                (None, LineRole::Heading(level)) => {
                    (BlockKind::Heading { level }, LayoutKind::Heading { level })
                }
                // An auto-numbered clause (第十九条, 1.1) is a clause, not a list item.
                (Some(_), LineRole::ClauseStart) | (None, _) => {
                    (BlockKind::Paragraph, LayoutKind::Paragraph)
                }
                (Some((l, level)), _) => (
                    BlockKind::ListItem,
                    LayoutKind::ListItem {
                        depth: level.saturating_add(1),
                        ordered: l.ordered,
                    },
                ),
            },
        };
        self.out.push(kind, &text, || style(look));
    }

    /// One block per row: `header: value` pairs under a header row (marked as one, or
    /// the first row of a table with more), like Markdown tables.
    fn table(&mut self, rows: Vec<Row>) {
        let mut rows: Vec<(bool, Vec<String>)> = rows
            .into_iter()
            .map(|row| {
                let cells = row
                    .cells
                    .iter()
                    .map(|paragraphs| {
                        paragraphs
                            .iter()
                            .map(|p| self.render(p).1.trim().to_owned())
                            .filter(|t| !t.is_empty())
                            .collect::<Vec<_>>()
                            .join(" ")
                    })
                    .collect();
                (row.header, cells)
            })
            .collect();
        rows.retain(|(_, cells)| cells.iter().any(|c| !c.is_empty()));
        let header_rows = rows.iter().take_while(|(h, _)| *h).count();
        let header_rows = if header_rows == 0 && rows.len() > 1 {
            1
        } else {
            header_rows
        };
        let header: Vec<String> = rows
            .get(header_rows.saturating_sub(1))
            .map(|(_, c)| c.clone())
            .unwrap_or_default();
        let body = if header_rows > 0 && rows.len() > header_rows {
            &rows[header_rows..]
        } else {
            // A table of only a header row keeps it as text.
            &rows[..]
        };
        let headed = header_rows > 0 && rows.len() > header_rows;
        for (_, cells) in body {
            let (text, spans) = table_row_text(headed.then_some(&header[..]), cells);
            let row_header = if headed { header.clone() } else { Vec::new() };
            self.out.push(BlockKind::TableRow, &text, || BlockStyle {
                kind: LayoutKind::TableRow { header: row_header },
                marks: Vec::new(),
                cells: spans,
            });
        }
    }

    /// Whether the text so far is mostly Chinese (or Japanese), for the notes' labels.
    fn mostly_cjk(&self) -> bool {
        let (mut cjk, mut other) = (0usize, 0usize);
        for c in self
            .out
            .text()
            .chars()
            .take(20_000)
            .filter(|c| c.is_alphabetic())
        {
            if evident_text::normalize::is_cjk(c) {
                cjk += 1;
            } else {
                other += 1;
            }
        }
        cjk > other
    }
}
