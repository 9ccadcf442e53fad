//! The tournament procedure of the GenCon Dune rulebook (001: 0.07, 0.08, 4.01.01-4.01.11) as
//! pure functions, with `rulings.md` deciding where the rulebook is silent.
//!
//! Reading order: [`tables`] splits a round into tables, [`draw`] seats players and deals
//! factions (using [`pairing`] against earlier rounds kept in [`history`]), [`report`] checks the
//! judges' Game Reports and [`adjudication`] settles clock-ended games, [`mod@standings`] orders the
//! players and [`finals`] cuts the list. [`cli`] is the command-line contract of `mentat`, text
//! in and text out. [`clock`] reads a table's game clock (4.01.08) from its stored instants.
//!
//! Nothing here panics on input: every boundary returns an error naming what to fix.
// A panic in the hall loses a judge's work: outside tests, every failure is an error value.
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

pub mod adjudication;
pub mod attempts;
pub mod cli;
pub mod clock;
pub mod draw;

pub mod finals;
pub mod history;
pub mod ids;
pub mod options;
pub mod pairing;
pub mod player;
pub mod report;
pub mod rng;
pub mod ruleset;
pub mod standings;
pub mod statistics;
pub mod tables;
pub mod tiebreakers;

pub use adjudication::{Adjudication, adjudicate};
pub use clock::{Clock, ClockError, Phase as ClockPhase, Reading as ClockReading};
pub use draw::{Deal, DrawError, DrawRequest, Round, draw_round};
pub use dune::Faction;
pub use dune::{Points, WinType};
pub use history::{History, PastRound, PastSeat, PastTable};
pub use options::{AdjudicationDeadlock, FinalSeating, RulingOptions, TableFallback};
pub use player::PlayerName;
pub use report::{
    GameReport, Prediction, PredictionField, Report, ReportErrors, ReportField, ReportStatus,
    SeatEntry, SeatField, SeatReport, TableOutcome, TableReport, TableSeat, ValidReport, validate,
    validate_table,
};
pub use ruleset::Ruleset;
pub use standings::{OrderReason, Standings, compute as standings};
pub use tiebreakers::{Category, EndValues, Tiebreakers};
