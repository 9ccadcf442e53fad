//! One table's report as the event holds it: seats in seat order with the dealt factions, the
//! win attempts per turn, and every problem at its field.

mod common;

use common::name;
use tournament::report::{Ending, Prediction, PredictionField, Problem, ReportField, SeatField};
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
        prediction: None,
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
        // Three strongholds at the end would have been a stronghold victory (1.09.05).
        e.end.strongholds = 2;
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

/// Sets seat `i`'s result, ally and strongholds.
fn line(
    report: &mut TableReport,
    i: usize,
    result: Option<WinType>,
    ally: Option<Faction>,
    strongholds: u32,
) {
    let entry = report.seats[i].entry.as_mut().expect("a line");
    entry.result = result;
    entry.ally = ally;
    entry.end.strongholds = strongholds;
}

fn messages(report: &TableReport) -> Vec<(ReportField, String)> {
    validate_table(report)
        .err()
        .map(|e| e.0.into_iter().map(|e| (e.field, e.message())).collect())
        .unwrap_or_default()
}

const STRONGHOLDS: SeatField = SeatField::Value(Category::Strongholds);

#[test]
fn a_solo_stronghold_victory_needs_three_strongholds_at_the_winners_field() {
    let mut report = table();
    line(&mut report, 0, Some(WinType::SoloStronghold), None, 2);
    let said = messages(&report);
    assert_eq!(said.len(), 1, "{said:?}");
    assert_eq!(said[0].0, ReportField::Seat(0, STRONGHOLDS));
    assert!(
        said[0].1.starts_with(
            "Player 0: SSH (Solo Stronghold Victory) with 2 strongholds, controlled alone"
        ) && said[0].1.contains("at least 3 strongholds")
            && said[0].1.contains("(1.09.02.01)"),
        "{}",
        said[0].1
    );
    line(&mut report, 0, Some(WinType::SoloStronghold), None, 3);
    assert_eq!(problems(&report), []);
}

#[test]
fn an_allied_stronghold_victory_needs_four_between_the_allies() {
    let mut report = table();
    // Atreides (seat 0) allied with the Emperor (seat 2): 2 + 1 strongholds.
    line(
        &mut report,
        0,
        Some(WinType::AlliedStronghold),
        Some(Emperor),
        2,
    );
    line(
        &mut report,
        2,
        Some(WinType::AlliedStronghold),
        Some(Atreides),
        1,
    );
    let said = messages(&report);
    assert_eq!(said.len(), 1, "{said:?}");
    assert_eq!(said[0].0, ReportField::Seat(0, STRONGHOLDS));
    assert!(
        said[0]
            .1
            .contains("3 strongholds, controlled together with the ally Player 2")
            && said[0].1.contains("(1.09.02.02)"),
        "{}",
        said[0].1
    );
    line(
        &mut report,
        2,
        Some(WinType::AlliedStronghold),
        Some(Atreides),
        2,
    );
    assert_eq!(problems(&report), []);
}

#[test]
fn the_table_cannot_control_more_strongholds_than_the_map_has() {
    let mut report = table();
    for i in 1..6 {
        line(&mut report, i, None, None, 1);
    }
    // 3 + 1 + 1 + 1 + 1 + 1 = 8 of 6; the problem is told at the seat that passes six.
    assert_eq!(
        problems(&report),
        [(
            ReportField::Seat(4, STRONGHOLDS),
            Problem::StrongholdsOverTable { total: 8, max: 6 }
        )]
    );
    let said = messages(&report);
    assert!(said[0].1.contains("(4.01.11.02)"), "{}", said[0].1);
}

#[test]
fn without_the_shield_wall_the_map_has_five_strongholds() {
    let mut report = table();
    line(&mut report, 0, Some(WinType::SoloStronghold), None, 6);
    assert_eq!(problems(&report), []);
    report.options = RulingOptions {
        shield_wall: false,
        ..RulingOptions::default()
    };
    assert_eq!(
        problems(&report),
        [(
            ReportField::Seat(0, STRONGHOLDS),
            Problem::TooLarge {
                category: Category::Strongholds,
                value: 6,
                max: 5
            }
        )]
    );
}

/// Turn 6: the Bene Gesserit (seat 1) win by predicting the Atreides (seat 0), who hold three.
fn bg_prediction() -> TableReport {
    let mut report = table();
    line(&mut report, 0, None, None, 3);
    line(&mut report, 1, Some(WinType::BgPrediction), None, 0);
    report.prediction = Some(Prediction {
        faction: Atreides,
        turn: 6,
    });
    report
}

