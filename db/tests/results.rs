//! Results against a real PostgreSQL: win attempts, report revisions, confirmations, the head
//! judge's decisions, corrections, concurrent saves, standings, the finals cut and the live
//! notifications.

mod support;

use db::{
    PgPool,
    live::{self, News, Topic},
    players,
    results::{
        ResultsError,
        attempts::{self, Attempt, TurnEntry},
        finals,
        reports::{self, Answerer, Draft, SeatResult, Status},
        standings,
    },
    roles::{self, Actor, Role},
    rounds::{self, SeatInfo},
};
use support::*;
use tournament::{Faction, WinType, report::Ending};

struct Table {
    id: i64,
    seats: Vec<SeatInfo>,
}

/// An event with `n` players, round 1 drawn and begun; its tables.
async fn round_one(pool: &PgPool, admin: &Actor, event_id: i64, n: usize) -> Vec<Table> {
    players(pool, admin, event_id, n).await;
    start(pool, admin, event_id, 1, 7).await;
    let detail = rounds::detail(pool, event_id, 1).await.unwrap().unwrap();
    rounds::begin(pool, admin, event_id, 1, detail.round.version)
        .await
        .expect("begun");
    detail
        .tables
        .into_iter()
        .map(|t| Table {
            id: t.id,
            seats: t.seats,
        })
        .collect()
}

fn seat_result(seat: &SeatInfo, result: Option<WinType>, values: [u32; 5]) -> SeatResult {
    SeatResult {
        player_id: seat.player_id,
        faction: seat.faction.expect("dealt"),
        ally: None,
        result,
        strongholds: values[0],
        forces: values[1],
        spice: values[2],
        cards: values[3],
        leaders: values[4],
    }
}

/// The first seat wins alone on turn 6; the others have smaller values.
fn solo_win(table: &Table) -> Draft {
    Draft {
        ended: Ending::Win,
        last_turn: 6,
        seats: table
            .seats
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let result = (i == 0).then_some(WinType::SoloStronghold);
                seat_result(s, result, [if i == 0 { 3 } else { 1 }, 10, 5, 2, 4])
            })
            .collect(),
        judge_draw: None,
    }
}

async fn confirm_all(pool: &PgPool, judge: &Actor, event_id: i64, table: &Table, revision: i32) {
    for seat in &table.seats {
        reports::answer(
            pool,
            judge,
            Answerer::Judge,
            event_id,
            table.id,
            revision,
            seat.player_id,
            true,
            None,
        )
        .await
        .expect("confirmed");
    }
}

#[sqlx::test(migrator = "db::MIGRATOR")]
async fn win_attempts_are_revisions_and_corrections_need_a_reason(pool: PgPool) {
    let (admin, event) = event(&pool).await;
    let tables = round_one(&pool, &admin, event.id, 6).await;
    let t = &tables[0];
    let (a, b) = (t.seats[0].player_id, t.seats[1].player_id);
    let entry = |base, players: Vec<i64>, reason: Option<&str>| TurnEntry {
        turn: 4,
        base_revision: base,
        attempts: players
            .into_iter()
            .map(|player_id| Attempt {
                player_id,
                strongholds: vec!["AK".into(), "CA".into(), "TS".into()],
            })
            .collect(),
        reason: reason.map(str::to_owned),
    };
    let r1 = attempts::record(
        &pool,
        &admin,
        false,
        event.id,
        t.id,
        entry(0, vec![a, b], None),
    )
    .await
    .expect("recorded");
    assert_eq!(r1, 1);

    // Changing the turn without a reason is refused, and so is a stale page.
    let err = attempts::record(
        &pool,
        &admin,
        false,
        event.id,
        t.id,
        entry(1, vec![a], None),
    )
    .await
    .unwrap_err();
    assert!(
        matches!(&err, ResultsError::Invalid(p) if p[0].field == "reason"),
        "{err}"
    );
    let err = attempts::record(
        &pool,
        &admin,
        false,
        event.id,
        t.id,
        entry(0, vec![a], Some("x")),
    )
    .await
    .unwrap_err();
    assert!(err.is_conflict(), "{err}");

    let r2 = attempts::record(
        &pool,
        &admin,
        false,
        event.id,
        t.id,
        entry(1, vec![a], Some("B had advisors only in Carthag")),
    )
    .await
    .expect("corrected");
    assert_eq!(r2, 2);
    let history = attempts::history(&pool, t.id).await.unwrap();
    assert_eq!(history.len(), 2, "both revisions kept");
    let counts = attempts::counts(&history, None);
    assert_eq!(counts.get(&a), Some(&1));
    assert_eq!(counts.get(&b), None, "the latest revision counts");
    assert_eq!(history[0].attempts[0].strongholds, ["AK", "CA", "TS"]);

    // A player from elsewhere, a player twice, an unknown stronghold: refused, nothing saved.
    let mut bad = entry(2, vec![a, a], Some("again"));
    bad.attempts[0].strongholds = vec!["XX".into()];
    let err = attempts::record(&pool, &admin, false, event.id, t.id, bad)
        .await
        .unwrap_err();
    let ResultsError::Invalid(problems) = err else {
        panic!("expected field problems")
    };
    assert!(problems.iter().any(|p| p.message.contains("ruling 6")));
    assert!(
        problems
            .iter()
            .any(|p| p.message.contains("XX is not a stronghold"))
    );
    assert_eq!(attempts::history(&pool, t.id).await.unwrap().len(), 2);
    let actions = audit_actions(&pool, event.id).await;
    assert_eq!(
        actions
            .iter()
            .filter(|a| *a == "win_attempts_recorded")
            .count(),
        2
    );
}

