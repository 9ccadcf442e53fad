//! What the pages read about rounds: the list, a round's tables and seats, a player's place.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use serde::Serialize;
use sqlx::PgPool;
use tournament::ids::{EventId, PlayerId, RoundNumber, TableId, TableNumber};
use tournament::{Clock, Faction};

use super::*;
use crate::events::parse_options;

pub(crate) fn millis(at: Option<DateTime<Utc>>) -> Option<i64> {
    at.map(|t| t.timestamp_millis())
}

/// A round in a list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, sqlx::FromRow)]
pub struct RoundSummary {
    pub number: RoundNumber,
    pub seed: i64,
    pub begun: bool,
    pub tables: i64,
    pub seated: i64,
    pub byes: i64,
    /// Tables whose clock has started and whose report is not in.
    pub in_play: i64,
    pub reports_missing: i64,
    pub version: i32,
    /// The final table (ruling 13), not a qualifying round.
    pub final_table: bool,
}

/// Oldest first.
pub async fn list(pool: &PgPool, event_id: EventId) -> Result<Vec<RoundSummary>, sqlx::Error> {
    sqlx::query_as(
        "SELECT r.number, r.seed, r.started_at IS NOT NULL AS begun, \
           (SELECT count(*) FROM game_tables t WHERE t.round_id = r.id) AS tables, \
           (SELECT count(*) FROM seats s WHERE s.round_id = r.id) AS seated, \
           (SELECT count(*) FROM round_byes b WHERE b.round_id = r.id) AS byes, \
           (SELECT count(*) FROM game_tables t WHERE t.round_id = r.id AND t.clock_started_at IS NOT NULL \
              AND t.reported_at IS NULL) AS in_play, \
           (SELECT count(*) FROM game_tables t WHERE t.round_id = r.id AND t.reported_at IS NULL) AS reports_missing, \
           r.version, r.final AS final_table \
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

pub async fn player_counts(pool: &PgPool, event_id: EventId) -> Result<PlayerCounts, sqlx::Error> {
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
pub async fn entrants(
    pool: &PgPool,
    event_id: EventId,
) -> Result<Vec<(PlayerId, String)>, sqlx::Error> {
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
    pub number: RoundNumber,
    pub seed: i64,
    pub ruleset: String,
    pub table_fallback: String,
    pub quality: serde_json::Value,
    pub override_reason: Option<String>,
    pub drawn_at: DateTime<Utc>,
    pub started_at: Option<DateTime<Utc>>,
    pub version: i32,
    /// The final table (ruling 13), not a qualifying round.
    pub final_table: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SeatInfo {
    pub seat: i16,
    pub circle: i16,
    pub player_id: PlayerId,
    pub player: String,
    pub faction: Option<Faction>,
    pub offered: Option<(Faction, Faction)>,
    pub dropped: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TableInfo {
    pub id: TableId,
    pub number: TableNumber,
    pub clock: Clock,
    pub reported: bool,
    pub version: i32,
    pub seats: Vec<SeatInfo>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RoundDetail {
    pub round: RoundInfo,
    pub tables: Vec<TableInfo>,
    pub byes: Vec<(PlayerId, String)>,
    /// The database's clock when this was read: every reading of a clock uses one time source.
    pub now_ms: i64,
}

pub(crate) type TableRow = (
    TableId,
    TableNumber,
    Option<DateTime<Utc>>,
    Option<DateTime<Utc>>,
    i64,
    i64,
    Option<DateTime<Utc>>,
    i32,
    Option<i64>,
);

pub(crate) fn clock_of(row: &TableRow, players: usize) -> Clock {
    Clock {
        started_at: millis(row.2),
        paused_at: millis(row.3),
        paused_ms: row.4,
        extension_ms: row.5,
        players: u8::try_from(players).unwrap_or(u8::MAX),
        // The report became final: the game's time stops there.
        stopped_at: millis(row.6),
        rehearsal_ms: row.8,
    }
}

/// A table's columns as [`TableRow`] reads them; the last is the event's rehearsal clock, if it
/// is a test event with one (`RulingOptions::rehearsal_minutes`), in milliseconds.
pub(crate) const TABLE_COLUMNS: &str = "t.id, t.number, t.clock_started_at, t.clock_paused_at, \
     t.clock_paused_ms, t.clock_extension_ms, t.reported_at, t.version, \
     (SELECT (e.options->>'rehearsal_minutes')::bigint * 60000 FROM rounds rr \
        JOIN events e ON e.id = rr.event_id WHERE rr.id = t.round_id)";

fn parse_seat(
    seat: i16,
    circle: i16,
    player_id: PlayerId,
    player: String,
    faction: Option<String>,
    offered: Option<Vec<String>>,
    dropped: bool,
) -> Result<SeatInfo, sqlx::Error> {
    let offered = match offered.as_deref() {
        None => None,
        Some([c, e]) => match (stored_faction(Some(c))?, stored_faction(Some(e))?) {
            (Some(c), Some(e)) => Some((c, e)),
            _ => None,
        },
        Some(other) => {
            return Err(sqlx::Error::Decode(
                format!("stored offer {other:?} is not a pair of factions").into(),
            ));
        }
    };
    Ok(SeatInfo {
        seat,
        circle,
        player_id,
        player,
        faction: stored_faction(faction.as_deref())?,
        offered,
        dropped,
    })
}

/// A round with its tables, seats, clocks and byes; `None` if the event has no such round.
pub async fn detail(
    pool: &PgPool,
    event_id: EventId,
    number: RoundNumber,
) -> Result<Option<RoundDetail>, sqlx::Error> {
    #[allow(clippy::type_complexity)]
    let row: Option<(
        i64,
        RoundNumber,
        i64,
        String,
        serde_json::Value,
        serde_json::Value,
        Option<String>,
        DateTime<Utc>,
        Option<DateTime<Utc>>,
        i32,
        DateTime<Utc>,
        bool,
    )> = sqlx::query_as(
        "SELECT id, number, seed, ruleset, options, quality, override_reason, drawn_at, started_at, \
         version, now(), final FROM rounds WHERE event_id = $1 AND number = $2",
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
        final_table,
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
        TableId,
        i16,
        i16,
        PlayerId,
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
    let mut by_table: HashMap<TableId, Vec<SeatInfo>> = HashMap::new();
    for (table_id, seat, circle, player_id, player, faction, offered, dropped) in seats {
        by_table.entry(table_id).or_default().push(parse_seat(
            seat, circle, player_id, player, faction, offered, dropped,
        )?);
    }
    let byes: Vec<(PlayerId, String)> = sqlx::query_as(
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
            final_table,
        },
        tables,
        byes,
        now_ms: now.timestamp_millis(),
    }))
}

/// The tables of round `number` whose final report is not in.
pub async fn unreported_tables(
    pool: &PgPool,
    event_id: EventId,
    number: RoundNumber,
) -> Result<Vec<TableNumber>, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT t.number FROM game_tables t JOIN rounds r ON r.id = t.round_id \
         WHERE r.event_id = $1 AND r.number = $2 AND t.reported_at IS NULL ORDER BY t.number",
    )
    .bind(event_id)
    .bind(number)
    .fetch_all(pool)
    .await
}

/// The number of the event's latest round, if any: the final table once it is drawn.
pub async fn latest_number(
    pool: &PgPool,
    event_id: EventId,
) -> Result<Option<RoundNumber>, sqlx::Error> {
    sqlx::query_scalar("SELECT max(number) FROM rounds WHERE event_id = $1")
        .bind(event_id)
        .fetch_one(pool)
        .await
}

/// The number of the event's latest qualifying round, if any (the final table is not one).
pub async fn latest_qualifying(
    pool: &PgPool,
    event_id: EventId,
) -> Result<Option<RoundNumber>, sqlx::Error> {
    sqlx::query_scalar("SELECT max(number) FROM rounds WHERE event_id = $1 AND NOT final")
        .bind(event_id)
        .fetch_one(pool)
        .await
}

/// What a player's phone shows: the latest round, and their place in it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PlayerView {
    pub player_id: PlayerId,
    pub name: String,
    pub club: Option<String>,
    pub checked_in: bool,
    pub dropped: bool,
    pub round: Option<RoundNumber>,
    pub round_begun: bool,
    /// The latest round is the final table (ruling 13).
    pub round_final: bool,
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
        table: TableNumber,
        seat: SeatInfo,
        clock: Clock,
        reported: bool,
        /// Everyone at the table, in seat order (the player included).
        table_seats: Vec<SeatInfo>,
    },
}

