//! Past questions and answers, with the user's thumbs up or down, so a team can see
//! which questions its documents answer badly.

use rusqlite::{OptionalExtension, params};
use serde::{Deserialize, Serialize};

use super::Store;
use crate::Result;
use crate::answer::Answer;

/// One past question.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct HistoryEntry {
    /// Row id.
    pub id: i64,
    /// When it was asked (Unix seconds).
    pub asked_at: i64,
    /// The question.
    pub question: String,
    /// `answered`, `uncertain` or `not_found`.
    pub status: String,
    /// +1 helpful, -1 not helpful, none yet.
    pub feedback: Option<i64>,
}

impl Store {
    /// Records an answer; returns its history id.
    pub fn record_answer(&mut self, answer: &Answer) -> Result<i64> {
        let status = answer.status.as_str();
        self.conn.execute(
            "INSERT INTO history (asked_at, question, status, answer) VALUES (?1, ?2, ?3, ?4)",
            params![
                super::documents::now(),
                answer.question,
                status,
                serde_json::to_string(answer)?
            ],
        )?;
        Ok(self.conn.last_insert_rowid())
    }

    /// The latest `limit` questions, newest first.
    pub fn history(&self, limit: usize) -> Result<Vec<HistoryEntry>> {
        let mut stmt = self.conn.prepare(
            "SELECT id, asked_at, question, status, feedback FROM history
             ORDER BY asked_at DESC, id DESC LIMIT ?1",
        )?;
        let rows = stmt.query_map([limit as i64], |r| {
            Ok(HistoryEntry {
                id: r.get(0)?,
                asked_at: r.get(1)?,
                question: r.get(2)?,
                status: r.get(3)?,
                feedback: r.get(4)?,
            })
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// The stored answer of history entry `id`.
    pub fn history_answer(&self, id: i64) -> Result<Option<Answer>> {
        let json: Option<String> = self
            .conn
            .query_row("SELECT answer FROM history WHERE id = ?1", [id], |r| {
                r.get(0)
            })
            .optional()?;
        Ok(match json {
            Some(j) => Some(serde_json::from_str(&j)?),
            None => None,
        })
    }

    /// Sets (+1 / -1) or clears (`None`) the feedback on history entry `id`.
    pub fn set_feedback(&mut self, id: i64, feedback: Option<i64>) -> Result<()> {
        let feedback = feedback.map(i64::signum).filter(|f| *f != 0);
        self.conn.execute(
            "UPDATE history SET feedback = ?2 WHERE id = ?1",
            params![id, feedback],
        )?;
        Ok(())
    }
}
