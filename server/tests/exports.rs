//! Exports through the whole router against a real PostgreSQL, on the demo event (three rounds,
//! corrections, a dispute, an adjudication): every kind, as CSV and as JSON, read back with the
//! `csv` crate and `serde_json` and compared with what the database says through the reads the
//! pages use. A player's name that is a formula comes out neutralised in CSV. The standings are
//! anyone's; the rest answers 401/403 like the pages; `mentat export` prints the same rows.

mod common;

use axum::{
    body::Body,
    http::{Request, header},
};
use common::*;
use db::export::{
    AttemptRow, AuditRow, PlayerRow, ReportRow, SeatRow, StandingRow, finals_code, neutralise,
};
use serde::de::DeserializeOwned;
use sqlx::PgPool;
use tournament::ids::{EventId, RoundNumber};

const FORMULA: &str = "=HYPERLINK(\"http://evil.example\",\"Zoë\")";

fn get(path: &str, cookie: Option<&str>) -> Request<Body> {
    let mut builder = Request::get(path).header(header::HOST, HOST);
    if let Some(cookie) = cookie {
        builder = builder.header(header::COOKIE, cookie);
    }
    builder.body(Body::empty()).expect("request")
}

async fn bytes(app: &axum::Router, path: &str, cookie: Option<&str>) -> (u16, Vec<u8>, String) {
    let response = send(app, get(path, cookie)).await;
    let status = response.status().as_u16();
    let kind = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned();
    let body = axum::body::to_bytes(response.into_body(), 1 << 24)
        .await
        .expect("body")
        .to_vec();
    (status, body, kind)
}

/// Both downloads of a kind, read back: (from CSV, from JSON). The CSV starts with the
/// byte-order mark a spreadsheet needs; the `csv` crate reads the rest.
async fn both<T: DeserializeOwned>(
    app: &axum::Router,
    slug: &str,
    kind: &str,
    cookie: Option<&str>,
) -> (Vec<T>, Vec<T>) {
    let (status, csv, content) =
        bytes(app, &format!("/events/{slug}/export/{kind}.csv"), cookie).await;
    assert_eq!(status, 200, "{kind}.csv: {}", String::from_utf8_lossy(&csv));
    assert_eq!(content, "text/csv; charset=utf-8");
    let csv = csv
        .strip_prefix(b"\xEF\xBB\xBF")
        .unwrap_or_else(|| panic!("{kind}.csv starts with a byte-order mark"));
    let from_csv: Vec<T> = csv::Reader::from_reader(csv)
        .deserialize()
        .collect::<Result<_, _>>()
        .unwrap_or_else(|e| panic!("{kind}.csv reads back: {e}"));
    let (status, json, content) =
        bytes(app, &format!("/events/{slug}/export/{kind}.json"), cookie).await;
    assert_eq!(status, 200, "{kind}.json");
    assert_eq!(content, "application/json");
    let from_json: Vec<T> =
        serde_json::from_slice(&json).unwrap_or_else(|e| panic!("{kind}.json reads back: {e}"));
    (from_csv, from_json)
}

/// As the CSV writes a text: neutralised when it could run as a formula.
fn cell(text: &str, csv: bool) -> String {
    if csv {
        neutralise(text).into_owned()
    } else {
        text.to_owned()
    }
}

struct Demo {
    event_id: EventId,
    slug: String,
    boss: db::roles::Actor,
    cookie: String,
}

async fn demo(pool: &PgPool, app: &axum::Router) -> Demo {
    let demo = server::commands::demo::create(pool, 7).await.expect("demo");
    let boss = user(pool, "boss", true).await;
    let new = db::players::NewPlayer::parse(FORMULA, "zoe@example.org", "@club").expect("a name");
    db::players::add(pool, &boss, demo.event_id, new)
        .await
        .expect("a late entry with a formula for a name");
    Demo {
        event_id: demo.event_id,
        slug: demo.slug,
        boss,
        cookie: sign_in(app, "boss").await,
    }
}

