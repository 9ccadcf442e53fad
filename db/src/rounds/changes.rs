//! The head judge's changes to a drawn round before play begins: redraw, seat swap, begin,
//! cancel. Each names the round's version it was based on and goes to the audit log.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use sqlx::{PgPool, Postgres, Transaction};
use tournament::ids::{EventId, PlayerId, RoundNumber, TableId, TableNumber};
use tournament::{DrawRequest, Ruleset, RulingOptions, draw_round};

use super::draw::{history, insert_draw, table_sizes};
use super::records;
use super::*;
use crate::{
    audit,
    events::{parse_options, parse_ruleset},
    roles::Actor,
};

/// The round row, locked, if it is still at `version` and play has not begun.
async fn lock_unbegun(
    tx: &mut Transaction<'_, Postgres>,
    event_id: EventId,
    number: RoundNumber,
    version: i32,
) -> Result<(i64, i64, serde_json::Value, String), RoundError> {
    // The event first, in the same order as `start`, so the two never deadlock.
    sqlx::query("SELECT id FROM events WHERE id = $1 FOR UPDATE")
        .bind(event_id)
        .execute(&mut **tx)
        .await?;
    #[allow(clippy::type_complexity)]
    let row: Option<(
        i64,
        i64,
        serde_json::Value,
        String,
        i32,
        Option<DateTime<Utc>>,
    )> = sqlx::query_as(
        "SELECT id, seed, options, ruleset, version, started_at FROM rounds \
             WHERE event_id = $1 AND number = $2 FOR UPDATE",
    )
    .bind(event_id)
    .bind(number)
    .fetch_optional(&mut **tx)
    .await?;
    let (id, seed, options, ruleset, current, started_at) = row.ok_or(RoundError::NotFound)?;
    if current != version {
        return Err(RoundError::Stale(number));
    }
    if started_at.is_some() {
        return Err(RoundError::Begun(number));
    }
    Ok((id, seed, options, ruleset))
}

/// Draws the round again with a new seed: the same players (less any who dropped since) and the
/// same byes, with the same ruling-1 choice.
pub async fn redraw(
    pool: &PgPool,
    actor: &Actor,
    event_id: EventId,
    number: RoundNumber,
    version: i32,
    seed: Option<u64>,
) -> Result<(), RoundError> {
    let mut tx = pool.begin().await?;
    let (round_id, old_seed, options, ruleset) =
        lock_unbegun(&mut tx, event_id, number, version).await?;
    let is_final: bool = sqlx::query_scalar("SELECT final FROM rounds WHERE id = $1")
        .bind(round_id)
        .fetch_one(&mut *tx)
        .await?;
    if is_final {
        return Err(RoundError::FinalRedraw(number));
    }
    // A redraw deletes the round's tables: it never takes a recorded result with them.
    let recorded = records::of_round(&mut tx, round_id).await?;
    if !recorded.is_empty() {
        return Err(RoundError::RecordedRedraw {
            round: number,
            what: recorded.sentences(),
        });
    }
    let options: RulingOptions = parse_options(options)?;
    let ruleset: Ruleset = parse_ruleset(&ruleset)?;
    let rows: Vec<(PlayerId, String, bool)> = sqlx::query_as(
        "SELECT p.id, p.name, b.player_id IS NOT NULL FROM players p \
         LEFT JOIN round_byes b ON b.round_id = $1 AND b.player_id = p.id \
         WHERE p.dropped_after_round IS NULL AND (b.player_id IS NOT NULL \
            OR p.id IN (SELECT player_id FROM seats WHERE round_id = $1))",
    )
    .bind(round_id)
    .fetch_all(&mut *tx)
    .await?;
    let mut players = Vec::new();
    let mut byes = Vec::new();
    let mut ids = HashMap::new();
    for (id, name, bye) in rows {
        let name = player_name(&name)?;
        if bye {
            byes.push(name.clone());
        }
        players.push(name.clone());
        ids.insert(name, id);
    }
    let history = history(&mut tx, event_id, number).await?;
    let seed = seed.unwrap_or_else(random_seed);
    let seed_db = seed_to_db(seed)?;
    let round = draw_round(&DrawRequest {
        seed,
        ruleset,
        players: &players,
        byes: &byes,
        history: &history,
        options: &options,
    })?;
    sqlx::query("DELETE FROM game_tables WHERE round_id = $1")
        .bind(round_id)
        .execute(&mut *tx)
        .await?;
    sqlx::query("DELETE FROM round_byes WHERE round_id = $1")
        .bind(round_id)
        .execute(&mut *tx)
        .await?;
    insert_draw(&mut tx, round_id, &round, &ids).await?;
    let quality =
        serde_json::to_value(round.quality).map_err(|e| sqlx::Error::Encode(Box::new(e)))?;
    sqlx::query(
        "UPDATE rounds SET seed = $2, quality = $3, drawn_at = now(), drawn_by = $4, \
         version = version + 1 WHERE id = $1",
    )
    .bind(round_id)
    .bind(seed_db)
    .bind(&quality)
    .bind(actor.user_id)
    .execute(&mut *tx)
    .await?;
    audit::record(
        &mut *tx,
        audit::Entry::by(
            actor,
            audit::Action::RoundRedrawn,
            event_id,
            &format!("round {number}"),
            serde_json::json!({
                "round": number,
                "previous_seed": old_seed.to_string(),
                "seed": seed.to_string(),
                "tables": table_sizes(&round),
            }),
        ),
    )
    .await?;
    // Phones' cached pages (a player's seat and clock) must not outlive this change.
    crate::live::notify(&mut *tx, event_id, crate::live::Topic::Table).await?;
    tx.commit().await?;
    Ok(())
}

