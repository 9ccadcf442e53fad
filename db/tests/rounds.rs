//! Rounds (draws, ruling 1, redraws, swaps, overrides) and table clocks against a real
//! PostgreSQL, a fresh database per test.

mod support;

use std::collections::BTreeSet;

use db::{
    PgPool,
    clocks::{self, ClockCommandError, Command, RoomCommand},
    players::{self, NewPlayer},
    rounds::{self, Fallback, NewRound, Place, RoundError},
};
use support::*;
use tournament::ids::{EventId, PlayerId, RoundNumber, TableId, TableNumber};
use tournament::{
    ClockPhase, DrawError, DrawRequest, Faction, History, PlayerName, Ruleset, RulingOptions,
    draw_round, tables::TableError,
};

const ROUND_1: RoundNumber = RoundNumber(1);
const ROUND_2: RoundNumber = RoundNumber(2);

fn new_round(number: i32, seed: u64) -> NewRound {
    NewRound {
        number: RoundNumber(number),
        seed: Some(seed),
        fallback: None,
        override_reason: None,
    }
}

#[sqlx::test(migrator = "db::MIGRATOR")]
async fn seventeen_players_sit_at_tables_of_6_6_and_5_with_the_seed_stored(pool: PgPool) {
    let (admin, event) = event(&pool).await;
    players(&pool, &admin, event.id, 17).await;
    rounds::start(&pool, &admin, event.id, new_round(1, 2026))
        .await
        .expect("drawn");
    let round = rounds::detail(&pool, event.id, ROUND_1)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(round.round.seed, 2026);
    assert_eq!(round.round.started_at, None, "drawn, not begun");
    let sizes: Vec<usize> = round.tables.iter().map(|t| t.seats.len()).collect();
    assert_eq!(sizes, [6, 6, 5]);
    for table in &round.tables {
        let factions: BTreeSet<Faction> = table.seats.iter().filter_map(|s| s.faction).collect();
        assert_eq!(
            factions.len(),
            table.seats.len(),
            "each faction once per table"
        );
        assert!(factions.iter().all(|f| f.is_classic()));
        let seats: Vec<i16> = table.seats.iter().map(|s| s.seat).collect();
        assert_eq!(seats, (1..=table.seats.len() as i16).collect::<Vec<_>>());
        assert_eq!(table.clock.players as usize, table.seats.len());
    }

    // The stored seed reproduces the draw exactly (ruling 4).
    let names: Vec<PlayerName> = (1..=17)
        .map(|i| PlayerName::parse(&player_name(i)).unwrap())
        .collect();
    let again = draw_round(&DrawRequest {
        seed: 2026,
        ruleset: Ruleset::Gc2133,
        players: &names,
        byes: &[],
        history: &History::default(),
        options: &RulingOptions::default(),
    })
    .unwrap();
    for (stored, drawn) in round.tables.iter().zip(&again.tables) {
        let stored: Vec<(i16, &str, Option<Faction>)> = stored
            .seats
            .iter()
            .map(|s| (s.seat, s.player.as_str(), s.faction))
            .collect();
        let drawn: Vec<(i16, &str, Option<Faction>)> = drawn
            .seats
            .iter()
            .map(|s| (i16::from(s.seat), s.player.as_str(), s.deal.faction()))
            .collect();
        assert_eq!(stored, drawn);
    }
    let actions = audit_actions(&pool, event.id).await;
    assert_eq!(actions.last().map(String::as_str), Some("round_drawn"));
    let entry = &db::audit::for_round(&pool, event.id, ROUND_1)
        .await
        .unwrap()[0];
    assert_eq!(entry.detail["seed"], "2026");
    assert_eq!(entry.actor.as_deref(), Some("admin"));
}

#[sqlx::test(migrator = "db::MIGRATOR")]
async fn only_checked_in_players_who_have_not_dropped_are_drawn(pool: PgPool) {
    let (admin, event) = event(&pool).await;
    players(&pool, &admin, event.id, 12).await;
    let absent = players::add(
        &pool,
        &admin,
        event.id,
        NewPlayer::parse("Absent", "", "").unwrap(),
    )
    .await
    .unwrap();
    rounds::start(&pool, &admin, event.id, new_round(1, 5))
        .await
        .unwrap();
    let round = rounds::detail(&pool, event.id, ROUND_1)
        .await
        .unwrap()
        .unwrap();
    let seated: Vec<PlayerId> = round
        .tables
        .iter()
        .flat_map(|t| t.seats.iter().map(|s| s.player_id))
        .collect();
    assert_eq!(seated.len(), 12);
    assert!(!seated.contains(&absent.id));
}

