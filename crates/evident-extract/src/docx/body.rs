//! The document body (`document.xml`) and the notes (`footnotes.xml`, `endnotes.xml`)
//! as paragraphs and tables, in reading order, holding what a reader of the document
//! sees and nothing else.
//!
//! Kept: runs of text, tabs and line breaks, hyperlinks, content controls, field
//! results, text boxes, insertions of tracked changes (read as accepted). Left out:
//! deletions and moved-away text, field codes (`PAGE`, `TOC \o`), hidden text, the old
//! properties of a tracked formatting change, and the fallback copy of a drawing (its
//! text box would be read twice). Page headers and footers and comments live in parts of
//! their own, which are never read.
//!
//! The reader is a flat event loop over quick-xml with explicit stacks, so deeply nested
//! or huge input costs memory in proportion to its size and never recursion.

use std::collections::HashMap;

use quick_xml::events::{BytesStart, Event};

use super::styles::NumRef;
use super::xml::{attr, is_on};

/// A paragraph as written, before numbering and styles are applied.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct Paragraph {
    /// Its paragraph style id.
    pub style: Option<String>,
    /// Numbering set on the paragraph itself (`numId` 0 switches a style's off).
    pub num: Option<NumRef>,
    /// Outline level set on the paragraph itself (0 = top).
    pub outline: Option<u8>,
    /// The visible text.
    pub text: String,
}

/// A table row: each cell's paragraphs (a nested table's paragraphs are its cell's).
#[derive(Debug, Clone, Default)]
pub(super) struct Row {
    pub cells: Vec<Vec<Paragraph>>,
    /// Marked as a header row to repeat on each page.
    pub header: bool,
}

/// A top-level piece of the body.
#[derive(Debug, Clone)]
pub(super) enum Item {
    Paragraph(Paragraph),
    Table(Vec<Row>),
}

/// Which notes part a reference points into.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) enum NoteKind {
    Footnote,
    Endnote,
}

/// The body, and the notes it refers to in order of first reference.
#[derive(Debug, Default)]
pub(super) struct Body {
    pub items: Vec<Item>,
    pub note_refs: Vec<(NoteKind, String)>,
}

/// Reads `document.xml`.
pub(super) fn parse_body(xml: &str) -> Result<Body, quick_xml::Error> {
    let mut walker = Walker::default();
    walker.run(xml)?;
    Ok(Body {
        items: walker.items,
        note_refs: walker.note_refs,
    })
}

/// Reads a notes part: note id → its paragraphs (separators left out).
pub(super) fn parse_notes(xml: &str) -> Result<HashMap<String, Vec<Paragraph>>, quick_xml::Error> {
    let mut walker = Walker::default();
    walker.run(xml)?;
    Ok(walker.notes)
}

/// Elements whose content is never read.
fn skipped(local: &str) -> bool {
    matches!(
        local,
        "del"
            | "moveFrom"
            | "delText"
            | "delInstrText"
            | "instrText"
            | "Fallback"
            | "pPrChange"
            | "rPrChange"
            | "sectPrChange"
            | "tblPrChange"
            | "trPrChange"
            | "tcPrChange"
            | "tblGridChange"
            | "numberingChange"
    )
}

#[derive(Default)]
struct Table {
    rows: Vec<Row>,
    row: Option<Row>,
    cell: Option<Vec<Paragraph>>,
    /// Columns the current cell spans.
    span: usize,
}

#[derive(Default)]
struct Walker {
    items: Vec<Item>,
    note_refs: Vec<(NoteKind, String)>,
    notes: HashMap<String, Vec<Paragraph>>,
    /// The note being read, in a notes part.
    note: Option<(String, Vec<Paragraph>)>,
    /// Open paragraphs, innermost last (a text box's paragraphs sit inside a run).
    paragraphs: Vec<Paragraph>,
    tables: Vec<Table>,
    /// Depth inside an element being skipped; 0 when reading.
    skip: usize,
    in_paragraph_props: bool,
    in_run: bool,
    in_text: bool,
    hidden: bool,
}

