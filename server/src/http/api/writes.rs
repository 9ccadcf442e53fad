//! The API's writes, for organisers' scripts: register a player, check one in (or out), record a
//! table's Game Report. Each goes through the same `db` function and the same checks as the
//! page's form, so a script gets the same field-level answers a judge sees, with the field
//! named by its place in the request body.

use axum::{
    Json,
    body::Bytes,
    extract::{Path, State},
    http::{HeaderMap, StatusCode},
};
use db::{
    results::{Field, ResultsError},
    roles::{Action, allows},
};
use dune::{Faction, WinType};
use tournament::ids::{PlayerId, Revision, RoundNumber, TableNumber};
use tournament::report::Ending;
use tournament::{EndValues, ReportField};
use tower_sessions::Session;

use super::error::{ApiError, ErrorBody, Problem, body};
use super::reads::{caller, event_at};
use super::types;
use crate::http::{AppState, access::Caller};

/// The actor a change is recorded under; writes need one.
pub(super) fn actor_of(caller: &Caller) -> Result<db::roles::Actor, ApiError> {
    caller
        .actor()
        .cloned()
        .ok_or_else(|| ApiError::from(crate::http::access::Denied::SignInRequired))
}

fn player_error(error: db::players::PlayerError) -> ApiError {
    use db::players::PlayerError as E;
    match error {
        e @ E::Stale(_) => ApiError::conflict(e.to_string()),
        e @ E::NotFound => ApiError::not_found(e.to_string()),
        E::Database(e) => ApiError::internal("saving a player", e),
        e => match e.field() {
            Some(field) => ApiError::field(field, e.to_string()),
            None => ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, e.to_string()),
        },
    }
}

/// Registers a player (a late entry once a round is drawn).
#[utoipa::path(
    post,
    path = "/api/v1/events/{slug}/players",
    tag = "write",
    params(("slug" = String, Path, description = "The event's address")),
    request_body = types::NewPlayer,
    responses(
        (status = 201, description = "Registered", body = types::Player),
        (status = 400, description = "The body is not JSON", body = ErrorBody),
        (status = 401, description = "No or a bad token", body = ErrorBody),
        (status = 403, description = "The token's role does not allow it, or it is another event's", body = ErrorBody),
        (status = 404, description = "No such event", body = ErrorBody),
        (status = 422, description = "A field is wrong (`field` names it)", body = ErrorBody),
    ),
    security(("token" = [])),
)]
pub async fn register(
    State(state): State<AppState>,
    Path(slug): Path<String>,
    session: Session,
    headers: HeaderMap,
    bytes: Bytes,
) -> Result<(StatusCode, Json<types::Player>), ApiError> {
    let caller = caller(
        &state,
        &session,
        &headers,
        format!("POST /api/v1/events/{slug}/players"),
    )
    .await?;
    let event = event_at(&state, &slug).await?;
    caller
        .require(&state.pool, &event, Action::RunEvent)
        .await?;
    let actor = actor_of(&caller)?;
    let new: types::NewPlayer = body(&bytes)?;
    let new = db::players::NewPlayer::parse(
        &new.name,
        new.email.as_deref().unwrap_or(""),
        new.club.as_deref().unwrap_or(""),
    )
    .map_err(|p| ApiError::field(p.field, p.message))?;
    let player = db::players::add(&state.pool, &actor, event.id, new)
        .await
        .map_err(player_error)?;
    Ok((StatusCode::CREATED, Json(player.into())))
}

async fn set_check_in(
    state: &AppState,
    caller: &Caller,
    slug: &str,
    player: i64,
    checked_in: bool,
) -> Result<Json<types::Player>, ApiError> {
    let event = event_at(state, slug).await?;
    caller
        .require(&state.pool, &event, Action::RunEvent)
        .await?;
    let actor = actor_of(caller)?;
    let current = db::players::get(&state.pool, event.id, PlayerId(player))
        .await
        .map_err(|e| ApiError::internal("reading a player", e))?
        .ok_or_else(|| ApiError::not_found(format!("{} has no player {player}.", event.name)))?;
    if current.checked_in == checked_in {
        return Ok(Json(current.into()));
    }
    let player = db::players::set_checked_in(
        &state.pool,
        &actor,
        event.id,
        current.id,
        current.version,
        checked_in,
    )
    .await
    .map_err(player_error)?;
    Ok(Json(player.into()))
}

