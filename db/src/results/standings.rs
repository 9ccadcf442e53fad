//! The event's standings from its final reports (4.01.10-11), with the reason for each row's
//! place and the finals line.

use std::collections::HashMap;
use tournament::ids::{EventId, PlayerId, RoundNumber, TableId, TableNumber};

use serde::Serialize;
use sqlx::{PgConnection, PgPool};
use tournament::{
    PlayerName, Points, Ruleset, Tiebreakers,
    report::{GameReport, Report, SeatReport},
    standings::{GameComponent, GameScore, OrderReason, PlayedGame, PlayerRecord, compute_for},
};

use super::{
    attempts, qualifying,
    reports::{SeatResult, ending},
};
use crate::events;

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GameLine {
    pub round: u32,
    pub table: u32,
    pub faction: &'static str,
    pub result: Option<&'static str>,
    /// 4.01.11's game score: points, then the six tiebreakers.
    pub score: GameScore,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Row {
    pub rank: usize,
    pub player_id: PlayerId,
    pub player: String,
    /// Points as judges write them: `3`, `2½`.
    pub points: String,
    /// The same points as a number, for files (3.5, not "3½").
    pub total: Points,
    /// Wins with a count, heaviest type first: (code, count).
    pub wins: Vec<(&'static str, u32)>,
    /// The best game's score (4.01.11), once a game counts.
    pub best: Option<GameScore>,
    pub games: Vec<GameLine>,
    /// In the finals, out, or tied across the cut line (`None`).
    pub finalist: Option<bool>,
    pub tie: bool,
    /// Why this row is above the next one, in words.
    pub reason: Option<String>,
    /// Same points as the next row: a tiebreaker (4.01.10's wins by type, 4.01.11's games, a
    /// draw) put this row above it.
    pub tiebreak: bool,
    pub dropped: bool,
    pub alternate: bool,
}

/// The final table (ruling 13) as the standings show it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FinalTable {
    pub round: RoundNumber,
    /// Play has begun (a clock started or the head judge locked the seats).
    pub begun: bool,
    /// The final game's report is final, so the placings hold.
    pub reported: bool,
    /// The event's placings (`tournament::finals::placings`), once the final report is final.
    pub placings: Vec<Placing>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Placing {
    pub place: usize,
    pub player_id: PlayerId,
    pub player: String,
    /// Played the final game.
    pub at_final: bool,
    /// The final game's result in words, for those who won it.
    pub result: Option<&'static str>,
    /// Place in the qualifying standings.
    pub qualified: usize,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct EventStandings {
    pub ruleset: Ruleset,
    pub rows: Vec<Row>,
    pub finals_seats: usize,
    /// A tie across the cut line still to settle: the players and the seats left for them.
    pub cut_tie: Option<(Vec<String>, usize)>,
    pub closed: Option<qualifying::Closed>,
    pub tables: i64,
    pub tables_final: i64,
    pub rounds: i32,
    /// Final reports that no longer pass the checks (for example after a win-attempt
    /// correction made an adjudication tie need the head judge's draw). Left out until fixed.
    pub problems: Vec<String>,
    /// The final table, once drawn; it never counts in the qualifying rows above.
    pub final_table: Option<FinalTable>,
}

impl EventStandings {
    pub fn row(&self, player_id: PlayerId) -> Option<&Row> {
        self.rows.iter().find(|r| r.player_id == player_id)
    }

    /// The players around the finals line, for showing what decided the cut (4.01.10-11): the
    /// two rows above the line, every row tied across it, and the two below; with the number of
    /// those rows above the line (all of them when everyone left is tied across the cut).
    /// `None` while no game counts or when there are seats for everyone.
    pub fn around_the_line(&self) -> Option<(&[Row], usize)> {
        if self.finals_seats == 0
            || self.rows.len() <= self.finals_seats
            || self.rows.iter().all(|r| r.games.is_empty())
        {
            return None;
        }
        // The line falls below the last player in the finals or tied across the cut.
        let last_in = self.rows.iter().rposition(|r| r.finalist != Some(false))?;
        let first_tied = self.rows.iter().position(|r| r.finalist.is_none());
        let start = first_tied
            .map_or(last_in, |t| t.min(last_in))
            .saturating_sub(2);
        let end = (last_in + 3).min(self.rows.len());
        Some((&self.rows[start..end], last_in + 1 - start))
    }
}

pub use tournament::standings::points_text;

/// A game's score in the rulebook's dotted form (`tournament::standings::score_text`), as
/// backups record it.
pub fn score_text(game: &PlayedGame) -> String {
    tournament::standings::score_text(game.score())
}

/// Why a row is above the next, with the values that decided it: "best game: more forces on
/// the board (4.01.11.03, ruling 11): 9 against 4".
fn reason_text(reason: OrderReason, above: &PlayerRecord, below: &PlayerRecord) -> String {
    let base = reason.to_string();
    let OrderReason::Game { game, component } = reason else {
        return base;
    };
    let (Some(a), Some(b)) = (above.games.get(game), below.games.get(game)) else {
        return base;
    };
    match component {
        GameComponent::Category(c) => format!(
            "{base}: {} against {}",
            a.tiebreakers.get(c),
            b.tiebreakers.get(c)
        ),
        GameComponent::Result => {
            let result = |g: &PlayedGame| g.result.map_or("no win", |w| w.code());
            format!("{base}: {} against {}", result(a), result(b))
        }
        GameComponent::Played => base,
    }
}

type FinalRow = (
    TableId,
    RoundNumber,
    TableNumber,
    String,
    i16,
    serde_json::Value,
    Option<PlayerId>,
    Option<serde_json::Value>,
);

/// Standings from every table's latest final report.
pub async fn event_standings(
    pool: &PgPool,
    event_id: EventId,
) -> Result<EventStandings, sqlx::Error> {
    let mut conn = pool.acquire().await?;
    event_standings_on(&mut conn, event_id).await
}

/// As [`event_standings`], on one connection: inside a transaction it sees that transaction's
/// writes (a restore compares the standings it made with the file's before committing).
pub async fn event_standings_on(
    conn: &mut PgConnection,
    event_id: EventId,
) -> Result<EventStandings, sqlx::Error> {
    let Some(event) = events::detail(&mut *conn, event_id).await? else {
        return Err(sqlx::Error::RowNotFound);
    };
    let ruleset = event.settings.ruleset;
    let options = event.settings.options.clone();
    let players: Vec<(PlayerId, String, bool, bool)> = sqlx::query_as(
        "SELECT id, name, alternate, dropped_after_round IS NOT NULL FROM players WHERE event_id = $1",
    )
    .bind(event_id)
    .fetch_all(&mut *conn)
    .await?;
    let by_id: HashMap<PlayerId, &(PlayerId, String, bool, bool)> =
        players.iter().map(|p| (p.0, p)).collect();
    let by_name: HashMap<&str, &(PlayerId, String, bool, bool)> =
        players.iter().map(|p| (p.1.as_str(), p)).collect();
    let finals = qualifying::closed_on(&mut *conn, event_id).await?;
    let (tables, tables_final, rounds): (i64, i64, i32) = sqlx::query_as(
        "SELECT count(t.id), count(t.reported_at), coalesce(max(r.number), 0) \
         FROM rounds r LEFT JOIN game_tables t ON t.round_id = r.id \
         WHERE r.event_id = $1 AND NOT r.final",
    )
    .bind(event_id)
    .fetch_one(&mut *conn)
    .await?;
    let finals_rows: Vec<FinalRow> = sqlx::query_as(
        "SELECT DISTINCT ON (g.table_id) g.table_id, r.number, t.number, g.ended, g.last_turn, \
           g.seats, g.judge_draw, g.prediction \
         FROM game_reports g JOIN game_tables t ON t.id = g.table_id \
           JOIN rounds r ON r.id = t.round_id \
         WHERE r.event_id = $1 AND g.final_at IS NOT NULL AND NOT r.final \
         ORDER BY g.table_id, g.revision DESC",
    )
    .bind(event_id)
    .fetch_all(&mut *conn)
    .await?;
    let counts = attempts::counts_for_tables(
        &mut *conn,
        &finals_rows
            .iter()
            // The schema keeps the last turn from 1 to 10.
            .map(|r| (r.0, u32::from(r.4.unsigned_abs())))
            .collect::<Vec<_>>(),
    )
    .await?;
    let name_of = |id: PlayerId| by_id.get(&id).and_then(|p| PlayerName::parse(&p.1).ok());
    let mut games = Vec::with_capacity(finals_rows.len());
    for (table_id, round, table, ended, _last, seats, judge_draw, prediction) in finals_rows {
        let seats: Vec<SeatResult> =
            serde_json::from_value(seats).map_err(|e| sqlx::Error::Decode(Box::new(e)))?;
        let prediction: Option<tournament::Prediction> = prediction
            .map(serde_json::from_value)
            .transpose()
            .map_err(|e| sqlx::Error::Decode(Box::new(e)))?;
        games.push(GameReport {
            // The schema keeps both from 1 (CHECK constraints).
            round: round.get().unsigned_abs(),
            table: table.get().unsigned_abs(),
            ended: ending(&ended)?,
            last_turn: None,
            seats: seats
                .iter()
                .filter_map(|s| {
                    Some(SeatReport {
                        player: name_of(s.player_id)?,
                        faction: s.faction,
                        ally: s.ally,
                        result: s.result,
                        tiebreakers: Tiebreakers {
                            win_attempts: counts
                                .get(&(table_id, s.player_id))
                                .copied()
                                .unwrap_or(0),
                            end: s.end,
                        },
                    })
                })
                .collect(),
            judge_draw: judge_draw.and_then(name_of),
            prediction,
        });
    }
    games.sort_by_key(|g| (g.round, g.table));
    let mut problems = Vec::new();
    let report = Report {
        ruleset,
        options: options.clone(),
        games: games.clone(),
    };
    let valid = match tournament::validate(&report) {
        Ok(valid) => valid,
        Err(_) => {
            // Keep every game that passes on its own; name the others.
            let mut good = Vec::new();
            for game in games {
                let single = Report {
                    ruleset,
                    options: options.clone(),
                    games: vec![game.clone()],
                };
                match tournament::validate(&single) {
                    Ok(_) => good.push(game),
                    Err(e) => problems.push(e.to_string()),
                }
            }
            match tournament::validate(&Report {
                ruleset,
                options: options.clone(),
                games: good,
            }) {
                Ok(valid) => valid,
                Err(e) => {
                    problems.push(e.to_string());
                    tournament::validate(&Report {
                        ruleset,
                        options: options.clone(),
                        games: Vec::new(),
                    })
                    .map_err(|e| sqlx::Error::Protocol(e.to_string()))?
                }
            }
        }
    };
    let entrants: Vec<PlayerName> = players
        .iter()
        .filter(|p| !p.2)
        .filter_map(|p| PlayerName::parse(&p.1).ok())
        .collect();
    let finals_seats = options.finals_seats;
    let standings = compute_for(&valid, &entrants, finals_seats, |name| {
        by_name.get(name.as_str()).is_some_and(|p| !p.2 && !p.3)
    });
    let records: Vec<&PlayerRecord> = standings.rows.iter().map(|r| &r.record).collect();
    let rows = standings
        .rows
        .iter()
        .enumerate()
        .map(|(i, row)| {
            // Every name in the standings comes from this event's players.
            let info = by_name.get(row.record.player.as_str()).ok_or_else(|| {
                sqlx::Error::Protocol(format!(
                    "the standings name {}, who is not a player of this event",
                    row.record.player
                ))
            })?;
            Ok(Row {
                rank: row.rank,
                player_id: info.0,
                player: row.record.player.as_str().to_owned(),
                points: points_text(row.record.points),
                total: row.record.points,
                wins: row
                    .record
                    .wins(ruleset)
                    .into_iter()
                    .map(|(w, n)| (w.code(), n))
                    .collect(),
                best: row.record.best_game().map(PlayedGame::game_score),
                games: row
                    .record
                    .games
                    .iter()
                    .map(|g| GameLine {
                        round: g.round,
                        table: g.table,
                        faction: g.faction.code(),
                        result: g.result.map(|w| w.code()),
                        score: g.game_score(),
                    })
                    .collect(),
                finalist: row.finalist,
                tie: row.tie,
                reason: row.reason.and_then(|reason| {
                    Some(reason_text(reason, records.get(i)?, records.get(i + 1)?))
                }),
                tiebreak: row
                    .reason
                    .is_some_and(|reason| reason != OrderReason::Points),
                dropped: info.3,
                alternate: info.2,
            })
        })
        .collect::<Result<Vec<_>, sqlx::Error>>()?;
    let cut_tie = standings.finals.cut_tie.map(|t| {
        (
            t.players
                .iter()
                .map(|p| p.as_str().to_owned())
                .collect::<Vec<_>>(),
            t.open_seats,
        )
    });
    // The finals list is derived from the standings, never frozen at closing.
    let closed = finals.map(|c| {
        let (tied, open) = cut_tie.clone().unwrap_or_default();
        c.agreeing_with(
            rows.iter()
                .filter(|r| r.finalist == Some(true))
                .map(|r| r.player.clone())
                .collect(),
            tied,
            open,
        )
    });
    let final_table = final_table(&mut *conn, event_id, ruleset, &rows).await?;
    Ok(EventStandings {
        ruleset,
        rows,
        finals_seats,
        cut_tie,
        closed,
        tables,
        tables_final,
        rounds,
        problems,
        final_table,
    })
}

/// The final table's state and, once its report is final, the event's placings: the final
/// game's result first, then qualifying order (`tournament::finals::placings`).
async fn final_table(
    conn: &mut PgConnection,
    event_id: EventId,
    ruleset: Ruleset,
    rows: &[Row],
) -> Result<Option<FinalTable>, sqlx::Error> {
    let round: Option<(RoundNumber, bool, Option<TableId>, bool)> = sqlx::query_as(
        "SELECT r.number, r.started_at IS NOT NULL, t.id, t.reported_at IS NOT NULL \
         FROM rounds r LEFT JOIN game_tables t ON t.round_id = r.id \
         WHERE r.event_id = $1 AND r.final ORDER BY t.number LIMIT 1",
    )
    .bind(event_id)
    .fetch_optional(&mut *conn)
    .await?;
    let Some((round, begun, table_id, reported)) = round else {
        return Ok(None);
    };
    let mut placings = Vec::new();
    let report: Option<serde_json::Value> = match (table_id, reported) {
        (Some(table_id), true) => {
            sqlx::query_scalar(
                "SELECT seats FROM game_reports WHERE table_id = $1 AND final_at IS NOT NULL \
                 ORDER BY revision DESC LIMIT 1",
            )
            .bind(table_id)
            .fetch_optional(&mut *conn)
            .await?
        }
        _ => None,
    };
    if let Some(seats) = report {
        let seats: Vec<SeatResult> =
            serde_json::from_value(seats).map_err(|e| sqlx::Error::Decode(Box::new(e)))?;
        let name = |id: PlayerId| {
            rows.iter()
                .find(|r| r.player_id == id)
                .and_then(|r| PlayerName::parse(&r.player).ok())
        };
        let qualifying: Vec<PlayerName> = rows
            .iter()
            .filter_map(|r| PlayerName::parse(&r.player).ok())
            .collect();
        let results: Vec<(PlayerName, Option<tournament::WinType>)> = seats
            .iter()
            .filter_map(|s| Some((name(s.player_id)?, s.result)))
            .collect();
        for p in tournament::finals::placings(ruleset, &qualifying, &results) {
            let Some(row) = rows.iter().find(|r| r.player == p.player.as_str()) else {
                continue;
            };
            let (at_final, result, qualified) = match p.basis {
                tournament::finals::PlacingBasis::Final { result, qualified } => {
                    (true, result.map(|w| w.name()), qualified)
                }
                tournament::finals::PlacingBasis::Qualifying { qualified } => {
                    (false, None, qualified)
                }
            };
            placings.push(Placing {
                place: p.place,
                player_id: row.player_id,
                player: row.player.clone(),
                at_final,
                result,
                qualified,
            });
        }
    }
    Ok(Some(FinalTable {
        round,
        begun,
        reported,
        placings,
    }))
}

#[cfg(test)]
mod around_the_line_tests {
    use super::*;

    /// A score written the rulebook's way, whole points only: `1.2.1.9.5.2.5`.
    fn score(dotted: &str) -> GameScore {
        let n: Vec<u32> = dotted.split('.').map(|v| v.parse().unwrap()).collect();
        GameScore::new((
            Points::from_halves(n[0] * 2),
            [n[1], n[2], n[3], n[4], n[5], n[6]],
        ))
    }

    fn row(rank: usize, name: &str, points: &str, best: &str, finalist: Option<bool>) -> Row {
        Row {
            rank,
            player_id: PlayerId(i64::try_from(rank).unwrap_or_default()),
            player: name.to_owned(),
            points: points.to_owned(),
            total: Points::from_halves(points.parse::<u32>().unwrap() * 2),
            wins: Vec::new(),
            best: Some(score(best)),
            games: vec![GameLine {
                round: 1,
                table: 1,
                faction: "AT",
                result: None,
                score: score(best),
            }],
            finalist,
            tie: false,
            reason: None,
            tiebreak: false,
            dropped: false,
            alternate: false,
        }
    }

    fn standings(rows: Vec<Row>, finals_seats: usize) -> EventStandings {
        EventStandings {
            ruleset: Ruleset::default(),
            rows,
            finals_seats,
            cut_tie: None,
            closed: None,
            tables: 1,
            tables_final: 1,
            rounds: 1,
            problems: Vec::new(),
            final_table: None,
        }
    }

    #[test]
    fn the_rows_around_the_line_carry_the_best_games_that_split_the_tied_points() {
        // Seats for 3: C and D both have 1 point; D's best game has fewer forces (4.01.11.03).
        let s = standings(
            vec![
                row(1, "A", "3", "3.1.1.9.5.2.5", Some(true)),
                row(2, "B", "2", "2.1.1.9.5.2.5", Some(true)),
                row(3, "C", "1", "1.2.1.9.5.2.5", Some(true)),
                row(4, "D", "1", "1.2.1.4.5.2.5", Some(false)),
                row(5, "E", "1", "1.0.0.0.0.0.0", Some(false)),
                row(6, "F", "0", "0.0.0.0.0.0.0", Some(false)),
            ],
            3,
        );
        let (rows, above) = s.around_the_line().unwrap();
        let names: Vec<&str> = rows.iter().map(|r| r.player.as_str()).collect();
        assert_eq!(names, ["A", "B", "C", "D", "E"]);
        assert_eq!(above, 3);
        let tied: Vec<(&str, Option<String>)> = rows
            .iter()
            .filter(|r| r.points == "1")
            .map(|r| (r.points.as_str(), r.best.map(|b| b.dotted())))
            .collect();
        assert_eq!(
            tied,
            [
                ("1", Some("1.2.1.9.5.2.5".to_owned())),
                ("1", Some("1.2.1.4.5.2.5".to_owned())),
                ("1", Some("1.0.0.0.0.0.0".to_owned()))
            ]
        );
    }

    #[test]
    fn a_tie_across_the_cut_shows_every_tied_player() {
        let mut rows = vec![row(1, "A", "3", "3.1.1.9.5.2.5", Some(true))];
        for (i, name) in ["B", "C", "D", "E", "F"].into_iter().enumerate() {
            rows.push(row(i + 2, name, "0", "0.0.0.0.0.0.0", None));
        }
        rows.push(row(7, "G", "0", "0.0.0.0.0.0.0", Some(false)));
        let s = standings(rows, 2);
        let (rows, above) = s.around_the_line().unwrap();
        assert_eq!(rows.len(), 7, "A, the five tied, and G");
        assert_eq!(above, 6, "the line falls below the last tied player");
        assert!(rows.iter().all(|r| r.best.is_some()));
    }

    #[test]
    fn no_line_before_games_count_or_when_everyone_is_in() {
        let mut s = standings(
            vec![
                row(1, "A", "3", "3.1.1.9.5.2.5", Some(true)),
                row(2, "B", "0", "0.0.0.0.0.0.0", Some(true)),
            ],
            2,
        );
        assert!(s.around_the_line().is_none(), "everyone is in");
        s.finals_seats = 1;
        s.rows[1].finalist = Some(false);
        assert!(s.around_the_line().is_some());
        for r in &mut s.rows {
            r.games.clear();
        }
        assert!(s.around_the_line().is_none(), "no game counted yet");
    }
}
