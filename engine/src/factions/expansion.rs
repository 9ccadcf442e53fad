//! The seven factions of the full rulebook's expansion (000 chapters 2.07-2.13) that the engine
//! does not check yet: a game that seats one is refused at its setup line, saying so. Each is
//! replaced by its own module (see the module documentation of `crate::factions`).

use dune::Faction;

use super::{FactionRules, Sheet};

/// A faction whose rules the engine does not check yet.
pub(crate) struct NotYet(pub Faction);

/// No sheet: the faction never sits down.
static NONE: Sheet = Sheet {
    spice: dune::Spice::ZERO,
    free_revival: 0,
    hand_limit: 0,
    starting_cards: 0,
    traitors: 0,
    starred: 0,
    start: None,
    advisors: false,
    rules: super::SheetRules::GENERAL,
};

impl FactionRules for NotYet {
    fn faction(&self) -> Faction {
        self.0
    }

    fn sheet(&self) -> &'static Sheet {
        &NONE
    }

    fn checked(&self) -> bool {
        false
    }

    fn not_checked(&self) -> Option<String> {
        Some(format!(
            "the engine does not check the {} ({}) yet, so this game cannot be replayed with them: their forces and abilities are left out, and every line that names them is reported",
            self.0.name(),
            self.0
        ))
    }
}
