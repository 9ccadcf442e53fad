//! Running an event from a script, as the pages run it: create it, save its settings, make its
//! tokens, draw and begin rounds, run the clocks, answer and finalise reports, close qualifying,
//! settle a tie across the cut, seat the final table. Every endpoint calls the same `db`
//! function as its page, after the same role check (`Caller::require` with the page's action).

use axum::{
    Json,
    body::Bytes,
    extract::{Path, State},
    http::{HeaderMap, StatusCode},
};
use db::roles::{Action, Role};
use tournament::ids::{PlayerId, Revision, RoundNumber, TableNumber};
use tower_sessions::Session;

use super::error::{ApiError, ErrorBody, body};
use super::reads::{caller, event_at, event_body, round_body};
use super::types;
use super::writes::{actor_of, results_error};
use crate::http::AppState;

/// A body that may be left empty: `{}` then.
fn optional_body<T: serde::de::DeserializeOwned + Default>(bytes: &[u8]) -> Result<T, ApiError> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        Ok(T::default())
    } else {
        body(bytes)
    }
}

fn round_error(error: db::rounds::RoundError) -> ApiError {
    use db::rounds::RoundError as E;
    use tournament::{DrawError, tables::TableError};
    match error {
        e if e.is_conflict() => ApiError::conflict(e.to_string()),
        E::Field { field, message } => ApiError::field(field, message),
        e @ E::Unreported { .. } => ApiError::field("override_reason", e.to_string()),
        e @ E::Draw(DrawError::Tables(TableError::NoSplit(_))) => {
            ApiError::field("fallback", e.to_string())
        }
        e @ E::NotFound => ApiError::not_found(e.to_string()),
        E::Database(e) => ApiError::internal("changing a round", e),
        e => ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, e.to_string()),
    }
}

/// Creates an event (site administrators: a signed-in session or their account token). Its
/// creator becomes its organiser.
#[utoipa::path(
    post,
    path = "/api/v1/events",
    tag = "run",
    request_body = types::NewEvent,
    responses(
        (status = 201, description = "Created", body = types::Event),
        (status = 400, description = "The body is not JSON", body = ErrorBody),
        (status = 401, description = "No or a bad token", body = ErrorBody),
        (status = 403, description = "Not a site administrator (an event's API token never creates events)", body = ErrorBody),
        (status = 409, description = "An event has this address already", body = ErrorBody),
        (status = 422, description = "The name is not 3 to 120 characters", body = ErrorBody),
    ),
    security(("token" = [])),
)]
pub async fn create_event(
    State(state): State<AppState>,
    session: Session,
    headers: HeaderMap,
    bytes: Bytes,
) -> Result<(StatusCode, Json<types::Event>), ApiError> {
    let caller = caller(&state, &session, &headers, "POST /api/v1/events".into()).await?;
    let actor = actor_of(&caller)?;
    if !caller.is_admin() {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "Only site administrators create events: use your own account token (mentat token \
             add YOUR-NAME), not an event's API token.",
        ));
    }
    let new: types::NewEvent = body(&bytes)?;
    use db::events::CreateEventError as E;
    let event = db::events::create(&state.pool, &actor, &new.name)
        .await
        .map_err(|e| match e {
            e @ E::Forbidden => ApiError::new(StatusCode::FORBIDDEN, e.to_string()),
            e @ E::BadName => ApiError::field("name", e.to_string()),
            e @ E::SlugTaken(_) => ApiError::conflict(e.to_string()),
            E::Database(e) => ApiError::internal("creating an event", e),
        })?;
    Ok((StatusCode::CREATED, Json(event_body(&state, &event).await?)))
}

fn settings_body(d: db::events::EventDetail) -> types::Settings {
    let s = d.settings;
    let code = |v: serde_json::Value| v.as_str().unwrap_or_default().to_owned();
    types::Settings {
        version: d.version,
        name: s.name,
        starts_on: s.starts_on,
        ends_on: s.ends_on,
        venue: s.venue,
        ruleset: s.ruleset.id().to_owned(),
        qualifying_rounds: s.qualifying_rounds,
        public_url: s
            .public_url
            .as_ref()
            .map(|a| a.as_str().to_owned())
            .unwrap_or_default(),
        finals_seats: s.options.finals_seats,
        table_fallback: code(serde_json::json!(s.options.table_fallback)),
        five_player_empty_circle: s.options.five_player_empty_circle,
        adjudication_deadlock: code(serde_json::json!(s.options.adjudication_deadlock)),
        final_seating: code(serde_json::json!(s.options.final_seating)),
        shield_wall: s.options.shield_wall,
    }
}

async fn detail_of(
    state: &AppState,
    event: &db::events::Event,
) -> Result<db::events::EventDetail, ApiError> {
    db::events::detail(&state.pool, event.id)
        .await
        .map_err(|e| ApiError::internal("reading the settings", e))?
        .ok_or_else(|| ApiError::not_found("No such event."))
}

