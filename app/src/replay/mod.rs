//! The rules engine at the tables: verification of a game log, the board after each turn, and
//! what the log implies for the report. The engine runs on the server only ([`bridge`]); what
//! the pages get are the plain view types here, built from the engine's report JSON ([`json`]),
//! so the browser's bundle carries no engine and the pages grow with the JSON.

pub mod batch;
#[cfg(feature = "ssr")]
pub mod bridge;
pub mod json;
pub mod map;
pub mod suggest;

use dune::Faction;
use serde::{Deserialize, Serialize};

pub use json::Tokens;

/// What the engine says about a log, ready to show beside it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Verification {
    /// Whether the text is DGN at all (otherwise `problems` are syntax errors).
    pub readable: bool,
    /// Readable and no rule broken.
    pub legal: bool,
    /// Syntax errors, or broken rules, in the order of the log.
    pub problems: Vec<Problem>,
    /// The last turn the log reaches.
    pub turns: u32,
    /// "HK (Solo Stronghold Victory) in turn 5", when the engine knows the winner.
    pub winner: Option<String>,
    /// How long the server took, in microseconds (parse, replay, report).
    pub micros: u64,
}

/// One problem at one place of the log.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Problem {
    pub line: u32,
    pub col: u32,
    /// The rule broken as the engine cites it in the game's book (`1.06.03.05`, or
    /// `000 1.06.02.05` in a full-rulebook game); `None` for a syntax error.
    pub rule: Option<String>,
    /// The broken rule's page (`/rules/gencon/1.06.03.05`, `/rules/full/1.06.02.05`).
    #[serde(default)]
    pub page: Option<String>,
    /// The rule's heading, for the reader who does not know the number by heart.
    pub heading: Option<String>,
    pub message: String,
    /// "turn 3, Battle" for a broken rule.
    pub context: Option<String>,
}

impl Problem {
    pub fn rule_href(&self) -> Option<String> {
        self.page.clone()
    }
}

/// The board after one turn (or where the log stops), as the map and tables draw it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct BoardTurn {
    pub turn: u32,
    /// The phase reached (the Mentat Pause for a complete turn).
    pub phase: String,
    /// 1-18; `None` before the first storm.
    pub storm: Option<u8>,
    /// Territories with tokens or spice, by territory code, in the engine's table order.
    pub places: Vec<PlaceState>,
    /// Per faction in play, in seat order of the report JSON (alphabetical by code).
    pub holdings: Vec<Holding>,
    pub alliances: Vec<(Faction, Faction)>,
    pub worms: u32,
    /// Whether the Shield Wall counts as a stronghold now (4.02); unknown until the engine says.
    pub shield_wall_counts: Option<bool>,
    /// Win attempts of this turn's Battle phase, with the strongholds counted (4.01.04).
    pub win_attempts: Vec<(Faction, Vec<String>)>,
    /// Whether the engine reports control and spice on the map (Rules engine II).
    pub knows_control: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlaceState {
    pub code: String,
    pub name: String,
    pub tokens: Vec<(Faction, Tokens)>,
    pub spice: u32,
    /// The stronghold's controller (1.09.02), when the engine reports control.
    pub controller: Option<Faction>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Holding {
    pub faction: Faction,
    pub spice: u32,
    /// Treachery cards in hand (public, 1.04.10).
    pub cards: u32,
    /// The cards themselves: audit mode only, otherwise hidden.
    pub card_names: Option<Vec<String>>,
    pub reserves: Tokens,
    pub tanks: Tokens,
    /// Active leaders, when the engine reports them.
    pub leaders: Option<Vec<String>>,
    pub strongholds: Vec<String>,
}

/// The whole replay for the page: verification, the board turn by turn.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Replayed {
    pub verification: Verification,
    pub turns: Vec<BoardTurn>,
    /// The board at the end of every phase, when asked for (for stepping through a turn).
    pub phases: Vec<BoardTurn>,
    /// Hidden information (cards in hand, sealed entries) was used: a judge's audit.
    pub audit: bool,
}

/// Faction colours on the map, with a text colour that reads on them (and in print, where the
/// faction's code is always written too).
pub fn faction_colours(f: Faction) -> (&'static str, &'static str) {
    match f {
        Faction::Atreides => ("#2e7d32", "#fff"),
        Faction::BeneGesserit => ("#1565c0", "#fff"),
        Faction::Emperor => ("#b71c1c", "#fff"),
        Faction::Fremen => ("#f2c14e", "#000"),
        Faction::Harkonnen => ("#212121", "#fff"),
        // Dark ink on the Guild's orange: white on it fails WCAG's contrast (3.8 : 1).
        Faction::SpacingGuild => ("#e65100", "#000"),
        _ => ("#6a1b9a", "#fff"),
    }
}
