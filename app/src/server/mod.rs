//! Server-only helpers for server functions: the pool, the session, the caller and their role.
//! Every server function starts by calling one of the `require_*` checks.

use std::net::SocketAddr;
use tournament::ids::{EventId, UserId};

use axum::extract::ConnectInfo;
use db::{
    PgPool,
    roles::{self, AccessError, Action, Actor, Role},
};
use leptos::prelude::*;
use tower_sessions::Session;

use crate::error::AppError;
pub use crate::error::internal;

const USER_KEY: &str = "user_id";

pub fn pool() -> Result<PgPool, AppError> {
    use_context::<PgPool>().ok_or_else(|| AppError::Internal("no database pool in context".into()))
}

pub async fn session() -> Result<Session, AppError> {
    leptos_axum::extract::<Session>()
        .await
        .map_err(|e| AppError::Internal(format!("no session: {e}")))
}

/// Answers with the error's HTTP status too, so API clients and tests see 401/403/422.
pub fn fail<T>(error: AppError) -> Result<T, AppError> {
    if let Some(response) = use_context::<leptos_axum::ResponseOptions>()
        && let Ok(code) = http::StatusCode::from_u16(error.status())
    {
        response.set_status(code);
    }
    Err(error)
}

/// Ends a server function: an error (of any layer) becomes an [`AppError`], whose kind sets the
/// response's HTTP status ([`AppError::status`]).
pub fn answer<T, E: Into<AppError>>(result: Result<T, E>) -> Result<T, AppError> {
    result.or_else(|e| fail(e.into()))
}

/// The signed-in user, if any. A session whose account is gone counts as signed out.
pub async fn actor() -> Result<Option<Actor>, AppError> {
    let session = session().await?;
    let Some(user_id) = session
        .get::<UserId>(USER_KEY)
        .await
        .map_err(|e| internal("reading the session", e))?
    else {
        return Ok(None);
    };
    db::accounts::actor(&pool()?, user_id)
        .await
        .map_err(|e| internal("loading the signed-in account", e))
}

pub async fn require_actor() -> Result<Actor, AppError> {
    match actor().await? {
        Some(actor) => Ok(actor),
        None => fail(AppError::SignInRequired),
    }
}

/// Checks the caller may do `action` in the event; returns who they are and their role there.
pub async fn require(
    event_id: EventId,
    action: Action,
) -> Result<(Option<Actor>, Option<Role>), AppError> {
    let actor = actor().await?;
    match roles::authorize(&pool()?, actor.as_ref(), event_id, action).await {
        Ok(role) => Ok((actor, role)),
        Err(AccessError::SignInRequired) => fail(AppError::SignInRequired),
        Err(AccessError::Forbidden) => fail(AppError::Forbidden(
            "Your role in this event does not allow this. Ask the event's organiser if you need it.".into(),
        )),
        Err(AccessError::Database(e)) => Err(internal("checking your role", e)),
    }
}

/// As [`require`], for actions that need a signed-in caller: returns who they are.
pub async fn require_staff(event_id: EventId, action: Action) -> Result<Actor, AppError> {
    match require(event_id, action).await? {
        (Some(actor), _) => Ok(actor),
        (None, _) => fail(AppError::SignInRequired),
    }
}

/// Starts a signed-in session under a new id, so an id fixed before sign-in is worthless after.
pub async fn start_session(actor: &Actor) -> Result<(), AppError> {
    let session = session().await?;
    session
        .cycle_id()
        .await
        .map_err(|e| internal("starting the session", e))?;
    session
        .insert(USER_KEY, actor.user_id)
        .await
        .map_err(|e| internal("starting the session", e))
}

pub async fn end_session() -> Result<(), AppError> {
    session()
        .await?
        .flush()
        .await
        .map_err(|e| internal("ending the session", e))
}

/// The address a request came from, for the sign-in back-off. Behind a trusted load balancer
/// (`MENTAT_TRUST_PROXY`) the server has already put the client's address here, in place of the
/// balancer's.
pub async fn client_address() -> String {
    match leptos_axum::extract::<ConnectInfo<SocketAddr>>().await {
        Ok(ConnectInfo(addr)) => addr.ip().to_string(),
        Err(_) => "unknown".to_owned(),
    }
}
