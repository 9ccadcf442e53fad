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

pub use json::{KindNames, Tokens};

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
    /// Deal and bribe terms the engine cannot check, with their line: the judge's to rule on.
    #[serde(default)]
    pub not_checked: Vec<(u32, String)>,
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
    /// Other rules that say the same as `rule`, for the judge to read alongside it.
    #[serde(default)]
    pub see_also: Vec<String>,
}

impl Problem {
    /// The rule's page. The GenCon rulebook's rules have pages here; a full-rulebook rule
    /// (`000 …`) is shown without a link until its page exists.
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
    /// The No-Field token face up in front of Richese's shield (000 2.10.13).
    #[serde(default)]
    pub no_field_front: Option<u8>,
    /// Where the Ixians' Hidden Mobile Stronghold stands (000 2.07.17), once placed.
    pub hms: Option<HmsPlace>,
    /// What each faction's kinds of force are called, where they are more than plain forces
    /// (the Ixians' Cyborgs and Suboids, the Sardaukar, the advisors).
    pub kinds: Vec<(Faction, KindNames)>,
}

/// The territory and sector the Hidden Mobile Stronghold's token points at.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HmsPlace {
    pub code: String,
    pub name: String,
    pub sector: u8,
}

impl BoardTurn {
    /// The names of a faction's kinds of force, if they are not plain forces.
    pub fn kinds_of(&self, f: Faction) -> Option<&KindNames> {
        self.kinds.iter().find(|(g, _)| *g == f).map(|(_, k)| k)
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlaceState {
    pub code: String,
    pub name: String,
    pub tokens: Vec<(Faction, Tokens)>,
    pub spice: u32,
    /// The stronghold's controller (1.09.02), when the engine reports control.
    pub controller: Option<Faction>,
    /// Richese's No-Field tokens face down here (000 2.10.10): each one's number when the page
    /// audits the log, `None` as the table sees it.
    #[serde(default)]
    pub no_fields: Vec<Option<u8>>,
    /// Tokens lying here that act later: Ecaz's ambassadors, Moritani's terror tokens.
    #[serde(default)]
    pub markers: Vec<Marker>,
}

/// An Ecaz ambassador or a Moritani terror token on the board (000 2.11, 2.12).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Marker {
    pub owner: Faction,
    /// A terror token (`false`: an ambassador).
    pub terror: bool,
    /// The ambassador's faction code or the terror token's name; `None` when face down and the
    /// page does not audit the log.
    pub of: Option<String>,
    pub face_up: bool,
}

impl Marker {
    /// What the marker says on the map: the ambassador's faction code, the token's initials,
    /// `?` when hidden.
    pub fn short(&self) -> String {
        match &self.of {
            Some(of) if self.terror => of.chars().filter(|c| c.is_ascii_uppercase()).collect(),
            Some(of) => of.clone(),
            None => "?".to_owned(),
        }
    }

    /// "Ecaz ambassador (HK), face up", "Moritani terror token, face down".
    pub fn describe(&self) -> String {
        let what = if self.terror {
            "terror token"
        } else {
            "ambassador"
        };
        let face = if self.face_up { "face up" } else { "face down" };
        match &self.of {
            Some(of) => format!("{} {what} ({of}), {face}", self.owner.name()),
            None => format!("{} {what}, {face}", self.owner.name()),
        }
    }
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
        Faction::Choam => ("#5d4037", "#fff"),
        Faction::Richese => ("#4527a0", "#fff"),
        Faction::FreeTraders => ("#00796b", "#fff"),
        Faction::Ecaz => ("#ad1457", "#fff"),
        Faction::Moritani => ("#827717", "#fff"),
        Faction::Ixians => ("#455a64", "#fff"),
        Faction::Tleilaxu => ("#6a1b9a", "#fff"),
    }
}
