//! Running an event through the HTTP stack: role checks on the head judge's server functions,
//! "this changed, reload" answers, and the player's phone page rendered whole on the server.

mod common;

use axum::http::{Request, header};
use common::*;
use leptos::server_fn::ServerFn;
use sqlx::PgPool;

/// An event with `n` checked-in players, its head judge "hj" and a judge "jo".
async fn event_with_players(pool: &PgPool, n: usize) -> db::events::Event {
    let admin = user(pool, "admin", true).await;
    let event = db::events::create(pool, &admin, "Spice Cup")
        .await
        .expect("event");
    user(pool, "hj", false).await;
    user(pool, "jo", false).await;
    db::roles::grant(pool, &admin, event.id, "hj", db::roles::Role::HeadJudge)
        .await
        .expect("granted");
    db::roles::grant(pool, &admin, event.id, "jo", db::roles::Role::Judge)
        .await
        .expect("granted");
    let mut csv = String::new();
    for i in 1..=n {
        csv.push_str(&format!("Player {i:02}\n"));
    }
    db::players::import_csv(pool, &admin, event.id, &csv)
        .await
        .expect("imported");
    db::players::check_in_all(pool, &admin, event.id)
        .await
        .expect("checked in");
    event
}

async fn get_page(app: &axum::Router, path: &str) -> (u16, String) {
    let request = Request::get(path)
        .header(header::HOST, HOST)
        .body(axum::body::Body::empty())
        .expect("request");
    let response = send(app, request).await;
    let status = response.status().as_u16();
    (status, text(response).await)
}

#[sqlx::test(migrator = "server::database::MIGRATOR")]
async fn only_the_head_judge_starts_a_round_and_a_second_start_is_told_to_reload(pool: PgPool) {
    let event = event_with_players(&pool, 11).await;
    let app = app(pool.clone());
    let start = format!("slug={}&number=1&seed=42", event.slug);

    let anonymous = send(&app, form_post(app::rounds::StartRound::PATH, &start, None)).await;
    assert_eq!(anonymous.status(), 401);
    let jo = sign_in(&app, "jo").await;
    let judge = send(
        &app,
        form_post(app::rounds::StartRound::PATH, &start, Some(&jo)),
    )
    .await;
    assert_eq!(judge.status(), 403, "a judge does not run the event");

    let hj = sign_in(&app, "hj").await;
    let first = send(
        &app,
        form_post(app::rounds::StartRound::PATH, &start, Some(&hj)),
    )
    .await;
    assert_eq!(first.status(), 200);
    assert_eq!(text(first).await, "1");
    let again = send(
        &app,
        form_post(app::rounds::StartRound::PATH, &start, Some(&hj)),
    )
    .await;
    assert_eq!(again.status(), 409);
    let body = text(again).await;
    assert!(
        body.contains("Conflict") && body.contains("Reload"),
        "{body}"
    );
    let seed: i64 = sqlx::query_scalar("SELECT seed FROM rounds")
        .fetch_one(&pool)
        .await
        .expect("seed");
    assert_eq!(seed, 42, "the seed typed by the head judge is stored");

    // A redraw from a page that still shows version 0 of the round is refused the same way.
    let stale = format!("slug={}&number=1&version=0", event.slug);
    let redraw = send(
        &app,
        form_post(app::rounds::RedrawRound::PATH, &stale, Some(&hj)),
    )
    .await;
    assert_eq!(redraw.status(), 409);

    // The judge may record win attempts at a table; not start its clock.
    let table: (i64, i32) = sqlx::query_as("SELECT id, version FROM game_tables WHERE number = 1")
        .fetch_one(&pool)
        .await
        .expect("table");
    let clock = format!(
        "slug={}&table_id={}&version={}&command=start",
        event.slug, table.0, table.1
    );
    let by_judge = send(
        &app,
        form_post(app::rounds::TableClock::PATH, &clock, Some(&jo)),
    )
    .await;
    assert_eq!(by_judge.status(), 403);
    let seat: i64 =
        sqlx::query_scalar("SELECT player_id FROM seats WHERE table_id = $1 AND seat = 1")
            .bind(table.0)
            .fetch_one(&pool)
            .await
            .expect("seat");
    let attempts = format!(
        "form[slug]={}&form[round]=1&form[table]=1&form[turn]=3&form[seats][0][player_id]={seat}&form[seats][0][made]=on&form[seats][0][evidence]=ARK+CAR+TUK",
        event.slug
    );
    let recorded = send(
        &app,
        form_post(app::results::RecordAttempts::PATH, &attempts, Some(&jo)),
    )
    .await;
    assert_eq!(recorded.status(), 200);
    let count: i64 = sqlx::query_scalar("SELECT count(*) FROM win_attempts WHERE table_id = $1")
        .bind(table.0)
        .fetch_one(&pool)
        .await
        .expect("count");
    assert_eq!(count, 1);
    // The same turn again from a page that did not show the first record: refused, 409.
    let again = send(
        &app,
        form_post(app::results::RecordAttempts::PATH, &attempts, Some(&jo)),
    )
    .await;
    assert_eq!(again.status(), 409);
    // Anonymous: 401.
    let anonymous = send(
        &app,
        form_post(app::results::RecordAttempts::PATH, &attempts, None),
    )
    .await;
    assert_eq!(anonymous.status(), 401);
}

