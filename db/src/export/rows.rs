//! One flat row type per export, and the reads that fill them. Field names are the CSV headers
//! and the JSON keys; `docs/exports.md` describes each. Rows derive `Deserialize` too, so a
//! script (and the tests) can read an export back into the same type.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use sqlx::PgPool;
use tournament::ids::{EventId, PlayerId, Revision, RoundNumber, TableNumber};

use super::Headers;
use crate::results::{self, ResultsError};

/// Strongholds as their codes, separated by spaces ("ARK CAR").
fn codes(strongholds: &[dune::Stronghold]) -> String {
    strongholds
        .iter()
        .map(|s| s.code())
        .collect::<Vec<_>>()
        .join(" ")
}

fn results_error(error: ResultsError) -> sqlx::Error {
    match error {
        ResultsError::Database(e) => e,
        other => sqlx::Error::Protocol(other.to_string()),
    }
}

// ---------------------------------------------------------------------------------------------

/// One row of the standings, in standings order. Numbers are numbers (points 3.5, each
/// tiebreaker of the best game in its own column); the forms people read are kept beside them
/// (`points_shown`, `best_game`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StandingRow {
    pub rank: usize,
    pub player_id: PlayerId,
    pub player: String,
    /// Tournament points as a decimal number: 3, 2.5.
    pub points: f64,
    /// The same as judges write them: `3`, `2½`.
    pub points_shown: String,
    /// Wins by type, heaviest first: `SSH 2 · EG 1`.
    pub wins: String,
    /// The best game's score (4.01.11) as the standings show it:
    /// `3 pts · 2 WA · 3 SH · 8 F · 12 Sp · 3 C · 3 L`; empty without a game.
    pub best_game: String,
    /// The best game's values, each in its column (empty without a game): its points, then the
    /// six tiebreakers of 4.01.11 in order.
    pub best_points: Option<f64>,
    pub best_win_attempts: Option<u32>,
    pub best_strongholds: Option<u32>,
    pub best_forces: Option<u32>,
    pub best_spice: Option<u32>,
    pub best_cards: Option<u32>,
    pub best_leaders: Option<u32>,
    pub games: usize,
    /// `in` (a finalist), `out`, or `tied` (tied across the cut line, the head judge draws).
    pub finals: String,
    /// Why this row is above the next one.
    pub reason: String,
    pub dropped: bool,
    pub alternate: bool,
    /// The player's place in the event once the final table is reported (ruling 13): the final
    /// game first, then qualifying order. Empty before.
    pub placing: Option<usize>,
}

impl Headers for StandingRow {
    const HEADERS: &'static [&'static str] = &[
        "rank",
        "player_id",
        "player",
        "points",
        "points_shown",
        "wins",
        "best_game",
        "best_points",
        "best_win_attempts",
        "best_strongholds",
        "best_forces",
        "best_spice",
        "best_cards",
        "best_leaders",
        "games",
        "finals",
        "reason",
        "dropped",
        "alternate",
        "placing",
    ];
}

pub fn finals_code(finalist: Option<bool>) -> &'static str {
    match finalist {
        Some(true) => "in",
        Some(false) => "out",
        None => "tied",
    }
}

pub(super) async fn standings(
    pool: &PgPool,
    event_id: EventId,
) -> Result<Vec<StandingRow>, sqlx::Error> {
    let standings = results::standings::event_standings(pool, event_id).await?;
    let placings = standings
        .final_table
        .map(|t| t.placings)
        .unwrap_or_default();
    Ok(standings
        .rows
        .into_iter()
        .map(|row| {
            let best = |i: usize| row.best.map(|b| b.values[i]);
            StandingRow {
                placing: placings
                    .iter()
                    .find(|p| p.player_id == row.player_id)
                    .map(|p| p.place),
                rank: row.rank,
                player_id: row.player_id,
                player: row.player.clone(),
                points: row.total.as_f64(),
                points_shown: row.points.clone(),
                wins: row
                    .wins
                    .iter()
                    .map(|(code, n)| format!("{code} {n}"))
                    .collect::<Vec<_>>()
                    .join(" · "),
                // Plain spaces in a file: a script splits on them.
                best_game: row
                    .best
                    .map(|b| b.short().replace('\u{a0}', " "))
                    .unwrap_or_default(),
                best_points: row.best.map(|b| b.points.as_f64()),
                best_win_attempts: best(0),
                best_strongholds: best(1),
                best_forces: best(2),
                best_spice: best(3),
                best_cards: best(4),
                best_leaders: best(5),
                games: row.games.len(),
                finals: finals_code(row.finalist).to_owned(),
                reason: row.reason.clone().unwrap_or_default(),
                dropped: row.dropped,
                alternate: row.alternate,
            }
        })
        .collect())
}

