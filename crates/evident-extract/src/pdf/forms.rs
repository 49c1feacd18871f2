//! Form XObjects, made safe and placed right before the decoder sees them.
//!
//! pdf-extract draws a form's content with a fresh graphics state: it drops the
//! transformation in force where the form is drawn and the form's own `/Matrix`, so text
//! inside forms lands at the wrong place (figure labels end up inside body text), and it
//! recurses without limit when a form draws itself. So every form a page draws is given
//! a copy of its own per place it is drawn, whose content starts by setting exactly the
//! transformation the PDF specifies there (`Matrix × CTM`), whose resources include what
//! the form forgot to declare, and in which a form that would draw one of its own
//! ancestors is simply not drawn. Shared objects are never edited, so nothing else in the
//! document changes.

use lopdf::content::{Content, Operation};
use lopdf::{Dictionary, Document, Object, ObjectId, Stream};

use evident_words::problem::Problem;

/// Forms nested deeper than this are not drawn.
const MAX_DEPTH: usize = 32;
/// Form copies per document; a PDF that needs more is drawn without the excess forms.
const MAX_COPIES: usize = 20_000;

/// An affine transformation `[a b c d e f]`, as PDF writes them (row vectors).
#[derive(Debug, Clone, Copy, PartialEq)]
struct Matrix([f64; 6]);

impl Matrix {
    const IDENTITY: Self = Self([1.0, 0.0, 0.0, 1.0, 0.0, 0.0]);

    /// `self` applied first, then `then`.
    fn then(self, then: Self) -> Self {
        let [a1, b1, c1, d1, e1, f1] = self.0;
        let [a2, b2, c2, d2, e2, f2] = then.0;
        Self([
            a1 * a2 + b1 * c2,
            a1 * b2 + b1 * d2,
            c1 * a2 + d1 * c2,
            c1 * b2 + d1 * d2,
            e1 * a2 + f1 * c2 + e2,
            e1 * b2 + f1 * d2 + f2,
        ])
    }

    fn from_objects(objects: &[Object]) -> Option<Self> {
        let mut m = [0.0; 6];
        if objects.len() != 6 {
            return None;
        }
        for (slot, o) in m.iter_mut().zip(objects) {
            *slot = match o {
                Object::Integer(i) => *i as f64,
                Object::Real(r) => f64::from(*r),
                _ => return None,
            };
        }
        m.iter().all(|v| v.is_finite()).then_some(Self(m))
    }

    fn to_operation(self) -> Operation {
        Operation::new(
            "cm",
            self.0.iter().map(|&v| Object::Real(v as f32)).collect(),
        )
    }
}

/// Resolves one level of indirection.
pub(super) fn deref<'a>(doc: &'a Document, o: &'a Object) -> &'a Object {
    match o {
        Object::Reference(id) => doc.get_object(*id).unwrap_or(o),
        _ => o,
    }
}

/// The page's resources, inherited from the page tree if the page has none itself.
fn inherited_resources(doc: &Document, page: ObjectId) -> Option<Dictionary> {
    let mut id = page;
    for _ in 0..MAX_DEPTH {
        let dict = doc.get_dictionary(id).ok()?;
        if let Ok(r) = dict.get(b"Resources") {
            return deref(doc, r).as_dict().ok().cloned();
        }
        id = dict.get(b"Parent").ok()?.as_reference().ok()?;
    }
    None
}

struct Rewriter<'w> {
    warnings: &'w mut Vec<Problem>,
    page: usize,
    path: Vec<ObjectId>,
    copies: usize,
    loop_reported: bool,
}

/// Rewrites every page that draws forms (see the module documentation).
pub(super) fn prepare_forms(doc: &mut Document, pages: &[ObjectId], warnings: &mut Vec<Problem>) {
    let mut copies = 0;
    for (n, &page) in pages.iter().enumerate() {
        let content = doc.get_page_content(page).unwrap_or_default();
        if !content.windows(2).any(|w| w == b"Do") {
            continue;
        }
        let (Some(resources), Ok(decoded)) =
            (inherited_resources(doc, page), Content::decode(&content))
        else {
            continue;
        };
        let mut rewriter = Rewriter {
            warnings,
            page: n + 1,
            path: Vec::new(),
            copies,
            loop_reported: false,
        };
        let Some((operations, resources)) =
            rewriter.rewrite(doc, decoded.operations, &resources, Matrix::IDENTITY)
        else {
            continue;
        };
        copies = rewriter.copies;
        let Ok(encoded) = (Content { operations }).encode() else {
            continue;
        };
        let contents = doc.add_object(Stream::new(Dictionary::new(), encoded));
        if let Ok(dict) = doc.get_dictionary_mut(page) {
            dict.set("Contents", Object::Reference(contents));
            dict.set("Resources", Object::Dictionary(resources));
        }
    }
}

