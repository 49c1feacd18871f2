//! The one place Evident's words live: `catalogue/en.ftl` and `catalogue/zh-CN.ftl`,
//! in Project Fluent's format, read here by `fluent-bundle` and in the window by
//! `@fluent/bundle` (`ui/src/words.ts`). Both say a coded value (`{code, params}`, as
//! a [`Message`](crate::message::Message) or a [`Problem`](crate::problem::Problem)
//! serialises) by the same rules, so the CLI, the JSON and the window cannot drift
//! apart, and a translator edits one file per language.
//!
//! How parameters become Fluent arguments (the files' header says it for
//! translators):
//! - a number stays a number (plural selection works on it; it is written without
//!   digit grouping, as the codes' numbers are counts and passage numbers);
//! - text stays text; null or empty text becomes `none`, which the catalogue selects on;
//! - a list of numbers (passage numbers) becomes citations, `[1][3]`;
//! - a list of words is joined with the language's `list-separator`;
//! - a coded value inside (a problem behind a message) is said first.

use std::sync::LazyLock;

use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource, FluentValue};
use serde_json::Value;

use crate::message::Lang;

/// The English catalogue, as shipped.
pub const EN: &str = include_str!("../catalogue/en.ftl");
/// The Chinese catalogue, as shipped.
pub const ZH_CN: &str = include_str!("../catalogue/zh-CN.ftl");

/// The word for an absent value, which the catalogue selects on.
const NONE: &str = "none";

/// What a code is: the first part of its id in the catalogue.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A [`Message`](crate::message::Message): `message-…`.
    Message,
    /// A [`Problem`](crate::problem::Problem): `problem-…`.
    Problem,
    /// A checked sentence's colour: `verdict-…`.
    Verdict,
}

impl Kind {
    fn prefix(self) -> &'static str {
        match self {
            Kind::Message => "message",
            Kind::Problem => "problem",
            Kind::Verdict => "verdict",
        }
    }
}

struct Catalogue {
    bundle: FluentBundle<FluentResource>,
    /// What went wrong reading the file itself (empty as shipped; a test checks).
    broken: Vec<String>,
}

fn load(lang: &str, source: &str) -> Catalogue {
    let mut broken = Vec::new();
    let resource =
        FluentResource::try_new(source.to_owned()).unwrap_or_else(|(partial, errors)| {
            broken.extend(errors.iter().map(|e| format!("{lang}.ftl: {e}")));
            partial
        });
    let id = lang.parse().unwrap_or_default();
    let mut bundle = FluentBundle::new_concurrent(vec![id]);
    bundle.set_use_isolating(false);
    if let Err(errors) = bundle.add_resource(resource) {
        broken.extend(errors.iter().map(|e| format!("{lang}.ftl: {e}")));
    }
    Catalogue { bundle, broken }
}

static CATALOGUES: LazyLock<[Catalogue; 2]> =
    LazyLock::new(|| [load("en", EN), load("zh-CN", ZH_CN)]);

fn catalogue(lang: Lang) -> &'static Catalogue {
    match lang {
        Lang::En => &CATALOGUES[0],
        Lang::ZhCn => &CATALOGUES[1],
    }
}

/// The catalogue's id for `code` of `kind`: `number_missing` → `message-number-missing`.
pub fn id(kind: Kind, code: &str) -> String {
    format!("{}-{}", kind.prefix(), code.replace('_', "-"))
}

/// `coded` (`{"code": …, "params": …}`) in `lang`, or what kept it from being said
/// as the catalogue means: no wording for the code, a parameter the wording needs and
/// did not get, a catalogue that does not read.
pub fn try_say(lang: Lang, kind: Kind, coded: &Value) -> Result<String, Vec<String>> {
    let code = coded
        .get("code")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let params = coded.get("params").unwrap_or(&Value::Null);
    try_say_id(lang, &id(kind, code), params)
}

/// `coded` in `lang`. A code without wording (a file edited by hand, a code newer
/// than the catalogue) is said as its id rather than not at all.
pub fn say(lang: Lang, kind: Kind, coded: &Value) -> String {
    try_say(lang, kind, coded).unwrap_or_else(|_| {
        let code = coded
            .get("code")
            .and_then(Value::as_str)
            .unwrap_or_default();
        id(kind, code)
    })
}

/// The message `id` in `lang`, with `params` (an object of parameters, or null).
pub fn try_say_id(lang: Lang, id: &str, params: &Value) -> Result<String, Vec<String>> {
    let catalogue = catalogue(lang);
    let mut errors = catalogue.broken.clone();
    let Some(pattern) = catalogue.bundle.get_message(id).and_then(|m| m.value()) else {
        errors.push(format!("no wording for {id} in {}", lang_name(lang)));
        return Err(errors);
    };
    let args = arguments(lang, params);
    let mut fluent = Vec::new();
    let text = catalogue
        .bundle
        .format_pattern(pattern, Some(&args), &mut fluent);
    errors.extend(
        fluent
            .iter()
            .map(|e| format!("{id} in {}: {e}", lang_name(lang))),
    );
    if errors.is_empty() {
        Ok(text.into_owned())
    } else {
        Err(errors)
    }
}

