//! Results through the HTTP stack: who sees an unconfirmed report, who may answer for whom, and
//! who may finalise or correct it.

mod common;

use common::*;
use leptos::server_fn::ServerFn;
use sqlx::PgPool;
use tournament::ids::{PlayerId, Revision, RoundNumber, TableNumber};

struct Setup {
    slug: String,
    table: TableNumber,
    /// (player id, faction code) in seat order.
    seats: Vec<(PlayerId, String)>,
}

/// Six players at one table of round 1, "ana" linked to seat 1's player, a judge "jo", a saved
/// (unconfirmed) report.
async fn setup(pool: &PgPool) -> Setup {
    let admin = user(pool, "admin", true).await;
    let event = db::events::create(pool, &admin, "Report Cup")
        .await
        .expect("event");
    user(pool, "jo", false).await;
    user(pool, "ana", false).await;
    user(pool, "ben", false).await;
    db::roles::grant(pool, &admin, event.id, "jo", db::roles::Role::Judge)
        .await
        .expect("granted");
    let csv: String = (1..=6).map(|i| format!("Player {i}\n")).collect();
    db::players::import_csv(pool, &admin, event.id, &csv)
        .await
        .expect("imported");
    db::players::check_in_all(pool, &admin, event.id)
        .await
        .expect("checked in");
    db::rounds::start(
        pool,
        &admin,
        event.id,
        db::rounds::NewRound {
            number: RoundNumber(1),
            seed: Some(3),
            fallback: None,
            override_reason: None,
        },
    )
    .await
    .expect("drawn");
    let round = db::rounds::detail(pool, event.id, RoundNumber(1))
        .await
        .unwrap()
        .unwrap();
    let table = &round.tables[0];
    let first = &table.seats[0];
    let player = db::players::get(pool, event.id, first.player_id)
        .await
        .unwrap()
        .unwrap();
    db::players::link_account(pool, &admin, event.id, player.id, player.version, "ana")
        .await
        .expect("linked");
    let draft = db::results::reports::Draft {
        ended: tournament::report::Ending::Win,
        last_turn: 4,
        seats: table
            .seats
            .iter()
            .enumerate()
            .map(|(i, s)| db::results::reports::SeatResult {
                player_id: s.player_id,
                faction: s.faction.unwrap(),
                ally: None,
                result: (i == 0).then_some(tournament::WinType::SoloStronghold),
                end: tournament::EndValues {
                    strongholds: if i == 0 { 3 } else { 0 },
                    forces: 7,
                    spice: dune::Spice::new(4),
                    cards: 2,
                    leaders: 5,
                },
            })
            .collect(),
        judge_draw: None,
        prediction: None,
    };
    db::results::reports::save(
        pool,
        &admin,
        false,
        event.id,
        RoundNumber(1),
        table.number,
        Revision::NONE,
        &draft,
        None,
    )
    .await
    .expect("saved");
    Setup {
        slug: event.slug,
        table: table.number,
        seats: table
            .seats
            .iter()
            .map(|s| (s.player_id, s.faction.unwrap().code().to_owned()))
            .collect(),
    }
}

async fn table_json(app: &axum::Router, slug: &str, cookie: Option<&str>) -> serde_json::Value {
    let body = format!("slug={slug}&round=1&table=1");
    let response = send(app, form_post(app::results::GetTable::PATH, &body, cookie)).await;
    assert_eq!(response.status(), 200);
    serde_json::from_str(&text(response).await).expect("json")
}

#[sqlx::test(migrator = "server::database::MIGRATOR")]
async fn an_unconfirmed_report_is_seen_by_its_table_and_the_judges_only(pool: PgPool) {
    let s = setup(&pool).await;
    let app = app(pool);
    let anonymous = table_json(&app, &s.slug, None).await;
    assert_eq!(anonymous["status"]["state"], "awaiting");
    assert_eq!(anonymous["revisions"].as_array().unwrap().len(), 0);
    assert_eq!(anonymous["results"].as_array().unwrap().len(), 0);
    let ben = sign_in(&app, "ben").await;
    let other = table_json(&app, &s.slug, Some(&ben)).await;
    assert_eq!(
        other["revisions"].as_array().unwrap().len(),
        0,
        "not at this table"
    );
    let ana = sign_in(&app, "ana").await;
    let own = table_json(&app, &s.slug, Some(&ana)).await;
    assert_eq!(own["revisions"].as_array().unwrap().len(), 1);
    assert_eq!(own["my_player"], s.seats[0].0.get());
    let jo = sign_in(&app, "jo").await;
    let judge = table_json(&app, &s.slug, Some(&jo)).await;
    assert_eq!(judge["revisions"].as_array().unwrap().len(), 1);
    assert_eq!(judge["can_record"], true);
    assert_eq!(judge["can_override"], false);
}

