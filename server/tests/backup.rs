//! Backup and restore with the real `mentat` binary against real PostgreSQL databases: the demo
//! event (three rounds of reports, a correction, a dispute settled by the head judge, an
//! adjudicated game, qualifying closed) is backed up, restored into a fresh, empty database and
//! compared: standings and every revision's history identical. Restoring over an event needs
//! asking; damaged, truncated, edited-inconsistent and foreign files are refused with the
//! reason and change nothing.

mod common;

use std::process::Output;

use db::{
    PgPool,
    backup::{self, RestoreError, RestoreOptions},
    results::{reports, standings},
};
use serde_json::Value;
use tournament::ids::{EventId, PlayerId};

/// DATABASE_URL with `database` in place of the one it names.
fn url_for(database: &str) -> String {
    let base = std::env::var("DATABASE_URL").expect("DATABASE_URL is set for database tests");
    let (address, query) = match base.split_once('?') {
        Some((a, q)) => (a, format!("?{q}")),
        None => (base.as_str(), String::new()),
    };
    let (scheme, rest) = address.split_once("://").expect("a URL");
    let server = rest.split('/').next().unwrap_or(rest);
    format!("{scheme}://{server}/{database}{query}")
}

fn url_of(pool: &PgPool) -> String {
    url_for(
        pool.connect_options()
            .get_database()
            .expect("the test database has a name"),
    )
}

async fn mentat(url: String, args: &[&str], stdin: Option<Vec<u8>>) -> Output {
    let args: Vec<String> = args.iter().map(|a| (*a).to_owned()).collect();
    tokio::task::spawn_blocking(move || {
        use std::io::Write;
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_mentat"))
            .args(&args)
            .env("DATABASE_URL", url)
            .env("RUST_LOG", "warn")
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("mentat runs");
        if let Some(bytes) = stdin
            && let Some(mut pipe) = child.stdin.take()
        {
            pipe.write_all(&bytes).expect("stdin written");
        }
        child.wait_with_output().expect("mentat ends")
    })
    .await
    .expect("joined")
}

/// A database of its own on the same server, created empty (no migrations: the restore runs
/// them), dropped when the test ends.
struct Fresh {
    name: String,
    url: String,
    admin: PgPool,
}

impl Fresh {
    async fn new(admin: &PgPool) -> Fresh {
        let name = format!(
            "mentat_restore_{}_{}",
            std::process::id(),
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .expect("time")
                .as_nanos()
        );
        sqlx::query(&format!("CREATE DATABASE {name}"))
            .execute(admin)
            .await
            .expect("created");
        Fresh {
            url: url_for(&name),
            name,
            admin: admin.clone(),
        }
    }

    async fn pool(&self) -> PgPool {
        PgPool::connect(&self.url).await.expect("connected")
    }

    async fn drop_it(self) {
        let _ = sqlx::query(&format!(
            "DROP DATABASE IF EXISTS {} WITH (FORCE)",
            self.name
        ))
        .execute(&self.admin)
        .await;
    }
}

/// The demo event, with its last reports made final and qualifying closed.
async fn demo(pool: &PgPool) -> (EventId, String) {
    let demo = server::commands::demo::create(pool, 2026)
        .await
        .expect("the demo event");
    let boss = common::user(pool, "boss", true).await;
    // A game log with two revisions (the second one continues the first) on the first table.
    let (first_round, first_table) = db::export::table_numbers(pool, demo.event_id)
        .await
        .expect("tables")[0];
    for (base, body) in [(0, "# DGN 1\nturn 1\n"), (1, "# DGN 1\nturn 1\nturn 2\n")] {
        db::results::logs::save(
            pool,
            &boss,
            demo.event_id,
            first_round,
            first_table,
            db::results::logs::LogEntry {
                body: body.to_owned(),
                base_revision: tournament::ids::Revision(base),
                // The demo's reports are final: the head judge says why a log comes late.
                reason: Some(format!("the scorekeeper's log, part {}", base + 1)),
                source: Some("typed".to_owned()),
            },
        )
        .await
        .expect("log saved");
    }
    for (round, table) in db::export::table_numbers(pool, demo.event_id)
        .await
        .expect("tables")
    {
        let results = reports::table_results(pool, demo.event_id, round, table)
            .await
            .expect("results");
        if let Some(latest) = results.latest()
            && latest.final_at.is_none()
        {
            reports::finalise(pool, &boss, demo.event_id, round, table, latest.revision)
                .await
                .expect("finalised");
        }
    }
    db::results::finals::close_qualifying(pool, &boss, demo.event_id, true)
        .await
        .expect("qualifying closed");
    (demo.event_id, demo.slug)
}

