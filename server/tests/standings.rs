//! The public standings page and the live-update stream, through the whole router against a
//! real PostgreSQL: the page needs no sign-in, lists players in the standings' order with the
//! finals line, explains a row under `?p=`, and the stream announces a report becoming final.

mod common;

use std::time::Duration;

use axum::{
    body::Body,
    http::{Request, header},
};
use common::*;
use db::{
    live::{self, Topic},
    results::reports::{self, Draft, SeatResult},
    roles::Actor,
    rounds::{self, NewRound, SeatInfo},
};
use futures_util::StreamExt;
use sqlx::PgPool;
use tournament::ids::{EventId, Revision, RoundNumber, TableNumber};
use tournament::{EndValues, WinType, report::Ending};

struct Table {
    number: TableNumber,
    seats: Vec<SeatInfo>,
}

/// An event of 12 players, round 1 drawn (two tables of six) and begun.
async fn event_in_play(pool: &PgPool) -> (Actor, db::events::Event, Vec<Table>) {
    let admin = user(pool, "admin", true).await;
    let event = db::events::create(pool, &admin, "Spice Cup")
        .await
        .expect("event");
    let csv: String = (1..=12).map(|i| format!("Player {i:02}\n")).collect();
    db::players::import_csv(pool, &admin, event.id, &csv)
        .await
        .expect("imported");
    db::players::check_in_all(pool, &admin, event.id)
        .await
        .expect("checked in");
    rounds::start(
        pool,
        &admin,
        event.id,
        NewRound {
            number: RoundNumber(1),
            seed: Some(7),
            fallback: None,
            override_reason: None,
        },
    )
    .await
    .expect("round 1");
    let detail = rounds::detail(pool, event.id, RoundNumber(1))
        .await
        .expect("read")
        .expect("round");
    rounds::begin(pool, &admin, event.id, RoundNumber(1), detail.round.version)
        .await
        .expect("begun");
    let tables = detail
        .tables
        .into_iter()
        .map(|t| Table {
            number: t.number,
            seats: t.seats,
        })
        .collect();
    (admin, event, tables)
}

/// The first seat wins alone; everyone's forces differ (20 down to 9 across both tables), so
/// the order is fully decided: the two winners, then table 1's seats 2-6, then table 2's.
fn report(table_index: usize, table: &Table) -> Draft {
    Draft {
        ended: Ending::Win,
        last_turn: 6,
        seats: table
            .seats
            .iter()
            .enumerate()
            .map(|(i, s)| SeatResult {
                player_id: s.player_id,
                faction: s.faction.expect("dealt"),
                ally: None,
                result: (i == 0).then_some(WinType::SoloStronghold),
                end: EndValues {
                    strongholds: if i == 0 { 3 } else { 0 },
                    forces: u32::try_from(20 - table_index * 6 - i).expect("small"),
                    spice: dune::Spice::new(5),
                    cards: 2,
                    leaders: 4,
                },
            })
            .collect(),
        judge_draw: None,
        prediction: None,
    }
}

async fn finalise(pool: &PgPool, admin: &Actor, event_id: EventId, index: usize, table: &Table) {
    let revision = reports::save(
        pool,
        admin,
        false,
        event_id,
        RoundNumber(1),
        table.number,
        Revision::NONE,
        &report(index, table),
        None,
    )
    .await
    .expect("saved");
    reports::finalise(
        pool,
        admin,
        event_id,
        RoundNumber(1),
        table.number,
        revision,
    )
    .await
    .expect("final");
}

/// The players' names in the order the page lists them.
fn listed(page: &str) -> Vec<String> {
    page.split("<th><a href=\"")
        .skip(1)
        .filter_map(|part| {
            let name = part.split_once('>')?.1;
            Some(name.split_once('<')?.0.to_owned())
        })
        .collect()
}

fn get(path: &str) -> Request<Body> {
    Request::get(path)
        .header(header::HOST, HOST)
        .body(Body::empty())
        .expect("request")
}

