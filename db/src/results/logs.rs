//! Game logs (DGN) per table: every save is a new revision with who, when and why; nothing is
//! overwritten. What the log *says* is the engine's business (the pages verify it); this module
//! keeps the text and decides who may read and write it.
//!
//! Who may do what ([`may_read`], [`may_write`]): judges and above read and write any table's log;
//! a seated player reads their own table's log once the table's report is final (the game is
//! over and agreed, so the log gives nothing away). Once the report is final, only the head judge
//! changes the log, with a reason, as with the report itself (4.01.05).

use chrono::{DateTime, Utc};
use sqlx::PgPool;
use tournament::ids::{EventId, Revision, RoundNumber, TableNumber};

use super::{ResultsError, TableContext, reason_of, table};
use crate::roles::{self, Action, Role, allows};
use crate::{audit, live, roles::Actor};

/// Longest log accepted (the database says the same): ten six-player turns take about 20 KB.
pub const MAX_BYTES: usize = 1_000_000;

/// One saved version of a table's log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LogRevision {
    pub revision: Revision,
    pub body: String,
    pub reason: Option<String>,
    /// `None` when typed on the page; the file name of a batch upload.
    pub source: Option<String>,
    pub created_by: Option<String>,
    pub created_at: DateTime<Utc>,
}

/// A table's log with its whole history, newest first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableLog {
    pub table: TableContext,
    pub revisions: Vec<LogRevision>,
}

impl TableLog {
    pub fn latest(&self) -> Option<&LogRevision> {
        self.revisions.first()
    }
}

/// A request to save a log. `base_revision` is the revision the page showed ([`Revision::NONE`]
/// for none), so a revision someone else saved meanwhile is never silently replaced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LogEntry {
    pub body: String,
    pub base_revision: Revision,
    pub reason: Option<String>,
    pub source: Option<String>,
}

/// Whoever may read a table's log: staff always, a seated player once the report is final.
pub fn may_read(role: Option<Role>, is_admin: bool, seated_here: bool, report_final: bool) -> bool {
    allows(role, is_admin, Action::ViewAllReports) || (seated_here && report_final)
}

/// Whoever may save a revision: judges and above while the report is open, the head judge
/// after.
pub fn may_write(role: Option<Role>, is_admin: bool, report_final: bool) -> bool {
    let action = if report_final {
        Action::Override
    } else {
        Action::RecordResults
    };
    allows(role, is_admin, action)
}

/// Whether `new` only adds lines after `old` (a game continued): such a save needs no reason.
pub fn only_continues(old: &str, new: &str) -> bool {
    let old = old.trim_end();
    new.starts_with(old) && new[old.len()..].starts_with(['\n', '\r']) || new.trim_end() == old
}

type Row = (
    Revision,
    String,
    Option<String>,
    Option<String>,
    Option<String>,
    DateTime<Utc>,
);

/// The log of table `table` of round `round`, every revision newest first.
pub async fn table_log(
    pool: &PgPool,
    event_id: EventId,
    round: RoundNumber,
    table: TableNumber,
) -> Result<TableLog, ResultsError> {
    let table = table::load(pool, event_id, round, table).await?;
    let rows: Vec<Row> = sqlx::query_as(
        "SELECT l.revision, l.body, l.reason, l.source, u.username, l.created_at FROM game_logs l \
         LEFT JOIN users u ON u.id = l.created_by WHERE l.table_id = $1 ORDER BY l.revision DESC",
    )
    .bind(table.table_id)
    .fetch_all(pool)
    .await?;
    let revisions = rows
        .into_iter()
        .map(
            |(revision, body, reason, source, created_by, created_at)| LogRevision {
                revision,
                body,
                reason,
                source,
                created_by,
                created_at,
            },
        )
        .collect();
    Ok(TableLog { table, revisions })
}

/// The latest log of every table of a round that has one: (table number, revision, text).
pub async fn round_logs(
    pool: &PgPool,
    event_id: EventId,
    round: RoundNumber,
) -> Result<Vec<(TableNumber, Revision, String)>, ResultsError> {
    Ok(sqlx::query_as(
        "SELECT DISTINCT ON (t.number) t.number, l.revision, l.body FROM game_logs l \
         JOIN game_tables t ON t.id = l.table_id JOIN rounds r ON r.id = t.round_id \
         WHERE r.event_id = $1 AND r.number = $2 ORDER BY t.number, l.revision DESC",
    )
    .bind(event_id)
    .bind(round)
    .fetch_all(pool)
    .await?)
}

/// What the caller may do with one table's log.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LogAccess {
    pub read: bool,
    pub write: bool,
    /// The caller sits at this table (through their linked account).
    pub seated: bool,
}

/// The caller's rights over this table's log, from their role in the event and their seat.
pub async fn access(
    pool: &PgPool,
    actor: Option<&Actor>,
    table: &TableContext,
) -> Result<LogAccess, sqlx::Error> {
    let Some(actor) = actor else {
        return Ok(LogAccess {
            read: false,
            write: false,
            seated: false,
        });
    };
    let role = roles::role_of(pool, actor.user_id, table.event_id).await?;
    let seated = table.seats.iter().any(|s| s.user_id == Some(actor.user_id));
    Ok(LogAccess {
        read: may_read(role, actor.is_admin, seated, table.final_report),
        write: may_write(role, actor.is_admin, table.final_report),
        seated,
    })
}

