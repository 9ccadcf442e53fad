//! The six tiebreaker categories of 4.01.11.01-.06, recorded for every player of every game.

use std::fmt;

use dune::{Rule, Spice, rule};
use serde::{Deserialize, Serialize};

/// The five values a Game Report records for each player when the game ends (4.01.11.02-.06;
/// ruling 12 says what each counts). Win attempts, the first tiebreaker, are not among them:
/// they come from the record kept at each Battle phase (4.01.04).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
pub struct EndValues {
    pub strongholds: u32,
    pub forces: u32,
    pub spice: Spice,
    pub cards: u32,
    pub leaders: u32,
}

impl EndValues {
    /// The categories a report records, in 4.01.11 order.
    pub const CATEGORIES: [Category; 5] = [
        Category::Strongholds,
        Category::Forces,
        Category::Spice,
        Category::Cards,
        Category::Leaders,
    ];

    /// The value of a category; `None` for win attempts, which are not an end value.
    pub fn get(&self, category: Category) -> Option<u32> {
        Some(match category {
            Category::WinAttempts => return None,
            Category::Strongholds => self.strongholds,
            Category::Forces => self.forces,
            Category::Spice => self.spice.amount(),
            Category::Cards => self.cards,
            Category::Leaders => self.leaders,
        })
    }

    /// Sets a category's value; win attempts are ignored (they are not an end value).
    pub fn set(&mut self, category: Category, value: u32) {
        match category {
            Category::WinAttempts => {}
            Category::Strongholds => self.strongholds = value,
            Category::Forces => self.forces = value,
            Category::Spice => self.spice = Spice::new(value),
            Category::Cards => self.cards = value,
            Category::Leaders => self.leaders = value,
        }
    }
}

/// A player's six tiebreaker values (4.01.11.01-.06): the win attempts and the end values.
/// In JSON the six are fields of the seat (`"win_attempts": 2, "strongholds": 3, …`).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
pub struct Tiebreakers {
    pub win_attempts: u32,
    #[serde(flatten)]
    pub end: EndValues,
}

impl Tiebreakers {
    pub fn get(&self, category: Category) -> u32 {
        self.end.get(category).unwrap_or(self.win_attempts)
    }

    /// In 4.01.11 order.
    pub fn as_array(&self) -> [u32; 6] {
        Category::ALL.map(|c| self.get(c))
    }

    /// From the six values in 4.01.11 order.
    pub fn from_array(values: [u32; 6]) -> Tiebreakers {
        let mut t = Tiebreakers {
            win_attempts: values[0],
            end: EndValues::default(),
        };
        for (c, v) in Category::ALL.into_iter().zip(values) {
            t.end.set(c, v);
        }
        t
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

    pub fn rule(self) -> Rule {
        match self {
            Category::WinAttempts => rule!("4.01.11.01"),
            Category::Strongholds => rule!("4.01.11.02"),
            Category::Forces => rule!("4.01.11.03"),
            Category::Spice => rule!("4.01.11.04"),
            Category::Cards => rule!("4.01.11.05"),
            Category::Leaders => rule!("4.01.11.06"),
        }
    }
}

impl fmt::Display for Category {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}
