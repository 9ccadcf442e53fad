//! `mentat demo` against a fresh database: the real binary, run twice, then what it made read
//! back through the `db` crate as the pages read it.

use std::process::{Command, Output};

use db::{
    password::Password,
    results::{reports, standings},
};
use sqlx::PgPool;
use tournament::ReportStatus as Status;
use tournament::ids::{EventId, Revision, RoundNumber, TableNumber};

/// DATABASE_URL with the test's own database in place of the one it names.
fn url_of(pool: &PgPool) -> String {
    let base = std::env::var("DATABASE_URL").expect("DATABASE_URL is set for database tests");
    let database = pool
        .connect_options()
        .get_database()
        .expect("the test database has a name")
        .to_owned();
    let (address, query) = match base.split_once('?') {
        Some((a, q)) => (a, format!("?{q}")),
        None => (base.as_str(), String::new()),
    };
    let (scheme, rest) = address.split_once("://").expect("a URL");
    let server = rest.split('/').next().unwrap_or(rest);
    format!("{scheme}://{server}/{database}{query}")
}

async fn demo(pool: &PgPool, args: &[&str]) -> Output {
    let url = url_of(pool);
    let args: Vec<String> = args.iter().map(|a| (*a).to_owned()).collect();
    tokio::task::spawn_blocking(move || {
        Command::new(env!("CARGO_BIN_EXE_mentat"))
            .arg("demo")
            .args(&args)
            .env("DATABASE_URL", url)
            .env("RUST_LOG", "warn")
            .env_remove("MENTAT_PUBLIC_URL")
            .env_remove("LEPTOS_SITE_ADDR")
            .env_remove("PORT")
            .output()
            .expect("mentat runs")
    })
    .await
    .expect("joined")
}

/// The word after `key` on the line that starts with `label` (after indentation).
fn field(out: &str, label: &str, key: &str) -> String {
    let line = out
        .lines()
        .find(|l| l.trim_start().starts_with(label))
        .unwrap_or_else(|| panic!("no line {label:?} in:\n{out}"));
    let mut words = line.split_whitespace();
    words.find(|w| *w == key);
    words
        .next()
        .unwrap_or_else(|| panic!("no {key} on {line:?}"))
        .to_owned()
}

/// The event's address printed on the line that starts with `label`.
fn address(out: &str, label: &str) -> String {
    let line = out
        .lines()
        .find(|l| l.trim_start().starts_with(label))
        .unwrap_or_else(|| panic!("no line {label:?} in:\n{out}"));
    line.split_whitespace()
        .find(|w| w.starts_with("http"))
        .unwrap_or_else(|| panic!("no address on {line:?}"))
        .to_owned()
}

struct Seen {
    out: String,
    slug: String,
    event_id: EventId,
}

async fn run_and_check(pool: &PgPool, args: &[&str], base: &str) -> Seen {
    let output = demo(pool, args).await;
    let out = String::from_utf8_lossy(&output.stdout).into_owned();
    let err = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(output.status.success(), "demo failed:\n{out}\n{err}");
    assert!(!err.contains("panicked"), "{err}");

    let page = address(&out, "Event page");
    let slug = page
        .strip_prefix(&format!("{base}/events/"))
        .unwrap_or_else(|| panic!("{page} is not under {base}/events/"))
        .to_owned();
    assert!(slug.starts_with("demo-qualifier-"), "{slug}");
    for (label, tail) in [
        ("Standings", "/standings"),
        ("Find me", "/find"),
        ("Dashboard", "/run"),
    ] {
        assert_eq!(
            address(&out, label),
            format!("{base}/events/{slug}{tail}"),
            "{label}"
        );
    }
    let event = db::events::by_slug(pool, &slug)
        .await
        .expect("read")
        .expect("the printed event exists");

    // 30 players, checked in; 3 rounds, begun.
    let players = db::players::list(pool, event.id).await.expect("players");
    assert_eq!(players.len(), 30);
    assert!(players.iter().all(|p| p.checked_in));
    assert!(players.iter().any(|p| p.club.is_some()), "a few have clubs");
    let rounds = db::rounds::list(pool, event.id).await.expect("rounds");
    assert_eq!(rounds.len(), 3);
    assert!(
        rounds
            .iter()
            .all(|r| r.begun && r.tables == 5 && r.seated == 30)
    );
    assert_eq!(
        rounds.iter().map(|r| r.reports_missing).collect::<Vec<_>>(),
        [0, 0, 2],
        "rounds 1-2 final, two round-3 tables awaiting"
    );

    // Every table: final or awaiting; one adjudicated game, one correction, one dispute.
    let mut finals = 0;
    let mut awaiting = 0;
    let mut adjudicated = 0;
    let mut corrected = 0;
    let mut turn_ten = 0;
    let mut attempts = 0;
    let mut finalised_by_judge = 0;
    for round in 1..=3 {
        let detail = db::rounds::detail(pool, event.id, RoundNumber(round))
            .await
            .expect("round")
            .expect("drawn");
        for table in &detail.tables {
            assert!(table.clock.started_at.is_some(), "clocks are running");
            let results = reports::table_results(pool, event.id, RoundNumber(round), table.number)
                .await
                .expect("results");
            assert!(results.outcome.is_some(), "every report is valid");
            attempts += results.attempts.len();
            for record in &results.attempts {
                assert!((3..=9).contains(&record.turn));
                for a in &record.attempts {
                    assert!(
                        a.strongholds
                            .iter()
                            .all(|c| ["ARK", "CAR", "TAB", "HAB", "TUK"].contains(&c.code()))
                    );
                }
            }
            let latest = results.latest().expect("a report");
            match results.status {
                Status::Final => finals += 1,
                Status::Awaiting { confirmed, seated } => {
                    assert_eq!(round, 3);
                    assert!(confirmed < seated);
                    awaiting += 1;
                }
                other => panic!("round {round} table {}: {other:?}", table.number),
            }
            if latest.draft.ended == tournament::report::Ending::Time
                && results.status == Status::Final
            {
                adjudicated += 1;
                assert!(results.outcome.as_ref().is_some_and(|o| {
                    o.results
                        .iter()
                        .any(|r| r.1 == Some(tournament::WinType::Adjudicated))
                }));
            }
            if latest.draft.last_turn == 10 {
                turn_ten += 1;
            }
            if latest.revision == Revision(2) {
                corrected += 1;
                assert!(latest.reason.as_deref().is_some_and(|r| !r.is_empty()));
                assert_eq!(latest.created_by.as_deref(), latest.finalised_by.as_deref());
            }
            if results
                .revisions
                .iter()
                .any(|r| r.finalised_by.is_some() && r.confirmations.iter().any(|c| !c.agrees))
            {
                finalised_by_judge += 1;
            }
        }
    }
    assert_eq!((finals, awaiting), (13, 2));
    assert_eq!(adjudicated, 1, "one clock-ended game");
    assert_eq!(corrected, 1, "one corrected report");
    assert_eq!(turn_ten, 1, "one game reaching turn 10");
    assert_eq!(
        finalised_by_judge, 1,
        "one dispute settled by the head judge"
    );
    assert!(attempts >= 15, "win attempts at every table: {attempts}");

    // Standings from the final reports, with the finals line.
    let table = standings::event_standings(pool, event.id)
        .await
        .expect("standings");
    assert_eq!(table.rows.len(), 30);
    assert!(table.problems.is_empty(), "{:?}", table.problems);
    assert_eq!(table.finals_seats, 6);
    assert_eq!((table.tables, table.tables_final), (15, 13));
    assert!(table.rows.iter().any(|r| r.finalist == Some(true)));
    assert!(table.rows.iter().any(|r| r.finalist == Some(false)));

    // The printed passwords sign in; the head judge runs the event, the player is linked.
    let judge = field(&out, "head judge", "user");
    let judge_password = field(&out, "head judge", "password");
    let actor = db::accounts::sign_in(pool, &judge, Password::new(judge_password), "127.0.0.1")
        .await
        .expect("the head judge's printed password signs in");
    assert_eq!(
        db::roles::role_of(pool, actor.user_id, event.id)
            .await
            .expect("role"),
        Some(db::roles::Role::HeadJudge)
    );
    let player = field(&out, "player", "user");
    let player_password = field(&out, "player", "password");
    let actor = db::accounts::sign_in(pool, &player, Password::new(player_password), "127.0.0.1")
        .await
        .expect("the player's printed password signs in");
    assert!(players.iter().any(|p| p.user_id == Some(actor.user_id)));

    Seen {
        out,
        slug,
        event_id: event.id,
    }
}

