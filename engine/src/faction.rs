//! The engine's side of the factions: [`dune::Faction`] is the shared noun; what the engine adds
//! is each classic faction's sheet ([`crate::board::data::FactionRow`]), held per faction in the
//! game state from the moment the faction sits down.

pub use crate::board::data::{FactionRow, faction_sheet};
pub use dune::{Faction, FactionSet};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_classic_faction_has_a_sheet_and_no_other() {
        for f in Faction::ALL {
            assert_eq!(faction_sheet(f).is_some(), f.is_classic(), "{f}");
        }
        assert_eq!(
            faction_sheet(Faction::Harkonnen).map(|r| r.hand_limit),
            Some(8)
        );
    }
}
