//! Event settings and players (registration, CSV import, check-in, drops) against a real
//! PostgreSQL, a fresh database per test.

mod support;

use chrono::NaiveDate;
use db::{
    PgPool,
    events::{self, SettingsError},
    players::{self, ImportError, NewPlayer, PlayerError},
};
use support::*;
use tournament::ids::{PlayerId, RoundNumber};
use tournament::{Ruleset, TableFallback};

#[sqlx::test(migrator = "db::MIGRATOR")]
async fn settings_are_saved_checked_and_guarded_against_stale_pages(pool: PgPool) {
    let (admin, event) = event(&pool).await;
    let detail = events::detail(&pool, event.id).await.unwrap().unwrap();
    assert_eq!(detail.version, 1);
    assert_eq!(detail.settings.ruleset, Ruleset::Gc2133);
    assert_eq!(
        detail.settings.options.finals_seats, 6,
        "ruling 13's default"
    );
    assert_eq!(detail.settings.qualifying_rounds, 4);

    let mut settings = detail.settings.clone();
    settings.name = "  GenCon Qualifier  ".into();
    settings.venue = "Hall D".into();
    settings.starts_on = NaiveDate::from_ymd_opt(2026, 7, 30);
    settings.ends_on = NaiveDate::from_ymd_opt(2026, 8, 2);
    settings.ruleset = Ruleset::Full;
    settings.options.table_fallback = TableFallback::FourPlayerTables;
    settings.options.five_player_empty_circle = 3;
    settings.options.finals_seats = 5;
    settings.qualifying_rounds = 3;
    let saved = events::update_settings(&pool, &admin, event.id, 1, settings.clone())
        .await
        .expect("saved");
    assert_eq!(saved.version, 2);
    assert_eq!(saved.settings.name, "GenCon Qualifier");
    assert_eq!(saved.slug, event.slug, "the address does not move");
    let reread = events::detail_by_slug(&pool, &event.slug)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(reread, saved);
    assert_eq!(reread.settings.options.five_player_empty_circle, 3);

    // A page loaded before that save must not overwrite it.
    let stale = events::update_settings(&pool, &admin, event.id, 1, settings.clone()).await;
    assert!(matches!(stale, Err(SettingsError::Stale)), "{stale:?}");

    let bad = |change: fn(&mut events::Settings)| {
        let mut s = settings.clone();
        change(&mut s);
        s
    };
    let cases: [(events::Settings, &str); 7] = [
        (bad(|s| s.name = "x".into()), "name"),
        (bad(|s| s.venue = "v".repeat(201)), "venue"),
        (
            bad(|s| s.ends_on = NaiveDate::from_ymd_opt(2026, 7, 1)),
            "ends_on",
        ),
        (bad(|s| s.qualifying_rounds = 0), "qualifying_rounds"),
        (bad(|s| s.options.finals_seats = 0), "finals_seats"),
        (bad(|s| s.options.finals_seats = 7), "finals_seats"),
        (
            bad(|s| s.options.five_player_empty_circle = 1),
            "five_player_empty_circle",
        ),
    ];
    for (settings, field) in cases {
        let err = events::update_settings(&pool, &admin, event.id, 2, settings)
            .await
            .expect_err(field);
        assert_eq!(err.field(), Some(field), "{err}");
    }
    assert_eq!(
        events::detail(&pool, event.id)
            .await
            .unwrap()
            .unwrap()
            .version,
        2,
        "nothing half-saved"
    );
    assert!(
        audit_actions(&pool, event.id)
            .await
            .contains(&"event_updated".to_owned())
    );
}

#[sqlx::test(migrator = "db::MIGRATOR")]
async fn the_ruleset_is_fixed_and_rounds_cannot_drop_below_those_drawn_once_drawing_starts(
    pool: PgPool,
) {
    let (admin, event) = event(&pool).await;
    players(&pool, &admin, event.id, 10).await;
    start(&pool, &admin, event.id, 1, 7).await;
    let detail = events::detail(&pool, event.id).await.unwrap().unwrap();
    let mut full = detail.settings.clone();
    full.ruleset = Ruleset::Full;
    let err = events::update_settings(&pool, &admin, event.id, 1, full)
        .await
        .unwrap_err();
    assert!(matches!(err, SettingsError::RulesetLocked), "{err}");
    report_all(&pool, event.id, 1).await;
    start(&pool, &admin, event.id, 2, 8).await;
    let mut fewer = detail.settings.clone();
    fewer.qualifying_rounds = 1;
    let err = events::update_settings(&pool, &admin, event.id, 1, fewer)
        .await
        .unwrap_err();
    assert!(matches!(err, SettingsError::FewerThanDrawn(2)), "{err}");
}

