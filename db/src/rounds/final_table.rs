//! The final table (ruling 13): after qualifying closes, the finalists play one more game. It is
//! stored as the event's last round, marked `final`, so its clock, report, adjudication,
//! disputes and checks are those of every table; the standings leave it out of qualifying.

use std::collections::HashMap;

use sqlx::PgPool;
use tournament::ids::{EventId, PlayerId, RoundNumber};
use tournament::{PlayerName, Round, draw::DrawQuality, finals::seat_final_table};

use super::draw::insert_draw;
use super::*;
use crate::{
    audit,
    events::{parse_options, parse_ruleset},
    results::standings,
    roles::Actor,
};

/// Seats the finalists at the final table: drawn, or in qualifying order, as the event's
/// `final_seating` says. Refused while qualifying is open, while a tie across the cut line is
/// undrawn, or when the final table is drawn already. Returns the final round's number.
pub async fn start_final(
    pool: &PgPool,
    actor: &Actor,
    event_id: EventId,
    seed: Option<u64>,
) -> Result<RoundNumber, RoundError> {
    let mut tx = pool.begin().await?;
    let event: Option<(String, serde_json::Value)> =
        sqlx::query_as("SELECT ruleset, options FROM events WHERE id = $1 FOR UPDATE")
            .bind(event_id)
            .fetch_optional(&mut *tx)
            .await?;
    let (ruleset, options) = event.ok_or(RoundError::NotFound)?;
    let ruleset = parse_ruleset(&ruleset)?;
    let options = parse_options(options)?;
    let drawn: Option<RoundNumber> =
        sqlx::query_scalar("SELECT number FROM rounds WHERE event_id = $1 AND final")
            .bind(event_id)
            .fetch_optional(&mut *tx)
            .await?;
    if let Some(number) = drawn {
        return Err(RoundError::FinalDrawn(number));
    }
    let standings = standings::event_standings_on(&mut tx, event_id).await?;
    let Some(closed) = standings.closed else {
        return Err(RoundError::QualifyingOpen);
    };
    let Some(finalists) = closed.all_finalists() else {
        return Err(RoundError::CutUndrawn);
    };
    let players: Vec<(PlayerId, String)> =
        sqlx::query_as("SELECT id, name FROM players WHERE event_id = $1")
            .bind(event_id)
            .fetch_all(&mut *tx)
            .await?;
    let mut ids: HashMap<PlayerName, PlayerId> = HashMap::new();
    let mut order = Vec::with_capacity(finalists.len());
    for name in &finalists {
        let name = player_name(name)?;
        let id = players
            .iter()
            .find(|(_, n)| n == name.as_str())
            .map(|(id, _)| *id)
            .ok_or_else(|| {
                sqlx::Error::Protocol(format!("the finals list names {name}, who is not a player"))
            })?;
        ids.insert(name.clone(), id);
        order.push(name);
    }
    let seed = seed.unwrap_or_else(random_seed);
    let seed_db = seed_to_db(seed)?;
    let table = seat_final_table(&order, options.final_seating, ruleset, &options, seed)
        .map_err(|e| RoundError::field("finals", e.to_string()))?;
    let number: RoundNumber =
        sqlx::query_scalar("SELECT coalesce(max(number), 0) + 1 FROM rounds WHERE event_id = $1")
            .bind(event_id)
            .fetch_one(&mut *tx)
            .await?;
    let options_json =
        serde_json::to_value(&options).map_err(|e| sqlx::Error::Encode(Box::new(e)))?;
    let quality = serde_json::to_value(DrawQuality::default())
        .map_err(|e| sqlx::Error::Encode(Box::new(e)))?;
    let round_id: i64 = sqlx::query_scalar(
        "INSERT INTO rounds (event_id, number, seed, ruleset, options, quality, drawn_by, final) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, true) RETURNING id",
    )
    .bind(event_id)
    .bind(number)
    .bind(seed_db)
    .bind(ruleset.id())
    .bind(&options_json)
    .bind(&quality)
    .bind(actor.user_id)
    .fetch_one(&mut *tx)
    .await?;
    let seating: Vec<(u8, String)> = table
        .seats
        .iter()
        .map(|s| (s.seat, s.player.as_str().to_owned()))
        .collect();
    let round = Round {
        seed,
        ruleset,
        tables: vec![table],
        byes: Vec::new(),
        quality: DrawQuality::default(),
    };
    insert_draw(&mut tx, round_id, &round, &ids).await?;
    audit::record(
        &mut *tx,
        audit::Entry::by(
            actor,
            audit::Action::FinalTableDrawn,
            event_id,
            "final table",
            serde_json::json!({
                "round": number,
                "seed": seed.to_string(),
                "seating": serde_json::to_value(options.final_seating)
                    .unwrap_or(serde_json::Value::Null),
                "seats": seating,
            }),
        ),
    )
    .await?;
    crate::live::notify(&mut *tx, event_id, crate::live::Topic::Table).await?;
    crate::live::notify(&mut *tx, event_id, crate::live::Topic::Standings).await?;
    tx.commit().await?;
    Ok(number)
}

/// The final round's number, if the final table is drawn.
pub async fn final_number(
    pool: &PgPool,
    event_id: EventId,
) -> Result<Option<RoundNumber>, sqlx::Error> {
    sqlx::query_scalar("SELECT number FROM rounds WHERE event_id = $1 AND final")
        .bind(event_id)
        .fetch_optional(pool)
        .await
}
