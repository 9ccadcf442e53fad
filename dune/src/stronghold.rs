//! The strongholds that count for victory (1.09.02) and for win attempts (4.01.04, ruling 6),
//! with the one code table every crate uses: the DGN codes of `docs/notation.md`.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A stronghold. The Shield Wall is one only under the variant 4.02, after the fourth worm; the
/// Ixians' Hidden Mobile Stronghold (000 2.07.17) only in a game they play, once it is placed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Stronghold {
    Arrakeen,
    Carthag,
    TueksSietch,
    SietchTabr,
    HabbanyaSietch,
    ShieldWall,
    HiddenMobileStronghold,
}

impl Stronghold {
    /// Board order: the two cities, the three sietches, the Shield Wall (4.02), then the
    /// Ixians' Hidden Mobile Stronghold (000 2.07.17).
    pub const ALL: [Stronghold; 7] = [
        Stronghold::Arrakeen,
        Stronghold::Carthag,
        Stronghold::TueksSietch,
        Stronghold::SietchTabr,
        Stronghold::HabbanyaSietch,
        Stronghold::ShieldWall,
        Stronghold::HiddenMobileStronghold,
    ];

    /// The code in DGN logs, on report forms and in exports.
    pub const fn code(self) -> &'static str {
        match self {
            Stronghold::Arrakeen => "ARK",
            Stronghold::Carthag => "CAR",
            Stronghold::TueksSietch => "TUK",
            Stronghold::SietchTabr => "TAB",
            Stronghold::HabbanyaSietch => "HAB",
            Stronghold::ShieldWall => "SW",
            Stronghold::HiddenMobileStronghold => "HMS",
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            Stronghold::Arrakeen => "Arrakeen",
            Stronghold::Carthag => "Carthag",
            Stronghold::TueksSietch => "Tuek's Sietch",
            Stronghold::SietchTabr => "Sietch Tabr",
            Stronghold::HabbanyaSietch => "Habbanya Sietch",
            Stronghold::ShieldWall => "Shield Wall",
            Stronghold::HiddenMobileStronghold => "Hidden Mobile Stronghold",
        }
    }

    pub const fn index(self) -> usize {
        self as usize
    }

    /// Reads a code exactly as written in a DGN log.
    pub fn from_code(code: &str) -> Option<Stronghold> {
        Stronghold::ALL.into_iter().find(|s| s.code() == code)
    }

    /// Reads what a judge types: the code or the name, in any letter case.
    pub fn from_typed(text: &str) -> Option<Stronghold> {
        let text = text.trim();
        Stronghold::ALL
            .into_iter()
            .find(|s| s.code().eq_ignore_ascii_case(text) || s.name().eq_ignore_ascii_case(text))
    }
}

impl fmt::Display for Stronghold {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown stronghold {0:?} (expected one of ARK CAR TUK TAB HAB SW)")]
pub struct UnknownStronghold(pub String);

impl FromStr for Stronghold {
    type Err = UnknownStronghold;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Stronghold::from_typed(s).ok_or_else(|| UnknownStronghold(s.to_owned()))
    }
}

impl Serialize for Stronghold {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.code())
    }
}

impl<'de> Deserialize<'de> for Stronghold {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_and_names_round_trip() {
        for s in Stronghold::ALL {
            assert_eq!(Stronghold::from_code(s.code()), Some(s));
            assert_eq!(Stronghold::from_typed(&s.name().to_uppercase()), Some(s));
            assert_eq!(Stronghold::ALL[s.index()], s);
        }
        assert_eq!(Stronghold::from_code("ark"), None);
        assert!("AK".parse::<Stronghold>().is_err());
        assert_eq!(
            serde_json::to_string(&Stronghold::TueksSietch).unwrap(),
            "\"TUK\""
        );
    }
}