/// What the standings page shows, without the database's ids.
fn standings_seen(s: &standings::EventStandings) -> Value {
    let mut value = serde_json::to_value(s).expect("serialisable");
    for row in value["rows"].as_array_mut().expect("rows") {
        row["player_id"] = Value::Null;
    }
    value
}

/// Every table's history: each report revision (who, when, why, what, who confirmed) and each
/// turn's win-attempt records, players by name.
async fn history(pool: &PgPool, event_id: EventId) -> Vec<String> {
    let mut out = Vec::new();
    for (round, table) in db::export::table_numbers(pool, event_id)
        .await
        .expect("tables")
    {
        let r = reports::table_results(pool, event_id, round, table)
            .await
            .expect("results");
        let name = |id: PlayerId| {
            r.table
                .seat_of(id)
                .map_or_else(|| format!("?{id}"), |s| s.player.to_string())
        };
        out.push(format!("round {round} table {table}: {:?}", r.status));
        for rev in &r.revisions {
            out.push(format!(
                "  revision {} by {:?} at {} final {:?} by {:?} reason {:?}: {:?} turn {} judge draw {:?}",
                rev.revision,
                rev.created_by,
                rev.created_at,
                rev.final_at,
                rev.finalised_by,
                rev.reason,
                rev.draft.ended,
                rev.draft.last_turn,
                rev.draft.judge_draw.map(name)
            ));
            for s in &rev.draft.seats {
                out.push(format!(
                    "    {} {:?} ally {:?} result {:?} {:?}",
                    name(s.player_id),
                    s.faction,
                    s.ally,
                    s.result,
                    s.end
                ));
            }
            for c in &rev.confirmations {
                out.push(format!(
                    "    {} agrees {} note {:?} by {:?} at {}",
                    name(c.player_id),
                    c.agrees,
                    c.note,
                    c.by,
                    c.at
                ));
            }
        }
        let log = db::results::logs::table_log(pool, event_id, round, table)
            .await
            .expect("log");
        for l in &log.revisions {
            out.push(format!(
                "  log revision {} by {:?} at {} reason {:?} source {:?}: {:?}",
                l.revision, l.created_by, l.created_at, l.reason, l.source, l.body
            ));
        }
        for t in &r.attempts {
            out.push(format!(
                "  turn {} revision {} by {:?} at {} reason {:?}: {:?}",
                t.turn,
                t.revision,
                t.recorded_by,
                t.recorded_at,
                t.reason,
                t.attempts
                    .iter()
                    .map(|a| (name(a.player_id), a.strongholds.clone()))
                    .collect::<Vec<_>>()
            ));
        }
    }
    out
}

/// The backup as a value without what differs by nature: when it was written, and the
/// restore's own entry at the end of the audit log.
fn comparable(bytes: &[u8]) -> Value {
    let mut value: Value = serde_json::from_slice(bytes).expect("a backup is JSON");
    value["written_at"] = Value::Null;
    // The digest follows the content; a copy says where it came from.
    value["digest"] = Value::Null;
    if let Some(event) = value["event"].as_object_mut() {
        event.remove("restored_from");
    }
    let audit = value["audit"].as_array_mut().expect("audit");
    if audit
        .last()
        .is_some_and(|e| e["action"] == "event_restored")
    {
        audit.pop();
    }
    value
}

async fn counts(pool: &PgPool) -> Vec<i64> {
    let mut out = Vec::new();
    for table in [
        "events",
        "users",
        "players",
        "rounds",
        "game_tables",
        "seats",
        "win_attempts",
        "game_reports",
        "report_confirmations",
        "audit_log",
    ] {
        out.push(
            sqlx::query_scalar(&format!("SELECT count(*) FROM {table}"))
                .fetch_one(pool)
                .await
                .expect("counted"),
        );
    }
    out
}

