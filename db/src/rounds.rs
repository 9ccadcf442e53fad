//! Rounds: the draw of tables (4.01.01), seats (0.07) and factions (0.08) from the `tournament`
//! crate, stored with its seed; the head judge's changes before play begins (redraw, seat swap,
//! cancel), each recorded in the audit log; and what the pages read.
//!
//! A round is *drawn* first: its tables are published and may still change. It *begins* when the
//! head judge locks it or the first table clock starts; from then on its seats are final.
//! Every change names the round's `version` it was based on, so a stale page cannot overwrite
//! a change it has not seen.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use serde::Serialize;
use sqlx::{PgPool, Postgres, Transaction};
use tournament::{
    Clock, DrawError, DrawRequest, Faction, History, PastRound, PastSeat, PastTable, PlayerName,
    Round, Ruleset, RulingOptions, TableFallback, draw::Deal, draw_round,
};

use crate::{
    audit,
    events::{parse_options, parse_ruleset},
    roles::Actor,
};

/// Ruling 1's way out, chosen by the head judge for a player count that 4.01.01 cannot split.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fallback {
    /// These people fill the missing seats; they are registered as alternates.
    Alternates(Vec<PlayerName>),
    /// Tables of 4 where needed.
    FourPlayerTables,
    /// These players (ids) sit the round out: no game, 0 points.
    Byes(Vec<i64>),
}

/// A request to draw the next round.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct NewRound {
    /// The round the page offered to start: if another head judge started it first, the
    /// request is refused rather than drawing the round after it.
    pub number: i32,
    /// `None`: a fresh random seed.
    pub seed: Option<u64>,
    pub fallback: Option<Fallback>,
    /// Required when the previous round still has games without a final report.
    pub override_reason: Option<String>,
}

