//! Game reports (4.01.02, 4.01.07) and their validation.
//!
//! A [`Report`] is what judges filled in; [`validate`] turns it into a [`ValidReport`], the only
//! form standings accept, or lists every problem found, each naming the game, the player and the
//! field so the judge knows which line of which Game Report to fix.

mod check;
mod field;
mod problem;
mod table;

use dune::{Faction, WinType};
use serde::{Deserialize, Serialize};

use crate::adjudication::Adjudication;
use crate::options::RulingOptions;
use crate::player::PlayerName;
use crate::ruleset::Ruleset;
use crate::tiebreakers::Tiebreakers;

pub use check::validate;
pub use field::{PredictionField, ReportField, SeatField};
pub use problem::{GameRef, Problem, ReportError, ReportErrors};
pub use table::{SeatEntry, TableOutcome, TableReport, TableSeat, validate_table};

/// A message as a sentence: its first letter capitalised (problems are worded to follow a
/// player's name, "Alice: sits at …", and stand alone as "Sits at …").
pub fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// The number of turns a game lasts (0.02).
pub const MAX_TURNS: u32 = 10;
/// Most win attempts in a game: one per player per turn (ruling 6).
pub const MAX_WIN_ATTEMPTS: u32 = MAX_TURNS;
/// A faction has twenty force tokens.
pub const MAX_FORCES: u32 = 20;
/// The largest hand, the Harkonnen's (2.05.07).
pub const MAX_CARDS: u32 = 8;
/// A faction's own leaders.
pub const OWN_LEADERS: u32 = 5;

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Report {
    pub ruleset: Ruleset,
    #[serde(default)]
    pub options: RulingOptions,
    pub games: Vec<GameReport>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameReport {
    pub round: u32,
    pub table: u32,
    pub ended: Ending,
    /// The last turn played (1 to 10), when the report gives it; checked against how the game
    /// ended and the win attempts recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_turn: Option<u32>,
    pub seats: Vec<SeatReport>,
    /// The player the head judge drew when an adjudication tie survives every category and the
    /// event settles such ties by a draw (ruling 9).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub judge_draw: Option<PlayerName>,
    /// The Bene Gesserit's prediction (2.02.03), when the report records it; required at an
    /// event's table for a Bene Gesserit Prediction win.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prediction: Option<Prediction>,
}

/// The Bene Gesserit's secret prediction (2.02.03): the faction that will win by a stronghold
/// victory, and the turn it will. When it comes true the Bene Gesserit wins alone instead.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Prediction {
    pub faction: Faction,
    pub turn: u32,
}

/// How the game stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Ending {
    /// A victory at a Mentat Pause before the last turn.
    Win,
    /// The clock (4.01.08) stopped it with no winner: adjudicated (4.01.09).
    Time,
    /// The last turn was played; the end-game rules (1.09.05) name the winner if nobody won
    /// at its Mentat Pause.
    Turns,
}

impl Ending {
    pub fn code(self) -> &'static str {
        match self {
            Ending::Win => "win",
            Ending::Time => "time",
            Ending::Turns => "turns",
        }
    }

    pub fn from_code(code: &str) -> Option<Ending> {
        [Ending::Win, Ending::Time, Ending::Turns]
            .into_iter()
            .find(|e| e.code() == code)
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatReport {
    pub player: PlayerName,
    pub faction: Faction,
    /// The ally's faction at this table.
    pub ally: Option<Faction>,
    pub result: Option<WinType>,
    #[serde(flatten)]
    pub tiebreakers: Tiebreakers,
}

/// A report that passed validation, games in (round, table) order, clock-ended games
/// adjudicated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValidReport {
    pub(crate) ruleset: Ruleset,
    pub(crate) options: RulingOptions,
    pub(crate) games: Vec<ScoredGame>,
}

impl ValidReport {
    pub fn ruleset(&self) -> Ruleset {
        self.ruleset
    }
    pub fn options(&self) -> &RulingOptions {
        &self.options
    }
    pub fn games(&self) -> &[ScoredGame] {
        &self.games
    }
}

/// A validated game with its final results.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScoredGame {
    pub(crate) round: u32,
    pub(crate) table: u32,
    pub(crate) ended: Ending,
    pub(crate) seats: Vec<SeatReport>,
    pub(crate) allies: Vec<Option<usize>>,
    pub(crate) results: Vec<Option<WinType>>,
    pub(crate) adjudication: Option<Adjudication>,
}

impl ScoredGame {
    pub fn round(&self) -> u32 {
        self.round
    }
    pub fn table(&self) -> u32 {
        self.table
    }
    pub fn ended(&self) -> Ending {
        self.ended
    }
    pub fn seats(&self) -> &[SeatReport] {
        &self.seats
    }
    /// The ally's seat index, per seat.
    pub fn allies(&self) -> &[Option<usize>] {
        &self.allies
    }
    /// Per seat: the reported result, or Adjudicated for adjudication's winners.
    pub fn results(&self) -> &[Option<WinType>] {
        &self.results
    }
    pub fn adjudication(&self) -> Option<&Adjudication> {
        self.adjudication.as_ref()
    }
}

/// Where a table's report stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum ReportStatus {
    Missing,
    /// Waiting for the seated players' confirmations.
    Awaiting {
        confirmed: usize,
        seated: usize,
    },
    /// A player disputes it: the head judge decides (4.01.05).
    Disputed,
    Final,
}

impl ReportStatus {
    pub fn label(self) -> String {
        match self {
            ReportStatus::Missing => "no report yet".into(),
            ReportStatus::Awaiting { confirmed, seated } => {
                format!("awaiting confirmation ({confirmed} of {seated})")
            }
            ReportStatus::Disputed => "disputed: head judge to decide (4.01.05)".into(),
            ReportStatus::Final => "final".into(),
        }
    }
}

impl ReportStatus {
    pub fn is_final(self) -> bool {
        self == ReportStatus::Final
    }

    /// A short code for pages and exports: `missing`, `awaiting`, `disputed`, `final`.
    pub fn code(self) -> &'static str {
        match self {
            ReportStatus::Missing => "missing",
            ReportStatus::Awaiting { .. } => "awaiting",
            ReportStatus::Disputed => "disputed",
            ReportStatus::Final => "final",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Ending;

    #[test]
    fn ending_codes_round_trip() {
        for e in [Ending::Win, Ending::Time, Ending::Turns] {
            assert_eq!(Ending::from_code(e.code()), Some(e));
        }
        assert_eq!(Ending::from_code("draw"), None);
    }
}
