//! Disputes reach a judge, against a real PostgreSQL: the dashboard's queue (open disputes,
//! reports awaiting confirmation, tables over time), taking a dispute (a second judge is told
//! who has it), resolving it with a note, and the audit trail.

mod support;

use db::{
    PgPool,
    results::{
        ResultsError,
        disputes::{self, DisputeKey, DisputeState, Resolution},
        queue::{self, Item},
        reports::{self, Answer, Answerer, Draft, SeatResult},
    },
    roles::{self, Actor, Role},
    rounds::{self, TableInfo},
};
use dune::WinType;
use support::*;
use tournament::ids::{EventId, PlayerId, Revision, RoundNumber};
use tournament::report::{Ending, ReportStatus as Status};

const ROUND: RoundNumber = RoundNumber(1);

/// Twelve players, round 1 drawn and begun (two tables of six); a judge and a second judge.
async fn setting(pool: &PgPool) -> (Actor, Actor, Actor, EventId, Vec<TableInfo>) {
    let (admin, event) = event(pool).await;
    players(pool, &admin, event.id, 12).await;
    start(pool, &admin, event.id, 1, 7).await;
    let detail = rounds::detail(pool, event.id, ROUND)
        .await
        .unwrap()
        .unwrap();
    rounds::begin(pool, &admin, event.id, ROUND, detail.round.version)
        .await
        .unwrap();
    let jude = user(pool, "jude", false).await;
    let kim = user(pool, "kim", false).await;
    for name in ["jude", "kim"] {
        roles::grant(pool, &admin, event.id, name, Role::Judge)
            .await
            .unwrap();
    }
    (admin, jude, kim, event.id, detail.tables)
}

fn draft(table: &TableInfo) -> Draft {
    Draft {
        ended: Ending::Win,
        last_turn: 5,
        seats: table
            .seats
            .iter()
            .enumerate()
            .map(|(i, s)| SeatResult {
                player_id: s.player_id,
                faction: s.faction.unwrap(),
                ally: None,
                result: (i == 0).then_some(WinType::SoloStronghold),
                // The three strongholds a Solo Stronghold Victory takes (1.09.02.01).
                end: tournament::EndValues {
                    strongholds: if i == 0 { 3 } else { 0 },
                    ..tournament::EndValues::default()
                },
            })
            .collect(),
        judge_draw: None,
        prediction: None,
    }
}

async fn save(pool: &PgPool, judge: &Actor, event_id: EventId, table: &TableInfo, base: i32) {
    reports::save(
        pool,
        judge,
        false,
        event_id,
        ROUND,
        table.number,
        Revision(base),
        &draft(table),
        None,
    )
    .await
    .expect("saved");
}

async fn reply(
    pool: &PgPool,
    judge: &Actor,
    event_id: EventId,
    table: &TableInfo,
    revision: i32,
    player: PlayerId,
    note: Option<&str>,
) {
    let answer = Answer {
        round: ROUND,
        table: table.number,
        revision: Revision(revision),
        player_id: player,
        agrees: note.is_none(),
        note: note.map(str::to_owned),
        answerer: Answerer::Judge,
    };
    reports::answer(pool, judge, event_id, &answer)
        .await
        .expect("answered");
}

fn key(table: &TableInfo, revision: i32, player: PlayerId) -> DisputeKey {
    DisputeKey {
        round: ROUND,
        table: table.number,
        revision: Revision(revision),
        player_id: player,
    }
}

