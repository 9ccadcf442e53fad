//! The API's reads: the event, its standings, its rounds and a table's report. Public data
//! needs no sign-in; a table's unconfirmed report is for the staff, as on the table page.

use axum::{
    Json,
    extract::{Path, State},
    http::HeaderMap,
};
use db::roles::Action;
use tournament::ids::{RoundNumber, TableNumber};
use tower_sessions::Session;

use super::error::{ApiError, ErrorBody};
use super::types;
use crate::http::{AppState, access::Caller};

/// The caller, with a token's use recorded as this request.
pub(super) async fn caller(
    state: &AppState,
    session: &Session,
    headers: &HeaderMap,
    purpose: String,
) -> Result<Caller, ApiError> {
    Ok(Caller::of(&state.pool, session, headers, &purpose).await?)
}

pub(super) async fn event_at(state: &AppState, slug: &str) -> Result<db::events::Event, ApiError> {
    Ok(crate::http::access::event(&state.pool, slug).await?)
}

/// The event and its settings.
#[utoipa::path(
    get,
    path = "/api/v1/events/{slug}",
    tag = "read",
    params(("slug" = String, Path, description = "The event's address: /events/{slug}")),
    responses(
        (status = 200, description = "The event", body = types::Event),
        (status = 404, description = "No such event", body = ErrorBody),
    ),
    security((), ("token" = [])),
)]
pub async fn event(
    State(state): State<AppState>,
    Path(slug): Path<String>,
    session: Session,
    headers: HeaderMap,
) -> Result<Json<types::Event>, ApiError> {
    let caller = caller(
        &state,
        &session,
        &headers,
        format!("GET /api/v1/events/{slug}"),
    )
    .await?;
    let event = event_at(&state, &slug).await?;
    caller
        .require(&state.pool, &event, Action::ViewPublic)
        .await?;
    Ok(Json(event_body(&state, &event).await?))
}

/// The event as `GET /api/v1/events/{slug}` answers it.
pub(super) async fn event_body(
    state: &AppState,
    event: &db::events::Event,
) -> Result<types::Event, ApiError> {
    let pool = &state.pool;
    let detail = db::events::detail(pool, event.id)
        .await
        .map_err(|e| ApiError::internal("reading an event", e))?
        .ok_or_else(|| ApiError::not_found("No such event."))?;
    let drawn = db::rounds::latest_qualifying(pool, event.id)
        .await
        .map_err(|e| ApiError::internal("reading rounds", e))?;
    let closed = db::results::qualifying::closed(pool, event.id)
        .await
        .map_err(|e| ApiError::internal("reading the finals", e))?;
    let s = detail.settings;
    Ok(types::Event {
        slug: detail.slug,
        name: s.name,
        starts_on: s.starts_on,
        ends_on: s.ends_on,
        venue: s.venue,
        ruleset: s.ruleset.id().to_owned(),
        qualifying_rounds: s.qualifying_rounds,
        finals_seats: s.options.finals_seats,
        rounds_drawn: drawn.map_or(0, RoundNumber::get),
        qualifying_closed: closed.is_some(),
    })
}