/// Checks a player in. Checking in twice changes nothing.
#[utoipa::path(
    post,
    path = "/api/v1/events/{slug}/players/{player}/check-in",
    tag = "write",
    params(
        ("slug" = String, Path, description = "The event's address"),
        ("player" = i64, Path, description = "The player's id"),
    ),
    responses(
        (status = 200, description = "Checked in", body = types::Player),
        (status = 401, description = "No or a bad token", body = ErrorBody),
        (status = 403, description = "Not allowed", body = ErrorBody),
        (status = 404, description = "No such player", body = ErrorBody),
        (status = 422, description = "The player has dropped", body = ErrorBody),
    ),
    security(("token" = [])),
)]
pub async fn check_in(
    State(state): State<AppState>,
    Path((slug, player)): Path<(String, i64)>,
    session: Session,
    headers: HeaderMap,
) -> Result<Json<types::Player>, ApiError> {
    let caller = caller(
        &state,
        &session,
        &headers,
        format!("POST /api/v1/events/{slug}/players/{player}/check-in"),
    )
    .await?;
    set_check_in(&state, &caller, &slug, player, true).await
}

/// Undoes a player's check-in.
#[utoipa::path(
    delete,
    path = "/api/v1/events/{slug}/players/{player}/check-in",
    tag = "write",
    params(
        ("slug" = String, Path, description = "The event's address"),
        ("player" = i64, Path, description = "The player's id"),
    ),
    responses(
        (status = 200, description = "No longer checked in", body = types::Player),
        (status = 401, description = "No or a bad token", body = ErrorBody),
        (status = 403, description = "Not allowed", body = ErrorBody),
        (status = 404, description = "No such player", body = ErrorBody),
    ),
    security(("token" = [])),
)]
pub async fn check_out(
    State(state): State<AppState>,
    Path((slug, player)): Path<(String, i64)>,
    session: Session,
    headers: HeaderMap,
) -> Result<Json<types::Player>, ApiError> {
    let caller = caller(
        &state,
        &session,
        &headers,
        format!("DELETE /api/v1/events/{slug}/players/{player}/check-in"),
    )
    .await?;
    set_check_in(&state, &caller, &slug, player, false).await
}

/// A part of the prediction, by its place in the request body.
fn prediction_field(field: tournament::PredictionField) -> &'static str {
    match field {
        tournament::PredictionField::Faction => "prediction.faction",
        tournament::PredictionField::Turn => "prediction.turn",
    }
}

/// Results errors as the API answers them, fields named by their place in the body.
pub(super) fn results_error(error: ResultsError) -> ApiError {
    results_error_in(error, &|field| match field {
        Field::Report(ReportField::Seat(i, f)) => format!("seats[{i}].{}", f.name()),
        Field::Report(ReportField::Prediction(p)) => prediction_field(p).to_owned(),
        Field::Report(f) => f.name().to_owned(),
        Field::Attempt(_) => "attempts".to_owned(),
        Field::Named(name) => name.to_owned(),
    })
}

fn results_error_in(error: ResultsError, name: &dyn Fn(Field) -> String) -> ApiError {
    match error {
        e @ ResultsError::NotFound => ApiError::not_found(e.to_string()),
        ResultsError::Forbidden(m) => ApiError::new(StatusCode::FORBIDDEN, m),
        ResultsError::Changed { what, revision, by } => ApiError::conflict(format!(
            "{what} changed: {by} saved revision {revision} since the revision you based yours on. \
             Read it, then send yours again with \"base_revision\": {revision}."
        )),
        e @ ResultsError::Taken { .. } => ApiError::conflict(e.to_string()),
        ResultsError::Invalid(problems) => ApiError::fields(
            problems
                .into_iter()
                .map(|p| Problem {
                    field: name(p.field),
                    error: p.message,
                })
                .collect(),
        ),
        ResultsError::State(m) => ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, m),
        ResultsError::Database(e) => ApiError::internal("saving the results", e),
    }
}

