//! Drawing a round: tables (4.01.01), seats (0.07) and factions (0.08) from the tournament
//! crate with a stored seed, against the event's earlier rounds.

use std::collections::HashMap;

use sqlx::{PgPool, Postgres, Transaction};
use tournament::ids::{EventId, PlayerId, RoundNumber, TableId, TableNumber};
use tournament::{
    DrawRequest, History, PastRound, PastSeat, PastTable, PlayerName, Round, TableFallback,
    draw::Deal, draw_round,
};

use super::*;
use crate::{
    audit,
    events::{parse_options, parse_ruleset},
    roles::Actor,
};

/// Earlier rounds of the event (numbers below `before`), as the draw reads them.
pub(super) async fn history(
    tx: &mut Transaction<'_, Postgres>,
    event_id: EventId,
    before: RoundNumber,
) -> Result<History, sqlx::Error> {
    let rows: Vec<(RoundNumber, TableNumber, String, Option<String>)> = sqlx::query_as(
        "SELECT r.number, t.number, p.name, s.faction FROM seats s \
         JOIN game_tables t ON t.id = s.table_id JOIN rounds r ON r.id = s.round_id \
         JOIN players p ON p.id = s.player_id \
         WHERE r.event_id = $1 AND r.number < $2 ORDER BY r.number, t.number, s.seat",
    )
    .bind(event_id)
    .bind(before)
    .fetch_all(&mut **tx)
    .await?;
    // Rows come in (round, table, seat) order: a new round or table starts a new entry.
    let mut history = History::default();
    let mut round_at = None;
    let mut round = PastRound::default();
    let mut table_at = None;
    let mut table = PastTable::default();
    for (r, t, name, faction) in rows {
        if table_at != Some((r, t)) {
            if table_at.is_some() {
                round.tables.push(std::mem::take(&mut table));
            }
            table_at = Some((r, t));
        }
        if round_at != Some(r) {
            if round_at.is_some() {
                history.push(std::mem::take(&mut round));
            }
            round_at = Some(r);
        }
        table.seats.push(PastSeat {
            player: player_name(&name)?,
            faction: stored_faction(faction.as_deref())?,
        });
    }
    if table_at.is_some() {
        round.tables.push(table);
        history.push(round);
    }
    Ok(history)
}