#[sqlx::test(migrator = "server::database::MIGRATOR")]
async fn every_export_reads_back_as_the_database_has_it(pool: PgPool) {
    let app = app(pool.clone());
    let d = demo(&pool, &app).await;
    let cookie = Some(d.cookie.as_str());

    // Standings: the public page's order, points, best game and finals line.
    let standings = db::results::standings::event_standings(&pool, d.event_id)
        .await
        .expect("standings");
    let (from_csv, from_json) = both::<StandingRow>(&app, &d.slug, "standings", None).await;
    for (rows, csv) in [(&from_csv, true), (&from_json, false)] {
        assert_eq!(rows.len(), standings.rows.len());
        for (got, row) in rows.iter().zip(&standings.rows) {
            assert_eq!(got.rank, row.rank);
            assert_eq!(got.player_id, row.player_id);
            assert_eq!(got.player, cell(&row.player, csv));
            // Points as a number, the display form beside it; each tiebreaker in its column.
            assert_eq!(got.points, row.total.as_f64());
            assert_eq!(got.points_shown, row.points);
            assert_eq!(
                got.best_game,
                row.best
                    .map(|b| b.short().replace('\u{a0}', " "))
                    .unwrap_or_default()
            );
            assert_eq!(got.best_points, row.best.map(|b| b.points.as_f64()));
            assert_eq!(got.best_forces, row.best.map(|b| b.values[2]));
            assert_eq!(got.best_leaders, row.best.map(|b| b.values[5]));
            assert_eq!(got.games, row.games.len());
            assert_eq!(got.finals, finals_code(row.finalist));
            assert_eq!(got.reason, row.reason.clone().unwrap_or_default());
        }
    }
    assert!(from_csv.iter().any(|r| r.finals == "in"));

    // Players, with the formula neutralised in CSV only.
    let players = db::players::list(&pool, d.event_id).await.expect("players");
    let (from_csv, from_json) = both::<PlayerRow>(&app, &d.slug, "players", cookie).await;
    for (rows, csv) in [(&from_csv, true), (&from_json, false)] {
        assert_eq!(rows.len(), players.len());
        for (got, p) in rows.iter().zip(&players) {
            assert_eq!(got.player_id, p.id);
            assert_eq!(got.name, cell(&p.name, csv));
            assert_eq!(got.email, p.email);
            assert_eq!(got.club, p.club.as_deref().map(|c| cell(c, csv)));
            assert_eq!(got.checked_in, p.checked_in);
            assert_eq!(got.alternate, p.alternate);
            assert_eq!(got.entered_after_round, p.entered_after_round);
            assert_eq!(got.dropped_after_round, p.dropped_after_round);
            assert_eq!(got.account.is_some(), p.user_id.is_some());
            assert_eq!(got.sort_as, p.sort_as);
        }
    }
    let evil = from_csv
        .iter()
        .find(|p| p.email.as_deref() == Some("zoe@example.org"))
        .expect("listed");
    assert_eq!(
        evil.name,
        format!("'{FORMULA}"),
        "a spreadsheet shows it, never runs it"
    );
    assert_eq!(evil.club.as_deref(), Some("'@club"));
    assert!(
        from_json.iter().any(|p| p.name == FORMULA),
        "JSON keeps the name as typed"
    );

    // Seats and factions, round by round.
    let (from_csv, from_json) = both::<SeatRow>(&app, &d.slug, "seats", cookie).await;
    let mut expected = Vec::new();
    for round in 1..=3 {
        let detail = db::rounds::detail(&pool, d.event_id, RoundNumber(round))
            .await
            .expect("read")
            .expect("round");
        for t in &detail.tables {
            for s in &t.seats {
                expected.push((
                    round,
                    Some(t.number.get()),
                    Some(s.seat),
                    Some(s.circle),
                    s.player_id,
                    s.faction.map(|f| f.code().to_owned()),
                    false,
                ));
            }
        }
    }
    for rows in [&from_csv, &from_json] {
        let got: Vec<_> = rows
            .iter()
            .map(|r| {
                (
                    r.round.get(),
                    r.table.map(|t| t.get()),
                    r.seat,
                    r.circle,
                    r.player_id,
                    r.faction.clone(),
                    r.bye,
                )
            })
            .collect();
        assert_eq!(got, expected);
    }

    // Reports: every revision of every table, a row per seat, with the answers.
    let (from_csv, from_json) = both::<ReportRow>(&app, &d.slug, "reports", cookie).await;
    let (attempts_csv, attempts_json) = both::<AttemptRow>(&app, &d.slug, "attempts", cookie).await;
    let mut report_rows = 0;
    let mut attempt_rows = 0;
    let mut corrected = 0;
    for (round, table) in db::export::table_numbers(&pool, d.event_id)
        .await
        .expect("tables")
    {
        let results = db::results::reports::table_results(&pool, d.event_id, round, table)
            .await
            .expect("results");
        for rev in &results.revisions {
            let lines: Vec<&ReportRow> = from_csv
                .iter()
                .filter(|r| r.round == round && r.table == table && r.revision == rev.revision)
                .collect();
            assert_eq!(
                lines.len(),
                rev.draft.seats.len(),
                "round {round} table {table}"
            );
            report_rows += lines.len();
            corrected += usize::from(rev.reason.is_some());
            for (line, seat) in lines.iter().zip(&rev.draft.seats) {
                assert_eq!(line.player_id, seat.player_id);
                assert_eq!(line.faction, seat.faction.code());
                assert_eq!(line.result.as_deref(), seat.result.map(|w| w.code()));
                assert_eq!(line.forces, seat.end.forces);
                assert_eq!(line.spice, seat.end.spice.amount());
                assert_eq!(line.saved_by, rev.created_by);
                assert_eq!(line.saved_at, rev.created_at);
                assert_eq!(line.final_at, rev.final_at);
                assert_eq!(line.reason, rev.reason);
                assert_eq!(line.ended, rev.draft.ended.code());
                let answer = rev
                    .confirmations
                    .iter()
                    .find(|c| c.player_id == seat.player_id);
                assert_eq!(
                    line.confirmation,
                    match answer.map(|a| a.agrees) {
                        Some(true) => "agreed",
                        Some(false) => "disputed",
                        None => "",
                    }
                );
            }
        }
        for record in &results.attempts {
            let lines: Vec<&AttemptRow> = attempts_csv
                .iter()
                .filter(|r| {
                    r.round == round
                        && r.table == table
                        && r.turn == record.turn
                        && r.revision == record.revision
                })
                .collect();
            assert_eq!(lines.len(), record.attempts.len().max(1));
            attempt_rows += lines.len();
            for a in &record.attempts {
                let line = lines
                    .iter()
                    .find(|l| l.player_id == Some(a.player_id))
                    .expect("each attempt has its row");
                let codes: Vec<&str> = a.strongholds.iter().map(|s| s.code()).collect();
                assert_eq!(line.strongholds, codes.join(" "));
                assert_eq!(line.recorded_by, record.recorded_by);
                assert_eq!(line.recorded_at, record.recorded_at);
            }
        }
    }
    assert_eq!(from_csv.len(), report_rows, "no other report rows");
    assert_eq!(from_json.len(), report_rows);
    assert!(corrected > 0, "the demo corrects a report, with its reason");
    assert_eq!(attempts_csv.len(), attempt_rows);
    assert_eq!(attempts_json.len(), attempt_rows);
    assert!(attempt_rows > 0);

    // The audit log, oldest first.
    let (from_csv, from_json) = both::<AuditRow>(&app, &d.slug, "audit", cookie).await;
    let mut log = db::audit::list(&pool, Some(d.event_id), 100_000)
        .await
        .expect("audit");
    log.reverse();
    // Each download is recorded after it is written: the JSON holds the CSV's record too.
    assert_eq!(from_json.len(), from_csv.len() + 1);
    for rows in [&from_csv, &from_json] {
        for (got, row) in rows.iter().zip(&log) {
            assert_eq!(got.action, row.action);
            assert_eq!(got.at, row.at);
            assert_eq!(got.actor, row.actor);
            let detail: serde_json::Value = serde_json::from_str(&got.detail).expect("JSON text");
            assert_eq!(detail, row.detail);
        }
    }
    assert!(from_csv.iter().any(|r| r.action == "data_exported"));
}