/// The event's settings, as its settings page shows them (head judge).
#[utoipa::path(
    get,
    path = "/api/v1/events/{slug}/settings",
    tag = "run",
    params(("slug" = String, Path, description = "The event's address")),
    responses(
        (status = 200, description = "The settings", body = types::Settings),
        (status = 401, description = "No or a bad token", body = ErrorBody),
        (status = 403, description = "Not allowed", body = ErrorBody),
        (status = 404, description = "No such event", body = ErrorBody),
    ),
    security(("token" = [])),
)]
pub async fn settings(
    State(state): State<AppState>,
    Path(slug): Path<String>,
    session: Session,
    headers: HeaderMap,
) -> Result<Json<types::Settings>, ApiError> {
    let caller = caller(
        &state,
        &session,
        &headers,
        format!("GET /api/v1/events/{slug}/settings"),
    )
    .await?;
    let event = event_at(&state, &slug).await?;
    caller
        .require(&state.pool, &event, Action::RunEvent)
        .await?;
    Ok(Json(settings_body(detail_of(&state, &event).await?)))
}

/// A choice written as its code (`four_player_tables`), or a 422 at the field.
fn choice<T: serde::de::DeserializeOwned>(
    field: &str,
    code: &str,
    choices: &str,
) -> Result<T, ApiError> {
    serde_json::from_value(serde_json::Value::String(code.trim().to_owned()))
        .map_err(|_| ApiError::field(field, format!("{code:?} is not one of {choices}.")))
}

fn date(field: &str, text: &str) -> Result<Option<chrono::NaiveDate>, ApiError> {
    match text.trim() {
        "" => Ok(None),
        t => chrono::NaiveDate::parse_from_str(t, "%Y-%m-%d")
            .map(Some)
            .map_err(|_| {
                ApiError::field(field, format!("{t:?} is not a date written YYYY-MM-DD."))
            }),
    }
}

/// Saves the event's settings: the fields sent, the others as they were (head judge). The same
/// checks as the settings page: the ruleset is fixed once a round is drawn, and so on.
#[utoipa::path(
    put,
    path = "/api/v1/events/{slug}/settings",
    tag = "run",
    params(("slug" = String, Path, description = "The event's address")),
    request_body = types::SettingsInput,
    responses(
        (status = 200, description = "Saved", body = types::Settings),
        (status = 400, description = "The body is not JSON", body = ErrorBody),
        (status = 401, description = "No or a bad token", body = ErrorBody),
        (status = 403, description = "Not allowed", body = ErrorBody),
        (status = 404, description = "No such event", body = ErrorBody),
        (status = 409, description = "Saved by someone else since `version`", body = ErrorBody),
        (status = 422, description = "A field is wrong (`field` names it)", body = ErrorBody),
    ),
    security(("token" = [])),
)]
pub async fn save_settings(
    State(state): State<AppState>,
    Path(slug): Path<String>,
    session: Session,
    headers: HeaderMap,
    bytes: Bytes,
) -> Result<Json<types::Settings>, ApiError> {
    let caller = caller(
        &state,
        &session,
        &headers,
        format!("PUT /api/v1/events/{slug}/settings"),
    )
    .await?;
    let event = event_at(&state, &slug).await?;
    caller
        .require(&state.pool, &event, Action::RunEvent)
        .await?;
    let actor = actor_of(&caller)?;
    let input: types::SettingsInput = body(&bytes)?;
    let current = detail_of(&state, &event).await?;
    let version = input.version.unwrap_or(current.version);
    let mut s = current.settings;
    if let Some(name) = input.name {
        s.name = name;
    }
    if let Some(text) = &input.starts_on {
        s.starts_on = date("starts_on", text)?;
    }
    if let Some(text) = &input.ends_on {
        s.ends_on = date("ends_on", text)?;
    }
    if let Some(venue) = input.venue {
        s.venue = venue;
    }
    if let Some(ruleset) = &input.ruleset {
        s.ruleset = ruleset
            .parse()
            .map_err(|_| ApiError::field("ruleset", "The ruleset is gc-2.13.3 or full."))?;
    }
    if let Some(rounds) = input.qualifying_rounds {
        s.qualifying_rounds = rounds;
    }
    if let Some(url) = &input.public_url {
        s.public_url = db::public_address::PublicAddress::parse(url)
            .map_err(|e| ApiError::field("public_url", e.to_string()))?;
    }
    if let Some(seats) = input.finals_seats {
        s.options.finals_seats = seats;
    }
    if let Some(code) = &input.table_fallback {
        s.options.table_fallback = choice(
            "table_fallback",
            code,
            "ask, alternates, four_player_tables, byes",
        )?;
    }
    if let Some(circle) = input.five_player_empty_circle {
        s.options.five_player_empty_circle = circle;
    }
    if let Some(code) = &input.adjudication_deadlock {
        s.options.adjudication_deadlock =
            choice("adjudication_deadlock", code, "all_survivors, judge_draw")?;
    }
    if let Some(code) = &input.final_seating {
        s.options.final_seating = choice("final_seating", code, "drawn, qualifying_order")?;
    }
    if let Some(on) = input.shield_wall {
        s.options.shield_wall = on;
    }
    use db::events::SettingsError as E;
    let saved = db::events::update_settings(&state.pool, &actor, event.id, version, s)
        .await
        .map_err(|e| match e {
            e @ E::Stale => ApiError::conflict(e.to_string()),
            e @ E::NotFound => ApiError::not_found(e.to_string()),
            E::Database(e) => ApiError::internal("saving the settings", e),
            e => match e.field() {
                Some(field) => ApiError::field(field, e.to_string()),
                None => ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, e.to_string()),
            },
        })?;
    Ok(Json(settings_body(saved)))
}