// ---------------------------------------------------------------------------------------------

/// One registered player.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, sqlx::FromRow)]
pub struct PlayerRow {
    pub player_id: PlayerId,
    pub name: String,
    pub email: Option<String>,
    pub club: Option<String>,
    pub checked_in: bool,
    /// Seated only to fill a table (ruling 1).
    pub alternate: bool,
    /// Rounds already drawn when the player entered (more than 0: a late entry).
    pub entered_after_round: i32,
    /// Rounds drawn when the player dropped; empty while playing.
    pub dropped_after_round: Option<i32>,
    /// The account the player confirms reports with.
    pub account: Option<String>,
    pub registered_at: DateTime<Utc>,
    /// What the wall's lists sort the player by instead of the name, if an organiser set it.
    pub sort_as: Option<String>,
}

impl Headers for PlayerRow {
    const HEADERS: &'static [&'static str] = &[
        "player_id",
        "name",
        "email",
        "club",
        "checked_in",
        "alternate",
        "entered_after_round",
        "dropped_after_round",
        "account",
        "registered_at",
        "sort_as",
    ];
}

pub(super) async fn players(
    pool: &PgPool,
    event_id: EventId,
) -> Result<Vec<PlayerRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT p.id AS player_id, p.name, p.email, p.club, p.checked_in, p.alternate, \
           p.entered_after_round, p.dropped_after_round, u.username AS account, \
           p.created_at AS registered_at, p.sort_as \
         FROM players p LEFT JOIN users u ON u.id = p.user_id \
         WHERE p.event_id = $1 ORDER BY lower(p.name), p.name",
    )
    .bind(event_id)
    .fetch_all(pool)
    .await
}

// ---------------------------------------------------------------------------------------------

/// One seat of one round (or a bye: no table, seat or circle).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatRow {
    pub round: RoundNumber,
    pub table: Option<TableNumber>,
    /// The seat number drawn (0.07).
    pub seat: Option<i16>,
    /// The player circle (ruling 2).
    pub circle: Option<i16>,
    pub player_id: PlayerId,
    pub player: String,
    /// The faction dealt (0.08), as its code.
    pub faction: Option<String>,
    /// `full` ruleset: the two alliance cards offered, as codes.
    pub offered: String,
    pub bye: bool,
}

impl Headers for SeatRow {
    const HEADERS: &'static [&'static str] = &[
        "round",
        "table",
        "seat",
        "circle",
        "player_id",
        "player",
        "faction",
        "offered",
        "bye",
    ];
}

type SeatQueryRow = (
    RoundNumber,
    TableNumber,
    i16,
    i16,
    PlayerId,
    String,
    Option<String>,
    Option<Vec<String>>,
);

pub(super) async fn seats(pool: &PgPool, event_id: EventId) -> Result<Vec<SeatRow>, sqlx::Error> {
    let seated: Vec<SeatQueryRow> = sqlx::query_as(
        "SELECT r.number, t.number, s.seat, s.circle, s.player_id, p.name, s.faction, s.offered \
         FROM seats s JOIN game_tables t ON t.id = s.table_id JOIN rounds r ON r.id = s.round_id \
           JOIN players p ON p.id = s.player_id \
         WHERE r.event_id = $1 ORDER BY r.number, t.number, s.seat",
    )
    .bind(event_id)
    .fetch_all(pool)
    .await?;
    let byes: Vec<(RoundNumber, PlayerId, String)> = sqlx::query_as(
        "SELECT r.number, p.id, p.name FROM round_byes b JOIN rounds r ON r.id = b.round_id \
           JOIN players p ON p.id = b.player_id \
         WHERE r.event_id = $1 ORDER BY r.number, lower(p.name)",
    )
    .bind(event_id)
    .fetch_all(pool)
    .await?;
    let mut rows: Vec<SeatRow> = seated
        .into_iter()
        .map(
            |(round, table, seat, circle, player_id, player, faction, offered)| SeatRow {
                round,
                table: Some(table),
                seat: Some(seat),
                circle: Some(circle),
                player_id,
                player,
                faction,
                offered: offered.unwrap_or_default().join(" "),
                bye: false,
            },
        )
        .collect();
    rows.extend(byes.into_iter().map(|(round, player_id, player)| SeatRow {
        round,
        table: None,
        seat: None,
        circle: None,
        player_id,
        player,
        faction: None,
        offered: String::new(),
        bye: true,
    }));
    // Each round's byes after its tables.
    rows.sort_by_key(|r| (r.round, r.bye));
    Ok(rows)
}

