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

/// The session key that holds the signed-in account (the server's own routes read it too).
pub const USER_KEY: &str = "user_id";

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
    if let Ok(code) = http::StatusCode::from_u16(error.status()) {
        set_status(code);
    }
    Err(error)
}

/// Sets the response's status, except for a plain form post: that one is answered with a
/// redirect back to the page, carrying the error in the address so the page shows it at the
/// field (see `crate::hydration`). A status set here would replace the redirect, and the
/// person would see the raw error instead of the form.
pub fn set_status(code: http::StatusCode) {
    if plain_form_post() {
        return;
    }
    if let Some(response) = use_context::<leptos_axum::ResponseOptions>() {
        response.set_status(code);
    }
}

/// Whether this request is a `<form method="post">` sent by the browser itself (no wasm, or
/// before it loaded) to a server function, rather than a call from the browser half or an API
/// client. The browser asks for HTML; the server function client asks for JSON.
pub fn plain_form_post() -> bool {
    use_context::<http::request::Parts>().is_some_and(|parts| {
        parts.method == http::Method::POST
            && parts
                .headers
                .get(http::header::ACCEPT)
                .and_then(|v| v.to_str().ok())
                .is_some_and(|accept| accept.contains("text/html"))
    })
}

/// Sends the browser to `path` when the action succeeds: a plain form post gets a redirect,
/// and the browser half follows the same answer (`crate::hydration`).
pub fn go_to(path: &str) {
    leptos_axum::redirect(path);
}

/// Ends a successful form action: back to the page the form was on, rendered afresh.
pub fn back() {
    go_to(&page_with(&[]));
}

/// As [`back`], and the page says what was done beside the form that posted to `action`
/// (`crate::forms`): `message`, and a line for each of `lines`.
pub fn back_with(action: &str, message: &str, lines: &[String]) {
    back_with_notes(action, message, &[], lines);
}

/// As [`back_with`], with sentences (`notes`) said under the message, before the lines.
///
/// The page comes back scrolled to what was said (`#done`, `forms::DoneNote`), where the eye
/// was, not at its top with the message a screen or two below.
pub fn back_with_notes(action: &str, message: &str, notes: &[String], lines: &[String]) {
    use crate::forms::{DONE, DONE_ANCHOR, LINE, NOTE, SAID};
    let mut said = vec![(DONE, action), (SAID, message)];
    said.extend(notes.iter().map(|n| (NOTE, n.as_str())));
    said.extend(lines.iter().map(|l| (LINE, l.as_str())));
    go_to(&format!("{}#{DONE_ANCHOR}", page_with(&said)));
}

/// The page that posted (from `Referer`, path and query only, so never another site), without
/// what earlier submissions said, plus `params`.
fn page_with(params: &[(&str, &str)]) -> String {
    use crate::forms::{DONE, LINE, NOTE, SAID};
    let referer = use_context::<http::request::Parts>()
        .and_then(|p| p.headers.get(http::header::REFERER).cloned())
        .and_then(|v| v.to_str().ok().map(str::to_owned))
        .and_then(|r| url::Url::parse(&r).ok());
    let Some(mut page) = referer else {
        return "/".to_owned();
    };
    let kept: Vec<(String, String)> = page
        .query_pairs()
        .filter(|(k, _)| !["__path", "__err", DONE, SAID, NOTE, LINE].contains(&k.as_ref()))
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect();
    page.set_query(None);
    if !kept.is_empty() || !params.is_empty() {
        let mut query = page.query_pairs_mut();
        query.extend_pairs(kept);
        query.extend_pairs(params);
    }
    match page.query() {
        Some(q) => format!("{}?{q}", page.path()),
        None => page.path().to_owned(),
    }
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

/// Makes an ordinary account from a form's user name and password (typed twice) and signs it in
/// on this session: how an invitation and a player's claim both begin for a visitor without an
/// account. Each refusal names its field.
pub async fn create_account_and_sign_in(
    pool: &PgPool,
    username: &str,
    password: String,
    repeat: &str,
) -> Result<Actor, AppError> {
    let name = match db::accounts::UserName::parse(username) {
        Ok(name) => name,
        Err(message) => return fail(AppError::field("username", message)),
    };
    if password != repeat {
        return fail(AppError::field("repeat", "The two passwords differ."));
    }
    let password = match db::password::Password::new_choice(password) {
        Ok(p) => p,
        Err(message) => return fail(AppError::field("password", message)),
    };
    let new = db::accounts::NewUser {
        username: name.clone(),
        email: None,
        password,
        is_admin: false,
    };
    let user_id = match db::accounts::create_user(pool, new, None).await {
        Ok(id) => id,
        Err(e) => match e.field() {
            Some(field) => return fail(AppError::field(field, e.to_string())),
            None => return Err(internal("creating the account", e)),
        },
    };
    let actor = Actor {
        user_id,
        username: name.as_str().to_owned(),
        is_admin: false,
    };
    start_session(&actor).await?;
    Ok(actor)
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
        .map_err(|e| internal("starting the session", e))?;
    // Saved now rather than after the response, so its new id is known and can be tied to the
    // account for "sign out everywhere".
    session
        .save()
        .await
        .map_err(|e| internal("starting the session", e))?;
    if let Some(id) = session.id() {
        db::accounts::record_session(&pool()?, actor.user_id, &id.to_string())
            .await
            .map_err(|e| internal("starting the session", e))?;
    }
    Ok(())
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
