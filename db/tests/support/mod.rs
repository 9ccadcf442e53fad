//! Helpers shared by the database tests: accounts, an event with players, a drawn round.
#![allow(dead_code)]

use db::{
    PgPool,
    accounts::{self, NewUser, UserName},
    events::{self, Event},
    password::Password,
    players::{self, NewPlayer},
    roles::Actor,
    rounds::{self, NewRound},
};
use tournament::ids::{EventId, PlayerId, Revision, RoundNumber};

pub async fn user(pool: &PgPool, name: &str, admin: bool) -> Actor {
    let new = NewUser {
        username: UserName::parse(name).expect("valid name"),
        email: None,
        password: Password::new_choice(format!("{name}-password")).expect("long enough"),
        is_admin: admin,
    };
    let user_id = accounts::create_user(pool, new, None)
        .await
        .expect("created");
    Actor {
        user_id,
        username: name.to_owned(),
        is_admin: admin,
    }
}

/// An administrator and an event they organise.
pub async fn event(pool: &PgPool) -> (Actor, Event) {
    let admin = user(pool, "admin", true).await;
    let event = events::create(pool, &admin, "Test Qualifier")
        .await
        .expect("event");
    (admin, event)
}

pub fn player_name(i: usize) -> String {
    format!("Player {i:02}")
}

/// Registers players "Player 01" … and checks them all in; returns their ids in that order.
pub async fn players(pool: &PgPool, actor: &Actor, event_id: EventId, n: usize) -> Vec<PlayerId> {
    let mut ids = Vec::new();
    for i in 1..=n {
        let new = NewPlayer::parse(&player_name(i), "", "").expect("valid");
        ids.push(
            players::add(pool, actor, event_id, new)
                .await
                .expect("added")
                .id,
        );
    }
    players::check_in_all(pool, actor, event_id)
        .await
        .expect("checked in");
    ids
}

pub async fn start(pool: &PgPool, actor: &Actor, event_id: EventId, number: i32, seed: u64) {
    rounds::start(
        pool,
        actor,
        event_id,
        NewRound {
            number: RoundNumber(number),
            seed: Some(seed),
            fallback: None,
            override_reason: None,
        },
    )
    .await
    .expect("round started");
}

/// Marks every table of the round reported, as the Game Reports would.
pub async fn report_all(pool: &PgPool, event_id: EventId, number: i32) {
    sqlx::query(
        "UPDATE game_tables SET reported_at = now() WHERE round_id = \
         (SELECT id FROM rounds WHERE event_id = $1 AND number = $2)",
    )
    .bind(event_id)
    .bind(number)
    .execute(pool)
    .await
    .expect("reported");
}

pub async fn audit_actions(pool: &PgPool, event_id: EventId) -> Vec<String> {
    let mut rows = db::audit::list(pool, Some(event_id), 1000)
        .await
        .expect("audit");
    rows.reverse();
    rows.into_iter().map(|r| r.action).collect()
}

/// Saves a valid report for the table (the first seat wins alone on turn 5, holding three
/// strongholds) and finalises it.
pub async fn final_report(
    pool: &PgPool,
    actor: &Actor,
    event_id: EventId,
    round: RoundNumber,
    table: &rounds::TableInfo,
) {
    use db::results::reports::{self, Draft, SeatResult};
    let draft = Draft {
        ended: tournament::report::Ending::Win,
        last_turn: 5,
        seats: table
            .seats
            .iter()
            .enumerate()
            .map(|(i, s)| SeatResult {
                player_id: s.player_id,
                faction: s.faction.expect("dealt"),
                ally: None,
                result: (i == 0).then_some(dune::WinType::SoloStronghold),
                // Three strongholds: what a Solo Stronghold Victory takes (1.09.02.01).
                end: tournament::EndValues {
                    strongholds: if i == 0 { 3 } else { 0 },
                    ..tournament::EndValues::default()
                },
            })
            .collect(),
        judge_draw: None,
        prediction: None,
    };
    let revision = reports::save(
        pool,
        actor,
        false,
        event_id,
        round,
        table.number,
        Revision::NONE,
        &draft,
        None,
    )
    .await
    .expect("report saved");
    reports::finalise(pool, actor, event_id, round, table.number, revision)
        .await
        .expect("report final");
}
