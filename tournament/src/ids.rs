//! The identities of the event's records as the database numbers them: typed, so that a
//! player's id can never be passed where a table's is expected. With the `sqlx` feature (the
//! `db` crate turns it on) they are stored and read as plain integers.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

macro_rules! id {
    ($(#[$doc:meta])* $name:ident($int:ty)) => {
        $(#[$doc])*
        #[derive(
            Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
        )]
        #[serde(transparent)]
        #[cfg_attr(feature = "sqlx", derive(sqlx::Type), sqlx(transparent))]
        pub struct $name(pub $int);

        impl $name {
            pub const fn get(self) -> $int {
                self.0
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "{}", self.0)
            }
        }

        impl FromStr for $name {
            type Err = std::num::ParseIntError;
            fn from_str(s: &str) -> Result<Self, Self::Err> {
                s.trim().parse().map($name)
            }
        }
    };
}

id!(
    /// An event.
    EventId(i64)
);
id!(
    /// A registered player of an event (not an account: a player may have none).
    PlayerId(i64)
);
id!(
    /// A game table of a round, as stored (not its number within the round).
    TableId(i64)
);
id!(
    /// A round's number within its event, from 1.
    RoundNumber(i32)
);
id!(
    /// A table's number within its round, from 1.
    TableNumber(i32)
);
id!(
    /// A revision of something kept with its history (a report, a turn's win attempts), from 1;
    /// 0 stands for "none yet" where a page says which revision it showed.
    Revision(i32)
);
id!(
    /// An account that signs in.
    UserId(i64)
);

impl RoundNumber {
    pub const FIRST: RoundNumber = RoundNumber(1);

    pub const fn next(self) -> RoundNumber {
        RoundNumber(self.0 + 1)
    }

    /// The round before, or the round "0" before the first: the rounds drawn so far.
    pub const fn previous(self) -> RoundNumber {
        RoundNumber(self.0 - 1)
    }
}

impl Revision {
    pub const NONE: Revision = Revision(0);

    pub const fn next(self) -> Revision {
        Revision(self.0 + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_read_and_show_as_numbers() {
        assert_eq!("42".parse::<PlayerId>(), Ok(PlayerId(42)));
        assert!("x".parse::<TableId>().is_err());
        assert_eq!(RoundNumber(3).to_string(), "3");
        assert_eq!(Revision::NONE.next(), Revision(1));
        assert_eq!(serde_json::to_string(&EventId(7)).unwrap(), "7");
    }
}
