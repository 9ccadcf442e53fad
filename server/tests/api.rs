//! The JSON API through the whole router against a real PostgreSQL: public reads, reports a
//! judge sees before they are final, writes with API tokens (good, bad, revoked, another
//! event's, a role too small), bad bodies answered field by field, each token use in the audit
//! log, and the OpenAPI document covering every route.

mod common;

use axum::{
    body::Body,
    http::{Request, StatusCode, header},
};
use common::*;
use db::{
    roles::{Actor, Role},
    rounds::{self, NewRound, SeatInfo},
    tokens::{self, NewToken},
};
use serde_json::{Value, json};
use sqlx::PgPool;
use tournament::ids::{EventId, RoundNumber, TableNumber};

struct Setup {
    admin: Actor,
    event: db::events::Event,
    /// Round 1's tables: (number, seats in seat order).
    tables: Vec<(TableNumber, Vec<SeatInfo>)>,
    head_judge: String,
    judge: String,
}

async fn token(pool: &PgPool, actor: &Actor, event: EventId, label: &str, role: Role) -> String {
    tokens::issue(pool, actor, event, NewToken::api(label, role, None))
        .await
        .expect("token made")
        .secret
        .expose()
        .to_owned()
}

/// "Spice Cup": 12 players, round 1 drawn (two tables of six) and begun; a head judge's and a
/// judge's token.
async fn setup(pool: &PgPool) -> Setup {
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
    let head_judge = token(pool, &admin, event.id, "results bot", Role::HeadJudge).await;
    let judge = token(pool, &admin, event.id, "judge bot", Role::Judge).await;
    Setup {
        tables: detail
            .tables
            .into_iter()
            .map(|t| (t.number, t.seats))
            .collect(),
        admin,
        event,
        head_judge,
        judge,
    }
}

fn request(method: &str, path: &str, token: Option<&str>, body: Option<&Value>) -> Request<Body> {
    let mut builder = Request::builder()
        .method(method)
        .uri(path)
        .header(header::HOST, HOST)
        .header(header::ACCEPT, "application/json");
    if let Some(token) = token {
        builder = builder.header(header::AUTHORIZATION, format!("Bearer {token}"));
    }
    match body {
        Some(body) => builder
            .header(header::CONTENT_TYPE, "application/json")
            .body(Body::from(body.to_string()))
            .expect("request"),
        None => builder.body(Body::empty()).expect("request"),
    }
}

async fn call(
    app: &axum::Router,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<&Value>,
) -> (StatusCode, Value) {
    let response = send(app, request(method, path, token, body)).await;
    let status = response.status();
    let text = text(response).await;
    let value = serde_json::from_str(&text).unwrap_or_else(|e| {
        panic!("{method} {path} answered {status} with non-JSON {text:?}: {e}")
    });
    (status, value)
}

/// A valid report for a table: the first seat wins alone on turn 5.
fn report_body(seats: &[SeatInfo], base_revision: i32) -> Value {
    json!({
        "base_revision": base_revision,
        "ended": "win",
        "last_turn": 5,
        "seats": seats.iter().enumerate().map(|(i, s)| json!({
            "player_id": s.player_id.get(),
            "faction": s.faction.expect("dealt").code(),
            "result": if i == 0 { Some("SSH") } else { None },
            "strongholds": if i == 0 { 3 } else { 1 },
            "forces": 10 + i,
            "spice": 4,
            "cards": 2,
            "leaders": 3,
        })).collect::<Vec<_>>(),
    })
}