fn token_body(t: db::tokens::Token) -> types::Token {
    let state = match t.standing(chrono::Utc::now()) {
        db::tokens::Standing::Active => "active",
        db::tokens::Standing::Revoked => "revoked",
        db::tokens::Standing::Expired => "expired",
        db::tokens::Standing::Spent => "spent",
    };
    types::Token {
        id: t.id,
        label: t.label,
        role: match t.grant {
            db::tokens::Grant::Role(role) => role.as_str().to_owned(),
            _ => String::new(),
        },
        hint: t.hint,
        expires_at: t.expires_at,
        created_by: t.created_by,
        created_at: t.created_at,
        uses: t.used_count,
        last_used_at: t.last_used_at,
        state: state.to_owned(),
    }
}

fn token_error(error: db::tokens::TokenError) -> ApiError {
    use db::tokens::TokenError as E;
    match error {
        E::Access(db::roles::AccessError::Database(e)) | E::Database(e) => {
            ApiError::internal("making a token", e)
        }
        E::Access(_) => ApiError::new(
            StatusCode::FORBIDDEN,
            "Only the event's organisers make and revoke its API tokens.",
        ),
        e @ E::NotFound => ApiError::not_found(e.to_string()),
        e => match e.field() {
            Some(field) => ApiError::field(field, e.to_string()),
            None => ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, e.to_string()),
        },
    }
}

/// The event's API tokens, newest first, never their secrets (organisers).
#[utoipa::path(
    get,
    path = "/api/v1/events/{slug}/tokens",
    tag = "run",
    params(("slug" = String, Path, description = "The event's address")),
    responses(
        (status = 200, description = "The tokens", body = Vec<types::Token>),
        (status = 401, description = "No or a bad token", body = ErrorBody),
        (status = 403, description = "Not an organiser", body = ErrorBody),
        (status = 404, description = "No such event", body = ErrorBody),
    ),
    security(("token" = [])),
)]
pub async fn tokens(
    State(state): State<AppState>,
    Path(slug): Path<String>,
    session: Session,
    headers: HeaderMap,
) -> Result<Json<Vec<types::Token>>, ApiError> {
    let caller = caller(
        &state,
        &session,
        &headers,
        format!("GET /api/v1/events/{slug}/tokens"),
    )
    .await?;
    let event = event_at(&state, &slug).await?;
    caller
        .require(&state.pool, &event, Action::ManageStaff)
        .await?;
    let list = db::tokens::list(&state.pool, event.id, db::tokens::TokenKind::Api)
        .await
        .map_err(|e| ApiError::internal("listing tokens", e))?;
    Ok(Json(list.into_iter().map(token_body).collect()))
}

/// Makes an API token of the event with a role (organisers, as on the Organiser's desk). The
/// secret is in this answer and never again.
#[utoipa::path(
    post,
    path = "/api/v1/events/{slug}/tokens",
    tag = "run",
    params(("slug" = String, Path, description = "The event's address")),
    request_body = types::NewToken,
    responses(
        (status = 201, description = "Made; `secret` is shown this once", body = types::TokenIssued),
        (status = 400, description = "The body is not JSON", body = ErrorBody),
        (status = 401, description = "No or a bad token", body = ErrorBody),
        (status = 403, description = "Not an organiser", body = ErrorBody),
        (status = 404, description = "No such event", body = ErrorBody),
        (status = 422, description = "A field is wrong (`label`, `role`)", body = ErrorBody),
    ),
    security(("token" = [])),
)]
pub async fn make_token(
    State(state): State<AppState>,
    Path(slug): Path<String>,
    session: Session,
    headers: HeaderMap,
    bytes: Bytes,
) -> Result<(StatusCode, Json<types::TokenIssued>), ApiError> {
    let caller = caller(
        &state,
        &session,
        &headers,
        format!("POST /api/v1/events/{slug}/tokens"),
    )
    .await?;
    let event = event_at(&state, &slug).await?;
    caller
        .require(&state.pool, &event, Action::ManageStaff)
        .await?;
    let actor = actor_of(&caller)?;
    let new: types::NewToken = body(&bytes)?;
    let role = Role::parse(new.role.trim()).ok_or_else(|| {
        ApiError::field(
            "role",
            format!(
                "{:?} is not a role: judge, head_judge or organiser.",
                new.role
            ),
        )
    })?;
    let issued = db::tokens::issue(
        &state.pool,
        &actor,
        event.id,
        db::tokens::NewToken::api(&new.label, role, new.expires_at),
    )
    .await
    .map_err(token_error)?;
    Ok((
        StatusCode::CREATED,
        Json(types::TokenIssued {
            secret: issued.secret.expose().to_owned(),
            token: token_body(issued.token),
        }),
    ))
}

