//! Game-report validation through the typed API: which results a table can carry.

mod common;

use common::*;
use tournament::report::{Ending, Problem};
use tournament::{
    AdjudicationDeadlock, Faction, Faction::*, GameReport, Report, SeatReport, TableFallback,
    WinType, WinType::*, validate,
};

const T: [u32; 6] = [1, 1, 5, 5, 2, 4];

/// A table of the given factions; `winners` lists (faction, result); `allies` pairs factions.
fn table(
    factions: &[Faction],
    allies: &[(Faction, Faction)],
    winners: &[(Faction, WinType)],
) -> Vec<SeatReport> {
    // Stronghold winners hold what their win takes (1.09.02), and then nobody else holds one.
    let by_strongholds = winners
        .iter()
        .any(|(_, w)| matches!(w, SoloStronghold | AlliedStronghold));
    factions
        .iter()
        .map(|&f| {
            let ally = allies.iter().find_map(|&(a, b)| {
                if a == f {
                    Some(b)
                } else if b == f {
                    Some(a)
                } else {
                    None
                }
            });
            let result = winners.iter().find(|(w, _)| *w == f).map(|&(_, r)| r);
            let mut t = T;
            if by_strongholds {
                t[1] = match result {
                    Some(SoloStronghold) => 3,
                    Some(AlliedStronghold) => 2,
                    _ => 0,
                };
            }
            seat(&format!("{f}"), f, ally, result, t)
        })
        .collect()
}

fn problems(report: &Report) -> Vec<Problem> {
    match validate(report) {
        Ok(_) => Vec::new(),
        Err(errors) => errors.0.into_iter().map(|e| e.problem).collect(),
    }
}

fn one(ended: Ending, seats: Vec<SeatReport>) -> Report {
    report(vec![game(1, 1, ended, seats)])
}

const SIX: [Faction; 6] = [
    Atreides,
    BeneGesserit,
    Emperor,
    Fremen,
    Harkonnen,
    SpacingGuild,
];

#[test]
fn legal_results_pass() {
    let cases: Vec<(Ending, Vec<SeatReport>)> = vec![
        (
            Ending::Win,
            table(&SIX, &[], &[(Harkonnen, SoloStronghold)]),
        ),
        (
            Ending::Turns,
            table(&SIX, &[], &[(Harkonnen, SoloStronghold)]),
        ),
        (
            Ending::Win,
            table(
                &SIX,
                &[(Atreides, Fremen)],
                &[(Atreides, AlliedStronghold), (Fremen, AlliedStronghold)],
            ),
        ),
        // The BG wins a prediction alone, even when allied (2.02.03).
        (
            Ending::Win,
            table(
                &SIX,
                &[(BeneGesserit, Emperor)],
                &[(BeneGesserit, BgPrediction)],
            ),
        ),
        (
            Ending::Turns,
            table(&SIX, &[], &[(Fremen, SoloFremenSpecial)]),
        ),
        (
            Ending::Turns,
            table(
                &SIX,
                &[(Fremen, Harkonnen)],
                &[
                    (Fremen, AlliedFremenSpecial),
                    (Harkonnen, AlliedFremenSpecial),
                ],
            ),
        ),
        (
            Ending::Turns,
            table(&SIX, &[], &[(SpacingGuild, SoloDefault)]),
        ),
        (
            Ending::Turns,
            table(
                &SIX,
                &[(SpacingGuild, Emperor)],
                &[(SpacingGuild, AlliedDefault), (Emperor, AlliedDefault)],
            ),
        ),
        // Without the Guild the Fremen win by default (1.09.05).
        (
            Ending::Turns,
            table(
                &[Atreides, BeneGesserit, Emperor, Fremen, Harkonnen],
                &[],
                &[(Fremen, SoloDefault)],
            ),
        ),
        (Ending::Time, table(&SIX, &[(Atreides, Fremen)], &[])),
    ];
    for (ended, seats) in cases {
        let r = one(ended, seats);
        assert_eq!(problems(&r), [], "{:?}", r.games[0]);
    }
}