#[sqlx::test(migrator = "server::database::MIGRATOR")]
async fn the_public_standings_list_the_order_the_finals_line_and_the_reasons(pool: PgPool) {
    let (admin, event, tables) = event_in_play(&pool).await;
    for (i, t) in tables.iter().enumerate() {
        finalise(&pool, &admin, event.id, i, t).await;
    }
    // The third place drops out: they keep their row but not a finals seat.
    let third = tables[0].seats[1].player_id;
    let version = db::players::get(&pool, event.id, third)
        .await
        .expect("read")
        .expect("player")
        .version;
    db::players::set_dropped(&pool, &admin, event.id, third, version, true)
        .await
        .expect("dropped");
    let app = app(pool.clone());
    let path = format!("/events/{}/standings", event.slug);

    let response = send(&app, get(&path)).await;
    assert_eq!(response.status(), 200, "public: no sign-in needed");
    assert!(
        response.headers()[header::CONTENT_TYPE]
            .to_str()
            .unwrap()
            .starts_with("text/html")
    );
    let page = text(response).await;
    assert!(!page.contains("mentat.js"), "no wasm bundle on this page");
    assert!(page.contains("Spice Cup"));
    assert!(
        page.contains("After round 1: 2 of 2 reports final."),
        "{page}"
    );
    let expected: Vec<String> = [&tables[0].seats[0], &tables[1].seats[0]]
        .into_iter()
        .chain(tables[0].seats[1..].iter())
        .chain(tables[1].seats[1..].iter())
        .map(|s| s.player.clone())
        .collect();
    assert_eq!(listed(&page), expected);
    assert!(page.contains("SSH\u{a0}1"), "wins by type");
    assert!(
        page.contains(
            "3\u{a0}pts · 0\u{a0}WA · 3\u{a0}SH · 20\u{a0}F · 5\u{a0}Sp · 2\u{a0}C · 4\u{a0}L"
        ),
        "the winner's best game, each value before its abbreviation"
    );
    assert!(page.contains("dropped: not eligible for finals"));
    // Top 6 eligible: the two winners and table 1's seats 3-6 (seat 2 dropped), so the line
    // falls after table 1's last seat, before table 2's second.
    let line = page.find("Finals line: top 6").expect("the finals line");
    let last_in = page
        .find(&format!(">{}<", tables[0].seats[5].player))
        .expect("table 1 seat 6");
    let first_out = page
        .find(&format!(">{}<", tables[1].seats[1].player))
        .expect("table 2 seat 2");
    assert!(
        last_in < line && line < first_out,
        "the line sits at the cut"
    );
    assert!(page.contains("Refresh"), "works without JavaScript");
    assert!(
        page.contains("/live-standings.js"),
        "and follows news with it"
    );

    // `?p=` opens the reasons and games under that player's row.
    let fourth = &tables[0].seats[2];
    let response = send(&app, get(&format!("{path}?p={}", fourth.player_id))).await;
    assert_eq!(response.status(), 200);
    let page = text(response).await;
    let row = page
        .find(&format!("id=\"p{}\"", fourth.player_id))
        .expect("the row");
    let why = page.find("class=\"why\"").expect("the reasons row");
    assert!(row < why, "the reasons follow the row");
    assert!(
        page.contains(&format!(
            "{} is above {}: same points and wins; best game: more forces on the board",
            fourth.player, tables[0].seats[3].player
        )),
        "{page}"
    );
    assert!(page.contains(&format!(
        "{} is above {}:",
        tables[0].seats[1].player, fourth.player
    )));
    assert!(page.contains(&format!("Games of {}", fourth.player)));
    assert!(
        page.contains(
            "0\u{a0}pts · 0\u{a0}WA · 0\u{a0}SH · 18\u{a0}F · 5\u{a0}Sp · 2\u{a0}C · 4\u{a0}L"
        ),
        "the game's score, each value before its abbreviation"
    );

    // An unknown event, and nonsense in `p`, are handled.
    let response = send(&app, get("/events/no-such-event/standings")).await;
    assert_eq!(response.status(), 404);
    let response = send(&app, get(&format!("{path}?p=nonsense"))).await;
    assert_eq!(response.status(), 200);
}

