//! Game logs against a real PostgreSQL: every save a revision with who, when and why; stale pages
//! refused; who may read and write by role and seat; the final report's lock.

mod support;

use db::{
    PgPool, players,
    results::{
        Field, ResultsError,
        logs::{self, LogEntry},
    },
    roles::{self, Role},
    rounds,
};
use support::*;
use tournament::ids::{EventId, Revision, RoundNumber, TableNumber};

const ROUND: RoundNumber = RoundNumber(1);
const TURN0: &str = "[Factions \"1=AT 2=HK\"]\nT0\nSTORM0 HK 1 AT 2 -> 4\n";

fn entry(body: &str, base: i32, reason: Option<&str>) -> LogEntry {
    LogEntry {
        body: body.to_owned(),
        base_revision: Revision(base),
        reason: reason.map(str::to_owned),
        source: None,
    }
}

/// An event with six players, round 1 drawn and begun: its one table's number.
async fn one_table(pool: &PgPool, admin: &db::roles::Actor, event_id: EventId) -> TableNumber {
    players(pool, admin, event_id, 6).await;
    start(pool, admin, event_id, 1, 7).await;
    let detail = rounds::detail(pool, event_id, ROUND)
        .await
        .unwrap()
        .unwrap();
    rounds::begin(pool, admin, event_id, ROUND, detail.round.version)
        .await
        .expect("begun");
    detail.tables[0].number
}

#[sqlx::test(migrator = "db::MIGRATOR")]
async fn every_save_is_a_revision_and_changed_lines_need_a_reason(pool: PgPool) {
    let (admin, event) = event(&pool).await;
    let table = one_table(&pool, &admin, event.id).await;
    let judge = user(&pool, "jude", false).await;
    roles::grant(&pool, &admin, event.id, "jude", Role::Judge)
        .await
        .unwrap();

    let r1 = logs::save(&pool, &judge, event.id, ROUND, table, entry(TURN0, 0, None))
        .await
        .unwrap();
    assert_eq!(r1, Revision(1));
    // Continuing the game needs no reason.
    let more = format!("{TURN0}T1\n");
    let r2 = logs::save(&pool, &judge, event.id, ROUND, table, entry(&more, 1, None))
        .await
        .unwrap();
    assert_eq!(r2, Revision(2));
    // Saving what is there already is refused, at the log.
    let err = logs::save(&pool, &judge, event.id, ROUND, table, entry(&more, 2, None))
        .await
        .unwrap_err();
    assert!(
        matches!(&err, ResultsError::Invalid(p) if p[0].field == Field::Named("log")),
        "{err:?}"
    );
    // Changing a saved line needs a reason, named at the reason field.
    let edited = more.replace("-> 4", "-> 5");
    let err = logs::save(
        &pool,
        &judge,
        event.id,
        ROUND,
        table,
        entry(&edited, 2, None),
    )
    .await
    .unwrap_err();
    assert!(
        matches!(&err, ResultsError::Invalid(p) if p[0].field == Field::Named("reason")),
        "{err:?}"
    );
    logs::save(
        &pool,
        &judge,
        event.id,
        ROUND,
        table,
        entry(&edited, 2, Some("the dials were 1 and 3")),
    )
    .await
    .unwrap();
    // A page that still shows revision 2 is told who saved revision 3; nothing is written.
    let err = logs::save(
        &pool,
        &admin,
        event.id,
        ROUND,
        table,
        entry("T0\n", 2, Some("x")),
    )
    .await
    .unwrap_err();
    assert!(err.is_conflict());
    assert!(err.to_string().contains("jude saved revision 3"), "{err}");

    let log = logs::table_log(&pool, event.id, ROUND, table)
        .await
        .unwrap();
    let revisions: Vec<(i32, Option<&str>, Option<&str>)> = log
        .revisions
        .iter()
        .map(|r| (r.revision.0, r.reason.as_deref(), r.created_by.as_deref()))
        .collect();
    assert_eq!(
        revisions,
        [
            (3, Some("the dials were 1 and 3"), Some("jude")),
            (2, None, Some("jude")),
            (1, None, Some("jude")),
        ]
    );
    assert_eq!(
        log.revisions[2].body, TURN0,
        "earlier revisions are kept whole"
    );
    assert_eq!(log.latest().unwrap().body, edited);
    let actions = audit_actions(&pool, event.id).await;
    assert_eq!(actions.iter().filter(|a| *a == "game_log_saved").count(), 3);
}