#[sqlx::test(migrator = "db::MIGRATOR")]
async fn players_are_unique_by_name_and_email_and_late_entries_are_marked(pool: PgPool) {
    let (admin, event) = event(&pool).await;
    let alice = NewPlayer::parse("Alice", "Alice@Example.org", "Sietch Tabr").unwrap();
    let added = players::add(&pool, &admin, event.id, alice.clone())
        .await
        .unwrap();
    assert_eq!(added.club.as_deref(), Some("Sietch Tabr"));
    assert!(!added.checked_in && !added.is_late_entry() && !added.is_dropped());
    let again = players::add(&pool, &admin, event.id, alice).await;
    assert!(matches!(again, Err(PlayerError::NameTaken(_))), "{again:?}");
    let same_email = NewPlayer::parse("Alicia", "alice@example.ORG", "").unwrap();
    let err = players::add(&pool, &admin, event.id, same_email)
        .await
        .unwrap_err();
    assert_eq!(err.field(), Some("email"));
    // Names compare exactly (tournament::PlayerName): "alice" is another entrant.
    players::add(
        &pool,
        &admin,
        event.id,
        NewPlayer::parse("alice", "", "").unwrap(),
    )
    .await
    .expect("case matters");

    players(&pool, &admin, event.id, 10).await;
    start(&pool, &admin, event.id, 1, 1).await;
    let late = players::add(
        &pool,
        &admin,
        event.id,
        NewPlayer::parse("Latecomer", "", "").unwrap(),
    )
    .await
    .unwrap();
    assert!(late.is_late_entry());
    assert_eq!(late.entered_after_round, 1);
}

fn csv_of_17_players_and_a_bad_line() -> String {
    let mut csv = String::from("name,email,club\n");
    for i in 1..=17 {
        if i == 9 {
            csv.push_str("Broken Line,not-an-email,Nowhere\n");
        }
        csv.push_str(&format!(
            "{},p{i}@example.org,Club {}\n",
            player_name(i),
            i % 3
        ));
    }
    csv
}

#[sqlx::test(migrator = "db::MIGRATOR")]
async fn a_csv_import_adds_the_good_lines_and_reports_each_bad_one(pool: PgPool) {
    let (admin, event) = event(&pool).await;
    let report = players::import_csv(&pool, &admin, event.id, &csv_of_17_players_and_a_bad_line())
        .await
        .expect("imported");
    assert_eq!(report.added.len(), 17);
    assert_eq!(report.refused.len(), 1);
    let refusal = &report.refused[0];
    assert_eq!(refusal.line, 10, "the header is line 1");
    assert_eq!(refusal.text, "Broken Line,not-an-email,Nowhere");
    assert!(refusal.reason.starts_with("email:"), "{}", refusal.reason);
    let list = players::list(&pool, event.id).await.unwrap();
    assert_eq!(list.len(), 17);
    assert_eq!(list[0].name, "Player 01");
    assert_eq!(list[0].email.as_deref(), Some("p1@example.org"));
    assert_eq!(list[0].club.as_deref(), Some("Club 1"));
    assert!(list.iter().all(|p| !p.checked_in));

    // The same file again: every line is already registered, nothing is added twice.
    let again = players::import_csv(&pool, &admin, event.id, &csv_of_17_players_and_a_bad_line())
        .await
        .unwrap();
    assert!(again.added.is_empty());
    assert_eq!(again.refused.len(), 18);
    assert!(
        again.refused[0]
            .reason
            .contains("already registered in this event"),
        "{:?}",
        again.refused[0]
    );
    assert_eq!(players::list(&pool, event.id).await.unwrap().len(), 17);

    let email_clash = players::import_csv(
        &pool,
        &admin,
        event.id,
        "Someone New,P1@EXAMPLE.org\nAnother New\n",
    )
    .await
    .unwrap();
    assert_eq!(email_clash.added, ["Another New"]);
    assert!(email_clash.refused[0].reason.contains("email address"));

    let empty = players::import_csv(&pool, &admin, event.id, "\n  \n").await;
    assert!(matches!(empty, Err(ImportError::Empty)));
    let actions = audit_actions(&pool, event.id).await;
    assert_eq!(
        actions
            .iter()
            .filter(|a| a.as_str() == "players_imported")
            .count(),
        3
    );
}

