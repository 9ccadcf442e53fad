//! Server render time of the head judge's dashboard and of a player's phone page for an event of
//! 300 players with 4 rounds drawn (the issue's goal: under 50 ms each), and the phone page's
//! weight (goal: under 30 KB of HTML). A measurement, not a test: it asserts nothing.
//!
//! Each request goes through the whole router in-process (session, role check, queries against
//! PostgreSQL, server rendering) and the body is read to the end; the network is left out.
//!
//! ```sh
//! DATABASE_URL=postgres://user:pass@host/postgres cargo bench -p server --bench pages
//! ```
//!
//! It creates a database of its own next to DATABASE_URL's and drops it afterwards.

use std::{hint::black_box, time::Instant};

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
    roles::Actor,
    rounds::NewRound,
};
use leptos::server_fn::ServerFn;
use server::{
    config::WebConfig,
    http::{AppState, router},
};
use sqlx::{Connection, Executor, PgConnection};
use tower::ServiceExt;

const PLAYERS: usize = 300;
const ROUNDS: i32 = 4;
const HOST: &str = "127.0.0.1:3000";

struct Seeded {
    app: Router,
    cookie: String,
    slug: String,
    player: i64,
}

async fn get(app: &Router, path: &str, cookie: Option<&str>) -> (u16, usize) {
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
    (status, body.len())
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
    for number in 1..=ROUNDS {
        let started = Instant::now();
        db::rounds::start(
            &pool,
            &actor,
            event.id,
            NewRound {
                number,
                seed: Some(u64::try_from(number).unwrap_or_default()),
                ..NewRound::default()
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
        if number < ROUNDS {
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
        AppState {
            leptos_options: server::commands::serve::leptos_options(
                HOST.parse().expect("address"),
                "target/site",
            ),
            pool,
        },
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
    }
}

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
    c.final_summary();

    drop(seeded);
    runtime.block_on(async {
        let mut admin = PgConnection::connect(&url).await.expect("connect");
        let _ = admin
            .execute(format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)").as_str())
            .await;
    });
}