/// Stores a drawn round's tables, seats and byes.
pub(super) async fn insert_draw(
    tx: &mut Transaction<'_, Postgres>,
    round_id: i64,
    round: &Round,
    ids: &HashMap<PlayerName, PlayerId>,
) -> Result<(), sqlx::Error> {
    let id_of = |name: &PlayerName| {
        ids.get(name).copied().ok_or_else(|| {
            sqlx::Error::Protocol(format!(
                "the draw seated {name}, who was not among its players"
            ))
        })
    };
    let numbers: Vec<TableNumber> = round
        .tables
        .iter()
        .map(|t| i32::try_from(t.number).map(TableNumber))
        .collect::<Result<_, _>>()
        .map_err(|e| sqlx::Error::Encode(Box::new(e)))?;
    let table_ids: Vec<(TableId, TableNumber)> = sqlx::query_as(
        "INSERT INTO game_tables (round_id, number) SELECT $1, n FROM unnest($2::int[]) AS n \
         RETURNING id, number",
    )
    .bind(round_id)
    .bind(&numbers)
    .fetch_all(&mut **tx)
    .await?;
    let table_id: HashMap<TableNumber, TableId> =
        table_ids.into_iter().map(|(id, n)| (n, id)).collect();
    let mut tables = Vec::new();
    let mut seats = Vec::new();
    let mut circles = Vec::new();
    let mut players = Vec::new();
    let mut factions: Vec<Option<&str>> = Vec::new();
    let mut classic: Vec<Option<&str>> = Vec::new();
    let mut expansion: Vec<Option<&str>> = Vec::new();
    for (table, number) in round.tables.iter().zip(&numbers) {
        let id = table_id.get(number).copied().ok_or_else(|| {
            sqlx::Error::Protocol(format!("table {number} was not stored with its round"))
        })?;
        for seat in &table.seats {
            tables.push(id);
            seats.push(i16::from(seat.seat));
            circles.push(i16::from(seat.circle));
            players.push(id_of(&seat.player)?);
            match seat.deal {
                Deal::Assigned(f) => {
                    factions.push(Some(f.code()));
                    classic.push(None);
                    expansion.push(None);
                }
                Deal::Offered {
                    classic: c,
                    expansion: e,
                } => {
                    factions.push(None);
                    classic.push(Some(c.code()));
                    expansion.push(Some(e.code()));
                }
                Deal::Chosen => {
                    factions.push(None);
                    classic.push(None);
                    expansion.push(None);
                }
            }
        }
    }
    // unnest flattens a two-dimensional array, so the offered pair travels as two columns.
    sqlx::query(
        "INSERT INTO seats (round_id, table_id, seat, circle, player_id, faction, offered) \
         SELECT $1, t, s, c, p, f, CASE WHEN oc IS NULL THEN NULL ELSE ARRAY[oc, oe] END \
         FROM unnest($2::bigint[], $3::smallint[], $4::smallint[], $5::bigint[], $6::text[], $7::text[], $8::text[]) \
         AS x(t, s, c, p, f, oc, oe)",
    )
    .bind(round_id)
    .bind(&tables)
    .bind(&seats)
    .bind(&circles)
    .bind(&players)
    .bind(&factions)
    .bind(&classic)
    .bind(&expansion)
    .execute(&mut **tx)
    .await?;
    let byes: Vec<PlayerId> = round.byes.iter().map(id_of).collect::<Result<_, _>>()?;
    sqlx::query("INSERT INTO round_byes (round_id, player_id) SELECT $1, unnest($2::bigint[])")
        .bind(round_id)
        .bind(&byes)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

pub(super) fn table_sizes(round: &Round) -> Vec<usize> {
    round.tables.iter().map(|t| t.seats.len()).collect()
}

/// Draws round `new.number` of the event from its checked-in players who have not dropped,
/// avoiding repeat opponents and factions of the earlier rounds. Returns the round's id.
///
/// The event row is locked first, so concurrent starts queue; the second then finds the round
/// drawn and is refused (`NotNext`). The unique (event, number) constraint backs this up.
pub async fn start(
    pool: &PgPool,
    actor: &Actor,
    event_id: EventId,
    new: NewRound,
) -> Result<i64, RoundError> {
    let mut tx = pool.begin().await?;
    let event: Option<(String, serde_json::Value, i32)> = sqlx::query_as(
        "SELECT ruleset, options, qualifying_rounds FROM events WHERE id = $1 FOR UPDATE",
    )
    .bind(event_id)
    .fetch_optional(&mut *tx)
    .await?;
    let (ruleset, options, qualifying_rounds) = event.ok_or(RoundError::NotFound)?;
    let ruleset = parse_ruleset(&ruleset)?;
    let mut options = parse_options(options)?;
    let last: Option<(i64, RoundNumber)> = sqlx::query_as(
        "SELECT id, number FROM rounds WHERE event_id = $1 ORDER BY number DESC LIMIT 1",
    )
    .bind(event_id)
    .fetch_optional(&mut *tx)
    .await?;
    let next = last.map_or(RoundNumber::FIRST, |(_, n)| n.next());
    if new.number != next {
        return Err(RoundError::NotNext {
            asked: new.number,
            next,
        });
    }
    let closed: bool =
        sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM finals WHERE event_id = $1)")
            .bind(event_id)
            .fetch_one(&mut *tx)
            .await?;
    if closed {
        return Err(RoundError::QualifyingClosed);
    }
    if next.get() > qualifying_rounds {
        return Err(RoundError::AllRoundsDrawn(qualifying_rounds));
    }
    let reason = new
        .override_reason
        .as_deref()
        .map(str::trim)
        .filter(|r| !r.is_empty());
    let mut unreported = Vec::new();
    if let Some((last_id, last_number)) = last {
        unreported = sqlx::query_scalar(
            "SELECT number FROM game_tables WHERE round_id = $1 AND reported_at IS NULL ORDER BY number",
        )
        .bind(last_id)
        .fetch_all(&mut *tx)
        .await?;
        if !unreported.is_empty() && reason.is_none() {
            return Err(RoundError::Unreported {
                round: last_number,
                tables: unreported,
            });
        }
    }
    if reason.is_some_and(|r| r.chars().count() > 500) {
        return Err(RoundError::field(
            "override_reason",
            "Keep the reason under 500 characters.",
        ));
    }

    let rows: Vec<(PlayerId, String)> = sqlx::query_as(
        "SELECT id, name FROM players WHERE event_id = $1 AND checked_in AND NOT alternate \
         AND dropped_after_round IS NULL",
    )
    .bind(event_id)
    .fetch_all(&mut *tx)
    .await?;
    let mut entrants = rows
        .into_iter()
        .map(|(id, name)| {
            Ok(Entrant {
                id,
                name: player_name(&name)?,
            })
        })
        .collect::<Result<Vec<_>, sqlx::Error>>()?;
    let mut byes = Vec::new();
    match &new.fallback {
        None => {}
        Some(Fallback::FourPlayerTables) => {
            options.table_fallback = TableFallback::FourPlayerTables;
        }
        Some(Fallback::Byes(ids)) => {
            options.table_fallback = TableFallback::Byes;
            if ids.is_empty() {
                return Err(RoundError::field(
                    "byes",
                    "Tick the players who sit this round out.",
                ));
            }
            for id in ids {
                let Some(entrant) = entrants.iter().find(|e| e.id == *id) else {
                    return Err(RoundError::field(
                        "byes",
                        "A bye goes to a checked-in player who has not dropped.",
                    ));
                };
                byes.push(entrant.name.clone());
            }
        }
        Some(Fallback::Alternates(names)) => {
            options.table_fallback = TableFallback::Alternates;
            if names.is_empty() {
                return Err(RoundError::field(
                    "alternates",
                    "Name the alternates, one per line.",
                ));
            }
            for name in names {
                entrants.push(alternate(&mut tx, event_id, next.previous(), name).await?);
            }
        }
    }
    let players: Vec<PlayerName> = entrants.iter().map(|e| e.name.clone()).collect();
    let history = history(&mut tx, event_id, next).await?;
    let seed = new.seed.unwrap_or_else(random_seed);
    let seed_db = seed_to_db(seed)?;
    let round = draw_round(&DrawRequest {
        seed,
        ruleset,
        players: &players,
        byes: &byes,
        history: &history,
        options: &options,
    })?;
    let options_json =
        serde_json::to_value(&options).map_err(|e| sqlx::Error::Encode(Box::new(e)))?;
    let quality =
        serde_json::to_value(round.quality).map_err(|e| sqlx::Error::Encode(Box::new(e)))?;
    let inserted: Result<i64, sqlx::Error> = sqlx::query_scalar(
        "INSERT INTO rounds (event_id, number, seed, ruleset, options, quality, override_reason, drawn_by) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id",
    )
    .bind(event_id)
    .bind(next)
    .bind(seed_db)
    .bind(ruleset.id())
    .bind(&options_json)
    .bind(&quality)
    .bind(reason)
    .bind(actor.user_id)
    .fetch_one(&mut *tx)
    .await;
    let round_id = match inserted {
        Ok(id) => id,
        Err(sqlx::Error::Database(e)) if e.constraint() == Some("rounds_event_number") => {
            return Err(RoundError::NotNext {
                asked: new.number,
                next: next.next(),
            });
        }
        Err(e) => return Err(e.into()),
    };
    let ids: HashMap<PlayerName, PlayerId> = entrants.into_iter().map(|e| (e.name, e.id)).collect();
    insert_draw(&mut tx, round_id, &round, &ids).await?;
    let subject = format!("round {next}");
    if let Some(reason) = reason {
        audit::record(
            &mut *tx,
            audit::Entry::by(
                actor,
                audit::Action::UnreportedOverride,
                event_id,
                &subject,
                serde_json::json!({
                    "round": next,
                    "reason": reason,
                    "unreported_tables_of_previous_round": unreported,
                }),
            ),
        )
        .await?;
    }
    audit::record(
        &mut *tx,
        audit::Entry::by(
            actor,
            audit::Action::RoundDrawn,
            event_id,
            &subject,
            serde_json::json!({
                "round": next,
                "seed": seed.to_string(),
                "players": players.len(),
                "tables": table_sizes(&round),
                "byes": round.byes,
                "table_fallback": fallback_code(options.table_fallback),
            }),
        ),
    )
    .await?;
    // Phones' cached pages (a player's seat and clock) must not outlive this change.
    crate::live::notify(&mut *tx, event_id, crate::live::Topic::Table).await?;
    tx.commit().await?;
    Ok(round_id)
}