impl Rewriter<'_> {
    /// Rewrites `ops` drawn under `ctm` with `resources`; `None` when no form is drawn.
    fn rewrite(
        &mut self,
        doc: &mut Document,
        ops: Vec<Operation>,
        resources: &Dictionary,
        ctm: Matrix,
    ) -> Option<(Vec<Operation>, Dictionary)> {
        let xobjects = resources
            .get(b"XObject")
            .ok()
            .and_then(|x| deref(doc, x).as_dict().ok())
            .cloned()?;
        let mut new_xobjects = xobjects.clone();
        let mut changed = false;
        let mut stack = Vec::new();
        let mut current = ctm;
        let mut out = Vec::with_capacity(ops.len());
        for mut op in ops {
            match op.operator.as_str() {
                "q" => stack.push(current),
                "Q" => current = stack.pop().unwrap_or(ctm),
                "cm" => {
                    if let Some(m) = Matrix::from_objects(&op.operands) {
                        current = m.then(current);
                    }
                }
                "Do" => {
                    let target = op
                        .operands
                        .first()
                        .and_then(|o| o.as_name().ok())
                        .and_then(|name| xobjects.get(name).ok())
                        .and_then(|o| o.as_reference().ok());
                    if let Some(id) = target.filter(|&id| is_form(doc, id)) {
                        changed = true;
                        match self.place_form(doc, id, resources, current) {
                            Some(copy) => {
                                let name = format!("EvidentForm{}", self.copies);
                                new_xobjects.set(name.as_bytes().to_vec(), Object::Reference(copy));
                                op.operands = vec![Object::Name(name.into_bytes())];
                            }
                            None => continue,
                        }
                    }
                }
                _ => {}
            }
            out.push(op);
        }
        if !changed {
            return None;
        }
        let mut new_resources = resources.clone();
        new_resources.set("XObject", Object::Dictionary(new_xobjects));
        Some((out, new_resources))
    }

    /// A copy of form `id` placed under `ctm`, or `None` when it must not be drawn.
    fn place_form(
        &mut self,
        doc: &mut Document,
        id: ObjectId,
        parent_resources: &Dictionary,
        ctm: Matrix,
    ) -> Option<ObjectId> {
        if self.path.contains(&id) {
            if !self.loop_reported {
                self.warnings.push(Problem::FormLoop {
                    page: self.page as u32,
                });
                self.loop_reported = true;
            }
            return None;
        }
        if self.path.len() >= MAX_DEPTH || self.copies >= MAX_COPIES {
            return None;
        }
        let Ok(Object::Stream(form)) = doc.get_object(id) else {
            return None;
        };
        let matrix = form
            .dict
            .get(b"Matrix")
            .ok()
            .and_then(|m| deref(doc, m).as_array().ok())
            .and_then(|m| Matrix::from_objects(m))
            .unwrap_or(Matrix::IDENTITY);
        let placed = matrix.then(ctm);
        // Its own resources, completed with what it forgot to declare; else the parent's.
        let mut resources = match form.dict.get(b"Resources").ok().map(|r| deref(doc, r)) {
            Some(Object::Dictionary(own)) => own.clone(),
            _ => parent_resources.clone(),
        };
        for (k, v) in parent_resources.iter() {
            if !resources.has(k) {
                resources.set(k.clone(), v.clone());
            }
        }
        let content = form
            .decompressed_content()
            .unwrap_or_else(|_| form.content.clone());
        let ops = Content::decode(&content)
            .map(|c| c.operations)
            .unwrap_or_default();
        self.copies += 1;
        self.path.push(id);
        let (mut ops, resources) = match self.rewrite(doc, ops.clone(), &resources, placed) {
            Some(rewritten) => rewritten,
            None => (ops, resources),
        };
        self.path.pop();
        ops.insert(0, placed.to_operation());
        let mut dict = Dictionary::new();
        dict.set("Type", Object::Name(b"XObject".to_vec()));
        dict.set("Subtype", Object::Name(b"Form".to_vec()));
        dict.set(
            "BBox",
            Object::Array(vec![
                (-1e6f32).into(),
                (-1e6f32).into(),
                1e6f32.into(),
                1e6f32.into(),
            ]),
        );
        dict.set("Resources", Object::Dictionary(resources));
        let encoded = Content { operations: ops }.encode().ok()?;
        Some(doc.add_object(Stream::new(dict, encoded)))
    }
}

fn is_form(doc: &Document, id: ObjectId) -> bool {
    matches!(doc.get_object(id), Ok(Object::Stream(s))
        if s.dict.get(b"Subtype").and_then(Object::as_name).is_ok_and(|n| n == b"Form"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matrices_compose_in_pdf_order() {
        let scale = Matrix([2.0, 0.0, 0.0, 2.0, 0.0, 0.0]);
        let shift = Matrix([1.0, 0.0, 0.0, 1.0, 10.0, 20.0]);
        // Scale first, then shift: the shift is not scaled.
        assert_eq!(scale.then(shift).0, [2.0, 0.0, 0.0, 2.0, 10.0, 20.0]);
        // Shift first, then scale: the shift is scaled too.
        assert_eq!(shift.then(scale).0, [2.0, 0.0, 0.0, 2.0, 20.0, 40.0]);
    }
}