#[sqlx::test(migrator = "db::MIGRATOR")]
async fn later_rounds_avoid_repeat_opponents_and_factions(pool: PgPool) {
    let (admin, event) = event(&pool).await;
    players(&pool, &admin, event.id, 12).await;
    start(&pool, &admin, event.id, 1, 1).await;
    report_all(&pool, event.id, 1).await;
    start(&pool, &admin, event.id, 2, 2).await;
    let r1 = rounds::detail(&pool, event.id, ROUND_1)
        .await
        .unwrap()
        .unwrap();
    let r2 = rounds::detail(&pool, event.id, ROUND_2)
        .await
        .unwrap()
        .unwrap();
    // Two tables of 6 twice: 12 repeated pairs is the least possible (docs/cli.md), and each
    // player can get a faction not played before.
    assert_eq!(r2.round.quality["repeat_pairs"], 12);
    assert_eq!(r2.round.quality["proven_optimal"], true);
    assert_eq!(r2.round.quality["repeat_factions"], 0);
    for seat in r2.tables.iter().flat_map(|t| &t.seats) {
        let before = r1
            .tables
            .iter()
            .flat_map(|t| &t.seats)
            .find(|s| s.player_id == seat.player_id)
            .unwrap();
        assert_ne!(
            before.faction, seat.faction,
            "{} repeats a faction",
            seat.player
        );
    }
}

#[sqlx::test(migrator = "db::MIGRATOR")]
async fn a_stale_round_number_and_a_finished_schedule_are_refused(pool: PgPool) {
    let (admin, event) = event(&pool).await;
    players(&pool, &admin, event.id, 10).await;
    let skip = rounds::start(&pool, &admin, event.id, new_round(2, 1)).await;
    assert!(
        matches!(
            skip,
            Err(RoundError::NotNext {
                asked: ROUND_2,
                next: ROUND_1
            })
        ),
        "{skip:?}"
    );
    start(&pool, &admin, event.id, 1, 1).await;
    let again = rounds::start(&pool, &admin, event.id, new_round(1, 1))
        .await
        .unwrap_err();
    assert!(again.is_conflict(), "{again}");
    assert!(again.to_string().contains("Reload"), "{again}");

    sqlx::query("UPDATE events SET qualifying_rounds = 1 WHERE id = $1")
        .bind(event.id)
        .execute(&pool)
        .await
        .unwrap();
    report_all(&pool, event.id, 1).await;
    let beyond = rounds::start(&pool, &admin, event.id, new_round(2, 1)).await;
    assert!(
        matches!(beyond, Err(RoundError::AllRoundsDrawn(1))),
        "{beyond:?}"
    );
}

#[sqlx::test(migrator = "db::MIGRATOR")]
async fn concurrent_starts_of_the_same_round_have_exactly_one_winner(pool: PgPool) {
    let (admin, event) = event(&pool).await;
    players(&pool, &admin, event.id, 30).await;
    let attempts = (0..4u64).map(|i| {
        let pool = pool.clone();
        let admin = admin.clone();
        tokio::spawn(
            async move { rounds::start(&pool, &admin, event.id, new_round(1, 100 + i)).await },
        )
    });
    let mut won = 0;
    let mut refused = 0;
    for attempt in attempts.collect::<Vec<_>>() {
        match attempt.await.expect("task") {
            Ok(_) => won += 1,
            Err(e) if e.is_conflict() => refused += 1,
            Err(e) => panic!("unexpected: {e}"),
        }
    }
    assert_eq!((won, refused), (1, 3));
    let rounds = rounds::list(&pool, event.id).await.unwrap();
    assert_eq!(rounds.len(), 1);
    assert_eq!(rounds[0].seated, 30);
    let drawn = audit_actions(&pool, event.id)
        .await
        .into_iter()
        .filter(|a| a == "round_drawn")
        .count();
    assert_eq!(drawn, 1);
}