#[sqlx::test(migrator = "server::database::MIGRATOR")]
async fn form_errors_name_their_field(pool: PgPool) {
    let event = event_with_players(&pool, 8).await;
    let app = app(pool);
    let hj = sign_in(&app, "hj").await;
    // 8 players have no split: the answer is about the ruling-1 choice.
    let start = format!("slug={}&number=1", event.slug);
    let response = send(
        &app,
        form_post(app::rounds::StartRound::PATH, &start, Some(&hj)),
    )
    .await;
    assert_eq!(response.status(), 422);
    let body = text(response).await;
    assert!(
        body.contains(r#""field":"fallback""#) && body.contains("ruling 1"),
        "{body}"
    );
    let bad_seed = format!("slug={}&number=1&seed=minus+one", event.slug);
    let body = text(
        send(
            &app,
            form_post(app::rounds::StartRound::PATH, &bad_seed, Some(&hj)),
        )
        .await,
    )
    .await;
    assert!(body.contains(r#""field":"seed""#), "{body}");
    let empty = format!("slug={}&csv=", event.slug);
    let body = text(
        send(
            &app,
            form_post(app::players::ImportPlayers::PATH, &empty, Some(&hj)),
        )
        .await,
    )
    .await;
    assert!(body.contains(r#""field":"csv""#), "{body}");
    let add = format!("slug={}&name=Player+01&email=&club=", event.slug);
    let body = text(
        send(
            &app,
            form_post(app::players::AddPlayer::PATH, &add, Some(&hj)),
        )
        .await,
    )
    .await;
    assert!(
        body.contains(r#""field":"name""#) && body.contains("already registered"),
        "{body}"
    );
}

#[sqlx::test(migrator = "server::database::MIGRATOR")]
async fn byes_chosen_with_check_boxes_reach_the_draw(pool: PgPool) {
    let event = event_with_players(&pool, 8).await;
    let ids: Vec<i64> = sqlx::query_scalar("SELECT id FROM players ORDER BY name LIMIT 2")
        .fetch_all(&pool)
        .await
        .expect("ids");
    let app = app(pool.clone());
    let hj = sign_in(&app, "hj").await;
    // As a browser without JavaScript encodes two ticked boxes named "byes[]".
    let start = format!(
        "slug={}&number=1&fallback=byes&byes%5B%5D={}&byes%5B%5D={}",
        event.slug, ids[0], ids[1]
    );
    let response = send(
        &app,
        form_post(app::rounds::StartRound::PATH, &start, Some(&hj)),
    )
    .await;
    assert_eq!(response.status(), 200, "{}", text(response).await);
    let byes: Vec<i64> = sqlx::query_scalar("SELECT player_id FROM round_byes ORDER BY player_id")
        .fetch_all(&pool)
        .await
        .expect("byes");
    assert_eq!(byes, ids);
}

#[sqlx::test(migrator = "server::database::MIGRATOR")]
async fn a_players_phone_page_is_complete_html_without_javascript(pool: PgPool) {
    let event = event_with_players(&pool, 11).await;
    let admin = db::roles::Actor {
        user_id: tournament::ids::UserId(1),
        username: "admin".into(),
        is_admin: true,
    };
    db::rounds::start(
        &pool,
        &admin,
        event.id,
        db::rounds::NewRound {
            number: tournament::ids::RoundNumber(1),
            seed: Some(7),
            fallback: None,
            override_reason: None,
        },
    )
    .await
    .expect("drawn");
    let round = db::rounds::detail(&pool, event.id, tournament::ids::RoundNumber(1))
        .await
        .expect("read")
        .expect("round");
    let seat = &round.tables[0].seats[0];
    let app = app(pool.clone());
    let (status, html) = get_page(
        &app,
        &format!("/events/{}/find/{}", event.slug, seat.player_id),
    )
    .await;
    assert_eq!(status, 200);
    // Everything a player needs is in the document itself, before any script.
    let body = html
        .split("<script")
        .find(|part| part.contains("<main"))
        .unwrap_or(&html);
    assert!(
        body.contains(&format!("<h1>{}</h1>", seat.player)),
        "{body}"
    );
    assert!(body.contains(r#"data-testid="table">1</dd>"#), "{body}");
    assert!(
        body.contains(&format!(r#"data-testid="seat">{}</dd>"#, seat.seat)),
        "{body}"
    );
    let faction = seat.faction.expect("gc deals a faction").name();
    assert!(
        body.contains(&format!(r#"data-testid="faction">{faction}</dd>"#)),
        "{body}"
    );
    assert!(
        body.contains(r#"class="clock-time">6:00:00</span>"#),
        "{body}"
    );
    assert!(
        html.len() < 30 * 1024,
        "the phone page is {} bytes",
        html.len()
    );

    let (status, html) = get_page(&app, &format!("/events/{}/find?q=player+0", event.slug)).await;
    assert_eq!(status, 200);
    assert!(
        html.contains(&format!("/events/{}/find/", event.slug)),
        "{html}"
    );
    let (status, _) = get_page(&app, &format!("/events/{}/find/999999", event.slug)).await;
    assert_eq!(status, 404);
    let (status, html) = get_page(&app, &format!("/events/{}/clocks", event.slug)).await;
    assert_eq!(status, 200);
    assert!(html.contains("Table 2"), "{html}");
}

/// How many roles `user` holds in `event` (0 or 1).
async fn roles(pool: &PgPool, event: &db::events::Event, user: i64) -> i64 {
    sqlx::query_scalar("SELECT count(*) FROM event_roles WHERE event_id = $1 AND user_id = $2")
        .bind(event.id)
        .bind(user)
        .fetch_one(pool)
        .await
        .expect("count")
}

#[sqlx::test(migrator = "server::database::MIGRATOR")]
async fn removing_a_role_asks_once_at_that_rows_box(pool: PgPool) {
    let event = event_with_players(&pool, 1).await;
    let app = app(pool.clone());
    let admin = sign_in(&app, "admin").await;
    let jo: i64 = sqlx::query_scalar("SELECT id FROM users WHERE username = 'jo'")
        .fetch_one(&pool)
        .await
        .expect("jo");

    let unticked = format!("slug={}&user_id={jo}", event.slug);
    let response = send(
        &app,
        form_post(app::events::RevokeRole::PATH, &unticked, Some(&admin)),
    )
    .await;
    assert_eq!(response.status(), 422);
    let body = text(response).await;
    assert!(
        body.contains(&format!(r#""field":"confirm-{jo}""#))
            && body.contains("Tick the box to confirm that jo's role is to be removed"),
        "{body}"
    );
    assert_eq!(
        roles(&pool, &event, jo).await,
        1,
        "nothing removed without the tick"
    );

    let ticked = format!("slug={}&user_id={jo}&confirm=true", event.slug);
    let response = send(
        &app,
        form_post(app::events::RevokeRole::PATH, &ticked, Some(&admin)),
    )
    .await;
    assert_eq!(response.status(), 200, "{}", text(response).await);
    assert_eq!(roles(&pool, &event, jo).await, 0, "removed once confirmed");
}

/// The settings form with every field as the page sends it, and this public address.
fn settings_form(slug: &str, version: i32, public_url: &str) -> String {
    format!(
        "slug={slug}&version={version}&name=Spice+Cup&starts_on=&ends_on=&venue=&ruleset=gc-2.13.3\
         &table_fallback=ask&five_player_empty_circle=0&adjudication_deadlock=all_survivors\
         &finals_seats=6&qualifying_rounds=4&public_url={}",
        url_encode(public_url)
    )
}

#[sqlx::test(migrator = "server::database::MIGRATOR")]
async fn the_qr_codes_print_the_public_address_and_warn_about_this_computers(pool: PgPool) {
    let event = event_with_players(&pool, 1).await;
    let app = app(pool.clone());
    let hj = sign_in(&app, "hj").await;
    let print = format!("/events/{}/print/qr", event.slug);

    // Unset, served on 127.0.0.1: the codes say so and warn; a forwarded host from an untrusted
    // client changes nothing.
    let request = Request::get(&print)
        .header(header::HOST, HOST)
        .header("x-forwarded-host", "evil.example.org")
        .header("x-forwarded-proto", "https")
        .body(axum::body::Body::empty())
        .expect("request");
    let response = send(&app, request).await;
    assert_eq!(response.status(), 200);
    let page = text(response).await;
    assert!(page.contains(&format!("http://127.0.0.1:3000/events/{}/find", event.slug)));
    assert!(page.contains(&format!(
        "http://127.0.0.1:3000/events/{}/standings",
        event.slug
    )));
    assert!(page.contains("Phones cannot open these codes"), "{page}");
    assert!(!page.contains("evil.example.org"));

    // Junk is refused at the field, nothing saved.
    for junk in [
        "mentat.example.org",
        "https://mentat.example.org/events",
        "ftp://x.org",
    ] {
        let response = send(
            &app,
            form_post(
                app::events::SaveSettings::PATH,
                &settings_form(&event.slug, 1, junk),
                Some(&hj),
            ),
        )
        .await;
        assert_eq!(response.status(), 422, "{junk}");
        let body = text(response).await;
        assert!(body.contains(r#""field":"public_url""#), "{junk}: {body}");
    }

    let response = send(
        &app,
        form_post(
            app::events::SaveSettings::PATH,
            &settings_form(&event.slug, 1, "HTTPS://Hall.Example.org/"),
            Some(&hj),
        ),
    )
    .await;
    assert_eq!(response.status(), 200, "{}", text(response).await);
    let detail = db::events::detail(&pool, event.id)
        .await
        .expect("read")
        .expect("event");
    assert_eq!(
        detail.settings.public_url.map(|a| a.to_string()).as_deref(),
        Some("https://hall.example.org")
    );
    let (status, page) = get_page(&app, &print).await;
    assert_eq!(status, 200);
    assert!(page.contains(&format!(
        "https://hall.example.org/events/{}/find",
        event.slug
    )));
    assert!(page.contains(&format!(
        "https://hall.example.org/events/{}/standings",
        event.slug
    )));
    assert!(!page.contains("Phones cannot open these codes"));
    assert_eq!(page.matches("role=\"img\"").count(), 2, "two codes");
}