/// Revokes one of the event's API tokens: from now on it answers 401 (organisers).
#[utoipa::path(
    delete,
    path = "/api/v1/events/{slug}/tokens/{id}",
    tag = "run",
    params(
        ("slug" = String, Path, description = "The event's address"),
        ("id" = i64, Path, description = "The token's id"),
    ),
    responses(
        (status = 200, description = "Revoked (revoking twice changes nothing)", body = types::Token),
        (status = 401, description = "No or a bad token", body = ErrorBody),
        (status = 403, description = "Not an organiser", body = ErrorBody),
        (status = 404, description = "No such token in this event", body = ErrorBody),
    ),
    security(("token" = [])),
)]
pub async fn revoke_token(
    State(state): State<AppState>,
    Path((slug, id)): Path<(String, i64)>,
    session: Session,
    headers: HeaderMap,
) -> Result<Json<types::Token>, ApiError> {
    let caller = caller(
        &state,
        &session,
        &headers,
        format!("DELETE /api/v1/events/{slug}/tokens/{id}"),
    )
    .await?;
    let event = event_at(&state, &slug).await?;
    caller
        .require(&state.pool, &event, Action::ManageStaff)
        .await?;
    let actor = actor_of(&caller)?;
    let token = db::tokens::revoke(&state.pool, &actor, event.id, id)
        .await
        .map_err(token_error)?;
    Ok(Json(token_body(token)))
}

/// Draws the next round: tables (4.01.01), seats (0.07) and factions (0.08) from a stored seed,
/// as the dashboard's "Start round" (head judge).
#[utoipa::path(
    post,
    path = "/api/v1/events/{slug}/rounds",
    tag = "run",
    params(("slug" = String, Path, description = "The event's address")),
    request_body = types::NewRound,
    responses(
        (status = 201, description = "Drawn", body = types::Round),
        (status = 400, description = "The body is not JSON", body = ErrorBody),
        (status = 401, description = "No or a bad token", body = ErrorBody),
        (status = 403, description = "Not allowed", body = ErrorBody),
        (status = 404, description = "No such event", body = ErrorBody),
        (status = 409, description = "Another round was drawn since (`number`)", body = ErrorBody),
        (status = 422, description = "The count has no split (`fallback`), reports are missing (`override_reason`), qualifying is closed, …", body = ErrorBody),
    ),
    security(("token" = [])),
)]
pub async fn draw_round(
    State(state): State<AppState>,
    Path(slug): Path<String>,
    session: Session,
    headers: HeaderMap,
    bytes: Bytes,
) -> Result<(StatusCode, Json<types::Round>), ApiError> {
    use db::rounds::{Fallback, NewRound};
    let caller = caller(
        &state,
        &session,
        &headers,
        format!("POST /api/v1/events/{slug}/rounds"),
    )
    .await?;
    let event = event_at(&state, &slug).await?;
    caller
        .require(&state.pool, &event, Action::RunEvent)
        .await?;
    let actor = actor_of(&caller)?;
    let input: types::NewRound = optional_body(&bytes)?;
    let number = match input.number {
        Some(n) => RoundNumber(n),
        None => {
            let latest = db::rounds::latest_qualifying(&state.pool, event.id)
                .await
                .map_err(|e| ApiError::internal("reading rounds", e))?;
            RoundNumber(latest.map_or(0, RoundNumber::get) + 1)
        }
    };
    let seed = input
        .seed
        .map(|s| {
            if s > db::rounds::MAX_SEED {
                Err(ApiError::field(
                    "seed",
                    format!(
                        "A seed is a whole number from 0 to {}.",
                        db::rounds::MAX_SEED
                    ),
                ))
            } else {
                Ok(s)
            }
        })
        .transpose()?;
    let fallback = match input.fallback.as_deref().map(str::trim).unwrap_or("") {
        "" => None,
        "four_player_tables" => Some(Fallback::FourPlayerTables),
        "byes" => Some(Fallback::Byes(
            input.byes.iter().copied().map(PlayerId).collect(),
        )),
        "alternates" => {
            let mut names = Vec::new();
            for (i, name) in input.alternates.iter().enumerate() {
                let name = tournament::PlayerName::parse(name)
                    .map_err(|e| ApiError::field(format!("alternates[{i}]"), format!("{e}.")))?;
                names.push(name);
            }
            Some(Fallback::Alternates(names))
        }
        other => {
            return Err(ApiError::field(
                "fallback",
                format!("{other:?} is not one of alternates, four_player_tables, byes."),
            ));
        }
    };
    db::rounds::start(
        &state.pool,
        &actor,
        event.id,
        NewRound {
            number,
            seed,
            fallback,
            override_reason: input.override_reason,
        },
    )
    .await
    .map_err(round_error)?;
    Ok((
        StatusCode::CREATED,
        Json(round_body(&state, &event, number.get()).await?),
    ))
}