#[sqlx::test(migrator = "db::MIGRATOR")]
async fn a_report_confirmed_by_every_player_is_final_and_counts(pool: PgPool) {
    let (admin, event) = event(&pool).await;
    let tables = round_one(&pool, &admin, event.id, 6).await;
    let t = &tables[0];
    attempts::record(
        &pool,
        &admin,
        false,
        event.id,
        t.id,
        TurnEntry {
            turn: 5,
            base_revision: 0,
            attempts: vec![Attempt {
                player_id: t.seats[0].player_id,
                strongholds: vec![],
            }],
            reason: None,
        },
    )
    .await
    .unwrap();
    let rev = reports::save(&pool, &admin, false, event.id, t.id, 0, &solo_win(t), None)
        .await
        .expect("saved");
    assert_eq!(rev, 1);
    let results = reports::table_results(&pool, event.id, t.id).await.unwrap();
    assert_eq!(
        results.status,
        Status::Awaiting {
            confirmed: 0,
            seated: 6
        }
    );
    assert_eq!(results.counts().get(&t.seats[0].player_id), Some(&1));
    let outcome = results.outcome.expect("valid");
    assert_eq!(
        outcome.results[0],
        (t.seats[0].player_id, Some(WinType::SoloStronghold))
    );
    // Not final: standings do not count it yet.
    let before = standings::event_standings(&pool, event.id).await.unwrap();
    assert!(before.rows.iter().all(|r| r.points == "0"));
    assert_eq!(before.tables_final, 0);

    confirm_all(&pool, &admin, event.id, t, 1).await;
    let results = reports::table_results(&pool, event.id, t.id).await.unwrap();
    assert_eq!(results.status, Status::Final);
    let after = standings::event_standings(&pool, event.id).await.unwrap();
    assert_eq!(after.tables_final, 1);
    assert_eq!(after.rows[0].player_id, t.seats[0].player_id);
    assert_eq!(after.rows[0].points, "3");
    assert_eq!(after.rows[0].wins, [("SSH", 1)]);
    // The best-game vector: 3 points, then 1 win attempt, 3 strongholds, 10 forces …
    assert_eq!(after.rows[0].best.as_deref(), Some("3.1.3.10.5.2.4"));
    assert_eq!(
        after.rows[0].reason.as_deref(),
        Some("more points (4.01.10)")
    );
    // A round can follow now that every report is final.
    assert!(
        rounds::unreported_tables(&pool, event.id, 1)
            .await
            .unwrap()
            .is_empty()
    );
}