#[test]
fn a_bene_gesserit_prediction_is_recorded_and_must_have_come_true() {
    let outcome = validate_table(&bg_prediction()).expect("a prediction that came true");
    assert_eq!(outcome.results()[1], Some(WinType::BgPrediction));

    let mut report = bg_prediction();
    report.prediction = None;
    assert_eq!(
        problems(&report),
        [(
            ReportField::Prediction(PredictionField::Faction),
            Problem::PredictionMissing
        )]
    );

    // Nobody met a victory condition: the Atreides hold two.
    let mut report = bg_prediction();
    line(&mut report, 0, None, None, 2);
    let said = messages(&report);
    assert_eq!(said.len(), 1, "{said:?}");
    assert_eq!(said[0].0, ReportField::Seat(0, STRONGHOLDS));
    assert!(said[0].1.contains("(1.09.02.01, 2.02.03)"), "{}", said[0].1);

    // The prediction names another turn than the one won in.
    let mut report = bg_prediction();
    report.prediction = Some(Prediction {
        faction: Atreides,
        turn: 4,
    });
    assert_eq!(
        problems(&report),
        [(
            ReportField::Prediction(PredictionField::Turn),
            Problem::PredictionWrongTurn {
                turn: 4,
                last_turn: 6
            }
        )]
    );

    // Predicted with an ally: the alliance's four count, even with the Bene Gesserit as ally.
    let mut report = bg_prediction();
    line(&mut report, 0, None, Some(BeneGesserit), 2);
    line(
        &mut report,
        1,
        Some(WinType::BgPrediction),
        Some(Atreides),
        2,
    );
    assert_eq!(problems(&report), []);

    // The predicted faction must be at the table, and not the Bene Gesserit.
    let mut report = bg_prediction();
    report.prediction = Some(Prediction {
        faction: BeneGesserit,
        turn: 6,
    });
    assert!(problems(&report).contains(&(
        ReportField::Prediction(PredictionField::Faction),
        Problem::PredictionOfBg
    )));
}

#[test]
fn a_prediction_that_came_true_beats_the_stronghold_win_it_predicted() {
    let mut report = table();
    report.prediction = Some(Prediction {
        faction: Atreides,
        turn: 6,
    });
    let said = messages(&report);
    assert_eq!(said.len(), 1, "{said:?}");
    assert_eq!(said[0].0, ReportField::Seat(0, SeatField::Result));
    assert!(said[0].1.contains("report BGP"), "{}", said[0].1);
    // Predicted for another turn, the Atreides' win stands.
    report.prediction = Some(Prediction {
        faction: Atreides,
        turn: 8,
    });
    assert_eq!(problems(&report), []);
    // A prediction with no Bene Gesserit at the table is no prediction.
    report.seats.remove(1);
    assert!(problems(&report).contains(&(
        ReportField::Prediction(PredictionField::Faction),
        Problem::PredictionWithoutBg
    )));
}

#[test]
fn an_end_game_win_is_refused_while_someone_holds_a_stronghold_victory() {
    // Turn 10 ends; the Guild's default victory, but the Atreides hold three strongholds.
    let mut report = table();
    report.ended = Ending::Turns;
    report.last_turn = 10;
    line(&mut report, 0, None, None, 3);
    line(&mut report, 5, Some(WinType::SoloDefault), None, 0);
    let said = messages(&report);
    assert_eq!(said.len(), 1, "{said:?}");
    assert_eq!(said[0].0, ReportField::Seat(0, STRONGHOLDS));
    assert!(
        said[0].1.contains("a stronghold victory") && said[0].1.contains("(1.09.05)"),
        "{}",
        said[0].1
    );
    // An alliance holding four between them is as good as a win.
    line(&mut report, 0, None, Some(Emperor), 2);
    line(&mut report, 2, None, Some(Atreides), 2);
    let said = messages(&report);
    assert_eq!(said.len(), 1, "{said:?}");
    assert!(
        said[0].1.contains("together with the ally Player 2"),
        "{}",
        said[0].1
    );
    // Nobody at three (or four allied): the default victory stands.
    line(&mut report, 2, None, Some(Atreides), 1);
    assert_eq!(problems(&report), []);
    // And only at the end of the last turn (1.09.05).
    report.ended = Ending::Win;
    report.last_turn = 7;
    assert!(
        problems(&report)
            .iter()
            .any(|(_, p)| matches!(p, Problem::WrongEnding { .. }))
    );
}
