//! The nouns of *Dune* that every Mentat crate shares, so that the rules engine, the tournament
//! procedure, the database and the pages speak one vocabulary: [`Faction`] (all thirteen of the
//! full rulebook; the GenCon rulebook plays the six classic ones), [`WinType`] and its
//! [`Points`], [`Stronghold`] with the one code table, [`Rule`] numbers checked at compile time
//! by [`rule!`], the [`Book`] a number is read in with the [`crosswalk`] between the GenCon and
//! the full rulebook, and [`Spice`] amounts.
//!
//! Pure: no IO, no async, nothing but `serde` and `thiserror`.

#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

pub mod book;
pub mod crosswalk;
pub mod faction;
pub mod rule;
pub mod spice;
pub mod stronghold;
pub mod win_type;

pub use book::{Book, BookRule, Edition, UnknownBook, UnknownEdition};
pub use faction::{Faction, FactionSet, UnknownFaction};
pub use rule::{Rule, RuleError};
pub use spice::Spice;
pub use stronghold::{Stronghold, UnknownStronghold};
pub use win_type::{Points, UnknownWinType, WinType};