#[sqlx::test(migrator = "server::database::MIGRATOR")]
async fn a_backup_restores_into_a_fresh_database_with_identical_standings_and_history(
    pool: PgPool,
) {
    let (event_id, slug) = demo(&pool).await;
    let out = mentat(url_of(&pool), &["backup", &slug], None).await;
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let file = out.stdout;
    let parsed: Value = serde_json::from_slice(&file).expect("JSON");
    assert_eq!(parsed["format"], "mentat-event-backup");
    assert_eq!(parsed["version"], 2);
    assert_eq!(
        parsed["digest"].as_str().map(|d| d.len()),
        Some("sha256:".len() + 64),
        "the file carries its digest"
    );
    assert_eq!(parsed["rounds"].as_array().map(Vec::len), Some(3));

    let fresh = Fresh::new(&pool).await;
    let out = mentat(fresh.url.clone(), &["restore", "-"], Some(file.clone())).await;
    let said = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{said}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(said.contains(&format!("/events/{slug}")), "{said}");
    let restored = fresh.pool().await;
    let copy = db::events::by_slug(&restored, &slug)
        .await
        .expect("read")
        .expect("restored under its address");

    let before = standings::event_standings(&pool, event_id)
        .await
        .expect("standings");
    let after = standings::event_standings(&restored, copy.id)
        .await
        .expect("standings");
    assert!(before.closed.is_some(), "qualifying was closed");
    assert!(!before.rows.is_empty());
    assert_eq!(standings_seen(&after), standings_seen(&before));
    let history_before = history(&pool, event_id).await;
    assert!(
        history_before.iter().any(|l| l.contains("reason Some(")),
        "the demo has a correction with its reason"
    );
    assert!(
        history_before
            .iter()
            .filter(|l| l.contains("log revision"))
            .count()
            == 2,
        "the demo's first table has a log of two revisions"
    );
    assert_eq!(history(&restored, copy.id).await, history_before);
    // And everything else the file holds, the audit log included: a backup of the copy is the
    // same file.
    let again =
        backup::to_json(&backup::dump(&restored, copy.id).await.expect("dump")).expect("JSON");
    assert_eq!(comparable(&again), comparable(&file));
    let log = db::audit::list(&restored, Some(copy.id), 1)
        .await
        .expect("audit");
    assert_eq!(log[0].action, "event_restored");

    // Over the event: refused unless asked; beside it under another address; or replacing it.
    let counted = counts(&restored).await;
    let out = mentat(fresh.url.clone(), &["restore", "-"], Some(file.clone())).await;
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("already lives") && err.contains("--replace"),
        "{err}"
    );
    assert_eq!(counts(&restored).await, counted, "nothing changed");
    let out = mentat(
        fresh.url.clone(),
        &["restore", "-", "--as", "demo-copy"],
        Some(file.clone()),
    )
    .await;
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let second = db::events::by_slug(&restored, "demo-copy")
        .await
        .expect("read")
        .expect("beside it");
    // Beside the event it copies, the copy's name tells them apart; the statistics across
    // events count the event once.
    assert!(
        second.name.starts_with(&copy.name) && second.name.contains("(restored 20"),
        "{}",
        second.name
    );
    let counted_events = db::statistics::counted_events(&restored)
        .await
        .expect("events");
    assert_eq!(counted_events.len(), 1, "{counted_events:?}");
    assert_eq!(
        counted_events[0].0, second.id,
        "of two copies (the original is on another server), the latest counts"
    );
    assert_eq!(
        standings_seen(
            &standings::event_standings(&restored, second.id)
                .await
                .expect("standings")
        ),
        standings_seen(&before)
    );
    let out = mentat(
        fresh.url.clone(),
        &["restore", "-", "--replace"],
        Some(file.clone()),
    )
    .await;
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("replaced"));
    let replaced = db::events::by_slug(&restored, &slug)
        .await
        .expect("read")
        .expect("replaced");
    assert_ne!(replaced.id, copy.id, "a new event took its place");
    assert_eq!(history(&restored, replaced.id).await, history_before);
    restored.close().await;
    fresh.drop_it().await;
}

/// The file, edited by `edit` and given the digest of its new content, as someone who knows
/// the format could: what the digest cannot catch, the consistency checks must.
fn edited(file: &[u8], edit: impl FnOnce(&mut Value)) -> Vec<u8> {
    let mut value: Value = serde_json::from_slice(file).expect("JSON");
    edit(&mut value);
    value["digest"] = backup::digest::of(&value).into();
    serde_json::to_vec_pretty(&value).expect("JSON")
}

/// The file, edited by `edit` and left with its old digest: a hand edit.
fn tampered(file: &[u8], edit: impl FnOnce(&mut Value)) -> Vec<u8> {
    let mut value: Value = serde_json::from_slice(file).expect("JSON");
    edit(&mut value);
    serde_json::to_vec(&value).expect("JSON")
}

