//! Sessions, CSRF and role checks through the HTTP stack, against a real PostgreSQL.

mod common;

use axum::http::{Request, header};
use common::*;
use leptos::server_fn::ServerFn;
use sqlx::PgPool;

#[sqlx::test(migrator = "server::database::MIGRATOR")]
async fn a_cross_origin_post_is_refused_and_a_same_origin_one_accepted(pool: PgPool) {
    user(&pool, "alice", false).await;
    let app = app(pool);
    let body = "login=alice&password=alice-password";
    let forged = Request::post(app::auth::SignIn::PATH)
        .header(header::HOST, HOST)
        .header(header::ORIGIN, "https://evil.example")
        .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
        .body(axum::body::Body::from(body))
        .expect("request");
    let response = send(&app, forged).await;
    assert_eq!(response.status(), 403);
    assert!(
        session_cookie(&response).is_none(),
        "no session for a forged request"
    );
    let cross_site = Request::post(app::auth::SignIn::PATH)
        .header("sec-fetch-site", "cross-site")
        .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
        .body(axum::body::Body::from(body))
        .expect("request");
    assert_eq!(send(&app, cross_site).await.status(), 403);
    let response = send(&app, form_post(app::auth::SignIn::PATH, body, None)).await;
    assert_eq!(response.status(), 200);
}

#[sqlx::test(migrator = "server::database::MIGRATOR")]
async fn the_session_cookie_is_http_only_lax_and_cycled_at_sign_in(pool: PgPool) {
    user(&pool, "alice", false).await;
    let app = app(pool.clone());
    // A visitor's anonymous session must not survive as the signed-in one (session fixation).
    let planted = "mentat_session=AAAAAAAAAAAAAAAAAAAAAA";
    let body = "login=alice&password=alice-password";
    let response = send(
        &app,
        form_post(app::auth::SignIn::PATH, body, Some(planted)),
    )
    .await;
    assert_eq!(response.status(), 200);
    let (cookie, header) = session_cookie(&response).expect("session cookie");
    assert_ne!(cookie, planted);
    assert!(header.contains("HttpOnly"), "{header}");
    assert!(header.contains("SameSite=Lax"), "{header}");
    assert!(
        !header.contains("Secure"),
        "plain HTTP on localhost: {header}"
    );

    let me = send(
        &app,
        form_post(app::auth::CurrentUser::PATH, "", Some(&cookie)),
    )
    .await;
    assert_eq!(
        text(me).await,
        r#"{"username":"alice","is_admin":false,"display_name":null}"#
    );

    let out = send(&app, form_post(app::auth::SignOut::PATH, "", Some(&cookie))).await;
    assert_eq!(out.status(), 200);
    let after = send(
        &app,
        form_post(app::auth::CurrentUser::PATH, "", Some(&cookie)),
    )
    .await;
    assert_eq!(
        text(after).await,
        "null",
        "the old cookie is worthless after sign-out"
    );
    let stored: i64 = sqlx::query_scalar("SELECT count(*) FROM tower_sessions.session")
        .fetch_one(&pool)
        .await
        .expect("count");
    assert_eq!(stored, 0, "sign-out deletes the session row");
}

#[sqlx::test(migrator = "server::database::MIGRATOR")]
async fn a_wrong_password_is_a_field_error_and_sets_no_session(pool: PgPool) {
    user(&pool, "alice", false).await;
    let app = app(pool);
    let response = send(
        &app,
        form_post(app::auth::SignIn::PATH, "login=alice&password=nope", None),
    )
    .await;
    assert_eq!(response.status(), 422);
    assert!(session_cookie(&response).is_none());
    let body = text(response).await;
    assert!(body.contains(r#""field":"password""#), "{body}");
}

#[sqlx::test(migrator = "server::database::MIGRATOR")]
async fn a_judge_of_one_event_is_refused_in_another(pool: PgPool) {
    let admin = user(&pool, "admin", true).await;
    let a = db::events::create(&pool, &admin, "Event A")
        .await
        .expect("A");
    let b = db::events::create(&pool, &admin, "Event B")
        .await
        .expect("B");
    user(&pool, "judy", false).await;
    db::roles::grant(&pool, &admin, a.id, "judy", db::roles::Role::Judge)
        .await
        .expect("granted");
    let app = app(pool);
    let judy = sign_in(&app, "judy").await;

    let overview = |slug: &str| format!("slug={slug}");
    let in_a = text(
        send(
            &app,
            form_post(app::events::GetEvent::PATH, &overview(&a.slug), Some(&judy)),
        )
        .await,
    )
    .await;
    assert!(in_a.contains(r#""can_record_results":true"#), "{in_a}");
    let in_b = text(
        send(
            &app,
            form_post(app::events::GetEvent::PATH, &overview(&b.slug), Some(&judy)),
        )
        .await,
    )
    .await;
    assert!(in_b.contains(r#""can_record_results":false"#), "{in_b}");

    // Staff lists are for organisers: 403 for the judge in either event, 401 for a stranger.
    let staff_b = send(
        &app,
        form_post(
            app::events::EventStaff::PATH,
            &overview(&b.slug),
            Some(&judy),
        ),
    )
    .await;
    assert_eq!(staff_b.status(), 403);
    let staff_a = send(
        &app,
        form_post(
            app::events::EventStaff::PATH,
            &overview(&a.slug),
            Some(&judy),
        ),
    )
    .await;
    assert_eq!(staff_a.status(), 403);
    let anonymous = send(
        &app,
        form_post(app::events::EventStaff::PATH, &overview(&a.slug), None),
    )
    .await;
    assert_eq!(anonymous.status(), 401);
    let grant = format!("slug={}&username=judy&role=organiser", b.slug);
    let escalate = send(
        &app,
        form_post(app::events::GrantRole::PATH, &grant, Some(&judy)),
    )
    .await;
    assert_eq!(escalate.status(), 403, "a judge cannot promote themselves");

    let admin_cookie = sign_in(&app, "admin").await;
    let staff = send(
        &app,
        form_post(
            app::events::EventStaff::PATH,
            &overview(&a.slug),
            Some(&admin_cookie),
        ),
    )
    .await;
    assert_eq!(staff.status(), 200);
    assert!(text(staff).await.contains("judy"));
}

#[sqlx::test(migrator = "server::database::MIGRATOR")]
async fn creating_an_event_needs_an_administrator(pool: PgPool) {
    user(&pool, "pat", false).await;
    user(&pool, "admin", true).await;
    let app = app(pool.clone());
    let pat = sign_in(&app, "pat").await;
    let refused = send(
        &app,
        form_post(
            app::events::CreateEvent::PATH,
            "name=Pat%27s+Cup",
            Some(&pat),
        ),
    )
    .await;
    assert_eq!(refused.status(), 403);
    let admin = sign_in(&app, "admin").await;
    let short = send(
        &app,
        form_post(app::events::CreateEvent::PATH, "name=X", Some(&admin)),
    )
    .await;
    assert_eq!(short.status(), 422);
    assert!(text(short).await.contains(r#""field":"name""#));
    let made = send(
        &app,
        form_post(
            app::events::CreateEvent::PATH,
            "name=GenCon+Qualifier",
            Some(&admin),
        ),
    )
    .await;
    assert_eq!(made.status(), 200);
    assert_eq!(text(made).await, r#""/events/gencon-qualifier""#);
    assert_eq!(db::events::list(&pool).await.expect("list").len(), 1);
}