// ---------------------------------------------------------------------------------------------

/// One seat's line of one revision of a table's Game Report, with that player's answer to it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReportRow {
    pub round: RoundNumber,
    pub table: TableNumber,
    pub revision: Revision,
    /// This is the table's latest revision (the one that counts once final).
    pub latest: bool,
    /// When the revision became final (every player agreed, or the head judge decided).
    pub final_at: Option<DateTime<Utc>>,
    pub finalised_by: Option<String>,
    pub saved_at: DateTime<Utc>,
    pub saved_by: Option<String>,
    /// Why this revision replaced a final one.
    pub reason: Option<String>,
    /// `win`, `time` or `turns`.
    pub ended: String,
    pub last_turn: u32,
    /// The player the head judge drew for a tied adjudication (ruling 9).
    pub judge_draw: Option<String>,
    /// The seat number drawn (0.07).
    pub seat: i16,
    pub player_id: PlayerId,
    pub player: String,
    pub faction: String,
    pub ally: Option<String>,
    /// The win type recorded for this seat (its code), if any.
    pub result: Option<String>,
    /// Win attempts recorded up to the revision's last turn (4.01.11.01).
    pub win_attempts: u32,
    pub strongholds: u32,
    pub forces: u32,
    pub spice: u32,
    pub cards: u32,
    pub leaders: u32,
    /// `agreed`, `disputed`, or empty: the player's answer to this revision.
    pub confirmation: String,
    pub confirmed_by: Option<String>,
    pub confirmed_at: Option<DateTime<Utc>>,
    pub note: Option<String>,
    /// The Bene Gesserit's prediction on this revision (2.02.03): the faction's code and the
    /// turn, when recorded.
    pub prediction_faction: Option<String>,
    pub prediction_turn: Option<u32>,
}

impl Headers for ReportRow {
    const HEADERS: &'static [&'static str] = &[
        "round",
        "table",
        "revision",
        "latest",
        "final_at",
        "finalised_by",
        "saved_at",
        "saved_by",
        "reason",
        "ended",
        "last_turn",
        "judge_draw",
        "seat",
        "player_id",
        "player",
        "faction",
        "ally",
        "result",
        "win_attempts",
        "strongholds",
        "forces",
        "spice",
        "cards",
        "leaders",
        "confirmation",
        "confirmed_by",
        "confirmed_at",
        "note",
        "prediction_faction",
        "prediction_turn",
    ];
}

/// Every table of the event as (round, table), in order.
pub async fn table_numbers(
    pool: &PgPool,
    event_id: EventId,
) -> Result<Vec<(RoundNumber, TableNumber)>, sqlx::Error> {
    sqlx::query_as(
        "SELECT r.number, t.number FROM game_tables t JOIN rounds r ON r.id = t.round_id \
         WHERE r.event_id = $1 ORDER BY r.number, t.number",
    )
    .bind(event_id)
    .fetch_all(pool)
    .await
}

