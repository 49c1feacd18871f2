//! The window says a message with the same words as the core: one example of every
//! [`Message`] (several where its wording has branches) with its English and Chinese
//! text, kept in `ui/src/fixtures/messages.json` for the UI's test of `say`
//! (`ui/src/words.test.ts`). And no code goes without wording: every code the
//! window can receive (`ui/src/bindings.ts`) has an example here.
//!
//! `UPDATE_BINDINGS=1 cargo test --test message_words` rewrites the file; otherwise
//! this test fails when the core's words changed and the file was not rewritten.

mod common;

use evident_core::message::{Lang, Message};
use evident_core::model::{ServerError, ServerErrorKind};
use evident_core::problem::Problem;

fn examples() -> Vec<Message> {
    let s = String::from;
    let server = || {
        Some(Problem::Server(ServerError::new(
            ServerErrorKind::Unreachable,
            "http://127.0.0.1:11434/v1",
            "connection refused",
        )))
    };
    vec![
        Message::NotRetrieved { n: 4 },
        Message::SupportedByOther {
            support: 2,
            cites: vec![1, 3],
        },
        Message::UncitedButSupported { n: 2 },
        Message::UncitedUnsupported,
        Message::ClauseNumberMissing {
            value: s("十九"),
            n: 1,
        },
        Message::NumberMisplaced {
            value: s("5,000"),
            n: 2,
        },
        Message::NumberMissing {
            value: s("8000"),
            n: 1,
        },
        Message::NegatesSource { n: 1 },
        Message::OnlyUnderCondition {
            n: 1,
            condition: s("连续工作满12个月以上"),
        },
        Message::SourceNegative { n: 3 },
        Message::QualifierMismatch {
            n: 1,
            source_word: s("工作日"),
            claim_word: s("自然日"),
        },
        Message::TierMismatch {
            n: 2,
            value: s("10天"),
            applies_to: s("已满10年不满20年的"),
            condition: s("已满1年不满10年的"),
            source_value: s("5天"),
        },
        Message::ConditionDiffers {
            n: 1,
            claim: s("满一年"),
            source: s("已满1年不满10年的"),
        },
        Message::BoundDiffers {
            n: 1,
            claim: s("at least 3 days"),
            source: s("at most 3 days"),
        },
        Message::ModalityDiffers {
            n: 1,
            source: s("must"),
            claim: s("may"),
        },
        Message::RoleDiffers {
            n: 2,
            claim: s("股东会"),
            source: s("董事会"),
        },
        Message::ConditionDropped {
            n: 1,
            condition: s("仅限于高级管理人员"),
        },
        Message::ScopeDiffers {
            n: 1,
            word: s("所有"),
        },
        Message::Conflict {
            support: 1,
            contradicts: 3,
        },
        Message::FewKeyWords {
            found: 1,
            total: 4,
            n: 2,
        },
        Message::SomeKeyWords {
            found: 2,
            total: 4,
            n: 2,
        },
        Message::NothingAboutIt,
        Message::NoDocuments,
        Message::NoWords,
        Message::NoKeyWordInDocuments,
        Message::NoPassageWithKeyWords,
        Message::NothingClose,
        Message::NoSentenceSpeaks,
        Message::Unmentioned {
            names: vec![s("年会"), s("抽奖")],
        },
        Message::Unmentioned {
            names: vec![s("bonus")],
        },
        Message::RankingsDisagree,
        Message::FewQuestionWords,
        Message::KindNotStated,
        Message::NotSure {
            sure: 41,
            needed: 60,
        },
        Message::QuestionCut { chars: 2000 },
        Message::OverBudget {
            passages: vec![5],
            budget: 1500,
        },
        Message::OverBudget {
            passages: vec![4, 5],
            budget: 1500,
        },
        Message::NoServer,
        Message::NotEmbedded {
            model: s("embeddinggemma"),
        },
        Message::PartlyEmbedded {
            embedded: 120,
            total: 400,
            model: s("embeddinggemma"),
        },
        Message::ServerUnusable {
            detail: s("connection refused"),
            why: server(),
        },
        Message::ServerUnusable {
            detail: s("connection refused"),
            why: None,
        },
        Message::RerankUnusable {
            detail: s("HTTP 404"),
            why: server(),
        },
        Message::ModelFoundNothing,
        Message::ModelUnsupported,
        Message::ModelCutShort { tokens: 512 },
        Message::ModelStopped,
        Message::ModelFailed {
            detail: s("connection refused"),
            why: server(),
        },
        Message::ModelSaidNothing,
        Message::ModelCitedNothing,
        Message::SourcesDiffer { a: 1, b: 2 },
    ]
}

#[test]
fn the_windows_words_for_messages_are_the_cores_and_no_code_goes_unworded() {
    let cases: Vec<serde_json::Value> = examples()
        .into_iter()
        .map(|m| {
            serde_json::json!({
                "en": m.text(Lang::En),
                "zh": m.text(Lang::ZhCn),
                "message": m,
            })
        })
        .collect();
    for c in &cases {
        let zh = c["zh"].as_str().unwrap_or_default();
        let en = c["en"].as_str().unwrap_or_default();
        assert!(!zh.is_empty() && !en.is_empty(), "{c}");
        assert!(
            zh.chars().any(|ch| ('\u{4e00}'..='\u{9fff}').contains(&ch)),
            "the Chinese wording is Chinese: {c}"
        );
    }
    common::check_words_fixture(
        evident_core::catalogue::Kind::Message,
        "Message",
        "message",
        &cases,
        "messages.json",
        "message_words",
    );
}
