//! Results at the tables: win attempts (4.01.04), game reports with revisions and
//! confirmations (4.01.02, 4.01.05, 4.01.07), standings (4.01.10-11) and the finals cut.
//!
//! Nothing is overwritten: every save is a new revision naming who, when and why, and readers
//! take the latest. Writes lock the table's row first, so two judges saving at once queue and
//! the second is told what changed instead of silently replacing it.

pub mod attempts;
pub mod disputes;
pub mod finals;
pub mod logs;
pub mod qualifying;
pub mod queue;
pub mod reports;
pub mod standings;
mod table;

pub use table::{SeatLine, TableContext};

use tournament::ids::Revision;
use tournament::{ReportField, attempts::AttemptField};

/// Where a problem is: a field of the Game Report (the tournament crate names it, seats by
/// position), a turn's win-attempt record, or a form control of the request itself (`reason`,
/// `note`, `seed`). The pages alone turn these into the ids of their controls.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    Report(ReportField),
    Attempt(AttemptField),
    Named(&'static str),
}

/// A problem with one field of a form, and what to do about it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldProblem {
    pub field: Field,
    pub message: String,
}

#[derive(Debug, thiserror::Error)]
pub enum ResultsError {
    #[error("There is no such table in this event.")]
    NotFound,
    #[error("{0}")]
    Forbidden(String),
    /// Someone saved first; `current` is what they saved, so the caller can show both versions.
    #[error(
        "{what} changed since you loaded it: {by} saved revision {revision}. Your entry is kept below; compare the two and save again."
    )]
    Changed {
        what: &'static str,
        revision: Revision,
        by: String,
    },
    /// Another judge has taken the dispute: the caller is told who, so they can talk.
    #[error("{by} has taken this dispute; ask them, or leave it to them.")]
    Taken { by: String },
    #[error("{}", .0.iter().map(|p| p.message.as_str()).collect::<Vec<_>>().join(" "))]
    Invalid(Vec<FieldProblem>),
    #[error("{0}")]
    State(String),
    #[error("database error")]
    Database(#[from] sqlx::Error),
}

impl ResultsError {
    pub(crate) fn field(field: &'static str, message: impl Into<String>) -> ResultsError {
        ResultsError::Invalid(vec![FieldProblem {
            field: Field::Named(field),
            message: message.into(),
        }])
    }

    pub fn is_conflict(&self) -> bool {
        matches!(
            self,
            ResultsError::Changed { .. } | ResultsError::Taken { .. }
        )
    }
}

/// Who a saved record is credited to, as the audit log wrote it when it was saved: a script's
/// save reads "alice (API token "results bot")", as everywhere else. `detail` is the part of the
/// entry's detail that names the record (round, table, revision, turn); `fallback` is the
/// account's name, for a record older than its entry.
pub(crate) async fn credited(
    db: &mut sqlx::PgConnection,
    event_id: tournament::ids::EventId,
    actions: &[&str],
    detail: serde_json::Value,
    fallback: Option<String>,
) -> Result<String, sqlx::Error> {
    let recorded: Option<Option<String>> = sqlx::query_scalar(
        "SELECT actor FROM audit_log WHERE event_id = $1 AND action = ANY($2) AND detail @> $3 \
         ORDER BY id DESC LIMIT 1",
    )
    .bind(event_id)
    .bind(actions)
    .bind(detail)
    .fetch_optional(&mut *db)
    .await?;
    Ok(recorded
        .flatten()
        .or(fallback)
        .unwrap_or_else(|| "someone".into()))
}

/// Reasons are required for corrections; a blank one is no reason.
pub(crate) fn reason_of(reason: Option<&str>) -> Option<String> {
    reason
        .map(str::trim)
        .filter(|r| !r.is_empty())
        .map(|r| r.chars().take(500).collect())
}
