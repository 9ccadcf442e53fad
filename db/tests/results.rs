//! Results against a real PostgreSQL: win attempts, report revisions, confirmations, the head
//! judge's decisions, corrections, concurrent saves, standings, the finals cut and the live
//! notifications.

mod support;

use db::{
    PgPool,
    live::{self, News, Topic},
    players,
    results::{
        Field, ResultsError,
        attempts::{self, Attempt, TurnEntry},
        finals,
        reports::{self, Answer, Answerer, Draft, SeatResult},
        standings,
    },
    roles::{self, Actor, Role},
    rounds::{self, SeatInfo},
};
use dune::{Faction, Spice, Stronghold, WinType};
use support::*;
use tournament::attempts::AttemptField;
use tournament::ids::{EventId, PlayerId, Revision, RoundNumber, TableId, TableNumber};
use tournament::report::{Ending, ReportStatus as Status};
use tournament::{EndValues, ReportField, SeatField};

/// Every table of these tests is in round 1.
const ROUND: RoundNumber = RoundNumber(1);

struct Table {
    id: TableId,
    number: TableNumber,
    seats: Vec<SeatInfo>,
}

/// An event with `n` players, round 1 drawn and begun; its tables.
async fn round_one(pool: &PgPool, admin: &Actor, event_id: EventId, n: usize) -> Vec<Table> {
    players(pool, admin, event_id, n).await;
    start(pool, admin, event_id, 1, 7).await;
    let detail = rounds::detail(pool, event_id, ROUND)
        .await
        .unwrap()
        .unwrap();
    rounds::begin(pool, admin, event_id, ROUND, detail.round.version)
        .await
        .expect("begun");
    detail
        .tables
        .into_iter()
        .map(|t| Table {
            id: t.id,
            number: t.number,
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
        end: EndValues {
            strongholds: values[0],
            forces: values[1],
            spice: Spice::new(values[2]),
            cards: values[3],
            leaders: values[4],
        },
    }
}

/// Every revision of every turn's win attempts at the table, turn by turn, newest first.
async fn attempt_history(
    pool: &PgPool,
    event_id: EventId,
    table: &Table,
) -> Vec<attempts::TurnRecord> {
    reports::table_results(pool, event_id, ROUND, table.number)
        .await
        .unwrap()
        .attempts
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
                seat_result(
                    s,
                    result,
                    [if i == 0 { 3 } else { u32::from(i < 4) }, 10, 5, 2, 4],
                )
            })
            .collect(),
        judge_draw: None,
        prediction: None,
    }
}

/// A player's answer to revision `revision` of the table's report.
fn answer(
    table: &Table,
    revision: i32,
    player_id: PlayerId,
    agrees: bool,
    note: Option<&str>,
    answerer: Answerer,
) -> Answer {
    Answer {
        round: ROUND,
        table: table.number,
        revision: Revision(revision),
        player_id,
        agrees,
        note: note.map(str::to_owned),
        answerer,
    }
}

