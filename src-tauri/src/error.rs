//! What a command failure looks like to the UI: a stable code and a message for people.

use serde::Serialize;

/// A failed command, as the UI receives it.
#[derive(Debug, Serialize, ts_rs::TS)]
pub struct CommandError {
    /// Stable machine-readable code (`bad_input`, `database_corrupt`, `internal` ...).
    pub code: String,
    /// What happened, in words for the user.
    pub message: String,
}

impl From<evident_core::Error> for CommandError {
    fn from(e: evident_core::Error) -> Self {
        Self {
            code: e.code().to_owned(),
            message: e.to_string(),
        }
    }
}

impl CommandError {
    /// An error the shell itself raises.
    pub fn new(code: &str, message: impl Into<String>) -> Self {
        Self {
            code: code.to_owned(),
            message: message.into(),
        }
    }
}

/// Result of a command.
pub type CommandResult<T> = Result<T, CommandError>;
