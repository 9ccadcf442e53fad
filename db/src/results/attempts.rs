//! Win attempts (4.01.04, ruling 6): at each Battle phase a judge records who made one.

use std::collections::{BTreeMap, BTreeSet};

use chrono::{DateTime, Utc};
use serde::Serialize;
use sqlx::{PgConnection, PgPool};

use super::{ResultsError, reason_of, stronghold_name, table};
use crate::{audit, live, roles::Actor};

/// The last turn of a game (1.09.05).
pub const LAST_TURN: i16 = 10;

/// One player's attempt: who, and the strongholds the judge saw (may be empty).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Attempt {
    pub player_id: i64,
    pub strongholds: Vec<String>,
}

/// A turn's record, one revision of it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TurnRecord {
    pub turn: i16,
    pub revision: i32,
    pub attempts: Vec<Attempt>,
    pub reason: Option<String>,
    pub recorded_by: Option<String>,
    pub recorded_at: DateTime<Utc>,
}

/// A request to record one turn. `base_revision` is the revision the judge's page showed for
/// that turn (0: none), so a record someone else saved meanwhile is not silently replaced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TurnEntry {
    pub turn: i16,
    pub base_revision: i32,
    pub attempts: Vec<Attempt>,
    pub reason: Option<String>,
}

type Row = (
    i16,
    i32,
    Vec<i64>,
    serde_json::Value,
    Option<String>,
    Option<String>,
    DateTime<Utc>,
);

fn record_of(row: Row) -> TurnRecord {
    let (turn, revision, players, evidence, reason, by, at) = row;
    let attempts = players
        .into_iter()
        .map(|player_id| Attempt {
            player_id,
            strongholds: evidence
                .get(player_id.to_string())
                .and_then(|v| serde_json::from_value(v.clone()).ok())
                .unwrap_or_default(),
        })
        .collect();
    TurnRecord {
        turn,
        revision,
        attempts,
        reason,
        recorded_by: by,
        recorded_at: at,
    }
}

const SELECT: &str = "SELECT w.turn, w.revision, w.players, w.evidence, w.reason, u.username, w.recorded_at \
     FROM win_attempts w LEFT JOIN users u ON u.id = w.recorded_by";

/// Every revision of every turn at the table, turn by turn, newest revision first.
pub async fn history(pool: &PgPool, table_id: i64) -> Result<Vec<TurnRecord>, sqlx::Error> {
    let rows: Vec<Row> = sqlx::query_as(&format!(
        "{SELECT} WHERE w.table_id = $1 ORDER BY w.turn, w.revision DESC"
    ))
    .bind(table_id)
    .fetch_all(pool)
    .await?;
    Ok(rows.into_iter().map(record_of).collect())
}

/// The record of each turn: its latest revision.
pub fn latest(history: &[TurnRecord]) -> Vec<&TurnRecord> {
    let mut by_turn: BTreeMap<i16, &TurnRecord> = BTreeMap::new();
    for record in history {
        by_turn
            .entry(record.turn)
            .and_modify(|r| {
                if record.revision > r.revision {
                    *r = record;
                }
            })
            .or_insert(record);
    }
    by_turn.into_values().collect()
}

/// Win attempts per player up to `last_turn` (a game's later turns never happened).
pub fn counts(history: &[TurnRecord], last_turn: Option<i16>) -> BTreeMap<i64, u32> {
    let mut counts = BTreeMap::new();
    for record in latest(history) {
        if last_turn.is_some_and(|last| record.turn > last) {
            continue;
        }
        for attempt in &record.attempts {
            *counts.entry(attempt.player_id).or_insert(0) += 1;
        }
    }
    counts
}

/// The latest record of each recorded turn of these tables: (table id, turn, players).
pub(crate) async fn latest_turns(
    db: &mut PgConnection,
    table_ids: &[i64],
) -> Result<Vec<(i64, i16, Vec<i64>)>, sqlx::Error> {
    sqlx::query_as(
        "SELECT DISTINCT ON (table_id, turn) table_id, turn, players FROM win_attempts \
         WHERE table_id = ANY($1) ORDER BY table_id, turn, revision DESC",
    )
    .bind(table_ids)
    .fetch_all(&mut *db)
    .await
}

/// Latest win-attempt counts for many tables at once: (table id, player id) → count, turns
/// after the table's last turn left out by the caller's `last_turn`.
pub(crate) async fn counts_for_tables(
    db: &mut PgConnection,
    tables: &[(i64, i16)],
) -> Result<BTreeMap<(i64, i64), u32>, sqlx::Error> {
    let ids: Vec<i64> = tables.iter().map(|&(t, _)| t).collect();
    let last: BTreeMap<i64, i16> = tables.iter().copied().collect();
    let rows = latest_turns(db, &ids).await?;
    let mut counts = BTreeMap::new();
    for (table_id, turn, players) in rows {
        if last.get(&table_id).is_some_and(|&l| turn > l) {
            continue;
        }
        for p in players {
            *counts.entry((table_id, p)).or_insert(0) += 1;
        }
    }
    Ok(counts)
}

