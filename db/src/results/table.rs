//! A game table as the results code needs it: which round, who sits where, the rules in force.

use sqlx::{PgConnection, PgPool};
use tournament::{Faction, Ruleset, RulingOptions};

use super::ResultsError;
use crate::events::{parse_options, parse_ruleset};

#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct SeatLine {
    pub seat: i16,
    pub player_id: i64,
    pub player: String,
    pub faction: Option<Faction>,
    /// The account the player confirms with, if linked.
    pub user_id: Option<i64>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableContext {
    pub event_id: i64,
    pub table_id: i64,
    pub round: i32,
    pub table: i32,
    pub ruleset: Ruleset,
    pub options: RulingOptions,
    pub seats: Vec<SeatLine>,
    pub final_report: bool,
}

impl TableContext {
    pub fn seat_of(&self, player_id: i64) -> Option<&SeatLine> {
        self.seats.iter().find(|s| s.player_id == player_id)
    }

    pub fn label(&self) -> String {
        format!("round {}, table {}", self.round, self.table)
    }
}

type SeatRow = (i16, i64, String, Option<String>, Option<i64>);

type Head = (
    i32,
    i32,
    String,
    serde_json::Value,
    Option<chrono::DateTime<chrono::Utc>>,
);

const HEAD: &str = "SELECT r.number, t.number, e.ruleset, e.options, t.reported_at \
     FROM game_tables t JOIN rounds r ON r.id = t.round_id JOIN events e ON e.id = r.event_id \
     WHERE t.id = $1 AND r.event_id = $2";

const SEATS: &str = "SELECT s.seat, s.player_id, p.name, s.faction, p.user_id FROM seats s \
     JOIN players p ON p.id = s.player_id WHERE s.table_id = $1 ORDER BY s.seat";

fn build(
    event_id: i64,
    table_id: i64,
    head: Head,
    seats: Vec<SeatRow>,
) -> Result<TableContext, ResultsError> {
    let (round, table, ruleset, options, reported_at) = head;
    Ok(TableContext {
        event_id,
        table_id,
        round,
        table,
        ruleset: parse_ruleset(&ruleset)?,
        options: parse_options(options)?,
        final_report: reported_at.is_some(),
        seats: seats
            .into_iter()
            .map(|(seat, player_id, player, faction, user_id)| SeatLine {
                seat,
                player_id,
                player,
                faction: faction.as_deref().and_then(Faction::from_code),
                user_id,
            })
            .collect(),
    })
}

/// Loads the table and locks its row until the transaction ends: writes to one table's results
/// happen one at a time.
pub(crate) async fn lock(
    tx: &mut PgConnection,
    event_id: i64,
    table_id: i64,
) -> Result<TableContext, ResultsError> {
    let head: Option<Head> = sqlx::query_as(&format!("{HEAD} FOR UPDATE OF t"))
        .bind(table_id)
        .bind(event_id)
        .fetch_optional(&mut *tx)
        .await?;
    let head = head.ok_or(ResultsError::NotFound)?;
    let seats = sqlx::query_as(SEATS)
        .bind(table_id)
        .fetch_all(&mut *tx)
        .await?;
    build(event_id, table_id, head, seats)
}

pub async fn load(
    pool: &PgPool,
    event_id: i64,
    table_id: i64,
) -> Result<TableContext, ResultsError> {
    let head: Option<Head> = sqlx::query_as(HEAD)
        .bind(table_id)
        .bind(event_id)
        .fetch_optional(pool)
        .await?;
    let head = head.ok_or(ResultsError::NotFound)?;
    let seats = sqlx::query_as(SEATS).bind(table_id).fetch_all(pool).await?;
    build(event_id, table_id, head, seats)
}

/// The id of table `table` of round `round`, if the event has it.
pub async fn table_id(
    pool: &PgPool,
    event_id: i64,
    round: i32,
    table: i32,
) -> Result<Option<i64>, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT t.id FROM game_tables t JOIN rounds r ON r.id = t.round_id \
         WHERE r.event_id = $1 AND r.number = $2 AND t.number = $3",
    )
    .bind(event_id)
    .bind(round)
    .bind(table)
    .fetch_optional(pool)
    .await
}