#[sqlx::test(migrator = "db::MIGRATOR")]
async fn judges_write_players_read_their_own_final_log_and_the_head_judge_corrects(pool: PgPool) {
    let (admin, event) = event(&pool).await;
    let table = one_table(&pool, &admin, event.id).await;
    let judge = user(&pool, "jude", false).await;
    let head = user(&pool, "hedda", false).await;
    let seated = user(&pool, "sam", false).await;
    let other = user(&pool, "olga", false).await;
    let stranger = user(&pool, "stan", false).await;
    roles::grant(&pool, &admin, event.id, "jude", Role::Judge)
        .await
        .unwrap();
    roles::grant(&pool, &admin, event.id, "hedda", Role::HeadJudge)
        .await
        .unwrap();
    roles::grant(&pool, &admin, event.id, "sam", Role::Player)
        .await
        .unwrap();
    roles::grant(&pool, &admin, event.id, "olga", Role::Player)
        .await
        .unwrap();
    // Sam sits at the table (first seat); Olga is a player of the event seated elsewhere.
    let detail = rounds::detail(&pool, event.id, ROUND)
        .await
        .unwrap()
        .unwrap();
    let info = &detail.tables[0];
    let list = players::list(&pool, event.id).await.unwrap();
    let sam = list
        .iter()
        .find(|p| p.id == info.seats[0].player_id)
        .unwrap();
    players::link_account(&pool, &admin, event.id, sam.id, sam.version, "sam")
        .await
        .unwrap();

    // A player cannot write, even at their own table.
    let err = logs::save(
        &pool,
        &seated,
        event.id,
        ROUND,
        table,
        entry(TURN0, 0, None),
    )
    .await
    .unwrap_err();
    assert!(matches!(err, ResultsError::Forbidden(_)), "{err:?}");
    logs::save(&pool, &judge, event.id, ROUND, table, entry(TURN0, 0, None))
        .await
        .unwrap();

    let access = |who| {
        let pool = pool.clone();
        async move {
            let log = logs::table_log(&pool, event.id, ROUND, table)
                .await
                .unwrap();
            logs::access(&pool, who, &log.table).await.unwrap()
        }
    };
    let j = access(Some(&judge)).await;
    assert!(j.read && j.write);
    let s = access(Some(&seated)).await;
    assert!(
        s.seated && !s.read && !s.write,
        "not before the report is final: {s:?}"
    );
    assert!(!access(Some(&other)).await.read);
    assert!(!access(Some(&stranger)).await.read);
    assert!(!access(None).await.read);

    // The report becomes final: the seated player reads, the judge no longer writes.
    final_report(&pool, &admin, event.id, ROUND, info).await;
    let s = access(Some(&seated)).await;
    assert!(s.read && !s.write);
    assert!(
        !access(Some(&other)).await.read,
        "another table's player still cannot"
    );
    let j = access(Some(&judge)).await;
    assert!(j.read && !j.write);
    let h = access(Some(&head)).await;
    assert!(h.read && h.write);

    let fixed = format!("{TURN0}T1\n");
    let err = logs::save(
        &pool,
        &judge,
        event.id,
        ROUND,
        table,
        entry(&fixed, 1, Some("more")),
    )
    .await
    .unwrap_err();
    assert!(matches!(err, ResultsError::Forbidden(_)), "{err:?}");
    // After the final report even a continuation is a correction: it needs a reason.
    let err = logs::save(&pool, &head, event.id, ROUND, table, entry(&fixed, 1, None))
        .await
        .unwrap_err();
    assert!(
        matches!(&err, ResultsError::Invalid(p) if p[0].field == Field::Named("reason")),
        "{err:?}"
    );
    let r = logs::save(
        &pool,
        &head,
        event.id,
        ROUND,
        table,
        entry(&fixed, 1, Some("turn 1 was missing")),
    )
    .await
    .unwrap();
    assert_eq!(r, Revision(2));
}

#[sqlx::test(migrator = "db::MIGRATOR")]
async fn an_empty_or_oversized_log_is_refused_at_the_log(pool: PgPool) {
    let (admin, event) = event(&pool).await;
    let table = one_table(&pool, &admin, event.id).await;
    for body in ["  \n", &"x".repeat(logs::MAX_BYTES + 1)] {
        let err = logs::save(&pool, &admin, event.id, ROUND, table, entry(body, 0, None))
            .await
            .unwrap_err();
        assert!(
            matches!(&err, ResultsError::Invalid(p) if p[0].field == Field::Named("log")),
            "{err:?}"
        );
    }
    let err = logs::save(
        &pool,
        &admin,
        event.id,
        ROUND,
        TableNumber(99),
        entry(TURN0, 0, None),
    )
    .await
    .unwrap_err();
    assert!(matches!(err, ResultsError::NotFound));
    assert!(
        logs::round_logs(&pool, event.id, ROUND)
            .await
            .unwrap()
            .is_empty()
    );
    logs::save(&pool, &admin, event.id, ROUND, table, entry(TURN0, 0, None))
        .await
        .unwrap();
    let listed = logs::round_logs(&pool, event.id, ROUND).await.unwrap();
    assert_eq!(listed, [(table, Revision(1), TURN0.to_owned())]);
}