#[sqlx::test(migrator = "db::MIGRATOR")]
async fn check_in_follows_the_version_the_page_showed(pool: PgPool) {
    let (admin, event) = event(&pool).await;
    let p = players::add(
        &pool,
        &admin,
        event.id,
        NewPlayer::parse("Alice", "", "").unwrap(),
    )
    .await
    .unwrap();
    let checked = players::set_checked_in(&pool, &admin, event.id, p.id, p.version, true)
        .await
        .unwrap();
    assert!(checked.checked_in);
    assert_eq!(checked.version, p.version + 1);
    // A second judge's page still shows the old version: "this changed, reload".
    let stale = players::set_checked_in(&pool, &admin, event.id, p.id, p.version, false).await;
    assert!(matches!(stale, Err(PlayerError::Stale(_))), "{stale:?}");
    let undone = players::set_checked_in(&pool, &admin, event.id, p.id, checked.version, false)
        .await
        .unwrap();
    assert!(!undone.checked_in);
    let other_event = db::events::create(&pool, &admin, "Another Event")
        .await
        .unwrap();
    let foreign =
        players::set_checked_in(&pool, &admin, other_event.id, p.id, undone.version, true).await;
    assert!(matches!(foreign, Err(PlayerError::NotFound)));

    let dropped = players::set_dropped(&pool, &admin, event.id, p.id, undone.version, true)
        .await
        .unwrap();
    let refused =
        players::set_checked_in(&pool, &admin, event.id, p.id, dropped.version, true).await;
    assert!(matches!(refused, Err(PlayerError::Dropped(_))));
    assert_eq!(
        players::check_in_all(&pool, &admin, event.id)
            .await
            .unwrap(),
        0,
        "check-in-all skips dropped players"
    );
    let back = players::set_dropped(&pool, &admin, event.id, p.id, dropped.version, false)
        .await
        .unwrap();
    assert!(!back.is_dropped());
    assert_eq!(
        players::check_in_all(&pool, &admin, event.id)
            .await
            .unwrap(),
        1
    );
    let actions = audit_actions(&pool, event.id).await;
    for expected in [
        "player_added",
        "player_checked_in",
        "player_check_in_undone",
        "player_dropped",
        "player_reinstated",
        "players_checked_in",
    ] {
        assert!(
            actions.contains(&expected.to_owned()),
            "{expected}: {actions:?}"
        );
    }
}

#[sqlx::test(migrator = "db::MIGRATOR")]
async fn a_dropped_player_keeps_past_seats_and_is_not_drawn_again(pool: PgPool) {
    let (admin, event) = event(&pool).await;
    let ids = players(&pool, &admin, event.id, 11).await;
    start(&pool, &admin, event.id, 1, 3).await;
    let before = db::rounds::detail(&pool, event.id, RoundNumber(1))
        .await
        .unwrap()
        .unwrap();
    let leaver = db::players::get(&pool, event.id, ids[4])
        .await
        .unwrap()
        .unwrap();
    let dropped = players::set_dropped(&pool, &admin, event.id, leaver.id, leaver.version, true)
        .await
        .unwrap();
    assert_eq!(dropped.dropped_after_round, Some(1));
    assert!(!dropped.checked_in);
    let after = db::rounds::detail(&pool, event.id, RoundNumber(1))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        before
            .tables
            .iter()
            .map(|t| &t.seats)
            .collect::<Vec<_>>()
            .len(),
        after.tables.len()
    );
    for (b, a) in before.tables.iter().zip(&after.tables) {
        let who = |t: &db::rounds::TableInfo| {
            t.seats
                .iter()
                .map(|s| (s.seat, s.player_id, s.faction))
                .collect::<Vec<_>>()
        };
        assert_eq!(who(b), who(a), "round 1 is unchanged by the drop");
    }
    assert!(
        after
            .tables
            .iter()
            .flat_map(|t| &t.seats)
            .any(|s| s.player_id == leaver.id && s.dropped)
    );
    report_all(&pool, event.id, 1).await;
    start(&pool, &admin, event.id, 2, 4).await;
    let round2 = db::rounds::detail(&pool, event.id, RoundNumber(2))
        .await
        .unwrap()
        .unwrap();
    let seated: Vec<PlayerId> = round2
        .tables
        .iter()
        .flat_map(|t| t.seats.iter().map(|s| s.player_id))
        .collect();
    assert_eq!(seated.len(), 10);
    assert!(!seated.contains(&leaver.id));
}