#[sqlx::test(migrator = "server::database::MIGRATOR")]
async fn players_answer_for_themselves_judges_for_anyone_and_only_the_head_judge_finalises(
    pool: PgPool,
) {
    let s = setup(&pool).await;
    let app = app(pool.clone());
    let answer = |player: PlayerId, for_player: bool| {
        format!(
            "slug={}&round=1&table={}&revision=1&player_id={player}&agrees=true&for_player={for_player}",
            s.slug, s.table
        )
    };
    let ana = sign_in(&app, "ana").await;
    // Ana for Player at seat 2: refused; as a judge: refused (she is not one).
    for body in [answer(s.seats[1].0, false), answer(s.seats[1].0, true)] {
        let r = send(
            &app,
            form_post(app::results::AnswerReport::PATH, &body, Some(&ana)),
        )
        .await;
        assert_eq!(r.status(), 403, "{body}");
    }
    let r = send(
        &app,
        form_post(
            app::results::AnswerReport::PATH,
            &answer(s.seats[0].0, false),
            Some(&ana),
        ),
    )
    .await;
    assert_eq!(r.status(), 200);
    let jo = sign_in(&app, "jo").await;
    let r = send(
        &app,
        form_post(
            app::results::AnswerReport::PATH,
            &answer(s.seats[1].0, true),
            Some(&jo),
        ),
    )
    .await;
    assert_eq!(r.status(), 200);
    // The judge may not finalise; the head judge (here the administrator) may.
    let finalise = format!("slug={}&round=1&table={}&revision=1", s.slug, s.table);
    let r = send(
        &app,
        form_post(app::results::FinaliseReport::PATH, &finalise, Some(&jo)),
    )
    .await;
    assert_eq!(r.status(), 403);
    let admin = sign_in(&app, "admin").await;
    let r = send(
        &app,
        form_post(app::results::FinaliseReport::PATH, &finalise, Some(&admin)),
    )
    .await;
    assert_eq!(r.status(), 200);
    let confirmations: i64 = sqlx::query_scalar("SELECT count(*) FROM report_confirmations")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(confirmations, 2);
    // A judge's correction of a final report is refused, with nothing written.
    let mut body = format!(
        "form[slug]={}&form[round]=1&form[table]={}&form[base_revision]=1&form[ended]=win&form[last_turn]=4&form[reason]=typo",
        s.slug, s.table
    );
    for (i, (id, faction)) in s.seats.iter().enumerate() {
        body.push_str(&format!(
            "&form[seats][{i}][player_id]={id}&form[seats][{i}][faction]={faction}&form[seats][{i}][result]={}&form[seats][{i}][strongholds]={}",
            if i == 1 { "SSH" } else { "" },
            if i == 1 { 3 } else { 0 }
        ));
    }
    let r = send(
        &app,
        form_post(app::results::SaveReport::PATH, &body, Some(&jo)),
    )
    .await;
    assert_eq!(
        r.status(),
        403,
        "only the head judge corrects a final report (4.01.05)"
    );
    let r = send(
        &app,
        form_post(app::results::SaveReport::PATH, &body, Some(&admin)),
    )
    .await;
    assert_eq!(r.status(), 200, "{}", text(r).await);
    let revisions: i64 = sqlx::query_scalar("SELECT count(*) FROM game_reports")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(revisions, 2, "the head judge's correction is revision 2");
}

#[sqlx::test(migrator = "server::database::MIGRATOR")]
async fn the_form_refuses_a_report_that_cannot_have_happened_at_its_field(pool: PgPool) {
    let s = setup(&pool).await;
    let app = app(pool.clone());
    let admin = sign_in(&app, "admin").await;
    // A correction of the saved report to a Solo Stronghold Victory on two strongholds, and a
    // Bene Gesserit Prediction with no prediction recorded.
    let body = |winner_result: &str, strongholds: u32| {
        let mut body = format!(
            "form[slug]={}&form[round]=1&form[table]={}&form[base_revision]=1&form[ended]=win&form[last_turn]=4",
            s.slug, s.table
        );
        for (i, (id, faction)) in s.seats.iter().enumerate() {
            let winner = if winner_result == "BGP" {
                faction == "BG"
            } else {
                i == 0
            };
            body.push_str(&format!(
                "&form[seats][{i}][player_id]={id}&form[seats][{i}][faction]={faction}&form[seats][{i}][result]={}&form[seats][{i}][strongholds]={}",
                if winner { winner_result } else { "" },
                if i == 0 { strongholds } else { 0 }
            ));
        }
        body
    };
    let r = send(
        &app,
        form_post(
            app::results::SaveReport::PATH,
            &body("SSH", 2),
            Some(&admin),
        ),
    )
    .await;
    assert_eq!(r.status(), 422);
    let error: serde_json::Value = serde_json::from_str(&text(r).await).expect("json");
    let field = &error["Field"];
    assert_eq!(field["field"], "seat-0-strongholds", "{error}");
    assert!(
        field["message"]
            .as_str()
            .is_some_and(|m| m.contains("at least 3 strongholds") && m.contains("1.09.02.01")),
        "{error}"
    );
    if s.seats.iter().any(|(_, f)| f == "BG") {
        let r = send(
            &app,
            form_post(
                app::results::SaveReport::PATH,
                &body("BGP", 3),
                Some(&admin),
            ),
        )
        .await;
        assert_eq!(r.status(), 422);
        let error: serde_json::Value = serde_json::from_str(&text(r).await).expect("json");
        assert_eq!(error["Field"]["field"], "prediction_faction", "{error}");
    }
    let revisions: i64 = sqlx::query_scalar("SELECT count(*) FROM game_reports")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(revisions, 1, "nothing refused was saved");
}