#[sqlx::test(migrator = "db::MIGRATOR")]
async fn a_player_answers_only_for_themselves_and_a_dispute_goes_to_the_head_judge(pool: PgPool) {
    let (admin, event) = event(&pool).await;
    let tables = round_one(&pool, &admin, event.id, 6).await;
    let t = &tables[0];
    let ana = user(&pool, "ana", false).await;
    let ben = user(&pool, "ben", false).await;
    let judge = user(&pool, "jude", false).await;
    roles::grant(&pool, &admin, event.id, "jude", Role::Judge)
        .await
        .unwrap();
    let list = players::list(&pool, event.id).await.unwrap();
    let ana_player = list.iter().find(|p| p.id == t.seats[0].player_id).unwrap();
    players::link_account(
        &pool,
        &admin,
        event.id,
        ana_player.id,
        ana_player.version,
        "ana",
    )
    .await
    .expect("linked");
    assert_eq!(
        roles::role_of(&pool, ana.user_id, event.id).await.unwrap(),
        Some(Role::Player)
    );
    reports::save(&pool, &judge, false, event.id, t.id, 0, &solo_win(t), None)
        .await
        .unwrap();

    // Ben has no seat link: he cannot answer for Ana, nor Ana for another player.
    let err = reports::answer(
        &pool,
        &ben,
        Answerer::Player,
        event.id,
        t.id,
        1,
        ana_player.id,
        true,
        None,
    )
    .await
    .unwrap_err();
    assert!(matches!(err, ResultsError::Forbidden(_)));
    let err = reports::answer(
        &pool,
        &ana,
        Answerer::Player,
        event.id,
        t.id,
        1,
        t.seats[1].player_id,
        true,
        None,
    )
    .await
    .unwrap_err();
    assert!(matches!(err, ResultsError::Forbidden(_)));

    // A dispute needs a note, and flags the table.
    let err = reports::answer(
        &pool,
        &ana,
        Answerer::Player,
        event.id,
        t.id,
        1,
        ana_player.id,
        false,
        Some(" "),
    )
    .await
    .unwrap_err();
    assert!(matches!(&err, ResultsError::Invalid(p) if p[0].field == "note"));
    reports::answer(
        &pool,
        &ana,
        Answerer::Player,
        event.id,
        t.id,
        1,
        ana_player.id,
        false,
        Some("I had 4 spice, not 5"),
    )
    .await
    .unwrap();
    let results = reports::table_results(&pool, event.id, t.id).await.unwrap();
    assert_eq!(results.status, Status::Disputed);
    assert_eq!(
        results.revisions[0].confirmations[0].note.as_deref(),
        Some("I had 4 spice, not 5")
    );

    // The head judge's decision is final (4.01.05).
    reports::finalise(&pool, &admin, event.id, t.id, 1)
        .await
        .expect("final");
    let results = reports::table_results(&pool, event.id, t.id).await.unwrap();
    assert_eq!(results.status, Status::Final);
    assert_eq!(results.revisions[0].finalised_by.as_deref(), Some("admin"));
    let err = reports::answer(
        &pool,
        &ana,
        Answerer::Player,
        event.id,
        t.id,
        1,
        ana_player.id,
        true,
        None,
    )
    .await
    .unwrap_err();
    assert!(matches!(err, ResultsError::State(_)));
}