pub(super) async fn reports(
    pool: &PgPool,
    event_id: EventId,
) -> Result<Vec<ReportRow>, sqlx::Error> {
    let mut rows = Vec::new();
    for (round, table) in table_numbers(pool, event_id).await? {
        let results = results::reports::table_results(pool, event_id, round, table)
            .await
            .map_err(results_error)?;
        let name_of = |id: PlayerId| {
            results
                .table
                .seat_of(id)
                .map_or_else(|| format!("player {id}"), |s| s.player.to_string())
        };
        let latest = results.latest().map(|r| r.revision);
        // Oldest revision first, as the history happened.
        for revision in results.revisions.iter().rev() {
            let counts =
                results::attempts::counts(&results.attempts, Some(revision.draft.last_turn));
            for seat in &revision.draft.seats {
                let answer = revision
                    .confirmations
                    .iter()
                    .find(|c| c.player_id == seat.player_id);
                rows.push(ReportRow {
                    round,
                    table,
                    revision: revision.revision,
                    latest: Some(revision.revision) == latest,
                    final_at: revision.final_at,
                    finalised_by: revision.finalised_by.clone(),
                    saved_at: revision.created_at,
                    saved_by: revision.created_by.clone(),
                    reason: revision.reason.clone(),
                    ended: revision.draft.ended.code().to_owned(),
                    last_turn: revision.draft.last_turn,
                    judge_draw: revision.draft.judge_draw.map(name_of),
                    seat: results.table.seat_of(seat.player_id).map_or(0, |s| s.seat),
                    player_id: seat.player_id,
                    player: name_of(seat.player_id),
                    faction: seat.faction.code().to_owned(),
                    ally: seat.ally.map(|a| a.code().to_owned()),
                    result: seat.result.map(|w| w.code().to_owned()),
                    win_attempts: counts.get(&seat.player_id).copied().unwrap_or(0),
                    strongholds: seat.end.strongholds,
                    forces: seat.end.forces,
                    spice: seat.end.spice.amount(),
                    cards: seat.end.cards,
                    leaders: seat.end.leaders,
                    confirmation: match answer.map(|a| a.agrees) {
                        Some(true) => "agreed",
                        Some(false) => "disputed",
                        None => "",
                    }
                    .to_owned(),
                    confirmed_by: answer.and_then(|a| a.by.clone()),
                    confirmed_at: answer.map(|a| a.at),
                    note: answer.and_then(|a| a.note.clone()),
                    prediction_faction: revision
                        .draft
                        .prediction
                        .map(|p| p.faction.code().to_owned()),
                    prediction_turn: revision.draft.prediction.map(|p| p.turn),
                });
            }
        }
    }
    Ok(rows)
}

// ---------------------------------------------------------------------------------------------

/// One player's win attempt in one revision of a turn's record (4.01.04). A turn recorded with
/// nobody attempting has one row with no player.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AttemptRow {
    pub round: RoundNumber,
    pub table: TableNumber,
    pub turn: u32,
    pub revision: Revision,
    /// This is the turn's latest record (the one that counts).
    pub latest: bool,
    pub player_id: Option<PlayerId>,
    pub player: Option<String>,
    pub faction: Option<String>,
    /// The strongholds the judge saw the player hold, as codes ("ARK CAR TUK").
    pub strongholds: String,
    /// Why this record replaced an earlier one of the same turn.
    pub reason: Option<String>,
    pub recorded_by: Option<String>,
    pub recorded_at: DateTime<Utc>,
}

impl Headers for AttemptRow {
    const HEADERS: &'static [&'static str] = &[
        "round",
        "table",
        "turn",
        "revision",
        "latest",
        "player_id",
        "player",
        "faction",
        "strongholds",
        "reason",
        "recorded_by",
        "recorded_at",
    ];
}

pub(super) async fn attempts(
    pool: &PgPool,
    event_id: EventId,
) -> Result<Vec<AttemptRow>, sqlx::Error> {
    let mut rows = Vec::new();
    for (round, table) in table_numbers(pool, event_id).await? {
        let results = results::reports::table_results(pool, event_id, round, table)
            .await
            .map_err(results_error)?;
        let latest: Vec<(u32, Revision)> = results::attempts::latest(&results.attempts)
            .iter()
            .map(|r| (r.turn, r.revision))
            .collect();
        let mut history: Vec<&results::attempts::TurnRecord> = results.attempts.iter().collect();
        history.sort_by_key(|r| (r.turn, r.revision));
        for record in history {
            let base = AttemptRow {
                round,
                table,
                turn: record.turn,
                revision: record.revision,
                latest: latest.contains(&(record.turn, record.revision)),
                player_id: None,
                player: None,
                faction: None,
                strongholds: String::new(),
                reason: record.reason.clone(),
                recorded_by: record.recorded_by.clone(),
                recorded_at: record.recorded_at,
            };
            if record.attempts.is_empty() {
                rows.push(base);
                continue;
            }
            let mut attempts: Vec<&results::attempts::Attempt> = record.attempts.iter().collect();
            attempts.sort_by_key(|a| {
                results
                    .table
                    .seat_of(a.player_id)
                    .map_or(i16::MAX, |s| s.seat)
            });
            for attempt in attempts {
                let seat = results.table.seat_of(attempt.player_id);
                rows.push(AttemptRow {
                    player_id: Some(attempt.player_id),
                    player: Some(seat.map_or_else(
                        || format!("player {}", attempt.player_id),
                        |s| s.player.to_string(),
                    )),
                    faction: seat.and_then(|s| s.faction).map(|f| f.code().to_owned()),
                    strongholds: codes(&attempt.strongholds),
                    ..base.clone()
                });
            }
        }
    }
    Ok(rows)
}