/// The standings: order, points, wins, best game, every game's score and the finals line, as
/// the public standings page shows them (4.01.10-11).
#[utoipa::path(
    get,
    path = "/api/v1/events/{slug}/standings",
    tag = "read",
    params(("slug" = String, Path, description = "The event's address")),
    responses(
        (status = 200, description = "The standings", body = types::Standings),
        (status = 404, description = "No such event", body = ErrorBody),
    ),
    security((), ("token" = [])),
)]
pub async fn standings(
    State(state): State<AppState>,
    Path(slug): Path<String>,
    session: Session,
    headers: HeaderMap,
) -> Result<Json<types::Standings>, ApiError> {
    let caller = caller(
        &state,
        &session,
        &headers,
        format!("GET /api/v1/events/{slug}/standings"),
    )
    .await?;
    let event = event_at(&state, &slug).await?;
    caller
        .require(&state.pool, &event, Action::ViewPublic)
        .await?;
    let s = db::results::standings::event_standings(&state.pool, event.id)
        .await
        .map_err(|e| ApiError::internal("computing the standings", e))?;
    let placings = s
        .final_table
        .as_ref()
        .map(|t| t.placings.clone())
        .unwrap_or_default();
    Ok(Json(types::Standings {
        rounds_played: s.rounds,
        tables: s.tables,
        tables_final: s.tables_final,
        finals_seats: s.finals_seats,
        cut_tie: s
            .cut_tie
            .map(|(players, seats)| types::CutTie { players, seats }),
        finalists: s.closed.as_ref().and_then(|c| c.all_finalists()),
        qualifying_closed: s.closed.is_some(),
        left_out: s.problems,
        final_round: s.final_table.as_ref().map(|t| t.round.get()),
        final_reported: s.final_table.as_ref().is_some_and(|t| t.reported),
        rows: s
            .rows
            .into_iter()
            .map(|r| types::Standing {
                placing: placings
                    .iter()
                    .find(|p| p.player_id == r.player_id)
                    .map(|p| p.place),
                rank: r.rank,
                player_id: r.player_id.get(),
                player: r.player,
                points: r.points,
                wins: r
                    .wins
                    .into_iter()
                    .map(|(code, count)| types::WinCount {
                        code: code.to_owned(),
                        count,
                    })
                    .collect(),
                best_game: r.best.map(|b| b.dotted()),
                games: r
                    .games
                    .into_iter()
                    .map(|g| types::Game {
                        round: g.round,
                        table: g.table,
                        faction: g.faction.to_owned(),
                        result: g.result.map(str::to_owned),
                        score: g.score.dotted(),
                    })
                    .collect(),
                finals: db::export::finals_code(r.finalist).to_owned(),
                reason: r.reason,
                dropped: r.dropped,
                alternate: r.alternate,
            })
            .collect(),
    }))
}

/// The rounds drawn so far, oldest first.
#[utoipa::path(
    get,
    path = "/api/v1/events/{slug}/rounds",
    tag = "read",
    params(("slug" = String, Path, description = "The event's address")),
    responses(
        (status = 200, description = "The rounds", body = Vec<types::RoundSummary>),
        (status = 404, description = "No such event", body = ErrorBody),
    ),
    security((), ("token" = [])),
)]
pub async fn rounds(
    State(state): State<AppState>,
    Path(slug): Path<String>,
    session: Session,
    headers: HeaderMap,
) -> Result<Json<Vec<types::RoundSummary>>, ApiError> {
    let caller = caller(
        &state,
        &session,
        &headers,
        format!("GET /api/v1/events/{slug}/rounds"),
    )
    .await?;
    let event = event_at(&state, &slug).await?;
    caller
        .require(&state.pool, &event, Action::ViewPublic)
        .await?;
    let rounds = db::rounds::list(&state.pool, event.id)
        .await
        .map_err(|e| ApiError::internal("listing rounds", e))?;
    Ok(Json(
        rounds
            .into_iter()
            .map(|r| types::RoundSummary {
                number: r.number.get(),
                seed: r.seed,
                begun: r.begun,
                tables: r.tables,
                seated: r.seated,
                byes: r.byes,
                reports_missing: r.reports_missing,
            })
            .collect(),
    ))
}

fn clock_of(clock: &tournament::Clock, now_ms: i64) -> types::Clock {
    let reading = clock.read(now_ms);
    types::Clock {
        phase: match reading.phase {
            tournament::clock::Phase::NotStarted => "not_started",
            tournament::clock::Phase::Running => "running",
            tournament::clock::Phase::FinishWindow => "finish_window",
            tournament::clock::Phase::Over => "over",
        }
        .to_owned(),
        paused: reading.paused,
        stopped: reading.stopped,
        elapsed_seconds: reading.elapsed_ms / 1000,
        limit_seconds: reading.limit_ms / 1000,
        remaining_seconds: reading.remaining_ms / 1000,
        started_at: clock
            .started_at
            .and_then(chrono::DateTime::from_timestamp_millis),
    }
}