#[sqlx::test(migrator = "server::database::MIGRATOR")]
async fn damaged_truncated_inconsistent_and_foreign_files_are_refused_and_change_nothing(
    pool: PgPool,
) {
    let (event_id, slug) = demo(&pool).await;
    let file = backup::to_json(&backup::dump(&pool, event_id).await.expect("dump")).expect("JSON");
    let admin = common::user(&pool, "restorer", true).await;
    let stranger = common::user(&pool, "stranger", false).await;
    let options = || RestoreOptions {
        as_slug: Some("copy".into()),
        replace: false,
        name: None,
    };
    let before = counts(&pool).await;

    let truncated = &file[..file.len() / 2];
    let e = backup::restore(&pool, Some(&admin), truncated, options())
        .await
        .expect_err("truncated");
    assert!(matches!(e, RestoreError::Truncated { .. }), "{e}");
    assert!(e.to_string().contains("cut off"));

    let damaged = String::from_utf8(file.clone())
        .expect("text")
        .replacen("\"players\":[", "\"players\":[,", 1)
        .into_bytes();
    let e = backup::restore(&pool, Some(&admin), &damaged, options())
        .await
        .expect_err("damaged");
    assert!(matches!(e, RestoreError::Damaged { .. }), "{e}");
    assert!(e.to_string().contains("line"), "{e}");

    let export = db::export::rows(&pool, event_id, db::export::Kind::Standings)
        .await
        .expect("export")
        .write(db::export::Format::Json)
        .expect("JSON");
    let e = backup::restore(&pool, Some(&admin), &export, options())
        .await
        .expect_err("foreign");
    assert!(matches!(e, RestoreError::Foreign(_)), "{e}");

    // A seat naming a player the file does not have.
    let ghost = edited(&file, |v| {
        v["rounds"][0]["tables"][0]["seats"][0]["player"] = 999.into()
    });
    let e = backup::restore(&pool, Some(&admin), &ghost, options())
        .await
        .expect_err("inconsistent");
    assert!(
        matches!(&e, RestoreError::Inconsistent(p) if p.iter().any(|m| m.contains("999"))),
        "{e}"
    );

    // A final report's result moved to another seat: the file's standings no longer follow.
    let moved = edited(&file, |v| {
        // The latest revision of a table: the one the standings count.
        let report = v["rounds"][0]["tables"]
            .as_array_mut()
            .expect("tables")
            .iter_mut()
            .filter_map(|t| t["reports"].as_array_mut().expect("reports").last_mut())
            .find(|r| {
                r["ended"] == "win"
                    && r["seats"]
                        .as_array()
                        .expect("seats")
                        .iter()
                        .filter(|s| s["result"] == "SSH")
                        .count()
                        == 1
            })
            .expect("a solo stronghold win in round 1");
        let seats = report["seats"].as_array_mut().expect("seats");
        let winner = seats
            .iter()
            .position(|s| s["result"] == "SSH")
            .expect("winner");
        let other = (winner + 1) % seats.len();
        seats[winner]["result"] = Value::Null;
        seats[other]["result"] = "SSH".into();
        seats[other]["strongholds"] = 3.into();
    });
    let e = backup::restore(&pool, Some(&admin), &moved, options())
        .await
        .expect_err("standings differ");
    assert!(
        matches!(&e, RestoreError::Inconsistent(p) if p[0].contains("standings")),
        "{e}"
    );

    // Two players with one account: refused by the database half-way through the writing;
    // the accounts made until then go too.
    let shared = edited(&file, |v| {
        let players = v["players"].as_array_mut().expect("players");
        players[0]["account"] = "someone-new".into();
        players[1]["account"] = "someone-new".into();
    });
    let e = backup::restore(&pool, Some(&admin), &shared, options())
        .await
        .expect_err("one account, two players");
    assert!(matches!(e, RestoreError::Inconsistent(_)), "{e}");

    // Over the event itself without asking, and by someone who does not organise it.
    let e = backup::restore(&pool, Some(&admin), &file, RestoreOptions::default())
        .await
        .expect_err("exists");
    assert!(
        matches!(e, RestoreError::Exists(ref s) if *s == slug),
        "{e}"
    );
    let e = backup::restore(
        &pool,
        Some(&stranger),
        &file,
        RestoreOptions {
            as_slug: None,
            replace: true,
            name: None,
        },
    )
    .await
    .expect_err("not theirs");
    assert!(matches!(e, RestoreError::Forbidden(_)), "{e}");
    assert_eq!(
        counts(&pool).await,
        before,
        "no refused file changed anything"
    );

    // The untouched file restores.
    let restored = backup::restore(&pool, Some(&admin), &file, options())
        .await
        .expect("restored");
    assert_eq!(restored.event.slug, "copy");
    assert!(
        restored.created_accounts.is_empty(),
        "every account exists here"
    );
    assert_eq!(
        db::roles::role_of(&pool, admin.user_id, restored.event.id)
            .await
            .expect("role"),
        Some(db::roles::Role::Organiser),
        "whoever restores organises the copy"
    );
}