#[sqlx::test(migrator = "db::MIGRATOR")]
async fn the_queue_holds_disputes_reports_awaiting_confirmation_and_tables_over_time(pool: PgPool) {
    let (_admin, jude, _kim, event_id, tables) = setting(&pool).await;
    let (t1, t2) = (&tables[0], &tables[1]);
    assert!(
        queue::queue(&pool, event_id)
            .await
            .unwrap()
            .items
            .is_empty()
    );

    // Table 1 has a report: two players agree, one disputes.
    save(&pool, &jude, event_id, t1, 0).await;
    reply(&pool, &jude, event_id, t1, 1, t1.seats[0].player_id, None).await;
    reply(&pool, &jude, event_id, t1, 1, t1.seats[1].player_id, None).await;
    let q = queue::queue(&pool, event_id).await.unwrap();
    assert_eq!(
        q.items,
        [Item::Awaiting {
            round: ROUND,
            table: t1.number,
            revision: Revision(1),
            waiting_for: t1.seats[2..].iter().map(|s| s.player.clone()).collect(),
            confirmed: 2,
            seated: 6,
        }]
    );
    let disputer = &t1.seats[2];
    reply(
        &pool,
        &jude,
        event_id,
        t1,
        1,
        disputer.player_id,
        Some("I had 4 spice"),
    )
    .await;

    // Table 2's clock ran past its six hours with no report.
    sqlx::query(
        "UPDATE game_tables SET clock_started_at = now() - interval '6 hours 10 minutes' WHERE id = $1",
    )
    .bind(t2.id)
    .execute(&pool)
    .await
    .unwrap();
    let q = queue::queue(&pool, event_id).await.unwrap();
    assert_eq!(q.items.len(), 2, "{:?}", q.items);
    match &q.items[0] {
        Item::Dispute {
            table,
            revision,
            player,
            note,
            taken_by,
            ..
        } => {
            assert_eq!(*table, t1.number);
            assert_eq!(*revision, Revision(1));
            assert_eq!(player, &disputer.player);
            assert_eq!(note.as_deref(), Some("I had 4 spice"));
            assert_eq!(*taken_by, None);
        }
        other => panic!("a dispute first, not {other:?}"),
    }
    match &q.items[1] {
        Item::OverTime {
            table,
            phase,
            over_ms,
            ..
        } => {
            assert_eq!(*table, t2.number);
            assert_eq!(*phase, tournament::clock::Phase::FinishWindow);
            assert!(*over_ms >= 10 * 60_000);
        }
        other => panic!("table 2 over time, not {other:?}"),
    }
    assert_eq!(q.disputes(), 1);

    // A final report leaves the queue.
    sqlx::query("UPDATE game_tables SET reported_at = now() WHERE id = $1")
        .bind(t2.id)
        .execute(&pool)
        .await
        .unwrap();
    let q = queue::queue(&pool, event_id).await.unwrap();
    assert_eq!(q.items.len(), 1);
}

#[sqlx::test(migrator = "db::MIGRATOR")]
async fn a_judge_takes_a_dispute_and_a_second_judge_is_told_who_has_it(pool: PgPool) {
    let (_admin, jude, kim, event_id, tables) = setting(&pool).await;
    let t = &tables[0];
    let disputer = t.seats[3].player_id;
    save(&pool, &jude, event_id, t, 0).await;

    // Nothing to take before the player disputes.
    let err = disputes::take(&pool, &kim, event_id, key(t, 1, disputer))
        .await
        .unwrap_err();
    assert!(matches!(err, ResultsError::State(_)), "{err}");

    reply(
        &pool,
        &jude,
        event_id,
        t,
        1,
        disputer,
        Some("The winner was my ally"),
    )
    .await;
    disputes::take(&pool, &jude, event_id, key(t, 1, disputer))
        .await
        .expect("taken");
    // Taking it again is harmless; the second judge is refused with the first one's name.
    disputes::take(&pool, &jude, event_id, key(t, 1, disputer))
        .await
        .expect("still Jude's");
    let err = disputes::take(&pool, &kim, event_id, key(t, 1, disputer))
        .await
        .unwrap_err();
    assert!(
        matches!(&err, ResultsError::Taken { by } if by == "jude"),
        "{err:?}"
    );
    assert!(err.to_string().starts_with("jude has taken this dispute"));
    assert!(err.is_conflict());
    // Nor may Kim resolve it; the queue shows whose it is.
    let err = disputes::resolve(
        &pool,
        &kim,
        false,
        event_id,
        key(t, 1, disputer),
        &Resolution {
            note: "fine".into(),
            finalise: false,
        },
    )
    .await
    .unwrap_err();
    assert!(matches!(&err, ResultsError::Taken { by } if by == "jude"));
    let q = queue::queue(&pool, event_id).await.unwrap();
    assert!(matches!(&q.items[0], Item::Dispute { taken_by: Some(by), .. } if by == "jude"));
    let results = reports::table_results(&pool, event_id, ROUND, t.number)
        .await
        .unwrap();
    assert_eq!(results.status, Status::Disputed);
    assert!(matches!(
        &results.revisions[0].confirmations[0].dispute,
        Some(DisputeState::Taken { by: Some(by), .. }) if by == "jude"
    ));
}

