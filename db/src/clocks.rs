//! Table clocks (4.01.08): start, pause, resume and extend, stored as instants.
//!
//! The database's clock (`now()`) is the only time source, for writes and for reads, so several
//! server instances with slightly different clocks still agree on every table's time.
//! `tournament::clock` does the arithmetic; this module loads, checks and stores.

use serde::Serialize;
use sqlx::PgPool;
use tournament::ids::{EventId, RoundNumber, TableId, TableNumber};
use tournament::{Clock, ClockError};

use crate::{
    audit,
    roles::Actor,
    rounds::{TABLE_COLUMNS, TableRow, clock_of},
};

/// What the head judge does to a clock.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    Start,
    Pause,
    Resume,
    /// Adds minutes to the limit; the reason goes to the audit log.
    Extend {
        minutes: i64,
        reason: String,
    },
}

#[derive(Debug, thiserror::Error)]
pub enum ClockCommandError {
    #[error("There is no such table in this event.")]
    NotFound,
    #[error(
        "Table {0}'s clock changed since you loaded the page (someone else started, paused or extended it); reload to see it."
    )]
    Stale(TableNumber),
    #[error("Table {table}: {error}.")]
    Clock {
        table: TableNumber,
        error: ClockError,
    },
    #[error("Give the reason for the extension (it is kept in the audit log).")]
    ReasonRequired,
    #[error("No clock could be {verb}: {why}.")]
    NoneChanged { verb: &'static str, why: String },
    #[error("database error")]
    Database(#[from] sqlx::Error),
}

/// Applies `command` to a table's clock if it is still at `version`; starting a clock begins the
/// round (its seats become final). Returns the clock as stored.
pub async fn apply(
    pool: &PgPool,
    actor: &Actor,
    event_id: EventId,
    table_id: TableId,
    version: i32,
    command: Command,
) -> Result<Clock, ClockCommandError> {
    if let Command::Extend { reason, .. } = &command
        && reason.trim().is_empty()
    {
        return Err(ClockCommandError::ReasonRequired);
    }
    let mut tx = pool.begin().await?;
    let row: Option<TableRow> = sqlx::query_as(&format!(
        "SELECT {TABLE_COLUMNS} FROM game_tables t JOIN rounds r ON r.id = t.round_id \
         WHERE t.id = $1 AND r.event_id = $2 FOR UPDATE OF t"
    ))
    .bind(table_id)
    .bind(event_id)
    .fetch_optional(&mut *tx)
    .await?;
    let row = row.ok_or(ClockCommandError::NotFound)?;
    let table = row.1;
    if row.7 != version {
        return Err(ClockCommandError::Stale(table));
    }
    let (round_id, round, begun, now): (i64, RoundNumber, bool, chrono::DateTime<chrono::Utc>) =
        sqlx::query_as(
            "SELECT r.id, r.number, r.started_at IS NOT NULL, now() FROM rounds r \
             JOIN game_tables t ON t.round_id = r.id WHERE t.id = $1",
        )
        .bind(table_id)
        .fetch_one(&mut *tx)
        .await?;
    let players: i64 = sqlx::query_scalar("SELECT count(*) FROM seats WHERE table_id = $1")
        .bind(table_id)
        .fetch_one(&mut *tx)
        .await?;
    let clock = clock_of(&row, usize::try_from(players).unwrap_or(0));
    let now_ms = now.timestamp_millis();
    let (changed, action, mut detail) = match &command {
        Command::Start => (
            clock.start(now_ms),
            audit::Action::ClockStarted,
            serde_json::json!({}),
        ),
        Command::Pause => (
            clock.pause(now_ms),
            audit::Action::ClockPaused,
            serde_json::json!({}),
        ),
        Command::Resume => (
            clock.resume(now_ms),
            audit::Action::ClockResumed,
            serde_json::json!({}),
        ),
        Command::Extend { minutes, reason } => (
            clock.extend(minutes.saturating_mul(60_000)),
            audit::Action::ClockExtended,
            serde_json::json!({ "minutes": minutes, "reason": reason.trim() }),
        ),
    };
    let changed = changed.map_err(|error| ClockCommandError::Clock { table, error })?;
    if let serde_json::Value::Object(map) = &mut detail {
        map.insert("round".into(), serde_json::json!(round));
        map.insert("table".into(), serde_json::json!(table));
    }
    // Instants are written as the database computed them, to the microsecond, not re-derived
    // from milliseconds.
    sqlx::query(
        "UPDATE game_tables SET \
           clock_started_at = CASE WHEN $2 THEN $3 ELSE clock_started_at END, \
           clock_paused_at = CASE WHEN $4 THEN $3 WHEN $5 THEN NULL ELSE clock_paused_at END, \
           clock_paused_ms = $6, clock_extension_ms = $7, version = version + 1 \
         WHERE id = $1",
    )
    .bind(table_id)
    .bind(matches!(command, Command::Start))
    .bind(now)
    .bind(matches!(command, Command::Pause))
    .bind(matches!(command, Command::Resume))
    .bind(changed.paused_ms)
    .bind(changed.extension_ms)
    .execute(&mut *tx)
    .await?;
    let subject = format!("round {round}, table {table}");
    audit::record(
        &mut *tx,
        audit::Entry::by(actor, action, event_id, &subject, detail),
    )
    .await?;
    if matches!(command, Command::Start) && !begun {
        crate::rounds::mark_begun(&mut tx, actor, event_id, round_id, round).await?;
    }
    // Phones' cached pages (a player's seat and clock) must not outlive this change.
    crate::live::notify(&mut *tx, event_id, crate::live::Topic::Table).await?;
    tx.commit().await?;
    Ok(changed)
}

/// What the head judge does to every clock of a round at once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RoomCommand {
    /// Every clock not started yet starts at the same instant; the round begins.
    StartAll,
    /// Every running clock pauses (a fire alarm, an announcement).
    PauseAll,
    /// Every paused clock runs again.
    ResumeAll,
}