async fn confirm_all(
    pool: &PgPool,
    judge: &Actor,
    event_id: EventId,
    table: &Table,
    revision: i32,
) {
    for seat in &table.seats {
        let answer = answer(table, revision, seat.player_id, true, None, Answerer::Judge);
        reports::answer(pool, judge, event_id, &answer)
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
    let evidence = [
        Stronghold::Arrakeen,
        Stronghold::Carthag,
        Stronghold::TueksSietch,
    ];
    let entry = |base: i32, players: Vec<PlayerId>, reason: Option<&str>| TurnEntry {
        turn: 4,
        base_revision: Revision(base),
        attempts: players
            .into_iter()
            .map(|player_id| Attempt {
                player_id,
                strongholds: evidence.to_vec(),
            })
            .collect(),
        reason: reason.map(str::to_owned),
    };
    let r1 = attempts::record(
        &pool,
        &admin,
        false,
        event.id,
        ROUND,
        t.number,
        entry(0, vec![a, b], None),
    )
    .await
    .expect("recorded");
    assert_eq!(r1, Revision(1));

    // Changing the turn without a reason is refused, and so is a stale page.
    let err = attempts::record(
        &pool,
        &admin,
        false,
        event.id,
        ROUND,
        t.number,
        entry(1, vec![a], None),
    )
    .await
    .unwrap_err();
    assert!(
        matches!(&err, ResultsError::Invalid(p) if p[0].field == Field::Named("reason")),
        "{err}"
    );
    let err = attempts::record(
        &pool,
        &admin,
        false,
        event.id,
        ROUND,
        t.number,
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
        ROUND,
        t.number,
        entry(1, vec![a], Some("B had advisors only in Carthag")),
    )
    .await
    .expect("corrected");
    assert_eq!(r2, Revision(2));
    let history = attempt_history(&pool, event.id, t).await;
    assert_eq!(history.len(), 2, "both revisions kept");
    let counts = attempts::counts(&history, None);
    assert_eq!(counts.get(&a), Some(&1));
    assert_eq!(counts.get(&b), None, "the latest revision counts");
    assert_eq!(history[0].attempts[0].strongholds, evidence);

    // A player from elsewhere and a player twice: refused, nothing saved.
    let elsewhere = players::add(
        &pool,
        &admin,
        event.id,
        players::NewPlayer::parse("Not At This Table", "", "").unwrap(),
    )
    .await
    .unwrap();
    let bad = entry(2, vec![a, a, elsewhere.id], Some("again"));
    let err = attempts::record(&pool, &admin, false, event.id, ROUND, t.number, bad)
        .await
        .unwrap_err();
    let ResultsError::Invalid(problems) = err else {
        panic!("expected field problems")
    };
    assert!(
        problems
            .iter()
            .any(|p| p.field == Field::Attempt(AttemptField::Seat(0))
                && p.message.contains("ruling 6")),
        "{problems:?}"
    );
    assert!(
        problems
            .iter()
            .any(|p| p.field == Field::Attempt(AttemptField::Seats)
                && p.message.contains("does not sit at this table")),
        "{problems:?}"
    );
    // An unknown stronghold cannot reach the database any more: evidence is typed, and a code
    // outside the DGN table is refused where it is read.
    assert!("XX".parse::<Stronghold>().is_err());
    assert_eq!(attempt_history(&pool, event.id, t).await.len(), 2);
    let actions = audit_actions(&pool, event.id).await;
    assert_eq!(
        actions
            .iter()
            .filter(|a| *a == "win_attempts_recorded")
            .count(),
        2
    );
}

/// Win-attempt evidence is a list of strongholds: stored with the DGN codes of
/// `docs/notation.md` and read back as `Stronghold`s. Evidence recorded before migration 0005
/// used the board codes (AK CA TS ST HS, and SW); the migration rewrites them in place, so old
/// records read back the same way, with no new revision.
#[sqlx::test(migrations = false)]
async fn win_attempt_evidence_is_strongholds_and_old_board_codes_are_migrated(pool: PgPool) {
    use Stronghold::*;
    use sqlx::migrate::Migrate;

    // The schema as it was before the codes changed: every migration before 0005.
    let codes = db::MIGRATOR
        .iter()
        .find(|m| m.description == "stronghold codes")
        .expect("migration 0005_stronghold_codes");
    {
        let mut conn = pool.acquire().await.unwrap();
        conn.ensure_migrations_table().await.unwrap();
        // The final table's column (0024) and the players' sort key (0030) too: today's reads
        // name them, and they have nothing to do with the codes.
        for m in db::MIGRATOR.iter().filter(|m| {
            m.version < codes.version
                || m.description == "final table"
                || m.description == "player sort key"
        }) {
            conn.apply(m).await.unwrap();
        }
    }
    let (admin, event) = event(&pool).await;
    let tables = round_one(&pool, &admin, event.id, 6).await;
    let t = &tables[0];
    let (a, b, c) = (
        t.seats[0].player_id,
        t.seats[1].player_id,
        t.seats[2].player_id,
    );
    let key = |p: PlayerId| p.get().to_string();
    // Turn 3 as the old pages wrote it: every old code once; the third player showed nothing.
    let old = serde_json::json!({
        (key(a)): ["AK", "CA", "TS"],
        (key(b)): ["ST", "HS", "SW"],
    });
    sqlx::query(
        "INSERT INTO win_attempts (table_id, turn, revision, players, evidence, recorded_by) \
         VALUES ($1, 3, 1, $2, $3, $4)",
    )
    .bind(t.id)
    .bind(vec![a, b, c])
    .bind(&old)
    .bind(admin.user_id)
    .execute(&pool)
    .await
    .unwrap();
    // Stored evidence is read strictly: the old codes are not strongholds any more.
    let unreadable = reports::table_results(&pool, event.id, ROUND, t.number).await;
    assert!(
        matches!(
            unreadable,
            Err(ResultsError::Database(sqlx::Error::Decode(_)))
        ),
        "{unreadable:?}"
    );
    // Turn 4 recorded with the new codes before the migration ran: left as it is.
    let recorded = |turn: u32, attempts: Vec<Attempt>| TurnEntry {
        turn,
        base_revision: Revision::NONE,
        attempts,
        reason: None,
    };
    attempts::record(
        &pool,
        &admin,
        false,
        event.id,
        ROUND,
        t.number,
        recorded(
            4,
            vec![Attempt {
                player_id: a,
                strongholds: vec![ShieldWall, SietchTabr],
            }],
        ),
    )
    .await
    .expect("recorded");

    db::MIGRATOR.run(&pool).await.expect("migration 0005 runs");

    let stored = |turn: i16| {
        let pool = pool.clone();
        async move {
            let rows: Vec<(i32, serde_json::Value)> = sqlx::query_as(
                "SELECT revision, evidence FROM win_attempts WHERE table_id = $1 AND turn = $2",
            )
            .bind(t.id)
            .bind(turn)
            .fetch_all(&pool)
            .await
            .unwrap();
            rows
        }
    };
    assert_eq!(
        stored(3).await,
        [(
            1,
            serde_json::json!({
                (key(a)): ["ARK", "CAR", "TUK"],
                (key(b)): ["TAB", "HAB", "SW"],
            })
        )],
        "old codes rewritten in place, in their order, with no new revision"
    );
    assert_eq!(
        stored(4).await,
        [(1, serde_json::json!({ (key(a)): ["SW", "TAB"] }))],
        "new codes left alone"
    );

    // Recorded now: every stronghold, in the order the judge gave them, and a player with none.
    let everything = vec![
        HabbanyaSietch,
        Arrakeen,
        ShieldWall,
        TueksSietch,
        Carthag,
        SietchTabr,
    ];
    attempts::record(
        &pool,
        &admin,
        false,
        event.id,
        ROUND,
        t.number,
        recorded(
            6,
            vec![
                Attempt {
                    player_id: b,
                    strongholds: everything.clone(),
                },
                Attempt {
                    player_id: c,
                    strongholds: vec![],
                },
            ],
        ),
    )
    .await
    .expect("recorded");
    assert_eq!(
        stored(6).await,
        [(
            1,
            serde_json::json!({ (key(b)): ["HAB", "ARK", "SW", "TUK", "CAR", "TAB"] })
        )],
        "stored with the DGN codes; no evidence, no entry"
    );

    let history = attempt_history(&pool, event.id, t).await;
    let evidence = |turn: u32, player: PlayerId| -> Vec<Stronghold> {
        let record = history
            .iter()
            .find(|r| r.turn == turn)
            .unwrap_or_else(|| panic!("turn {turn} recorded: {history:?}"));
        record
            .attempts
            .iter()
            .find(|at| at.player_id == player)
            .unwrap_or_else(|| panic!("an attempt by {player} on turn {turn}: {record:?}"))
            .strongholds
            .clone()
    };
    assert_eq!(evidence(3, a), [Arrakeen, Carthag, TueksSietch]);
    assert_eq!(evidence(3, b), [SietchTabr, HabbanyaSietch, ShieldWall]);
    assert_eq!(evidence(3, c), Vec::<Stronghold>::new());
    assert_eq!(evidence(4, a), [ShieldWall, SietchTabr]);
    assert_eq!(evidence(6, b), everything);
    assert_eq!(evidence(6, c), Vec::<Stronghold>::new());
    assert_eq!(history.len(), 3, "one revision of each turn");
    let counts = attempts::counts(&history, None);
    assert_eq!(
        (counts.get(&a), counts.get(&b), counts.get(&c)),
        (Some(&2), Some(&2), Some(&2))
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
        ROUND,
        t.number,
        TurnEntry {
            turn: 5,
            base_revision: Revision::NONE,
            attempts: vec![Attempt {
                player_id: t.seats[0].player_id,
                strongholds: vec![],
            }],
            reason: None,
        },
    )
    .await
    .unwrap();
    let rev = reports::save(
        &pool,
        &admin,
        false,
        event.id,
        ROUND,
        t.number,
        Revision::NONE,
        &solo_win(t),
        None,
    )
    .await
    .expect("saved");
    assert_eq!(rev, Revision(1));
    let results = reports::table_results(&pool, event.id, ROUND, t.number)
        .await
        .unwrap();
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
    let results = reports::table_results(&pool, event.id, ROUND, t.number)
        .await
        .unwrap();
    assert_eq!(results.status, Status::Final);
    let after = standings::event_standings(&pool, event.id).await.unwrap();
    assert_eq!(after.tables_final, 1);
    assert_eq!(after.rows[0].player_id, t.seats[0].player_id);
    assert_eq!(after.rows[0].points, "3");
    assert_eq!(after.rows[0].wins, [("SSH", 1)]);
    // The best-game vector: 3 points, then 1 win attempt, 3 strongholds, 10 forces …
    assert_eq!(
        after.rows[0].best.map(|b| b.dotted()).as_deref(),
        Some("3.1.3.10.5.2.4")
    );
    assert_eq!(
        after.rows[0].reason.as_deref(),
        Some("more points (4.01.10)")
    );
    // A round can follow now that every report is final.
    assert!(
        rounds::unreported_tables(&pool, event.id, ROUND)
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
    reports::save(
        &pool,
        &judge,
        false,
        event.id,
        ROUND,
        t.number,
        Revision::NONE,
        &solo_win(t),
        None,
    )
    .await
    .unwrap();

    // Ben has no seat link: he cannot answer for Ana, nor Ana for another player.
    let err = reports::answer(
        &pool,
        &ben,
        event.id,
        &answer(t, 1, ana_player.id, true, None, Answerer::Player),
    )
    .await
    .unwrap_err();
    assert!(matches!(err, ResultsError::Forbidden(_)));
    let err = reports::answer(
        &pool,
        &ana,
        event.id,
        &answer(t, 1, t.seats[1].player_id, true, None, Answerer::Player),
    )
    .await
    .unwrap_err();
    assert!(matches!(err, ResultsError::Forbidden(_)));

    // A dispute needs a note, and flags the table.
    let err = reports::answer(
        &pool,
        &ana,
        event.id,
        &answer(t, 1, ana_player.id, false, Some(" "), Answerer::Player),
    )
    .await
    .unwrap_err();
    assert!(matches!(&err, ResultsError::Invalid(p) if p[0].field == Field::Named("note")));
    reports::answer(
        &pool,
        &ana,
        event.id,
        &answer(
            t,
            1,
            ana_player.id,
            false,
            Some("I had 4 spice, not 5"),
            Answerer::Player,
        ),
    )
    .await
    .unwrap();
    let results = reports::table_results(&pool, event.id, ROUND, t.number)
        .await
        .unwrap();
    assert_eq!(results.status, Status::Disputed);
    assert_eq!(
        results.revisions[0].confirmations[0].note.as_deref(),
        Some("I had 4 spice, not 5")
    );

    // The head judge's decision is final (4.01.05).
    reports::finalise(&pool, &admin, event.id, ROUND, t.number, Revision(1))
        .await
        .expect("final");
    let results = reports::table_results(&pool, event.id, ROUND, t.number)
        .await
        .unwrap();
    assert_eq!(results.status, Status::Final);
    assert_eq!(results.revisions[0].finalised_by.as_deref(), Some("admin"));
    let err = reports::answer(
        &pool,
        &ana,
        event.id,
        &answer(t, 1, ana_player.id, true, None, Answerer::Player),
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
    let save = |draft: Draft| {
        let (pool, admin) = (pool.clone(), admin.clone());
        let (event_id, table) = (event.id, t.number);
        async move {
            reports::save(
                &pool,
                &admin,
                false,
                event_id,
                ROUND,
                table,
                Revision::NONE,
                &draft,
                None,
            )
            .await
        }
    };
    // A clock-ended game with a result on it (4.01.09), and turn 10 claimed for turns.
    let mut draft = solo_win(t);
    draft.ended = Ending::Time;
    let err = save(draft).await.unwrap_err();
    let ResultsError::Invalid(problems) = err else {
        panic!("expected field problems")
    };
    // Seats are named by their position in seat order: the first seat's result.
    let field = Field::Report(ReportField::Seat(0, SeatField::Result));
    assert!(
        problems
            .iter()
            .any(|p| p.field == field && p.message.contains("4.01.09")),
        "{problems:?}"
    );
    let mut draft = solo_win(t);
    draft.ended = Ending::Turns;
    let err = save(draft).await.unwrap_err();
    assert!(
        matches!(&err, ResultsError::Invalid(p)
            if p.iter().any(|p| p.field == Field::Report(ReportField::LastTurn))),
        "{err}"
    );
    // A faction other than the one dealt (0.08).
    let mut draft = solo_win(t);
    draft.seats[1].faction = if draft.seats[1].faction == Faction::Atreides {
        Faction::Harkonnen
    } else {
        Faction::Atreides
    };
    let err = save(draft).await.unwrap_err();
    assert!(err.to_string().contains("0.08"), "{err}");
    assert!(
        matches!(&err, ResultsError::Invalid(p)
            if p.iter().any(|p| p.field == Field::Report(ReportField::Seat(1, SeatField::Faction)))),
        "{err}"
    );
    // Win attempts recorded after the last turn the report names.
    attempts::record(
        &pool,
        &admin,
        false,
        event.id,
        ROUND,
        t.number,
        TurnEntry {
            turn: 8,
            base_revision: Revision::NONE,
            attempts: vec![Attempt {
                player_id: t.seats[0].player_id,
                strongholds: vec![],
            }],
            reason: None,
        },
    )
    .await
    .unwrap();
    let err = save(solo_win(t)).await.unwrap_err();
    assert!(
        matches!(&err, ResultsError::Invalid(p)
            if p[0].field == Field::Report(ReportField::LastTurn) && p[0].message.contains("turn 8")),
        "{err}"
    );
    let results = reports::table_results(&pool, event.id, ROUND, t.number)
        .await
        .unwrap();
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
            ROUND,
            t.number,
            TurnEntry {
                turn,
                base_revision: Revision::NONE,
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
            .map(|(i, s)| seat_result(s, None, [1, if i == 1 { 15 } else { 9 }, 3, 1, 4]))
            .collect(),
        judge_draw: None,
        prediction: None,
    };
    reports::save(
        &pool,
        &admin,
        false,
        event.id,
        ROUND,
        t.number,
        Revision::NONE,
        &draft,
        None,
    )
    .await
    .unwrap();
    let results = reports::table_results(&pool, event.id, ROUND, t.number)
        .await
        .unwrap();
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
async fn ended_by_the_clock_is_refused_while_the_clock_runs_unless_the_head_judge_calls_time(
    pool: PgPool,
) {
    let (admin, event) = event(&pool).await;
    let judge = user(&pool, "judge", false).await;
    roles::grant(&pool, &admin, event.id, "judge", Role::Judge)
        .await
        .unwrap();
    let tables = round_one(&pool, &admin, event.id, 12).await;
    let t = &tables[0];
    let time_draft = Draft {
        ended: Ending::Time,
        last_turn: 8,
        seats: t
            .seats
            .iter()
            .enumerate()
            .map(|(i, s)| seat_result(s, None, [1, 9 + u32::try_from(i).unwrap(), 3, 1, 4]))
            .collect(),
        judge_draw: None,
        prediction: None,
    };
    let detail = rounds::detail(&pool, event.id, ROUND)
        .await
        .unwrap()
        .unwrap();
    let version = detail.tables[0].version;
    db::clocks::apply(
        &pool,
        &admin,
        event.id,
        t.id,
        version,
        db::clocks::Command::Start,
    )
    .await
    .unwrap();
    // Six hours left: "ended by the clock" is refused at its field, nothing saved.
    let early = reports::save(
        &pool,
        &admin,
        true,
        event.id,
        ROUND,
        t.number,
        Revision::NONE,
        &time_draft,
        None,
    )
    .await;
    match early {
        Err(ResultsError::Invalid(problems)) => {
            assert_eq!(problems[0].field, Field::Named("ended"));
            assert!(
                problems[0].message.contains("clock still runs"),
                "{problems:?}"
            );
        }
        other => panic!("expected the clock's refusal, got {other:?}"),
    }
    // A judge cannot call time; the head judge can, and the audit log says so.
    let by_judge = reports::save_calling_time(
        &pool,
        &judge,
        false,
        event.id,
        ROUND,
        t.number,
        Revision::NONE,
        &time_draft,
        None,
    )
    .await;
    assert!(
        matches!(by_judge, Err(ResultsError::Forbidden(_))),
        "{by_judge:?}"
    );
    reports::save_calling_time(
        &pool,
        &admin,
        true,
        event.id,
        ROUND,
        t.number,
        Revision::NONE,
        &time_draft,
        None,
    )
    .await
    .expect("the head judge calls time");
    let called: Option<String> = sqlx::query_scalar(
        "SELECT detail->>'time_called_early' FROM audit_log \
         WHERE event_id = $1 AND action = 'report_saved' ORDER BY id DESC LIMIT 1",
    )
    .bind(event.id)
    .fetch_one(&pool)
    .await
    .unwrap();
    // The six hours of a table of six, less the moments since the start (rounded up).
    assert!(
        called
            .as_deref()
            .is_some_and(|left| left.starts_with("5:59") || left == "6:00:00"),
        "{called:?}"
    );
    // A table whose clock was never started keeps time by hand: no check.
    let other = &tables[1];
    let by_hand = Draft {
        seats: other
            .seats
            .iter()
            .enumerate()
            .map(|(i, s)| seat_result(s, None, [1, 9 + u32::try_from(i).unwrap(), 3, 1, 4]))
            .collect(),
        ..time_draft.clone()
    };
    reports::save(
        &pool,
        &admin,
        true,
        event.id,
        ROUND,
        other.number,
        Revision::NONE,
        &by_hand,
        None,
    )
    .await
    .expect("no clock, no check");
}

#[sqlx::test(migrator = "db::MIGRATOR")]
async fn a_rehearsal_clock_runs_out_in_minutes(pool: PgPool) {
    let (admin, event) = event(&pool).await;
    let mut settings = db::events::detail(&pool, event.id)
        .await
        .unwrap()
        .unwrap()
        .settings;
    settings.options.rehearsal_minutes = Some(1);
    db::events::update_settings(&pool, &admin, event.id, 1, settings)
        .await
        .expect("a test event's short clock");
    let tables = round_one(&pool, &admin, event.id, 6).await;
    let detail = rounds::detail(&pool, event.id, ROUND)
        .await
        .unwrap()
        .unwrap();
    let clock = detail.tables[0].clock;
    assert_eq!(clock.rehearsal_ms, Some(60_000));
    assert_eq!(clock.limit_ms(), 60_000);
    // Started two minutes ago (as stored): its time and its finish window are gone.
    sqlx::query(
        "UPDATE game_tables SET clock_started_at = now() - interval '2 minutes 1 second' WHERE id = $1",
    )
    .bind(tables[0].id)
    .execute(&pool)
    .await
    .unwrap();
    let (clock, now) = db::clocks::of_table(&pool, event.id, ROUND, tables[0].number)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(clock.read(now).phase, tournament::ClockPhase::Over);
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
    other.seats[0].end.spice = Spice::new(9);
    // Both pages showed "no report yet" (no revision) and save at the same moment.
    let mine = solo_win(t);
    let none = Revision::NONE;
    let (first, second) = tokio::join!(
        reports::save(
            &pool, &jo, false, event.id, ROUND, t.number, none, &mine, None
        ),
        reports::save(
            &pool, &kim, false, event.id, ROUND, t.number, none, &other, None
        ),
    );
    // Either may win the race; the other is told, and keeps their entry.
    let (ok, err, winner, loser, losers_draft) = match (first, second) {
        (Ok(r), Err(e)) => (r, e, &jo, &kim, &other),
        (Err(e), Ok(r)) => (r, e, &kim, &jo, &mine),
        other => panic!("exactly one save wins: {other:?}"),
    };
    assert_eq!(ok, Revision(1));
    assert!(err.is_conflict());
    assert!(err.to_string().contains("revision 1"), "{err}");
    assert!(err.to_string().contains(&winner.username), "{err}");
    let results = reports::table_results(&pool, event.id, ROUND, t.number)
        .await
        .unwrap();
    assert_eq!(results.revisions.len(), 1, "the first save is intact");
    // The second judge saves on top of the first, knowingly: both versions are in the history.
    reports::save(
        &pool,
        loser,
        false,
        event.id,
        ROUND,
        t.number,
        Revision(1),
        losers_draft,
        None,
    )
    .await
    .expect("saved as revision 2");
    let results = reports::table_results(&pool, event.id, ROUND, t.number)
        .await
        .unwrap();
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
    reports::save(
        &pool,
        &judge,
        false,
        event.id,
        ROUND,
        t.number,
        Revision::NONE,
        &solo_win(t),
        None,
    )
    .await
    .unwrap();
    confirm_all(&pool, &judge, event.id, t, 1).await;
    let mut fixed = solo_win(t);
    fixed.seats[0].result = None;
    fixed.seats[0].end.strongholds = 1;
    fixed.seats[1].result = Some(WinType::SoloStronghold);
    fixed.seats[1].end.strongholds = 3;
    let err = reports::save(
        &pool,
        &judge,
        false,
        event.id,
        ROUND,
        t.number,
        Revision(1),
        &fixed,
        Some("wrong seat"),
    )
    .await
    .unwrap_err();
    assert!(matches!(err, ResultsError::Forbidden(_)));
    let err = reports::save(
        &pool,
        &admin,
        true,
        event.id,
        ROUND,
        t.number,
        Revision(1),
        &fixed,
        None,
    )
    .await
    .unwrap_err();
    assert!(matches!(&err, ResultsError::Invalid(p) if p[0].field == Field::Named("reason")));
    reports::save(
        &pool,
        &admin,
        true,
        event.id,
        ROUND,
        t.number,
        Revision(1),
        &fixed,
        Some("the win was seat 2's; judge wrote the wrong line"),
    )
    .await
    .expect("corrected");
    let results = reports::table_results(&pool, event.id, ROUND, t.number)
        .await
        .unwrap();
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
    let err = finals::close_qualifying(&pool, &admin, event.id, true)
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
                        [if i == 0 { 3 } else { 0 }, 5, 5, 2, 4],
                    )
                })
                .collect(),
            judge_draw: None,
            prediction: None,
        };
        reports::save(
            &pool,
            &admin,
            false,
            event.id,
            ROUND,
            t.number,
            Revision::NONE,
            &draft,
            None,
        )
        .await
        .unwrap();
        reports::finalise(&pool, &admin, event.id, ROUND, t.number, Revision(1))
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

    let closed = finals::close_qualifying(&pool, &admin, event.id, true)
        .await
        .unwrap();
    assert_eq!(closed.finalists.len(), 2);
    assert_eq!(closed.all_finalists(), None, "the tie is not drawn yet");
    assert!(
        finals::close_qualifying(&pool, &admin, event.id, true)
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
    reports::save(
        &pool,
        &admin,
        false,
        event.id,
        ROUND,
        t.number,
        Revision::NONE,
        &solo_win(t),
        None,
    )
    .await
    .unwrap();
    reports::finalise(&pool, &admin, event.id, ROUND, t.number, Revision(1))
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

#[sqlx::test(migrator = "db::MIGRATOR")]
async fn closing_qualifying_early_needs_a_confirmation_and_can_be_undone(pool: PgPool) {
    let (admin, event) = event(&pool).await;
    let tables = round_one(&pool, &admin, event.id, 12).await;
    for t in &tables {
        reports::save(
            &pool,
            &admin,
            false,
            event.id,
            ROUND,
            t.number,
            Revision::NONE,
            &solo_win(t),
            None,
        )
        .await
        .unwrap();
        reports::finalise(&pool, &admin, event.id, ROUND, t.number, Revision(1))
            .await
            .unwrap();
    }
    // Round 1 of 4 played: closing asks first, naming the rounds left.
    let err = finals::close_qualifying(&pool, &admin, event.id, false)
        .await
        .unwrap_err();
    assert!(matches!(&err, ResultsError::Invalid(p) if p[0].field == Field::Named("confirm")));
    assert!(
        err.to_string()
            .starts_with("3 of the 4 qualifying rounds have not been played (rounds 2, 3, 4)"),
        "{err}"
    );
    assert!(
        finals::close_qualifying(&pool, &admin, event.id, true)
            .await
            .is_ok()
    );
    assert!(
        standings::event_standings(&pool, event.id)
            .await
            .unwrap()
            .closed
            .is_some()
    );

    // Reopened by the head judge, audited with what the closing had fixed.
    finals::reopen_qualifying(&pool, &admin, event.id, false)
        .await
        .expect("reopened");
    assert!(
        standings::event_standings(&pool, event.id)
            .await
            .unwrap()
            .closed
            .is_none()
    );
    let rows = db::audit::list(&pool, Some(event.id), 100).await.unwrap();
    let reopened = rows
        .iter()
        .find(|r| r.action == "qualifying_reopened")
        .expect("audited");
    assert_eq!(reopened.actor.as_deref(), Some("admin"));
    assert_eq!(
        reopened.detail["finalists"].as_array().map(Vec::len),
        Some(2)
    );
    let err = finals::reopen_qualifying(&pool, &admin, event.id, false)
        .await
        .unwrap_err();
    assert!(err.to_string().contains("open already"));

    // With every planned round played, no confirmation is asked.
    sqlx::query("UPDATE events SET qualifying_rounds = 1 WHERE id = $1")
        .bind(event.id)
        .execute(&pool)
        .await
        .unwrap();
    finals::close_qualifying(&pool, &admin, event.id, false)
        .await
        .expect("closed after the last round");
}

#[sqlx::test(migrator = "db::MIGRATOR")]
async fn the_finals_list_always_agrees_with_the_standings(pool: PgPool) {
    let (admin, event) = event(&pool).await;
    sqlx::query("UPDATE events SET qualifying_rounds = 1, options = options || '{\"finals_seats\": 2}'::jsonb WHERE id = $1")
        .bind(event.id)
        .execute(&pool)
        .await
        .unwrap();
    let tables = round_one(&pool, &admin, event.id, 12).await;
    for t in &tables {
        reports::save(
            &pool,
            &admin,
            false,
            event.id,
            ROUND,
            t.number,
            Revision::NONE,
            &solo_win(t),
            None,
        )
        .await
        .unwrap();
        reports::finalise(&pool, &admin, event.id, ROUND, t.number, Revision(1))
            .await
            .unwrap();
    }
    let closed = finals::close_qualifying(&pool, &admin, event.id, false)
        .await
        .unwrap();
    let winners = [
        tables[0].seats[0].player.clone(),
        tables[1].seats[0].player.clone(),
    ];
    let mut listed = closed.finalists.clone();
    listed.sort();
    let mut expected = winners.to_vec();
    expected.sort();
    assert_eq!(listed, expected);

    // The head judge corrects table 2 after closing: its winner is now seat 2. The finals list
    // follows the standings' finals line; it was not frozen at closing.
    let t = &tables[1];
    let mut corrected = solo_win(t);
    corrected.seats[0].result = None;
    corrected.seats[0].end.strongholds = 1;
    corrected.seats[1].result = Some(WinType::SoloStronghold);
    corrected.seats[1].end.strongholds = 3;
    reports::save(
        &pool,
        &admin,
        true,
        event.id,
        ROUND,
        t.number,
        Revision(1),
        &corrected,
        Some("wrong winner"),
    )
    .await
    .expect("corrected");
    let s = standings::event_standings(&pool, event.id).await.unwrap();
    let line: Vec<String> = s
        .rows
        .iter()
        .filter(|r| r.finalist == Some(true))
        .map(|r| r.player.clone())
        .collect();
    let closed = s.closed.expect("still closed");
    assert_eq!(closed.finalists, line);
    assert!(closed.finalists.contains(&t.seats[1].player));
    assert!(!closed.finalists.contains(&t.seats[0].player));
}

/// Round 1 of twelve played and reported (seat 1 of each table wins alone), qualifying set to
/// one round and closed, and the cut tie drawn: six finalists.
async fn qualified_for_the_final(pool: &PgPool, admin: &Actor, event_id: EventId) {
    sqlx::query("UPDATE events SET qualifying_rounds = 1 WHERE id = $1")
        .bind(event_id)
        .execute(pool)
        .await
        .unwrap();
    let tables = round_one(pool, admin, event_id, 12).await;
    for t in &tables {
        reports::save(
            pool,
            admin,
            false,
            event_id,
            ROUND,
            t.number,
            Revision::NONE,
            &solo_win(t),
            None,
        )
        .await
        .unwrap();
        reports::finalise(pool, admin, event_id, ROUND, t.number, Revision(1))
            .await
            .unwrap();
    }
}

async fn final_table(pool: &PgPool, event_id: EventId, number: RoundNumber) -> Table {
    let detail = rounds::detail(pool, event_id, number)
        .await
        .unwrap()
        .expect("the final round");
    assert!(detail.round.final_table);
    assert_eq!(detail.tables.len(), 1, "one final table");
    let t = detail.tables.into_iter().next().unwrap();
    Table {
        id: t.id,
        number: t.number,
        seats: t.seats,
    }
}

#[sqlx::test(migrator = "db::MIGRATOR")]
async fn the_final_table_is_drawn_from_the_finals_list_played_and_gives_the_placings(pool: PgPool) {
    let (admin, event) = event(&pool).await;
    qualified_for_the_final(&pool, &admin, event.id).await;
    let err = rounds::start_final(&pool, &admin, event.id, Some(5))
        .await
        .unwrap_err();
    assert!(matches!(err, rounds::RoundError::QualifyingOpen), "{err}");
    finals::close_qualifying(&pool, &admin, event.id, false)
        .await
        .unwrap();
    let err = rounds::start_final(&pool, &admin, event.id, Some(5))
        .await
        .unwrap_err();
    assert!(matches!(err, rounds::RoundError::CutUndrawn), "{err}");
    let closed = finals::draw_cut(&pool, &admin, event.id, Some(42))
        .await
        .unwrap();
    let mut finalists = closed.all_finalists().unwrap();
    let before = standings::event_standings(&pool, event.id).await.unwrap();

    let number = rounds::start_final(&pool, &admin, event.id, Some(5))
        .await
        .expect("drawn");
    assert_eq!(
        number,
        RoundNumber(2),
        "the round after the last qualifying one"
    );
    let err = rounds::start_final(&pool, &admin, event.id, Some(6))
        .await
        .unwrap_err();
    assert!(matches!(err, rounds::RoundError::FinalDrawn(n) if n == number));
    let table = final_table(&pool, event.id, number).await;
    let mut seated: Vec<String> = table.seats.iter().map(|s| s.player.clone()).collect();
    seated.sort();
    finalists.sort();
    assert_eq!(seated, finalists, "every finalist, nobody else");
    let factions: std::collections::HashSet<Faction> =
        table.seats.iter().filter_map(|s| s.faction).collect();
    assert_eq!(factions.len(), 6, "factions dealt (0.08)");
    // No qualifying round starts after the final is drawn.
    let err = rounds::start(
        &pool,
        &admin,
        event.id,
        rounds::NewRound {
            number: RoundNumber(3),
            seed: None,
            fallback: None,
            override_reason: None,
        },
    )
    .await
    .unwrap_err();
    assert!(matches!(err, rounds::RoundError::QualifyingClosed), "{err}");
    // The final is not redrawn like a round.
    let detail = rounds::detail(&pool, event.id, number)
        .await
        .unwrap()
        .unwrap();
    let err = rounds::redraw(
        &pool,
        &admin,
        event.id,
        number,
        detail.round.version,
        Some(1),
    )
    .await
    .unwrap_err();
    assert!(matches!(err, rounds::RoundError::FinalRedraw(_)), "{err}");

    rounds::begin(&pool, &admin, event.id, number, detail.round.version)
        .await
        .unwrap();
    // Seat 3 wins the final alone.
    let draft = Draft {
        ended: Ending::Win,
        last_turn: 7,
        seats: table
            .seats
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let result = (i == 2).then_some(WinType::SoloStronghold);
                seat_result(s, result, [if i == 2 { 3 } else { 0 }, 4, 2, 1, 3])
            })
            .collect(),
        judge_draw: None,
        prediction: None,
    };
    reports::save(
        &pool,
        &admin,
        false,
        event.id,
        number,
        table.number,
        Revision::NONE,
        &draft,
        None,
    )
    .await
    .unwrap();
    let pending = standings::event_standings(&pool, event.id).await.unwrap();
    let ft = pending.final_table.clone().expect("the final table shows");
    assert!(ft.begun && !ft.reported && ft.placings.is_empty());
    reports::finalise(&pool, &admin, event.id, number, table.number, Revision(1))
        .await
        .unwrap();

    let after = standings::event_standings(&pool, event.id).await.unwrap();
    // The final never counts in qualifying.
    assert_eq!(after.rows, before.rows);
    assert_eq!(after.rounds, 1);
    assert_eq!((after.tables, after.tables_final), (2, 2));
    let ft = after.final_table.expect("final table");
    assert!(ft.reported);
    assert_eq!(ft.placings.len(), 12, "everyone placed");
    assert_eq!(
        ft.placings[0].player, table.seats[2].player,
        "the final's winner first"
    );
    assert_eq!(ft.placings[0].result, Some(WinType::SoloStronghold.name()));
    assert!(ft.placings[..6].iter().all(|p| p.at_final));
    assert!(ft.placings[6..].iter().all(|p| !p.at_final));
    // Among the final's other players, qualifying order decides.
    let others: Vec<usize> = ft.placings[1..6].iter().map(|p| p.qualified).collect();
    let mut sorted = others.clone();
    sorted.sort_unstable();
    assert_eq!(others, sorted);
    let places: Vec<usize> = ft.placings.iter().map(|p| p.place).collect();
    assert_eq!(places, (1..=12).collect::<Vec<_>>());

    // With the final reported, qualifying stays closed.
    let err = finals::reopen_qualifying(&pool, &admin, event.id, false)
        .await
        .unwrap_err();
    assert!(err.to_string().contains("placings stand"), "{err}");
}

