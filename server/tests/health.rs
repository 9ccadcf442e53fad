//! `/healthz` against a real PostgreSQL: one fresh database per test.

use axum::{body::Body, http::Request};
use server::http::{AppState, router};
use sqlx::PgPool;
use tower::ServiceExt;

fn state(pool: PgPool) -> AppState {
    let addr = "127.0.0.1:0".parse().expect("literal address");
    AppState::new(
        server::commands::serve::leptos_options(addr, "target/site"),
        pool,
    )
}

async fn get_json(state: AppState, path: &str) -> (u16, serde_json::Value) {
    let response = router(state, &server::config::WebConfig::local())
        .oneshot(Request::get(path).body(Body::empty()).expect("request"))
        .await
        .expect("router answers");
    let status = response.status().as_u16();
    let bytes = axum::body::to_bytes(response.into_body(), 1 << 20)
        .await
        .expect("body");
    (status, serde_json::from_slice(&bytes).expect("JSON body"))
}

#[sqlx::test(migrator = "server::database::MIGRATOR")]
async fn healthz_reports_the_database_and_its_migration(pool: PgPool) {
    let (status, body) = get_json(state(pool), "/healthz").await;
    assert_eq!(status, 200);
    assert_eq!(body["db"], "ok");
    let newest = server::database::MIGRATOR
        .iter()
        .map(|m| m.version)
        .max()
        .expect("at least one migration");
    assert_eq!(body["migration"], newest);
}

#[tokio::test]
async fn healthz_is_503_when_the_database_is_down() {
    // Nothing listens on port 1; a lazy pool only fails when used, as a dead server would.
    let pool = sqlx::postgres::PgPoolOptions::new()
        .acquire_timeout(std::time::Duration::from_millis(500))
        .connect_lazy("postgres://nobody@127.0.0.1:1/none")
        .expect("lazy pool");
    let (status, body) = get_json(state(pool), "/healthz").await;
    assert_eq!(status, 503);
    assert_eq!(body["db"], "down");
}

#[tokio::test]
async fn an_unreachable_database_is_explained_without_the_password() {
    let err = server::database::connect("postgres://judge:hunter2@127.0.0.1:1/mentat")
        .await
        .expect_err("nothing listens on port 1");
    let message = err.to_string();
    assert!(
        message.contains("could not reach PostgreSQL at postgres://judge@127.0.0.1:1/mentat"),
        "{message}"
    );
    assert!(message.contains("DATABASE_URL"), "{message}");
    assert!(!message.contains("hunter2"), "{message}");
}

#[tokio::test]
async fn a_port_in_use_is_named() {
    let first = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = first.local_addr().expect("addr");
    let err = server::commands::serve::bind(addr)
        .await
        .expect_err("port taken");
    let message = err.to_string();
    assert!(
        message.contains(&format!("{addr} is already in use")),
        "{message}"
    );
    assert!(message.contains("PORT="), "{message}");
}

#[sqlx::test(migrator = "server::database::MIGRATOR")]
async fn the_home_page_is_rendered_on_the_server(pool: PgPool) {
    let response = router(state(pool), &server::config::WebConfig::local())
        .oneshot(Request::get("/").body(Body::empty()).expect("request"))
        .await
        .expect("router answers");
    assert_eq!(response.status().as_u16(), 200);
    let bytes = axum::body::to_bytes(response.into_body(), 1 << 20)
        .await
        .expect("body");
    let html = String::from_utf8_lossy(&bytes);
    assert!(html.contains("<h1>Mentat</h1>"), "{html}");
    assert!(
        html.contains("/pkg/mentat.js"),
        "hydration script missing: {html}"
    );
}