/// Where a player sits, for the audit trail: "Alice (table 2, seat 3)".
async fn place(
    tx: &mut Transaction<'_, Postgres>,
    round_id: i64,
    player_id: PlayerId,
) -> Result<Option<(String, TableNumber, i16)>, sqlx::Error> {
    sqlx::query_as(
        "SELECT p.name, t.number, s.seat FROM seats s JOIN players p ON p.id = s.player_id \
         JOIN game_tables t ON t.id = s.table_id WHERE s.round_id = $1 AND s.player_id = $2",
    )
    .bind(round_id)
    .bind(player_id)
    .fetch_optional(&mut **tx)
    .await
}

/// Two players exchange places: each takes the other's table, seat, player circle and faction.
pub async fn swap(
    pool: &PgPool,
    actor: &Actor,
    event_id: EventId,
    number: RoundNumber,
    version: i32,
    a: PlayerId,
    b: PlayerId,
) -> Result<(), RoundError> {
    if a == b {
        return Err(RoundError::field("second", "Choose two different players."));
    }
    let mut tx = pool.begin().await?;
    let (round_id, ..) = lock_unbegun(&mut tx, event_id, number, version).await?;
    let Some(first) = place(&mut tx, round_id, a).await? else {
        return Err(RoundError::field(
            "first",
            format!("That player has no seat in round {number}."),
        ));
    };
    let Some(second) = place(&mut tx, round_id, b).await? else {
        return Err(RoundError::field(
            "second",
            format!("That player has no seat in round {number}."),
        ));
    };
    // What is recorded at a table names its players by seat and faction: a swap there would
    // leave a report or a win attempt naming someone who no longer sits at it.
    let tables: Vec<TableId> = sqlx::query_scalar(
        "SELECT DISTINCT table_id FROM seats WHERE round_id = $1 AND player_id IN ($2, $3)",
    )
    .bind(round_id)
    .bind(a)
    .bind(b)
    .fetch_all(&mut *tx)
    .await?;
    let recorded = records::of_round(&mut tx, round_id).await?.at(&tables);
    if !recorded.is_empty() {
        return Err(RoundError::RecordedSwap {
            what: recorded.sentences(),
        });
    }
    sqlx::query(
        "UPDATE seats SET player_id = CASE player_id WHEN $2 THEN $3 ELSE $2 END \
         WHERE round_id = $1 AND player_id IN ($2, $3)",
    )
    .bind(round_id)
    .bind(a)
    .bind(b)
    .execute(&mut *tx)
    .await?;
    sqlx::query("UPDATE rounds SET version = version + 1 WHERE id = $1")
        .bind(round_id)
        .execute(&mut *tx)
        .await?;
    let describe = |(name, table, seat): &(String, TableNumber, i16)| {
        format!("{name} (table {table}, seat {seat})")
    };
    audit::record(
        &mut *tx,
        audit::Entry::by(
            actor,
            audit::Action::SeatsSwapped,
            event_id,
            &format!("round {number}"),
            serde_json::json!({
                "round": number,
                "first": describe(&first),
                "second": describe(&second),
            }),
        ),
    )
    .await?;
    // Phones' cached pages (a player's seat and clock) must not outlive this change.
    crate::live::notify(&mut *tx, event_id, crate::live::Topic::Table).await?;
    tx.commit().await?;
    Ok(())
}

