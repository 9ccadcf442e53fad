//! The six tiebreaker categories of 4.01.11.01-.06, recorded for every player of every game.

use std::fmt;

use serde::{Deserialize, Serialize};

/// A player's own end-of-game values (ruling 12 defines what each counts).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
pub struct Tiebreakers {
    pub win_attempts: u32,
    pub strongholds: u32,
    pub forces: u32,
    pub spice: u32,
    pub cards: u32,
    pub leaders: u32,
}

impl Tiebreakers {
    pub fn get(&self, category: Category) -> u32 {
        match category {
            Category::WinAttempts => self.win_attempts,
            Category::Strongholds => self.strongholds,
            Category::Forces => self.forces,
            Category::Spice => self.spice,
            Category::Cards => self.cards,
            Category::Leaders => self.leaders,
        }
    }

    /// In 4.01.11 order.
    pub fn as_array(&self) -> [u32; 6] {
        Category::ALL.map(|c| self.get(c))
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Category {
    WinAttempts,
    Strongholds,
    Forces,
    Spice,
    Cards,
    Leaders,
}

impl Category {
    pub const ALL: [Category; 6] = [
        Category::WinAttempts,
        Category::Strongholds,
        Category::Forces,
        Category::Spice,
        Category::Cards,
        Category::Leaders,
    ];

    /// The report field that holds it.
    pub fn field(self) -> &'static str {
        match self {
            Category::WinAttempts => "win_attempts",
            Category::Strongholds => "strongholds",
            Category::Forces => "forces",
            Category::Spice => "spice",
            Category::Cards => "cards",
            Category::Leaders => "leaders",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Category::WinAttempts => "win attempts",
            Category::Strongholds => "strongholds controlled",
            Category::Forces => "forces on the board",
            Category::Spice => "spice behind the shield",
            Category::Cards => "treachery cards in hand",
            Category::Leaders => "active leaders",
        }
    }

    pub fn rule(self) -> &'static str {
        match self {
            Category::WinAttempts => "4.01.11.01",
            Category::Strongholds => "4.01.11.02",
            Category::Forces => "4.01.11.03",
            Category::Spice => "4.01.11.04",
            Category::Cards => "4.01.11.05",
            Category::Leaders => "4.01.11.06",
        }
    }
}

impl fmt::Display for Category {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}
