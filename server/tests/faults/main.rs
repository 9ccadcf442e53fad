//! Faults, with real processes: `mentat serve` instances (the binary this package builds) and a
//! PostgreSQL cluster of each test's own, driven over TCP on 127.0.0.1.
//!
//! - 60 simultaneous report submissions while phones poll the standings: no errors, every report
//!   stored exactly once;
//! - the server killed with SIGKILL in the middle of report submissions: after a restart, no
//!   report is half-written and every acknowledged one is there;
//! - PostgreSQL restarted under load: while it is down requests get a clear 503 at once (no hang,
//!   no 500; a phone's read caught as it went away is not kept waiting for it to come back),
//!   Mentat recovers by itself within 5 s of it coming back, nothing acknowledged is lost;
//! - two instances on two ports sharing one database: a session made on one is valid on the
//!   other, a report finalised through one reaches a standings page open on the other within 2 s,
//!   and both serve identical standings;
//! - every server function in the server's registry fuzzed with malformed requests by three
//!   kinds of caller: no 5xx, no dropped connection, no echo, the right refusals (`fuzz.rs`).
//!
//! `script/test` runs the short form (100 phones; the fuzz's first fields); `script/faults` the
//! long one (`MENTAT_FAULTS=long`: 500 phones, longer outages, every field and payload). Every
//! loop is bounded in count and time.

mod client;
mod cluster;
mod fuzz;

use std::{
    sync::{
        Arc,
        atomic::{AtomicBool, Ordering},
    },
    time::{Duration, Instant},
};

use app::results::{ReportForm, ReportSeatForm, SaveReport};
use cluster::{Cluster, Mentat};
use serde::Deserialize;
use sqlx::PgPool;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tournament::ids::{PlayerId, Revision, RoundNumber, TableNumber};

/// One scenario at a time: each times what it sees, and two at once on two cores would measure
/// each other.
static SERIAL: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

fn long() -> bool {
    std::env::var("MENTAT_FAULTS").is_ok_and(|v| v == "long")
}

fn phones() -> usize {
    if long() { 500 } else { 100 }
}

#[derive(Debug, Clone, Deserialize)]
struct OpenTable {
    round: i32,
    number: i32,
    seats: Vec<(i64, String)>,
}

/// What `mentat seed` printed.
#[derive(Debug, Clone, Deserialize)]
struct Event {
    event_id: i64,
    slug: String,
    head_judge: String,
    password: String,
    sign_in_path: String,
    save_report_path: String,
    finalise_report_path: String,
    open_tables: Vec<OpenTable>,
}

