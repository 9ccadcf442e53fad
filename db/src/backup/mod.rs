//! Backups: a whole event in one JSON file, and restoring it (on this server or another).
//!
//! The file holds everything the event's pages, standings and history are made from: its
//! settings, staff, players, rounds with their seeds, draws, byes and clocks, win attempts and
//! reports with every revision and confirmation, the finals, and the audit log. Accounts are
//! named by user name, players and tables by numbers local to the file, so the file does not
//! depend on the database it came from. It also carries the standings as they were, which a
//! restore recomputes and compares before it commits: a file whose reports were edited out of
//! step with each other is refused rather than restored into different standings.
//!
//! [`dump`] reads the event in one read-only, repeatable-read transaction (a consistent
//! picture while judges keep saving); [`restore`] checks the file, then writes it in one
//! transaction: a refused file changes nothing.

pub mod digest;
mod dump;
mod format;
mod restore;

pub use dump::{dump, to_json};
pub use format::*;
pub use restore::{Parsed, RestoreError, RestoreOptions, Restored, parse, restore};

/// What the file says it is; anything else is not a Mentat backup.
pub const FORMAT: &str = "mentat-event-backup";
/// The newest format this Mentat reads and writes. A later Mentat that changes the file's
/// shape raises it and keeps reading the older ones. Format 2 adds the file's digest
/// (`digest`), the Bene Gesserit's prediction on reports and where a restored copy came from;
/// a format 1 file (no digest) still restores, with a warning.
pub const VERSION: u32 = 2;