/// Saves a log as a new revision and returns it. The actor's role is checked here, under the
/// table's lock ([`may_write`]), because the report may have become final since their page
/// was drawn.
pub async fn save(
    pool: &PgPool,
    actor: &Actor,
    event_id: EventId,
    round: RoundNumber,
    table: TableNumber,
    entry: LogEntry,
) -> Result<Revision, ResultsError> {
    let body = entry.body.replace("\r\n", "\n");
    if body.trim().is_empty() {
        return Err(ResultsError::field(
            "log",
            "The log is empty: paste or type the game in DGN (docs/notation.md).",
        ));
    }
    if body.len() > MAX_BYTES {
        return Err(ResultsError::field(
            "log",
            format!(
                "The log is {} KB; Mentat keeps logs up to {} KB. Is this the right file?",
                body.len() / 1000,
                MAX_BYTES / 1000
            ),
        ));
    }
    let mut tx = pool.begin().await?;
    let table = table::lock(&mut tx, event_id, round, table).await?;
    let current: Option<(Revision, String, Option<String>)> = sqlx::query_as(
        "SELECT l.revision, l.body, u.username FROM game_logs l LEFT JOIN users u ON u.id = l.created_by \
         WHERE l.table_id = $1 ORDER BY l.revision DESC LIMIT 1",
    )
    .bind(table.table_id)
    .fetch_optional(&mut *tx)
    .await?;
    let current_revision = current.as_ref().map_or(Revision::NONE, |c| c.0);
    if current_revision != entry.base_revision {
        let by = super::credited(
            &mut tx,
            event_id,
            &["game_log_saved"],
            serde_json::json!({
                "round": table.round, "table": table.table, "revision": current_revision,
            }),
            current.and_then(|c| c.2),
        )
        .await?;
        return Err(ResultsError::Changed {
            what: "This table's log",
            revision: current_revision,
            by,
        });
    }
    let role = roles::role_of(&mut *tx, actor.user_id, event_id).await?;
    if !may_write(role, actor.is_admin, table.final_report) {
        return Err(ResultsError::Forbidden(if table.final_report {
            format!(
                "The report of {} is final; only the head judge can change its log (4.01.05).",
                table.label()
            )
        } else {
            "Only the event's judges write game logs. Ask the organiser if you need to.".to_owned()
        }));
    }
    let reason = reason_of(entry.reason.as_deref());
    if let Some((_, old, _)) = &current {
        if old.trim_end() == body.trim_end() {
            return Err(ResultsError::field(
                "log",
                format!("Nothing changed since revision {current_revision}."),
            ));
        }
        if reason.is_none() && (table.final_report || !only_continues(old, &body)) {
            let why = if table.final_report {
                "The report is final"
            } else {
                "This changes lines of the saved log, not only adds to it"
            };
            return Err(ResultsError::field(
                "reason",
                format!("{why}: say why (for example \"HK shipped 5, not 6, on turn 3\")."),
            ));
        }
    }
    let revision = current_revision.next();
    let source = entry
        .source
        .map(|s| s.chars().take(200).collect::<String>());
    sqlx::query(
        "INSERT INTO game_logs (table_id, revision, body, reason, source, created_by) \
         VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(table.table_id)
    .bind(revision)
    .bind(&body)
    .bind(&reason)
    .bind(&source)
    .bind(actor.user_id)
    .execute(&mut *tx)
    .await?;
    let subject = table.label();
    audit::record(
        &mut *tx,
        audit::Entry::by(
            actor,
            audit::Action::GameLogSaved,
            event_id,
            &subject,
            serde_json::json!({
                "round": table.round, "table": table.table, "revision": revision,
                "lines": body.lines().count(), "reason": reason, "source": source,
            }),
        ),
    )
    .await?;
    live::notify(&mut *tx, event_id, live::Topic::Table).await?;
    tx.commit().await?;
    Ok(revision)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn continuing_a_log_is_not_a_change() {
        assert!(only_continues(
            "T0\nSTORM0 HK 1 AT 2 -> 4",
            "T0\nSTORM0 HK 1 AT 2 -> 4\nT1\n"
        ));
        assert!(only_continues("T0\n", "T0\nT1\n"));
        assert!(!only_continues(
            "T0\nSTORM0 HK 1 AT 2 -> 4\n",
            "T0\nSTORM0 HK 1 AT 2 -> 5\n"
        ));
        // A longer last line is an edit of that line, not a new one.
        assert!(!only_continues("T0\nSTORM0 HK 1", "T0\nSTORM0 HK 12\n"));
    }

    #[test]
    fn roles_read_and_write() {
        use Role::*;
        for role in [Organiser, HeadJudge, Judge] {
            assert!(may_read(Some(role), false, false, false));
            assert!(may_write(Some(role), false, false));
        }
        assert!(!may_write(Some(Judge), false, true));
        assert!(may_write(Some(HeadJudge), false, true));
        assert!(
            may_write(None, true, true),
            "administrators act as organisers"
        );
        // A player: their own table, once final; never another's; never writes.
        assert!(!may_read(Some(Player), false, true, false));
        assert!(may_read(Some(Player), false, true, true));
        assert!(!may_read(Some(Player), false, false, true));
        assert!(!may_read(None, false, false, true));
        assert!(!may_write(Some(Player), false, false));
    }
}
