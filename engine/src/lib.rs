//! Mentat's rules engine for *Dune* (GF9), GenCon tournament rules (rulebook 001, v2.13.3).
//!
//! Reading order: [`board`] (components and map, data in [`board::data`]), [`factions`] (each
//! faction's rules in one module: its sheet and its abilities as hooks the phases call; the nouns
//! themselves come from the `dune` crate), [`dgn`] (the
//! notation: parsing into typed events), [`state`] (game state), [`replay`] (the checked replay
//! producing [`replay::Violation`]s and per-turn summaries), [`battle`] (the pure battle
//! arithmetic the replay applies), [`game_report`] (the tournament's game report derived from a
//! replay), and [`report`] (text in, text out, for the command line).

#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

pub mod battle;
pub mod board;
pub mod dgn;
pub mod factions;
pub mod game_report;
pub mod replay;
pub mod report;
pub mod state;
pub mod tokens;

pub use board::{Card, Leader, Piece, Sector, Territory};
pub use dune::{Faction, FactionSet, Rule, Spice, Stronghold, WinType};
