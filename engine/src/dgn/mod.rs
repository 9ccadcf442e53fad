//! DGN, the Dune Game Notation: see `docs/notation.md` for the grammar.

pub mod ast;
pub mod parse;

pub use ast::*;
pub use parse::{ParseError, ParseErrors, parse};

/// A faction code as DGN reads it under `gc-2.13.3`, the one ruleset the engine plays: the six
/// classic factions only (notation Decisions 3); the expansion codes of the full rulebook are
/// syntax errors.
pub fn faction_code(code: &str) -> Option<dune::Faction> {
    dune::Faction::from_code(code).filter(|f| f.is_classic())
}