#[sqlx::test(migrator = "db::MIGRATOR")]
async fn unreported_games_block_the_next_round_unless_overridden_with_a_reason(pool: PgPool) {
    let (admin, event) = event(&pool).await;
    players(&pool, &admin, event.id, 11).await;
    start(&pool, &admin, event.id, 1, 1).await;
    let round1 = rounds::detail(&pool, event.id, ROUND_1)
        .await
        .unwrap()
        .unwrap();
    let table1 = &round1.tables[0];
    final_report(&pool, &admin, event.id, ROUND_1, table1).await;
    let blocked = rounds::start(&pool, &admin, event.id, new_round(2, 2)).await;
    let Err(RoundError::Unreported {
        round: ROUND_1,
        tables,
    }) = &blocked
    else {
        panic!("expected a block, got {blocked:?}")
    };
    assert_eq!(tables, &[TableNumber(2)]);
    assert!(blocked.unwrap_err().to_string().contains("table 2"));
    assert_eq!(
        rounds::unreported_tables(&pool, event.id, ROUND_1)
            .await
            .unwrap(),
        [TableNumber(2)],
        "the dashboard's list"
    );
    let blank = rounds::start(
        &pool,
        &admin,
        event.id,
        NewRound {
            override_reason: Some("   ".into()),
            ..new_round(2, 2)
        },
    )
    .await;
    assert!(matches!(blank, Err(RoundError::Unreported { .. })));
    rounds::start(
        &pool,
        &admin,
        event.id,
        NewRound {
            override_reason: Some("Table 2's report is on paper; entered later".into()),
            ..new_round(2, 2)
        },
    )
    .await
    .expect("overridden");
    let changes = db::audit::for_round(&pool, event.id, ROUND_2)
        .await
        .unwrap();
    let override_entry = changes
        .iter()
        .find(|r| r.action == "unreported_override")
        .expect("override recorded");
    assert_eq!(
        override_entry.detail["reason"],
        "Table 2's report is on paper; entered later"
    );
    assert_eq!(override_entry.actor.as_deref(), Some("admin"));
    let stored: Option<String> =
        sqlx::query_scalar("SELECT override_reason FROM rounds WHERE number = 2")
            .fetch_one(&pool)
            .await
            .unwrap();
    assert!(stored.is_some());
}

#[sqlx::test(migrator = "db::MIGRATOR")]
async fn an_impossible_count_shows_ruling_1_and_acts_on_the_head_judges_choice(pool: PgPool) {
    let (admin, event) = event(&pool).await;
    let ids = players(&pool, &admin, event.id, 8).await;
    let refused = rounds::start(&pool, &admin, event.id, new_round(1, 1)).await;
    let Err(RoundError::Draw(DrawError::Tables(TableError::NoSplit(options)))) = &refused else {
        panic!("expected ruling 1's options, got {refused:?}")
    };
    assert_eq!(options.alternates, (2, vec![5, 5]));
    assert_eq!(options.four_player_tables, Some(vec![4, 4]));
    assert_eq!(options.byes, Some((2, vec![6])));
    assert!(rounds::list(&pool, event.id).await.unwrap().is_empty());

    // Byes for two chosen players; a bye for someone not drawn is refused.
    let wrong = rounds::start(
        &pool,
        &admin,
        event.id,
        NewRound {
            fallback: Some(Fallback::Byes(vec![ids[0], PlayerId(999_999)])),
            ..new_round(1, 1)
        },
    )
    .await;
    assert!(
        matches!(wrong, Err(RoundError::Field { field: "byes", .. })),
        "{wrong:?}"
    );
    rounds::start(
        &pool,
        &admin,
        event.id,
        NewRound {
            fallback: Some(Fallback::Byes(vec![ids[0], ids[1]])),
            ..new_round(1, 1)
        },
    )
    .await
    .expect("byes");
    let round = rounds::detail(&pool, event.id, ROUND_1)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(round.tables.len(), 1);
    assert_eq!(round.tables[0].seats.len(), 6);
    assert_eq!(
        round.byes.iter().map(|b| b.0).collect::<Vec<_>>(),
        [ids[0], ids[1]]
    );
    assert_eq!(round.round.table_fallback, "byes");
    let bye_view = rounds::player_view(&pool, event.id, ids[0])
        .await
        .unwrap()
        .unwrap();
    assert_eq!(bye_view.place, Place::Bye);
    let version = round.round.version;
    rounds::cancel(&pool, &admin, event.id, ROUND_1, version, false)
        .await
        .unwrap();

    rounds::start(
        &pool,
        &admin,
        event.id,
        NewRound {
            fallback: Some(Fallback::FourPlayerTables),
            ..new_round(1, 1)
        },
    )
    .await
    .expect("4-player tables");
    let round = rounds::detail(&pool, event.id, ROUND_1)
        .await
        .unwrap()
        .unwrap();
    let sizes: Vec<usize> = round.tables.iter().map(|t| t.seats.len()).collect();
    assert_eq!(sizes, [4, 4]);
    assert_eq!(round.tables[0].clock.players, 4, "4 hours for 4 players");
    rounds::cancel(&pool, &admin, event.id, ROUND_1, round.round.version, false)
        .await
        .unwrap();

    let alternates = vec![
        PlayerName::parse("Alt One").unwrap(),
        PlayerName::parse("Alt Two").unwrap(),
    ];
    let clash = rounds::start(
        &pool,
        &admin,
        event.id,
        NewRound {
            fallback: Some(Fallback::Alternates(vec![
                PlayerName::parse(&player_name(1)).unwrap(),
            ])),
            ..new_round(1, 1)
        },
    )
    .await;
    assert!(matches!(
        clash,
        Err(RoundError::Field {
            field: "alternates",
            ..
        })
    ));
    rounds::start(
        &pool,
        &admin,
        event.id,
        NewRound {
            fallback: Some(Fallback::Alternates(alternates)),
            ..new_round(1, 1)
        },
    )
    .await
    .expect("alternates");
    let round = rounds::detail(&pool, event.id, ROUND_1)
        .await
        .unwrap()
        .unwrap();
    let sizes: Vec<usize> = round.tables.iter().map(|t| t.seats.len()).collect();
    assert_eq!(sizes, [5, 5]);
    let list = players::list(&pool, event.id).await.unwrap();
    let alts: Vec<&str> = list
        .iter()
        .filter(|p| p.alternate)
        .map(|p| p.name.as_str())
        .collect();
    assert_eq!(alts, ["Alt One", "Alt Two"]);
    let actions = audit_actions(&pool, event.id).await;
    assert_eq!(
        actions.iter().filter(|a| *a == "round_cancelled").count(),
        2
    );
}