#[sqlx::test(migrator = "server::database::MIGRATOR")]
async fn a_file_changed_by_hand_is_refused_by_its_digest_and_an_old_file_restores_with_a_warning(
    pool: PgPool,
) {
    let (event_id, _) = demo(&pool).await;
    let file = backup::to_json(&backup::dump(&pool, event_id).await.expect("dump")).expect("JSON");
    let admin = common::user(&pool, "restorer", true).await;
    let options = || RestoreOptions {
        as_slug: Some("copy".into()),
        replace: false,
        name: None,
    };
    let before = counts(&pool).await;

    // One value changed: a player's forces, 12 → 13 (or whatever it was, plus one).
    let forces_up = tampered(&file, |v| {
        let seat = &mut v["rounds"][0]["tables"][0]["reports"][0]["seats"][0]["forces"];
        *seat = (seat.as_u64().expect("forces") + 1).into();
    });
    let e = backup::restore(&pool, Some(&admin), &forces_up, options())
        .await
        .expect_err("altered");
    assert!(matches!(e, RestoreError::Altered(_)), "{e}");
    assert!(
        e.to_string().contains("changed after Mentat wrote it"),
        "{e}"
    );
    assert_eq!(e.field(), Some("file"));
    // The command line says the same, and exits 2.
    let out = mentat(
        url_of(&pool),
        &["restore", "-", "--as", "copy"],
        Some(forces_up),
    )
    .await;
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("digest"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // A format 2 file whose digest was taken out.
    let stripped = tampered(&file, |v| {
        v.as_object_mut().expect("object").remove("digest");
    });
    let e = backup::restore(&pool, Some(&admin), &stripped, options())
        .await
        .expect_err("no digest");
    assert!(matches!(e, RestoreError::DigestMissing(2)), "{e}");

    // Single-bit flips anywhere in the file: each is refused, or (a flip that leaves the same
    // content, such as the case of a hex digit in an escape) reads as exactly the same event.
    let original = backup::parse(&file).expect("the file reads").backup;
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut refused = 0;
    for _ in 0..150 {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let bit = usize::try_from(state % (file.len() as u64 * 8)).expect("fits");
        let mut flipped = file.clone();
        flipped[bit / 8] ^= 1 << (bit % 8);
        match backup::parse(&flipped) {
            Err(_) => refused += 1,
            Ok(parsed) => assert_eq!(
                parsed.backup,
                original,
                "a flip at byte {} was accepted with different content",
                bit / 8
            ),
        }
    }
    assert!(refused >= 140, "only {refused} of 150 flips refused");
    assert_eq!(
        counts(&pool).await,
        before,
        "no refused file changed anything"
    );

    // A file from before digests (format 1): restored, with a warning that says why.
    let old = tampered(&file, |v| {
        v.as_object_mut().expect("object").remove("digest");
        v["version"] = 1.into();
    });
    let restored = backup::restore(&pool, Some(&admin), &old, options())
        .await
        .expect("an old file restores");
    assert_eq!(restored.warnings.len(), 1);
    assert!(
        restored.warnings[0].contains("no digest"),
        "{:?}",
        restored.warnings
    );
    // Restored beside its original, under a name that tells them apart; a name can be chosen.
    assert!(
        restored.event.name.contains("(restored "),
        "{}",
        restored.event.name
    );
    let named = backup::restore(
        &pool,
        Some(&admin),
        &file,
        RestoreOptions {
            as_slug: Some("copy-2".into()),
            replace: false,
            name: Some("Qualifier rehearsal".into()),
        },
    )
    .await
    .expect("restored under a chosen name");
    assert_eq!(named.event.name, "Qualifier rehearsal");
    assert!(named.warnings.is_empty());
    // Two copies beside their original: the statistics across events count the original once.
    let counted = db::statistics::counted_events(&pool).await.expect("events");
    assert_eq!(
        counted.iter().map(|(id, _)| *id).collect::<Vec<_>>(),
        [event_id]
    );
}