/// Registers (or finds) an alternate for this round's draw.
async fn alternate(
    tx: &mut Transaction<'_, Postgres>,
    event_id: EventId,
    rounds_drawn: RoundNumber,
    name: &PlayerName,
) -> Result<Entrant, RoundError> {
    let existing: Option<(PlayerId, bool, bool, Option<i32>)> = sqlx::query_as(
        "SELECT id, alternate, checked_in, dropped_after_round FROM players WHERE event_id = $1 AND name = $2",
    )
    .bind(event_id)
    .bind(name.as_str())
    .fetch_optional(&mut **tx)
    .await?;
    let id = match existing {
        Some((id, true, _, _)) => id,
        Some((_, false, true, None)) => {
            return Err(RoundError::field(
                "alternates",
                format!("{name} is a checked-in player and is drawn anyway; name someone else."),
            ));
        }
        Some(_) => {
            return Err(RoundError::field(
                "alternates",
                format!(
                    "{name} is a registered player; check them in (or reinstate them) instead of naming them as an alternate."
                ),
            ));
        }
        None => {
            sqlx::query_scalar(
                "INSERT INTO players (event_id, name, alternate, checked_in, entered_after_round) \
                 VALUES ($1, $2, true, true, $3) RETURNING id",
            )
            .bind(event_id)
            .bind(name.as_str())
            .bind(rounds_drawn)
            .fetch_one(&mut **tx)
            .await?
        }
    };
    Ok(Entrant {
        id,
        name: name.clone(),
    })
}
