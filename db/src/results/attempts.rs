//! Win attempts (4.01.04, ruling 6): at each Battle phase a judge records who made one.

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use dune::Stronghold;
use serde::Serialize;
use sqlx::{PgConnection, PgPool};
use tournament::attempts::{self as rules, AttemptField};
use tournament::ids::{EventId, PlayerId, Revision, RoundNumber, TableId, TableNumber};
use tournament::report::capitalised;

use super::table::corrupt;
use super::{Field, FieldProblem, ResultsError, TableContext, reason_of, table};
use crate::{audit, live, roles::Actor};

/// One player's attempt: who, and the strongholds the judge saw (may be none).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Attempt {
    pub player_id: PlayerId,
    pub strongholds: Vec<Stronghold>,
}

/// A turn's record, one revision of it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TurnRecord {
    pub turn: u32,
    pub revision: Revision,
    pub attempts: Vec<Attempt>,
    pub reason: Option<String>,
    pub recorded_by: Option<String>,
    pub recorded_at: DateTime<Utc>,
}

/// A request to record one turn. `base_revision` is the revision the judge's page showed for
/// that turn (none yet: [`Revision::NONE`]), so a record someone else saved meanwhile is not
/// silently replaced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TurnEntry {
    pub turn: u32,
    pub base_revision: Revision,
    pub attempts: Vec<Attempt>,
    pub reason: Option<String>,
}

type Row = (
    i16,
    Revision,
    Vec<PlayerId>,
    serde_json::Value,
    Option<String>,
    Option<String>,
    DateTime<Utc>,
);

fn record_of(row: Row) -> Result<TurnRecord, sqlx::Error> {
    let (turn, revision, players, evidence, reason, by, at) = row;
    let turn = u32::try_from(turn).map_err(|_| corrupt("turn", &turn.to_string()))?;
    let attempts = players
        .into_iter()
        .map(|player_id| {
            let strongholds = match evidence.get(player_id.to_string()) {
                None => Vec::new(),
                Some(v) => serde_json::from_value(v.clone())
                    .map_err(|e| sqlx::Error::Decode(Box::new(e)))?,
            };
            Ok(Attempt {
                player_id,
                strongholds,
            })
        })
        .collect::<Result<_, sqlx::Error>>()?;
    Ok(TurnRecord {
        turn,
        revision,
        attempts,
        reason,
        recorded_by: by,
        recorded_at: at,
    })
}

const SELECT: &str = "SELECT w.turn, w.revision, w.players, w.evidence, w.reason, u.username, w.recorded_at \
     FROM win_attempts w LEFT JOIN users u ON u.id = w.recorded_by";

/// Every revision of every turn at the table, turn by turn, newest revision first.
pub(crate) async fn history(
    db: &mut PgConnection,
    table_id: TableId,
) -> Result<Vec<TurnRecord>, sqlx::Error> {
    let rows: Vec<Row> = sqlx::query_as(&format!(
        "{SELECT} WHERE w.table_id = $1 ORDER BY w.turn, w.revision DESC"
    ))
    .bind(table_id)
    .fetch_all(&mut *db)
    .await?;
    rows.into_iter().map(record_of).collect()
}