// ---------------------------------------------------------------------------------------------

/// One entry of the event's audit log.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, sqlx::FromRow)]
pub struct AuditRow {
    pub id: i64,
    pub at: DateTime<Utc>,
    /// The account's name as it was then.
    pub actor: Option<String>,
    pub action: String,
    pub subject: Option<String>,
    /// The details, as JSON text.
    pub detail: String,
}

impl Headers for AuditRow {
    const HEADERS: &'static [&'static str] = &["id", "at", "actor", "action", "subject", "detail"];
}

pub(super) async fn audit(pool: &PgPool, event_id: EventId) -> Result<Vec<AuditRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT id, at, actor, action, subject, detail::text AS detail FROM audit_log \
         WHERE event_id = $1 ORDER BY at, id",
    )
    .bind(event_id)
    .fetch_all(pool)
    .await
}

// ---------------------------------------------------------------------------------------------

/// One line of the event's statistics (the statistics page, as rows): a `section` and the
/// `item` it counts, `count` of `of` (and as a percentage), and any `detail` in words.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StatisticRow {
    /// `games`, `ended`, `win_type`, `faction`, `seat`, `length` or `best`.
    pub section: String,
    pub item: String,
    pub count: usize,
    pub of: usize,
    /// `count` of `of` in percent, rounded.
    pub percent: u32,
    pub detail: String,
}

impl Headers for StatisticRow {
    const HEADERS: &'static [&'static str] =
        &["section", "item", "count", "of", "percent", "detail"];
}

fn statistic(section: &str, item: String, count: usize, of: usize, detail: String) -> StatisticRow {
    StatisticRow {
        section: section.to_owned(),
        item,
        count,
        of,
        percent: tournament::statistics::Share { count, of }.percent(),
        detail,
    }
}

pub(super) async fn statistics(
    pool: &PgPool,
    event_id: EventId,
) -> Result<Vec<StatisticRow>, sqlx::Error> {
    let games = crate::statistics::games(pool, Some(event_id)).await?;
    let s = tournament::statistics::compute(&games);
    let mut rows = vec![
        statistic("games", "games".into(), s.games, s.games, String::new()),
        statistic("games", "seats".into(), s.seats, s.seats, String::new()),
        statistic(
            "ended",
            "win".into(),
            s.ended_by_win,
            s.games,
            String::new(),
        ),
        statistic(
            "ended",
            "time".into(),
            s.ended_by_time,
            s.games,
            String::new(),
        ),
        statistic(
            "ended",
            "turns".into(),
            s.ended_by_turns,
            s.games,
            String::new(),
        ),
        statistic(
            "ended",
            "adjudicated".into(),
            s.adjudicated.count,
            s.adjudicated.of,
            String::new(),
        ),
        statistic(
            "ended",
            "no_winner".into(),
            s.no_winner,
            s.games,
            String::new(),
        ),
    ];
    rows.extend(
        s.win_types
            .iter()
            .map(|(w, n)| statistic("win_type", w.code().into(), *n, s.games, w.name().into())),
    );
    rows.extend(s.factions.iter().map(|f| {
        statistic(
            "faction",
            f.faction.code().into(),
            f.solo_wins + f.allied_wins,
            f.played,
            format!("{} solo, {} allied", f.solo_wins, f.allied_wins),
        )
    }));
    rows.extend(
        s.by_seat
            .iter()
            .map(|l| statistic("seat", l.seat.to_string(), l.wins, l.played, String::new())),
    );
    rows.extend(
        s.length.iter().map(|&(turn, n)| {
            statistic("length", format!("turn {turn}"), n, s.games, String::new())
        }),
    );
    rows.extend(s.best.iter().map(|b| {
        statistic(
            "best",
            b.faction.code().into(),
            0,
            0,
            format!(
                "{}, {}: {} {}",
                b.player,
                b.game,
                b.result.map_or("no win", |w| w.code()),
                b.score
            ),
        )
    }));
    Ok(rows)
}