impl RoomCommand {
    fn verb(self) -> &'static str {
        match self {
            RoomCommand::StartAll => "started",
            RoomCommand::PauseAll => "paused",
            RoomCommand::ResumeAll => "resumed",
        }
    }
}

/// What a room command did: the tables it changed, at one instant, and the tables it left as
/// they were, each with the reason (already running, report final, time over…).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RoomOutcome {
    pub round: RoundNumber,
    pub changed: Vec<TableNumber>,
    pub skipped: Vec<(TableNumber, String)>,
    /// The one instant written to every changed table.
    pub at: chrono::DateTime<chrono::Utc>,
}

impl RoomOutcome {
    /// "Clocks started at 4 tables (1, 2, 3, 4)."
    pub fn summary(&self, command: RoomCommand) -> String {
        let list: Vec<String> = self.changed.iter().map(ToString::to_string).collect();
        format!(
            "Clocks {} at {} table{} ({}).",
            command.verb(),
            list.len(),
            if list.len() == 1 { "" } else { "s" },
            list.join(", ")
        )
    }
}

/// Applies `command` to every table of round `number` in one transaction, with one instant
/// (the database's `now()`) for all: a room of fifty tables starts together, not fifty clicks
/// apart. Tables the command does not fit are left as they were and named. Refused when it
/// fits none.
pub async fn apply_all(
    pool: &PgPool,
    actor: &Actor,
    event_id: EventId,
    number: RoundNumber,
    command: RoomCommand,
) -> Result<RoomOutcome, ClockCommandError> {
    let mut tx = pool.begin().await?;
    let round: Option<(i64, bool, chrono::DateTime<chrono::Utc>)> = sqlx::query_as(
        "SELECT id, started_at IS NOT NULL, now() FROM rounds WHERE event_id = $1 AND number = $2 \
         FOR UPDATE",
    )
    .bind(event_id)
    .bind(number)
    .fetch_optional(&mut *tx)
    .await?;
    let (round_id, begun, now) = round.ok_or(ClockCommandError::NotFound)?;
    #[allow(clippy::type_complexity)]
    let rows: Vec<(
        TableId,
        TableNumber,
        Option<chrono::DateTime<chrono::Utc>>,
        Option<chrono::DateTime<chrono::Utc>>,
        i64,
        i64,
        Option<chrono::DateTime<chrono::Utc>>,
        i32,
        Option<i64>,
        i64,
    )> = sqlx::query_as(&format!(
        "SELECT {TABLE_COLUMNS}, (SELECT count(*) FROM seats s WHERE s.table_id = t.id) \
         FROM game_tables t WHERE t.round_id = $1 ORDER BY t.number FOR UPDATE OF t"
    ))
    .bind(round_id)
    .fetch_all(&mut *tx)
    .await?;
    let now_ms = now.timestamp_millis();
    let mut changed = Vec::new();
    let mut skipped = Vec::new();
    for r in rows {
        let row = (r.0, r.1, r.2, r.3, r.4, r.5, r.6, r.7, r.8);
        let clock = clock_of(&row, usize::try_from(r.9).unwrap_or(0));
        let result = match command {
            RoomCommand::StartAll => clock.start(now_ms),
            RoomCommand::PauseAll => clock.pause(now_ms),
            RoomCommand::ResumeAll => clock.resume(now_ms),
        };
        match result {
            Ok(next) => {
                sqlx::query(
                    "UPDATE game_tables SET \
                       clock_started_at = CASE WHEN $2 THEN $3 ELSE clock_started_at END, \
                       clock_paused_at = CASE WHEN $4 THEN $3 WHEN $5 THEN NULL ELSE clock_paused_at END, \
                       clock_paused_ms = $6, version = version + 1 \
                     WHERE id = $1",
                )
                .bind(r.0)
                .bind(command == RoomCommand::StartAll)
                .bind(now)
                .bind(command == RoomCommand::PauseAll)
                .bind(command == RoomCommand::ResumeAll)
                .bind(next.paused_ms)
                .execute(&mut *tx)
                .await?;
                changed.push(r.1);
            }
            Err(error) => skipped.push((r.1, error.to_string())),
        }
    }
    if changed.is_empty() {
        return Err(ClockCommandError::NoneChanged {
            verb: command.verb(),
            why: skipped
                .iter()
                .map(|(t, why)| format!("table {t}: {why}"))
                .collect::<Vec<_>>()
                .join("; "),
        });
    }
    let action = match command {
        RoomCommand::StartAll => audit::Action::ClocksStarted,
        RoomCommand::PauseAll => audit::Action::ClocksPaused,
        RoomCommand::ResumeAll => audit::Action::ClocksResumed,
    };
    let subject = format!("round {number}");
    audit::record(
        &mut *tx,
        audit::Entry::by(
            actor,
            action,
            event_id,
            &subject,
            serde_json::json!({
                "round": number,
                "tables": changed,
                "skipped": skipped.iter().map(|(t, why)| serde_json::json!({ "table": t, "why": why })).collect::<Vec<_>>(),
            }),
        ),
    )
    .await?;
    if command == RoomCommand::StartAll && !begun {
        crate::rounds::mark_begun(&mut tx, actor, event_id, round_id, number).await?;
    }
    crate::live::notify(&mut *tx, event_id, crate::live::Topic::Table).await?;
    tx.commit().await?;
    Ok(RoomOutcome {
        round: number,
        changed,
        skipped,
        at: now,
    })
}