#[sqlx::test(migrator = "db::MIGRATOR")]
async fn find_me_searches_names_without_regard_to_case(pool: PgPool) {
    let (admin, event) = event(&pool).await;
    for name in [
        "Paul Atreides",
        "Alia Atreides",
        "Feyd-Rautha",
        "100% Fremen",
    ] {
        players::add(
            &pool,
            &admin,
            event.id,
            NewPlayer::parse(name, "", "").unwrap(),
        )
        .await
        .unwrap();
    }
    let hits = players::search(&pool, event.id, "atreides", 20)
        .await
        .unwrap();
    let names: Vec<&str> = hits.iter().map(|m| m.name.as_str()).collect();
    assert_eq!(names, ["Alia Atreides", "Paul Atreides"]);
    let hits = players::search(&pool, event.id, "PAUL", 20).await.unwrap();
    assert_eq!(hits.len(), 1);
    // Punctuation is no wildcard: "%" alone finds nobody, "100" finds the name that has it.
    assert!(
        players::search(&pool, event.id, "%", 20)
            .await
            .unwrap()
            .is_empty()
    );
    let hits = players::search(&pool, event.id, "100", 20).await.unwrap();
    assert_eq!(hits[0].name, "100% Fremen");
    assert_eq!(hits.len(), 1);
    let hits = players::search(&pool, event.id, "feyd rautha", 20)
        .await
        .unwrap();
    assert_eq!(hits[0].name, "Feyd-Rautha");
    assert!(
        players::search(&pool, event.id, "  ", 20)
            .await
            .unwrap()
            .is_empty()
    );
}

#[sqlx::test(migrator = "db::MIGRATOR")]
async fn the_search_forgives_case_accents_and_finds_any_part_of_the_name(pool: PgPool) {
    let (admin, event) = event(&pool).await;
    for name in ["Hanna Ölund", "Søren Berg", "Johanna Ek"] {
        players::add(
            &pool,
            &admin,
            event.id,
            NewPlayer::parse(name, "", "").unwrap(),
        )
        .await
        .unwrap();
    }
    let names = |hits: Vec<players::Match>| hits.into_iter().map(|m| m.name).collect::<Vec<_>>();
    // "Hanna" begins a word of Hanna Ölund's name; Johanna only contains it.
    assert_eq!(
        names(players::search(&pool, event.id, "hanna", 20).await.unwrap()),
        ["Hanna Ölund", "Johanna Ek"]
    );
    assert_eq!(
        names(players::search(&pool, event.id, "OLUND", 20).await.unwrap()),
        ["Hanna Ölund"]
    );
    assert_eq!(
        names(players::search(&pool, event.id, "soren", 20).await.unwrap()),
        ["Søren Berg"]
    );
    assert_eq!(
        players::search(&pool, event.id, "hanna", 1)
            .await
            .unwrap()
            .len(),
        1
    );
}