/// Records a table's Game Report as a new revision: the same checks as the table page's form
/// (every rule of `tournament::validate_table`), problems named by their place in the body.
/// Correcting a final report needs the head judge's role and a `reason`.
#[utoipa::path(
    post,
    path = "/api/v1/events/{slug}/rounds/{n}/tables/{t}/report",
    tag = "write",
    params(
        ("slug" = String, Path, description = "The event's address"),
        ("n" = i32, Path, description = "The round's number"),
        ("t" = i32, Path, description = "The table's number in the round"),
    ),
    request_body = types::ReportInput,
    responses(
        (status = 201, description = "Recorded as a new revision", body = types::Recorded),
        (status = 400, description = "The body is not JSON", body = ErrorBody),
        (status = 401, description = "No or a bad token", body = ErrorBody),
        (status = 403, description = "Not allowed (a final report needs the head judge)", body = ErrorBody),
        (status = 404, description = "No such table", body = ErrorBody),
        (status = 409, description = "Someone saved a revision since `base_revision`", body = ErrorBody),
        (status = 422, description = "The report breaks a rule (`field` names where)", body = ErrorBody),
    ),
    security(("token" = [])),
)]
pub async fn record_report(
    State(state): State<AppState>,
    Path((slug, n, t)): Path<(String, i32, i32)>,
    session: Session,
    headers: HeaderMap,
    bytes: Bytes,
) -> Result<(StatusCode, Json<types::Recorded>), ApiError> {
    let caller = caller(
        &state,
        &session,
        &headers,
        format!("POST /api/v1/events/{slug}/rounds/{n}/tables/{t}/report"),
    )
    .await?;
    let event = event_at(&state, &slug).await?;
    let role = caller
        .require(&state.pool, &event, Action::RecordResults)
        .await?;
    let actor = actor_of(&caller)?;
    let input: types::ReportInput = body(&bytes)?;
    let (round, table) = (RoundNumber(n), TableNumber(t));
    let current = db::results::reports::table_results(&state.pool, event.id, round, table)
        .await
        .map_err(results_error)?;
    let (draft, order) = draft_of(&input, &current.table)?;
    let may_override = match &caller {
        Caller::Token(redeemed) => redeemed.allows(Action::Override),
        _ => allows(role, actor.is_admin, Action::Override),
    };
    let revision = db::results::reports::save(
        &state.pool,
        &actor,
        may_override,
        event.id,
        round,
        table,
        Revision(input.base_revision),
        &draft,
        input.reason.as_deref(),
    )
    .await
    .map_err(|e| {
        // The rules name seats by their place at the table; the script named them by its
        // own order: say which of its lines is at fault.
        results_error_in(e, &|field| match field {
            Field::Report(ReportField::Seat(i, f)) => match order.get(i).copied().flatten() {
                Some(line) => format!("seats[{line}].{}", f.name()),
                None => "seats".to_owned(),
            },
            Field::Report(ReportField::Prediction(p)) => prediction_field(p).to_owned(),
            Field::Report(f) => f.name().to_owned(),
            Field::Attempt(_) => "attempts".to_owned(),
            Field::Named(name) => name.to_owned(),
        })
    })?;
    Ok((
        StatusCode::CREATED,
        Json(types::Recorded {
            revision: revision.get(),
            report: format!("/api/v1/events/{slug}/rounds/{n}/tables/{t}/report"),
        }),
    ))
}