#[sqlx::test(migrator = "db::MIGRATOR")]
async fn a_dispute_is_resolved_with_a_note_and_the_head_judge_may_make_the_report_final(
    pool: PgPool,
) {
    let (admin, jude, _kim, event_id, tables) = setting(&pool).await;
    let (t1, t2) = (&tables[0], &tables[1]);
    let p1 = t1.seats[1].player_id;
    save(&pool, &jude, event_id, t1, 0).await;
    reply(&pool, &jude, event_id, t1, 1, p1, Some("Wrong spice count")).await;

    // A note is required, and a judge cannot make the report final (4.01.05).
    let blank = Resolution {
        note: "  ".into(),
        finalise: false,
    };
    let err = disputes::resolve(&pool, &jude, false, event_id, key(t1, 1, p1), &blank)
        .await
        .unwrap_err();
    assert!(
        matches!(&err, ResultsError::Invalid(p) if p[0].field == db::results::Field::Named("resolution"))
    );
    let final_by_judge = Resolution {
        note: "Counted again: 5 is right".into(),
        finalise: true,
    };
    let err = disputes::resolve(
        &pool,
        &jude,
        false,
        event_id,
        key(t1, 1, p1),
        &final_by_judge,
    )
    .await
    .unwrap_err();
    assert!(matches!(err, ResultsError::Forbidden(_)));

    // Resolving without making it final: the dispute leaves the queue, the report waits for
    // the player's confirmation again.
    let talked = Resolution {
        note: "Counted the spice together; the player will confirm".into(),
        finalise: false,
    };
    let is_final = disputes::resolve(&pool, &jude, false, event_id, key(t1, 1, p1), &talked)
        .await
        .expect("resolved");
    assert!(!is_final);
    let results = reports::table_results(&pool, event_id, ROUND, t1.number)
        .await
        .unwrap();
    assert!(
        matches!(results.status, Status::Awaiting { .. }),
        "{:?}",
        results.status
    );
    assert!(matches!(
        &results.revisions[0].confirmations[0].dispute,
        Some(DisputeState::Resolved { note, by: Some(by), finalised: false, .. })
            if note == "Counted the spice together; the player will confirm" && by == "jude"
    ));
    let err = disputes::resolve(&pool, &jude, false, event_id, key(t1, 1, p1), &talked)
        .await
        .unwrap_err();
    assert!(err.to_string().contains("resolved this dispute already"));
    assert!(matches!(
        queue::queue(&pool, event_id).await.unwrap().items[0],
        Item::Awaiting { .. }
    ));
    // Disputing again opens it anew.
    reply(&pool, &jude, event_id, t1, 1, p1, Some("Still wrong")).await;
    let q = queue::queue(&pool, event_id).await.unwrap();
    assert!(
        matches!(&q.items[0], Item::Dispute { note: Some(n), taken_by: None, .. } if n == "Still wrong")
    );

    // The head judge resolves a dispute by making the report final: it counts at once.
    let p2 = t2.seats[0].player_id;
    save(&pool, &jude, event_id, t2, 0).await;
    reply(&pool, &jude, event_id, t2, 1, p2, Some("I won, not them")).await;
    let is_final = disputes::resolve(
        &pool,
        &admin,
        true,
        event_id,
        key(t2, 1, p2),
        &Resolution {
            note: "The log shows the win is seat 1's".into(),
            finalise: true,
        },
    )
    .await
    .expect("resolved");
    assert!(is_final);
    let results = reports::table_results(&pool, event_id, ROUND, t2.number)
        .await
        .unwrap();
    assert_eq!(results.status, Status::Final);
    assert_eq!(results.revisions[0].finalised_by.as_deref(), Some("admin"));

    // Every step is in the audit log with its note; nothing was overwritten.
    let actions = audit_actions(&pool, event_id).await;
    assert_eq!(
        actions.iter().filter(|a| *a == "dispute_resolved").count(),
        2
    );
    let rows = db::audit::list(&pool, Some(event_id), 100).await.unwrap();
    assert!(rows.iter().any(|r| r.action == "dispute_resolved"
        && r.detail["note"] == "The log shows the win is seat 1's"
        && r.detail["final"] == true));
    let steps: i64 = sqlx::query_scalar("SELECT count(*) FROM dispute_steps")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(steps, 2, "two resolutions, each its own row");
}