/// Locks the seats: play begins.
pub async fn begin(
    pool: &PgPool,
    actor: &Actor,
    event_id: EventId,
    number: RoundNumber,
    version: i32,
) -> Result<(), RoundError> {
    let mut tx = pool.begin().await?;
    let (round_id, ..) = lock_unbegun(&mut tx, event_id, number, version).await?;
    mark_begun(&mut tx, actor, event_id, round_id, number).await?;
    // Phones' cached pages (a player's seat and clock) must not outlive this change.
    crate::live::notify(&mut *tx, event_id, crate::live::Topic::Table).await?;
    tx.commit().await?;
    Ok(())
}

pub(crate) async fn mark_begun(
    tx: &mut Transaction<'_, Postgres>,
    actor: &Actor,
    event_id: EventId,
    round_id: i64,
    number: RoundNumber,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE rounds SET started_at = now(), version = version + 1 WHERE id = $1 AND started_at IS NULL",
    )
    .bind(round_id)
    .execute(&mut **tx)
    .await?;
    audit::record(
        &mut **tx,
        audit::Entry::by(
            actor,
            audit::Action::RoundBegun,
            event_id,
            &format!("round {number}"),
            serde_json::json!({ "round": number }),
        ),
    )
    .await
}

/// What is recorded at a round's tables, for the page that offers to change the round: a
/// redraw is refused while there is any, a cancellation names it and asks.
pub async fn recorded(
    pool: &PgPool,
    event_id: EventId,
    number: RoundNumber,
) -> Result<records::RoundRecords, sqlx::Error> {
    let mut conn = pool.acquire().await?;
    let round_id: Option<i64> =
        sqlx::query_scalar("SELECT id FROM rounds WHERE event_id = $1 AND number = $2")
            .bind(event_id)
            .bind(number)
            .fetch_optional(&mut *conn)
            .await?;
    match round_id {
        Some(id) => records::of_round(&mut conn, id).await,
        None => Ok(records::RoundRecords::default()),
    }
}

/// Withdraws the latest round before play begins (a wrong player list, say). Alternates it
/// registered stay registered. Anything already recorded at its tables (a report saved early,
/// a win attempt, a game log) goes with it only when `confirmed`: unconfirmed, the refusal
/// names what would go; confirmed, the audit entry keeps a full copy of it.
pub async fn cancel(
    pool: &PgPool,
    actor: &Actor,
    event_id: EventId,
    number: RoundNumber,
    version: i32,
    confirmed: bool,
) -> Result<(), RoundError> {
    let mut tx = pool.begin().await?;
    let (round_id, seed, ..) = lock_unbegun(&mut tx, event_id, number, version).await?;
    let latest: RoundNumber =
        sqlx::query_scalar("SELECT max(number) FROM rounds WHERE event_id = $1")
            .bind(event_id)
            .fetch_one(&mut *tx)
            .await?;
    if latest != number {
        return Err(RoundError::NotLatest(number));
    }
    let is_final: bool = sqlx::query_scalar("SELECT final FROM rounds WHERE id = $1")
        .bind(round_id)
        .fetch_one(&mut *tx)
        .await?;
    let recorded = records::of_round(&mut tx, round_id).await?;
    if !recorded.is_empty() && !confirmed {
        return Err(RoundError::field(
            "confirm",
            format!(
                "Cancelling {} also removes what is recorded at its tables: {}. The audit log \
                 keeps a full copy. Tick the box to confirm.",
                if is_final {
                    "the final table".to_owned()
                } else {
                    format!("round {number}")
                },
                records::list(&recorded.sentences())
            ),
        ));
    }
    sqlx::query("DELETE FROM rounds WHERE id = $1")
        .bind(round_id)
        .execute(&mut *tx)
        .await?;
    let mut detail = serde_json::json!({ "round": number, "seed": seed.to_string() });
    if !recorded.is_empty() {
        detail["removed"] = serde_json::json!(recorded.sentences());
        detail["records"] = recorded.content();
    }
    audit::record(
        &mut *tx,
        audit::Entry::by(
            actor,
            audit::Action::RoundCancelled,
            event_id,
            &format!("round {number}"),
            detail,
        ),
    )
    .await?;
    // Phones' cached pages (a player's seat and clock) must not outlive this change.
    crate::live::notify(&mut *tx, event_id, crate::live::Topic::Table).await?;
    tx.commit().await?;
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Reading