#[sqlx::test(migrator = "db::MIGRATOR")]
async fn a_final_in_qualifying_order_leaves_factions_open_and_reopening_withdraws_it(pool: PgPool) {
    let (admin, event) = event(&pool).await;
    sqlx::query(
        "UPDATE events SET options = options || '{\"final_seating\":\"qualifying_order\"}' WHERE id = $1",
    )
    .bind(event.id)
    .execute(&pool)
    .await
    .unwrap();
    qualified_for_the_final(&pool, &admin, event.id).await;
    finals::close_qualifying(&pool, &admin, event.id, false)
        .await
        .unwrap();
    let closed = finals::draw_cut(&pool, &admin, event.id, Some(3))
        .await
        .unwrap();
    let number = rounds::start_final(&pool, &admin, event.id, None)
        .await
        .unwrap();
    let table = final_table(&pool, event.id, number).await;
    let order: Vec<String> = table.seats.iter().map(|s| s.player.clone()).collect();
    assert_eq!(
        order,
        closed.all_finalists().unwrap(),
        "seated in qualifying order"
    );
    assert!(
        table
            .seats
            .iter()
            .all(|s| s.faction.is_none() && s.offered.is_none())
    );

    finals::reopen_qualifying(&pool, &admin, event.id, false)
        .await
        .expect("reopened");
    assert!(
        rounds::detail(&pool, event.id, number)
            .await
            .unwrap()
            .is_none()
    );
    let s = standings::event_standings(&pool, event.id).await.unwrap();
    assert!(s.final_table.is_none() && s.closed.is_none());
    let rows = db::audit::list(&pool, Some(event.id), 100).await.unwrap();
    assert!(rows.iter().any(|r| r.action == "final_table_withdrawn"));
    assert!(rows.iter().any(|r| r.action == "final_table_drawn"));
}