#[sqlx::test(migrator = "server::database::MIGRATOR")]
async fn public_reads_need_no_sign_in_and_show_what_the_pages_show(pool: PgPool) {
    let s = setup(&pool).await;
    let app = app(pool.clone());
    let base = format!("/api/v1/events/{}", s.event.slug);

    let (status, event) = call(&app, "GET", &base, None, None).await;
    assert_eq!(status, 200, "{event}");
    assert_eq!(event["name"], "Spice Cup");
    assert_eq!(event["ruleset"], "gc-2.13.3");
    assert_eq!(event["rounds_drawn"], 1);
    assert_eq!(event["qualifying_closed"], false);

    let (status, rounds) = call(&app, "GET", &format!("{base}/rounds"), None, None).await;
    assert_eq!(status, 200);
    assert_eq!(rounds[0]["number"], 1);
    assert_eq!(rounds[0]["tables"], 2);
    assert_eq!(rounds[0]["begun"], true);

    let (status, round) = call(&app, "GET", &format!("{base}/rounds/1"), None, None).await;
    assert_eq!(status, 200);
    let tables = round["tables"].as_array().expect("tables");
    assert_eq!(tables.len(), 2);
    for (table, (number, seats)) in tables.iter().zip(&s.tables) {
        assert_eq!(table["number"], number.get());
        assert_eq!(table["clock"]["phase"], "not_started");
        assert_eq!(table["clock"]["limit_seconds"], 6 * 3600);
        let listed: Vec<(i64, String, String)> = table["seats"]
            .as_array()
            .expect("seats")
            .iter()
            .map(|x| {
                (
                    x["player_id"].as_i64().expect("id"),
                    x["player"].as_str().expect("name").to_owned(),
                    x["faction"].as_str().expect("faction").to_owned(),
                )
            })
            .collect();
        let stored: Vec<(i64, String, String)> = seats
            .iter()
            .map(|x| {
                (
                    x.player_id.get(),
                    x.player.clone(),
                    x.faction.expect("dealt").code().to_owned(),
                )
            })
            .collect();
        assert_eq!(listed, stored);
    }
    let (status, missing) = call(&app, "GET", &format!("{base}/rounds/9"), None, None).await;
    assert_eq!(status, 404);
    assert!(
        missing["error"]
            .as_str()
            .expect("error")
            .contains("no round 9")
    );

    // A saved report is the staff's until it is final.
    let (number, seats) = &s.tables[0];
    let path = format!("{base}/rounds/1/tables/{number}/report");
    let (status, saved) = call(
        &app,
        "POST",
        &path,
        Some(&s.judge),
        Some(&report_body(seats, 0)),
    )
    .await;
    assert_eq!(status, 201, "{saved}");
    assert_eq!(saved["revision"], 1);
    let (status, _) = call(&app, "GET", &path, None, None).await;
    assert_eq!(status, 404, "the public sees no unconfirmed report");
    let (status, draft) = call(&app, "GET", &path, Some(&s.judge), None).await;
    assert_eq!(status, 200, "{draft}");
    assert_eq!(draft["status"], "awaiting");
    assert_eq!(draft["seats"][0]["result"], "SSH");
    assert_eq!(draft["seats"][1]["forces"], 11);
    db::results::reports::finalise(
        &pool,
        &s.admin,
        s.event.id,
        RoundNumber(1),
        *number,
        tournament::ids::Revision(1),
    )
    .await
    .expect("final");
    let (status, report) = call(&app, "GET", &path, None, None).await;
    assert_eq!(status, 200, "{report}");
    assert_eq!(report["status"], "final");
    assert_eq!(report["results"][0], "SSH");
    assert_eq!(
        report["saved_by"].as_str().map(|b| b.starts_with("admin")),
        Some(true)
    );

    // The standings as the page has them: the winner first, the finals line marked.
    let (status, standings) = call(&app, "GET", &format!("{base}/standings"), None, None).await;
    assert_eq!(status, 200);
    let page = db::results::standings::event_standings(&pool, s.event.id)
        .await
        .expect("standings");
    let rows = standings["rows"].as_array().expect("rows");
    assert_eq!(rows.len(), page.rows.len());
    for (api, row) in rows.iter().zip(&page.rows) {
        assert_eq!(api["player"], row.player.as_str());
        assert_eq!(api["rank"], row.rank);
        assert_eq!(api["points"], row.points.as_str());
        assert_eq!(
            api["best_game"].as_str(),
            row.best.map(|b| b.dotted()).as_deref()
        );
        assert_eq!(api["finals"], db::export::finals_code(row.finalist));
    }
    assert_eq!(rows[0]["player"], seats[0].player.as_str());
    assert_eq!(rows[0]["wins"][0]["code"], "SSH");
    assert_eq!(standings["finals_seats"], 6);
}