#[derive(Debug, thiserror::Error)]
pub enum RoundError {
    #[error(
        "Round {asked} cannot be started: round {} is the next one, so someone else has started a round since you loaded the page. Reload to see it.",
        next
    )]
    NotNext { asked: i32, next: i32 },
    #[error(
        "Round {0} changed since you loaded it (a redraw, a seat swap, a clock or the start of play); reload the page and check it before changing it."
    )]
    Stale(i32),
    #[error(
        "Round {round} still has {} without a final report ({} {}). Wait for the reports, or give the reason for starting anyway.",
        if tables.len() == 1 { "a game" } else { "games" },
        if tables.len() == 1 { "table" } else { "tables" },
        tables.iter().map(i32::to_string).collect::<Vec<_>>().join(", ")
    )]
    Unreported { round: i32, tables: Vec<i32> },
    #[error(
        "All {0} qualifying rounds are drawn. To add one, raise the number of rounds in the event settings."
    )]
    AllRoundsDrawn(i32),
    #[error("Play has begun in round {0}; its seats are final.")]
    Begun(i32),
    #[error("Only the latest round can be cancelled, and round {0} is not the latest.")]
    NotLatest(i32),
    #[error("{0}")]
    Draw(#[from] DrawError),
    #[error("{message}")]
    Field {
        field: &'static str,
        message: String,
    },
    #[error("There is no such round in this event.")]
    NotFound,
    #[error("database error")]
    Database(#[from] sqlx::Error),
}

impl RoundError {
    fn field(field: &'static str, message: impl Into<String>) -> RoundError {
        RoundError::Field {
            field,
            message: message.into(),
        }
    }

    /// True when the request was based on an outdated page.
    pub fn is_conflict(&self) -> bool {
        matches!(self, Self::NotNext { .. } | Self::Stale(_))
    }
}

/// The largest seed a head judge may type: seeds are stored as a non-negative BIGINT.
pub const MAX_SEED: u64 = i64::MAX as u64;

/// Seeds drawn here stay below 2^53, so any tool (JavaScript included) reads them exactly.
pub(crate) fn fresh_seed() -> u64 {
    random_seed()
}

fn random_seed() -> u64 {
    const MASK: u64 = (1 << 53) - 1;
    let raw = getrandom::u64().unwrap_or_else(|_| {
        use std::hash::{BuildHasher, RandomState};
        RandomState::new().hash_one(std::time::SystemTime::now())
    });
    raw & MASK
}

fn seed_to_db(seed: u64) -> Result<i64, RoundError> {
    i64::try_from(seed).map_err(|_| {
        RoundError::field(
            "seed",
            format!("A seed is a whole number from 0 to {MAX_SEED}."),
        )
    })
}

struct Entrant {
    id: i64,
    name: PlayerName,
}

fn player_name(text: &str) -> Result<PlayerName, sqlx::Error> {
    PlayerName::parse(text).map_err(|e| sqlx::Error::Decode(Box::new(e)))
}

/// Earlier rounds of the event (numbers below `before`), as the draw reads them.
async fn history(
    tx: &mut Transaction<'_, Postgres>,
    event_id: i64,
    before: i32,
) -> Result<History, sqlx::Error> {
    let rows: Vec<(i32, i32, String, Option<String>)> = sqlx::query_as(
        "SELECT r.number, t.number, p.name, s.faction FROM seats s \
         JOIN game_tables t ON t.id = s.table_id JOIN rounds r ON r.id = s.round_id \
         JOIN players p ON p.id = s.player_id \
         WHERE r.event_id = $1 AND r.number < $2 ORDER BY r.number, t.number, s.seat",
    )
    .bind(event_id)
    .bind(before)
    .fetch_all(&mut **tx)
    .await?;
    let mut history = History::default();
    let mut at = (0, 0);
    for (round, table, name, faction) in rows {
        if at.0 != round {
            history.push(PastRound::default());
        }
        let past = history.rounds.last_mut().expect("pushed above");
        if at != (round, table) {
            past.tables.push(PastTable::default());
        }
        at = (round, table);
        past.tables
            .last_mut()
            .expect("pushed above")
            .seats
            .push(PastSeat {
                player: player_name(&name)?,
                faction: faction.as_deref().and_then(Faction::from_code),
            });
    }
    Ok(history)
}

/// Stores a drawn round's tables, seats and byes.
async fn insert_draw(
    tx: &mut Transaction<'_, Postgres>,
    round_id: i64,
    round: &Round,
    ids: &HashMap<PlayerName, i64>,
) -> Result<(), sqlx::Error> {
    let numbers: Vec<i32> = round.tables.iter().map(|t| t.number as i32).collect();
    let table_ids: Vec<(i64, i32)> = sqlx::query_as(
        "INSERT INTO game_tables (round_id, number) SELECT $1, n FROM unnest($2::int[]) AS n \
         RETURNING id, number",
    )
    .bind(round_id)
    .bind(&numbers)
    .fetch_all(&mut **tx)
    .await?;
    let table_id: HashMap<i32, i64> = table_ids.into_iter().map(|(id, n)| (n, id)).collect();
    let mut tables = Vec::new();
    let mut seats = Vec::new();
    let mut circles = Vec::new();
    let mut players = Vec::new();
    let mut factions: Vec<Option<&str>> = Vec::new();
    let mut classic: Vec<Option<&str>> = Vec::new();
    let mut expansion: Vec<Option<&str>> = Vec::new();
    for table in &round.tables {
        for seat in &table.seats {
            tables.push(table_id[&(table.number as i32)]);
            seats.push(i16::from(seat.seat));
            circles.push(i16::from(seat.circle));
            players.push(ids[&seat.player]);
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
    let byes: Vec<i64> = round.byes.iter().map(|p| ids[p]).collect();
    sqlx::query("INSERT INTO round_byes (round_id, player_id) SELECT $1, unnest($2::bigint[])")
        .bind(round_id)
        .bind(&byes)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

fn table_sizes(round: &Round) -> Vec<usize> {
    round.tables.iter().map(|t| t.seats.len()).collect()
}

fn fallback_code(fallback: TableFallback) -> &'static str {
    match fallback {
        TableFallback::Ask => "ask",
        TableFallback::Alternates => "alternates",
        TableFallback::FourPlayerTables => "four_player_tables",
        TableFallback::Byes => "byes",
    }
}

/// Draws round `new.number` of the event from its checked-in players who have not dropped,
/// avoiding repeat opponents and factions of the earlier rounds. Returns the round's id.
///
/// The event row is locked first, so concurrent starts queue; the second then finds the round
/// drawn and is refused (`NotNext`). The unique (event, number) constraint backs this up.
pub async fn start(
    pool: &PgPool,
    actor: &Actor,
    event_id: i64,
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
    let last: Option<(i64, i32)> = sqlx::query_as(
        "SELECT id, number FROM rounds WHERE event_id = $1 ORDER BY number DESC LIMIT 1",
    )
    .bind(event_id)
    .fetch_optional(&mut *tx)
    .await?;
    let next = last.map_or(1, |(_, n)| n + 1);
    if new.number != next {
        return Err(RoundError::NotNext {
            asked: new.number,
            next,
        });
    }
    if next > qualifying_rounds {
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

    let rows: Vec<(i64, String)> = sqlx::query_as(
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
                entrants.push(alternate(&mut tx, event_id, next - 1, name).await?);
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
                next: next + 1,
            });
        }
        Err(e) => return Err(e.into()),
    };
    let ids: HashMap<PlayerName, i64> = entrants.into_iter().map(|e| (e.name, e.id)).collect();
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
    tx.commit().await?;
    Ok(round_id)
}

/// Registers (or finds) an alternate for this round's draw.
async fn alternate(
    tx: &mut Transaction<'_, Postgres>,
    event_id: i64,
    rounds_drawn: i32,
    name: &PlayerName,
) -> Result<Entrant, RoundError> {
    let existing: Option<(i64, bool, bool, Option<i32>)> = sqlx::query_as(
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

/// The round row, locked, if it is still at `version` and play has not begun.
async fn lock_unbegun(
    tx: &mut Transaction<'_, Postgres>,
    event_id: i64,
    number: i32,
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
    event_id: i64,
    number: i32,
    version: i32,
    seed: Option<u64>,
) -> Result<(), RoundError> {
    let mut tx = pool.begin().await?;
    let (round_id, old_seed, options, ruleset) =
        lock_unbegun(&mut tx, event_id, number, version).await?;
    let options: RulingOptions = parse_options(options)?;
    let ruleset: Ruleset = parse_ruleset(&ruleset)?;
    let rows: Vec<(i64, String, bool)> = sqlx::query_as(
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
    tx.commit().await?;
    Ok(())
}

/// Where a player sits, for the audit trail: "Alice (table 2, seat 3)".
async fn place(
    tx: &mut Transaction<'_, Postgres>,
    round_id: i64,
    player_id: i64,
) -> Result<Option<(String, i32, i16)>, sqlx::Error> {
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
    event_id: i64,
    number: i32,
    version: i32,
    a: i64,
    b: i64,
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
    let describe =
        |(name, table, seat): &(String, i32, i16)| format!("{name} (table {table}, seat {seat})");
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
    tx.commit().await?;
    Ok(())
}

/// Locks the seats: play begins.
pub async fn begin(
    pool: &PgPool,
    actor: &Actor,
    event_id: i64,
    number: i32,
    version: i32,
) -> Result<(), RoundError> {
    let mut tx = pool.begin().await?;
    let (round_id, ..) = lock_unbegun(&mut tx, event_id, number, version).await?;
    mark_begun(&mut tx, actor, event_id, round_id, number).await?;
    tx.commit().await?;
    Ok(())
}

pub(crate) async fn mark_begun(
    tx: &mut Transaction<'_, Postgres>,
    actor: &Actor,
    event_id: i64,
    round_id: i64,
    number: i32,
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

/// Withdraws the latest round before play begins (a wrong player list, say). Alternates it
/// registered stay registered.
pub async fn cancel(
    pool: &PgPool,
    actor: &Actor,
    event_id: i64,
    number: i32,
    version: i32,
) -> Result<(), RoundError> {
    let mut tx = pool.begin().await?;
    let (round_id, seed, ..) = lock_unbegun(&mut tx, event_id, number, version).await?;
    let latest: i32 = sqlx::query_scalar("SELECT max(number) FROM rounds WHERE event_id = $1")
        .bind(event_id)
        .fetch_one(&mut *tx)
        .await?;
    if latest != number {
        return Err(RoundError::NotLatest(number));
    }
    sqlx::query("DELETE FROM rounds WHERE id = $1")
        .bind(round_id)
        .execute(&mut *tx)
        .await?;
    audit::record(
        &mut *tx,
        audit::Entry::by(
            actor,
            audit::Action::RoundCancelled,
            event_id,
            &format!("round {number}"),
            serde_json::json!({ "round": number, "seed": seed.to_string() }),
        ),
    )
    .await?;
    tx.commit().await?;
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Reading

pub(crate) fn millis(at: Option<DateTime<Utc>>) -> Option<i64> {
    at.map(|t| t.timestamp_millis())
}

/// A round in a list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, sqlx::FromRow)]
pub struct RoundSummary {
    pub number: i32,
    pub seed: i64,
    pub begun: bool,
    pub tables: i64,
    pub seated: i64,
    pub byes: i64,
    /// Tables whose clock has started and whose report is not in.
    pub in_play: i64,
    pub reports_missing: i64,
    pub version: i32,
}

/// Oldest first.
pub async fn list(pool: &PgPool, event_id: i64) -> Result<Vec<RoundSummary>, sqlx::Error> {
    sqlx::query_as(
        "SELECT r.number, r.seed, r.started_at IS NOT NULL AS begun, \
           (SELECT count(*) FROM game_tables t WHERE t.round_id = r.id) AS tables, \
           (SELECT count(*) FROM seats s WHERE s.round_id = r.id) AS seated, \
           (SELECT count(*) FROM round_byes b WHERE b.round_id = r.id) AS byes, \
           (SELECT count(*) FROM game_tables t WHERE t.round_id = r.id AND t.clock_started_at IS NOT NULL \
              AND t.reported_at IS NULL) AS in_play, \
           (SELECT count(*) FROM game_tables t WHERE t.round_id = r.id AND t.reported_at IS NULL) AS reports_missing, \
           r.version \
         FROM rounds r WHERE r.event_id = $1 ORDER BY r.number",
    )
    .bind(event_id)
    .fetch_all(pool)
    .await
}

/// Counts of the event's players for the dashboard.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, sqlx::FromRow)]
pub struct PlayerCounts {
    pub registered: i64,
    /// Checked in and not dropped: drawn into the next round.
    pub checked_in: i64,
    pub dropped: i64,
    pub alternates: i64,
}

pub async fn player_counts(pool: &PgPool, event_id: i64) -> Result<PlayerCounts, sqlx::Error> {
    sqlx::query_as(
        "SELECT count(*) FILTER (WHERE NOT alternate) AS registered, \
           count(*) FILTER (WHERE checked_in AND NOT alternate AND dropped_after_round IS NULL) AS checked_in, \
           count(*) FILTER (WHERE dropped_after_round IS NOT NULL) AS dropped, \
           count(*) FILTER (WHERE alternate) AS alternates \
         FROM players WHERE event_id = $1",
    )
    .bind(event_id)
    .fetch_one(pool)
    .await
}

/// The players the next draw takes (checked in, not dropped, not alternates): id and name.
pub async fn entrants(pool: &PgPool, event_id: i64) -> Result<Vec<(i64, String)>, sqlx::Error> {
    sqlx::query_as(
        "SELECT id, name FROM players WHERE event_id = $1 AND checked_in AND NOT alternate \
         AND dropped_after_round IS NULL ORDER BY lower(name), name",
    )
    .bind(event_id)
    .fetch_all(pool)
    .await
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RoundInfo {
    pub id: i64,
    pub number: i32,
    pub seed: i64,
    pub ruleset: String,
    pub table_fallback: String,
    pub quality: serde_json::Value,
    pub override_reason: Option<String>,
    pub drawn_at: DateTime<Utc>,
    pub started_at: Option<DateTime<Utc>>,
    pub version: i32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SeatInfo {
    pub seat: i16,
    pub circle: i16,
    pub player_id: i64,
    pub player: String,
    pub faction: Option<Faction>,
    pub offered: Option<(Faction, Faction)>,
    pub dropped: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TableInfo {
    pub id: i64,
    pub number: i32,
    pub clock: Clock,
    pub reported: bool,
    pub version: i32,
    pub seats: Vec<SeatInfo>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RoundDetail {
    pub round: RoundInfo,
    pub tables: Vec<TableInfo>,
    pub byes: Vec<(i64, String)>,
    /// The database's clock when this was read: every reading of a clock uses one time source.
    pub now_ms: i64,
}

pub(crate) type TableRow = (
    i64,
    i32,
    Option<DateTime<Utc>>,
    Option<DateTime<Utc>>,
    i64,
    i64,
    Option<DateTime<Utc>>,
    i32,
);

pub(crate) fn clock_of(row: &TableRow, players: usize) -> Clock {
    Clock {
        started_at: millis(row.2),
        paused_at: millis(row.3),
        paused_ms: row.4,
        extension_ms: row.5,
        players: u8::try_from(players).unwrap_or(u8::MAX),
    }
}

pub(crate) const TABLE_COLUMNS: &str = "t.id, t.number, t.clock_started_at, t.clock_paused_at, \
     t.clock_paused_ms, t.clock_extension_ms, t.reported_at, t.version";

fn parse_seat(
    seat: i16,
    circle: i16,
    player_id: i64,
    player: String,
    faction: Option<String>,
    offered: Option<Vec<String>>,
    dropped: bool,
) -> SeatInfo {
    let offered = offered.and_then(|codes| match codes.as_slice() {
        [c, e] => Some((Faction::from_code(c)?, Faction::from_code(e)?)),
        _ => None,
    });
    SeatInfo {
        seat,
        circle,
        player_id,
        player,
        faction: faction.as_deref().and_then(Faction::from_code),
        offered,
        dropped,
    }
}

/// A round with its tables, seats, clocks and byes; `None` if the event has no such round.
pub async fn detail(
    pool: &PgPool,
    event_id: i64,
    number: i32,
) -> Result<Option<RoundDetail>, sqlx::Error> {
    #[allow(clippy::type_complexity)]
    let row: Option<(
        i64,
        i32,
        i64,
        String,
        serde_json::Value,
        serde_json::Value,
        Option<String>,
        DateTime<Utc>,
        Option<DateTime<Utc>>,
        i32,
        DateTime<Utc>,
    )> = sqlx::query_as(
        "SELECT id, number, seed, ruleset, options, quality, override_reason, drawn_at, started_at, \
         version, now() FROM rounds WHERE event_id = $1 AND number = $2",
    )
    .bind(event_id)
    .bind(number)
    .fetch_optional(pool)
    .await?;
    let Some((
        id,
        number,
        seed,
        ruleset,
        options,
        quality,
        override_reason,
        drawn_at,
        started_at,
        version,
        now,
    )) = row
    else {
        return Ok(None);
    };
    let options = parse_options(options)?;
    let tables: Vec<TableRow> = sqlx::query_as(&format!(
        "SELECT {TABLE_COLUMNS} FROM game_tables t WHERE t.round_id = $1 ORDER BY t.number"
    ))
    .bind(id)
    .fetch_all(pool)
    .await?;
    #[allow(clippy::type_complexity)]
    let seats: Vec<(
        i64,
        i16,
        i16,
        i64,
        String,
        Option<String>,
        Option<Vec<String>>,
        bool,
    )> = sqlx::query_as(
        "SELECT s.table_id, s.seat, s.circle, s.player_id, p.name, s.faction, s.offered, \
             p.dropped_after_round IS NOT NULL FROM seats s JOIN players p ON p.id = s.player_id \
             WHERE s.round_id = $1 ORDER BY s.table_id, s.seat",
    )
    .bind(id)
    .fetch_all(pool)
    .await?;
    let mut by_table: HashMap<i64, Vec<SeatInfo>> = HashMap::new();
    for (table_id, seat, circle, player_id, player, faction, offered, dropped) in seats {
        by_table.entry(table_id).or_default().push(parse_seat(
            seat, circle, player_id, player, faction, offered, dropped,
        ));
    }
    let byes: Vec<(i64, String)> = sqlx::query_as(
        "SELECT p.id, p.name FROM round_byes b JOIN players p ON p.id = b.player_id \
         WHERE b.round_id = $1 ORDER BY lower(p.name)",
    )
    .bind(id)
    .fetch_all(pool)
    .await?;
    let tables = tables
        .iter()
        .map(|row| {
            let seats = by_table.remove(&row.0).unwrap_or_default();
            TableInfo {
                id: row.0,
                number: row.1,
                clock: clock_of(row, seats.len()),
                reported: row.6.is_some(),
                version: row.7,
                seats,
            }
        })
        .collect();
    Ok(Some(RoundDetail {
        round: RoundInfo {
            id,
            number,
            seed,
            ruleset,
            table_fallback: fallback_code(options.table_fallback).to_owned(),
            quality,
            override_reason,
            drawn_at,
            started_at,
            version,
        },
        tables,
        byes,
        now_ms: now.timestamp_millis(),
    }))
}

/// The tables of round `number` whose final report is not in.
pub async fn unreported_tables(
    pool: &PgPool,
    event_id: i64,
    number: i32,
) -> Result<Vec<i32>, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT t.number FROM game_tables t JOIN rounds r ON r.id = t.round_id \
         WHERE r.event_id = $1 AND r.number = $2 AND t.reported_at IS NULL ORDER BY t.number",
    )
    .bind(event_id)
    .bind(number)
    .fetch_all(pool)
    .await
}

/// The number of the event's latest round, if any.
pub async fn latest_number(pool: &PgPool, event_id: i64) -> Result<Option<i32>, sqlx::Error> {
    sqlx::query_scalar("SELECT max(number) FROM rounds WHERE event_id = $1")
        .bind(event_id)
        .fetch_one(pool)
        .await
}

/// What a player's phone shows: the latest round, and their place in it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PlayerView {
    pub player_id: i64,
    pub name: String,
    pub club: Option<String>,
    pub checked_in: bool,
    pub dropped: bool,
    pub round: Option<i32>,
    pub round_begun: bool,
    pub ruleset: Option<String>,
    pub place: Place,
    pub now_ms: i64,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub enum Place {
    /// No round drawn yet, or not in the latest one.
    NotSeated,
    Bye,
    Seated {
        table: i32,
        seat: SeatInfo,
        clock: Clock,
        reported: bool,
        /// Everyone at the table, in seat order (the player included).
        table_seats: Vec<SeatInfo>,
    },
}

pub async fn player_view(
    pool: &PgPool,
    event_id: i64,
    player_id: i64,
) -> Result<Option<PlayerView>, sqlx::Error> {
    #[allow(clippy::type_complexity)]
    let row: Option<(
        i64,
        String,
        Option<String>,
        bool,
        bool,
        Option<i64>,
        Option<i32>,
        Option<String>,
        bool,
        DateTime<Utc>,
    )> = sqlx::query_as(
        "SELECT p.id, p.name, p.club, p.checked_in, p.dropped_after_round IS NOT NULL, \
           r.id, r.number, r.ruleset, r.started_at IS NOT NULL, now() \
         FROM players p LEFT JOIN LATERAL (SELECT id, number, ruleset, started_at FROM rounds \
           WHERE event_id = p.event_id ORDER BY number DESC LIMIT 1) r ON true \
         WHERE p.event_id = $1 AND p.id = $2",
    )
    .bind(event_id)
    .bind(player_id)
    .fetch_optional(pool)
    .await?;
    let Some((id, name, club, checked_in, dropped, round_id, round, ruleset, begun, now)) = row
    else {
        return Ok(None);
    };
    let mut place = Place::NotSeated;
    if let Some(round_id) = round_id {
        let table: Option<TableRow> = sqlx::query_as(&format!(
            "SELECT {TABLE_COLUMNS} FROM seats s JOIN game_tables t ON t.id = s.table_id \
             WHERE s.round_id = $1 AND s.player_id = $2"
        ))
        .bind(round_id)
        .bind(player_id)
        .fetch_optional(pool)
        .await?;
        if let Some(table) = table {
            #[allow(clippy::type_complexity)]
            let seats: Vec<(i16, i16, i64, String, Option<String>, Option<Vec<String>>, bool)> =
                sqlx::query_as(
                    "SELECT s.seat, s.circle, s.player_id, p.name, s.faction, s.offered, \
                     p.dropped_after_round IS NOT NULL FROM seats s JOIN players p ON p.id = s.player_id \
                     WHERE s.table_id = $1 ORDER BY s.seat",
                )
                .bind(table.0)
                .fetch_all(pool)
                .await?;
            let table_seats: Vec<SeatInfo> = seats
                .into_iter()
                .map(|(seat, circle, pid, pname, faction, offered, dropped)| {
                    parse_seat(seat, circle, pid, pname, faction, offered, dropped)
                })
                .collect();
            if let Some(seat) = table_seats
                .iter()
                .find(|s| s.player_id == player_id)
                .cloned()
            {
                place = Place::Seated {
                    table: table.1,
                    clock: clock_of(&table, table_seats.len()),
                    reported: table.6.is_some(),
                    seat,
                    table_seats,
                };
            }
        } else {
            let bye: bool = sqlx::query_scalar(
                "SELECT EXISTS (SELECT 1 FROM round_byes WHERE round_id = $1 AND player_id = $2)",
            )
            .bind(round_id)
            .bind(player_id)
            .fetch_one(pool)
            .await?;
            if bye {
                place = Place::Bye;
            }
        }
    }
    Ok(Some(PlayerView {
        player_id: id,
        name,
        club,
        checked_in,
        dropped,
        round,
        round_begun: begun,
        ruleset,
        place,
        now_ms: now.timestamp_millis(),
    }))
}