/// One round: its tables, seats, players, factions and clocks, and the byes.
#[utoipa::path(
    get,
    path = "/api/v1/events/{slug}/rounds/{n}",
    tag = "read",
    params(
        ("slug" = String, Path, description = "The event's address"),
        ("n" = i32, Path, description = "The round's number, from 1"),
    ),
    responses(
        (status = 200, description = "The round", body = types::Round),
        (status = 404, description = "No such event or round", body = ErrorBody),
    ),
    security((), ("token" = [])),
)]
pub async fn round(
    State(state): State<AppState>,
    Path((slug, n)): Path<(String, i32)>,
    session: Session,
    headers: HeaderMap,
) -> Result<Json<types::Round>, ApiError> {
    let caller = caller(
        &state,
        &session,
        &headers,
        format!("GET /api/v1/events/{slug}/rounds/{n}"),
    )
    .await?;
    let event = event_at(&state, &slug).await?;
    caller
        .require(&state.pool, &event, Action::ViewPublic)
        .await?;
    Ok(Json(round_body(&state, &event, n).await?))
}

/// Round `n` as `GET /api/v1/events/{slug}/rounds/{n}` answers it.
pub(super) async fn round_body(
    state: &AppState,
    event: &db::events::Event,
    n: i32,
) -> Result<types::Round, ApiError> {
    let detail = db::rounds::detail(&state.pool, event.id, RoundNumber(n))
        .await
        .map_err(|e| ApiError::internal("reading a round", e))?
        .ok_or_else(|| ApiError::not_found(format!("{} has no round {n}.", event.name)))?;
    let now = detail.now_ms;
    Ok(types::Round {
        number: detail.round.number.get(),
        seed: detail.round.seed,
        drawn_at: detail.round.drawn_at,
        begun_at: detail.round.started_at,
        read_at: chrono::DateTime::from_timestamp_millis(now).unwrap_or_default(),
        tables: detail
            .tables
            .iter()
            .map(|t| types::Table {
                number: t.number.get(),
                reported: t.reported,
                clock: clock_of(&t.clock, now),
                seats: t
                    .seats
                    .iter()
                    .map(|s| types::Seat {
                        seat: s.seat,
                        circle: s.circle,
                        player_id: s.player_id.get(),
                        player: s.player.clone(),
                        faction: s.faction.map(|f| f.code().to_owned()),
                        offered: s
                            .offered
                            .map(|(c, e)| vec![c.code().to_owned(), e.code().to_owned()]),
                        dropped: s.dropped,
                    })
                    .collect(),
            })
            .collect(),
        byes: detail
            .byes
            .into_iter()
            .map(|(id, name)| types::PlayerRef {
                player_id: id.get(),
                player: name,
            })
            .collect(),
    })
}

