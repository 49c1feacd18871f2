//! Every word Evident says to its users about what happened, as codes with
//! parameters worded in both languages (English and Simplified Chinese):
//!
//! - [`message`]: why a sentence is flagged, why nothing was found, notes;
//! - [`problem`]: what went wrong with a file, a folder or a model;
//! - [`server`]: how a model server failed, classified by what the user can do;
//! - [`verdict`]: a checked sentence's colour, and [`message::verdict_label`] its words.
//!
//! Their wording lives in one catalogue per language ([`catalogue`], `catalogue/*.ftl`),
//! which the window reads too.
//!
//! The faces (the CLI, the window, exports) say a code in their language; the core
//! hands codes around and never English sentences. This crate depends on nothing of
//! Evident's, so every stage can use it and none can reach back through it.

pub mod catalogue;
pub mod message;
pub mod problem;
pub mod server;
pub mod verdict;
