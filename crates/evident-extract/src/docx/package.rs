//! The Word package: a zip archive of XML parts, found through its relationship files.
//!
//! Everything a hostile or damaged file can do here ends in a clear per-file error: an
//! old binary `.doc` or a password-protected file (both OLE compound files, not zips),
//! a broken archive, a part that inflates beyond [`MAX_PART_BYTES`] (a zip bomb), or a
//! part that is not text.

use std::collections::HashMap;
use std::io::{Cursor, Read};
use std::path::Path;

use quick_xml::events::Event;

use crate::{Error, Result};
use evident_words::problem::Problem;

/// Largest XML part read (inflated). The body of a 500-page policy manual is a few MB.
pub(super) const MAX_PART_BYTES: u64 = 64 << 20;
/// Archives with more entries than this are not Word documents anyone wrote.
const MAX_ENTRIES: usize = 20_000;
/// The signature of an OLE compound file: old `.doc` files and encrypted `.docx` files.
const OLE_MAGIC: [u8; 8] = [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1];

/// An opened Word package.
pub(super) struct Package<'a> {
    path: &'a Path,
    zip: zip::ZipArchive<Cursor<&'a [u8]>>,
}

/// Where the parts Evident reads are in this package.
pub(super) struct Parts {
    pub document: String,
    pub styles: Option<String>,
    pub numbering: Option<String>,
    pub footnotes: Option<String>,
    pub endnotes: Option<String>,
}

impl<'a> Package<'a> {
    /// Opens the archive, or says in words why this is not a readable Word file.
    pub fn open(path: &'a Path, bytes: &'a [u8]) -> Result<Self> {
        if bytes.starts_with(&OLE_MAGIC) {
            return Err(Error::input(path, ole_problem(bytes)));
        }
        let zip = zip::ZipArchive::new(Cursor::new(bytes)).map_err(|e| {
            Error::input(
                path,
                Problem::NotWord {
                    detail: e.to_string(),
                },
            )
        })?;
        if zip.len() > MAX_ENTRIES {
            return Err(Error::input(
                path,
                Problem::WordTooManyParts { entries: zip.len() },
            ));
        }
        Ok(Self { path, zip })
    }

    /// The parts, from `_rels/.rels` and the main part's relationships, with Word's
    /// usual names where a relationship is missing.
    pub fn parts(&mut self) -> Result<Parts> {
        let root = self.relationships("", "_rels/.rels")?;
        let document = root
            .get("officeDocument")
            .cloned()
            .unwrap_or_else(|| "word/document.xml".into());
        let (dir, name) = document.rsplit_once('/').unwrap_or(("", &document));
        let rels = self.relationships(dir, &format!("{dir}/_rels/{name}.rels"))?;
        let find = |kind: &str, usual: &str| {
            rels.get(kind)
                .cloned()
                .or_else(|| self.has(usual).then(|| usual.to_owned()))
        };
        Ok(Parts {
            styles: find("styles", "word/styles.xml"),
            numbering: find("numbering", "word/numbering.xml"),
            footnotes: find("footnotes", "word/footnotes.xml"),
            endnotes: find("endnotes", "word/endnotes.xml"),
            document,
        })
    }

