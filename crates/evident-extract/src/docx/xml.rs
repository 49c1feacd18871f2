//! Small helpers over quick-xml for WordprocessingML, where every name carries the `w:`
//! prefix (or whatever prefix the writer chose): elements and attributes are matched by
//! local name only.

use quick_xml::events::BytesStart;

/// Whether the element's local name is `local`.
pub(super) fn is(e: &BytesStart<'_>, local: &str) -> bool {
    e.local_name().as_ref() == local
}

/// The unescaped value of the attribute whose local name is `local`.
pub(super) fn attr(e: &BytesStart<'_>, local: &str) -> Option<String> {
    e.attributes()
        .flatten()
        .find(|a| a.key.local_name().as_ref() == local)
        .and_then(|a| value(&a))
}

/// Whether an on/off property (`<w:vanish/>`, `<w:tblHeader w:val="true"/>`) is on.
pub(super) fn is_on(e: &BytesStart<'_>) -> bool {
    attr(e, "val").is_none_or(|v| !matches!(v.as_str(), "0" | "false" | "off"))
}

/// An attribute's value with references resolved and white space normalised as XML 1.0
/// does (Word writes no XML 1.1).
pub(super) fn value(a: &quick_xml::events::attributes::Attribute<'_>) -> Option<String> {
    a.normalized_value(quick_xml::XmlVersion::Implicit1_0)
        .ok()
        .map(|v| v.into_owned())
}
