//! One table's report as the event holds it: seats in seat order with the dealt factions, the
//! win attempts per turn, and every problem at its field.

mod common;

use common::name;
use tournament::report::{Ending, Problem, ReportField, SeatField};
use tournament::{
    Category, EndValues, Faction, Faction::*, Ruleset, RulingOptions, SeatEntry, TableReport,
    TableSeat, WinType, validate_table,
};

const SIX: [Faction; 6] = [
    Atreides,
    BeneGesserit,
    Emperor,
    Fremen,
    Harkonnen,
    SpacingGuild,
];

fn end(strongholds: u32, forces: u32) -> EndValues {
    EndValues {
        strongholds,
        forces,
        ..EndValues::default()
    }
}

/// Six seats dealt the classic factions in order; seat 0 (Atreides) wins solo in turn 6.
fn table() -> TableReport {
    TableReport {
        ruleset: Ruleset::Gc2133,
        options: RulingOptions::default(),
        round: 2,
        table: 3,
        ended: Ending::Win,
        last_turn: 6,
        seats: SIX
            .iter()
            .enumerate()
            .map(|(i, &f)| TableSeat {
                player: name(&format!("Player {i}")),
                dealt: Some(f),
                entry: Some(SeatEntry {
                    faction: f,
                    ally: None,
                    result: (i == 0).then_some(WinType::SoloStronghold),
                    end: end(u32::from(i == 0) * 3, 10),
                }),
            })
            .collect(),
        judge_draw: None,
        attempts: vec![(4, vec![0]), (5, vec![0, 2]), (6, vec![0])],
    }
}

fn problems(report: &TableReport) -> Vec<(ReportField, Problem)> {
    match validate_table(report) {
        Ok(_) => Vec::new(),
        Err(errors) => errors.0.into_iter().map(|e| (e.field, e.problem)).collect(),
    }
}

#[test]
fn a_legal_table_counts_win_attempts_from_the_record() {
    let outcome = validate_table(&table()).expect("legal");
    assert_eq!(outcome.win_attempts, [3, 0, 1, 0, 0, 0]);
    assert_eq!(outcome.results()[0], Some(WinType::SoloStronghold));
    assert!(outcome.results()[1..].iter().all(Option::is_none));
    assert_eq!(outcome.adjudication, None);
}

#[test]
fn a_faction_other_than_the_one_dealt_is_refused_at_that_seat() {
    let mut report = table();
    if let Some(entry) = report.seats[4].entry.as_mut() {
        entry.faction = Emperor;
    }
    let found = problems(&report);
    assert!(found.contains(&(
        ReportField::Seat(4, SeatField::Faction),
        Problem::NotDealt {
            dealt: Harkonnen,
            reported: Emperor
        }
    )));
    let errors = validate_table(&report).unwrap_err();
    let message = errors
        .0
        .iter()
        .find(|e| matches!(e.problem, Problem::NotDealt { .. }))
        .map(|e| e.message())
        .unwrap_or_default();
    assert_eq!(
        message,
        "Player 4: the faction dealt at this table is HK (Harkonnen), not EM (0.08)"
    );
}

#[test]
fn the_last_turn_must_be_a_turn_and_a_game_to_the_end_plays_ten() {
    let mut report = table();
    report.last_turn = 11;
    assert_eq!(
        problems(&report),
        [(
            ReportField::LastTurn,
            Problem::LastTurnOutOfRange {
                last_turn: 11,
                max: 10
            }
        )]
    );
    let mut report = table();
    report.ended = Ending::Turns;
    if let Some(e) = report.seats[0].entry.as_mut() {
        e.result = None;
    }
    if let Some(e) = report.seats[5].entry.as_mut() {
        e.result = Some(WinType::SoloDefault);
    }
    assert!(problems(&report).contains(&(
        ReportField::LastTurn,
        Problem::TurnsEndedEarly {
            last_turn: 6,
            max: 10
        }
    )));
    report.last_turn = 10;
    assert_eq!(problems(&report), []);
}

#[test]
fn win_attempts_after_the_last_turn_are_refused_and_not_counted() {
    let mut report = table();
    report.attempts.push((8, vec![1]));
    assert_eq!(
        problems(&report),
        [(
            ReportField::LastTurn,
            Problem::AttemptAfterLastTurn {
                turn: 8,
                last_turn: 6
            }
        )]
    );
    // An empty record of a later turn (everybody unticked) is no attempt.
    let mut report = table();
    report.attempts.push((8, vec![]));
    assert_eq!(validate_table(&report).expect("legal").win_attempts[1], 0);
}

#[test]
fn a_seat_left_out_is_named_and_nothing_else_is_guessed() {
    let mut report = table();
    report.seats[2].entry = None;
    let errors = validate_table(&report).unwrap_err();
    assert_eq!(errors.0.len(), 1);
    assert_eq!(errors.0[0].field, ReportField::Seat(2, SeatField::Result));
    assert_eq!(
        errors.0[0].message(),
        "Player 2: sits at this table but has no line in the report"
    );
}

#[test]
fn value_limits_point_at_the_value() {
    let mut report = table();
    if let Some(e) = report.seats[1].entry.as_mut() {
        e.end.forces = 21;
    }
    assert_eq!(
        problems(&report)[0].0,
        ReportField::Seat(1, SeatField::Value(Category::Forces))
    );
}

#[test]
fn a_clock_ended_game_is_adjudicated_with_its_reasoning() {
    let mut report = table();
    report.ended = Ending::Time;
    if let Some(e) = report.seats[0].entry.as_mut() {
        e.result = None;
    }
    let outcome = validate_table(&report).expect("legal");
    // Seat 0 has the most win attempts (4.01.09, 4.01.11.01).
    assert_eq!(outcome.results()[0], Some(WinType::Adjudicated));
    let steps = outcome.adjudication.expect("reasoning");
    assert!(
        steps.iter().any(|s| s.contains("AT (Player 0)")),
        "{steps:?}"
    );
}