/// The record of each turn: its latest revision.
pub fn latest(history: &[TurnRecord]) -> Vec<&TurnRecord> {
    let mut by_turn: BTreeMap<u32, &TurnRecord> = BTreeMap::new();
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
pub fn counts(history: &[TurnRecord], last_turn: Option<u32>) -> BTreeMap<PlayerId, u32> {
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

/// The latest records as the report's rules read them: each turn with the seats (positions in
/// seat order) that made an attempt. A player no longer seated here is left out.
pub(crate) fn by_seat(
    table: &TableContext,
    latest: &[(u32, Vec<PlayerId>)],
) -> Vec<(u32, Vec<usize>)> {
    latest
        .iter()
        .map(|(turn, players)| {
            (
                *turn,
                players
                    .iter()
                    .filter_map(|p| table.position_of(*p))
                    .collect(),
            )
        })
        .collect()
}

/// The latest record of each recorded turn of these tables: (table id, turn, players).
pub(crate) async fn latest_turns(
    db: &mut PgConnection,
    table_ids: &[TableId],
) -> Result<Vec<(TableId, u32, Vec<PlayerId>)>, sqlx::Error> {
    let rows: Vec<(TableId, i16, Vec<PlayerId>)> = sqlx::query_as(
        "SELECT DISTINCT ON (table_id, turn) table_id, turn, players FROM win_attempts \
         WHERE table_id = ANY($1) ORDER BY table_id, turn, revision DESC",
    )
    .bind(table_ids)
    .fetch_all(&mut *db)
    .await?;
    rows.into_iter()
        .map(|(table, turn, players)| {
            let turn = u32::try_from(turn).map_err(|_| corrupt("turn", &turn.to_string()))?;
            Ok((table, turn, players))
        })
        .collect()
}

/// Latest win-attempt counts for many tables at once: (table id, player id) → count, turns
/// after the table's last turn left out by the caller's `last_turn`.
pub(crate) async fn counts_for_tables(
    db: &mut PgConnection,
    tables: &[(TableId, u32)],
) -> Result<BTreeMap<(TableId, PlayerId), u32>, sqlx::Error> {
    let ids: Vec<TableId> = tables.iter().map(|&(t, _)| t).collect();
    let last: BTreeMap<TableId, u32> = tables.iter().copied().collect();
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
#[allow(clippy::too_many_arguments)]
pub async fn record(
    pool: &PgPool,
    actor: &Actor,
    may_override: bool,
    event_id: EventId,
    round: RoundNumber,
    table: TableNumber,
    entry: TurnEntry,
) -> Result<Revision, ResultsError> {
    let mut tx = pool.begin().await?;
    let table = table::lock(&mut tx, event_id, round, table).await?;
    // Players become seats; one not seated here becomes a seat past the table's last, which
    // the rules refuse as a seat the table does not have.
    let by_seat: Vec<rules::Attempt> = entry
        .attempts
        .iter()
        .map(|a| rules::Attempt {
            seat: table.position_of(a.player_id).unwrap_or(usize::MAX),
            strongholds: a.strongholds.clone(),
        })
        .collect();
    let problems: Vec<FieldProblem> = rules::check_turn(entry.turn, &by_seat, table.seats.len())
        .into_iter()
        .map(|(field, problem)| FieldProblem {
            field: Field::Attempt(field),
            message: match field {
                AttemptField::Seat(i) => format!("{}: {problem}.", table.seats[i].player),
                _ => capitalised(&format!("{problem}.")),
            },
        })
        .collect();
    if !problems.is_empty() {
        return Err(ResultsError::Invalid(problems));
    }
    // Checked above: a turn from 1 to 10.
    let turn = i16::try_from(entry.turn)
        .map_err(|_| ResultsError::field("turn", "Pick a turn from 1 to 10."))?;
    let current: Option<(Revision, Option<String>)> = sqlx::query_as(
        "SELECT w.revision, u.username FROM win_attempts w LEFT JOIN users u ON u.id = w.recorded_by \
         WHERE w.table_id = $1 AND w.turn = $2 ORDER BY w.revision DESC LIMIT 1",
    )
    .bind(table.table_id)
    .bind(turn)
    .fetch_optional(&mut *tx)
    .await?;
    let current_revision = current.as_ref().map_or(Revision::NONE, |c| c.0);
    if current_revision != entry.base_revision {
        let by = super::credited(
            &mut tx,
            event_id,
            &["win_attempts_recorded"],
            serde_json::json!({
                "round": table.round, "table": table.table, "turn": entry.turn,
                "revision": current_revision,
            }),
            current.and_then(|c| c.1),
        )
        .await?;
        return Err(ResultsError::Changed {
            what: "The win-attempt record of this turn",
            revision: current_revision,
            by,
        });
    }
    let reason = reason_of(entry.reason.as_deref());
    if current_revision != Revision::NONE && reason.is_none() {
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
    let mut players: Vec<PlayerId> = entry.attempts.iter().map(|a| a.player_id).collect();
    players.sort_unstable();
    let evidence: serde_json::Map<String, serde_json::Value> = entry
        .attempts
        .iter()
        .filter(|a| !a.strongholds.is_empty())
        .map(|a| (a.player_id.to_string(), serde_json::json!(a.strongholds)))
        .collect();
    let revision = current_revision.next();
    sqlx::query(
        "INSERT INTO win_attempts (table_id, turn, revision, players, evidence, reason, recorded_by) \
         VALUES ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(table.table_id)
    .bind(turn)
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