#[sqlx::test(migrator = "db::MIGRATOR")]
async fn an_invalid_report_names_the_field_and_saves_nothing(pool: PgPool) {
    let (admin, event) = event(&pool).await;
    let tables = round_one(&pool, &admin, event.id, 6).await;
    let t = &tables[0];
    // A clock-ended game with a result on it (4.01.09), and turn 10 claimed for turns.
    let mut draft = solo_win(t);
    draft.ended = Ending::Time;
    let err = reports::save(&pool, &admin, false, event.id, t.id, 0, &draft, None)
        .await
        .unwrap_err();
    let ResultsError::Invalid(problems) = err else {
        panic!("expected field problems")
    };
    let field = format!("seat-{}-result", t.seats[0].player_id);
    assert!(
        problems
            .iter()
            .any(|p| p.field == field && p.message.contains("4.01.09")),
        "{problems:?}"
    );
    let mut draft = solo_win(t);
    draft.ended = Ending::Turns;
    let err = reports::save(&pool, &admin, false, event.id, t.id, 0, &draft, None)
        .await
        .unwrap_err();
    assert!(matches!(&err, ResultsError::Invalid(p) if p.iter().any(|p| p.field == "last_turn")));
    // A faction other than the one dealt (0.08).
    let mut draft = solo_win(t);
    draft.seats[1].faction = if draft.seats[1].faction == Faction::Atreides {
        Faction::Harkonnen
    } else {
        Faction::Atreides
    };
    let err = reports::save(&pool, &admin, false, event.id, t.id, 0, &draft, None)
        .await
        .unwrap_err();
    assert!(err.to_string().contains("0.08"), "{err}");
    // Win attempts recorded after the last turn the report names.
    attempts::record(
        &pool,
        &admin,
        false,
        event.id,
        t.id,
        TurnEntry {
            turn: 8,
            base_revision: 0,
            attempts: vec![Attempt {
                player_id: t.seats[0].player_id,
                strongholds: vec![],
            }],
            reason: None,
        },
    )
    .await
    .unwrap();
    let err = reports::save(&pool, &admin, false, event.id, t.id, 0, &solo_win(t), None)
        .await
        .unwrap_err();
    assert!(
        matches!(&err, ResultsError::Invalid(p) if p[0].field == "last_turn" && p[0].message.contains("turn 8")),
        "{err}"
    );
    let results = reports::table_results(&pool, event.id, t.id).await.unwrap();
    assert!(results.revisions.is_empty());
    assert_eq!(results.status, Status::Missing);
}

#[sqlx::test(migrator = "db::MIGRATOR")]
async fn a_clock_ended_game_is_adjudicated_with_its_reasoning(pool: PgPool) {
    let (admin, event) = event(&pool).await;
    let tables = round_one(&pool, &admin, event.id, 6).await;
    let t = &tables[0];
    // Seats 0 and 1 both made 2 win attempts; seat 1 has more forces.
    for turn in [5, 7] {
        attempts::record(
            &pool,
            &admin,
            false,
            event.id,
            t.id,
            TurnEntry {
                turn,
                base_revision: 0,
                attempts: [0, 1]
                    .iter()
                    .map(|&i| Attempt {
                        player_id: t.seats[i].player_id,
                        strongholds: vec![],
                    })
                    .collect(),
                reason: None,
            },
        )
        .await
        .unwrap();
    }
    let draft = Draft {
        ended: Ending::Time,
        last_turn: 8,
        seats: t
            .seats
            .iter()
            .enumerate()
            .map(|(i, s)| seat_result(s, None, [2, if i == 1 { 15 } else { 9 }, 3, 1, 4]))
            .collect(),
        judge_draw: None,
    };
    reports::save(&pool, &admin, false, event.id, t.id, 0, &draft, None)
        .await
        .unwrap();
    let results = reports::table_results(&pool, event.id, t.id).await.unwrap();
    let outcome = results.outcome.unwrap();
    let winner = t.seats[1].player_id;
    assert_eq!(
        outcome
            .results
            .iter()
            .filter(|r| r.1.is_some())
            .collect::<Vec<_>>(),
        [&(winner, Some(WinType::Adjudicated))]
    );
    let lines = outcome.adjudication.unwrap();
    assert!(
        lines[0].starts_with("Win attempts (4.01.11.01)"),
        "{lines:?}"
    );
    assert!(lines[0].contains("tied on 2"), "{lines:?}");
    assert!(
        lines.last().unwrap().contains("receives Adjudicated"),
        "{lines:?}"
    );
    assert!(
        lines.last().unwrap().contains("forces on the board"),
        "{lines:?}"
    );
    confirm_all(&pool, &admin, event.id, t, 1).await;
    let s = standings::event_standings(&pool, event.id).await.unwrap();
    assert_eq!(s.rows[0].player_id, winner);
    assert_eq!(s.rows[0].points, "½");
}

