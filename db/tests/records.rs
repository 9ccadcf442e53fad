//! Nothing recorded is ever lost: every path that deletes a round's tables, a player or a
//! dispute's standing either refuses while something is recorded, or names what it removes,
//! asks, and keeps a full copy in its audit entry. Against a real PostgreSQL.

mod support;

use db::{
    PgPool,
    results::{
        attempts::{self, Attempt, TurnEntry},
        disputes::DisputeState,
        logs::{self, LogEntry},
        reports::{self, Answer, Answerer, Draft, SeatResult},
    },
    roles::Actor,
    rounds::{self, RoundError, TableInfo},
};
use dune::{Spice, WinType};
use support::*;
use tournament::EndValues;
use tournament::ids::{EventId, Revision, RoundNumber};
use tournament::report::Ending;

const ROUND: RoundNumber = RoundNumber(1);

/// Round 1 of twelve players, drawn and not begun: its tables.
async fn drawn(pool: &PgPool, admin: &Actor, event_id: EventId) -> Vec<TableInfo> {
    players(pool, admin, event_id, 12).await;
    start(pool, admin, event_id, 1, 11).await;
    rounds::detail(pool, event_id, ROUND)
        .await
        .unwrap()
        .unwrap()
        .tables
}

async fn version(pool: &PgPool, event_id: EventId) -> i32 {
    rounds::detail(pool, event_id, ROUND)
        .await
        .unwrap()
        .unwrap()
        .round
        .version
}

/// The first seat wins alone with three strongholds on turn 5.
fn win(table: &TableInfo, forces: u32) -> Draft {
    Draft {
        ended: Ending::Win,
        last_turn: 5,
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
                    strongholds: if i == 0 { 3 } else { 1 },
                    forces,
                    spice: Spice::new(4),
                    cards: 2,
                    leaders: 3,
                },
            })
            .collect(),
        judge_draw: None,
        prediction: None,
    }
}

async fn save(pool: &PgPool, admin: &Actor, event_id: EventId, table: &TableInfo) -> Revision {
    reports::save(
        pool,
        admin,
        false,
        event_id,
        ROUND,
        table.number,
        Revision::NONE,
        &win(table, 12),
        None,
    )
    .await
    .expect("a report saved before play began")
}

async fn report_count(pool: &PgPool, event_id: EventId) -> i64 {
    sqlx::query_scalar(
        "SELECT count(*) FROM game_reports g JOIN game_tables t ON t.id = g.table_id \
         JOIN rounds r ON r.id = t.round_id WHERE r.event_id = $1",
    )
    .bind(event_id)
    .fetch_one(pool)
    .await
    .unwrap()
}

async fn last_entry(pool: &PgPool, event_id: EventId, action: &str) -> Option<db::audit::Row> {
    db::audit::list(pool, Some(event_id), 1000)
        .await
        .unwrap()
        .into_iter()
        .find(|r| r.action == action)
}