#[sqlx::test(migrator = "db::MIGRATOR")]
async fn a_player_is_renamed_everywhere_and_the_audit_log_keeps_the_old_values(pool: PgPool) {
    let (admin, event) = event(&pool).await;
    let ids = players(&pool, &admin, event.id, 12).await;
    start(&pool, &admin, event.id, 1, 5).await;
    let round = db::rounds::detail(&pool, event.id, RoundNumber(1))
        .await
        .unwrap()
        .unwrap();
    for table in &round.tables {
        final_report(&pool, &admin, event.id, RoundNumber(1), table).await;
    }
    let before = players::get(&pool, event.id, ids[0])
        .await
        .unwrap()
        .unwrap();
    let fixed = NewPlayer::parse("Hanna Ölund", "hanna@example.org", "Sietch Tabr").unwrap();
    let after = players::edit(
        &pool,
        &admin,
        event.id,
        ids[0],
        before.version,
        fixed.clone(),
    )
    .await
    .expect("edited");
    assert_eq!(after.name, "Hanna Ölund");
    assert_eq!(after.club.as_deref(), Some("Sietch Tabr"));
    // A stale page is refused rather than overwriting.
    let err = players::edit(&pool, &admin, event.id, ids[0], before.version, fixed)
        .await
        .unwrap_err();
    assert!(matches!(err, PlayerError::Stale(_)));
    // Another player's name is taken.
    let other = players::get(&pool, event.id, ids[1])
        .await
        .unwrap()
        .unwrap();
    let err = players::edit(
        &pool,
        &admin,
        event.id,
        ids[1],
        other.version,
        NewPlayer::parse("Hanna Ölund", "", "").unwrap(),
    )
    .await
    .unwrap_err();
    assert!(matches!(err, PlayerError::NameTaken(_)));
    assert_eq!(err.field(), Some("name"));

    // The table, the standings and the player's phone read the new name.
    let round = db::rounds::detail(&pool, event.id, RoundNumber(1))
        .await
        .unwrap()
        .unwrap();
    assert!(
        round
            .tables
            .iter()
            .flat_map(|t| &t.seats)
            .any(|s| s.player == "Hanna Ölund")
    );
    let standings = db::results::standings::event_standings(&pool, event.id)
        .await
        .unwrap();
    assert!(standings.rows.iter().any(|r| r.player == "Hanna Ölund"));
    assert!(!standings.rows.iter().any(|r| r.player == before.name));
    let view = db::rounds::player_view(&pool, event.id, ids[0])
        .await
        .unwrap()
        .unwrap();
    assert_eq!(view.name, "Hanna Ölund");
    let rows = db::audit::list(&pool, Some(event.id), 100).await.unwrap();
    let edit = rows
        .iter()
        .find(|r| r.action == "player_edited")
        .expect("audited");
    assert_eq!(edit.detail["name"]["from"], before.name.as_str());
    assert_eq!(edit.detail["name"]["to"], "Hanna Ölund");
    assert_eq!(edit.detail["club"]["to"], "Sietch Tabr");
}

#[sqlx::test(migrator = "db::MIGRATOR")]
async fn only_a_player_never_seated_can_be_deleted(pool: PgPool) {
    let (admin, event) = event(&pool).await;
    let ids = players(&pool, &admin, event.id, 12).await;
    let late = players::add(
        &pool,
        &admin,
        event.id,
        NewPlayer::parse("Duplicate Entry", "", "").unwrap(),
    )
    .await
    .unwrap();
    start(&pool, &admin, event.id, 1, 5).await;
    let seated = players::get(&pool, event.id, ids[0])
        .await
        .unwrap()
        .unwrap();
    let err = players::delete(&pool, &admin, event.id, ids[0], seated.version)
        .await
        .unwrap_err();
    assert!(matches!(err, PlayerError::Seated { .. }));
    let message = err.to_string();
    assert!(message.contains("round 1, table"), "{message}");
    assert!(message.contains("Drop them instead"), "{message}");
    assert!(
        players::get(&pool, event.id, ids[0])
            .await
            .unwrap()
            .is_some()
    );

    // The late entry was never checked in, so never seated: they go.
    players::delete(&pool, &admin, event.id, late.id, late.version)
        .await
        .expect("deleted");
    assert!(
        players::get(&pool, event.id, late.id)
            .await
            .unwrap()
            .is_none()
    );
    let actions = audit_actions(&pool, event.id).await;
    assert!(actions.contains(&"player_deleted".to_owned()));
    let err = players::delete(&pool, &admin, event.id, late.id, late.version)
        .await
        .unwrap_err();
    assert!(matches!(err, PlayerError::NotFound));
}