/// The request as a draft in the table's seat order, and for each seat position the line of
/// the request that fills it. Everything that cannot be read is named at once.
fn draft_of(
    input: &types::ReportInput,
    table: &db::results::TableContext,
) -> Result<(db::results::reports::Draft, Vec<Option<usize>>), ApiError> {
    let mut problems = Vec::new();
    let mut problem = |field: String, error: String| problems.push(Problem { field, error });
    let ended = Ending::from_code(input.ended.trim());
    if ended.is_none() {
        problem(
            "ended".into(),
            "Say how the game ended: \"win\", \"time\" (the clock) or \"turns\" (the end of turn 10).".into(),
        );
    }
    let mut order: Vec<Option<usize>> = vec![None; table.seats.len()];
    let mut seats: Vec<(usize, db::results::reports::SeatResult)> = Vec::new();
    for (i, s) in input.seats.iter().enumerate() {
        let field = |name: &str| format!("seats[{i}].{name}");
        let by_id = s.player_id.map(PlayerId);
        let by_seat = s
            .seat
            .and_then(|n| table.seats.iter().find(|l| l.seat == n))
            .map(|l| l.player_id);
        let player = match (by_id, s.seat, by_seat) {
            (Some(id), None, _) => Some(id),
            (None, Some(_), Some(id)) => Some(id),
            (Some(id), Some(_), Some(other)) if id == other => Some(id),
            (Some(_), Some(n), _) => {
                problem(
                    field("seat"),
                    format!(
                        "Seat {n} is not where player {} sits; send one of the two.",
                        s.player_id.unwrap_or_default()
                    ),
                );
                None
            }
            (None, Some(n), None) => {
                problem(
                    field("seat"),
                    format!("Table {} has no seat {n}.", table.table),
                );
                None
            }
            (None, None, _) => {
                problem(
                    field("player_id"),
                    "Name the seat by its player_id or its seat number.".into(),
                );
                None
            }
        };
        let position = player.and_then(|id| table.position_of(id));
        if player.is_some() && position.is_none() {
            problem(
                field("player_id"),
                format!(
                    "Player {} does not sit at this table.",
                    s.player_id.unwrap_or_default()
                ),
            );
        }
        if let Some(p) = position {
            if let Some(Some(earlier)) = order.get(p) {
                problem(
                    field("player_id"),
                    format!("This seat is already on line seats[{earlier}]."),
                );
            } else if let Some(slot) = order.get_mut(p) {
                *slot = Some(i);
            }
        }
        let faction = Faction::from_typed(&s.faction);
        if faction.is_none() {
            problem(
                field("faction"),
                format!(
                    "{:?} is not a faction code (AT, BG, EM, FR, HK, SG…).",
                    s.faction
                ),
            );
        }
        let ally = match s.ally.as_deref().map(str::trim) {
            None | Some("") => None,
            Some(code) => {
                let ally = Faction::from_typed(code);
                if ally.is_none() {
                    problem(field("ally"), format!("{code:?} is not a faction code."));
                }
                ally
            }
        };
        let result = match s.result.as_deref().map(str::trim) {
            None | Some("") => None,
            Some(code) => {
                let win = WinType::from_typed(code);
                if win.is_none() {
                    problem(
                        field("result"),
                        format!("{code:?} is not a win type code (SSH, EG, …)."),
                    );
                }
                win
            }
        };
        let mut end = EndValues::default();
        for (category, value) in EndValues::CATEGORIES.into_iter().zip([
            s.strongholds,
            s.forces,
            s.spice,
            s.cards,
            s.leaders,
        ]) {
            end.set(category, value);
        }
        if let (Some(player_id), Some(faction), Some(p)) = (player, faction, position) {
            seats.push((
                p,
                db::results::reports::SeatResult {
                    player_id,
                    faction,
                    ally,
                    result,
                    end,
                },
            ));
        }
    }
    let judge_draw = input.judge_draw.map(PlayerId);
    let prediction = input.prediction.as_ref().and_then(|p| {
        let faction = Faction::from_typed(&p.faction);
        if faction.is_none() {
            problem(
                "prediction.faction".into(),
                format!(
                    "{:?} is not a faction code (AT, EM, FR, HK, SG…).",
                    p.faction
                ),
            );
        }
        faction.map(|faction| tournament::Prediction {
            faction,
            turn: p.turn,
        })
    });
    if !problems.is_empty() {
        return Err(ApiError::fields(problems));
    }
    seats.sort_by_key(|(p, _)| *p);
    let Some(ended) = ended else {
        return Err(ApiError::field("ended", "Say how the game ended."));
    };
    Ok((
        db::results::reports::Draft {
            ended,
            last_turn: input.last_turn,
            seats: seats.into_iter().map(|(_, s)| s).collect(),
            judge_draw,
            prediction,
        },
        order,
    ))
}