#[sqlx::test(migrator = "db::MIGRATOR")]
async fn redraws_and_swaps_before_play_are_versioned_and_recorded(pool: PgPool) {
    let (admin, event) = event(&pool).await;
    players(&pool, &admin, event.id, 11).await;
    start(&pool, &admin, event.id, 1, 10).await;
    let first = rounds::detail(&pool, event.id, ROUND_1)
        .await
        .unwrap()
        .unwrap();
    let v1 = first.round.version;

    rounds::redraw(&pool, &admin, event.id, ROUND_1, v1, Some(11))
        .await
        .expect("redrawn");
    let second = rounds::detail(&pool, event.id, ROUND_1)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(second.round.seed, 11);
    assert_eq!(second.round.version, v1 + 1);
    let seated = |d: &rounds::RoundDetail| {
        let mut ids: Vec<PlayerId> = d
            .tables
            .iter()
            .flat_map(|t| t.seats.iter().map(|s| s.player_id))
            .collect();
        ids.sort();
        ids
    };
    assert_eq!(seated(&first), seated(&second), "the same players");
    // A page that still shows the first draw cannot act on it.
    let stale = rounds::redraw(&pool, &admin, event.id, ROUND_1, v1, Some(12)).await;
    assert!(
        matches!(stale, Err(RoundError::Stale(ROUND_1))),
        "{stale:?}"
    );

    let a = &second.tables[0].seats[0];
    let b = &second.tables[1].seats[2];
    rounds::swap(
        &pool,
        &admin,
        event.id,
        ROUND_1,
        second.round.version,
        a.player_id,
        b.player_id,
    )
    .await
    .expect("swapped");
    let third = rounds::detail(&pool, event.id, ROUND_1)
        .await
        .unwrap()
        .unwrap();
    let a_now = &third.tables[1].seats[2];
    let b_now = &third.tables[0].seats[0];
    assert_eq!(a_now.player_id, a.player_id, "a took b's place");
    assert_eq!(b_now.player_id, b.player_id);
    assert_eq!(a_now.faction, b.faction, "the faction stays with the seat");
    assert_eq!((a_now.seat, a_now.circle), (b.seat, b.circle));
    let same = rounds::swap(
        &pool,
        &admin,
        event.id,
        ROUND_1,
        third.round.version,
        a.player_id,
        a.player_id,
    )
    .await;
    assert!(matches!(same, Err(RoundError::Field { .. })));
    let stale = rounds::swap(
        &pool,
        &admin,
        event.id,
        ROUND_1,
        second.round.version,
        a.player_id,
        b.player_id,
    )
    .await;
    assert!(matches!(stale, Err(RoundError::Stale(ROUND_1))));

    rounds::begin(&pool, &admin, event.id, ROUND_1, third.round.version)
        .await
        .expect("begun");
    let begun = rounds::detail(&pool, event.id, ROUND_1)
        .await
        .unwrap()
        .unwrap();
    assert!(begun.round.started_at.is_some());
    let late = rounds::redraw(&pool, &admin, event.id, ROUND_1, begun.round.version, None).await;
    assert!(matches!(late, Err(RoundError::Begun(ROUND_1))), "{late:?}");
    let late = rounds::swap(
        &pool,
        &admin,
        event.id,
        ROUND_1,
        begun.round.version,
        a.player_id,
        b.player_id,
    )
    .await;
    assert!(matches!(late, Err(RoundError::Begun(ROUND_1))));

    let changes = db::audit::for_round(&pool, event.id, ROUND_1)
        .await
        .unwrap();
    let actions: Vec<&str> = changes.iter().map(|r| r.action.as_str()).collect();
    assert_eq!(
        actions,
        [
            "round_drawn",
            "round_redrawn",
            "seats_swapped",
            "round_begun"
        ]
    );
    assert_eq!(changes[1].detail["previous_seed"], "10");
    assert_eq!(changes[1].detail["seed"], "11");
    assert!(
        changes[2].detail["first"]
            .as_str()
            .unwrap()
            .contains("(table 1, seat 1)"),
        "{}",
        changes[2].detail
    );
    assert!(changes.iter().all(|c| c.actor.as_deref() == Some("admin")));
}