#[sqlx::test(migrator = "db::MIGRATOR")]
async fn reopening_qualifying_over_a_final_table_with_records_asks_and_keeps_them(pool: PgPool) {
    let (admin, event) = event(&pool).await;
    qualified_for_the_final(&pool, &admin, event.id).await;
    finals::close_qualifying(&pool, &admin, event.id, false)
        .await
        .unwrap();
    finals::draw_cut(&pool, &admin, event.id, Some(3))
        .await
        .unwrap();
    let number = rounds::start_final(&pool, &admin, event.id, None)
        .await
        .unwrap();
    let table = final_table(&pool, event.id, number).await;
    let draft = Draft {
        ended: Ending::Win,
        last_turn: 4,
        seats: table
            .seats
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let result = (i == 0).then_some(WinType::SoloStronghold);
                seat_result(s, result, [if i == 0 { 3 } else { 0 }, 4, 2, 1, 3])
            })
            .collect(),
        judge_draw: None,
        prediction: None,
    };
    reports::save(
        &pool,
        &admin,
        false,
        event.id,
        number,
        table.number,
        Revision::NONE,
        &draft,
        None,
    )
    .await
    .unwrap();

    let err = finals::reopen_qualifying(&pool, &admin, event.id, false)
        .await
        .unwrap_err();
    match &err {
        ResultsError::Invalid(p) => {
            assert_eq!(p[0].field, Field::Named("confirm"));
            assert!(
                p[0].message.contains("the Game Report (revision 1"),
                "{}",
                p[0].message
            );
        }
        other => panic!("expected a confirmation, got {other}"),
    }
    assert!(
        rounds::detail(&pool, event.id, number)
            .await
            .unwrap()
            .is_some()
    );

    finals::reopen_qualifying(&pool, &admin, event.id, true)
        .await
        .expect("reopened once confirmed");
    let rows = db::audit::list(&pool, Some(event.id), 200).await.unwrap();
    let withdrawn = rows
        .iter()
        .find(|r| r.action == "final_table_withdrawn")
        .expect("audited");
    assert!(
        withdrawn.detail["removed"][0]
            .as_str()
            .unwrap()
            .contains("the Game Report")
    );
    assert_eq!(
        withdrawn.detail["records"][0]["reports"][0]["seats"][0]["strongholds"],
        3
    );
}
