//! Server render time of the head judge's dashboard and of a player's phone page for an event of
//! 300 players with 4 rounds drawn (the issue's goal: under 50 ms each), and the phone page's
//! weight (goal: under 30 KB of HTML). A measurement, not a test: it asserts nothing.
//!
//! The public standings are measured on a second event of 300 players whose 4 rounds all have
//! final reports (goal: under 20 ms, under 30 KB of HTML; raw and gzip sizes are printed), and
//! so is the live update's delay: from the head judge finalising a report to an event-stream
//! client of a real server (over TCP) reading `event: standings`.
//!
//! Each request goes through the whole router in-process (session, role check, queries against
//! PostgreSQL, server rendering) and the body is read to the end; the network is left out.
//!
//! ```sh
//! DATABASE_URL=postgres://user:pass@host/postgres cargo bench -p server --bench pages
//! ```
//!
//! It creates a database of its own next to DATABASE_URL's and drops it afterwards.

use std::{
    hint::black_box,
    io::Write,
    time::{Duration, Instant},
};

use axum::{
    Router,
    body::Body,
    http::{Request, header},
};
use criterion::Criterion;
use db::{
    PgPool,
    accounts::{NewUser, UserName},
    password::Password,
    results::{
        attempts::{Attempt, TurnEntry},
        reports::{Draft, SeatResult},
    },
    roles::Actor,
    rounds::NewRound,
};
use dune::Stronghold;
use leptos::server_fn::ServerFn;
use server::{
    config::WebConfig,
    http::{AppState, router},
};
use sqlx::{Connection, Executor, PgConnection};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tournament::ids::{EventId, Revision, RoundNumber, TableNumber};
use tournament::{EndValues, WinType, report::Ending};
use tower::ServiceExt;

const PLAYERS: usize = 300;
const ROUNDS: i32 = 4;
const HOST: &str = "127.0.0.1:3000";

struct Seeded {
    app: Router,
    cookie: String,
    slug: String,
    player: i64,
    actor: Actor,
    pool: PgPool,
}

/// The standings' event: rounds 1-3 final, round 4's reports saved and waiting to be finalised
/// (the live-update measurement finalises them one by one).
struct Results {
    slug: String,
    event_id: EventId,
    /// Round 4's tables and the revision to finalise.
    pending: Vec<(TableNumber, Revision)>,
    player: i64,
}

async fn get(app: &Router, path: &str, cookie: Option<&str>) -> (u16, usize) {
    let (status, body) = get_body(app, path, cookie).await;
    (status, body.len())
}

async fn get_body(app: &Router, path: &str, cookie: Option<&str>) -> (u16, Vec<u8>) {
    let mut request = Request::get(path).header(header::HOST, HOST);
    if let Some(cookie) = cookie {
        request = request.header(header::COOKIE, cookie);
    }
    let response = app
        .clone()
        .oneshot(request.body(Body::empty()).expect("request"))
        .await
        .expect("router answers");
    let status = response.status().as_u16();
    let body = axum::body::to_bytes(response.into_body(), 1 << 24)
        .await
        .expect("body");
    (status, body.to_vec())
}