/// Who sits where with which faction in a round, by name.
async fn seating(
    pool: &PgPool,
    event_id: EventId,
    round: RoundNumber,
) -> Vec<(TableNumber, String, String)> {
    let detail = db::rounds::detail(pool, event_id, round)
        .await
        .expect("round")
        .expect("drawn");
    detail
        .tables
        .iter()
        .flat_map(|t| {
            t.seats.iter().map(|s| {
                (
                    t.number,
                    s.player.clone(),
                    s.faction.map(|f| f.code().to_owned()).unwrap_or_default(),
                )
            })
        })
        .collect()
}

#[sqlx::test(migrator = "server::database::MIGRATOR")]
async fn the_demo_creates_a_live_event_and_runs_again(pool: PgPool) {
    let first = run_and_check(&pool, &["--seed", "42"], "http://127.0.0.1:3000").await;
    assert!(first.out.contains("seed 42"), "{}", first.out);

    // Again, with the same seed and another address: a second event, the same draws.
    let second = run_and_check(
        &pool,
        &["--seed", "42", "--base-url", "https://mentat.example.org/"],
        "https://mentat.example.org",
    )
    .await;
    assert_ne!(first.slug, second.slug);
    assert!(second.out.contains("https://mentat.example.org/events/"));
    // The address given is the event's public address: its QR codes and links point there.
    let public = |id: EventId| {
        let pool = pool.clone();
        async move {
            db::events::detail(&pool, id)
                .await
                .expect("read")
                .expect("the event")
                .settings
                .public_url
                .map(|a| a.as_str().to_owned())
        }
    };
    assert_eq!(public(first.event_id).await, None);
    assert_eq!(
        public(second.event_id).await.as_deref(),
        Some("https://mentat.example.org")
    );
    for round in 1..=3 {
        assert_eq!(
            seating(&pool, first.event_id, RoundNumber(round)).await,
            seating(&pool, second.event_id, RoundNumber(round)).await,
            "round {round} is drawn the same from the same seed"
        );
    }
    let told = |out: &str| -> Vec<String> {
        out.lines()
            .filter(|l| l.trim_start().starts_with("round "))
            .map(str::to_owned)
            .collect()
    };
    assert_eq!(told(&first.out), told(&second.out), "the same results");
    assert_ne!(
        field(&first.out, "head judge", "password"),
        field(&second.out, "head judge", "password"),
        "fresh passwords every run"
    );
}

#[test]
fn a_bad_base_url_is_refused_with_a_paragraph() {
    let out = Command::new(env!("CARGO_BIN_EXE_mentat"))
        .args(["demo", "--base-url", "mentat.example.org"])
        .env(
            "DATABASE_URL",
            "postgres://mentat:secret@127.0.0.1:1/mentat",
        )
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stderr);
    assert!(text.contains("--base-url"), "{text}");
    assert!(!text.contains("panicked"), "{text}");
}
