//! Kinds of victory and the points they are worth (4.01.10).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Every kind of victory named by either points list (001 4.01.10.01-.09, 000's ten-line list).
/// A ruleset uses a subset of them in its own weight order: see [`crate::Ruleset::win_types`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum WinType {
    SoloStronghold,
    BgPrediction,
    AlliedStronghold,
    SoloFremenSpecial,
    AlliedFremenSpecial,
    /// `gc-2.13.3` only: one End Game Victory whatever the alliance status.
    EndGame,
    /// `full` only.
    SoloEndGame,
    /// `full` only.
    AlliedEndGame,
    SoloDefault,
    AlliedDefault,
    Adjudicated,
}

impl WinType {
    pub const ALL: [WinType; 11] = [
        WinType::SoloStronghold,
        WinType::BgPrediction,
        WinType::AlliedStronghold,
        WinType::SoloFremenSpecial,
        WinType::AlliedFremenSpecial,
        WinType::EndGame,
        WinType::SoloEndGame,
        WinType::AlliedEndGame,
        WinType::SoloDefault,
        WinType::AlliedDefault,
        WinType::Adjudicated,
    ];

    /// The short code used in reports and on the command line.
    pub fn code(self) -> &'static str {
        match self {
            WinType::SoloStronghold => "SSH",
            WinType::BgPrediction => "BGP",
            WinType::AlliedStronghold => "ASH",
            WinType::SoloFremenSpecial => "SFS",
            WinType::AlliedFremenSpecial => "AFS",
            WinType::EndGame => "EG",
            WinType::SoloEndGame => "SEG",
            WinType::AlliedEndGame => "AEG",
            WinType::SoloDefault => "SDV",
            WinType::AlliedDefault => "ADV",
            WinType::Adjudicated => "ADJ",
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            WinType::SoloStronghold => "Solo Stronghold Victory",
            WinType::BgPrediction => "Bene Gesserit Prediction",
            WinType::AlliedStronghold => "Allied Stronghold Victory",
            WinType::SoloFremenSpecial => "Solo Fremen Challenged Special",
            WinType::AlliedFremenSpecial => "Allied Fremen Challenged Special",
            WinType::EndGame => "End Game Victory",
            WinType::SoloEndGame => "Solo End Game Victory",
            WinType::AlliedEndGame => "Allied End Game Victory",
            WinType::SoloDefault => "Solo Default Victory",
            WinType::AlliedDefault => "Allied Default Victory",
            WinType::Adjudicated => "Adjudicated Victory",
        }
    }

    /// Plural name for explanations ("more Solo Stronghold Victories").
    pub fn plural(self) -> &'static str {
        match self {
            WinType::SoloStronghold => "Solo Stronghold Victories",
            WinType::BgPrediction => "Bene Gesserit Predictions",
            WinType::AlliedStronghold => "Allied Stronghold Victories",
            WinType::SoloFremenSpecial => "Solo Fremen Challenged Specials",
            WinType::AlliedFremenSpecial => "Allied Fremen Challenged Specials",
            WinType::EndGame => "End Game Victories",
            WinType::SoloEndGame => "Solo End Game Victories",
            WinType::AlliedEndGame => "Allied End Game Victories",
            WinType::SoloDefault => "Solo Default Victories",
            WinType::AlliedDefault => "Allied Default Victories",
            WinType::Adjudicated => "Adjudicated Victories",
        }
    }

    /// Points are the same in both lists; only the order (weight) differs between rulesets.
    pub fn points(self) -> Points {
        Points::from_halves(match self {
            WinType::SoloStronghold | WinType::BgPrediction => 6,
            WinType::AlliedStronghold | WinType::SoloFremenSpecial => 4,
            WinType::AlliedFremenSpecial
            | WinType::EndGame
            | WinType::SoloEndGame
            | WinType::AlliedEndGame
            | WinType::SoloDefault
            | WinType::AlliedDefault => 2,
            WinType::Adjudicated => 1,
        })
    }

    /// Types that only an alliance can win, both allies together. End Game under `gc-2.13.3`
    /// and Adjudicated can go either way, so they are neither allied nor solo.
    pub fn is_allied(self) -> bool {
        matches!(
            self,
            WinType::AlliedStronghold
                | WinType::AlliedFremenSpecial
                | WinType::AlliedEndGame
                | WinType::AlliedDefault
        )
    }

    /// Types that an unallied player wins alone. The BG prediction is not here: the BG wins it
    /// alone even when allied (2.02.03).
    pub fn is_solo(self) -> bool {
        matches!(
            self,
            WinType::SoloStronghold
                | WinType::SoloFremenSpecial
                | WinType::SoloEndGame
                | WinType::SoloDefault
        )
    }

    /// Reads a code exactly as written in a DGN log (`P win EM+SG ADV`).
    pub fn from_code(code: &str) -> Option<WinType> {
        WinType::ALL.into_iter().find(|w| w.code() == code)
    }

    /// Reads a code as a judge types it: any letter case, spaces around.
    pub fn from_typed(code: &str) -> Option<WinType> {
        let code = code.trim();
        WinType::ALL
            .into_iter()
            .find(|w| w.code().eq_ignore_ascii_case(code))
    }
}

impl fmt::Display for WinType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown win type {0:?} (expected one of SSH BGP ASH SFS AFS EG SEG AEG SDV ADV)")]
pub struct UnknownWinType(pub String);

impl FromStr for WinType {
    type Err = UnknownWinType;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        WinType::from_typed(s).ok_or_else(|| UnknownWinType(s.to_owned()))
    }
}

impl Serialize for WinType {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.code())
    }
}

impl<'de> Deserialize<'de> for WinType {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// Tournament points, held as a count of half points so that sums and comparisons are exact
/// (Adjudicated is worth 0.5, 4.01.10.09). Shown as a decimal number.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Points(u32);

impl Points {
    pub const ZERO: Points = Points(0);

    pub fn from_halves(halves: u32) -> Points {
        Points(halves)
    }

    pub fn halves(self) -> u32 {
        self.0
    }

    pub fn as_f64(self) -> f64 {
        f64::from(self.0) / 2.0
    }

    /// Saturates rather than wraps: a sum past four billion half points is not a real
    /// tournament, and saturating keeps the order sensible.
    pub fn saturating_add(self, other: Points) -> Points {
        Points(self.0.saturating_add(other.0))
    }
}

impl fmt::Display for Points {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.0 / 2, if self.0 % 2 == 1 { 5 } else { 0 })
    }
}

/// JSON shows points as a float (`4.0`, `0.5`), the form the command-line contract promises.
impl Serialize for Points {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_f64(self.as_f64())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_follow_4_01_10() {
        let pts: Vec<f64> = WinType::ALL.iter().map(|w| w.points().as_f64()).collect();
        assert_eq!(pts, [3.0, 3.0, 2.0, 2.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.5]);
        assert_eq!(Points::from_halves(9).to_string(), "4.5");
        assert_eq!(Points::from_halves(8).to_string(), "4.0");
    }

    #[test]
    fn codes_round_trip() {
        for w in WinType::ALL {
            assert_eq!(WinType::from_code(w.code()), Some(w));
            assert!(!(w.is_allied() && w.is_solo()));
        }
        assert!("XYZ".parse::<WinType>().is_err());
    }
}
