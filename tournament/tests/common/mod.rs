//! Builders for reports in tests.
#![allow(dead_code)]

use tournament::report::Ending;
use tournament::{
    Faction, GameReport, PlayerName, Report, Ruleset, SeatReport, Tiebreakers, WinType,
};

pub fn name(s: &str) -> PlayerName {
    PlayerName::parse(s).expect("test names are valid")
}

pub fn tb(t: [u32; 6]) -> Tiebreakers {
    Tiebreakers::from_array(t)
}

pub fn seat(
    player: &str,
    faction: Faction,
    ally: Option<Faction>,
    result: Option<WinType>,
    t: [u32; 6],
) -> SeatReport {
    SeatReport {
        player: name(player),
        faction,
        ally,
        result,
        tiebreakers: tb(t),
    }
}

pub fn game(round: u32, table: u32, ended: Ending, seats: Vec<SeatReport>) -> GameReport {
    GameReport {
        round,
        table,
        ended,
        last_turn: None,
        seats,
        judge_draw: None,
        prediction: None,
    }
}

pub fn report(games: Vec<GameReport>) -> Report {
    Report {
        ruleset: Ruleset::Gc2133,
        options: Default::default(),
        games,
    }
}

/// Fills a table with unallied, resultless players of the given factions, named after the
/// game so they never clash.
pub fn fillers(round: u32, table: u32, factions: &[Faction]) -> Vec<SeatReport> {
    factions
        .iter()
        .map(|&f| {
            seat(
                &format!("r{round}t{table}-{f}"),
                f,
                None,
                None,
                [0, 0, 1, 0, 0, 1],
            )
        })
        .collect()
}