/// 360 players: one round final, a second of 60 tables waiting for their reports.
async fn seed(database_url: &str) -> Event {
    let url = database_url.to_owned();
    let out = tokio::task::spawn_blocking(move || {
        std::process::Command::new(Mentat::bin())
            .args(["seed", "--players", "360", "--rounds", "1", "--open-round"])
            .env("DATABASE_URL", url)
            .env("RUST_LOG", "warn")
            .output()
    })
    .await
    .expect("task")
    .expect("mentat seed");
    assert!(
        out.status.success(),
        "mentat seed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let event: Event = serde_json::from_slice(&out.stdout).expect("seed JSON");
    assert_eq!(event.open_tables.len(), 60, "60 tables of six");
    event
}

async fn sign_in(addr: std::net::SocketAddr, event: &Event) -> String {
    let body = format!("login={}&password={}", event.head_judge, event.password);
    let reply = client::post(addr, &event.sign_in_path, body, None)
        .await
        .expect("sign-in answered");
    assert_eq!(reply.status, 200, "sign-in: {}", reply.text());
    reply.session_cookie().expect("a session cookie")
}

/// A report stopped by the clock: no winner, values that differ at every seat.
fn report(event: &Event, table: &OpenTable) -> String {
    let form = ReportForm {
        slug: event.slug.clone(),
        round: RoundNumber(table.round),
        table: TableNumber(table.number),
        base_revision: Revision::NONE,
        ended: "time".into(),
        last_turn: "7".into(),
        judge_draw: String::new(),
        reason: String::new(),
        call_time: None,
        seats: table
            .seats
            .iter()
            .enumerate()
            .map(|(i, (player_id, faction))| ReportSeatForm {
                player_id: PlayerId(*player_id),
                faction: faction.clone(),
                ally: String::new(),
                result: String::new(),
                strongholds: (i % 2).to_string(),
                forces: (3 * i + 1).to_string(),
                spice: (i + 2).to_string(),
                cards: "2".into(),
                leaders: "3".into(),
            })
            .collect(),
        prediction_faction: String::new(),
        prediction_turn: String::new(),
    };
    serde_qs::to_string(&SaveReport { form }).expect("form encoding")
}

async fn submit(
    addr: std::net::SocketAddr,
    cookie: &str,
    event: &Event,
    table: &OpenTable,
) -> Result<client::Reply, String> {
    client::post(
        addr,
        &event.save_report_path,
        report(event, table),
        Some(cookie),
    )
    .await
}

/// Each open table's stored revisions, and whether each holds every seat.
async fn stored(pool: &PgPool, event: &Event) -> Vec<(i64, i64, bool)> {
    let mut out = Vec::new();
    for table in &event.open_tables {
        let (count, whole): (i64, bool) = sqlx::query_as(
            "SELECT count(r.id), coalesce(bool_and(jsonb_array_length(r.seats) = $4), true) \
             FROM game_tables t JOIN rounds ro ON ro.id = t.round_id \
             LEFT JOIN game_reports r ON r.table_id = t.id \
             WHERE ro.event_id = $1 AND ro.number = $2 AND t.number = $3",
        )
        .bind(event.event_id)
        .bind(table.round)
        .bind(table.number)
        .bind(i32::try_from(table.seats.len()).unwrap_or(0))
        .fetch_one(pool)
        .await
        .expect("count");
        out.push((i64::from(table.number), count, whole));
    }
    out
}

/// One phone's request: its status and milliseconds, or why there was no answer.
type Poll = Result<(u16, u128), String>;

/// Phones polling the standings until `stop`, each at most `limit` times: (status, ms) per
/// request, or an error for no answer.
fn poll_standings(
    addr: std::net::SocketAddr,
    slug: &str,
    phones: usize,
    limit: usize,
    stop: Arc<AtomicBool>,
) -> Vec<tokio::task::JoinHandle<Vec<Poll>>> {
    (0..phones)
        .map(|i| {
            let path = format!("/events/{slug}/standings");
            let stop = stop.clone();
            tokio::spawn(async move {
                let mut seen = Vec::new();
                // Phones do not arrive in step.
                tokio::time::sleep(Duration::from_millis((i as u64 * 7) % 300)).await;
                while !stop.load(Ordering::Relaxed) && seen.len() < limit {
                    let started = Instant::now();
                    let outcome = client::get(addr, &path, None)
                        .await
                        .map(|r| (r.status, started.elapsed().as_millis()));
                    seen.push(outcome);
                    tokio::time::sleep(Duration::from_millis(100 + (i as u64 * 13) % 200)).await;
                }
                seen
            })
        })
        .collect()
}

async fn pool(url: &str) -> PgPool {
    sqlx::postgres::PgPoolOptions::new()
        .max_connections(2)
        .connect(url)
        .await
        .expect("test's own connection")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sixty_reports_at_once_while_phones_poll_are_each_stored_once() {
    let _serial = SERIAL.lock().await;
    let cluster = Cluster::new();
    let url = cluster.url("postgres");
    let mentat = Mentat::start(&url, &cluster.log()).await;
    let event = Arc::new(seed(&url).await);
    let cookie = Arc::new(sign_in(mentat.addr, &event).await);

    let stop = Arc::new(AtomicBool::new(false));
    let polling = poll_standings(mentat.addr, &event.slug, phones(), 100, stop.clone());
    tokio::time::sleep(Duration::from_millis(500)).await;
    let start = Arc::new(tokio::sync::Barrier::new(event.open_tables.len()));
    let submissions: Vec<_> = (0..event.open_tables.len())
        .map(|i| {
            let (event, cookie, start) = (event.clone(), cookie.clone(), start.clone());
            let addr = mentat.addr;
            tokio::spawn(async move {
                start.wait().await;
                submit(addr, &cookie, &event, &event.open_tables[i]).await
            })
        })
        .collect();
    let mut answers = Vec::new();
    for s in submissions {
        answers.push(s.await.expect("task"));
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    stop.store(true, Ordering::Relaxed);
    let mut polls = Vec::new();
    for p in polling {
        polls.extend(p.await.expect("task"));
    }

    for (i, answer) in answers.iter().enumerate() {
        let reply = answer
            .as_ref()
            .unwrap_or_else(|e| panic!("report {i}: {e}"));
        assert_eq!(
            reply.status,
            200,
            "report {i}: {}\n{}",
            reply.text(),
            mentat.log_text()
        );
        assert_eq!(reply.text(), "1", "the first revision of table {i}");
    }
    let failures: Vec<_> = polls
        .iter()
        .filter(|p| !matches!(p, Ok((200, _))))
        .collect();
    assert!(polls.len() >= phones(), "every phone asked at least once");
    assert!(
        failures.is_empty(),
        "{} of {} standings requests failed: {:?}",
        failures.len(),
        polls.len(),
        &failures[..failures.len().min(5)]
    );
    let db = pool(&url).await;
    for (table, count, whole) in stored(&db, &event).await {
        assert_eq!(count, 1, "table {table}: one report, stored once");
        assert!(whole, "table {table}: every seat in the report");
    }
    assert!(
        !mentat.log_text().contains("panicked"),
        "{}",
        mentat.log_text()
    );
    let mut times: Vec<u128> = polls
        .iter()
        .filter_map(|p| p.as_ref().ok().map(|(_, ms)| *ms))
        .collect();
    times.sort_unstable();
    eprintln!(
        "faults: {} reports at once, each stored once; {} phones asked {} times, none failed, p99 {} ms",
        answers.len(),
        phones(),
        polls.len(),
        times
            .get(times.len() * 99 / 100)
            .copied()
            .unwrap_or_default()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_killed_mid_submission_keeps_every_acknowledged_report_whole() {
    let _serial = SERIAL.lock().await;
    let cluster = Cluster::new();
    let url = cluster.url("postgres");
    let mut mentat = Mentat::start(&url, &cluster.log()).await;
    let event = Arc::new(seed(&url).await);
    let cookie = Arc::new(sign_in(mentat.addr, &event).await);

    // Submissions spread over a second; the server dies in the middle of them.
    let submissions: Vec<_> = (0..event.open_tables.len())
        .map(|i| {
            let (event, cookie) = (event.clone(), cookie.clone());
            let addr = mentat.addr;
            tokio::spawn(async move {
                tokio::time::sleep(Duration::from_millis(i as u64 * 15)).await;
                submit(addr, &cookie, &event, &event.open_tables[i]).await
            })
        })
        .collect();
    tokio::time::sleep(Duration::from_millis(400)).await;
    mentat.kill();
    let mut acknowledged = Vec::new();
    let mut unanswered = Vec::new();
    for (i, s) in submissions.into_iter().enumerate() {
        match s.await.expect("task") {
            Ok(reply) if reply.status == 200 => acknowledged.push(i),
            Ok(reply) => panic!("report {i} refused: {} {}", reply.status, reply.text()),
            Err(_) => unanswered.push(i),
        }
    }
    assert!(
        !acknowledged.is_empty(),
        "some reports were in before the kill"
    );
    assert!(!unanswered.is_empty(), "some were cut off by the kill");

    mentat.restart().await;
    let db = pool(&url).await;
    let after = stored(&db, &event).await;
    for (table, count, whole) in &after {
        assert!(*count <= 1, "table {table}: {count} revisions");
        assert!(*whole, "table {table}: a half-written report");
    }
    for &i in &acknowledged {
        assert_eq!(
            after[i].1, 1,
            "acknowledged report {i} is there after the restart"
        );
    }
    // The judges whose save was cut off save again: stored once either way (409 when the cut
    // came after the commit), and the same session still works.
    for &i in &unanswered {
        let reply = submit(mentat.addr, &cookie, &event, &event.open_tables[i])
            .await
            .expect("answered");
        assert!(
            reply.status == 200 || reply.status == 409,
            "{} {}",
            reply.status,
            reply.text()
        );
    }
    for (table, count, whole) in stored(&db, &event).await {
        assert_eq!(count, 1, "table {table}");
        assert!(whole);
    }
    eprintln!(
        "faults: SIGKILL with {} reports acknowledged and {} cut off: after a restart every acknowledged one is there, none half-written",
        acknowledged.len(),
        unanswered.len()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_restarted_under_load_gives_503_then_recovers_by_itself() {
    let _serial = SERIAL.lock().await;
    let cluster = Cluster::new();
    let url = cluster.url("postgres");
    let mentat = Mentat::start(&url, &cluster.log()).await;
    let event = Arc::new(seed(&url).await);
    let cookie = Arc::new(sign_in(mentat.addr, &event).await);
    let outage = if long() {
        Duration::from_secs(8)
    } else {
        Duration::from_secs(3)
    };

    let stop = Arc::new(AtomicBool::new(false));
    let begun = Instant::now();
    // Phones and a judge saving one report after another, each answer stamped with its time.
    let phones = poll_standings(mentat.addr, &event.slug, 20, 1000, stop.clone());
    let judge = {
        let (event, cookie, stop) = (event.clone(), cookie.clone(), stop.clone());
        let addr = mentat.addr;
        tokio::spawn(async move {
            let mut saved = Vec::new();
            let mut answers = Vec::new();
            for (i, table) in event.open_tables.iter().enumerate() {
                if stop.load(Ordering::Relaxed) {
                    break;
                }
                let started = Instant::now();
                let answer = submit(addr, &cookie, &event, table).await;
                if let Ok(reply) = &answer {
                    if reply.status == 200 {
                        saved.push(i);
                    }
                    answers.push((begun.elapsed(), reply.status, started.elapsed()));
                }
                tokio::time::sleep(Duration::from_millis(150)).await;
            }
            (saved, answers)
        })
    };
    tokio::time::sleep(Duration::from_secs(1)).await;
    cluster.stop();
    let down_at = begun.elapsed();
    // While it is down: a page and a server function answer 503 at once, with a clear message.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let asked = Instant::now();
    let page = client::get(
        mentat.addr,
        &format!("/events/{}/standings", event.slug),
        None,
    )
    .await
    .expect("an answer while the database is down");
    assert_eq!(page.status, 503, "{}", page.text());
    assert!(
        asked.elapsed() < Duration::from_secs(1),
        "no waiting: {:?}",
        asked.elapsed()
    );
    assert!(
        page.text().contains("cannot reach its database"),
        "{}",
        page.text()
    );
    assert!(!page.text().contains("panicked") && page.text().len() < 2000);
    assert_eq!(page.headers["retry-after"], "5");
    tokio::time::sleep(outage.saturating_sub(Duration::from_millis(1500))).await;
    cluster.start();
    let up_at = begun.elapsed();
    // Back within 5 s, by itself.
    let mut recovered = None;
    while begun.elapsed() < up_at + Duration::from_secs(10) {
        if let Ok(reply) = client::get(
            mentat.addr,
            &format!("/events/{}/standings", event.slug),
            None,
        )
        .await
            && reply.status == 200
        {
            recovered = Some(begun.elapsed() - up_at);
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let recovered = recovered.expect("the standings answer again");
    assert!(
        recovered < Duration::from_secs(5),
        "recovered after {recovered:?}"
    );
    tokio::time::sleep(Duration::from_secs(2)).await;
    stop.store(true, Ordering::Relaxed);
    let (saved, answers) = judge.await.expect("judge");
    let mut polls = Vec::new();
    for p in phones {
        polls.extend(p.await.expect("phone"));
    }

    let hung: Vec<_> = polls.iter().filter(|p| p.is_err()).collect();
    assert!(hung.is_empty(), "requests without an answer: {hung:?}");
    let statuses: Vec<u16> = polls
        .iter()
        .filter_map(|p| p.as_ref().ok().map(|(s, _)| *s))
        .chain(answers.iter().map(|(_, s, _)| *s))
        .collect();
    assert!(statuses.contains(&503), "the outage was seen");
    // A phone that asked just as PostgreSQL went away, before Mentat noticed, is not kept
    // waiting for it to come back: its read answers 503 as soon as Mentat sees the database gone
    // (a probe every 500 ms, each given at most 1 s), and the phones behind it with it.
    let slowest = polls
        .iter()
        .filter_map(|p| p.as_ref().ok().map(|(_, ms)| *ms))
        .max()
        .unwrap_or(0);
    assert!(
        slowest < 2500,
        "a phone waited {slowest} ms for an answer during an outage of {outage:?}"
    );
    assert!(
        statuses.iter().all(|s| matches!(s, 200 | 503)),
        "only 200 and 503: {:?}",
        statuses
            .iter()
            .filter(|s| !matches!(s, 200 | 503))
            .collect::<Vec<_>>()
    );
    for (at, status, took) in &answers {
        assert!(
            *took < Duration::from_secs(6),
            "a save answered {status} after {took:?} (at {at:?}; down {down_at:?}, up {up_at:?})"
        );
    }
    let db = pool(&url).await;
    let after = stored(&db, &event).await;
    for i in saved {
        assert_eq!(
            after[i].1, 1,
            "acknowledged report {i} survived the restart"
        );
    }
    assert!(after.iter().all(|(_, count, whole)| *count <= 1 && *whole));
    eprintln!(
        "faults: PostgreSQL down {:?}: {} answers were 503, none hung or 500, no phone waited over {slowest} ms; back after {recovered:?}; {} acknowledged reports all kept",
        up_at - down_at,
        statuses.iter().filter(|s| **s == 503).count(),
        answers.iter().filter(|(_, s, _)| *s == 200).count()
    );
}

/// Reads a server-sent event stream until `wanted`, for at most `limit`.
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_instances_share_sessions_news_and_standings() {
    let _serial = SERIAL.lock().await;
    let cluster = Cluster::new();
    let url = cluster.url("postgres");
    let a = Mentat::start(&url, &cluster.log()).await;
    let b = Mentat::start(&url, &cluster.log()).await;
    let event = seed(&url).await;

    // A session made on A is valid on B.
    let cookie = sign_in(a.addr, &event).await;
    let who = client::post(b.addr, &current_user_path(), String::new(), Some(&cookie))
        .await
        .expect("answered");
    assert_eq!(who.status, 200);
    assert!(who.text().contains(&event.head_judge), "{}", who.text());

    // A standings page open on B, following the news; B's copy of the standings cached.
    let standings = format!("/events/{}/standings", event.slug);
    let before_b = client::get(b.addr, &standings, None)
        .await
        .expect("B")
        .text();
    let again_b = client::get(b.addr, &standings, None)
        .await
        .expect("B")
        .text();
    assert_eq!(before_b, again_b);
    let mut stream = tokio::net::TcpStream::connect(b.addr)
        .await
        .expect("connect");
    stream
        .write_all(
            format!(
                "GET /events/{}/live HTTP/1.1\r\nHost: {}\r\nAccept: text/event-stream\r\n\r\n",
                event.slug, b.addr
            )
            .as_bytes(),
        )
        .await
        .expect("request");
    assert!(read_until(&mut stream, "200 OK", Duration::from_secs(5)).await);
    // Both listeners are connected well before this in practice; give them a moment.
    tokio::time::sleep(Duration::from_millis(500)).await;

    // A report saved and finalised through A.
    let table = &event.open_tables[0];
    let saved = submit(a.addr, &cookie, &event, table).await.expect("saved");
    assert_eq!(saved.status, 200, "{}", saved.text());
    let body = format!(
        "slug={}&round={}&table={}&revision=1",
        event.slug, table.round, table.number
    );
    let finalised = client::post(a.addr, &event.finalise_report_path, body, Some(&cookie))
        .await
        .expect("finalised");
    assert_eq!(finalised.status, 200, "{}", finalised.text());
    let sent = Instant::now();
    assert!(
        read_until(&mut stream, "event: standings", Duration::from_secs(2)).await,
        "the page open on B heard of the report finalised on A within 2 s"
    );
    let heard = sent.elapsed();

    let on_a = client::get(a.addr, &standings, None)
        .await
        .expect("A")
        .text();
    let on_b = client::get(b.addr, &standings, None)
        .await
        .expect("B")
        .text();
    assert_ne!(
        on_b, before_b,
        "B serves the new standings, not its cached copy ({heard:?})"
    );
    assert_eq!(on_a, on_b, "both instances serve identical standings");
    eprintln!(
        "faults: two instances: a session from A valid on B; B's open page heard A's final report after {heard:?}; identical standings"
    );
}

fn current_user_path() -> String {
    use leptos::server_fn::ServerFn;
    app::auth::CurrentUser::PATH.to_owned()
}