async fn current_version(
    state: &AppState,
    event: &db::events::Event,
    n: i32,
) -> Result<i32, ApiError> {
    Ok(db::rounds::detail(&state.pool, event.id, RoundNumber(n))
        .await
        .map_err(|e| ApiError::internal("reading a round", e))?
        .ok_or_else(|| ApiError::not_found(format!("{} has no round {n}.", event.name)))?
        .round
        .version)
}

/// Locks the round's seats: play begins (head judge). Starting the clocks begins it too.
#[utoipa::path(
    post,
    path = "/api/v1/events/{slug}/rounds/{n}/begin",
    tag = "run",
    params(
        ("slug" = String, Path, description = "The event's address"),
        ("n" = i32, Path, description = "The round's number"),
    ),
    responses(
        (status = 200, description = "Begun", body = types::Round),
        (status = 401, description = "No or a bad token", body = ErrorBody),
        (status = 403, description = "Not allowed", body = ErrorBody),
        (status = 404, description = "No such round", body = ErrorBody),
        (status = 409, description = "The round changed meanwhile", body = ErrorBody),
        (status = 422, description = "Play has begun already", body = ErrorBody),
    ),
    security(("token" = [])),
)]
pub async fn begin_round(
    State(state): State<AppState>,
    Path((slug, n)): Path<(String, i32)>,
    session: Session,
    headers: HeaderMap,
) -> Result<Json<types::Round>, ApiError> {
    let caller = caller(
        &state,
        &session,
        &headers,
        format!("POST /api/v1/events/{slug}/rounds/{n}/begin"),
    )
    .await?;
    let event = event_at(&state, &slug).await?;
    caller
        .require(&state.pool, &event, Action::RunEvent)
        .await?;
    let actor = actor_of(&caller)?;
    let version = current_version(&state, &event, n).await?;
    db::rounds::begin(&state.pool, &actor, event.id, RoundNumber(n), version)
        .await
        .map_err(round_error)?;
    Ok(Json(round_body(&state, &event, n).await?))
}

/// Starts, pauses or resumes every table clock of the round at one instant (4.01.08), as the
/// round page's buttons for the whole room (head judge). Starting begins the round.
#[utoipa::path(
    post,
    path = "/api/v1/events/{slug}/rounds/{n}/clocks",
    tag = "run",
    params(
        ("slug" = String, Path, description = "The event's address"),
        ("n" = i32, Path, description = "The round's number"),
    ),
    request_body = types::ClocksInput,
    responses(
        (status = 200, description = "Done; tables left as they were say why", body = types::ClocksDone),
        (status = 400, description = "The body is not JSON", body = ErrorBody),
        (status = 401, description = "No or a bad token", body = ErrorBody),
        (status = 403, description = "Not allowed", body = ErrorBody),
        (status = 404, description = "No such round", body = ErrorBody),
        (status = 409, description = "A clock changed meanwhile", body = ErrorBody),
        (status = 422, description = "No clock could change (all started, none running, …)", body = ErrorBody),
    ),
    security(("token" = [])),
)]
pub async fn clocks(
    State(state): State<AppState>,
    Path((slug, n)): Path<(String, i32)>,
    session: Session,
    headers: HeaderMap,
    bytes: Bytes,
) -> Result<Json<types::ClocksDone>, ApiError> {
    use db::clocks::{ClockCommandError as E, RoomCommand};
    let caller = caller(
        &state,
        &session,
        &headers,
        format!("POST /api/v1/events/{slug}/rounds/{n}/clocks"),
    )
    .await?;
    let event = event_at(&state, &slug).await?;
    caller
        .require(&state.pool, &event, Action::RunEvent)
        .await?;
    let actor = actor_of(&caller)?;
    let input: types::ClocksInput = body(&bytes)?;
    let command = match input.command.trim() {
        "start" => RoomCommand::StartAll,
        "pause" => RoomCommand::PauseAll,
        "resume" => RoomCommand::ResumeAll,
        other => {
            return Err(ApiError::field(
                "command",
                format!("{other:?} is not one of start, pause, resume."),
            ));
        }
    };
    let outcome = db::clocks::apply_all(&state.pool, &actor, event.id, RoundNumber(n), command)
        .await
        .map_err(|e| match e {
            e @ E::Stale(_) => ApiError::conflict(e.to_string()),
            e @ E::NotFound => ApiError::not_found(e.to_string()),
            E::Database(e) => ApiError::internal("changing the clocks", e),
            e => ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, e.to_string()),
        })?;
    Ok(Json(types::ClocksDone {
        done: outcome.summary(command),
        skipped: outcome
            .skipped
            .iter()
            .map(|(table, why)| types::TableSkipped {
                table: table.get(),
                why: why.clone(),
            })
            .collect(),
    }))
}