impl Walker {
    fn run(&mut self, xml: &str) -> Result<(), quick_xml::Error> {
        let mut reader = quick_xml::Reader::from_str(xml);
        loop {
            let event = reader.read_event()?;
            if self.skip > 0 {
                match event {
                    Event::Start(_) => self.skip += 1,
                    Event::End(_) => self.skip -= 1,
                    Event::Eof => break,
                    _ => {}
                }
                continue;
            }
            match event {
                Event::Start(e) => {
                    let local = e.local_name();
                    if skipped(local.as_ref()) || self.is_separator_note(&e) {
                        self.skip = 1;
                    } else {
                        self.open(&e);
                    }
                }
                Event::Empty(e) => self.empty(&e),
                Event::End(e) => self.close(e.local_name().as_ref()),
                Event::Text(t) if self.reading_text() => {
                    let text = t.xml10_content();
                    self.push(&text);
                }
                Event::GeneralRef(r) if self.reading_text() => {
                    let resolved = match r.resolve_char_ref() {
                        Ok(Some(c)) => Some(c.to_string()),
                        _ => quick_xml::escape::resolve_predefined_entity(&r).map(str::to_owned),
                    };
                    if let Some(s) = resolved {
                        self.push(&s);
                    }
                }
                Event::Eof => break,
                _ => {}
            }
        }
        Ok(())
    }

    fn reading_text(&self) -> bool {
        self.in_text && !self.hidden
    }

    fn push(&mut self, s: &str) {
        if let Some(p) = self.paragraphs.last_mut() {
            p.text.push_str(s);
        }
    }

    fn is_separator_note(&self, e: &BytesStart<'_>) -> bool {
        matches!(e.local_name().as_ref(), "footnote" | "endnote")
            && attr(e, "type").is_some_and(|t| t != "normal")
    }

    fn open(&mut self, e: &BytesStart<'_>) {
        match e.local_name().as_ref() {
            "p" => self.paragraphs.push(Paragraph::default()),
            "pPr" if !self.in_run => self.in_paragraph_props = true,
            "r" => {
                self.in_run = true;
                self.hidden = false;
            }
            "t" if self.in_run => self.in_text = true,
            "tbl" => self.tables.push(Table::default()),
            "tr" => {
                if let Some(t) = self.tables.last_mut() {
                    t.row = Some(Row::default());
                }
            }
            "tc" => {
                if let Some(t) = self.tables.last_mut() {
                    t.cell = Some(Vec::new());
                    t.span = 1;
                }
            }
            "footnote" | "endnote" => {
                self.note = attr(e, "id").map(|id| (id, Vec::new()));
            }
            _ => self.property(e),
        }
    }

    fn empty(&mut self, e: &BytesStart<'_>) {
        match e.local_name().as_ref() {
            "tab" if self.in_run && !self.hidden => self.push(" "),
            "br" | "cr" if self.in_run && !self.hidden => self.push("\n"),
            "noBreakHyphen" if self.in_run && !self.hidden => self.push("-"),
            "footnoteReference" | "endnoteReference" => {
                let kind = if e.local_name().as_ref() == "footnoteReference" {
                    NoteKind::Footnote
                } else {
                    NoteKind::Endnote
                };
                if let Some(id) = attr(e, "id")
                    && !self.note_refs.iter().any(|(k, i)| *k == kind && *i == id)
                {
                    self.note_refs.push((kind, id));
                }
            }
            // An empty cell still takes its column.
            "tc" => {
                if let Some(t) = self.tables.last_mut()
                    && let Some(row) = t.row.as_mut()
                {
                    row.cells.push(Vec::new());
                }
            }
            _ => self.property(e),
        }
    }