#[sqlx::test(migrator = "server::database::MIGRATOR")]
async fn exports_answer_like_the_pages_and_the_command_line_prints_the_same(pool: PgPool) {
    let app = app(pool.clone());
    let d = demo(&pool, &app).await;

    let (status, _, _) = bytes(
        &app,
        &format!("/events/{}/export/standings.csv", d.slug),
        None,
    )
    .await;
    assert_eq!(status, 200, "the standings are public");
    let (status, body, _) = bytes(
        &app,
        &format!("/events/{}/export/players.csv", d.slug),
        None,
    )
    .await;
    assert_eq!(status, 401, "{}", String::from_utf8_lossy(&body));
    user(&pool, "jo", false).await;
    db::roles::grant(&pool, &d.boss, d.event_id, "jo", db::roles::Role::Judge)
        .await
        .expect("granted");
    let jo = sign_in(&app, "jo").await;
    let (status, _, _) = bytes(
        &app,
        &format!("/events/{}/export/players.json", d.slug),
        Some(&jo),
    )
    .await;
    assert_eq!(status, 403, "email addresses are the head judge's");
    let (status, _, _) = bytes(
        &app,
        &format!("/events/{}/export/reports.json", d.slug),
        Some(&jo),
    )
    .await;
    assert_eq!(status, 200, "a judge reads the reports");
    let (status, _, _) = bytes(
        &app,
        &format!("/events/{}/export/audit.csv", d.slug),
        Some(&jo),
    )
    .await;
    assert_eq!(status, 403);
    let (status, _, _) = bytes(
        &app,
        &format!("/events/{}/export/secrets.csv", d.slug),
        Some(&d.cookie),
    )
    .await;
    assert_eq!(status, 404);
    let (status, _, _) = bytes(&app, "/events/no-such-event/export/standings.csv", None).await;
    assert_eq!(status, 404);

    // `mentat export` prints the same rows (without the byte-order mark).
    let database = pool
        .connect_options()
        .get_database()
        .expect("named")
        .to_owned();
    let base = std::env::var("DATABASE_URL").expect("DATABASE_URL");
    let (scheme, rest) = base.split_once("://").expect("a URL");
    let server = rest.split('/').next().unwrap_or(rest);
    let url = format!("{scheme}://{server}/{database}");
    for (kind, format) in [("players", "csv"), ("seats", "json"), ("standings", "csv")] {
        let slug = d.slug.clone();
        let url = url.clone();
        let out = tokio::task::spawn_blocking(move || {
            std::process::Command::new(env!("CARGO_BIN_EXE_mentat"))
                .args(["export", &slug, kind, "--format", format])
                .env("DATABASE_URL", url)
                .env("RUST_LOG", "warn")
                .output()
                .expect("runs")
        })
        .await
        .expect("joined");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let (_, web, _) = bytes(
            &app,
            &format!("/events/{}/export/{kind}.{format}", d.slug),
            Some(&d.cookie),
        )
        .await;
        let web = web.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&web);
        assert_eq!(out.stdout, web, "{kind}.{format}");
    }
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_mentat"))
        .args(["export", &d.slug, "everything"])
        .env("DATABASE_URL", &url)
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("standings, players"));
}