async fn report_state(
    state: &AppState,
    event: &db::events::Event,
    slug: &str,
    n: i32,
    t: i32,
) -> Result<types::ReportState, ApiError> {
    let results =
        db::results::reports::table_results(&state.pool, event.id, RoundNumber(n), TableNumber(t))
            .await
            .map_err(results_error)?;
    Ok(types::ReportState {
        revision: results.latest().map_or(0, |r| r.revision.get()),
        status: results.status.code().to_owned(),
        report: format!("/api/v1/events/{slug}/rounds/{n}/tables/{t}/report"),
    })
}

/// A seated player's answer to the report, given by a judge for them: agree, or dispute with a
/// `note` (4.01.05). The report is final once every seated player agrees.
#[utoipa::path(
    post,
    path = "/api/v1/events/{slug}/rounds/{n}/tables/{t}/report/confirmations",
    tag = "run",
    params(
        ("slug" = String, Path, description = "The event's address"),
        ("n" = i32, Path, description = "The round's number"),
        ("t" = i32, Path, description = "The table's number in the round"),
    ),
    request_body = types::ConfirmationInput,
    responses(
        (status = 200, description = "Recorded", body = types::ReportState),
        (status = 400, description = "The body is not JSON", body = ErrorBody),
        (status = 401, description = "No or a bad token", body = ErrorBody),
        (status = 403, description = "Not allowed, or the player does not sit there", body = ErrorBody),
        (status = 404, description = "No such table", body = ErrorBody),
        (status = 409, description = "A newer revision was saved since `revision`", body = ErrorBody),
        (status = 422, description = "No report yet, already final, or a dispute without a note", body = ErrorBody),
    ),
    security(("token" = [])),
)]
pub async fn confirm(
    State(state): State<AppState>,
    Path((slug, n, t)): Path<(String, i32, i32)>,
    session: Session,
    headers: HeaderMap,
    bytes: Bytes,
) -> Result<Json<types::ReportState>, ApiError> {
    use db::results::reports::{Answer, Answerer};
    let caller = caller(
        &state,
        &session,
        &headers,
        format!("POST /api/v1/events/{slug}/rounds/{n}/tables/{t}/report/confirmations"),
    )
    .await?;
    let event = event_at(&state, &slug).await?;
    caller
        .require(&state.pool, &event, Action::RecordResults)
        .await?;
    let actor = actor_of(&caller)?;
    let input: types::ConfirmationInput = body(&bytes)?;
    db::results::reports::answer(
        &state.pool,
        &actor,
        event.id,
        &Answer {
            round: RoundNumber(n),
            table: TableNumber(t),
            revision: Revision(input.revision),
            player_id: PlayerId(input.player_id),
            agrees: input.agrees,
            note: input.note,
            answerer: Answerer::Judge,
        },
    )
    .await
    .map_err(results_error)?;
    Ok(Json(report_state(&state, &event, &slug, n, t).await?))
}

/// The head judge makes a revision final without waiting for (or despite) confirmations
/// (4.01.05).
#[utoipa::path(
    post,
    path = "/api/v1/events/{slug}/rounds/{n}/tables/{t}/report/finalise",
    tag = "run",
    params(
        ("slug" = String, Path, description = "The event's address"),
        ("n" = i32, Path, description = "The round's number"),
        ("t" = i32, Path, description = "The table's number in the round"),
    ),
    request_body = types::FinaliseInput,
    responses(
        (status = 200, description = "Final", body = types::ReportState),
        (status = 400, description = "The body is not JSON", body = ErrorBody),
        (status = 401, description = "No or a bad token", body = ErrorBody),
        (status = 403, description = "Not the head judge", body = ErrorBody),
        (status = 404, description = "No such table", body = ErrorBody),
        (status = 409, description = "A newer revision was saved since `revision`", body = ErrorBody),
        (status = 422, description = "No report yet, or final already", body = ErrorBody),
    ),
    security(("token" = [])),
)]
pub async fn finalise(
    State(state): State<AppState>,
    Path((slug, n, t)): Path<(String, i32, i32)>,
    session: Session,
    headers: HeaderMap,
    bytes: Bytes,
) -> Result<Json<types::ReportState>, ApiError> {
    let caller = caller(
        &state,
        &session,
        &headers,
        format!("POST /api/v1/events/{slug}/rounds/{n}/tables/{t}/report/finalise"),
    )
    .await?;
    let event = event_at(&state, &slug).await?;
    caller
        .require(&state.pool, &event, Action::Override)
        .await?;
    let actor = actor_of(&caller)?;
    let input: types::FinaliseInput = body(&bytes)?;
    db::results::reports::finalise(
        &state.pool,
        &actor,
        event.id,
        RoundNumber(n),
        TableNumber(t),
        Revision(input.revision),
    )
    .await
    .map_err(results_error)?;
    Ok(Json(report_state(&state, &event, &slug, n, t).await?))
}