async fn backdate(pool: &PgPool, table_id: TableId, column: &str, minutes: i64) {
    sqlx::query(&format!(
        "UPDATE game_tables SET {column} = {column} - make_interval(mins => $2::int) WHERE id = $1"
    ))
    .bind(table_id)
    .bind(minutes as i32)
    .execute(pool)
    .await
    .unwrap();
}

#[sqlx::test(migrator = "db::MIGRATOR")]
async fn clocks_start_pause_resume_and_extend_from_stored_instants(pool: PgPool) {
    let (admin, event) = event(&pool).await;
    let ids = players(&pool, &admin, event.id, 11).await;
    start(&pool, &admin, event.id, 1, 1).await;
    let round = rounds::detail(&pool, event.id, ROUND_1)
        .await
        .unwrap()
        .unwrap();
    let table = &round.tables[0];
    assert_eq!(table.seats.len(), 6);
    let reading = table.clock.read(round.now_ms);
    assert_eq!(reading.phase, ClockPhase::NotStarted);
    assert_eq!(
        reading.remaining_ms,
        6 * 3_600_000,
        "an hour per seated player"
    );

    let pause_first = clocks::apply(
        &pool,
        &admin,
        event.id,
        table.id,
        table.version,
        Command::Pause,
    )
    .await;
    assert!(matches!(pause_first, Err(ClockCommandError::Clock { .. })));
    clocks::apply(
        &pool,
        &admin,
        event.id,
        table.id,
        table.version,
        Command::Start,
    )
    .await
    .expect("started");
    // Starting a clock begins the round: its seats are final.
    let round = rounds::detail(&pool, event.id, ROUND_1)
        .await
        .unwrap()
        .unwrap();
    assert!(round.round.started_at.is_some());
    let table = &round.tables[0];
    let stale = clocks::apply(
        &pool,
        &admin,
        event.id,
        table.id,
        table.version - 1,
        Command::Pause,
    )
    .await;
    assert!(
        matches!(stale, Err(ClockCommandError::Stale(TableNumber(1)))),
        "{stale:?}"
    );

    // Two hours later (moved back in the database, as if the server had been down meanwhile):
    // the reading comes from the stored start alone.
    backdate(&pool, table.id, "clock_started_at", 120).await;
    let board = clocks::board(&pool, event.id).await.unwrap().unwrap();
    let reading = board.tables[0].clock.read(board.now_ms);
    assert_eq!(reading.phase, ClockPhase::Running);
    assert!(
        (120 * 60_000..121 * 60_000).contains(&reading.elapsed_ms),
        "{reading:?}"
    );

    clocks::apply(
        &pool,
        &admin,
        event.id,
        table.id,
        table.version,
        Command::Pause,
    )
    .await
    .unwrap();
    let round = rounds::detail(&pool, event.id, ROUND_1)
        .await
        .unwrap()
        .unwrap();
    let table = &round.tables[0];
    // Ten minutes of pause: they do not count.
    backdate(&pool, table.id, "clock_paused_at", 10).await;
    backdate(&pool, table.id, "clock_started_at", 10).await;
    let paused = clocks::board(&pool, event.id).await.unwrap().unwrap();
    let reading = paused.tables[0].clock.read(paused.now_ms);
    assert!(reading.paused);
    assert!(
        (120 * 60_000..121 * 60_000).contains(&reading.elapsed_ms),
        "{reading:?}"
    );
    let resumed = clocks::apply(
        &pool,
        &admin,
        event.id,
        table.id,
        table.version,
        Command::Resume,
    )
    .await
    .unwrap();
    assert!(
        (10 * 60_000..11 * 60_000).contains(&resumed.paused_ms),
        "{resumed:?}"
    );
    let round = rounds::detail(&pool, event.id, ROUND_1)
        .await
        .unwrap()
        .unwrap();
    let table = &round.tables[0];

    let no_reason = clocks::apply(
        &pool,
        &admin,
        event.id,
        table.id,
        table.version,
        Command::Extend {
            minutes: 10,
            reason: " ".into(),
        },
    )
    .await;
    assert!(matches!(no_reason, Err(ClockCommandError::ReasonRequired)));
    let extended = clocks::apply(
        &pool,
        &admin,
        event.id,
        table.id,
        table.version,
        Command::Extend {
            minutes: 10,
            reason: "Rules question at the Battle phase".into(),
        },
    )
    .await
    .unwrap();
    assert_eq!(extended.limit_ms(), 6 * 3_600_000 + 10 * 60_000);

    // Past the limit: the finish window, then over.
    backdate(&pool, table.id, "clock_started_at", 6 * 60 + 10 - 120 + 5).await;
    let board = clocks::board(&pool, event.id).await.unwrap().unwrap();
    assert_eq!(
        board.tables[0].clock.read(board.now_ms).phase,
        ClockPhase::FinishWindow
    );
    backdate(&pool, table.id, "clock_started_at", 30).await;
    let board = clocks::board(&pool, event.id).await.unwrap().unwrap();
    assert_eq!(
        board.tables[0].clock.read(board.now_ms).phase,
        ClockPhase::Over
    );

    // The player's phone reads the same clock.
    let seated = round.tables[0].seats[0].player_id;
    let view = rounds::player_view(&pool, event.id, seated)
        .await
        .unwrap()
        .unwrap();
    let Place::Seated {
        table: TableNumber(1),
        clock,
        seat,
        table_seats,
        ..
    } = view.place
    else {
        panic!("seated at table 1: {:?}", view.place)
    };
    assert_eq!(clock.read(view.now_ms).phase, ClockPhase::Over);
    assert_eq!(seat.player_id, seated);
    assert_eq!(table_seats.len(), 6);
    assert!(seat.faction.is_some());
    let changes = db::audit::for_round(&pool, event.id, ROUND_1)
        .await
        .unwrap();
    let actions: Vec<&str> = changes.iter().map(|r| r.action.as_str()).collect();
    assert_eq!(
        actions,
        [
            "round_drawn",
            "clock_started",
            "round_begun",
            "clock_paused",
            "clock_resumed",
            "clock_extended"
        ]
    );
    assert_eq!(
        changes[5].detail["reason"],
        "Rules question at the Battle phase"
    );
    assert_eq!(changes[5].detail["minutes"], 10);

    let not_seated = players::add(
        &pool,
        &admin,
        event.id,
        NewPlayer::parse("Late", "", "").unwrap(),
    )
    .await
    .unwrap();
    let view = rounds::player_view(&pool, event.id, not_seated.id)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(view.place, Place::NotSeated);
    assert_eq!(view.round, Some(ROUND_1));
    assert!(
        rounds::player_view(&pool, EventId(event.id.get() + 1), ids[0])
            .await
            .unwrap()
            .is_none()
    );
}