/// Every message id of a catalogue, to compare the two languages.
pub fn ids(lang: Lang) -> Vec<String> {
    let source = match lang {
        Lang::En => EN,
        Lang::ZhCn => ZH_CN,
    };
    let resource = FluentResource::try_new(source.to_owned()).unwrap_or_else(|(r, _)| r);
    resource
        .entries()
        .filter_map(|entry| match entry {
            fluent_syntax::ast::Entry::Message(m) => Some(m.id.name.to_owned()),
            _ => None,
        })
        .collect()
}

fn lang_name(lang: Lang) -> &'static str {
    match lang {
        Lang::En => "en.ftl",
        Lang::ZhCn => "zh-CN.ftl",
    }
}

fn arguments(lang: Lang, params: &Value) -> FluentArgs<'static> {
    let mut args = FluentArgs::new();
    if let Value::Object(map) = params {
        for (name, value) in map {
            args.set(name.clone(), argument(lang, value));
        }
    }
    args
}

fn argument(lang: Lang, value: &Value) -> FluentValue<'static> {
    match value {
        Value::Null => NONE.into(),
        Value::Bool(b) => b.to_string().into(),
        Value::Number(n) => match (n.as_u64(), n.as_i64()) {
            (Some(u), _) => u.into(),
            (None, Some(i)) => i.into(),
            _ => n.as_f64().unwrap_or_default().into(),
        },
        Value::String(s) if s.is_empty() => NONE.into(),
        Value::String(s) => s.clone().into(),
        Value::Array(items) if items.iter().all(Value::is_number) => items
            .iter()
            .map(|n| format!("[{n}]"))
            .collect::<String>()
            .into(),
        Value::Array(items) => {
            let separator = try_say_id(lang, "list-separator", &Value::Null).unwrap_or_default();
            items
                .iter()
                .map(|item| match item {
                    Value::String(s) => s.clone(),
                    other => other.to_string(),
                })
                .collect::<Vec<_>>()
                .join(&separator)
                .into()
        }
        Value::Object(_) => say(lang, Kind::Problem, value).into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn both_catalogues_read_and_word_the_same_ids() {
        for lang in [Lang::En, Lang::ZhCn] {
            assert!(
                catalogue(lang).broken.is_empty(),
                "{:?}",
                catalogue(lang).broken
            );
        }
        let mut en = ids(Lang::En);
        let mut zh = ids(Lang::ZhCn);
        en.sort();
        zh.sort();
        let only_en: Vec<_> = en.iter().filter(|i| !zh.contains(i)).collect();
        let only_zh: Vec<_> = zh.iter().filter(|i| !en.contains(i)).collect();
        assert!(
            only_en.is_empty() && only_zh.is_empty(),
            "only in en: {only_en:?}; only in zh-CN: {only_zh:?}"
        );
        assert!(en.len() > 90, "{} ids", en.len());
    }

    #[test]
    fn parameters_arrive_as_the_rules_say() {
        let coded =
            json!({"code": "supported_by_other", "params": {"support": 2, "cites": [1, 3]}});
        assert_eq!(
            say(Lang::En, Kind::Message, &coded),
            "[2] supports this sentence, but it cites [1][3]"
        );
        let names = json!({"code": "unmentioned", "params": {"names": ["上海", "深圳"]}});
        assert_eq!(
            say(Lang::ZhCn, Kind::Message, &names),
            "您的文件中没有提到“上海、深圳”"
        );
        assert_eq!(
            say(Lang::En, Kind::Message, &names),
            "your documents never mention 上海, 深圳"
        );
        let big = json!({"code": "question_cut", "params": {"chars": 20000}});
        assert_eq!(
            say(Lang::En, Kind::Message, &big),
            "Only the first 20000 characters of the question were used."
        );
        let one = json!({"code": "pages_textless", "params": {"pages": "3", "count": 1}});
        assert_eq!(
            say(Lang::En, Kind::Problem, &one),
            "page 3 without text (scanned images?) could not be indexed"
        );
        let none = json!({"code": "unsupported", "params": {"ext": ""}});
        assert!(say(Lang::ZhCn, Kind::Problem, &none).contains("无扩展名"));
    }

    #[test]
    fn a_code_without_wording_is_an_error_and_is_said_as_its_id() {
        let coded = json!({"code": "no_such_thing", "params": null});
        let errors = try_say(Lang::ZhCn, Kind::Message, &coded)
            .err()
            .unwrap_or_default();
        assert_eq!(
            errors,
            vec!["no wording for message-no-such-thing in zh-CN.ftl"]
        );
        assert_eq!(
            say(Lang::ZhCn, Kind::Message, &coded),
            "message-no-such-thing"
        );
        let missing = json!({"code": "number_missing", "params": {"n": 2}});
        let errors = try_say(Lang::En, Kind::Message, &missing)
            .err()
            .unwrap_or_default();
        assert!(errors.iter().any(|e| e.contains("value")), "{errors:?}");
    }
}