#[sqlx::test(migrator = "db::MIGRATOR")]
async fn a_redraw_is_refused_while_a_report_attempt_or_log_is_recorded(pool: PgPool) {
    let (admin, event) = event(&pool).await;
    let tables = drawn(&pool, &admin, event.id).await;

    // A win attempt alone is enough to hold the draw.
    attempts::record(
        &pool,
        &admin,
        false,
        event.id,
        ROUND,
        tables[1].number,
        TurnEntry {
            turn: 2,
            base_revision: Revision::NONE,
            attempts: vec![Attempt {
                player_id: tables[1].seats[0].player_id,
                strongholds: vec![],
            }],
            reason: None,
        },
    )
    .await
    .expect("attempts recorded");
    let err = rounds::redraw(
        &pool,
        &admin,
        event.id,
        ROUND,
        version(&pool, event.id).await,
        None,
    )
    .await
    .unwrap_err();
    assert!(matches!(err, RoundError::RecordedRedraw { .. }), "{err}");
    assert!(
        err.to_string()
            .contains("table 2: win attempts recorded at turn 2"),
        "{err}"
    );

    // And a report, and a log.
    save(&pool, &admin, event.id, &tables[0]).await;
    logs::save(
        &pool,
        &admin,
        event.id,
        ROUND,
        tables[0].number,
        LogEntry {
            body: "[Round \"1\"]\n".into(),
            base_revision: Revision::NONE,
            reason: None,
            source: None,
        },
    )
    .await
    .expect("log saved");
    let before = rounds::detail(&pool, event.id, ROUND)
        .await
        .unwrap()
        .unwrap();
    let err = rounds::redraw(&pool, &admin, event.id, ROUND, before.round.version, None)
        .await
        .unwrap_err();
    let said = err.to_string();
    assert!(
        said.contains("table 1: the Game Report (revision 1, saved by admin)")
            && said.contains("the game log (1 revision)")
            && said.contains("cancel it"),
        "{said}"
    );
    let after = rounds::detail(&pool, event.id, ROUND)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(after.round.seed, before.round.seed, "nothing was redrawn");
    assert_eq!(
        report_count(&pool, event.id).await,
        1,
        "the report is still there"
    );
    assert!(last_entry(&pool, event.id, "round_redrawn").await.is_none());
    // The page reads the same list.
    let recorded = rounds::recorded(&pool, event.id, ROUND).await.unwrap();
    assert_eq!(recorded.sentences().len(), 2);

    // A swap touching a table with records is refused too; one between two clean seats of
    // the same clean table would be allowed, but there is none left here with 12 players.
    let err = rounds::swap(
        &pool,
        &admin,
        event.id,
        ROUND,
        after.round.version,
        tables[0].seats[0].player_id,
        tables[1].seats[0].player_id,
    )
    .await
    .unwrap_err();
    assert!(matches!(err, RoundError::RecordedSwap { .. }), "{err}");
}

#[sqlx::test(migrator = "db::MIGRATOR")]
async fn cancelling_a_round_with_records_asks_and_its_audit_entry_keeps_them(pool: PgPool) {
    let (admin, event) = event(&pool).await;
    let tables = drawn(&pool, &admin, event.id).await;
    save(&pool, &admin, event.id, &tables[0]).await;
    let v = version(&pool, event.id).await;
    let err = rounds::cancel(&pool, &admin, event.id, ROUND, v, false)
        .await
        .unwrap_err();
    match &err {
        RoundError::Field { field, message } => {
            assert_eq!(*field, "confirm");
            assert!(message.contains("table 1: the Game Report"), "{message}");
            assert!(message.contains("Tick the box"), "{message}");
        }
        other => panic!("expected a confirmation, got {other}"),
    }
    assert_eq!(
        report_count(&pool, event.id).await,
        1,
        "nothing removed yet"
    );

    rounds::cancel(&pool, &admin, event.id, ROUND, v, true)
        .await
        .expect("cancelled once confirmed");
    assert_eq!(report_count(&pool, event.id).await, 0);
    let entry = last_entry(&pool, event.id, "round_cancelled")
        .await
        .expect("the cancellation is audited");
    let removed = entry.detail["removed"]
        .as_array()
        .expect("what went, in words");
    assert!(removed[0].as_str().unwrap().contains("the Game Report"));
    let report = &entry.detail["records"][0]["reports"][0];
    assert_eq!(report["revision"], 1);
    assert_eq!(
        report["seats"][0]["strongholds"], 3,
        "the values themselves are kept"
    );
    assert_eq!(report["seats"][0]["forces"], 12);
    assert_eq!(report["saved_by"], "admin");

    // A round with nothing recorded cancels without asking, as before.
    start(&pool, &admin, event.id, 1, 12).await;
    rounds::cancel(
        &pool,
        &admin,
        event.id,
        ROUND,
        version(&pool, event.id).await,
        false,
    )
    .await
    .expect("nothing to lose");
}

