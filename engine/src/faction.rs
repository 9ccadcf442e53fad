//! The six classic factions of the GenCon ruleset.

use std::fmt;

use crate::board::data::{FACTIONS, FactionRow};

/// A faction at the table. GenCon 2.13.3 has exactly these six (rulings.md, "Rulesets").
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Faction {
    Atreides,
    BeneGesserit,
    Emperor,
    Fremen,
    Harkonnen,
    Guild,
}

impl Faction {
    /// All factions in table order (AT BG EM FR HK SG).
    pub const ALL: [Faction; 6] = [
        Faction::Atreides,
        Faction::BeneGesserit,
        Faction::Emperor,
        Faction::Fremen,
        Faction::Harkonnen,
        Faction::Guild,
    ];

    /// Index 0-5, for per-faction arrays.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The component data of this faction.
    pub fn info(self) -> &'static FactionRow {
        &FACTIONS[self.index()]
    }

    /// Two-letter DGN code (`AT`, `BG`, `EM`, `FR`, `HK`, `SG`).
    pub fn code(self) -> &'static str {
        self.info().code
    }

    /// Full name.
    pub fn name(self) -> &'static str {
        self.info().name
    }

    /// Parses a two-letter DGN code.
    pub fn from_code(code: &str) -> Option<Faction> {
        Faction::ALL.into_iter().find(|f| f.code() == code)
    }
}

impl fmt::Display for Faction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// A small set of factions (bit set), `Copy` and allocation-free.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct FactionSet(u8);

impl FactionSet {
    pub const EMPTY: FactionSet = FactionSet(0);

    pub fn contains(self, f: Faction) -> bool {
        self.0 & (1 << f.index()) != 0
    }

    pub fn insert(&mut self, f: Faction) {
        self.0 |= 1 << f.index();
    }

    pub fn remove(&mut self, f: Faction) {
        self.0 &= !(1 << f.index());
    }

    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    pub fn is_empty(self) -> bool {
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
    fn codes_round_trip() {
        for f in Faction::ALL {
            assert_eq!(Faction::from_code(f.code()), Some(f));
            assert_eq!(f.info().faction, f);
        }
        assert_eq!(Faction::from_code("IX"), None);
    }

    #[test]
    fn faction_set() {
        let mut s = FactionSet::EMPTY;
        s.insert(Faction::Fremen);
        s.insert(Faction::Guild);
        assert!(s.contains(Faction::Fremen) && !s.contains(Faction::Atreides));
        assert_eq!(s.len(), 2);
        s.remove(Faction::Fremen);
        assert_eq!(s.iter().collect::<Vec<_>>(), vec![Faction::Guild]);
    }
}
