//! The HTTP boundary probed as an attacker would: malformed and oversized requests get a short
//! 4xx, never a 500; text that is not UTF-8 is refused; every response carries the security
//! headers. Through the whole router, against a real PostgreSQL.

mod common;

use axum::{
    body::Body,
    http::{Request, header},
};
use common::*;
use leptos::server_fn::ServerFn;
use sqlx::PgPool;

/// An administrator's session and an event to work in.
async fn organiser(pool: &PgPool) -> (axum::Router, String, String) {
    let admin = user(pool, "admin", true).await;
    let event = db::events::create(pool, &admin, "Boundary Open")
        .await
        .expect("event");
    let app = app(pool.clone());
    let cookie = sign_in(&app, "admin").await;
    (app, cookie, event.slug)
}

async fn players(pool: &PgPool) -> Vec<String> {
    sqlx::query_scalar("SELECT name FROM players ORDER BY id")
        .fetch_all(pool)
        .await
        .expect("players")
}

#[sqlx::test(migrator = "server::database::MIGRATOR")]
async fn a_missing_field_is_a_422_with_a_short_message(pool: PgPool) {
    user(&pool, "alice", false).await;
    let app = app(pool);
    let response = send(
        &app,
        form_post(app::auth::SignIn::PATH, "login=alice", None),
    )
    .await;
    assert_eq!(response.status(), 422);
    let body = text(response).await;
    assert!(body.contains("password"), "{body}");
    assert!(body.len() < 300, "{body}");
}

#[sqlx::test(migrator = "server::database::MIGRATOR")]
async fn a_number_too_large_for_its_type_is_a_422(pool: PgPool) {
    let (app, cookie, slug) = organiser(&pool).await;
    let body = format!("slug={slug}&user_id=99999999999999999999999999");
    let response = send(
        &app,
        form_post(app::events::RevokeRole::PATH, &body, Some(&cookie)),
    )
    .await;
    assert_eq!(response.status(), 422);
    let body = text(response).await;
    assert!(body.len() < 300, "{body}");
}

#[sqlx::test(migrator = "server::database::MIGRATOR")]
async fn an_oversized_body_is_a_413_whether_announced_or_streamed(pool: PgPool) {
    let (app, cookie, slug) = organiser(&pool).await;
    let huge = format!("slug={slug}&csv={}", "a".repeat(4_800_000));
    let announced = send(
        &app,
        form_post(app::players::ImportPlayers::PATH, &huge, Some(&cookie)),
    )
    .await;
    assert_eq!(announced.status(), 413);
    assert!(text(announced).await.len() < 200);

    // Chunked: no Content-Length, the size shows only while reading.
    let chunks = futures_util::stream::iter(
        (0..48).map(|_| Ok::<_, std::io::Error>(axum::body::Bytes::from(vec![b'a'; 100_000]))),
    );
    let streamed = Request::post(app::players::ImportPlayers::PATH)
        .header(header::HOST, HOST)
        .header(header::ORIGIN, ORIGIN)
        .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
        .header(header::COOKIE, &cookie)
        .body(Body::from_stream(chunks))
        .expect("request");
    let response = send(&app, streamed).await;
    assert_eq!(response.status(), 413);
    assert!(players(&pool).await.is_empty());
}

#[sqlx::test(migrator = "server::database::MIGRATOR")]
async fn a_name_that_is_not_utf8_is_refused_not_mangled(pool: PgPool) {
    let (app, cookie, slug) = organiser(&pool).await;
    // %FF%FE: bytes that are no UTF-8 text; before, they were stored as U+FFFD.
    let body = format!("slug={slug}&name=Ana%FF%FE&email=&club=");
    let response = send(
        &app,
        form_post(app::players::AddPlayer::PATH, &body, Some(&cookie)),
    )
    .await;
    assert_eq!(response.status(), 400);
    assert!(text(response).await.contains("UTF-8"));
    // Raw bytes that are not UTF-8, outside any percent-encoding.
    let mut raw = format!("slug={slug}&name=Ana").into_bytes();
    raw.extend_from_slice(&[0xC3, 0x28]);
    raw.extend_from_slice(b"&email=&club=");
    let request = Request::post(app::players::AddPlayer::PATH)
        .header(header::HOST, HOST)
        .header(header::ORIGIN, ORIGIN)
        .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
        .header(header::COOKIE, &cookie)
        .body(Body::from(raw))
        .expect("request");
    assert_eq!(send(&app, request).await.status(), 400);
    assert!(players(&pool).await.is_empty(), "nothing stored");

    // Real UTF-8 still works.
    let body = format!("slug={slug}&name=Ana+Mar%C3%ADa&email=&club=");
    let response = send(
        &app,
        form_post(app::players::AddPlayer::PATH, &body, Some(&cookie)),
    )
    .await;
    assert_eq!(response.status(), 200);
    assert_eq!(players(&pool).await, ["Ana María"]);
}