#[sqlx::test(migrator = "db::MIGRATOR")]
async fn two_judges_saving_at_once_the_second_is_told_and_nothing_is_lost(pool: PgPool) {
    let (admin, event) = event(&pool).await;
    let tables = round_one(&pool, &admin, event.id, 6).await;
    let t = &tables[0];
    let jo = user(&pool, "jo", false).await;
    let kim = user(&pool, "kim", false).await;
    for name in ["jo", "kim"] {
        roles::grant(&pool, &admin, event.id, name, Role::Judge)
            .await
            .unwrap();
    }
    let mut other = solo_win(t);
    other.seats[0].spice = 9;
    // Both pages showed "no report yet" (base 0) and save at the same moment.
    let mine = solo_win(t);
    let (first, second) = tokio::join!(
        reports::save(&pool, &jo, false, event.id, t.id, 0, &mine, None),
        reports::save(&pool, &kim, false, event.id, t.id, 0, &other, None),
    );
    // Either may win the race; the other is told, and keeps their entry.
    let (ok, err, winner, loser, losers_draft) = match (first, second) {
        (Ok(r), Err(e)) => (r, e, &jo, &kim, &other),
        (Err(e), Ok(r)) => (r, e, &kim, &jo, &mine),
        other => panic!("exactly one save wins: {other:?}"),
    };
    assert_eq!(ok, 1);
    assert!(err.is_conflict());
    assert!(err.to_string().contains("revision 1"), "{err}");
    assert!(err.to_string().contains(&winner.username), "{err}");
    let results = reports::table_results(&pool, event.id, t.id).await.unwrap();
    assert_eq!(results.revisions.len(), 1, "the first save is intact");
    // The second judge saves on top of the first, knowingly: both versions are in the history.
    reports::save(&pool, loser, false, event.id, t.id, 1, losers_draft, None)
        .await
        .expect("saved as revision 2");
    let results = reports::table_results(&pool, event.id, t.id).await.unwrap();
    assert_eq!(results.revisions.len(), 2);
    assert_eq!(&results.revisions[0].draft, losers_draft);
    assert_eq!(
        results.revisions[0].created_by.as_deref(),
        Some(loser.username.as_str())
    );
    assert_eq!(
        results.revisions[1].created_by.as_deref(),
        Some(winner.username.as_str())
    );
}

#[sqlx::test(migrator = "db::MIGRATOR")]
async fn correcting_a_final_report_needs_the_head_judge_and_a_reason(pool: PgPool) {
    let (admin, event) = event(&pool).await;
    let tables = round_one(&pool, &admin, event.id, 6).await;
    let t = &tables[0];
    let judge = user(&pool, "jude", false).await;
    roles::grant(&pool, &admin, event.id, "jude", Role::Judge)
        .await
        .unwrap();
    reports::save(&pool, &judge, false, event.id, t.id, 0, &solo_win(t), None)
        .await
        .unwrap();
    confirm_all(&pool, &judge, event.id, t, 1).await;
    let mut fixed = solo_win(t);
    fixed.seats[0].result = None;
    fixed.seats[1].result = Some(WinType::SoloStronghold);
    let err = reports::save(
        &pool,
        &judge,
        false,
        event.id,
        t.id,
        1,
        &fixed,
        Some("wrong seat"),
    )
    .await
    .unwrap_err();
    assert!(matches!(err, ResultsError::Forbidden(_)));
    let err = reports::save(&pool, &admin, true, event.id, t.id, 1, &fixed, None)
        .await
        .unwrap_err();
    assert!(matches!(&err, ResultsError::Invalid(p) if p[0].field == "reason"));
    reports::save(
        &pool,
        &admin,
        true,
        event.id,
        t.id,
        1,
        &fixed,
        Some("the win was seat 2's; judge wrote the wrong line"),
    )
    .await
    .expect("corrected");
    let results = reports::table_results(&pool, event.id, t.id).await.unwrap();
    assert_eq!(
        results.status,
        Status::Final,
        "the head judge's correction is final"
    );
    assert_eq!(results.revisions.len(), 2);
    assert_eq!(
        results.revisions[0].reason.as_deref(),
        Some("the win was seat 2's; judge wrote the wrong line")
    );
    assert_eq!(results.revisions[0].created_by.as_deref(), Some("admin"));
    assert_eq!(results.revisions[1].created_by.as_deref(), Some("jude"));
    let s = standings::event_standings(&pool, event.id).await.unwrap();
    assert_eq!(
        s.rows[0].player_id, t.seats[1].player_id,
        "standings follow the latest revision"
    );
    assert!(
        audit_actions(&pool, event.id)
            .await
            .contains(&"report_corrected".to_owned())
    );
}

