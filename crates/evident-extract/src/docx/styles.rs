//! Paragraph styles (`styles.xml`): which paragraphs are headings, titles or table of
//! contents lines, and which carry automatic numbering through their style.
//!
//! A heading is recognised by its style's name — Word writes built-in names in English
//! (`heading 1`) whatever the interface language, but documents also carry custom
//! styles named `标题 1` — or by an outline level, set on the style, on a style it is
//! based on, or on the paragraph itself.

use std::collections::HashMap;

use quick_xml::events::{BytesStart, Event};

use super::xml::{attr, is};

/// Automatic numbering: the list (`numId`) and the level in it (`ilvl`, 0-based).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct NumRef {
    pub num_id: String,
    pub level: u8,
}

/// What a paragraph style makes a paragraph.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum StyleRole {
    /// A heading of this level (1 = top).
    Heading(u8),
    /// The document's title.
    Title,
    /// A table of contents line: it repeats headings, so it is left out.
    Contents,
    /// Anything else.
    Body,
}

#[derive(Debug, Default, Clone)]
struct Style {
    name: String,
    based_on: Option<String>,
    outline: Option<u8>,
    num_id: Option<String>,
    num_level: Option<u8>,
}

/// The paragraph styles of a document.
#[derive(Debug, Default)]
pub(super) struct Styles {
    by_id: HashMap<String, Style>,
    default_id: Option<String>,
}

impl Styles {
    /// Reads `styles.xml`.
    pub fn parse(xml: &str) -> Result<Self, quick_xml::Error> {
        let mut styles = Self::default();
        let mut reader = quick_xml::Reader::from_str(xml);
        let mut current: Option<(String, Style, bool)> = None;
        loop {
            match reader.read_event()? {
                Event::Start(e) if is(&e, "style") => {
                    current =
                        paragraph_style(&e).map(|(id, default)| (id, Style::default(), default));
                }
                Event::Empty(e) | Event::Start(e) => {
                    if let Some((_, style, _)) = current.as_mut() {
                        read_property(&e, style);
                    }
                }
                Event::End(e) if e.local_name().as_ref() == "style" => {
                    if let Some((id, style, default)) = current.take() {
                        if default {
                            styles.default_id = Some(id.clone());
                        }
                        styles.by_id.insert(id, style);
                    }
                }
                Event::Eof => break,
                _ => {}
            }
        }
        Ok(styles)
    }

    /// The role of a paragraph with style `id` (the default style when `None`).
    pub fn role(&self, id: Option<&str>) -> StyleRole {
        // A name speaks for its own style only (Subtitle is based on Title, and is not
        // one); an outline level is inherited, as Word inherits it.
        if let Some(role) = self.chain(id).next().and_then(|s| role_from_name(&s.name)) {
            return role;
        }
        match self.chain(id).find_map(|s| s.outline) {
            Some(level) if level < 9 => StyleRole::Heading(level + 1),
            _ => StyleRole::Body,
        }
    }

    /// Numbering that the style gives its paragraphs, if any.
    pub fn numbering(&self, id: Option<&str>) -> Option<NumRef> {
        let mut level = None;
        for style in self.chain(id) {
            level = level.or(style.num_level);
            if let Some(num_id) = &style.num_id {
                return Some(NumRef {
                    num_id: num_id.clone(),
                    level: level.unwrap_or(0),
                });
            }
        }
        None
    }

    /// The style and the styles it is based on, nearest first (cycles cut).
    fn chain<'s>(&'s self, id: Option<&str>) -> impl Iterator<Item = &'s Style> + 's {
        let mut next = id
            .or(self.default_id.as_deref())
            .and_then(|id| self.by_id.get(id));
        let mut steps = 0;
        std::iter::from_fn(move || {
            let style = next.filter(|_| steps < 16)?;
            steps += 1;
            next = style.based_on.as_deref().and_then(|id| self.by_id.get(id));
            Some(style)
        })
    }
}

/// `(styleId, is default)` for a `<w:style w:type="paragraph">`, else `None`.
fn paragraph_style(e: &BytesStart<'_>) -> Option<(String, bool)> {
    if attr(e, "type").as_deref().is_some_and(|t| t != "paragraph") {
        return None;
    }
    let id = attr(e, "styleId")?;
    let default = attr(e, "default").is_some_and(|v| v == "1" || v == "true");
    Some((id, default))
}

