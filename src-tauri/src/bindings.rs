//! The TypeScript side of the Rust↔UI contract, generated from the Rust types.
//!
//! `ui/src/bindings.ts` is this module's output, committed. The test
//! `bindings_are_current` fails when the Rust types changed and the file was not
//! regenerated (`UPDATE_BINDINGS=1 cargo test -p evident-app bindings`).

use ts_rs::{Config, TS};

use crate::answering::AnswerSettings;
use crate::commands::{
    AppInfo, AskResult, DocumentView, ImportProgress, Isolation, LayoutNote, PageSpan, Retrieval,
};
use crate::embedding::{BuiltinStatus, EmbeddingPhase, EmbeddingStatus, ModelFound, ServerCheck};
use crate::error::CommandError;
use crate::reranking::{RerankPhase, RerankStatus};
use crate::syncing::{LibrarySync, Unwatched};
use evident_core::ErrorCode;
use evident_core::answer::context::Neighbour;
use evident_core::answer::export::ExportFormat;
use evident_core::answer::generated::Generation;
use evident_core::answer::relocate::{Located, LocatedStatus};
use evident_core::answer::{Answer, Checked, Context, Mode, Source, Status, Timings};
use evident_core::embed::EmbedReport;
use evident_core::extract::DocumentKind;
use evident_core::extract::layout::{
    DocumentLayout, InlineMark, InlineStyle, LayoutBlock, LayoutKind, TableCell,
};
use evident_core::extract::pdf::render::{PageBox, PageImage};
use evident_core::grounding::{SentenceVerdict, Support, Verdict};
use evident_core::import::EmbedOutcome;
use evident_core::import::{FileReport, ImportSummary, Outcome, RebuildReport};
use evident_core::message::{Lang, Message};
use evident_core::model::PromptFamily;
use evident_core::model::{ServerError, ServerErrorKind};
use evident_core::problem::{Limited, Problem};
use evident_core::search::aliases::AliasWarning;
use evident_core::search::{
    Evidence, Highlight, Passage, Query, RankedBy, Ranks, RetrievalInfo, RetrievalMode,
    SearchResult, Term,
};
use evident_core::settings::BuiltinSettings;
use evident_core::store::VectorCoverage;
use evident_core::store::{DocumentRecord, DocumentStatus, StoredPassage};
use evident_core::sync::{Change, ChangeCounts};
use evident_core::userdata::HistoryEntry;

fn decl<T: TS + 'static>(cfg: &Config) -> String {
    format!("export {}\n", T::decl(cfg))
}

/// Every declaration, in a stable order, as one TypeScript module.
pub fn typescript() -> String {
    // Ids and offsets fit in a JavaScript number; bigint would make every use awkward.
    let cfg = Config::new().with_large_int("number");
    let parts = [
        decl::<CommandError>(&cfg),
        decl::<ErrorCode>(&cfg),
        decl::<AppInfo>(&cfg),
        decl::<Isolation>(&cfg),
        decl::<Retrieval>(&cfg),
        decl::<AskResult>(&cfg),
        decl::<Answer>(&cfg),
        decl::<Status>(&cfg),
        decl::<Mode>(&cfg),
        decl::<Generation>(&cfg),
        decl::<SentenceVerdict>(&cfg),
        decl::<Message>(&cfg),
        decl::<Lang>(&cfg),
        decl::<ExportFormat>(&cfg),
        decl::<Problem>(&cfg),
        decl::<Limited>(&cfg),
        decl::<ServerError>(&cfg),
        decl::<ServerErrorKind>(&cfg),
        decl::<Verdict>(&cfg),
        decl::<Support>(&cfg),
        decl::<Source>(&cfg),
        decl::<Highlight>(&cfg),
        decl::<Context>(&cfg),
        decl::<Neighbour>(&cfg),
        decl::<Timings>(&cfg),
        decl::<Checked>(&cfg),
        decl::<SearchResult>(&cfg),
        decl::<Passage>(&cfg),
        decl::<StoredPassage>(&cfg),
        decl::<Query>(&cfg),
        decl::<Term>(&cfg),
        decl::<DocumentKind>(&cfg),
        decl::<DocumentRecord>(&cfg),
        decl::<DocumentStatus>(&cfg),
        decl::<DocumentView>(&cfg),
        decl::<PageSpan>(&cfg),
        decl::<Located>(&cfg),
        decl::<LocatedStatus>(&cfg),
        decl::<PageImage>(&cfg),
        decl::<PageBox>(&cfg),
        decl::<LayoutNote>(&cfg),
        decl::<DocumentLayout>(&cfg),
        decl::<LayoutBlock>(&cfg),
        decl::<LayoutKind>(&cfg),
        decl::<InlineMark>(&cfg),
        decl::<InlineStyle>(&cfg),
        decl::<TableCell>(&cfg),
        decl::<ImportProgress>(&cfg),
        decl::<ImportSummary>(&cfg),
        decl::<RebuildReport>(&cfg),
        decl::<FileReport>(&cfg),
        decl::<Outcome>(&cfg),
        decl::<HistoryEntry>(&cfg),
        decl::<AliasWarning>(&cfg),
        decl::<Ranks>(&cfg),
        decl::<Evidence>(&cfg),
        decl::<RetrievalInfo>(&cfg),
        decl::<RankedBy>(&cfg),
        decl::<RetrievalMode>(&cfg),
        decl::<EmbedOutcome>(&cfg),
        decl::<EmbedReport>(&cfg),
        decl::<VectorCoverage>(&cfg),
        decl::<EmbeddingStatus>(&cfg),
        decl::<EmbeddingPhase>(&cfg),
        decl::<BuiltinStatus>(&cfg),
        decl::<ModelFound>(&cfg),
        decl::<BuiltinSettings>(&cfg),
        decl::<LibrarySync>(&cfg),
        decl::<Unwatched>(&cfg),
        decl::<Change>(&cfg),
        decl::<ChangeCounts>(&cfg),
        decl::<ServerCheck>(&cfg),
        decl::<RerankStatus>(&cfg),
        decl::<RerankPhase>(&cfg),
        decl::<PromptFamily>(&cfg),
        decl::<AnswerSettings>(&cfg),
    ];
    let mut out = String::from(
        "// Generated from the Rust types by src-tauri/src/bindings.rs. Do not edit;\n\
         // regenerate with: UPDATE_BINDINGS=1 cargo test -p evident-app bindings\n\n",
    );
    for p in parts {
        out.push_str(&p);
    }
    out
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    #[test]
    fn bindings_are_current() {
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../ui/src/bindings.ts");
        let fresh = super::typescript();
        if std::env::var_os("UPDATE_BINDINGS").is_some() {
            std::fs::write(&path, &fresh).expect("bindings written");
        }
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            committed == fresh,
            "ui/src/bindings.ts is out of date with the Rust types; run \
             UPDATE_BINDINGS=1 cargo test -p evident-app bindings and commit it"
        );
    }
}
