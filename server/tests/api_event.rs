//! A whole event run by a script through the JSON API, with tokens alone and no page, against a
//! real `mentat` server on a TCP port and a real PostgreSQL: an administrator's account token
//! (made with `mentat token add`) creates the event and makes its tokens; the organiser's token
//! saves the settings, registers and checks in 42 players, draws a round of seven tables,
//! starts the clocks, closes qualifying, seats the final table and reads the placings and the
//! statistics; a judge's token records the reports and confirms them for the players. Every
//! step is answered as the pages would answer it, refusals included.

use std::net::SocketAddr;

use axum::http::{Request, header};
use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper_util::rt::TokioIo;
use serde_json::{Value, json};
use server::config::WebConfig;
use sqlx::PgPool;

mod common;

/// DATABASE_URL with the test's own database in it, for the `mentat` binary.
fn url_of(pool: &PgPool) -> String {
    let base = std::env::var("DATABASE_URL").expect("DATABASE_URL is set for database tests");
    let (address, query) = match base.split_once('?') {
        Some((a, q)) => (a, format!("?{q}")),
        None => (base.as_str(), String::new()),
    };
    let (scheme, rest) = address.split_once("://").expect("a URL");
    let server = rest.split('/').next().unwrap_or(rest);
    let database = pool
        .connect_options()
        .get_database()
        .expect("the test database has a name")
        .to_owned();
    format!("{scheme}://{server}/{database}{query}")
}

/// `mentat token add NAME --label LABEL` against the test's database: the secret it prints.
async fn account_token(pool: &PgPool, name: &str) -> String {
    let url = url_of(pool);
    let name = name.to_owned();
    let out = tokio::task::spawn_blocking(move || {
        std::process::Command::new(env!("CARGO_BIN_EXE_mentat"))
            .args(["token", "add", &name, "--label", "season script"])
            .env("DATABASE_URL", url)
            .env("RUST_LOG", "warn")
            .output()
            .expect("mentat runs")
    })
    .await
    .expect("joined");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("shown only now"));
    String::from_utf8(out.stdout)
        .expect("text")
        .trim()
        .to_owned()
}

/// One request on its own connection; the answer's status and JSON body.
async fn call(
    addr: SocketAddr,
    method: &str,
    path: &str,
    token: &str,
    body: Option<Value>,
) -> (u16, Value) {
    let (status, text) = raw(addr, method, path, token, body.clone()).await;
    let value: Value = serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("{method} {path} answered {status} with {text:?}: {e}"));
    // `MENTAT_API_EXAMPLES=FILE` keeps every exchange: docs/api.md's examples come from it.
    if let Ok(file) = std::env::var("MENTAT_API_EXAMPLES") {
        use std::io::Write;
        let mut out = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(file)
            .expect("the examples file");
        let pretty = |v: &Value| serde_json::to_string_pretty(v).unwrap_or_default();
        let _ = writeln!(
            out,
            "### {method} {path}\n{}\n-> {status}\n{}\n",
            body.as_ref().map(pretty).unwrap_or_default(),
            pretty(&value)
        );
    }
    (status, value)
}

