//! What a command failure looks like to the UI: a stable code and a message for people.

use evident_core::ErrorCode;
use evident_core::problem::Problem;
use serde::Serialize;

/// A failed command, as the UI receives it.
#[derive(Debug, Serialize, ts_rs::TS)]
pub struct CommandError {
    /// What kind of failure, for the window to act on.
    pub code: ErrorCode,
    /// What happened, in English words for the user.
    pub message: String,
    /// The same as a code, for the window's language: a problem with a file or a model
    /// (`None` for the rest, which the message says).
    pub why: Option<Problem>,
}

impl From<evident_core::model::Error> for CommandError {
    fn from(e: evident_core::model::Error) -> Self {
        evident_core::Error::from(e).into()
    }
}

impl From<evident_core::extract::Error> for CommandError {
    fn from(e: evident_core::extract::Error) -> Self {
        evident_core::Error::from(e).into()
    }
}

impl From<evident_core::Error> for CommandError {
    fn from(e: evident_core::Error) -> Self {
        use evident_core::Error as E;
        let why = match &e {
            E::Io { .. } | E::Input { .. } | E::Pdf { .. } | E::Server(_) | E::Model { .. } => {
                Some(e.problem())
            }
            _ => None,
        };
        Self {
            code: e.code(),
            message: e.to_string(),
            why,
        }
    }
}

impl CommandError {
    /// An error the shell itself raises.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        Self {
            code,
            message: message.into(),
            why: None,
        }
    }
}

/// Result of a command.
pub type CommandResult<T> = Result<T, CommandError>;
