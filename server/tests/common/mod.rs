//! Helpers for HTTP tests: a router over a fresh database, requests with cookies, accounts.
#![allow(dead_code)]

use axum::{
    Router,
    body::Body,
    http::{Request, Response, header},
};
use db::{
    accounts::{self, NewUser, UserName},
    password::Password,
    roles::Actor,
};
use server::{
    config::WebConfig,
    http::{AppState, router},
};
use sqlx::PgPool;
use tower::ServiceExt;

pub const HOST: &str = "127.0.0.1:3000";
pub const ORIGIN: &str = "http://127.0.0.1:3000";

pub fn app(pool: PgPool) -> Router {
    let addr = HOST.parse().expect("literal address");
    let state = AppState::new(
        server::commands::serve::leptos_options(addr, "target/site"),
        pool,
    );
    router(state, &WebConfig::local())
}

/// As [`app`], with the live-update hub listening to the database, as `mentat serve` runs it.
/// Returns the hub too, so a test can end its streams.
pub fn app_live(pool: PgPool) -> (Router, server::http::live::Hub) {
    let addr = HOST.parse().expect("literal address");
    let state = AppState::new(
        server::commands::serve::leptos_options(addr, "target/site"),
        pool.clone(),
    );
    let hub = state.live.clone();
    hub.spawn_listener(pool);
    (router(state, &WebConfig::local()), hub)
}

pub async fn user(pool: &PgPool, name: &str, admin: bool) -> Actor {
    let new = NewUser {
        username: UserName::parse(name).expect("valid name"),
        email: None,
        password: Password::new_choice(format!("{name}-password")).expect("long enough"),
        is_admin: admin,
    };
    let user_id = accounts::create_user(pool, new, None)
        .await
        .expect("created");
    Actor {
        user_id,
        username: name.to_owned(),
        is_admin: admin,
    }
}

/// A same-origin form POST to a server function, as the browser sends it.
pub fn form_post(path: &str, body: &str, cookie: Option<&str>) -> Request<Body> {
    let mut builder = Request::post(path)
        .header(header::HOST, HOST)
        .header(header::ORIGIN, ORIGIN)
        .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
        .header(header::ACCEPT, "application/json");
    if let Some(cookie) = cookie {
        builder = builder.header(header::COOKIE, cookie);
    }
    builder.body(Body::from(body.to_owned())).expect("request")
}

pub async fn send(app: &Router, request: Request<Body>) -> Response<Body> {
    app.clone().oneshot(request).await.expect("router answers")
}

pub async fn text(response: Response<Body>) -> String {
    let bytes = axum::body::to_bytes(response.into_body(), 1 << 22)
        .await
        .expect("body");
    String::from_utf8_lossy(&bytes).into_owned()
}

/// The `name=value` part of the session cookie a response sets, and the whole header.
pub fn session_cookie(response: &Response<Body>) -> Option<(String, String)> {
    response
        .headers()
        .get_all(header::SET_COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find(|v| v.starts_with("mentat_session="))
        .map(|v| {
            (
                v.split(';').next().unwrap_or_default().to_owned(),
                v.to_owned(),
            )
        })
}

pub fn url_encode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// Signs in through the real server function and returns the session cookie.
pub async fn sign_in(app: &Router, name: &str) -> String {
    use leptos::server_fn::ServerFn;
    let body = format!(
        "login={name}&password={}",
        url_encode(&format!("{name}-password"))
    );
    let response = send(app, form_post(app::auth::SignIn::PATH, &body, None)).await;
    assert_eq!(response.status(), 200, "sign-in of {name}");
    session_cookie(&response).expect("a session cookie").0
}