async fn raw(
    addr: SocketAddr,
    method: &str,
    path: &str,
    token: &str,
    body: Option<Value>,
) -> (u16, String) {
    let stream = tokio::net::TcpStream::connect(addr).await.expect("connect");
    let (mut sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
        .await
        .expect("handshake");
    tokio::spawn(connection);
    let mut request = Request::builder()
        .method(method)
        .uri(path)
        .header(header::HOST, addr.to_string())
        .header(header::ACCEPT, "application/json")
        .header(header::AUTHORIZATION, format!("Bearer {token}"));
    let bytes = match body {
        Some(body) => {
            request = request.header(header::CONTENT_TYPE, "application/json");
            Bytes::from(body.to_string())
        }
        None => Bytes::new(),
    };
    let response = sender
        .send_request(request.body(Full::new(bytes)).expect("request"))
        .await
        .expect("answer");
    let status = response.status().as_u16();
    let body = response
        .into_body()
        .collect()
        .await
        .expect("body")
        .to_bytes();
    (status, String::from_utf8_lossy(&body).into_owned())
}

/// Asserts the status, showing the answer when it differs.
fn expect(got: &(u16, Value), status: u16, what: &str) {
    assert_eq!(got.0, status, "{what}: {}", got.1);
}

/// A report of a table of the round as `GET …/rounds/{n}` gives it: the first seat wins a Solo
/// Stronghold Victory with three strongholds on `turn`; the others hold one each at most, as
/// the map allows.
fn solo_report(table: &Value, turn: u32) -> Value {
    let seats = table["seats"].as_array().expect("seats");
    json!({
        "ended": "win",
        "last_turn": turn,
        "seats": seats.iter().enumerate().map(|(i, s)| json!({
            "player_id": s["player_id"],
            "faction": s["faction"],
            "result": if i == 0 { Some("SSH") } else { None },
            "strongholds": if i == 0 { 3 } else { u32::from(i < 3) },
            "forces": 8 + i,
            "spice": 3 + 2 * i,
            "cards": 1 + i % 3,
            "leaders": 2 + i % 3,
        })).collect::<Vec<_>>(),
    })
}

/// A Bene Gesserit Prediction: the Bene Gesserit predicted the first other seat, who holds
/// three strongholds on `turn`.
fn prediction_report(table: &Value, turn: u32) -> Option<Value> {
    let seats = table["seats"].as_array().expect("seats");
    let bg = seats.iter().position(|s| s["faction"] == "BG")?;
    let predicted = usize::from(bg == 0);
    Some(json!({
        "ended": "win",
        "last_turn": turn,
        "prediction": { "faction": seats[predicted]["faction"], "turn": turn },
        "seats": seats.iter().enumerate().map(|(i, s)| json!({
            "player_id": s["player_id"],
            "faction": s["faction"],
            "result": if i == bg { Some("BGP") } else { None },
            "strongholds": if i == predicted { 3 } else { 0 },
            "forces": 6 + i,
            "spice": 5,
            "cards": 2,
            "leaders": 3,
        })).collect::<Vec<_>>(),
    }))
}

#[sqlx::test(migrator = "server::database::MIGRATOR")]
async fn a_script_runs_an_event_from_creation_to_placings_with_tokens_alone(pool: PgPool) {
    common::user(&pool, "chair", true).await;
    let account = account_token(&pool, "chair").await;
    assert!(account.starts_with("mentat_"));

    let site = std::env::temp_dir().join(format!("mentat-api-event-{}", std::process::id()));
    std::fs::create_dir_all(site.join("pkg")).expect("site folder");
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("address");
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let site_root = site.to_string_lossy().into_owned();
    let served = {
        let pool = pool.clone();
        tokio::spawn(async move {
            server::commands::serve::serve(listener, pool, &site_root, &WebConfig::local(), async {
                let _ = stopped.await;
            })
            .await
        })
    };

    // The administrator's account token creates the event.
    let created = call(
        addr,
        "POST",
        "/api/v1/events",
        &account,
        Some(json!({ "name": "Spice Cup 2026" })),
    )
    .await;
    expect(&created, 201, "create the event");
    let slug = created.1["slug"].as_str().expect("slug").to_owned();
    assert_eq!(slug, "spice-cup-2026");
    let base = format!("/api/v1/events/{slug}");
    let again = call(
        addr,
        "POST",
        "/api/v1/events",
        &account,
        Some(json!({ "name": "Spice Cup 2026" })),
    )
    .await;
    expect(&again, 409, "the same address twice");

    // The organiser's and a judge's tokens, made by the account token.
    let made = call(
        addr,
        "POST",
        &format!("{base}/tokens"),
        &account,
        Some(json!({ "label": "event script", "role": "organiser" })),
    )
    .await;
    expect(&made, 201, "the organiser's token");
    let organiser = made.1["secret"].as_str().expect("secret").to_owned();
    assert_eq!(made.1["role"], "organiser");
    let made = call(
        addr,
        "POST",
        &format!("{base}/tokens"),
        &organiser,
        Some(json!({ "label": "results bot", "role": "judge" })),
    )
    .await;
    expect(&made, 201, "a judge's token");
    let judge = made.1["secret"].as_str().expect("secret").to_owned();
    let listed = call(addr, "GET", &format!("{base}/tokens"), &organiser, None).await;
    expect(&listed, 200, "the tokens");
    assert_eq!(listed.1.as_array().map(Vec::len), Some(2));
    assert!(
        !listed.1.to_string().contains(&judge),
        "never a secret again"
    );
    // An event's token creates no events, and a judge's no tokens.
    let refused = call(
        addr,
        "POST",
        "/api/v1/events",
        &organiser,
        Some(json!({ "name": "Another Cup" })),
    )
    .await;
    expect(&refused, 403, "an event's token creating an event");
    let refused = call(
        addr,
        "POST",
        &format!("{base}/tokens"),
        &judge,
        Some(json!({ "label": "mine", "role": "organiser" })),
    )
    .await;
    expect(&refused, 403, "a judge making a token");
    assert!(
        refused.1["error"]
            .as_str()
            .is_some_and(|e| e.contains("Organiser's desk")),
        "{}",
        refused.1
    );

    // Settings: one qualifying round, six seats at the final, a venue.
    let settings = call(addr, "GET", &format!("{base}/settings"), &organiser, None).await;
    expect(&settings, 200, "the settings");
    let saved = call(
        addr,
        "PUT",
        &format!("{base}/settings"),
        &organiser,
        Some(json!({
            "version": settings.1["version"],
            "qualifying_rounds": 1,
            "venue": "Hall E",
            "starts_on": "2026-11-25",
            "ends_on": "2026-11-25",
        })),
    )
    .await;
    expect(&saved, 200, "save the settings");
    assert_eq!(saved.1["qualifying_rounds"], 1);
    assert_eq!(saved.1["finals_seats"], 6);
    assert_eq!(saved.1["shield_wall"], true);
    let stale = call(
        addr,
        "PUT",
        &format!("{base}/settings"),
        &organiser,
        Some(json!({ "version": settings.1["version"], "venue": "Hall F" })),
    )
    .await;
    expect(&stale, 409, "settings saved meanwhile");
    let bad = call(
        addr,
        "PUT",
        &format!("{base}/settings"),
        &organiser,
        Some(json!({ "finals_seats": 9 })),
    )
    .await;
    expect(&bad, 422, "nine finals seats");
    assert_eq!(bad.1["field"], "finals_seats");

    // 42 players, registered and checked in.
    for i in 1..=42 {
        let player = call(
            addr,
            "POST",
            &format!("{base}/players"),
            &organiser,
            Some(json!({ "name": format!("Player {i:02}") })),
        )
        .await;
        expect(&player, 201, "register a player");
        let id = player.1["player_id"].as_i64().expect("id");
        let checked = call(
            addr,
            "POST",
            &format!("{base}/players/{id}/check-in"),
            &organiser,
            None,
        )
        .await;
        expect(&checked, 200, "check a player in");
        assert_eq!(checked.1["checked_in"], true);
    }

    // Round 1: seven tables of six; play begins when the clocks start.
    let drawn = call(
        addr,
        "POST",
        &format!("{base}/rounds"),
        &organiser,
        Some(json!({ "seed": 2026 })),
    )
    .await;
    expect(&drawn, 201, "draw round 1");
    let tables = drawn.1["tables"].as_array().expect("tables").clone();
    assert_eq!(tables.len(), 7);
    assert!(
        tables
            .iter()
            .all(|t| t["seats"].as_array().map(Vec::len) == Some(6))
    );
    assert_eq!(drawn.1["begun_at"], Value::Null);
    let twice = call(
        addr,
        "POST",
        &format!("{base}/rounds"),
        &organiser,
        Some(json!({ "number": 1 })),
    )
    .await;
    expect(&twice, 409, "round 1 again");
    let clocks = call(
        addr,
        "POST",
        &format!("{base}/rounds/1/clocks"),
        &organiser,
        Some(json!({ "command": "start" })),
    )
    .await;
    expect(&clocks, 200, "start every clock");
    assert!(
        clocks.1["done"]
            .as_str()
            .is_some_and(|d| d.contains("7 tables"))
    );
    let round = call(addr, "GET", &format!("{base}/rounds/1"), &organiser, None).await;
    assert_ne!(round.1["begun_at"], Value::Null, "the clocks began play");
    let begun = call(
        addr,
        "POST",
        &format!("{base}/rounds/1/begin"),
        &organiser,
        None,
    )
    .await;
    expect(&begun, 422, "begin a round already begun");

    // Seven reports, recorded by the judge's token. An impossible one is refused at its field.
    let first = &tables[0];
    let mut impossible = solo_report(first, 5);
    impossible["seats"][0]["strongholds"] = 2.into();
    let refused = call(
        addr,
        "POST",
        &format!("{base}/rounds/1/tables/1/report"),
        &judge,
        Some(impossible),
    )
    .await;
    expect(&refused, 422, "a solo win on two strongholds");
    assert_eq!(refused.1["field"], "seats[0].strongholds");
    assert!(
        refused.1["error"]
            .as_str()
            .is_some_and(|e| e.contains("1.09.02.01")),
        "{}",
        refused.1
    );
    let mut predicted = false;
    for (i, table) in tables.iter().enumerate() {
        let number = table["number"].as_i64().expect("number");
        let body = match prediction_report(table, 6) {
            Some(body) if !predicted => {
                predicted = true;
                body
            }
            _ => solo_report(table, 4 + (i as u32 % 5)),
        };
        let path = format!("{base}/rounds/1/tables/{number}/report");
        let recorded = call(addr, "POST", &path, &judge, Some(body)).await;
        expect(&recorded, 201, "record a report");
        assert_eq!(recorded.1["revision"], 1);
        // The judge confirms for every player at the first table; the head judge's role
        // finalises the others.
        if i == 0 {
            let refused = call(
                addr,
                "POST",
                &format!("{path}/finalise"),
                &judge,
                Some(json!({ "revision": 1 })),
            )
            .await;
            expect(&refused, 403, "a judge finalising");
            let seats = table["seats"].as_array().expect("seats");
            for (k, seat) in seats.iter().enumerate() {
                let answered = call(
                    addr,
                    "POST",
                    &format!("{path}/confirmations"),
                    &judge,
                    Some(json!({ "revision": 1, "player_id": seat["player_id"], "agrees": true })),
                )
                .await;
                expect(&answered, 200, "confirm for a player");
                let last = k + 1 == seats.len();
                assert_eq!(
                    answered.1["status"],
                    if last { "final" } else { "awaiting" },
                    "{}",
                    answered.1
                );
            }
        } else {
            let finalised = call(
                addr,
                "POST",
                &format!("{path}/finalise"),
                &organiser,
                Some(json!({ "revision": 1 })),
            )
            .await;
            expect(&finalised, 200, "finalise a report");
            assert_eq!(finalised.1["status"], "final");
        }
        let read = call(addr, "GET", &path, &organiser, None).await;
        expect(&read, 200, "read the report back");
        assert_eq!(read.1["status"], "final");
    }
    assert!(
        predicted,
        "a table had the Bene Gesserit and won by prediction"
    );

    // Qualifying closes; a tie across the cut is drawn; the final table is seated.
    let closed = call(
        addr,
        "POST",
        &format!("{base}/qualifying/close"),
        &organiser,
        None,
    )
    .await;
    expect(&closed, 200, "close qualifying");
    assert_eq!(closed.1["closed"], true);
    if closed.1["finalists"].is_null() {
        let drawn = call(
            addr,
            "POST",
            &format!("{base}/qualifying/cut-draw"),
            &organiser,
            Some(json!({ "seed": 11 })),
        )
        .await;
        expect(&drawn, 200, "draw the tie across the cut");
        assert_eq!(drawn.1["draw_seed"], 11);
    }
    let qualifying = call(addr, "GET", &format!("{base}/qualifying"), &judge, None).await;
    let finalists = qualifying.1["finalists"]
        .as_array()
        .expect("finalists")
        .clone();
    assert_eq!(finalists.len(), 6);
    let final_round = call(
        addr,
        "POST",
        &format!("{base}/final-table"),
        &organiser,
        Some(json!({ "seed": 5 })),
    )
    .await;
    expect(&final_round, 201, "seat the final table");
    let final_number = final_round.1["number"].as_i64().expect("number");
    assert_eq!(final_number, 2);
    let final_table = final_round.1["tables"][0].clone();
    let seated: Vec<&str> = final_table["seats"]
        .as_array()
        .expect("seats")
        .iter()
        .filter_map(|s| s["player"].as_str())
        .collect();
    for f in &finalists {
        assert!(
            seated.contains(&f.as_str().expect("name")),
            "{f} at the final"
        );
    }
    let final_path = format!("{base}/rounds/{final_number}/tables/1/report");
    let recorded = call(
        addr,
        "POST",
        &final_path,
        &judge,
        Some(solo_report(&final_table, 7)),
    )
    .await;
    expect(&recorded, 201, "record the final");
    let finalised = call(
        addr,
        "POST",
        &format!("{final_path}/finalise"),
        &organiser,
        Some(json!({ "revision": 1 })),
    )
    .await;
    expect(&finalised, 200, "finalise the final");

    // The placings: everyone, the final's winner first.
    let placings = call(addr, "GET", &format!("{base}/placings"), &judge, None).await;
    expect(&placings, 200, "the placings");
    assert_eq!(placings.1["final_reported"], true);
    let rows = placings.1["placings"].as_array().expect("placings");
    assert_eq!(rows.len(), 42);
    assert_eq!(rows[0]["player"], final_table["seats"][0]["player"]);
    assert_eq!(rows[0]["place"], 1);
    assert!(rows[..6].iter().all(|r| r["at_final"] == true));
    assert!(rows[6..].iter().all(|r| r["at_final"] == false));
    let standings = call(addr, "GET", &format!("{base}/standings"), &judge, None).await;
    assert!(!standings.1["rows"][0]["placing"].is_null());

    // The statistics: eight games (seven and the final), 48 seats, one Bene Gesserit win.
    let statistics = call(addr, "GET", &format!("{base}/statistics"), &judge, None).await;
    expect(&statistics, 200, "the statistics");
    assert_eq!(statistics.1["games"], 8);
    assert_eq!(statistics.1["seats"], 48);
    assert_eq!(statistics.1["ended_by_win"], 8);
    let bgp = statistics.1["win_types"]
        .as_array()
        .expect("win types")
        .iter()
        .find(|w| w["code"] == "BGP")
        .expect("a BGP");
    assert_eq!(bgp["count"], 1);
    // And as an export, CSV and JSON.
    let (status, csv) = raw(
        addr,
        "GET",
        &format!("/events/{slug}/export/statistics.csv"),
        &organiser,
        None,
    )
    .await;
    assert_eq!(status, 200, "{csv}");
    assert!(
        csv.contains("section,item,count,of,percent,detail"),
        "{csv}"
    );
    assert!(csv.contains("games,games,8,8,100,"), "{csv}");
    let (status, json_rows) = call(
        addr,
        "GET",
        &format!("/events/{slug}/export/statistics.json"),
        &organiser,
        None,
    )
    .await;
    assert_eq!(status, 200);
    assert!(
        json_rows
            .as_array()
            .expect("rows")
            .iter()
            .any(|r| r["section"] == "win_type" && r["item"] == "BGP" && r["count"] == 1)
    );

    // Every use of a token is in the event's audit log, and its writes are credited to it.
    let audit: Vec<(String, Option<String>)> = sqlx::query_as(
        "SELECT a.action, a.actor FROM audit_log a JOIN events e ON e.id = a.event_id \
         WHERE e.slug = $1",
    )
    .bind(&slug)
    .fetch_all(&pool)
    .await
    .expect("audit");
    assert!(audit.iter().any(|(action, actor)| action == "report_saved"
        && actor.as_deref() == Some("chair (API token \"results bot\")")));
    assert!(audit.iter().any(|(action, actor)| {
        action == "event_created"
            && actor
                .as_deref()
                .is_some_and(|a| a.contains("account token \"season script\""))
    }));

    let _ = stop.send(());
    let _ = served.await;
    let _ = std::fs::remove_dir_all(site);
}
