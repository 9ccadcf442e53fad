//! The organiser's pages through the whole router: the desk and its forms (an API token shown
//! once and revoked, a backup restored from an upload, a players' CSV file imported with its
//! line-by-line report), the print pages (one sheet per table) and the statistics pages.

mod common;

use axum::{
    body::Body,
    http::{Request, header},
};
use common::*;
use sqlx::PgPool;

fn get(path: &str, cookie: Option<&str>) -> Request<Body> {
    let mut builder = Request::get(path).header(header::HOST, HOST);
    if let Some(cookie) = cookie {
        builder = builder.header(header::COOKIE, cookie);
    }
    builder.body(Body::empty()).expect("request")
}

async fn page(app: &axum::Router, path: &str, cookie: Option<&str>) -> (u16, String) {
    let response = send(app, get(path, cookie)).await;
    let status = response.status().as_u16();
    (status, text(response).await)
}

const BOUNDARY: &str = "----mentat-test-boundary";

/// A same-origin multipart form, as a browser sends a file input.
fn multipart(path: &str, cookie: &str, file: &[u8], fields: &[(&str, &str)]) -> Request<Body> {
    let mut body = Vec::new();
    for (name, value) in fields {
        body.extend_from_slice(
            format!(
                "--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{value}\r\n"
            )
            .as_bytes(),
        );
    }
    body.extend_from_slice(
        format!(
            "--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"upload\"\r\nContent-Type: application/octet-stream\r\n\r\n"
        )
        .as_bytes(),
    );
    body.extend_from_slice(file);
    body.extend_from_slice(format!("\r\n--{BOUNDARY}--\r\n").as_bytes());
    Request::post(path)
        .header(header::HOST, HOST)
        .header(header::ORIGIN, ORIGIN)
        .header(header::COOKIE, cookie)
        .header(
            header::CONTENT_TYPE,
            format!("multipart/form-data; boundary={BOUNDARY}"),
        )
        .body(Body::from(body))
        .expect("request")
}

struct Demo {
    event_id: tournament::ids::EventId,
    slug: String,
    cookie: String,
}

async fn demo(pool: &PgPool, app: &axum::Router) -> Demo {
    let demo = server::commands::demo::create(pool, 11)
        .await
        .expect("demo");
    user(pool, "boss", true).await;
    Demo {
        event_id: demo.event_id,
        slug: demo.slug,
        cookie: sign_in(app, "boss").await,
    }
}