#[sqlx::test(migrator = "server::database::MIGRATOR")]
async fn writes_need_a_valid_token_of_this_event_with_the_role(pool: PgPool) {
    let s = setup(&pool).await;
    let app = app(pool.clone());
    let path = format!("/api/v1/events/{}/players", s.event.slug);
    let body = json!({ "name": "Late Comer", "email": "late@example.org" });

    let response = send(&app, request("POST", &path, None, Some(&body))).await;
    assert_eq!(response.status(), 401);
    assert_eq!(
        response
            .headers()
            .get(header::WWW_AUTHENTICATE)
            .map(|v| v.to_str().ok()),
        Some(Some("Bearer"))
    );
    let (status, bad) = call(
        &app,
        "POST",
        &path,
        Some("mentat_not-a-real-token"),
        Some(&body),
    )
    .await;
    assert_eq!(status, 401);
    assert!(
        bad["error"].as_str().expect("error").contains("not known"),
        "{bad}"
    );
    let response = send(
        &app,
        Request::post(&path)
            .header(header::HOST, HOST)
            .header(header::ORIGIN, ORIGIN)
            .header(header::AUTHORIZATION, "Basic YWRtaW46eA==")
            .header(header::CONTENT_TYPE, "application/json")
            .body(Body::from(body.to_string()))
            .expect("request"),
    )
    .await;
    assert_eq!(response.status(), 401, "a token is sent as Bearer");

    // A judge's token records reports but registers nobody.
    let (status, refused) = call(&app, "POST", &path, Some(&s.judge), Some(&body)).await;
    assert_eq!(status, 403, "{refused}");
    assert!(refused["error"].as_str().expect("error").contains("role"));

    // Another event's token is refused here, though valid there.
    let other = db::events::create(&pool, &s.admin, "Other Open")
        .await
        .expect("event");
    let other_token = token(&pool, &s.admin, other.id, "other bot", Role::Organiser).await;
    let (status, refused) = call(&app, "POST", &path, Some(&other_token), Some(&body)).await;
    assert_eq!(status, 403);
    assert!(
        refused["error"]
            .as_str()
            .expect("error")
            .contains("another event"),
        "{refused}"
    );

    let (status, player) = call(&app, "POST", &path, Some(&s.head_judge), Some(&body)).await;
    assert_eq!(status, 201, "{player}");
    assert_eq!(player["name"], "Late Comer");
    assert_eq!(player["entered_after_round"], 1, "a late entry");
    let listed = db::players::list(&pool, s.event.id).await.expect("players");
    assert!(
        listed
            .iter()
            .any(|p| p.name == "Late Comer" && p.email.as_deref() == Some("late@example.org"))
    );

    // Check in and out, by id.
    let id = player["player_id"].as_i64().expect("id");
    let check = format!("{path}/{id}/check-in");
    let (status, p) = call(&app, "POST", &check, Some(&s.head_judge), None).await;
    assert_eq!(
        (status, p["checked_in"].clone()),
        (StatusCode::OK, json!(true))
    );
    let (status, p) = call(&app, "DELETE", &check, Some(&s.head_judge), None).await;
    assert_eq!(
        (status, p["checked_in"].clone()),
        (StatusCode::OK, json!(false))
    );
    let (status, _) = call(
        &app,
        "POST",
        &format!("{path}/999999/check-in"),
        Some(&s.head_judge),
        None,
    )
    .await;
    assert_eq!(status, 404);

    // Each accepted use is in the audit log, named by the token.
    let audit = db::audit::list(&pool, Some(s.event.id), 200)
        .await
        .expect("audit");
    let uses: Vec<&db::audit::Row> = audit.iter().filter(|r| r.action == "token_used").collect();
    assert!(
        uses.iter()
            .any(|r| r.detail["use"] == format!("POST {path}")),
        "{uses:?}"
    );
    let added = audit
        .iter()
        .find(|r| r.action == "player_added")
        .expect("the registration is audited");
    assert_eq!(
        added.actor.as_deref(),
        Some("admin (API token \"results bot\")")
    );

    // A revoked token stops at once.
    let list = tokens::list(&pool, s.event.id, tokens::TokenKind::Api)
        .await
        .expect("tokens");
    let bot = list
        .iter()
        .find(|t| t.label == "results bot")
        .expect("listed");
    assert_eq!(bot.used_count, 4, "four requests used it");
    tokens::revoke(&pool, &s.admin, s.event.id, bot.id)
        .await
        .expect("revoked");
    let (status, refused) = call(
        &app,
        "POST",
        &path,
        Some(&s.head_judge),
        Some(&json!({ "name": "Too Late" })),
    )
    .await;
    assert_eq!(status, 401);
    assert!(
        refused["error"]
            .as_str()
            .expect("error")
            .contains("revoked"),
        "{refused}"
    );
}