/// Records one turn's win attempts as a new revision. Changing a turn already recorded needs a
/// reason; once the table's report is final it also needs the head judge (`may_override`),
/// because the record feeds the first tiebreaker and adjudication.
pub async fn record(
    pool: &PgPool,
    actor: &Actor,
    may_override: bool,
    event_id: i64,
    table_id: i64,
    entry: TurnEntry,
) -> Result<i32, ResultsError> {
    if !(1..=LAST_TURN).contains(&entry.turn) {
        return Err(ResultsError::field(
            "turn",
            format!("Pick a turn from 1 to {LAST_TURN} (1.09.05: the game lasts ten turns)."),
        ));
    }
    let mut tx = pool.begin().await?;
    let table = table::lock(&mut tx, event_id, table_id).await?;
    let mut problems = Vec::new();
    let mut seen = BTreeSet::new();
    for attempt in &entry.attempts {
        let Some(seat) = table.seat_of(attempt.player_id) else {
            problems.push(super::FieldProblem {
                field: "players".into(),
                message: "One of the players ticked does not sit at this table; reload the page."
                    .into(),
            });
            continue;
        };
        if !seen.insert(attempt.player_id) {
            problems.push(super::FieldProblem {
                field: format!("player-{}", attempt.player_id),
                message: format!(
                    "{} is ticked twice; a player makes at most one win attempt per turn (ruling 6).",
                    seat.player
                ),
            });
        }
        for code in &attempt.strongholds {
            if stronghold_name(code).is_none() {
                problems.push(super::FieldProblem {
                    field: format!("evidence-{}", attempt.player_id),
                    message: format!("{code} is not a stronghold; use AK, CA, ST, HS, TS or SW."),
                });
            }
        }
    }
    if !problems.is_empty() {
        return Err(ResultsError::Invalid(problems));
    }
    let current: Option<(i32, Option<String>)> = sqlx::query_as(
        "SELECT w.revision, u.username FROM win_attempts w LEFT JOIN users u ON u.id = w.recorded_by \
         WHERE w.table_id = $1 AND w.turn = $2 ORDER BY w.revision DESC LIMIT 1",
    )
    .bind(table_id)
    .bind(entry.turn)
    .fetch_optional(&mut *tx)
    .await?;
    let current_revision = current.as_ref().map_or(0, |c| c.0);
    if current_revision != entry.base_revision {
        return Err(ResultsError::Changed {
            what: "The win-attempt record of this turn",
            revision: current_revision,
            by: current
                .and_then(|c| c.1)
                .unwrap_or_else(|| "someone".into()),
        });
    }
    let reason = reason_of(entry.reason.as_deref());
    if current_revision > 0 && reason.is_none() {
        return Err(ResultsError::field(
            "reason",
            format!(
                "Turn {} is already recorded; say why it changes (for example \"EM had advisors only in Carthag\").",
                entry.turn
            ),
        ));
    }
    if table.final_report && !may_override {
        return Err(ResultsError::Forbidden(format!(
            "The report of {} is final; only the head judge can change its win attempts (4.01.05).",
            table.label()
        )));
    }
    let mut players: Vec<i64> = entry.attempts.iter().map(|a| a.player_id).collect();
    players.sort_unstable();
    let evidence: serde_json::Map<String, serde_json::Value> = entry
        .attempts
        .iter()
        .filter(|a| !a.strongholds.is_empty())
        .map(|a| (a.player_id.to_string(), serde_json::json!(a.strongholds)))
        .collect();
    let revision = current_revision + 1;
    sqlx::query(
        "INSERT INTO win_attempts (table_id, turn, revision, players, evidence, reason, recorded_by) \
         VALUES ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(table_id)
    .bind(entry.turn)
    .bind(revision)
    .bind(&players)
    .bind(serde_json::Value::Object(evidence))
    .bind(&reason)
    .bind(actor.user_id)
    .execute(&mut *tx)
    .await?;
    let names: Vec<&str> = entry
        .attempts
        .iter()
        .filter_map(|a| table.seat_of(a.player_id).map(|s| s.player.as_str()))
        .collect();
    let subject = format!("{}, turn {}", table.label(), entry.turn);
    audit::record(
        &mut *tx,
        audit::Entry::by(
            actor,
            audit::Action::WinAttemptsRecorded,
            event_id,
            &subject,
            serde_json::json!({
                "round": table.round, "table": table.table, "turn": entry.turn,
                "revision": revision, "players": names, "reason": reason,
            }),
        ),
    )
    .await?;
    live::notify(&mut *tx, event_id, live::Topic::Table).await?;
    if table.final_report {
        live::notify(&mut *tx, event_id, live::Topic::Standings).await?;
    }
    tx.commit().await?;
    Ok(revision)
}