async fn qualifying_body(
    state: &AppState,
    event: &db::events::Event,
) -> Result<types::Qualifying, ApiError> {
    let s = db::results::standings::event_standings(&state.pool, event.id)
        .await
        .map_err(|e| ApiError::internal("computing the standings", e))?;
    Ok(match s.closed {
        Some(c) => types::Qualifying {
            closed: true,
            closed_at: Some(c.closed_at),
            finalists: c.all_finalists(),
            tied: c.tied.clone(),
            open_seats: usize::try_from(c.open_seats).unwrap_or(0),
            draw_seed: c.draw.as_ref().map(|d| d.seed),
        },
        None => types::Qualifying {
            closed: false,
            closed_at: None,
            finalists: None,
            tied: s.cut_tie.as_ref().map(|t| t.0.clone()).unwrap_or_default(),
            open_seats: s.cut_tie.as_ref().map_or(0, |t| t.1),
            draw_seed: None,
        },
    })
}

/// Where qualifying stands: open, or closed with its finalists (public, as the finals page).
#[utoipa::path(
    get,
    path = "/api/v1/events/{slug}/qualifying",
    tag = "read",
    params(("slug" = String, Path, description = "The event's address")),
    responses(
        (status = 200, description = "Qualifying", body = types::Qualifying),
        (status = 404, description = "No such event", body = ErrorBody),
    ),
    security((), ("token" = [])),
)]
pub async fn qualifying(
    State(state): State<AppState>,
    Path(slug): Path<String>,
    session: Session,
    headers: HeaderMap,
) -> Result<Json<types::Qualifying>, ApiError> {
    let caller = caller(
        &state,
        &session,
        &headers,
        format!("GET /api/v1/events/{slug}/qualifying"),
    )
    .await?;
    let event = event_at(&state, &slug).await?;
    caller
        .require(&state.pool, &event, Action::ViewPublic)
        .await?;
    Ok(Json(qualifying_body(&state, &event).await?))
}

/// Closes qualifying: no qualifying round starts any more; the finals list is the standings'
/// finals line (head judge). With planned rounds left, send `"early": true`.
#[utoipa::path(
    post,
    path = "/api/v1/events/{slug}/qualifying/close",
    tag = "run",
    params(("slug" = String, Path, description = "The event's address")),
    request_body = types::CloseQualifying,
    responses(
        (status = 200, description = "Closed", body = types::Qualifying),
        (status = 400, description = "The body is not JSON", body = ErrorBody),
        (status = 401, description = "No or a bad token", body = ErrorBody),
        (status = 403, description = "Not the head judge", body = ErrorBody),
        (status = 404, description = "No such event", body = ErrorBody),
        (status = 422, description = "Reports not final, closed already, or rounds left without `early` (`field` is `early`)", body = ErrorBody),
    ),
    security(("token" = [])),
)]
pub async fn close_qualifying(
    State(state): State<AppState>,
    Path(slug): Path<String>,
    session: Session,
    headers: HeaderMap,
    bytes: Bytes,
) -> Result<Json<types::Qualifying>, ApiError> {
    let caller = caller(
        &state,
        &session,
        &headers,
        format!("POST /api/v1/events/{slug}/qualifying/close"),
    )
    .await?;
    let event = event_at(&state, &slug).await?;
    caller
        .require(&state.pool, &event, Action::Override)
        .await?;
    let actor = actor_of(&caller)?;
    let input: types::CloseQualifying = optional_body(&bytes)?;
    db::results::finals::close_qualifying(&state.pool, &actor, event.id, input.early)
        .await
        .map_err(|e| rename_field(results_error(e), "confirm", "early"))?;
    Ok(Json(qualifying_body(&state, &event).await?))
}

/// The field a database error names, as this endpoint's body names it.
fn rename_field(mut error: ApiError, from: &str, to: &str) -> ApiError {
    if error.body.field.as_deref() == Some(from) {
        error.body.field = Some(to.to_owned());
    }
    error
}

