//! Factions, named by the two-letter codes judges write on the Game Report and in DGN logs.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The thirteen factions of the full rulebook (000, chapter 2). The GenCon rulebook (001) has
/// only the six classic ones (2.01-2.06); the other seven are the "Expansion" alliance cards that
/// the faction draw (0.08) deals under the `full` ruleset.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Faction {
    Atreides,
    BeneGesserit,
    Emperor,
    Fremen,
    Harkonnen,
    SpacingGuild,
    Ixians,
    Tleilaxu,
    Choam,
    Richese,
    Ecaz,
    Moritani,
    FreeTraders,
}

impl Faction {
    /// Every faction, classic first, in rulebook chapter order (2.01-2.13).
    pub const ALL: [Faction; 13] = [
        Faction::Atreides,
        Faction::BeneGesserit,
        Faction::Emperor,
        Faction::Fremen,
        Faction::Harkonnen,
        Faction::SpacingGuild,
        Faction::Ixians,
        Faction::Tleilaxu,
        Faction::Choam,
        Faction::Richese,
        Faction::Ecaz,
        Faction::Moritani,
        Faction::FreeTraders,
    ];

    /// The "Classic" alliance cards of 0.08 (chapters 2.01-2.06).
    pub const CLASSIC: [Faction; 6] = [
        Faction::Atreides,
        Faction::BeneGesserit,
        Faction::Emperor,
        Faction::Fremen,
        Faction::Harkonnen,
        Faction::SpacingGuild,
    ];

    /// The "Expansion" alliance cards of 0.08 under the full rulebook (000 chapters 2.07-2.13).
    pub const EXPANSION: [Faction; 7] = [
        Faction::Ixians,
        Faction::Tleilaxu,
        Faction::Choam,
        Faction::Richese,
        Faction::Ecaz,
        Faction::Moritani,
        Faction::FreeTraders,
    ];

    pub fn code(self) -> &'static str {
        match self {
            Faction::Atreides => "AT",
            Faction::BeneGesserit => "BG",
            Faction::Emperor => "EM",
            Faction::Fremen => "FR",
            Faction::Harkonnen => "HK",
            Faction::SpacingGuild => "SG",
            Faction::Ixians => "IX",
            Faction::Tleilaxu => "TL",
            Faction::Choam => "CH",
            Faction::Richese => "RI",
            Faction::Ecaz => "EC",
            Faction::Moritani => "MO",
            Faction::FreeTraders => "FT",
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Faction::Atreides => "Atreides",
            Faction::BeneGesserit => "Bene Gesserit",
            Faction::Emperor => "Emperor",
            Faction::Fremen => "Fremen",
            Faction::Harkonnen => "Harkonnen",
            Faction::SpacingGuild => "Spacing Guild",
            Faction::Ixians => "Ixians",
            Faction::Tleilaxu => "Tleilaxu",
            Faction::Choam => "CHOAM",
            Faction::Richese => "Richese",
            Faction::Ecaz => "Ecaz",
            Faction::Moritani => "Moritani",
            Faction::FreeTraders => "Free Traders",
        }
    }

    /// One of the six factions of the GenCon rulebook (001, 2.01-2.06).
    pub const fn is_classic(self) -> bool {
        (self as usize) < Faction::CLASSIC.len()
    }

    /// How many factions there are: the length of a per-faction array.
    pub const COUNT: usize = Faction::ALL.len();

    /// Position in [`Faction::ALL`], for per-faction arrays of [`Faction::COUNT`] entries.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Reads a two-letter code exactly as written in a DGN log (upper case, no spaces).
    pub fn from_code(code: &str) -> Option<Faction> {
        Faction::ALL.into_iter().find(|f| f.code() == code)
    }

    /// Reads a two-letter code as a judge types it into a form: any letter case, spaces around
    /// ("fr" is as common as "FR").
    pub fn from_typed(code: &str) -> Option<Faction> {
        let code = code.trim();
        Faction::ALL
            .into_iter()
            .find(|f| f.code().eq_ignore_ascii_case(code))
    }
}

impl fmt::Display for Faction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// The text was not one of the thirteen two-letter faction codes.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown faction {0:?} (expected one of AT BG EM FR HK SG IX TL CH RI EC MO FT)")]
pub struct UnknownFaction(pub String);

impl FromStr for Faction {
    type Err = UnknownFaction;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Faction::from_typed(s).ok_or_else(|| UnknownFaction(s.to_owned()))
    }
}

impl Serialize for Faction {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.code())
    }
}

impl<'de> Deserialize<'de> for Faction {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// A set of factions (a bit set): `Copy`, allocation-free, iterated in [`Faction::ALL`] order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct FactionSet(u16);

impl FactionSet {
    pub const EMPTY: FactionSet = FactionSet(0);

    pub const fn contains(self, f: Faction) -> bool {
        self.0 & (1 << f.index()) != 0
    }

    pub fn insert(&mut self, f: Faction) {
        self.0 |= 1 << f.index();
    }

    pub fn remove(&mut self, f: Faction) {
        self.0 &= !(1 << f.index());
    }

    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub fn iter(self) -> impl Iterator<Item = Faction> {
        Faction::ALL.into_iter().filter(move |f| self.contains(*f))
    }
}

impl FromIterator<Faction> for FactionSet {
    fn from_iter<I: IntoIterator<Item = Faction>>(iter: I) -> Self {
        let mut s = FactionSet::EMPTY;
        for f in iter {
            s.insert(f);
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn faction_set_holds_every_faction() {
        let mut s = FactionSet::EMPTY;
        s.insert(Faction::Fremen);
        s.insert(Faction::FreeTraders);
        assert!(s.contains(Faction::Fremen) && s.contains(Faction::FreeTraders));
        assert!(!s.contains(Faction::Atreides));
        assert_eq!(s.len(), 2);
        s.remove(Faction::Fremen);
        assert_eq!(s.iter().collect::<Vec<_>>(), vec![Faction::FreeTraders]);
        assert_eq!(
            Faction::ALL.into_iter().collect::<FactionSet>().len(),
            Faction::COUNT
        );
    }

    #[test]
    fn dgn_codes_are_exact_and_typed_codes_forgiving() {
        assert_eq!(Faction::from_code("SG"), Some(Faction::SpacingGuild));
        assert_eq!(Faction::from_code("sg"), None);
        assert_eq!(Faction::from_code(" SG"), None);
        assert_eq!(Faction::from_typed(" sg "), Some(Faction::SpacingGuild));
    }

    #[test]
    fn codes_round_trip_and_split_into_classic_and_expansion() {
        for f in Faction::ALL {
            assert_eq!(Faction::from_code(f.code()), Some(f));
            assert_eq!(Faction::from_typed(&f.code().to_lowercase()), Some(f));
            assert_eq!(f.is_classic(), Faction::CLASSIC.contains(&f));
            assert_eq!(Faction::ALL[f.index()], f);
        }
        assert_eq!(
            Faction::CLASSIC.len() + Faction::EXPANSION.len(),
            Faction::ALL.len()
        );
        assert!(Faction::EXPANSION.iter().all(|f| !f.is_classic()));
        assert_eq!("XX".parse::<Faction>(), Err(UnknownFaction("XX".into())));
    }
}
