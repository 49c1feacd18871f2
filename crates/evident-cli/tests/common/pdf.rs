//! Small PDF writers for samples and test fixtures, built with lopdf: text pages with a
//! running header and a "Page N of M" footer, a page with only an image-like drawing, and
//! a page whose Form XObject contains itself.
#![allow(dead_code)]

use lopdf::content::{Content, Operation};
use lopdf::{Document, Object, ObjectId, Stream, dictionary};

const A4: [i64; 4] = [0, 0, 595, 842];

fn text_ops(ops: &mut Vec<Operation>, x: f64, y: f64, size: f64, text: &str) {
    ops.push(Operation::new("BT", vec![]));
    ops.push(Operation::new("Tf", vec!["F1".into(), size.into()]));
    ops.push(Operation::new("Td", vec![x.into(), y.into()]));
    ops.push(Operation::new("Tj", vec![Object::string_literal(text)]));
    ops.push(Operation::new("ET", vec![]));
}

fn finish(
    mut doc: Document,
    pages_id: ObjectId,
    kids: Vec<ObjectId>,
    resources: ObjectId,
) -> Vec<u8> {
    let count = kids.len() as i64;
    doc.objects.insert(
        pages_id,
        Object::Dictionary(dictionary! {
            "Type" => "Pages",
            "Kids" => kids.into_iter().map(Object::Reference).collect::<Vec<_>>(),
            "Count" => count,
            "Resources" => resources,
        }),
    );
    let catalog = doc.add_object(dictionary! { "Type" => "Catalog", "Pages" => pages_id });
    doc.trailer.set("Root", catalog);
    doc.compress();
    let mut out = Vec::new();
    doc.save_to(&mut out)
        .expect("writing a PDF to memory cannot fail");
    out
}

fn new_doc() -> (Document, ObjectId, ObjectId) {
    let mut doc = Document::with_version("1.5");
    let pages_id = doc.new_object_id();
    let font = doc.add_object(dictionary! {
        "Type" => "Font", "Subtype" => "Type1", "BaseFont" => "Helvetica", "Encoding" => "WinAnsiEncoding",
    });
    let resources = doc.add_object(dictionary! { "Font" => dictionary! { "F1" => font } });
    (doc, pages_id, resources)
}

fn add_page(doc: &mut Document, pages_id: ObjectId, ops: Vec<Operation>) -> ObjectId {
    let content = Content { operations: ops }
        .encode()
        .expect("content encodes");
    let content_id = doc.add_object(Stream::new(dictionary! {}, content));
    doc.add_object(dictionary! {
        "Type" => "Page",
        "Parent" => pages_id,
        "Contents" => content_id,
        "MediaBox" => A4.iter().map(|&v| Object::Integer(v)).collect::<Vec<_>>(),
    })
}

/// Wraps paragraphs to lines of at most `width` characters (blank line between paragraphs).
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    for para in text.split("\n\n") {
        let mut line = String::new();
        for word in para.split_whitespace() {
            if !line.is_empty() && line.len() + 1 + word.len() > width {
                lines.push(std::mem::take(&mut line));
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(word);
        }
        if !line.is_empty() {
            lines.push(line);
        }
        lines.push(String::new());
    }
    lines
}

/// A multi-page Helvetica PDF of `lines`, with `header` on top of every page and a
/// "Page N of M" footer.
pub fn text_pdf(header: &str, lines: &[String], lines_per_page: usize) -> Vec<u8> {
    let (mut doc, pages_id, resources) = new_doc();
    let pages: Vec<&[String]> = lines.chunks(lines_per_page.max(1)).collect();
    let total = pages.len();
    let mut kids = Vec::new();
    for (n, page) in pages.iter().enumerate() {
        let mut ops = Vec::new();
        text_ops(&mut ops, 72.0, 800.0, 9.0, header);
        let mut y = 760.0;
        for line in page.iter() {
            if !line.is_empty() {
                text_ops(&mut ops, 72.0, y, 11.0, line);
            }
            y -= 17.0;
        }
        text_ops(
            &mut ops,
            270.0,
            40.0,
            9.0,
            &format!("Page {} of {total}", n + 1),
        );
        kids.push(add_page(&mut doc, pages_id, ops));
    }
    finish(doc, pages_id, kids, resources)
}

/// One page with a filled rectangle and no text: what a scanned page looks like to us.
pub fn image_only_pdf() -> Vec<u8> {
    let (mut doc, pages_id, resources) = new_doc();
    let ops = vec![
        Operation::new("re", vec![72.into(), 72.into(), 400.into(), 600.into()]),
        Operation::new("f", vec![]),
    ];
    let kid = add_page(&mut doc, pages_id, ops);
    finish(doc, pages_id, vec![kid], resources)
}

/// One page drawing a Form XObject that draws itself again (an infinite recursion for a
/// naive reader), plus a line of ordinary text.
pub fn self_referencing_form_pdf() -> Vec<u8> {
    let (mut doc, pages_id, resources) = new_doc();
    let font = match doc
        .get_dictionary(resources)
        .ok()
        .and_then(|r| r.get(b"Font").ok().cloned())
    {
        Some(f) => f,
        None => Object::Null,
    };
    let form_id = doc.new_object_id();
    let mut form_ops = Vec::new();
    text_ops(
        &mut form_ops,
        72.0,
        700.0,
        11.0,
        "Text inside the looping form.",
    );
    form_ops.push(Operation::new("Do", vec!["X1".into()]));
    let form = Stream::new(
        dictionary! {
            "Type" => "XObject",
            "Subtype" => "Form",
            "BBox" => vec![0.into(), 0.into(), 595.into(), 842.into()],
            "Resources" => dictionary! { "Font" => font, "XObject" => dictionary! { "X1" => form_id } },
        },
        Content {
            operations: form_ops,
        }
        .encode()
        .expect("content encodes"),
    );
    doc.objects.insert(form_id, Object::Stream(form));
    if let Ok(res) = doc.get_dictionary_mut(resources) {
        res.set("XObject", dictionary! { "X1" => form_id });
    }
    let mut ops = Vec::new();
    text_ops(&mut ops, 72.0, 760.0, 11.0, "Ordinary text on the page.");
    ops.push(Operation::new("Do", vec!["X1".into()]));
    let kid = add_page(&mut doc, pages_id, ops);
    finish(doc, pages_id, vec![kid], resources)
}
