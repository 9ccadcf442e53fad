//! The two rulesets an event can run under (rulings.md, "Rulesets").

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use dune::Book;
use dune::faction::Faction;
use dune::win_type::WinType;

const GC_WIN_TYPES: [WinType; 9] = [
    WinType::SoloStronghold,
    WinType::BgPrediction,
    WinType::AlliedStronghold,
    WinType::SoloFremenSpecial,
    WinType::AlliedFremenSpecial,
    WinType::EndGame,
    WinType::SoloDefault,
    WinType::AlliedDefault,
    WinType::Adjudicated,
];

const FULL_WIN_TYPES: [WinType; 10] = [
    WinType::SoloStronghold,
    WinType::BgPrediction,
    WinType::AlliedStronghold,
    WinType::SoloFremenSpecial,
    WinType::AlliedFremenSpecial,
    WinType::SoloEndGame,
    WinType::AlliedEndGame,
    WinType::SoloDefault,
    WinType::AlliedDefault,
    WinType::Adjudicated,
];

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Ruleset {
    /// The GenCon tournament rulebook v2.13.3 (file 001): six classic factions.
    #[default]
    Gc2133,
    /// The full rulebook (file 000): thirteen factions, End Game split into Solo and Allied.
    Full,
}

impl Ruleset {
    pub const ALL: [Ruleset; 2] = [Ruleset::Gc2133, Ruleset::Full];

    pub fn id(self) -> &'static str {
        match self {
            Ruleset::Gc2133 => "gc-2.13.3",
            Ruleset::Full => "full",
        }
    }

    /// The ruleset's points list in weight order, heaviest first (4.01.10).
    pub fn win_types(self) -> &'static [WinType] {
        match self {
            Ruleset::Gc2133 => &GC_WIN_TYPES,
            Ruleset::Full => &FULL_WIN_TYPES,
        }
    }

    /// 1-based place on the points list; `None` for a type this ruleset does not have.
    pub fn rank(self, win: WinType) -> Option<usize> {
        self.win_types()
            .iter()
            .position(|&w| w == win)
            .map(|i| i + 1)
    }

    /// Higher is heavier; 0 is "no win", below every win type. Used to order a player's games.
    pub fn weight(self, win: Option<WinType>) -> usize {
        let len = self.win_types().len();
        win.and_then(|w| self.rank(w))
            .map_or(0, |rank| len + 1 - rank)
    }

    pub fn has_win_type(self, win: WinType) -> bool {
        self.rank(win).is_some()
    }

    /// The rulebook whose numbers a game under this ruleset cites (see `dune::Book::cite`).
    pub fn book(self) -> Book {
        match self {
            Ruleset::Gc2133 => Book::GenCon,
            Ruleset::Full => Book::Full,
        }
    }

    /// Factions whose rules the ruleset contains.
    pub fn factions(self) -> &'static [Faction] {
        match self {
            Ruleset::Gc2133 => &Faction::CLASSIC,
            Ruleset::Full => &Faction::ALL,
        }
    }

    pub fn has_faction(self, faction: Faction) -> bool {
        self.factions().contains(&faction)
    }

    /// The most strongholds one player can hold at the end of a game, a bound for plausible
    /// reports, with the Shield Wall variant played (`RulingOptions::strongholds` takes the
    /// event's choice). GenCon: the five of the map plus the Shield Wall (4.02). Full adds the Ixians'
    /// Hidden Mobile Stronghold (2.07), the set of three tech tokens (4.05) and the Jacurutu
    /// Sietch discovery token (4.06), each of which counts as a stronghold.
    pub fn stronghold_count(self) -> u32 {
        match self {
            Ruleset::Gc2133 => 6,
            Ruleset::Full => 9,
        }
    }

    /// The End Game type for a winner of the given alliance status (rulings.md 7).
    pub fn end_game(self, allied: bool) -> WinType {
        match (self, allied) {
            (Ruleset::Gc2133, _) => WinType::EndGame,
            (Ruleset::Full, false) => WinType::SoloEndGame,
            (Ruleset::Full, true) => WinType::AlliedEndGame,
        }
    }
}

impl fmt::Display for Ruleset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown ruleset {0:?} (expected gc-2.13.3 or full)")]
pub struct UnknownRuleset(pub String);

impl FromStr for Ruleset {
    type Err = UnknownRuleset;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ruleset::ALL
            .into_iter()
            .find(|r| r.id() == s.trim())
            .ok_or_else(|| UnknownRuleset(s.to_owned()))
    }
}

impl Serialize for Ruleset {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.id())
    }
}

impl<'de> Deserialize<'de> for Ruleset {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weight_orders_follow_each_points_list() {
        let gc: Vec<&str> = Ruleset::Gc2133
            .win_types()
            .iter()
            .map(|w| w.code())
            .collect();
        assert_eq!(
            gc,
            ["SSH", "BGP", "ASH", "SFS", "AFS", "EG", "SDV", "ADV", "ADJ"]
        );
        let full: Vec<&str> = Ruleset::Full.win_types().iter().map(|w| w.code()).collect();
        assert_eq!(
            full,
            [
                "SSH", "BGP", "ASH", "SFS", "AFS", "SEG", "AEG", "SDV", "ADV", "ADJ"
            ]
        );
        for r in Ruleset::ALL {
            let types = r.win_types();
            for pair in types.windows(2) {
                assert!(
                    pair[0].points() >= pair[1].points(),
                    "{r}: points fall with weight"
                );
                assert!(r.weight(Some(pair[0])) > r.weight(Some(pair[1])));
            }
            assert_eq!(r.weight(None), 0);
        }
        assert!(!Ruleset::Gc2133.has_win_type(WinType::SoloEndGame));
        assert!(!Ruleset::Full.has_win_type(WinType::EndGame));
        assert_eq!("full".parse(), Ok(Ruleset::Full));
        assert!("gc".parse::<Ruleset>().is_err());
        assert_eq!(Ruleset::Full.book(), Book::Full);
        assert_eq!(Ruleset::Gc2133.book(), Book::GenCon);
    }
}