async fn seed(pool: PgPool) -> Seeded {
    let new = NewUser {
        username: UserName::parse("headjudge").expect("name"),
        email: None,
        password: Password::new_choice("headjudge-password".to_owned()).expect("password"),
        is_admin: true,
    };
    let user_id = db::accounts::create_user(&pool, new, None)
        .await
        .expect("user");
    let actor = Actor {
        user_id,
        username: "headjudge".into(),
        is_admin: true,
    };
    let event = db::events::create(&pool, &actor, "Benchmark Qualifier")
        .await
        .expect("event");
    sqlx::query("UPDATE events SET qualifying_rounds = 5 WHERE id = $1")
        .bind(event.id)
        .execute(&pool)
        .await
        .expect("rounds");
    let csv: String = (1..=PLAYERS)
        .map(|i| format!("Player {i:03},p{i}@example.org,Club {}\n", i % 12))
        .collect();
    db::players::import_csv(&pool, &actor, event.id, &csv)
        .await
        .expect("players");
    db::players::check_in_all(&pool, &actor, event.id)
        .await
        .expect("check-in");
    for number in (1..=ROUNDS).map(RoundNumber) {
        let started = Instant::now();
        db::rounds::start(
            &pool,
            &actor,
            event.id,
            NewRound {
                number,
                seed: Some(u64::try_from(number.get()).unwrap_or_default()),
                fallback: None,
                override_reason: None,
            },
        )
        .await
        .expect("round");
        eprintln!("round {number} drawn in {:?}", started.elapsed());
        let round = db::rounds::detail(&pool, event.id, number)
            .await
            .expect("read")
            .expect("round");
        for table in &round.tables {
            db::clocks::apply(
                &pool,
                &actor,
                event.id,
                table.id,
                table.version,
                db::clocks::Command::Start,
            )
            .await
            .expect("clock");
        }
        if number.get() < ROUNDS {
            sqlx::query("UPDATE game_tables SET reported_at = now() WHERE round_id = $1")
                .bind(round.round.id)
                .execute(&pool)
                .await
                .expect("reports");
        }
    }
    let player: i64 = sqlx::query_scalar("SELECT id FROM players WHERE name = 'Player 150'")
        .fetch_one(&pool)
        .await
        .expect("player");
    let app = router(
        AppState::new(
            server::commands::serve::leptos_options(HOST.parse().expect("address"), "target/site"),
            pool.clone(),
        ),
        &WebConfig::local(),
    );
    let sign_in = Request::post(app::auth::SignIn::PATH)
        .header(header::HOST, HOST)
        .header(header::ORIGIN, format!("http://{HOST}"))
        .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
        .body(Body::from("login=headjudge&password=headjudge-password"))
        .expect("request");
    let response = app.clone().oneshot(sign_in).await.expect("sign-in");
    let cookie = response
        .headers()
        .get_all(header::SET_COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find(|v| v.starts_with("mentat_session="))
        .and_then(|v| v.split(';').next())
        .expect("session cookie")
        .to_owned();
    Seeded {
        app,
        cookie,
        slug: event.slug,
        player,
        actor,
        pool,
    }
}

/// A small deterministic generator, so every run measures the same event.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, below: u32) -> u32 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        u32::try_from((self.0 >> 33) % u64::from(below)).unwrap_or(0)
    }
}

/// A plausible report: most tables a solo stronghold win, every fourth an allied one, every
/// fifth stopped by the clock (adjudicated from the values). Forces differ at every seat, so
/// adjudication never needs the head judge's draw.
fn draft(seats: &[db::rounds::SeatInfo], table: usize, rng: &mut Lcg) -> Draft {
    let n = seats.len();
    let winner = usize::try_from(rng.next(u32::try_from(n).unwrap_or(1))).unwrap_or(0);
    let partner = (winner + 1) % n;
    let (ended, allied) = match table % 20 {
        0 | 5 | 10 | 15 => (Ending::Time, false),
        4 | 8 | 12 | 16 => (Ending::Win, true),
        _ => (Ending::Win, false),
    };
    let faction = |i: usize| seats[i].faction.expect("dealt");
    Draft {
        ended,
        last_turn: if ended == Ending::Time { 7 } else { 6 },
        seats: seats
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let ally = match (allied, i) {
                    (true, i) if i == winner => Some(faction(partner)),
                    (true, i) if i == partner => Some(faction(winner)),
                    _ => None,
                };
                let result = match (ended, allied) {
                    (Ending::Win, false) if i == winner => Some(WinType::SoloStronghold),
                    (Ending::Win, true) if i == winner || i == partner => {
                        Some(WinType::AlliedStronghold)
                    }
                    _ => None,
                };
                SeatResult {
                    player_id: s.player_id,
                    faction: faction(i),
                    ally,
                    result,
                    end: EndValues {
                        strongholds: match (result, ally) {
                            (Some(_), Some(_)) => 2,
                            (Some(_), None) => 3,
                            // Nobody else near a stronghold victory (1.09.02), and no more
                            // strongholds at the table than the map has.
                            _ if ended == Ending::Win => 0,
                            _ => rng.next(2),
                        },
                        forces: rng.next(3) * 6 + u32::try_from(i).unwrap_or(0),
                        spice: dune::Spice::new(rng.next(20)),
                        cards: rng.next(5),
                        leaders: 1 + rng.next(5),
                    },
                }
            })
            .collect(),
        judge_draw: None,
        prediction: None,
    }
}