#[sqlx::test(migrator = "server::database::MIGRATOR")]
async fn the_desk_makes_a_token_shows_it_once_and_revokes_it(pool: PgPool) {
    let app = app(pool.clone());
    let d = demo(&pool, &app).await;
    let desk = format!("/events/{}/organise", d.slug);

    let (status, _) = page(&app, &desk, None).await;
    assert_eq!(status, 401);
    let (status, html) = page(&app, &desk, Some(&d.cookie)).await;
    assert_eq!(status, 200);
    for heading in [
        "Take the data out",
        "Print",
        "Statistics",
        "Backup and restore",
        "API tokens",
    ] {
        assert!(html.contains(heading), "{heading}");
    }
    assert!(html.contains(&format!("/events/{}/export/players.csv", d.slug)));
    assert!(html.contains(&format!("/events/{}/rounds/3/print/slips", d.slug)));

    let response = send(
        &app,
        form_post(
            &format!("/events/{}/tokens", d.slug),
            "label=results+bot&role=judge&days=30",
            Some(&d.cookie),
        ),
    )
    .await;
    assert_eq!(response.status(), 200);
    let html = text(response).await;
    let secret = html
        .split("value=\"mentat_")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .map(|s| format!("mentat_{s}"))
        .expect("the new token is on the page");
    assert!(html.contains("only this once"));
    let (_, again) = page(&app, &desk, Some(&d.cookie)).await;
    assert!(!again.contains(&secret), "never shown again");
    assert!(again.contains("results bot"));
    assert!(again.contains("Judge"));

    let api = format!("/api/v1/events/{}/rounds/1/tables/1/report", d.slug);
    let request = |token: &str| {
        Request::get(&api)
            .header(header::HOST, HOST)
            .header(header::AUTHORIZATION, format!("Bearer {token}"))
            .body(Body::empty())
            .expect("request")
    };
    assert_eq!(send(&app, request(&secret)).await.status(), 200);

    let bad = send(
        &app,
        form_post(
            &format!("/events/{}/tokens", d.slug),
            "label=&role=judge&days=",
            Some(&d.cookie),
        ),
    )
    .await;
    assert!(text(bad).await.contains("Give the token a name"));

    let token = db::tokens::list(&pool, d.event_id, db::tokens::TokenKind::Api)
        .await
        .expect("listed")
        .remove(0);
    let response = send(
        &app,
        form_post(
            &format!("/events/{}/tokens/{}/revoke", d.slug, token.id),
            "",
            Some(&d.cookie),
        ),
    )
    .await;
    assert!(text(response).await.contains("is revoked"));
    assert_eq!(send(&app, request(&secret)).await.status(), 401);

    // A judge sees the exports they may use, and neither tokens nor backups.
    user(&pool, "jo", false).await;
    let boss = db::roles::Actor {
        user_id: db::roles::staff(&pool, d.event_id)
            .await
            .expect("staff")
            .iter()
            .find(|s| s.username == "mentat-demo")
            .expect("the demo's organiser")
            .user_id,
        username: "mentat-demo".into(),
        is_admin: true,
    };
    db::roles::grant(&pool, &boss, d.event_id, "jo", db::roles::Role::Judge)
        .await
        .expect("granted");
    let jo = sign_in(&app, "jo").await;
    let (status, html) = page(&app, &desk, Some(&jo)).await;
    assert_eq!(status, 200);
    assert!(html.contains("/export/reports.csv"));
    assert!(!html.contains("/export/players.csv"));
    assert!(!html.contains("API tokens"));
    let (status, _) = page(&app, &format!("/events/{}/backup", d.slug), Some(&jo)).await;
    assert_eq!(status, 403);
}

#[sqlx::test(migrator = "server::database::MIGRATOR")]
async fn a_backup_downloaded_from_the_desk_restores_from_an_upload(pool: PgPool) {
    let app = app(pool.clone());
    let d = demo(&pool, &app).await;
    let response = send(
        &app,
        get(&format!("/events/{}/backup", d.slug), Some(&d.cookie)),
    )
    .await;
    assert_eq!(response.status(), 200);
    let disposition = response
        .headers()
        .get(header::CONTENT_DISPOSITION)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned();
    assert!(
        disposition.contains(&format!("{}-backup-", d.slug)),
        "{disposition}"
    );
    let file = axum::body::to_bytes(response.into_body(), 1 << 24)
        .await
        .expect("body");

    let restore = format!("/events/{}/restore", d.slug);
    // Over itself without the tick: refused, named at the form.
    let response = send(
        &app,
        multipart(&restore, &d.cookie, &file, &[("as_slug", &d.slug)]),
    )
    .await;
    let html = text(response).await;
    assert!(html.contains("already lives"), "{html}");
    assert!(html.contains("Nothing was changed"));
    // Something that is not a backup.
    let response = send(
        &app,
        multipart(
            &restore,
            &d.cookie,
            b"name,email\nA,a@example.org\n",
            &[("as_slug", "x")],
        ),
    )
    .await;
    assert!(text(response).await.contains("damaged"));
    // Beside it, under a new address.
    let response = send(
        &app,
        multipart(&restore, &d.cookie, &file, &[("as_slug", "demo-copy")]),
    )
    .await;
    let html = text(response).await;
    assert!(html.contains("Restored"), "{html}");
    assert!(html.contains("/events/demo-copy"));
    let copy = db::events::by_slug(&pool, "demo-copy")
        .await
        .expect("read")
        .expect("restored");
    let players = db::players::list(&pool, copy.id).await.expect("players");
    assert_eq!(players.len(), 30);
}