/// Reopens qualifying (head judge). A final table drawn but not reported is withdrawn; when
/// results are recorded there, `"confirm": true` is needed and the audit log keeps them.
#[utoipa::path(
    post,
    path = "/api/v1/events/{slug}/qualifying/reopen",
    tag = "run",
    params(("slug" = String, Path, description = "The event's address")),
    request_body = types::ReopenQualifying,
    responses(
        (status = 200, description = "Open again", body = types::Qualifying),
        (status = 400, description = "The body is not JSON", body = ErrorBody),
        (status = 401, description = "No or a bad token", body = ErrorBody),
        (status = 403, description = "Not the head judge", body = ErrorBody),
        (status = 404, description = "No such event", body = ErrorBody),
        (status = 422, description = "Open already, the final is reported, or `confirm` is needed", body = ErrorBody),
    ),
    security(("token" = [])),
)]
pub async fn reopen_qualifying(
    State(state): State<AppState>,
    Path(slug): Path<String>,
    session: Session,
    headers: HeaderMap,
    bytes: Bytes,
) -> Result<Json<types::Qualifying>, ApiError> {
    let caller = caller(
        &state,
        &session,
        &headers,
        format!("POST /api/v1/events/{slug}/qualifying/reopen"),
    )
    .await?;
    let event = event_at(&state, &slug).await?;
    caller
        .require(&state.pool, &event, Action::Override)
        .await?;
    let actor = actor_of(&caller)?;
    let input: types::ReopenQualifying = optional_body(&bytes)?;
    db::results::finals::reopen_qualifying(&state.pool, &actor, event.id, input.confirm)
        .await
        .map_err(results_error)?;
    Ok(Json(qualifying_body(&state, &event).await?))
}

/// Draws who of the players tied across the cut line takes the open finals seats, by a seeded,
/// recorded draw (rulings 4 and 11; head judge).
#[utoipa::path(
    post,
    path = "/api/v1/events/{slug}/qualifying/cut-draw",
    tag = "run",
    params(("slug" = String, Path, description = "The event's address")),
    request_body = types::SeedInput,
    responses(
        (status = 200, description = "Drawn", body = types::Qualifying),
        (status = 400, description = "The body is not JSON", body = ErrorBody),
        (status = 401, description = "No or a bad token", body = ErrorBody),
        (status = 403, description = "Not the head judge", body = ErrorBody),
        (status = 404, description = "No such event", body = ErrorBody),
        (status = 422, description = "Qualifying is open, or there is no tie to draw", body = ErrorBody),
    ),
    security(("token" = [])),
)]
pub async fn cut_draw(
    State(state): State<AppState>,
    Path(slug): Path<String>,
    session: Session,
    headers: HeaderMap,
    bytes: Bytes,
) -> Result<Json<types::Qualifying>, ApiError> {
    let caller = caller(
        &state,
        &session,
        &headers,
        format!("POST /api/v1/events/{slug}/qualifying/cut-draw"),
    )
    .await?;
    let event = event_at(&state, &slug).await?;
    caller
        .require(&state.pool, &event, Action::Override)
        .await?;
    let actor = actor_of(&caller)?;
    let input: types::SeedInput = optional_body(&bytes)?;
    db::results::finals::draw_cut(&state.pool, &actor, event.id, input.seed)
        .await
        .map_err(results_error)?;
    Ok(Json(qualifying_body(&state, &event).await?))
}

/// Seats the final table from the finals list (ruling 13): drawn, or in qualifying order, as
/// the event's settings say (head judge). It is played and reported like any table.
#[utoipa::path(
    post,
    path = "/api/v1/events/{slug}/final-table",
    tag = "run",
    params(("slug" = String, Path, description = "The event's address")),
    request_body = types::SeedInput,
    responses(
        (status = 201, description = "Seated: the final table's round", body = types::Round),
        (status = 400, description = "The body is not JSON", body = ErrorBody),
        (status = 401, description = "No or a bad token", body = ErrorBody),
        (status = 403, description = "Not the head judge", body = ErrorBody),
        (status = 404, description = "No such event", body = ErrorBody),
        (status = 422, description = "Qualifying is open, a cut tie is undrawn, or it is seated already", body = ErrorBody),
    ),
    security(("token" = [])),
)]
pub async fn final_table(
    State(state): State<AppState>,
    Path(slug): Path<String>,
    session: Session,
    headers: HeaderMap,
    bytes: Bytes,
) -> Result<(StatusCode, Json<types::Round>), ApiError> {
    let caller = caller(
        &state,
        &session,
        &headers,
        format!("POST /api/v1/events/{slug}/final-table"),
    )
    .await?;
    let event = event_at(&state, &slug).await?;
    caller
        .require(&state.pool, &event, Action::Override)
        .await?;
    let actor = actor_of(&caller)?;
    let input: types::SeedInput = optional_body(&bytes)?;
    let number = db::rounds::start_final(&state.pool, &actor, event.id, input.seed)
        .await
        .map_err(round_error)?;
    Ok((
        StatusCode::CREATED,
        Json(round_body(&state, &event, number.get()).await?),
    ))
}