async fn seed_results(pool: &PgPool, actor: &Actor) -> Results {
    let started = Instant::now();
    let event = db::events::create(pool, actor, "Standings Qualifier")
        .await
        .expect("event");
    let csv: String = (1..=PLAYERS)
        .map(|i| format!("Entrant {i:03},e{i}@example.org,Club {}\n", i % 12))
        .collect();
    db::players::import_csv(pool, actor, event.id, &csv)
        .await
        .expect("players");
    db::players::check_in_all(pool, actor, event.id)
        .await
        .expect("check-in");
    let mut rng = Lcg(2024);
    let mut pending = Vec::new();
    for number in (1..=ROUNDS).map(RoundNumber) {
        db::rounds::start(
            pool,
            actor,
            event.id,
            NewRound {
                number,
                seed: Some(u64::try_from(number.get()).unwrap_or_default() + 100),
                fallback: None,
                override_reason: None,
            },
        )
        .await
        .expect("round");
        let round = db::rounds::detail(pool, event.id, number)
            .await
            .expect("read")
            .expect("round");
        db::rounds::begin(pool, actor, event.id, number, round.round.version)
            .await
            .expect("begun");
        for (i, table) in round.tables.iter().enumerate() {
            // Win attempts on two turns, so the first tiebreaker comes from the record.
            for turn in [4, 5] {
                let who = usize::try_from(rng.next(u32::try_from(table.seats.len()).unwrap_or(1)))
                    .unwrap_or(0);
                db::results::attempts::record(
                    pool,
                    actor,
                    true,
                    event.id,
                    number,
                    table.number,
                    TurnEntry {
                        turn,
                        base_revision: Revision::NONE,
                        attempts: vec![Attempt {
                            player_id: table.seats[who].player_id,
                            strongholds: vec![
                                Stronghold::Arrakeen,
                                Stronghold::Carthag,
                                Stronghold::SietchTabr,
                            ],
                        }],
                        reason: None,
                    },
                )
                .await
                .expect("win attempts");
            }
            let draft = draft(&table.seats, i, &mut rng);
            let revision = db::results::reports::save(
                pool,
                actor,
                true,
                event.id,
                number,
                table.number,
                Revision::NONE,
                &draft,
                None,
            )
            .await
            .unwrap_or_else(|e| panic!("round {number} table {}: {e}", table.number));
            if number.get() < ROUNDS {
                db::results::reports::finalise(
                    pool,
                    actor,
                    event.id,
                    number,
                    table.number,
                    revision,
                )
                .await
                .expect("final");
            } else {
                pending.push((table.number, revision));
            }
        }
    }
    let player: i64 =
        sqlx::query_scalar("SELECT id FROM players WHERE event_id = $1 AND name = 'Entrant 150'")
            .bind(event.id)
            .fetch_one(pool)
            .await
            .expect("player");
    eprintln!(
        "standings event seeded in {:?} ({} reports)",
        started.elapsed(),
        usize::try_from(ROUNDS).unwrap_or(0) * pending.len()
    );
    Results {
        slug: event.slug,
        event_id: event.id,
        pending,
        player,
    }
}

fn gzip_len(bytes: &[u8]) -> usize {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    encoder.write_all(bytes).expect("gzip");
    encoder.finish().expect("gzip").len()
}

/// Reads the event stream until `wanted` arrives; false after `limit`.
async fn read_until(stream: &mut tokio::net::TcpStream, wanted: &str, limit: Duration) -> bool {
    let mut seen = String::new();
    let mut buf = [0u8; 4096];
    let deadline = tokio::time::Instant::now() + limit;
    while !seen.contains(wanted) {
        match tokio::time::timeout_at(deadline, stream.read(&mut buf)).await {
            Ok(Ok(n)) if n > 0 => seen.push_str(&String::from_utf8_lossy(&buf[..n])),
            _ => return false,
        }
    }
    true
}

fn millis(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// Finalises round 4's reports one by one on a real server and times each until an
/// event-stream client over TCP reads `event: standings`.
async fn live_latency(pool: PgPool, actor: &Actor, results: &Results) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("address");
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let served = tokio::spawn(server::commands::serve::serve(
        listener,
        pool.clone(),
        "target/site",
        &LOCAL_WEB,
        async move {
            let _ = stopped.await;
        },
    ));
    let mut client = tokio::net::TcpStream::connect(addr).await.expect("connect");
    client
        .write_all(
            format!(
                "GET /events/{}/live HTTP/1.1\r\nHost: {addr}\r\nAccept: text/event-stream\r\n\r\n",
                results.slug
            )
            .as_bytes(),
        )
        .await
        .expect("request");
    // The listener starts with the server: nudge until a notification comes through.
    let mut ready = false;
    for _ in 0..50 {
        db::live::notify(&pool, results.event_id, db::live::Topic::Table)
            .await
            .expect("notify");
        if read_until(&mut client, "event: table", Duration::from_millis(200)).await {
            ready = true;
            break;
        }
    }
    assert!(ready, "the live stream never delivered a notification");
    let mut to_stream = Vec::new();
    let mut to_commit = Vec::new();
    for &(table, revision) in &results.pending {
        let start = Instant::now();
        db::results::reports::finalise(
            &pool,
            actor,
            results.event_id,
            RoundNumber(ROUNDS),
            table,
            revision,
        )
        .await
        .expect("final");
        let committed = start.elapsed();
        assert!(
            read_until(&mut client, "event: standings", Duration::from_secs(5)).await,
            "no standings event within 5 s"
        );
        to_stream.push(start.elapsed());
        to_commit.push(committed);
    }
    to_stream.sort();
    to_commit.sort();
    let at = |v: &[Duration], q: f64| {
        let i = ((v.len() as f64 - 1.0) * q).round() as usize;
        millis(v[i.min(v.len() - 1)])
    };
    println!(
        "live update, report finalised → `event: standings` read by an SSE client over TCP \
         ({} reports): median {:.2} ms, p95 {:.2} ms, max {:.2} ms \
         (of which the finalising transaction: median {:.2} ms)",
        to_stream.len(),
        at(&to_stream, 0.5),
        at(&to_stream, 0.95),
        at(&to_stream, 1.0),
        at(&to_commit, 0.5),
    );
    drop(client);
    let _ = stop.send(());
    let _ = served.await;
}

