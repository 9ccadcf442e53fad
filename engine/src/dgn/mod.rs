//! DGN, the Dune Game Notation: see `docs/notation.md` for the grammar.

pub mod ast;
pub mod parse;

pub use ast::*;
pub use parse::{ParseError, ParseErrors, parse};