    /// The file the package was read from.
    pub fn path(&self) -> &'a Path {
        self.path
    }

    fn has(&self, name: &str) -> bool {
        self.zip.index_for_name(name).is_some()
    }

    /// A part as text, `None` if the archive has no such part.
    pub fn part(&mut self, name: &str) -> Result<Option<String>> {
        let path = self.path;
        let entry = match self.zip.by_name(name) {
            Ok(entry) => entry,
            Err(zip::result::ZipError::FileNotFound) => return Ok(None),
            Err(e) => return Err(damaged(path, name, &e.to_string())),
        };
        let mut bytes = Vec::new();
        entry
            .take(MAX_PART_BYTES + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| damaged(path, name, &e.to_string()))?;
        if bytes.len() as u64 > MAX_PART_BYTES {
            return Err(Error::input(
                path,
                Problem::WordPartTooLarge {
                    part: name.to_owned(),
                    limit_mb: MAX_PART_BYTES >> 20,
                },
            ));
        }
        decode_xml(&bytes)
            .map(Some)
            .ok_or_else(|| damaged(path, name, "it is not UTF-8 or UTF-16 text"))
    }

    /// Relationship type (last path segment, e.g. `styles`) → part name, from the
    /// relationships part `rels` of a part in folder `dir`.
    fn relationships(&mut self, dir: &str, rels: &str) -> Result<HashMap<String, String>> {
        let mut out = HashMap::new();
        let Some(xml) = self.part(rels)? else {
            return Ok(out);
        };
        let mut reader = quick_xml::Reader::from_str(&xml);
        loop {
            match reader.read_event() {
                Ok(Event::Start(e) | Event::Empty(e))
                    if e.local_name().as_ref() == "Relationship" =>
                {
                    let (mut kind, mut target, mut external) = (None, None, false);
                    for a in e.attributes().flatten() {
                        let value = super::xml::value(&a).unwrap_or_default();
                        match a.key.local_name().as_ref() {
                            "Type" => kind = value.rsplit('/').next().map(str::to_owned),
                            "Target" => target = Some(value),
                            "TargetMode" => external = value == "External",
                            _ => {}
                        }
                    }
                    if let (Some(kind), Some(target), false) = (kind, target, external) {
                        out.entry(kind).or_insert_with(|| resolve(dir, &target));
                    }
                }
                Ok(Event::Eof) => break,
                Ok(_) => {}
                Err(e) => return Err(damaged(self.path, rels, &e.to_string())),
            }
        }
        Ok(out)
    }
}

fn damaged(path: &Path, part: &str, why: &str) -> Error {
    Error::input(
        path,
        Problem::WordDamaged {
            part: part.to_owned(),
            detail: why.to_owned(),
        },
    )
}

/// A relationship target relative to `dir` (or absolute from the package root).
fn resolve(dir: &str, target: &str) -> String {
    let mut parts: Vec<&str> = if target.starts_with('/') {
        Vec::new()
    } else {
        dir.split('/').filter(|s| !s.is_empty()).collect()
    };
    for seg in target.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            s => parts.push(s),
        }
    }
    parts.join("/")
}

/// XML parts are UTF-8 almost always; UTF-16 with a byte-order mark is allowed too.
fn decode_xml(bytes: &[u8]) -> Option<String> {
    let (encoding, skip) = encoding_rs::Encoding::for_bom(bytes).unwrap_or((encoding_rs::UTF_8, 0));
    let (text, had_errors) = encoding.decode_without_bom_handling(&bytes[skip..]);
    (!had_errors).then(|| text.into_owned())
}

/// Why an OLE compound file is not read: encrypted Word files carry an
/// `EncryptedPackage` stream; anything else is an old binary document.
fn ole_problem(bytes: &[u8]) -> Problem {
    let needle: Vec<u8> = "EncryptedPackage"
        .encode_utf16()
        .flat_map(u16::to_le_bytes)
        .collect();
    if bytes.windows(needle.len()).any(|w| w == needle.as_slice()) {
        Problem::WordLocked
    } else {
        Problem::OldWord
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relationship_targets_resolve_against_their_folder() {
        assert_eq!(resolve("word", "styles.xml"), "word/styles.xml");
        assert_eq!(resolve("word", "/customXml/item.xml"), "customXml/item.xml");
        assert_eq!(resolve("word", "../docProps/app.xml"), "docProps/app.xml");
        assert_eq!(resolve("", "word/document.xml"), "word/document.xml");
    }

    #[test]
    fn ole_files_are_told_apart() {
        let mut doc = OLE_MAGIC.to_vec();
        doc.extend_from_slice(b"WordDocument");
        assert_eq!(ole_problem(&doc), Problem::OldWord);
        let mut enc = OLE_MAGIC.to_vec();
        enc.extend("EncryptedPackage".encode_utf16().flat_map(u16::to_le_bytes));
        assert_eq!(ole_problem(&enc), Problem::WordLocked);
    }

    #[test]
    fn not_a_zip_is_a_clear_error() {
        let err = Package::open(Path::new("x.docx"), b"hello")
            .err()
            .map(|e| e.reason());
        assert!(err.is_some_and(|r| r.contains("damaged")));
    }
}