static LOCAL_WEB: std::sync::LazyLock<WebConfig> = std::sync::LazyLock::new(WebConfig::local);

fn main() {
    let Ok(url) = std::env::var("DATABASE_URL") else {
        eprintln!(
            "pages: skipped, set DATABASE_URL to a PostgreSQL where a database may be created"
        );
        return;
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let name = format!("mentat_bench_{}", std::process::id());
    let bench_url = format!(
        "{}/{name}",
        url.rsplit_once('/').map_or(url.as_str(), |(base, _)| base)
    );
    let seeded = runtime.block_on(async {
        let mut admin = PgConnection::connect(&url).await.expect("connect");
        admin
            .execute(format!("CREATE DATABASE {name}").as_str())
            .await
            .expect("create database");
        let pool = PgPool::connect(&bench_url).await.expect("bench database");
        db::MIGRATOR.run(&pool).await.expect("migrations");
        seed(pool).await
    });
    let results = runtime.block_on(seed_results(&seeded.pool, &seeded.actor));
    runtime.block_on(live_latency(seeded.pool.clone(), &seeded.actor, &results));
    let standings = format!("/events/{}/standings", results.slug);
    let focused = format!("{standings}?p={}#p{}", results.player, results.player);
    for (label, path) in [
        ("standings", &standings),
        ("standings, one player open", &focused),
    ] {
        let (status, body) = runtime.block_on(get_body(&seeded.app, path, None));
        assert_eq!(status, 200, "{label} at {path}");
        println!(
            "{label}: {} bytes of HTML ({:.1} KB), {} bytes gzipped ({:.1} KB)",
            body.len(),
            body.len() as f64 / 1024.0,
            gzip_len(&body),
            gzip_len(&body) as f64 / 1024.0
        );
    }
    if std::env::var_os("MENTAT_BENCH_DUMP").is_some() {
        let (_, body) = runtime.block_on(get_body(&seeded.app, &focused, None));
        std::fs::write("/tmp/mentat-standings.html", body).expect("dump");
        eprintln!("standings page written to /tmp/mentat-standings.html");
    }
    let dashboard = format!("/events/{}/run", seeded.slug);
    let phone = format!("/events/{}/find/{}", seeded.slug, seeded.player);
    let round = format!("/events/{}/rounds/{ROUNDS}", seeded.slug);
    for (label, path, cookie) in [
        ("dashboard", &dashboard, Some(seeded.cookie.as_str())),
        ("player view", &phone, None),
        ("round page", &round, Some(seeded.cookie.as_str())),
    ] {
        let (status, bytes) = runtime.block_on(get(&seeded.app, path, cookie));
        assert_eq!(status, 200, "{label} at {path}");
        println!(
            "{label}: {bytes} bytes of HTML ({:.1} KB)",
            bytes as f64 / 1024.0
        );
    }

    let mut c = Criterion::default().configure_from_args();
    c.bench_function("dashboard (300 players, 4 rounds)", |b| {
        b.iter(|| black_box(runtime.block_on(get(&seeded.app, &dashboard, Some(&seeded.cookie)))))
    });
    c.bench_function("player view (300 players, 4 rounds)", |b| {
        b.iter(|| black_box(runtime.block_on(get(&seeded.app, &phone, None))))
    });
    c.bench_function("round page, head judge (50 tables)", |b| {
        b.iter(|| black_box(runtime.block_on(get(&seeded.app, &round, Some(&seeded.cookie)))))
    });
    c.bench_function("public standings (300 players, 4 rounds final)", |b| {
        b.iter(|| black_box(runtime.block_on(get(&seeded.app, &standings, None))))
    });
    c.final_summary();

    drop(seeded);
    runtime.block_on(async {
        let mut admin = PgConnection::connect(&url).await.expect("connect");
        let _ = admin
            .execute(format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)").as_str())
            .await;
    });
}