#[sqlx::test(migrator = "db::MIGRATOR")]
async fn the_dashboard_counts_players_tables_in_play_and_missing_reports(pool: PgPool) {
    let (admin, event) = event(&pool).await;
    players(&pool, &admin, event.id, 16).await;
    players::add(
        &pool,
        &admin,
        event.id,
        NewPlayer::parse("Not here", "", "").unwrap(),
    )
    .await
    .unwrap();
    let counts = rounds::player_counts(&pool, event.id).await.unwrap();
    assert_eq!(
        (counts.registered, counts.checked_in, counts.dropped),
        (17, 16, 0)
    );
    start(&pool, &admin, event.id, 1, 3).await;
    let round = rounds::detail(&pool, event.id, ROUND_1)
        .await
        .unwrap()
        .unwrap();
    for table in &round.tables[..2] {
        clocks::apply(
            &pool,
            &admin,
            event.id,
            table.id,
            table.version,
            Command::Start,
        )
        .await
        .unwrap();
    }
    let round = rounds::detail(&pool, event.id, ROUND_1)
        .await
        .unwrap()
        .unwrap();
    let t = &round.tables[0];
    final_report(&pool, &admin, event.id, ROUND_1, t).await;
    let list = rounds::list(&pool, event.id).await.unwrap();
    assert_eq!(list.len(), 1);
    let r = &list[0];
    assert_eq!((r.tables, r.seated, r.byes), (3, 16, 0));
    assert_eq!(
        r.in_play, 1,
        "table 2 is running; table 1 has reported, table 3 has not started"
    );
    assert_eq!(r.reports_missing, 2);
    assert!(r.begun);
}