fn read_property(e: &BytesStart<'_>, style: &mut Style) {
    match e.local_name().as_ref() {
        "name" => style.name = attr(e, "val").unwrap_or_default(),
        "basedOn" => style.based_on = attr(e, "val"),
        "outlineLvl" => style.outline = attr(e, "val").and_then(|v| v.parse().ok()),
        "numId" => style.num_id = attr(e, "val"),
        "ilvl" => style.num_level = attr(e, "val").and_then(|v| v.parse().ok()),
        _ => {}
    }
}

/// Roles told by a style's name: `heading 2`, `Heading2`, `标题 2`, `Title`, `标题`,
/// `toc 1`, `目录 1`.
fn role_from_name(name: &str) -> Option<StyleRole> {
    let lower = name.trim().to_lowercase();
    let compact: String = lower.chars().filter(|c| !c.is_whitespace()).collect();
    let level_after = |prefix: &str| -> Option<u8> {
        let rest = compact.strip_prefix(prefix)?;
        let level: u8 = rest.parse().ok()?;
        (1..=9).contains(&level).then_some(level)
    };
    if let Some(level) = level_after("heading").or_else(|| level_after("标题")) {
        return Some(StyleRole::Heading(level));
    }
    if matches!(compact.as_str(), "title" | "标题") {
        return Some(StyleRole::Title);
    }
    if level_after("toc").or_else(|| level_after("目录")).is_some()
        || matches!(compact.as_str(), "tocheading" | "目录标题")
    {
        return Some(StyleRole::Contents);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    const XML: &str = r#"<w:styles xmlns:w="w">
      <w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style>
      <w:style w:type="paragraph" w:styleId="1"><w:name w:val="heading 1"/><w:basedOn w:val="Normal"/></w:style>
      <w:style w:type="paragraph" w:styleId="a5"><w:name w:val="标题 2"/></w:style>
      <w:style w:type="paragraph" w:styleId="Clause"><w:name w:val="条款"/><w:basedOn w:val="Normal"/>
        <w:pPr><w:numPr><w:ilvl w:val="1"/><w:numId w:val="7"/></w:numPr></w:pPr></w:style>
      <w:style w:type="paragraph" w:styleId="Sub"><w:name w:val="Sub"/><w:basedOn w:val="Clause"/></w:style>
      <w:style w:type="paragraph" w:styleId="Outline"><w:name w:val="Mine"/><w:pPr><w:outlineLvl w:val="2"/></w:pPr></w:style>
      <w:style w:type="paragraph" w:styleId="TOC1"><w:name w:val="toc 1"/></w:style>
      <w:style w:type="paragraph" w:styleId="Title"><w:name w:val="Title"/></w:style>
      <w:style w:type="paragraph" w:styleId="Subtitle"><w:name w:val="Subtitle"/><w:basedOn w:val="Title"/></w:style>
      <w:style w:type="paragraph" w:styleId="MyHead"><w:name w:val="My head"/><w:basedOn w:val="Outline"/></w:style>
      <w:style w:type="character" w:styleId="Strong"><w:name w:val="heading 1"/></w:style>
    </w:styles>"#;

    #[test]
    fn headings_by_english_chinese_names_and_outline_level() {
        let s = Styles::parse(XML).expect("parses");
        assert_eq!(s.role(Some("1")), StyleRole::Heading(1));
        assert_eq!(s.role(Some("a5")), StyleRole::Heading(2));
        assert_eq!(s.role(Some("Outline")), StyleRole::Heading(3));
        assert_eq!(s.role(Some("TOC1")), StyleRole::Contents);
        assert_eq!(s.role(Some("Title")), StyleRole::Title);
        assert_eq!(
            s.role(Some("Subtitle")),
            StyleRole::Body,
            "a name is not inherited"
        );
        assert_eq!(
            s.role(Some("MyHead")),
            StyleRole::Heading(3),
            "an outline level is"
        );
        assert_eq!(s.role(None), StyleRole::Body);
        assert_eq!(
            s.role(Some("Strong")),
            StyleRole::Body,
            "character styles are not read"
        );
    }

    #[test]
    fn numbering_is_inherited_through_based_on() {
        let s = Styles::parse(XML).expect("parses");
        let want = Some(NumRef {
            num_id: "7".into(),
            level: 1,
        });
        assert_eq!(s.numbering(Some("Clause")), want);
        assert_eq!(s.numbering(Some("Sub")), want);
        assert_eq!(s.numbering(Some("Normal")), None);
    }
}