/// A table's Game Report: the latest final revision; staff (judges and up) see the latest
/// revision whatever its state.
#[utoipa::path(
    get,
    path = "/api/v1/events/{slug}/rounds/{n}/tables/{t}/report",
    tag = "read",
    params(
        ("slug" = String, Path, description = "The event's address"),
        ("n" = i32, Path, description = "The round's number"),
        ("t" = i32, Path, description = "The table's number in the round"),
    ),
    responses(
        (status = 200, description = "The report", body = types::Report),
        (status = 404, description = "No such table, or no report to show yet", body = ErrorBody),
    ),
    security((), ("token" = [])),
)]
pub async fn report(
    State(state): State<AppState>,
    Path((slug, n, t)): Path<(String, i32, i32)>,
    session: Session,
    headers: HeaderMap,
) -> Result<Json<types::Report>, ApiError> {
    let caller = caller(
        &state,
        &session,
        &headers,
        format!("GET /api/v1/events/{slug}/rounds/{n}/tables/{t}/report"),
    )
    .await?;
    let event = event_at(&state, &slug).await?;
    caller
        .require(&state.pool, &event, Action::ViewPublic)
        .await?;
    let staff = caller
        .may(&state.pool, &event, Action::ViewAllReports)
        .await;
    let results =
        db::results::reports::table_results(&state.pool, event.id, RoundNumber(n), TableNumber(t))
            .await
            .map_err(super::writes::results_error)?;
    let shown = results
        .revisions
        .iter()
        .find(|r| staff || r.final_at.is_some())
        .ok_or_else(|| {
            ApiError::not_found(format!(
                "Round {n}, table {t} has no {}report yet.",
                if staff { "" } else { "final " }
            ))
        })?;
    let is_latest = results.latest().map(|r| r.revision) == Some(shown.revision);
    let name_of = |id: tournament::ids::PlayerId| {
        results
            .table
            .seat_of(id)
            .map_or_else(|| format!("player {id}"), |s| s.player.to_string())
    };
    let counts = db::results::attempts::counts(&results.attempts, Some(shown.draft.last_turn));
    let outcome = if is_latest {
        results.outcome.clone()
    } else {
        None
    };
    Ok(Json(types::Report {
        round: n,
        table: t,
        revision: shown.revision.get(),
        status: if shown.final_at.is_some() {
            "final"
        } else if is_latest {
            results.status.code()
        } else {
            "replaced"
        }
        .to_owned(),
        ended: shown.draft.ended.code().to_owned(),
        last_turn: shown.draft.last_turn,
        seats: shown
            .draft
            .seats
            .iter()
            .map(|s| types::ReportSeat {
                seat: results.table.seat_of(s.player_id).map_or(0, |l| l.seat),
                player_id: s.player_id.get(),
                player: name_of(s.player_id),
                faction: s.faction.code().to_owned(),
                ally: s.ally.map(|a| a.code().to_owned()),
                result: s.result.map(|w| w.code().to_owned()),
                win_attempts: counts.get(&s.player_id).copied().unwrap_or(0),
                strongholds: s.end.strongholds,
                forces: s.end.forces,
                spice: s.end.spice.amount(),
                cards: s.end.cards,
                leaders: s.end.leaders,
            })
            .collect(),
        results: outcome
            .as_ref()
            .map(|o| {
                o.results
                    .iter()
                    .map(|(_, w)| w.map(|w| w.code().to_owned()))
                    .collect()
            })
            .unwrap_or_default(),
        adjudication: outcome.and_then(|o| o.adjudication).unwrap_or_default(),
        judge_draw: shown.draft.judge_draw.map(name_of),
        prediction: shown.draft.prediction.map(|p| types::PredictionInput {
            faction: p.faction.code().to_owned(),
            turn: p.turn,
        }),
        saved_by: shown.created_by.clone(),
        saved_at: shown.created_at,
        reason: shown.reason.clone(),
        final_at: shown.final_at,
        confirmations: shown
            .confirmations
            .iter()
            .map(|c| types::Confirmation {
                player: name_of(c.player_id),
                agrees: c.agrees,
                note: c.note.clone(),
                by: c.by.clone(),
                at: c.at,
            })
            .collect(),
    }))
}

/// The event's placings once the final table's report is final (ruling 13): the final game
/// first, then qualifying order. Empty before.
#[utoipa::path(
    get,
    path = "/api/v1/events/{slug}/placings",
    tag = "read",
    params(("slug" = String, Path, description = "The event's address")),
    responses(
        (status = 200, description = "The placings", body = types::Placings),
        (status = 404, description = "No such event", body = ErrorBody),
    ),
    security((), ("token" = [])),
)]
pub async fn placings(
    State(state): State<AppState>,
    Path(slug): Path<String>,
    session: Session,
    headers: HeaderMap,
) -> Result<Json<types::Placings>, ApiError> {
    let caller = caller(
        &state,
        &session,
        &headers,
        format!("GET /api/v1/events/{slug}/placings"),
    )
    .await?;
    let event = event_at(&state, &slug).await?;
    caller
        .require(&state.pool, &event, Action::ViewPublic)
        .await?;
    let s = db::results::standings::event_standings(&state.pool, event.id)
        .await
        .map_err(|e| ApiError::internal("computing the standings", e))?;
    Ok(Json(match s.final_table {
        None => types::Placings {
            final_round: None,
            final_reported: false,
            placings: Vec::new(),
        },
        Some(t) => types::Placings {
            final_round: Some(t.round.get()),
            final_reported: t.reported,
            placings: t
                .placings
                .into_iter()
                .map(|p| types::Placing {
                    place: p.place,
                    player_id: p.player_id.get(),
                    player: p.player,
                    at_final: p.at_final,
                    result: p.result.map(str::to_owned),
                    qualified: p.qualified,
                })
                .collect(),
        },
    }))
}