#[sqlx::test(migrator = "db::MIGRATOR")]
async fn under_the_full_ruleset_each_player_is_offered_a_classic_and_an_expansion_card(
    pool: PgPool,
) {
    let (admin, event) = event(&pool).await;
    let detail = db::events::detail(&pool, event.id).await.unwrap().unwrap();
    let mut settings = detail.settings;
    settings.ruleset = Ruleset::Full;
    db::events::update_settings(&pool, &admin, event.id, detail.version, settings)
        .await
        .unwrap();
    players(&pool, &admin, event.id, 10).await;
    start(&pool, &admin, event.id, 1, 9).await;
    let round = rounds::detail(&pool, event.id, ROUND_1)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(round.round.ruleset, "full");
    for table in &round.tables {
        let mut cards = BTreeSet::new();
        for seat in &table.seats {
            assert_eq!(seat.faction, None, "the player picks at the table");
            let (classic, expansion) = seat.offered.expect("two cards offered");
            assert!(classic.is_classic() && !expansion.is_classic());
            assert!(
                cards.insert(classic) && cards.insert(expansion),
                "every card once per table"
            );
        }
    }
    // The next draw reads a round without known factions as history without factions.
    report_all(&pool, event.id, 1).await;
    start(&pool, &admin, event.id, 2, 10).await;
    let entrants = rounds::entrants(&pool, event.id).await.unwrap();
    assert_eq!(entrants.len(), 10);
    assert_eq!(entrants[0].1, player_name(1));
}

#[sqlx::test(migrator = "db::MIGRATOR")]
async fn start_all_starts_every_clock_of_a_round_at_one_instant_and_pause_all_holds_them(
    pool: PgPool,
) {
    let (admin, event) = event(&pool).await;
    players(&pool, &admin, event.id, 17).await;
    start(&pool, &admin, event.id, 1, 3).await;
    let round = rounds::detail(&pool, event.id, ROUND_1)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(round.tables.len(), 3);
    // One table was started by hand before the room.
    let first = &round.tables[0];
    clocks::apply(
        &pool,
        &admin,
        event.id,
        first.id,
        first.version,
        Command::Start,
    )
    .await
    .unwrap();
    backdate(&pool, first.id, "clock_started_at", 5).await;

    let started = clocks::apply_all(&pool, &admin, event.id, ROUND_1, RoomCommand::StartAll)
        .await
        .expect("started");
    assert_eq!(started.changed, [TableNumber(2), TableNumber(3)]);
    assert_eq!(started.skipped.len(), 1);
    assert_eq!(started.skipped[0].0, TableNumber(1));
    assert!(started.skipped[0].1.contains("already running"));
    assert_eq!(
        started.summary(RoomCommand::StartAll),
        "Clocks started at 2 tables (2, 3)."
    );
    // One stored timestamp for every table the command started; the round has begun.
    let stamps: Vec<Option<chrono::DateTime<chrono::Utc>>> = sqlx::query_scalar(
        "SELECT t.clock_started_at FROM game_tables t JOIN rounds r ON r.id = t.round_id \
         WHERE r.event_id = $1 ORDER BY t.number",
    )
    .bind(event.id)
    .fetch_all(&pool)
    .await
    .unwrap();
    assert_eq!(stamps[1], Some(started.at));
    assert_eq!(stamps[2], Some(started.at));
    assert_ne!(
        stamps[0],
        Some(started.at),
        "the hand-started table keeps its start"
    );
    let round = rounds::detail(&pool, event.id, ROUND_1)
        .await
        .unwrap()
        .unwrap();
    assert!(round.round.started_at.is_some());
    // Starting all again finds nothing to start, and says why for each table.
    let err = clocks::apply_all(&pool, &admin, event.id, ROUND_1, RoomCommand::StartAll)
        .await
        .unwrap_err();
    assert!(matches!(err, ClockCommandError::NoneChanged { .. }));
    assert!(
        err.to_string()
            .contains("table 3: the clock is already running"),
        "{err}"
    );

    // The fire alarm: every clock pauses at one instant, then every one runs again.
    let paused = clocks::apply_all(&pool, &admin, event.id, ROUND_1, RoomCommand::PauseAll)
        .await
        .expect("paused");
    assert_eq!(paused.changed.len(), 3);
    let round = rounds::detail(&pool, event.id, ROUND_1)
        .await
        .unwrap()
        .unwrap();
    assert!(
        round
            .tables
            .iter()
            .all(|t| t.clock.read(round.now_ms).paused)
    );
    assert!(
        round
            .tables
            .iter()
            .all(|t| t.clock.paused_at == Some(paused.at.timestamp_millis()))
    );
    let resumed = clocks::apply_all(&pool, &admin, event.id, ROUND_1, RoomCommand::ResumeAll)
        .await
        .expect("resumed");
    assert_eq!(resumed.changed.len(), 3);
    let round = rounds::detail(&pool, event.id, ROUND_1)
        .await
        .unwrap()
        .unwrap();
    assert!(
        round
            .tables
            .iter()
            .all(|t| !t.clock.read(round.now_ms).paused)
    );
    let actions = audit_actions(&pool, event.id).await;
    for action in ["clocks_started", "clocks_paused", "clocks_resumed"] {
        assert_eq!(
            actions.iter().filter(|a| *a == action).count(),
            1,
            "{action}"
        );
    }
}