#[sqlx::test(migrator = "server::database::MIGRATOR")]
async fn bad_bodies_are_answered_field_by_field(pool: PgPool) {
    let s = setup(&pool).await;
    let app = app(pool.clone());
    let players = format!("/api/v1/events/{}/players", s.event.slug);
    let t = &s.head_judge;

    let (status, e) = call(
        &app,
        "POST",
        &players,
        Some(t),
        Some(&json!({ "name": " " })),
    )
    .await;
    assert_eq!(
        (status, e["field"].clone()),
        (StatusCode::UNPROCESSABLE_ENTITY, json!("name")),
        "{e}"
    );
    let (status, e) = call(
        &app,
        "POST",
        &players,
        Some(t),
        Some(&json!({ "name": "Ok", "email": "nope" })),
    )
    .await;
    assert_eq!(
        (status, e["field"].clone()),
        (StatusCode::UNPROCESSABLE_ENTITY, json!("email")),
        "{e}"
    );
    let (status, e) = call(
        &app,
        "POST",
        &players,
        Some(t),
        Some(&json!({ "nmae": "Typo" })),
    )
    .await;
    assert_eq!(status, 422, "{e}");
    assert!(e["error"].as_str().expect("error").contains("nmae"), "{e}");
    let (status, e) = call(
        &app,
        "POST",
        &players,
        Some(t),
        Some(&json!({ "name": "Player 01" })),
    )
    .await;
    assert_eq!(
        (status, e["field"].clone()),
        (StatusCode::UNPROCESSABLE_ENTITY, json!("name")),
        "a name taken: {e}"
    );
    let response = send(
        &app,
        Request::post(&players)
            .header(header::HOST, HOST)
            .header(header::AUTHORIZATION, format!("Bearer {t}"))
            .body(Body::from("{\"name\": "))
            .expect("request"),
    )
    .await;
    assert_eq!(response.status(), 400);
    let e: Value = serde_json::from_str(&text(response).await).expect("JSON error");
    assert!(
        e["error"]
            .as_str()
            .expect("error")
            .contains("not valid JSON"),
        "{e}"
    );

    let (number, seats) = &s.tables[1];
    let path = format!(
        "/api/v1/events/{}/rounds/1/tables/{number}/report",
        s.event.slug
    );
    // A value that is not a number names its place in the body.
    let mut body = report_body(seats, 0);
    body["seats"][2]["forces"] = json!("x");
    let (status, e) = call(&app, "POST", &path, Some(t), Some(&body)).await;
    assert_eq!(
        (status, e["field"].clone()),
        (StatusCode::UNPROCESSABLE_ENTITY, json!("seats[2].forces")),
        "{e}"
    );
    // A rule of the report (a faction other than the one dealt, 0.08), named where it is.
    let mut body = report_body(seats, 0);
    let dealt: Vec<&str> = seats
        .iter()
        .map(|x| x.faction.expect("dealt").code())
        .collect();
    let other = ["AT", "BG", "EM", "FR", "HK", "SG"]
        .into_iter()
        .find(|c| !dealt.contains(c))
        .unwrap_or("AT");
    body["seats"][3]["faction"] = json!(other);
    let (status, e) = call(&app, "POST", &path, Some(t), Some(&body)).await;
    assert_eq!(status, 422, "{e}");
    assert_eq!(e["field"], "seats[3].faction", "{e}");
    // The same rule when the script lists the seats in another order: still its own line.
    let mut body = report_body(seats, 0);
    body["seats"].as_array_mut().expect("seats").reverse();
    body["seats"][0]["forces"] = json!(99);
    let (status, e) = call(&app, "POST", &path, Some(t), Some(&body)).await;
    assert_eq!(
        (status, e["field"].clone()),
        (StatusCode::UNPROCESSABLE_ENTITY, json!("seats[0].forces")),
        "{e}"
    );
    // Unknown codes and seats.
    let mut body = report_body(seats, 0);
    body["seats"][0]["result"] = json!("WIN");
    body["seats"][1]["player_id"] = json!(424242);
    body["ended"] = json!("draw");
    let (status, e) = call(&app, "POST", &path, Some(t), Some(&body)).await;
    assert_eq!(status, 422, "{e}");
    let fields: Vec<&str> = e["problems"]
        .as_array()
        .expect("several problems")
        .iter()
        .filter_map(|p| p["field"].as_str())
        .collect();
    assert_eq!(
        fields,
        ["ended", "seats[0].result", "seats[1].player_id"],
        "{e}"
    );
    // A good report, then one based on a stale revision.
    let (status, ok) = call(&app, "POST", &path, Some(t), Some(&report_body(seats, 0))).await;
    assert_eq!(status, 201, "{ok}");
    let (status, e) = call(&app, "POST", &path, Some(t), Some(&report_body(seats, 0))).await;
    assert_eq!(status, 409, "{e}");
    assert!(
        e["error"].as_str().expect("error").contains("revision 1"),
        "{e}"
    );
    let (status, ok) = call(&app, "POST", &path, Some(t), Some(&report_body(seats, 1))).await;
    assert_eq!(
        (status, ok["revision"].clone()),
        (StatusCode::CREATED, json!(2)),
        "{ok}"
    );
}

