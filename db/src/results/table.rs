//! A game table as the results code needs it: which round, who sits where, the rules in force.

use dune::Faction;
use sqlx::{PgConnection, PgPool};
use tournament::ids::{EventId, PlayerId, RoundNumber, TableId, TableNumber, UserId};
use tournament::{PlayerName, Ruleset, RulingOptions};

use super::ResultsError;
use crate::events::{parse_options, parse_ruleset};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeatLine {
    /// The seat number drawn (0.07), from 1.
    pub seat: i16,
    pub player_id: PlayerId,
    pub player: PlayerName,
    /// The faction dealt (0.08), once the draw has dealt one.
    pub faction: Option<Faction>,
    /// The account the player confirms with, if linked.
    pub user_id: Option<UserId>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableContext {
    pub event_id: EventId,
    pub table_id: TableId,
    pub round: RoundNumber,
    pub table: TableNumber,
    pub ruleset: Ruleset,
    pub options: RulingOptions,
    /// In seat order: the position in this list is the seat's position in the report.
    pub seats: Vec<SeatLine>,
    pub final_report: bool,
}

impl TableContext {
    pub fn seat_of(&self, player_id: PlayerId) -> Option<&SeatLine> {
        self.seats.iter().find(|s| s.player_id == player_id)
    }

    /// The player's position in seat order.
    pub fn position_of(&self, player_id: PlayerId) -> Option<usize> {
        self.seats.iter().position(|s| s.player_id == player_id)
    }

    pub fn label(&self) -> String {
        format!("round {}, table {}", self.round, self.table)
    }
}

type SeatRow = (i16, PlayerId, String, Option<String>, Option<UserId>);

type Head = (
    TableId,
    RoundNumber,
    TableNumber,
    String,
    serde_json::Value,
    Option<chrono::DateTime<chrono::Utc>>,
);

const HEAD: &str = "SELECT t.id, r.number, t.number, e.ruleset, e.options, t.reported_at \
     FROM game_tables t JOIN rounds r ON r.id = t.round_id JOIN events e ON e.id = r.event_id \
     WHERE r.event_id = $1 AND r.number = $2 AND t.number = $3";

const SEATS: &str = "SELECT s.seat, s.player_id, p.name, s.faction, p.user_id FROM seats s \
     JOIN players p ON p.id = s.player_id WHERE s.table_id = $1 ORDER BY s.seat";

/// A stored value the schema should not have let in: reading stops with a decoding error.
pub(crate) fn corrupt(what: &str, value: &str) -> sqlx::Error {
    sqlx::Error::Decode(format!("stored {what} {value:?} is not valid").into())
}

fn build(event_id: EventId, head: Head, seats: Vec<SeatRow>) -> Result<TableContext, ResultsError> {
    let (table_id, round, table, ruleset, options, reported_at) = head;
    if round.get() < 1 || table.get() < 1 {
        return Err(corrupt("round and table", &format!("{round}/{table}")).into());
    }
    let seats = seats
        .into_iter()
        .map(|(seat, player_id, player, faction, user_id)| {
            Ok(SeatLine {
                seat,
                player_id,
                player: PlayerName::parse(&player).map_err(|_| corrupt("player name", &player))?,
                faction: match faction {
                    None => None,
                    Some(code) => {
                        Some(Faction::from_code(&code).ok_or_else(|| corrupt("faction", &code))?)
                    }
                },
                user_id,
            })
        })
        .collect::<Result<Vec<_>, sqlx::Error>>()?;
    Ok(TableContext {
        event_id,
        table_id,
        round,
        table,
        ruleset: parse_ruleset(&ruleset)?,
        options: parse_options(options)?,
        final_report: reported_at.is_some(),
        seats,
    })
}

/// Loads table `table` of round `round` and locks its row until the transaction ends: writes to
/// one table's results happen one at a time.
pub(crate) async fn lock(
    tx: &mut PgConnection,
    event_id: EventId,
    round: RoundNumber,
    table: TableNumber,
) -> Result<TableContext, ResultsError> {
    let head: Option<Head> = sqlx::query_as(&format!("{HEAD} FOR UPDATE OF t"))
        .bind(event_id)
        .bind(round)
        .bind(table)
        .fetch_optional(&mut *tx)
        .await?;
    let head = head.ok_or(ResultsError::NotFound)?;
    let seats = sqlx::query_as(SEATS)
        .bind(head.0)
        .fetch_all(&mut *tx)
        .await?;
    build(event_id, head, seats)
}

/// Loads table `table` of round `round`, if the event has it.
pub(crate) async fn load(
    pool: &PgPool,
    event_id: EventId,
    round: RoundNumber,
    table: TableNumber,
) -> Result<TableContext, ResultsError> {
    let head: Option<Head> = sqlx::query_as(HEAD)
        .bind(event_id)
        .bind(round)
        .bind(table)
        .fetch_optional(pool)
        .await?;
    let head = head.ok_or(ResultsError::NotFound)?;
    let seats = sqlx::query_as(SEATS).bind(head.0).fetch_all(pool).await?;
    build(event_id, head, seats)
}