/// The players page's address an import sends the organiser to, its query decoded: what the
/// page will say (`said`, `note`, `line`), in order.
fn said(location: &str) -> Vec<(String, String)> {
    let decode = |text: &str| {
        let bytes = text.replace('+', " ").into_bytes();
        let mut out = Vec::with_capacity(bytes.len());
        let mut i = 0;
        while i < bytes.len() {
            if bytes[i] == b'%' && i + 2 < bytes.len() {
                let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).expect("hex");
                out.push(u8::from_str_radix(hex, 16).expect("a percent escape"));
                i += 3;
            } else {
                out.push(bytes[i]);
                i += 1;
            }
        }
        String::from_utf8(out).expect("UTF-8")
    };
    let query = location
        .split_once('?')
        .map_or("", |(_, q)| q)
        .split('#')
        .next()
        .unwrap_or_default();
    query
        .split('&')
        .filter_map(|pair| pair.split_once('='))
        .map(|(k, v)| (decode(k), decode(v)))
        .collect()
}

#[sqlx::test(migrator = "server::database::MIGRATOR")]
async fn a_csv_file_of_players_is_imported_with_its_report(pool: PgPool) {
    let app = app(pool.clone());
    let admin = user(&pool, "boss", true).await;
    let event = db::events::create(&pool, &admin, "Import Open")
        .await
        .expect("event");
    let cookie = sign_in(&app, "boss").await;
    let path = format!("/events/{}/players/import", event.slug);
    let file = "Timestamp\tEmail Address\tName\n\
                2026-07-30 10:00\talia@example.org\tAlia Atreides\n\
                \t\t\n\
                2026-07-30 10:05\tpaul@example.org\tPaul Atreides\n";
    // Every column is clear: imported at once, and the players page opens at the report.
    let response = send(&app, multipart(&path, &cookie, file.as_bytes(), &[])).await;
    assert_eq!(response.status(), 303);
    let location = response.headers()[header::LOCATION]
        .to_str()
        .expect("ASCII")
        .to_owned();
    assert!(
        location.starts_with(&format!("/events/{}/players?", event.slug)),
        "{location}"
    );
    assert!(location.ends_with("#done"), "{location}");
    let report = said(&location);
    let value = |key: &str| {
        report
            .iter()
            .filter(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
            .collect::<Vec<_>>()
    };
    assert_eq!(value("said"), ["Imported 2 players."]);
    assert_eq!(
        value("note"),
        [
            "Read as tab-separated, with a header.",
            "Columns: “Email Address” → email · “Name” → name; ignored: “Timestamp”."
        ]
    );
    assert!(value("line")[0].starts_with("Line 3"), "{report:?}");
    let players = db::players::list(&pool, event.id).await.expect("players");
    let names: Vec<&str> = players.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["Alia Atreides", "Paul Atreides"]);

    // The same file again: nothing imported, and said so.
    let response = send(&app, multipart(&path, &cookie, file.as_bytes(), &[])).await;
    let location = response.headers()[header::LOCATION]
        .to_str()
        .expect("ASCII")
        .to_owned();
    let report = said(&location);
    assert!(report.contains(&("said".into(), "Nothing was imported.".into())));
    assert!(report.iter().any(|(_, v)| v.contains("already registered")));

    // An unclear column: the preview, nothing saved; the organiser's choices import it.
    let form = "Full name,Club / Team affiliation (if any),Favourite faction\n\
                Feyd Rautha,Giedi Prime,Harkonnen\n";
    let response = send(&app, multipart(&path, &cookie, form.as_bytes(), &[])).await;
    assert_eq!(response.status(), 200);
    let html = text(response).await;
    assert!(html.contains("Import players: check the columns"), "{html}");
    assert!(html.contains("“Favourite faction” holds"), "{html}");
    assert!(html.contains("data-unclear=\"true\""), "{html}");
    assert_eq!(
        db::players::list(&pool, event.id)
            .await
            .expect("players")
            .len(),
        2
    );
    let chosen = [
        ("columns", "chosen"),
        ("column-0", "name"),
        ("column-1", "club"),
        ("column-2", ""),
    ];
    let response = send(&app, multipart(&path, &cookie, form.as_bytes(), &chosen)).await;
    assert_eq!(response.status(), 303);
    let feyd = db::players::list(&pool, event.id)
        .await
        .expect("players")
        .into_iter()
        .find(|p| p.name == "Feyd Rautha")
        .expect("imported");
    assert_eq!(feyd.club.as_deref(), Some("Giedi Prime"));
    // Two columns chosen as one field: said on the preview, nothing saved.
    let twice = [
        ("columns", "chosen"),
        ("column-0", "name"),
        ("column-1", "name"),
        ("column-2", ""),
    ];
    let response = send(&app, multipart(&path, &cookie, form.as_bytes(), &twice)).await;
    assert_eq!(response.status(), 422);
    assert!(text(response).await.contains("both chosen as name"));

    let response = send(&app, multipart(&path, &cookie, b"\xff\xfe\x00", &[])).await;
    assert_eq!(response.status(), 422);
    assert!(text(response).await.contains("CSV UTF-8"));
}