#[sqlx::test(migrator = "server::database::MIGRATOR")]
async fn the_openapi_document_covers_every_route(pool: PgPool) {
    let app = app(pool);
    let (status, doc) = call(&app, "GET", "/api/v1/openapi.json", None, None).await;
    assert_eq!(status, 200);
    assert!(doc["openapi"].as_str().expect("version").starts_with("3."));
    let paths = doc["paths"].as_object().expect("paths");
    let expect: [(&str, &[&str]); 22] = [
        ("/api/v1/events", &["post"]),
        ("/api/v1/events/{slug}", &["get"]),
        ("/api/v1/events/{slug}/settings", &["get", "put"]),
        ("/api/v1/events/{slug}/tokens", &["get", "post"]),
        ("/api/v1/events/{slug}/tokens/{id}", &["delete"]),
        ("/api/v1/events/{slug}/standings", &["get"]),
        ("/api/v1/events/{slug}/placings", &["get"]),
        ("/api/v1/events/{slug}/statistics", &["get"]),
        ("/api/v1/statistics", &["get"]),
        ("/api/v1/events/{slug}/rounds", &["get", "post"]),
        ("/api/v1/events/{slug}/rounds/{n}", &["get"]),
        ("/api/v1/events/{slug}/rounds/{n}/begin", &["post"]),
        ("/api/v1/events/{slug}/rounds/{n}/clocks", &["post"]),
        (
            "/api/v1/events/{slug}/rounds/{n}/tables/{t}/report",
            &["get", "post"],
        ),
        (
            "/api/v1/events/{slug}/rounds/{n}/tables/{t}/report/confirmations",
            &["post"],
        ),
        (
            "/api/v1/events/{slug}/rounds/{n}/tables/{t}/report/finalise",
            &["post"],
        ),
        ("/api/v1/events/{slug}/qualifying", &["get"]),
        ("/api/v1/events/{slug}/qualifying/close", &["post"]),
        ("/api/v1/events/{slug}/qualifying/reopen", &["post"]),
        ("/api/v1/events/{slug}/qualifying/cut-draw", &["post"]),
        ("/api/v1/events/{slug}/final-table", &["post"]),
        ("/api/v1/events/{slug}/players", &["post"]),
    ];
    // The check-in route, with its two methods, besides.
    let expect: Vec<(&str, &[&str])> = expect
        .into_iter()
        .chain([(
            "/api/v1/events/{slug}/players/{player}/check-in",
            &["post", "delete"] as &[&str],
        )])
        .collect();
    assert_eq!(
        paths.len(),
        expect.len(),
        "{:?}",
        paths.keys().collect::<Vec<_>>()
    );
    for (path, methods) in &expect {
        for method in *methods {
            let operation = &paths[*path][*method];
            assert!(operation.is_object(), "{method} {path} is documented");
            // Every status it can answer with: a write names who may (401, 403); a body can be
            // malformed (400) or wrong (422); an event's route can miss (404).
            let statuses = operation["responses"].as_object().expect("responses");
            let has = |code: &str| statuses.contains_key(code);
            if *method != "get" {
                assert!(has("401") && has("403"), "{method} {path}: {statuses:?}");
            }
            if operation["requestBody"].is_object() {
                assert!(has("400") && has("422"), "{method} {path}: {statuses:?}");
            }
            if path.contains("{slug}") {
                assert!(has("404"), "{method} {path}: {statuses:?}");
            }
        }
    }
    assert!(doc["components"]["securitySchemes"]["token"].is_object());
    assert!(doc["components"]["schemas"]["ErrorBody"].is_object());
    assert!(doc["components"]["schemas"]["ReportInput"].is_object());
    // Every documented route answers (not 404 from the router) with a JSON error at worst.
    for (path, _) in expect {
        let concrete = path
            .replace("{slug}", "no-such-event")
            .replace("{n}", "1")
            .replace("{t}", "1")
            .replace("{id}", "1")
            .replace("{player}", "1");
        let status = send(&app, request("GET", &concrete, None, None))
            .await
            .status();
        assert!(
            status == 404 || status == 405 || !path.contains("{slug}"),
            "GET {concrete}: {status}"
        );
    }
}