#[sqlx::test(migrator = "db::MIGRATOR")]
async fn a_tables_clock_stops_when_its_report_becomes_final(pool: PgPool) {
    let (admin, event) = event(&pool).await;
    players(&pool, &admin, event.id, 12).await;
    start(&pool, &admin, event.id, 1, 3).await;
    clocks::apply_all(&pool, &admin, event.id, ROUND_1, RoomCommand::StartAll)
        .await
        .unwrap();
    let round = rounds::detail(&pool, event.id, ROUND_1)
        .await
        .unwrap()
        .unwrap();
    let table = &round.tables[0];
    backdate(&pool, table.id, "clock_started_at", 200).await;
    final_report(&pool, &admin, event.id, ROUND_1, table).await;
    // An hour later (the report's instant moved back by as much as the start).
    backdate(&pool, table.id, "clock_started_at", 60).await;
    backdate(&pool, table.id, "reported_at", 60).await;

    let round = rounds::detail(&pool, event.id, ROUND_1)
        .await
        .unwrap()
        .unwrap();
    let table = &round.tables[0];
    let reading = table.clock.read(round.now_ms);
    assert!(reading.stopped);
    assert!(!reading.paused);
    // The time at finality (about 200 minutes of play), not the 260 since the start.
    let minutes = reading.elapsed_ms / 60_000;
    assert!((199..=201).contains(&minutes), "{minutes} min");
    let board = clocks::board(&pool, event.id).await.unwrap().unwrap();
    assert!(board.tables[0].clock.read(board.now_ms).stopped);
    assert!(!board.tables[1].clock.read(board.now_ms).stopped);
    // A stopped clock takes no more commands; the room commands pass it by.
    let err = clocks::apply(
        &pool,
        &admin,
        event.id,
        table.id,
        table.version,
        Command::Pause,
    )
    .await
    .unwrap_err();
    assert!(err.to_string().contains("report is final"), "{err}");
    // Nor an extension: the refusal names the table and why.
    let err = clocks::apply(
        &pool,
        &admin,
        event.id,
        table.id,
        table.version,
        Command::Extend {
            minutes: 10,
            reason: "a dispute".into(),
        },
    )
    .await
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "Table 1: the table's report is final, so its clock has stopped."
    );
    let paused = clocks::apply_all(&pool, &admin, event.id, ROUND_1, RoomCommand::PauseAll)
        .await
        .unwrap();
    assert_eq!(paused.changed, [TableNumber(2)]);
    // A player's phone reads the same stopped clock.
    let view = rounds::player_view(&pool, event.id, table.seats[0].player_id)
        .await
        .unwrap()
        .unwrap();
    match view.place {
        Place::Seated {
            clock, reported, ..
        } => {
            assert!(reported);
            assert!(clock.read(view.now_ms).stopped);
        }
        other => panic!("seated, not {other:?}"),
    }
}

#[sqlx::test(migrator = "db::MIGRATOR")]
async fn no_qualifying_round_starts_while_qualifying_is_closed(pool: PgPool) {
    let (admin, event) = event(&pool).await;
    players(&pool, &admin, event.id, 12).await;
    start(&pool, &admin, event.id, 1, 3).await;
    let round = rounds::detail(&pool, event.id, ROUND_1)
        .await
        .unwrap()
        .unwrap();
    for table in &round.tables {
        final_report(&pool, &admin, event.id, ROUND_1, table).await;
    }
    db::results::finals::close_qualifying(&pool, &admin, event.id, true)
        .await
        .expect("closed early, confirmed");
    let err = rounds::start(&pool, &admin, event.id, new_round(2, 1))
        .await
        .unwrap_err();
    assert!(matches!(err, RoundError::QualifyingClosed), "{err}");
    db::results::finals::reopen_qualifying(&pool, &admin, event.id, false)
        .await
        .expect("reopened");
    rounds::start(&pool, &admin, event.id, new_round(2, 1))
        .await
        .expect("round 2 after reopening");
}