/// Reads the event stream until `wanted` has appeared, for at most 5 s.
async fn read_until(
    body: &mut (impl futures_util::Stream<Item = Result<axum::body::Bytes, axum::Error>> + Unpin),
    seen: &mut String,
    wanted: &str,
) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
    while !seen.contains(wanted) {
        let chunk = tokio::time::timeout_at(deadline, body.next())
            .await
            .unwrap_or_else(|_| panic!("no {wanted:?} within 5 s: {seen}"))
            .expect("the stream is open")
            .expect("a chunk");
        seen.push_str(&String::from_utf8_lossy(&chunk));
    }
}

#[sqlx::test(migrator = "server::database::MIGRATOR")]
async fn the_live_stream_announces_a_report_becoming_final(pool: PgPool) {
    let (admin, event, tables) = event_in_play(&pool).await;
    let (app, hub) = app_live(pool.clone());
    let response = send(&app, get("/events/no-such-event/live")).await;
    assert_eq!(response.status(), 404);

    let response = send(&app, get(&format!("/events/{}/live", event.slug))).await;
    assert_eq!(response.status(), 200);
    assert_eq!(
        response.headers()[header::CONTENT_TYPE],
        "text/event-stream"
    );
    let mut body = response.into_body().into_data_stream();
    let mut seen = String::new();
    // Wait until the hub LISTENs: nudge the channel until the stream passes a nudge on.
    let mut listening = false;
    for _ in 0..50 {
        live::notify(&pool, event.id, Topic::Table)
            .await
            .expect("notified");
        if let Ok(Some(Ok(chunk))) =
            tokio::time::timeout(Duration::from_millis(200), body.next()).await
        {
            seen.push_str(&String::from_utf8_lossy(&chunk));
            if seen.contains("event: table") {
                listening = true;
                break;
            }
        }
    }
    assert!(listening, "the hub never passed a notification on: {seen}");

    // Another event's news does not reach this stream; this event's final report does.
    let other = db::events::create(&pool, &admin, "Other Cup")
        .await
        .expect("event");
    live::notify(&pool, other.id, Topic::Standings)
        .await
        .expect("notified");
    // Notifications arrive in commit order: once this marker is through, the other's is past.
    seen.clear();
    live::notify(&pool, event.id, Topic::Table)
        .await
        .expect("notified");
    read_until(&mut body, &mut seen, "event: table").await;
    assert!(!seen.contains("standings"), "another event's news: {seen}");

    seen.clear();
    finalise(&pool, &admin, event.id, 0, &tables[0]).await;
    read_until(&mut body, &mut seen, "event: standings").await;
    assert!(
        seen.contains("event: standings\ndata: standings\n"),
        "{seen}"
    );

    // Shutting down ends the open streams, so a graceful shutdown does not wait forever.
    hub.close();
    let end = tokio::time::timeout(Duration::from_secs(2), async {
        while let Some(chunk) = body.next().await {
            chunk.expect("a chunk");
        }
    })
    .await;
    assert!(end.is_ok(), "the stream ended on close");
}

