//! DGN, the Dune Game Notation: see `docs/notation.md` for the grammar.

pub mod ast;
pub mod parse;
pub mod trade;

pub use ast::*;
pub use parse::{ParseError, ParseErrors, parse};
pub use trade::*;

/// A faction code as DGN reads it: any of the thirteen factions of the full rulebook. Which
/// factions may sit at the table is the ruleset's question, answered by the replay at the
/// `[Factions]` tag (notation Decisions 3).
pub fn faction_code(code: &str) -> Option<dune::Faction> {
    dune::Faction::from_code(code)
}