#[sqlx::test(migrator = "db::MIGRATOR")]
async fn finals_close_after_every_report_and_a_cut_tie_is_drawn_reproducibly(pool: PgPool) {
    let (admin, event) = event(&pool).await;
    // Twelve players, two tables; every non-winner identical, so a tie crosses a 6-seat cut.
    let tables = round_one(&pool, &admin, event.id, 12).await;
    let err = finals::close_qualifying(&pool, &admin, event.id)
        .await
        .unwrap_err();
    assert!(err.to_string().contains("round 1 table 1"), "{err}");
    for t in &tables {
        let draft = Draft {
            ended: Ending::Win,
            last_turn: 6,
            seats: t
                .seats
                .iter()
                .enumerate()
                .map(|(i, s)| {
                    seat_result(
                        s,
                        (i == 0).then_some(WinType::SoloStronghold),
                        [1, 5, 5, 2, 4],
                    )
                })
                .collect(),
            judge_draw: None,
        };
        reports::save(&pool, &admin, false, event.id, t.id, 0, &draft, None)
            .await
            .unwrap();
        reports::finalise(&pool, &admin, event.id, t.id, 1)
            .await
            .unwrap();
    }
    let s = standings::event_standings(&pool, event.id).await.unwrap();
    assert_eq!(
        s.rows.iter().filter(|r| r.finalist == Some(true)).count(),
        2
    );
    let (tied, open) = s.cut_tie.clone().expect("ten players tied for four seats");
    assert_eq!((tied.len(), open), (10, 4));
    assert!(s.rows[2].reason.is_none() || s.rows[2].tie);

    let closed = finals::close_qualifying(&pool, &admin, event.id)
        .await
        .unwrap();
    assert_eq!(closed.finalists.len(), 2);
    assert_eq!(closed.all_finalists(), None, "the tie is not drawn yet");
    assert!(
        finals::close_qualifying(&pool, &admin, event.id)
            .await
            .is_err()
    );
    let drawn = finals::draw_cut(&pool, &admin, event.id, Some(42))
        .await
        .unwrap();
    let draw = drawn.draw.clone().unwrap();
    assert_eq!(draw.seed, 42);
    assert_eq!(draw.picked.len(), 4);
    assert_eq!(drawn.all_finalists().unwrap().len(), 6);
    // The same seed over the same tied players picks the same four (ruling 4).
    let names: Vec<tournament::PlayerName> = drawn
        .tied
        .iter()
        .map(|n| tournament::PlayerName::parse(n).unwrap())
        .collect();
    let again: Vec<String> = tournament::finals::draw_cut(&names, 4, 42)
        .iter()
        .map(|p| p.as_str().to_owned())
        .collect();
    assert_eq!(again, draw.picked);
    assert!(
        finals::draw_cut(&pool, &admin, event.id, Some(1))
            .await
            .is_err(),
        "drawn once"
    );
}

#[sqlx::test(migrator = "db::MIGRATOR")]
async fn a_final_report_notifies_listeners_when_it_commits(pool: PgPool) {
    let (admin, event) = event(&pool).await;
    let tables = round_one(&pool, &admin, event.id, 6).await;
    let t = &tables[0];
    let mut listener = sqlx::postgres::PgListener::connect_with(&pool)
        .await
        .unwrap();
    listener.listen(live::CHANNEL).await.unwrap();
    reports::save(&pool, &admin, false, event.id, t.id, 0, &solo_win(t), None)
        .await
        .unwrap();
    reports::finalise(&pool, &admin, event.id, t.id, 1)
        .await
        .unwrap();
    let mut topics = Vec::new();
    while topics.len() < 3 {
        let n = tokio::time::timeout(std::time::Duration::from_secs(5), listener.recv())
            .await
            .expect("a notification within 5 s")
            .unwrap();
        let news = News::parse(n.payload()).expect("payload");
        assert_eq!(news.event_id, event.id);
        topics.push(news.topic);
    }
    assert_eq!(topics, [Topic::Table, Topic::Table, Topic::Standings]);
}
