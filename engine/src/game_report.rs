//! The game report derived from a log (4.01.07): what a judge would fill in at the end of the
//! game, as the tournament crate's own [`tournament::report::GameReport`], so `mentat standings`
//! and the web app score a replayed game exactly as a hand-filled one.
//!
//! The engine depends on `tournament` (and not the other way round) because the report is the
//! tournament's noun: the engine produces it, the tournament validates and scores it. Both crates
//! are pure, so the dependency costs nothing at run time and keeps one definition of a report.
//!
//! Per seat (rulings 11-12): the win type, the ally, win attempts (one per turn at most, counted
//! by the engine at the start of every Battle phase, ruling 6), strongholds controlled, forces on
//! the map (advisors and the Polar Sink included), spice behind the shield, cards in hand and
//! active leaders (captured ones included, the Kwisatz Haderach excluded) at the end.

use std::fmt;

use dune::{Faction, WinType};
use tournament::player::PlayerName;
use tournament::report::{Ending, GameReport, Report, SeatReport};
use tournament::tiebreakers::{EndValues, Tiebreakers};

use crate::dgn::Game;
use crate::replay::ReplayReport;

/// Why no report can be derived.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DeriveError {
    /// The log stops before the game is over (no winner, no `END`, no clock limit).
    NotOver { turn: u32 },
    /// The `[SeatDraw]` (or `[Players]`) tag names a player badly.
    Player { seat: u32, problem: String },
    /// `[Round]` or `[Table]` is not a number from 1.
    Tag { tag: &'static str, value: String },
}

impl fmt::Display for DeriveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DeriveError::NotOver { turn } => write!(
                f,
                "the game is not over: the log stops in turn {turn} with no winner, no END line and no clock limit (@LIMIT)"
            ),
            DeriveError::Player { seat, problem } => {
                write!(f, "seat {seat}'s player in the SeatDraw tag: {problem}")
            }
            DeriveError::Tag { tag, value } => {
                write!(f, "the {tag} tag must be a number from 1, not \"{value}\"")
            }
        }
    }
}

impl std::error::Error for DeriveError {}

/// Players by seat from `[SeatDraw "1=Alice 2=Bob Jones …"]` (also `[Players …]`): a name runs
/// until the next `n=`. A seat the tag does not name is reported as "Seat n".
fn players(game: &Game) -> Result<Vec<(u32, PlayerName)>, DeriveError> {
    let Some(tag) = game.tag("SeatDraw").or_else(|| game.tag("Players")) else {
        return Ok(Vec::new());
    };
    let mut out: Vec<(u32, String)> = Vec::new();
    for word in tag.value.split_whitespace() {
        let seat = word
            .split_once('=')
            .and_then(|(n, rest)| n.parse::<u32>().ok().map(|n| (n, rest)));
        match (seat, out.last_mut()) {
            (Some((n, name)), _) => out.push((n, name.to_string())),
            (None, Some((_, name))) => {
                name.push(' ');
                name.push_str(word);
            }
            (None, None) => {}
        }
    }
    out.into_iter()
        .map(|(seat, name)| {
            PlayerName::parse(&name)
                .map(|p| (seat, p))
                .map_err(|e| DeriveError::Player {
                    seat,
                    problem: e.to_string(),
                })
        })
        .collect()
}

fn number_tag(game: &Game, tag: &'static str) -> Result<u32, DeriveError> {
    match game.tag(tag) {
        None => Ok(1),
        Some(t) => t
            .value
            .trim()
            .parse::<u32>()
            .ok()
            .filter(|&n| n >= 1)
            .ok_or_else(|| DeriveError::Tag {
                tag,
                value: t.value.clone(),
            }),
    }
}