pub async fn player_view(
    pool: &PgPool,
    event_id: EventId,
    player_id: PlayerId,
) -> Result<Option<PlayerView>, sqlx::Error> {
    #[allow(clippy::type_complexity)]
    let row: Option<(
        PlayerId,
        String,
        Option<String>,
        bool,
        bool,
        Option<i64>,
        Option<RoundNumber>,
        Option<String>,
        bool,
        DateTime<Utc>,
        bool,
    )> = sqlx::query_as(
        "SELECT p.id, p.name, p.club, p.checked_in, p.dropped_after_round IS NOT NULL, \
           r.id, r.number, r.ruleset, r.started_at IS NOT NULL, now(), coalesce(r.final, false) \
         FROM players p LEFT JOIN LATERAL (SELECT id, number, ruleset, started_at, final FROM rounds \
           WHERE event_id = p.event_id ORDER BY number DESC LIMIT 1) r ON true \
         WHERE p.event_id = $1 AND p.id = $2",
    )
    .bind(event_id)
    .bind(player_id)
    .fetch_optional(pool)
    .await?;
    let Some((
        id,
        name,
        club,
        checked_in,
        dropped,
        round_id,
        round,
        ruleset,
        begun,
        now,
        round_final,
    )) = row
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
            let seats: Vec<(i16, i16, PlayerId, String, Option<String>, Option<Vec<String>>, bool)> =
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
                .collect::<Result<_, _>>()?;
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
        round_final,
        ruleset,
        place,
        now_ms: now.timestamp_millis(),
    }))
}