#[sqlx::test(migrator = "server::database::MIGRATOR")]
async fn a_100_kb_name_is_not_echoed_back(pool: PgPool) {
    let (app, cookie, slug) = organiser(&pool).await;
    let body = format!("slug={slug}&name={}&email=&club=", "N".repeat(100_000));
    let response = send(
        &app,
        form_post(app::players::AddPlayer::PATH, &body, Some(&cookie)),
    )
    .await;
    assert_eq!(response.status(), 422);
    let body = text(response).await;
    assert!(body.len() < 400, "{} bytes: {body:.300}", body.len());
    assert!(body.contains(r#""field":"name""#), "{body}");
    // An unknown role echoed by serde ("unknown variant `…`") is cut at the boundary too.
    let grant = format!("slug={slug}&username=x&role={}", "r".repeat(50_000));
    let response = send(
        &app,
        form_post(app::events::GrantRole::PATH, &grant, Some(&cookie)),
    )
    .await;
    assert!(response.status().is_client_error(), "{}", response.status());
    assert!(text(response).await.len() < 400);
}

fn header_of<'a>(response: &'a axum::http::Response<Body>, name: &str) -> &'a str {
    response
        .headers()
        .get(name)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_else(|| panic!("no {name} header"))
}

#[sqlx::test(migrator = "server::database::MIGRATOR")]
async fn every_response_carries_the_security_headers(pool: PgPool) {
    let app = app(pool);
    let get = |path: &str| {
        Request::get(path)
            .header(header::HOST, HOST)
            .body(Body::empty())
            .expect("request")
    };
    // A page Leptos renders: its policy names the nonce its inline scripts carry.
    let page = send(&app, get("/signin")).await;
    assert_eq!(page.status(), 200);
    let policy = header_of(&page, "content-security-policy").to_owned();
    assert_eq!(header_of(&page, "x-content-type-options"), "nosniff");
    assert_eq!(
        header_of(&page, "referrer-policy"),
        "strict-origin-when-cross-origin"
    );
    assert!(policy.contains("frame-ancestors 'none'"), "{policy}");
    assert!(policy.contains("'wasm-unsafe-eval'"), "{policy}");
    assert!(!policy.contains("unsafe-inline"), "{policy}");
    let nonce = policy
        .split("'nonce-")
        .nth(1)
        .and_then(|rest| rest.split('\'').next())
        .expect("a nonce in the page's policy")
        .to_owned();
    let html = text(page).await;
    let scripts = html.matches("<script").count();
    assert!(scripts > 0, "{html}");
    assert_eq!(
        html.matches(&format!("nonce=\"{nonce}\"")).count(),
        html.matches("<script").count() - html.matches("<script src=").count(),
        "every inline script carries the page's nonce"
    );
    // Two renders, two nonces.
    let again = send(&app, get("/signin")).await;
    assert!(!header_of(&again, "content-security-policy").contains(&nonce));

    // Responses that are not Leptos pages get the policy too.
    let api = form_post(app::auth::CurrentUser::PATH, "", None);
    for (path, response) in [
        ("/healthz", send(&app, get("/healthz")).await),
        (
            "standings",
            send(&app, get("/events/nowhere/standings")).await,
        ),
        ("api", send(&app, api).await),
    ] {
        let policy = header_of(&response, "content-security-policy");
        assert!(
            policy.contains("frame-ancestors 'none'"),
            "{path}: {policy}"
        );
        assert!(!policy.contains("unsafe-inline"), "{path}: {policy}");
        assert_eq!(header_of(&response, "x-content-type-options"), "nosniff");
        assert_eq!(header_of(&response, "x-frame-options"), "DENY");
    }
}