#[sqlx::test(migrator = "db::MIGRATOR")]
async fn deleting_a_player_keeps_every_detail_in_the_audit_log_and_never_a_seated_one(
    pool: PgPool,
) {
    let (admin, event) = event(&pool).await;
    let tables = drawn(&pool, &admin, event.id).await;
    let seated = db::players::get(&pool, event.id, tables[0].seats[0].player_id)
        .await
        .unwrap()
        .unwrap();
    let err = db::players::delete(&pool, &admin, event.id, seated.id, seated.version)
        .await
        .unwrap_err();
    assert!(err.to_string().contains("round 1, table 1"), "{err}");

    let late = db::players::add(
        &pool,
        &admin,
        event.id,
        db::players::NewPlayer::parse("Late Comer", "late@example.org", "Sietch Tabr").unwrap(),
    )
    .await
    .unwrap();
    db::players::delete(&pool, &admin, event.id, late.id, late.version)
        .await
        .expect("a player never seated goes");
    let entry = last_entry(&pool, event.id, "player_deleted")
        .await
        .expect("audited");
    assert_eq!(entry.subject.as_deref(), Some("Late Comer"));
    assert_eq!(entry.detail["email"], "late@example.org");
    assert_eq!(entry.detail["club"], "Sietch Tabr");
    assert_eq!(entry.detail["checked_in"], false);
    assert_eq!(entry.detail["entered_after_round"], 1);
    assert!(entry.detail["claim_codes"].is_array());
}

#[sqlx::test(migrator = "db::MIGRATOR")]
async fn a_new_revision_settles_an_open_dispute_explicitly_and_tells_the_player(pool: PgPool) {
    let (admin, event) = event(&pool).await;
    let tables = drawn(&pool, &admin, event.id).await;
    let table = &tables[0];
    save(&pool, &admin, event.id, table).await;
    let disputer = table.seats[1].player_id;
    reports::answer(
        &pool,
        &admin,
        event.id,
        &Answer {
            round: ROUND,
            table: table.number,
            revision: Revision(1),
            player_id: disputer,
            agrees: false,
            note: Some("I had 14 forces".into()),
            answerer: Answerer::Judge,
        },
    )
    .await
    .unwrap();
    let head = user(&pool, "head", false).await;
    db::roles::grant(&pool, &admin, event.id, "head", db::roles::Role::HeadJudge)
        .await
        .unwrap();
    reports::save(
        &pool,
        &head,
        true,
        event.id,
        ROUND,
        table.number,
        Revision(1),
        &win(table, 14),
        Some("forces corrected"),
    )
    .await
    .expect("revision 2");

    let results = reports::table_results(&pool, event.id, ROUND, table.number)
        .await
        .unwrap();
    let first = results.revisions.last().expect("revision 1 is kept");
    assert_eq!(first.revision, Revision(1));
    let dispute = first
        .confirmations
        .iter()
        .find(|c| c.player_id == disputer)
        .expect("the dispute is kept");
    match &dispute.dispute {
        Some(DisputeState::Resolved {
            by,
            note,
            finalised,
            ..
        }) => {
            assert_eq!(by.as_deref(), Some("head"));
            assert!(
                note.contains("revision 2") && note.contains("forces corrected"),
                "{note}"
            );
            assert!(!finalised);
        }
        other => panic!("the dispute is settled, not {other:?}"),
    }
    assert!(!dispute.is_open_dispute());
    let entry = last_entry(&pool, event.id, "dispute_resolved")
        .await
        .expect("audited");
    assert_eq!(entry.detail["superseded_by"], 2);
    assert_eq!(entry.detail["revision"], 1);
    // The player's card says so, beside the new revision to confirm.
    let waiting = reports::awaiting_for(&pool, event.id, disputer)
        .await
        .unwrap();
    assert_eq!(waiting[0].revision, Revision(2));
    assert!(
        waiting[0]
            .settled
            .as_deref()
            .is_some_and(|n| n.contains("revision 2")),
        "{:?}",
        waiting[0].settled
    );
    // Another player, who had not disputed, is told nothing of it.
    let other = reports::awaiting_for(&pool, event.id, table.seats[2].player_id)
        .await
        .unwrap();
    assert!(other[0].settled.is_none());
}
