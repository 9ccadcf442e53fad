//! The games behind the statistics pages: every table's latest final report, with the results
//! as they count (adjudication included), each seat's game score and the strongholds its
//! player held at each recorded win attempt. `tournament::statistics` does the counting.

use sqlx::PgPool;
use tournament::ids::{EventId, PlayerId};
use tournament::statistics::{GameStats, SeatStats};

use crate::export::table_numbers;
use crate::results::{self, ResultsError, attempts};

fn results_error(error: ResultsError) -> sqlx::Error {
    match error {
        ResultsError::Database(e) => e,
        other => sqlx::Error::Protocol(other.to_string()),
    }
}

/// The events the statistics across events count: each event once, however many restored
/// copies of it this server holds. An event and its copies share their creation instant (a
/// backup keeps it) and the first event's address (`restored_from`); the original counts while
/// it is here, else the latest copy.
pub async fn counted_events(pool: &PgPool) -> Result<Vec<(EventId, String)>, sqlx::Error> {
    sqlx::query_as(
        "SELECT id, name FROM ( \
           SELECT DISTINCT ON (created_at, coalesce(restored_from, slug)) id, name, created_at \
           FROM events \
           ORDER BY created_at, coalesce(restored_from, slug), restored_at DESC NULLS FIRST, id DESC \
         ) counted ORDER BY created_at, id",
    )
    .fetch_all(pool)
    .await
}

/// The games of one event, or of every event (`None`; restored copies counted once).
pub async fn games(pool: &PgPool, event: Option<EventId>) -> Result<Vec<GameStats>, sqlx::Error> {
    let events: Vec<(EventId, String)> = match event {
        Some(id) => {
            sqlx::query_as("SELECT id, name FROM events WHERE id = $1")
                .bind(id)
                .fetch_all(pool)
                .await?
        }
        None => counted_events(pool).await?,
    };
    let mut games = Vec::new();
    for (event_id, name) in events {
        for (round, table) in table_numbers(pool, event_id).await? {
            let results = results::reports::table_results(pool, event_id, round, table)
                .await
                .map_err(results_error)?;
            // The latest revision counts once it is final.
            let Some(report) = results.latest().filter(|r| r.final_at.is_some()) else {
                continue;
            };
            let last_turn = report.draft.last_turn;
            let latest: Vec<&attempts::TurnRecord> = attempts::latest(&results.attempts)
                .into_iter()
                .filter(|r| r.turn <= last_turn)
                .collect();
            let turns: Vec<(u32, Vec<PlayerId>)> = latest
                .iter()
                .map(|r| (r.turn, r.attempts.iter().map(|a| a.player_id).collect()))
                .collect();
            // A final report that no longer passes (the standings leave it out too) is skipped.
            let Ok(outcome) = results::reports::check(&results.table, &report.draft, &turns) else {
                continue;
            };
            let counts = attempts::counts(&results.attempts, Some(last_turn));
            let seats = report
                .draft
                .seats
                .iter()
                .filter_map(|s| {
                    let line = results.table.seat_of(s.player_id)?;
                    let result = outcome
                        .results
                        .iter()
                        .find(|(id, _)| *id == s.player_id)
                        .and_then(|(_, w)| *w);
                    let attempts = counts.get(&s.player_id).copied().unwrap_or(0);
                    Some(SeatStats {
                        seat: u8::try_from(line.seat).unwrap_or(0),
                        player: line.player.to_string(),
                        faction: s.faction,
                        allied: s.ally.is_some(),
                        result,
                        score: (
                            result.map_or(dune::Points::ZERO, dune::WinType::points),
                            [
                                attempts,
                                s.end.strongholds,
                                s.end.forces,
                                s.end.spice.amount(),
                                s.end.cards,
                                s.end.leaders,
                            ],
                        ),
                        strongholds_by_turn: latest
                            .iter()
                            .filter_map(|r| {
                                let a = r.attempts.iter().find(|a| a.player_id == s.player_id)?;
                                (!a.strongholds.is_empty()).then_some((r.turn, a.strongholds.len()))
                            })
                            .collect(),
                    })
                })
                .collect();
            games.push(GameStats {
                label: format!("{name}, round {round}, table {table}"),
                ended: report.draft.ended,
                last_turn,
                adjudicated: outcome.adjudication.is_some(),
                seats,
            });
        }
    }
    Ok(games)
}