#[sqlx::test(migrator = "db::MIGRATOR")]
async fn a_player_sees_the_report_that_awaits_their_confirmation(pool: PgPool) {
    let (_admin, jude, _kim, event_id, tables) = setting(&pool).await;
    let t = &tables[0];
    let me = t.seats[2].player_id;
    assert!(
        reports::awaiting_for(&pool, event_id, me)
            .await
            .unwrap()
            .is_empty()
    );
    save(&pool, &jude, event_id, t, 0).await;
    let waiting = reports::awaiting_for(&pool, event_id, me).await.unwrap();
    assert_eq!(waiting.len(), 1);
    let w = &waiting[0];
    assert_eq!(
        (w.round, w.table, w.revision),
        (ROUND, t.number, Revision(1))
    );
    assert_eq!(w.seats.len(), 6);
    assert_eq!(w.seats[0].result, Some(WinType::SoloStronghold));
    assert_eq!(w.answer, None);
    // Someone else's answer does not settle mine; my own does.
    reply(&pool, &jude, event_id, t, 1, t.seats[0].player_id, None).await;
    assert_eq!(
        reports::awaiting_for(&pool, event_id, me)
            .await
            .unwrap()
            .len(),
        1
    );
    reply(&pool, &jude, event_id, t, 1, me, None).await;
    let waiting = reports::awaiting_for(&pool, event_id, me).await.unwrap();
    assert_eq!(
        waiting[0].answer,
        Some(true),
        "shown as confirmed until it is final"
    );
    // Players at another table see nothing.
    let other = tables[1].seats[0].player_id;
    assert!(
        reports::awaiting_for(&pool, event_id, other)
            .await
            .unwrap()
            .is_empty()
    );
}

#[sqlx::test(migrator = "db::MIGRATOR")]
async fn a_backup_carries_the_disputes_and_a_restore_puts_them_back(pool: PgPool) {
    use db::backup;
    let (admin, jude, _kim, event_id, tables) = setting(&pool).await;
    let t = &tables[0];
    let p = t.seats[1].player_id;
    save(&pool, &jude, event_id, t, 0).await;
    reply(&pool, &jude, event_id, t, 1, p, Some("Wrong spice")).await;
    disputes::take(&pool, &jude, event_id, key(t, 1, p))
        .await
        .unwrap();
    disputes::resolve(
        &pool,
        &jude,
        false,
        event_id,
        key(t, 1, p),
        &Resolution {
            note: "Spice counted again".into(),
            finalise: false,
        },
    )
    .await
    .unwrap();
    let file = backup::to_json(&backup::dump(&pool, event_id).await.unwrap()).unwrap();
    let restored = backup::restore(
        &pool,
        Some(&admin),
        &file,
        backup::RestoreOptions {
            as_slug: Some("restored".into()),
            replace: false,
            name: None,
        },
    )
    .await
    .expect("restored");
    let results = reports::table_results(&pool, restored.event.id, ROUND, t.number)
        .await
        .unwrap();
    let answer = results.revisions[0]
        .confirmations
        .iter()
        .find(|c| !c.agrees)
        .expect("the dispute");
    assert!(matches!(
        &answer.dispute,
        Some(DisputeState::Resolved { note, by: Some(by), .. }) if note == "Spice counted again" && by == "jude"
    ));
}