#[sqlx::test(migrator = "server::database::MIGRATOR")]
async fn print_pages_have_a_sheet_per_table_and_statistics_draw_their_charts(pool: PgPool) {
    let app = app(pool.clone());
    let d = demo(&pool, &app).await;
    let round = db::rounds::detail(&pool, d.event_id, tournament::ids::RoundNumber(2))
        .await
        .expect("read")
        .expect("round 2");
    let base = format!("/events/{}", d.slug);

    let (status, slips) = page(&app, &format!("{base}/rounds/2/print/slips"), None).await;
    assert_eq!(status, 200);
    assert_eq!(
        slips.matches("class=\"sheet slip\"").count(),
        round.tables.len()
    );
    assert!(slips.contains("/print.css"));
    assert!(!slips.contains("mentat.js"), "no wasm");
    for t in &round.tables {
        assert!(slips.contains(&format!(">Table {}<", t.number)));
        for s in &t.seats {
            assert!(slips.contains(&s.player));
            assert!(slips.contains(s.faction.expect("dealt").name()));
        }
    }
    assert!(slips.contains("Clock limit: 6 h"));

    let (status, _) = page(&app, &format!("{base}/rounds/2/print/reports"), None).await;
    assert_eq!(status, 401, "blank report forms are the judges'");
    let (status, forms) = page(
        &app,
        &format!("{base}/rounds/2/print/reports?paper=letter"),
        Some(&d.cookie),
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(
        forms.matches("class=\"sheet report-form\"").count(),
        round.tables.len()
    );
    assert!(forms.contains("paper-letter"));

    let (status, pairings) = page(&app, &format!("{base}/rounds/2/print/pairings"), None).await;
    assert_eq!(status, 200);
    // Every name as the player wrote it, never turned round.
    let first = &round.tables[0].seats[0].player;
    assert!(
        pairings.contains(&format!("<th scope=\"row\">{first}</th>")),
        "{first}"
    );
    assert_eq!(
        pairings.matches("class=\"table-block\"").count(),
        round.tables.len()
    );

    let (status, standings) = page(&app, &format!("{base}/print/standings"), None).await;
    assert_eq!(status, 200);
    assert!(standings.contains("Finals line: top 6"), "{standings}");

    let (status, _) = page(&app, &format!("{base}/rounds/9/print/slips"), None).await;
    assert_eq!(status, 404);
    let (status, _) = page(&app, &format!("{base}/rounds/2/print/menus"), None).await;
    assert_eq!(status, 404);

    let (status, stats) = page(&app, &format!("{base}/statistics"), None).await;
    assert_eq!(status, 200);
    assert!(stats.contains("<svg"));
    assert!(stats.matches("<figure class=\"chart\"").count() >= 4);
    for heading in [
        "Factions played and won",
        "Win types",
        "Game length",
        "Seats and the first player",
        "Best faction showing",
    ] {
        assert!(stats.contains(heading), "{heading}");
    }
    let games = db::statistics::games(&pool, Some(d.event_id))
        .await
        .expect("games");
    let counted = tournament::statistics::compute(&games);
    assert!(stats.contains(&format!("{} games with a final report", counted.games)));
    assert!(
        counted.adjudicated.count >= 1,
        "the demo adjudicates a game"
    );
    let (status, across) = page(&app, "/statistics", None).await;
    assert_eq!(status, 200);
    assert!(across.contains("1 event:"), "{across}");
}