/// Waits until the page at `path` differs from `before`, for at most two seconds.
async fn changed(app: &axum::Router, path: &str, before: &str) -> Option<String> {
    for _ in 0..40 {
        let now = text(send(app, get(path)).await).await;
        if now != before {
            return Some(now);
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    None
}

#[sqlx::test(migrator = "server::database::MIGRATOR")]
async fn the_standings_are_served_from_memory_until_a_report_becomes_final(pool: PgPool) {
    let (admin, event, tables) = event_in_play(&pool).await;
    let (app, hub) = app_live(pool.clone());
    let path = format!("/events/{}/standings", event.slug);
    // The listener connects in the background; until then nothing is cached.
    let mut first = send(&app, get(&path)).await;
    for _ in 0..50 {
        if hub
            .pages()
            .get(&format!("standings {}", event.slug))
            .is_some()
        {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
        first = send(&app, get(&path)).await;
    }
    assert_eq!(first.status(), 200);
    assert_eq!(first.headers()[header::CACHE_CONTROL], "no-cache");
    let etag = first.headers()[header::ETAG].clone();
    let before = text(first).await;

    // A phone that holds this version is told so, without the page.
    let again = Request::get(&path)
        .header(header::HOST, HOST)
        .header(header::IF_NONE_MATCH, etag.clone())
        .body(Body::empty())
        .expect("request");
    let again = send(&app, again).await;
    assert_eq!(again.status(), 304);
    assert!(text(again).await.is_empty());
    // A phone that takes gzip gets the copy gzip'd once.
    let zipped = Request::get(&path)
        .header(header::HOST, HOST)
        .header(header::ACCEPT_ENCODING, "gzip")
        .body(Body::empty())
        .expect("request");
    let zipped = send(&app, zipped).await;
    assert_eq!(zipped.headers()[header::CONTENT_ENCODING], "gzip");

    // A write that changes nothing the standings show leaves the copy alone...
    live::notify(&pool, event.id, Topic::Table)
        .await
        .expect("notified");
    // ...a report becoming final drops it: the next phone gets the new standings.
    finalise(&pool, &admin, event.id, 0, &tables[0]).await;
    let after = changed(&app, &path, &before)
        .await
        .expect("the final report shows within two seconds");
    assert_ne!(after, before);
    let stale = Request::get(&path)
        .header(header::HOST, HOST)
        .header(header::IF_NONE_MATCH, etag)
        .body(Body::empty())
        .expect("request");
    assert_eq!(
        send(&app, stale).await.status(),
        200,
        "the old version is not current"
    );
    hub.close();
}

#[sqlx::test(migrator = "server::database::MIGRATOR")]
async fn a_players_page_is_shared_by_phones_until_a_judge_changes_something(pool: PgPool) {
    let (_admin, event, tables) = event_in_play(&pool).await;
    let (app, hub) = app_live(pool.clone());
    let path = format!(
        "/events/{}/find/{}",
        event.slug, tables[0].seats[0].player_id
    );
    let etag = |response: &axum::http::Response<Body>| response.headers()[header::ETAG].clone();
    // Wait for the listener: nothing is cached before it hears the news. Each render carries
    // the server's clock to the millisecond, so two answers alike are one render.
    for _ in 0..50 {
        let a = send(&app, get(&path)).await;
        tokio::time::sleep(Duration::from_millis(5)).await;
        let b = send(&app, get(&path)).await;
        if a.status() == 200 && etag(&a) == etag(&b) {
            break;
        }
    }
    let first = send(&app, get(&path)).await;
    assert_eq!(first.status(), 200);
    assert_eq!(
        etag(&send(&app, get(&path)).await),
        etag(&first),
        "one render, shared"
    );

    // A judge's call through this instance: the next phone gets a fresh render.
    let judge = sign_in(&app, "admin").await;
    use leptos::server_fn::ServerFn;
    let call = send(
        &app,
        form_post(app::auth::CurrentUser::PATH, "", Some(&judge)),
    )
    .await;
    assert_eq!(call.status(), 200);
    tokio::time::sleep(Duration::from_millis(5)).await;
    assert_ne!(etag(&send(&app, get(&path)).await), etag(&first));
    // A signed-in visitor always gets a page of their own.
    let mine = Request::get(&path)
        .header(header::HOST, HOST)
        .header(header::COOKIE, &judge)
        .body(Body::empty())
        .expect("request");
    assert!(send(&app, mine).await.headers().get(header::ETAG).is_none());
    hub.close();
}
