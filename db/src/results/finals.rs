//! Closing qualifying and settling a tie across the cut line by a recorded, seeded draw
//! (rulings 4, 11 and 13).

use sqlx::PgPool;
use tournament::PlayerName;
use tournament::ids::{EventId, PlayerId};

use super::{ResultsError, qualifying::Closed, standings};
use crate::{audit, live, roles::Actor, rounds::records};

/// The head judge closes qualifying: from then on no qualifying round starts, and the finals
/// list is the standings' finals line. Refused while a table of the event has no final report,
/// and, while qualifying rounds remain undrawn, unless the head judge confirms closing early
/// (`early_confirmed`): the refusal says how many remain.
pub async fn close_qualifying(
    pool: &PgPool,
    actor: &Actor,
    event_id: EventId,
    early_confirmed: bool,
) -> Result<Closed, ResultsError> {
    let mut tx = pool.begin().await?;
    // One closing at a time: the event row is the lock.
    let planned: Option<i32> =
        sqlx::query_scalar("SELECT qualifying_rounds FROM events WHERE id = $1 FOR UPDATE")
            .bind(event_id)
            .fetch_optional(&mut *tx)
            .await?;
    let planned = planned.ok_or(ResultsError::NotFound)?;
    let drawn: i64 = sqlx::query_scalar("SELECT count(*) FROM rounds WHERE event_id = $1")
        .bind(event_id)
        .fetch_one(&mut *tx)
        .await?;
    let drawn = i32::try_from(drawn).unwrap_or(i32::MAX);
    let remaining = planned.saturating_sub(drawn).max(0);
    let already: Option<i64> =
        sqlx::query_scalar("SELECT event_id FROM finals WHERE event_id = $1")
            .bind(event_id)
            .fetch_optional(&mut *tx)
            .await?;
    if already.is_some() {
        return Err(ResultsError::State("Qualifying is already closed.".into()));
    }
    let missing: Vec<(i32, i32)> = sqlx::query_as(
        "SELECT r.number, t.number FROM game_tables t JOIN rounds r ON r.id = t.round_id \
         WHERE r.event_id = $1 AND t.reported_at IS NULL ORDER BY r.number, t.number",
    )
    .bind(event_id)
    .fetch_all(&mut *tx)
    .await?;
    if !missing.is_empty() {
        let list: Vec<String> = missing
            .iter()
            .map(|(r, t)| format!("round {r} table {t}"))
            .collect();
        return Err(ResultsError::State(format!(
            "Qualifying cannot close while reports are not final: {}.",
            list.join(", ")
        )));
    }
    let standings = standings::event_standings_on(&mut tx, event_id).await?;
    if standings.rounds == 0 {
        return Err(ResultsError::State(
            "No round has been played yet; there is nothing to qualify from.".into(),
        ));
    }
    if remaining > 0 && !early_confirmed {
        let rounds: Vec<String> = (drawn + 1..=planned).map(|n| n.to_string()).collect();
        return Err(ResultsError::field(
            "confirm",
            format!(
                "{remaining} of the {planned} qualifying rounds {} not been played (round{} {}). \
                 Closing now ends qualifying after round {drawn}: tick the box to confirm.",
                if remaining == 1 { "has" } else { "have" },
                if remaining == 1 { "" } else { "s" },
                rounds.join(", ")
            ),
        ));
    }
    let finalists: Vec<PlayerId> = standings
        .rows
        .iter()
        .filter(|r| r.finalist == Some(true))
        .map(|r| r.player_id)
        .collect();
    let tied: Vec<PlayerId> = standings
        .rows
        .iter()
        .filter(|r| r.finalist.is_none())
        .map(|r| r.player_id)
        .collect();
    let open_seats = standings.cut_tie.as_ref().map_or(0, |t| t.1);
    sqlx::query(
        "INSERT INTO finals (event_id, closed_by, finalists, tied, open_seats) VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(event_id)
    .bind(actor.user_id)
    .bind(&finalists)
    .bind(&tied)
    .bind(i32::try_from(open_seats).unwrap_or(i32::MAX))
    .execute(&mut *tx)
    .await?;
    audit::record(
        &mut *tx,
        audit::Entry::by(
            actor,
            audit::Action::QualifyingClosed,
            event_id,
            "finals",
            serde_json::json!({
                "finalists": finalists, "tied": tied, "open_seats": open_seats,
                "rounds_played": drawn, "rounds_planned": planned,
            }),
        ),
    )
    .await?;
    live::notify(&mut *tx, event_id, live::Topic::Standings).await?;
    tx.commit().await?;
    closed_now(
        pool,
        event_id,
        "Qualifying closed but could not be read back.",
    )
    .await
}

/// The closing record as the standings show it (the finals list derived from them).
async fn closed_now(
    pool: &PgPool,
    event_id: EventId,
    missing: &str,
) -> Result<Closed, ResultsError> {
    standings::event_standings(pool, event_id)
        .await?
        .closed
        .ok_or_else(|| ResultsError::State(missing.to_owned()))
}

/// The head judge reopens qualifying (closed too early, or by mistake): rounds may be drawn
/// again and the cut-line draw, if made, no longer holds. The closing record, draw included, is
/// kept in the audit log. A final table drawn but not yet reported is withdrawn with it
/// (audited); once the final report is final, reopening is refused. When results are already
/// recorded at the final table (a report awaiting confirmation, win attempts, a log), reopening
/// needs `confirmed`: the refusal names them, and the audit entry keeps a full copy.
pub async fn reopen_qualifying(
    pool: &PgPool,
    actor: &Actor,
    event_id: EventId,
    confirmed: bool,
) -> Result<(), ResultsError> {
    let mut tx = pool.begin().await?;
    sqlx::query("SELECT id FROM events WHERE id = $1 FOR UPDATE")
        .bind(event_id)
        .execute(&mut *tx)
        .await?;
    let Some(record) = super::qualifying::closed_on(&mut tx, event_id).await? else {
        return Err(ResultsError::State("Qualifying is open already.".into()));
    };
    // The final table, if drawn, goes with the closing it was drawn from, until its report is
    // final: from then on the event's placings stand and qualifying stays closed.
    let final_round: Option<(i64, i32, i64, bool)> = sqlx::query_as(
        "SELECT r.id, r.number, r.seed, EXISTS (SELECT 1 FROM game_tables t \
           WHERE t.round_id = r.id AND t.reported_at IS NOT NULL) \
         FROM rounds r WHERE r.event_id = $1 AND r.final FOR UPDATE",
    )
    .bind(event_id)
    .fetch_optional(&mut *tx)
    .await?;
    if let Some((round_id, number, seed, reported)) = final_round {
        if reported {
            return Err(ResultsError::State(
                "The final table's report is final, so the placings stand and qualifying stays closed. A correction to the final report is made on its table page."
                    .into(),
            ));
        }
        let recorded = records::of_round(&mut tx, round_id).await?;
        if !recorded.is_empty() && !confirmed {
            return Err(ResultsError::field(
                "confirm",
                format!(
                    "Reopening qualifying withdraws the final table, and with it what is recorded \
                     there: {}. The audit log keeps a full copy. Tick the box to confirm.",
                    recorded.sentences().join("; ")
                ),
            ));
        }
        sqlx::query("DELETE FROM rounds WHERE id = $1")
            .bind(round_id)
            .execute(&mut *tx)
            .await?;
        let mut detail = serde_json::json!({ "round": number, "seed": seed.to_string(),
            "reason": "qualifying reopened" });
        if !recorded.is_empty() {
            detail["removed"] = serde_json::json!(recorded.sentences());
            detail["records"] = recorded.content();
        }
        audit::record(
            &mut *tx,
            audit::Entry::by(
                actor,
                audit::Action::FinalTableWithdrawn,
                event_id,
                "final table",
                detail,
            ),
        )
        .await?;
        live::notify(&mut *tx, event_id, live::Topic::Table).await?;
    }
    sqlx::query("DELETE FROM finals WHERE event_id = $1")
        .bind(event_id)
        .execute(&mut *tx)
        .await?;
    audit::record(
        &mut *tx,
        audit::Entry::by(
            actor,
            audit::Action::QualifyingReopened,
            event_id,
            "finals",
            serde_json::json!({
                "closed_at": record.closed_at, "closed_by": record.closed_by,
                "finalists": record.finalists, "tied": record.tied,
                "open_seats": record.open_seats,
                "draw": record.draw.map(|d| serde_json::json!({ "seed": d.seed, "picked": d.picked })),
            }),
        ),
    )
    .await?;
    live::notify(&mut *tx, event_id, live::Topic::Standings).await?;
    tx.commit().await?;
    Ok(())
}

/// The head judge draws who of the tied players takes the open finals seats. The seed is
/// stored with the pick, so the draw can be re-run in front of the players.
pub async fn draw_cut(
    pool: &PgPool,
    actor: &Actor,
    event_id: EventId,
    seed: Option<u64>,
) -> Result<Closed, ResultsError> {
    let mut tx = pool.begin().await?;
    let row: Option<(Vec<i64>, i32, Option<i64>)> = sqlx::query_as(
        "SELECT tied, open_seats, draw_seed FROM finals WHERE event_id = $1 FOR UPDATE",
    )
    .bind(event_id)
    .fetch_optional(&mut *tx)
    .await?;
    let Some((stored_tied, stored_open, drawn)) = row else {
        return Err(ResultsError::State(
            "Close qualifying first: the draw settles a tie across the final cut.".into(),
        ));
    };
    // The tie as the standings give it now (a correction after closing may have moved it).
    let now = standings::event_standings_on(&mut tx, event_id).await?;
    let mut tied: Vec<i64> = now
        .rows
        .iter()
        .filter(|r| r.finalist.is_none())
        .map(|r| r.player_id.get())
        .collect();
    let open_seats = now
        .cut_tie
        .as_ref()
        .map_or(0, |t| i32::try_from(t.1).unwrap_or(i32::MAX));
    if tied.is_empty() {
        return Err(ResultsError::State(
            "There is no tie across the cut line to draw.".into(),
        ));
    }
    let mut before = stored_tied.clone();
    before.sort_unstable();
    tied.sort_unstable();
    if drawn.is_some() && before == tied && stored_open == open_seats {
        return Err(ResultsError::State(
            "The cut-line draw has been made already; it is final.".into(),
        ));
    }
    sqlx::query("UPDATE finals SET tied = $2, open_seats = $3 WHERE event_id = $1")
        .bind(event_id)
        .bind(&tied)
        .bind(open_seats)
        .execute(&mut *tx)
        .await?;
    let seed = match seed {
        Some(s) if s <= crate::rounds::MAX_SEED => s,
        Some(_) => {
            return Err(ResultsError::field(
                "seed",
                format!(
                    "A seed is a whole number from 0 to {}.",
                    crate::rounds::MAX_SEED
                ),
            ));
        }
        None => crate::rounds::fresh_seed(),
    };
    let names: Vec<(i64, String)> =
        sqlx::query_as("SELECT id, name FROM players WHERE id = ANY($1)")
            .bind(&tied)
            .fetch_all(&mut *tx)
            .await?;
    let pool_names: Vec<PlayerName> = names
        .iter()
        .filter_map(|(_, n)| PlayerName::parse(n).ok())
        .collect();
    let picked_names =
        tournament::finals::draw_cut(&pool_names, usize::try_from(open_seats).unwrap_or(0), seed);
    let picked: Vec<i64> = picked_names
        .iter()
        .filter_map(|p| {
            names
                .iter()
                .find(|(_, n)| n == p.as_str())
                .map(|(id, _)| *id)
        })
        .collect();
    let stored_seed = i64::try_from(seed).unwrap_or(i64::MAX);
    sqlx::query(
        "UPDATE finals SET draw_seed = $2, drawn = $3, drawn_by = $4, drawn_at = now() WHERE event_id = $1",
    )
    .bind(event_id)
    .bind(stored_seed)
    .bind(&picked)
    .bind(actor.user_id)
    .execute(&mut *tx)
    .await?;
    let picked_text: Vec<&str> = picked_names.iter().map(PlayerName::as_str).collect();
    audit::record(
        &mut *tx,
        audit::Entry::by(
            actor,
            audit::Action::FinalsTieDrawn,
            event_id,
            "finals",
            serde_json::json!({ "seed": stored_seed, "picked": picked_text, "open_seats": open_seats }),
        ),
    )
    .await?;
    live::notify(&mut *tx, event_id, live::Topic::Standings).await?;
    tx.commit().await?;
    closed_now(
        pool,
        event_id,
        "The draw was made but could not be read back.",
    )
    .await
}