/// Every table's clock in the event's latest round: the projector page.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Board {
    pub round: RoundNumber,
    pub begun: bool,
    pub tables: Vec<BoardTable>,
    pub now_ms: i64,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BoardTable {
    pub number: TableNumber,
    pub clock: Clock,
    pub reported: bool,
}

pub async fn board(pool: &PgPool, event_id: EventId) -> Result<Option<Board>, sqlx::Error> {
    let round: Option<(i64, RoundNumber, bool, chrono::DateTime<chrono::Utc>)> = sqlx::query_as(
        "SELECT id, number, started_at IS NOT NULL, now() FROM rounds WHERE event_id = $1 \
         ORDER BY number DESC LIMIT 1",
    )
    .bind(event_id)
    .fetch_optional(pool)
    .await?;
    let Some((round_id, number, begun, now)) = round else {
        return Ok(None);
    };
    #[allow(clippy::type_complexity)]
    let rows: Vec<(
        TableId,
        TableNumber,
        Option<chrono::DateTime<chrono::Utc>>,
        Option<chrono::DateTime<chrono::Utc>>,
        i64,
        i64,
        Option<chrono::DateTime<chrono::Utc>>,
        i32,
        Option<i64>,
        i64,
    )> = sqlx::query_as(&format!(
        "SELECT {TABLE_COLUMNS}, (SELECT count(*) FROM seats s WHERE s.table_id = t.id) \
         FROM game_tables t WHERE t.round_id = $1 ORDER BY t.number"
    ))
    .bind(round_id)
    .fetch_all(pool)
    .await?;
    let tables = rows
        .into_iter()
        .map(|r| {
            let players = usize::try_from(r.9).unwrap_or(0);
            let row = (r.0, r.1, r.2, r.3, r.4, r.5, r.6, r.7, r.8);
            BoardTable {
                number: r.1,
                clock: clock_of(&row, players),
                reported: r.6.is_some(),
            }
        })
        .collect();
    Ok(Some(Board {
        round: number,
        begun,
        tables,
        now_ms: now.timestamp_millis(),
    }))
}

/// One table's clock and the database's time, for the table's own page; `None` if the event
/// has no such table.
pub async fn of_table(
    pool: &PgPool,
    event_id: EventId,
    round: RoundNumber,
    table: TableNumber,
) -> Result<Option<(Clock, i64)>, sqlx::Error> {
    #[allow(clippy::type_complexity)]
    let row: Option<(
        TableId,
        TableNumber,
        Option<chrono::DateTime<chrono::Utc>>,
        Option<chrono::DateTime<chrono::Utc>>,
        i64,
        i64,
        Option<chrono::DateTime<chrono::Utc>>,
        i32,
        Option<i64>,
        i64,
        chrono::DateTime<chrono::Utc>,
    )> = sqlx::query_as(&format!(
        "SELECT {TABLE_COLUMNS}, (SELECT count(*) FROM seats s WHERE s.table_id = t.id), now() \
         FROM game_tables t JOIN rounds r ON r.id = t.round_id \
         WHERE r.event_id = $1 AND r.number = $2 AND t.number = $3"
    ))
    .bind(event_id)
    .bind(round)
    .bind(table)
    .fetch_optional(pool)
    .await?;
    Ok(row.map(|r| {
        let players = usize::try_from(r.9).unwrap_or(0);
        let table = (r.0, r.1, r.2, r.3, r.4, r.5, r.6, r.7, r.8);
        (clock_of(&table, players), r.10.timestamp_millis())
    }))
}