/// The public list of events: each with its stage and its registered players, the current and
/// coming ones first, the past ones after them.
#[sqlx::test(migrator = "db::MIGRATOR")]
async fn the_events_list_says_each_events_stage_and_player_count(pool: PgPool) {
    use events::{RoundProgress, Stage};
    let (admin, running) = event(&pool).await;
    let coming = events::create(&pool, &admin, "Coming Open").await.unwrap();
    let past = events::create(&pool, &admin, "Last Year").await.unwrap();
    let closed = events::create(&pool, &admin, "Finals Day").await.unwrap();
    let set_dates = |id, starts: &str, ends: &str| {
        let (starts, ends) = (starts.to_owned(), ends.to_owned());
        let pool = pool.clone();
        async move {
            sqlx::query(&format!(
                "UPDATE events SET starts_on = current_date + {starts}, ends_on = current_date + {ends}, venue = 'Hall ' || id WHERE id = $1"
            ))
            .bind(id)
            .execute(&pool)
            .await
            .unwrap();
        }
    };
    set_dates(running.id, "0", "1").await;
    set_dates(coming.id, "30", "31").await;
    set_dates(past.id, "-400", "-399").await;

    // The running event: 12 players (one alternate not counted), round 1 in play.
    players(&pool, &admin, running.id, 12).await;
    let alternate = NewPlayer::parse("Spare Seat", "", "").unwrap();
    let spare = players::add(&pool, &admin, running.id, alternate)
        .await
        .unwrap();
    sqlx::query("UPDATE players SET alternate = true WHERE id = $1")
        .bind(spare.id)
        .execute(&pool)
        .await
        .unwrap();
    start(&pool, &admin, running.id, 1, 7).await;
    sqlx::query("UPDATE rounds SET started_at = now() WHERE event_id = $1")
        .bind(running.id)
        .execute(&pool)
        .await
        .unwrap();
    // The past event played a round; finished by its dates whatever else it holds.
    players(&pool, &admin, past.id, 5).await;
    start(&pool, &admin, past.id, 1, 7).await;
    // Qualifying closed at the fourth event (no dates set).
    sqlx::query("INSERT INTO finals (event_id, finalists) VALUES ($1, '{}')")
        .bind(closed.id)
        .execute(&pool)
        .await
        .unwrap();

    let list = events::listing(&pool).await.unwrap();
    let names: Vec<&str> = list.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(
        names,
        ["Test Qualifier", "Coming Open", "Finals Day", "Last Year"],
        "soonest first, undated after, past last"
    );
    let by_name = |name: &str| list.iter().find(|e| e.name == name).unwrap();
    let r = by_name("Test Qualifier");
    assert_eq!(r.players, 12);
    assert_eq!(
        r.stage,
        Stage::Round {
            number: RoundNumber(1),
            progress: RoundProgress::InPlay
        }
    );
    assert_eq!(r.stage.label(), "Round 1 in play");
    assert_eq!(r.venue, format!("Hall {}", running.id));
    assert!(!r.past);
    assert!(r.starts_on.is_some());
    let c = by_name("Coming Open");
    assert_eq!(
        (c.players, c.stage, c.past),
        (0, Stage::Registration, false)
    );
    let f = by_name("Finals Day");
    assert_eq!((f.stage, f.past, f.starts_on), (Stage::Finals, false, None));
    let p = by_name("Last Year");
    assert_eq!((p.players, p.stage, p.past), (5, Stage::Finished, true));

    // Every table reported: the round is reported, not in play.
    report_all(&pool, running.id, 1).await;
    let list = events::listing(&pool).await.unwrap();
    assert_eq!(list[0].stage.label(), "Round 1 reported");
}

/// A new event's setup checklist ticks itself off from the data.
#[sqlx::test(migrator = "db::MIGRATOR")]
async fn the_setup_checklist_follows_the_data(pool: PgPool) {
    let (admin, event) = event(&pool).await;
    let fresh = events::setup(&pool, event.id).await.unwrap();
    assert_eq!(
        fresh,
        events::Setup::default(),
        "the creator alone is no staff"
    );

    let detail = events::detail(&pool, event.id).await.unwrap().unwrap();
    events::update_settings(&pool, &admin, event.id, detail.version, detail.settings)
        .await
        .unwrap();
    let judge = user(&pool, "judy", false).await;
    db::roles::grant(
        &pool,
        &admin,
        event.id,
        &judge.username,
        db::roles::Role::Judge,
    )
    .await
    .unwrap();
    let ids = players(&pool, &admin, event.id, 6).await;
    players::set_checked_in(&pool, &admin, event.id, ids[0], 2, false)
        .await
        .unwrap();
    let s = events::setup(&pool, event.id).await.unwrap();
    assert!(
        s.settings_saved && s.staff_invited && !s.round_one_drawn,
        "{s:?}"
    );
    assert_eq!((s.players, s.checked_in), (6, 5));

    players::check_in_all(&pool, &admin, event.id)
        .await
        .unwrap();
    start(&pool, &admin, event.id, 1, 3).await;
    assert!(
        events::setup(&pool, event.id)
            .await
            .unwrap()
            .round_one_drawn
    );
}