    /// Properties that matter: paragraph style, numbering and outline level; hidden
    /// runs; header rows; merged columns.
    fn property(&mut self, e: &BytesStart<'_>) {
        let local = e.local_name();
        let value = || attr(e, "val");
        if self.in_paragraph_props {
            let Some(p) = self.paragraphs.last_mut() else {
                return;
            };
            match local.as_ref() {
                "pStyle" => p.style = value(),
                "numId" => {
                    let level = p.num.as_ref().map_or(0, |n| n.level);
                    p.num = value().map(|num_id| NumRef { num_id, level });
                }
                "ilvl" => {
                    let level = value().and_then(|v| v.parse().ok()).unwrap_or(0);
                    match p.num.as_mut() {
                        Some(n) => n.level = level,
                        None => {
                            p.num = Some(NumRef {
                                num_id: String::new(),
                                level,
                            })
                        }
                    }
                }
                "outlineLvl" => p.outline = value().and_then(|v| v.parse().ok()),
                _ => {}
            }
            return;
        }
        match local.as_ref() {
            "vanish" | "webHidden" if self.in_run => self.hidden = is_on(e),
            "tblHeader" => {
                if let Some(row) = self.tables.last_mut().and_then(|t| t.row.as_mut()) {
                    row.header = is_on(e);
                }
            }
            "gridSpan" => {
                if let Some(t) = self.tables.last_mut() {
                    t.span = value()
                        .and_then(|v| v.parse().ok())
                        .unwrap_or(1)
                        .clamp(1, 64);
                }
            }
            _ => {}
        }
    }

    fn close(&mut self, local: &str) {
        match local {
            "p" => {
                if let Some(p) = self.paragraphs.pop() {
                    self.emit(p);
                }
            }
            "pPr" => self.in_paragraph_props = false,
            "r" => {
                self.in_run = false;
                self.hidden = false;
            }
            "t" => self.in_text = false,
            "tc" => {
                if let Some(t) = self.tables.last_mut()
                    && let (Some(cell), Some(row)) = (t.cell.take(), t.row.as_mut())
                {
                    row.cells.push(cell);
                    row.cells.extend((1..t.span).map(|_| Vec::new()));
                }
            }
            "tr" => {
                if let Some(t) = self.tables.last_mut()
                    && let Some(row) = t.row.take()
                {
                    t.rows.push(row);
                }
            }
            "tbl" => {
                if let Some(table) = self.tables.pop() {
                    self.close_table(table.rows);
                }
            }
            "footnote" | "endnote" => {
                if let Some((id, paragraphs)) = self.note.take() {
                    self.notes.insert(id, paragraphs);
                }
            }
            _ => {}
        }
    }

    /// A finished paragraph goes to the open table cell, the note being read, or the
    /// body.
    fn emit(&mut self, p: Paragraph) {
        if let Some(cell) = self.tables.last_mut().and_then(|t| t.cell.as_mut()) {
            cell.push(p);
        } else if let Some((_, note)) = self.note.as_mut() {
            note.push(p);
        } else {
            self.items.push(Item::Paragraph(p));
        }
    }