/// Seats in seat order, from the `[Factions]` tag.
fn seats(game: &Game, r: &ReplayReport) -> Vec<(u32, Faction)> {
    let mut seats: Vec<(u32, Faction)> = game
        .tag("Factions")
        .map(|t| {
            t.value
                .split_whitespace()
                .filter_map(|w| {
                    let (n, f) = w.split_once('=')?;
                    Some((n.parse().ok()?, crate::dgn::faction_code(f)?))
                })
                .collect()
        })
        .unwrap_or_default();
    if seats.is_empty() {
        seats = r
            .state
            .order()
            .iter()
            .zip(1..)
            .map(|(&f, n)| (n, f))
            .collect();
    }
    seats.sort();
    seats.dedup_by_key(|s| s.1);
    seats
}

/// The game report of one replayed game (4.01.07).
pub fn derive_game_report(game: &Game, r: &ReplayReport) -> Result<GameReport, DeriveError> {
    let st = &r.state;
    let max_turns = st.options().max_turns;
    let ended = match &r.winner {
        Some(w)
            if matches!(
                w.kind,
                WinType::SoloStronghold | WinType::AlliedStronghold | WinType::BgPrediction
            ) && w.turn < max_turns =>
        {
            Ending::Win
        }
        Some(_) => Ending::Turns,
        None if r.end.limit
            || r.end.logged.as_ref().is_some_and(|(_, why)| {
                matches!(
                    why.to_ascii_uppercase().as_str(),
                    "TIME" | "LIMIT" | "CLOCK" | "ADJ"
                )
            }) =>
        {
            Ending::Time
        }
        None => return Err(DeriveError::NotOver { turn: st.turn() }),
    };
    let names = players(game)?;
    let mut out = Vec::new();
    for (seat, f) in seats(game, r) {
        let player = match names.iter().find(|(s, _)| *s == seat) {
            Some((_, p)) => p.clone(),
            None => {
                PlayerName::parse(&format!("Seat {seat}")).map_err(|e| DeriveError::Player {
                    seat,
                    problem: e.to_string(),
                })?
            }
        };
        let result = r
            .winner
            .as_ref()
            .filter(|w| w.factions.contains(&f))
            .map(|w| w.kind);
        let fs = st.faction(f);
        let win_attempts = r
            .win_attempts
            .iter()
            .filter(|(_, list)| list.iter().any(|w| w.faction == f))
            .count();
        let strongholds = st
            .victory_strongholds()
            .filter(|&s| st.controller(s) == Some(f))
            .count();
        let forces: u32 = crate::board::Piece::all()
            .map(|p| u32::from(st.stack(f, p).total()))
            .sum();
        out.push(SeatReport {
            player,
            faction: f,
            ally: fs.ally(),
            result,
            tiebreakers: Tiebreakers {
                win_attempts: u32::try_from(win_attempts).unwrap_or(u32::MAX),
                end: EndValues {
                    strongholds: u32::try_from(strongholds).unwrap_or(u32::MAX),
                    forces,
                    spice: fs.spice(),
                    cards: u32::try_from(fs.hand().len()).unwrap_or(u32::MAX),
                    leaders: u32::try_from(st.active_leaders(f).len()).unwrap_or(u32::MAX),
                },
            },
        });
    }
    Ok(GameReport {
        round: number_tag(game, "Round")?,
        table: number_tag(game, "Table")?,
        ended,
        // The turn the replay reached: the winner's, the last, or the one the clock stopped.
        last_turn: (st.turn() >= 1).then_some(st.turn()),
        seats: out,
        judge_draw: None,
        // The sealed prediction is the replay's to check; the derived report leaves it out.
        prediction: None,
    })
}

/// The one-game report `mentat standings` reads (docs/cli.md), under the game's ruleset
/// (`gc-2.13.3` or `full`) with the default ruling options.
pub fn derive_report(game: &Game, r: &ReplayReport) -> Result<Report, DeriveError> {
    Ok(Report {
        ruleset: r.state.options().ruleset,
        options: Default::default(),
        games: vec![derive_game_report(game, r)?],
    })
}