#[test]
fn results_that_cannot_happen_are_refused() {
    let four = [Atreides, BeneGesserit, Emperor, Harkonnen];
    let cases: Vec<(Ending, Vec<SeatReport>, Problem)> = vec![
        (
            Ending::Win,
            table(&SIX, &[], &[(Atreides, BgPrediction)]),
            Problem::WrongFaction { win: BgPrediction },
        ),
        (
            Ending::Turns,
            table(&SIX, &[], &[(Atreides, SoloFremenSpecial)]),
            Problem::WrongFaction {
                win: SoloFremenSpecial,
            },
        ),
        (
            Ending::Turns,
            table(
                &[Atreides, BeneGesserit, Emperor, Fremen, Harkonnen],
                &[],
                &[(Fremen, SoloFremenSpecial)],
            ),
            Problem::NeedsGuild {
                win: SoloFremenSpecial,
            },
        ),
        (
            Ending::Turns,
            table(&SIX, &[], &[(Fremen, SoloDefault)]),
            Problem::WrongFaction { win: SoloDefault },
        ),
        (
            Ending::Turns,
            table(&SIX, &[], &[(Atreides, EndGame)]),
            Problem::EndGameWithGuildOrFremen { win: EndGame },
        ),
        (
            Ending::Win,
            table(&SIX, &[], &[(SpacingGuild, SoloDefault)]),
            Problem::WrongEnding {
                win: SoloDefault,
                ended: Ending::Win,
            },
        ),
        (
            Ending::Win,
            table(
                &SIX,
                &[],
                &[(Atreides, SoloStronghold), (Harkonnen, SoloStronghold)],
            ),
            Problem::TooManyWinners {
                win: SoloStronghold,
                count: 2,
            },
        ),
        (
            Ending::Win,
            table(&SIX, &[(Atreides, Fremen)], &[(Atreides, SoloStronghold)]),
            Problem::SoloButAllied {
                win: SoloStronghold,
                ally: Fremen,
            },
        ),
        (
            Ending::Win,
            table(&SIX, &[(Atreides, Fremen)], &[(Atreides, AlliedStronghold)]),
            Problem::AllyResultDiffers {
                win: AlliedStronghold,
                ally_player: name("FR"),
                ally_result: None,
            },
        ),
        (
            Ending::Win,
            table(&SIX, &[], &[]),
            Problem::NoWinner { ended: Ending::Win },
        ),
        (
            Ending::Win,
            table(&SIX, &[], &[(Atreides, Adjudicated)]),
            Problem::AdjudicatedReported,
        ),
        (
            Ending::Win,
            table(&four, &[], &[(Atreides, SoloStronghold)]),
            Problem::TableSize {
                size: 4,
                four_allowed: false,
            },
        ),
    ];
    for (ended, seats, expected) in cases {
        let r = one(ended, seats);
        assert_eq!(problems(&r), [expected], "{:?}", r.games[0]);
    }
    // With 4-player tables allowed (ruling 1), End Game Victory becomes possible (ruling 7).
    let mut r = one(
        Ending::Turns,
        table(&four, &[], &[(Atreides, EndGame), (Harkonnen, EndGame)]),
    );
    r.options.table_fallback = TableFallback::FourPlayerTables;
    assert_eq!(problems(&r), []);
}

#[test]
fn implausible_values_are_refused() {
    let mut seats = table(&SIX, &[], &[(Atreides, SoloStronghold)]);
    seats[0].tiebreakers.win_attempts = 11;
    seats[1].tiebreakers.end.cards = 9;
    seats[2].tiebreakers.end.leaders = 6;
    // Harkonnen may hold captured leaders (ruling 12).
    seats[4].tiebreakers.end.leaders = 9;
    let text = validate(&one(Ending::Win, seats)).unwrap_err().to_string();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert!(
        lines[0].starts_with("round 1, table 1, player AT, field win_attempts: 11 win attempts")
    );
    assert!(lines[1].starts_with("round 1, table 1, player BG, field cards: 9 treachery cards"));
    assert!(lines[2].starts_with("round 1, table 1, player EM, field leaders: 6 active leaders"));
}

#[test]
fn judge_draw_settles_a_dead_tie_when_the_event_says_so() {
    // AT and HK tie in every category and are not allied.
    let seats = vec![
        seat("Ann", Atreides, None, None, [2, 1, 5, 5, 2, 4]),
        seat("Hal", Harkonnen, None, None, [2, 1, 5, 5, 2, 4]),
        seat("Bea", BeneGesserit, None, None, [0, 0, 5, 5, 2, 4]),
        seat("Emo", Emperor, None, None, [1, 0, 5, 5, 2, 4]),
        seat("Fry", Fremen, None, None, [1, 0, 5, 5, 2, 4]),
    ];
    let mut r = one(Ending::Time, seats);
    let valid = validate(&r).unwrap();
    assert_eq!(
        valid.games()[0].results()[..2],
        [Some(Adjudicated), Some(Adjudicated)]
    );

    r.options.adjudication_deadlock = AdjudicationDeadlock::JudgeDraw;
    assert!(matches!(&problems(&r)[..], [Problem::NeedsJudgeDraw { tied }] if tied.len() == 2));
    r.games[0].judge_draw = Some(name("Bea"));
    assert!(matches!(
        &problems(&r)[..],
        [Problem::JudgeDrawNotTied { .. }]
    ));
    r.games[0].judge_draw = Some(name("Hal"));
    let valid = validate(&r).unwrap();
    assert_eq!(valid.games()[0].results()[..2], [None, Some(Adjudicated)]);
    r.games[0].judge_draw = Some(name("Nobody"));
    assert!(problems(&r).contains(&Problem::JudgeDrawUnknown {
        drawn: name("Nobody")
    }));

    let mut won: GameReport = game(
        1,
        1,
        Ending::Win,
        table(&SIX, &[], &[(Atreides, SoloStronghold)]),
    );
    won.judge_draw = Some(name("AT"));
    assert_eq!(
        problems(&report(vec![won])),
        [Problem::JudgeDrawNotAdjudicated]
    );
}