    fn close_table(&mut self, rows: Vec<Row>) {
        let nested = self.tables.last().is_some_and(|t| t.cell.is_some());
        if nested || self.note.is_some() {
            // A table inside a cell or a note: its paragraphs join the enclosing text.
            for p in rows.into_iter().flat_map(|r| r.cells).flatten() {
                self.emit(p);
            }
        } else {
            self.items.push(Item::Table(rows));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(body: &Body) -> Vec<String> {
        body.items
            .iter()
            .map(|i| match i {
                Item::Paragraph(p) => p.text.clone(),
                Item::Table(rows) => rows
                    .iter()
                    .map(|r| {
                        r.cells
                            .iter()
                            .map(|c| {
                                c.iter()
                                    .map(|p| p.text.as_str())
                                    .collect::<Vec<_>>()
                                    .join("/")
                            })
                            .collect::<Vec<_>>()
                            .join("|")
                    })
                    .collect::<Vec<_>>()
                    .join("\n"),
            })
            .collect()
    }

    #[test]
    fn tracked_changes_fields_and_hidden_text() {
        let xml = r#"<w:document xmlns:w="w" xmlns:mc="mc"><w:body>
          <w:p><w:pPr><w:pStyle w:val="2"/><w:numPr><w:ilvl w:val="1"/><w:numId w:val="5"/></w:numPr>
            <w:rPr><w:vanish/></w:rPr></w:pPr>
            <w:r><w:t xml:space="preserve">报销 </w:t></w:r>
            <w:ins><w:r><w:t>须经</w:t></w:r></w:ins>
            <w:del><w:r><w:delText>部门经理</w:delText></w:r></w:del>
            <w:r><w:t>财务总监审批</w:t></w:r>
            <w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText>PAGE</w:instrText></w:r>
            <w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>。</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r>
            <w:r><w:rPr><w:vanish/></w:rPr><w:t>隐藏</w:t></w:r>
            <w:r><w:tab/><w:t>A&amp;B&#x4E00;</w:t></w:r>
          </w:p>
          <w:p><w:r><mc:AlternateContent><mc:Choice><w:drawing><w:txbxContent><w:p><w:r><w:t>框</w:t></w:r></w:p></w:txbxContent></w:drawing></mc:Choice>
            <mc:Fallback><w:pict><w:txbxContent><w:p><w:r><w:t>框</w:t></w:r></w:p></w:txbxContent></w:pict></mc:Fallback></mc:AlternateContent></w:r>
            <w:r><w:t>外</w:t></w:r></w:p>
        </w:body></w:document>"#;
        let body = parse_body(xml).expect("parses");
        assert_eq!(texts(&body), ["报销 须经财务总监审批。 A&B一", "框", "外"]);
        let Item::Paragraph(p) = &body.items[0] else {
            panic!("a paragraph")
        };
        assert_eq!(p.style.as_deref(), Some("2"));
        assert_eq!(
            p.num,
            Some(NumRef {
                num_id: "5".into(),
                level: 1
            })
        );
    }

    #[test]
    fn tables_with_merged_and_nested_cells() {
        let xml = r#"<w:document xmlns:w="w"><w:body><w:tbl>
          <w:tr><w:trPr><w:tblHeader/></w:trPr><w:tc><w:p><w:r><w:t>级别</w:t></w:r></w:p></w:tc><w:tc><w:p><w:r><w:t>标准</w:t></w:r></w:p></w:tc><w:tc><w:p><w:r><w:t>备注</w:t></w:r></w:p></w:tc></w:tr>
          <w:tr><w:tc><w:tcPr><w:gridSpan w:val="2"/></w:tcPr><w:p><w:r><w:t>合并</w:t></w:r></w:p></w:tc><w:tc><w:tbl><w:tr><w:tc><w:p><w:r><w:t>内</w:t></w:r></w:p></w:tc></w:tr></w:tbl><w:p/></w:tc></w:tr>
        </w:tbl></w:body></w:document>"#;
        let body = parse_body(xml).expect("parses");
        let Item::Table(rows) = &body.items[0] else {
            panic!("a table")
        };
        assert!(rows[0].header);
        assert_eq!(
            rows[1].cells.len(),
            3,
            "a merged cell keeps the columns aligned"
        );
        assert_eq!(rows[1].cells[2][0].text, "内");
    }

    #[test]
    fn notes_skip_separators_and_references_keep_their_order() {
        let body = parse_body(
            r#"<w:document xmlns:w="w"><w:body><w:p><w:r><w:t>a</w:t></w:r><w:r><w:footnoteReference w:id="3"/></w:r><w:r><w:endnoteReference w:id="1"/></w:r><w:r><w:footnoteReference w:id="2"/></w:r></w:p></w:body></w:document>"#,
        )
        .expect("parses");
        assert_eq!(
            body.note_refs,
            [
                (NoteKind::Footnote, "3".to_owned()),
                (NoteKind::Endnote, "1".to_owned()),
                (NoteKind::Footnote, "2".to_owned())
            ]
        );
        let notes = parse_notes(
            r#"<w:footnotes xmlns:w="w"><w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote>
               <w:footnote w:id="3"><w:p><w:r><w:t>见附件。</w:t></w:r></w:p></w:footnote></w:footnotes>"#,
        )
        .expect("parses");
        assert_eq!(notes.len(), 1);
        assert_eq!(notes["3"][0].text, "见附件。");
    }
}