fn statistics_body(events: usize, s: &tournament::statistics::Statistics) -> types::Statistics {
    let share = |s: tournament::statistics::Share| types::Share {
        count: s.count,
        of: s.of,
        percent: s.percent(),
    };
    types::Statistics {
        events,
        games: s.games,
        seats: s.seats,
        factions: s
            .factions
            .iter()
            .map(|f| types::FactionStats {
                faction: f.faction.code().to_owned(),
                played: f.played,
                solo_wins: f.solo_wins,
                allied_wins: f.allied_wins,
                wins: share(f.wins()),
            })
            .collect(),
        win_types: s
            .win_types
            .iter()
            .map(|(w, n)| types::WinCount {
                code: w.code().to_owned(),
                count: u32::try_from(*n).unwrap_or(u32::MAX),
            })
            .collect(),
        no_winner: s.no_winner,
        ended_by_win: s.ended_by_win,
        ended_by_time: s.ended_by_time,
        ended_by_turns: s.ended_by_turns,
        adjudicated: share(s.adjudicated),
        length: s
            .length
            .iter()
            .map(|&(turn, games)| types::TurnCount { turn, games })
            .collect(),
        average_length: f64::from(s.average_length_tenths) / 10.0,
        by_seat: s
            .by_seat
            .iter()
            .map(|l| types::SeatStats {
                seat: l.seat,
                played: l.played,
                wins: l.wins,
            })
            .collect(),
        best: s
            .best
            .iter()
            .map(|b| types::BestGame {
                faction: b.faction.code().to_owned(),
                player: b.player.clone(),
                game: b.game.clone(),
                result: b.result.map(|w| w.code().to_owned()),
                points: b.points.to_string(),
                score: b.score.clone(),
            })
            .collect(),
    }
}

/// The event's statistics, from its final reports, as its statistics page shows them (public).
#[utoipa::path(
    get,
    path = "/api/v1/events/{slug}/statistics",
    tag = "read",
    params(("slug" = String, Path, description = "The event's address")),
    responses(
        (status = 200, description = "The statistics", body = types::Statistics),
        (status = 404, description = "No such event", body = ErrorBody),
    ),
    security((), ("token" = [])),
)]
pub async fn statistics(
    State(state): State<AppState>,
    Path(slug): Path<String>,
    session: Session,
    headers: HeaderMap,
) -> Result<Json<types::Statistics>, ApiError> {
    let caller = caller(
        &state,
        &session,
        &headers,
        format!("GET /api/v1/events/{slug}/statistics"),
    )
    .await?;
    let event = event_at(&state, &slug).await?;
    caller
        .require(&state.pool, &event, Action::ViewPublic)
        .await?;
    let games = db::statistics::games(&state.pool, Some(event.id))
        .await
        .map_err(|e| ApiError::internal("gathering statistics", e))?;
    Ok(Json(statistics_body(
        1,
        &tournament::statistics::compute(&games),
    )))
}

/// The statistics across every event of this server, each event once (a restored copy counts
/// with its original), as `/statistics` shows them (public).
#[utoipa::path(
    get,
    path = "/api/v1/statistics",
    tag = "read",
    responses(
        (status = 200, description = "The statistics", body = types::Statistics),
    ),
    security((), ("token" = [])),
)]
pub async fn statistics_across(
    State(state): State<AppState>,
) -> Result<Json<types::Statistics>, ApiError> {
    let events = db::statistics::counted_events(&state.pool)
        .await
        .map_err(|e| ApiError::internal("listing events", e))?;
    let games = db::statistics::games(&state.pool, None)
        .await
        .map_err(|e| ApiError::internal("gathering statistics", e))?;
    Ok(Json(statistics_body(
        events.len(),
        &tournament::statistics::compute(&games),
    )))
}
