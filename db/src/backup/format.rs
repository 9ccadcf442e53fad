//! The backup file's shape (format version 1). Player numbers (`player`, `players`, the keys of
//! `evidence`, `player_id` in report seats) are the file's own, 1 to the number of players;
//! accounts are user names. Times are UTC, as PostgreSQL stores them (microseconds).

use std::collections::BTreeMap;

use chrono::{DateTime, NaiveDate, Utc};
use dune::Stronghold;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::{results::reports::SeatResult, roles::Role};

/// A player's number in the file.
pub type FilePlayer = i64;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Backup {
    /// Always [`super::FORMAT`].
    pub format: String,
    /// [`super::VERSION`] when written.
    pub version: u32,
    pub written_at: DateTime<Utc>,
    /// The Mentat release that wrote it.
    pub written_by: String,
    /// `sha256:` and the hex SHA-256 of the file's content without this field, in canonical
    /// form (`super::digest`). Format 2 on; a restore checks it before writing anything.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub digest: Option<String>,
    pub event: EventRecord,
    pub staff: Vec<StaffRecord>,
    pub players: Vec<PlayerRecord>,
    pub rounds: Vec<RoundRecord>,
    pub finals: Option<FinalsRecord>,
    pub audit: Vec<AuditRecord>,
    /// The standings when the file was written: a restore must reproduce them.
    pub standings: Vec<StandingCheck>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EventRecord {
    pub slug: String,
    pub name: String,
    pub starts_on: Option<NaiveDate>,
    pub ends_on: Option<NaiveDate>,
    pub venue: String,
    pub ruleset: String,
    /// The ruling options (`tournament::RulingOptions`).
    pub options: Value,
    pub qualifying_rounds: i32,
    /// The public address of the QR codes; absent from files without one (and older files).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub public_url: String,
    pub version: i32,
    pub created_at: DateTime<Utc>,
    pub created_by: Option<String>,
    /// The address of the event this one is a restored copy of (the first, for a copy of a
    /// copy); absent for an event made here.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub restored_from: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StaffRecord {
    pub account: String,
    pub role: Role,
    pub granted_by: Option<String>,
    pub granted_at: DateTime<Utc>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayerRecord {
    pub player: FilePlayer,
    pub name: String,
    pub email: Option<String>,
    pub club: Option<String>,
    pub alternate: bool,
    pub checked_in: bool,
    pub entered_after_round: i32,
    pub dropped_after_round: Option<i32>,
    pub dropped_at: Option<DateTime<Utc>>,
    pub version: i32,
    pub created_at: DateTime<Utc>,
    /// The account the player confirms reports with.
    pub account: Option<String>,
    /// What the wall's lists sort the player by instead of the name; absent from files written
    /// before it existed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sort_as: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RoundRecord {
    pub number: i32,
    pub seed: i64,
    pub ruleset: String,
    pub options: Value,
    pub quality: Value,
    pub override_reason: Option<String>,
    pub drawn_at: DateTime<Utc>,
    pub drawn_by: Option<String>,
    pub started_at: Option<DateTime<Utc>>,
    pub version: i32,
    /// The final table (ruling 13). Absent in files written before there was one: false.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub final_table: bool,
    pub byes: Vec<FilePlayer>,
    pub tables: Vec<TableRecord>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableRecord {
    pub number: i32,
    pub clock_started_at: Option<DateTime<Utc>>,
    pub clock_paused_at: Option<DateTime<Utc>>,
    pub clock_paused_ms: i64,
    pub clock_extension_ms: i64,
    pub reported_at: Option<DateTime<Utc>>,
    pub version: i32,
    pub seats: Vec<SeatRecord>,
    pub win_attempts: Vec<AttemptRecord>,
    pub reports: Vec<ReportRecord>,
    /// Every saved revision of the table's game log (a file written before logs were kept has
    /// none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub logs: Vec<LogRecord>,
}

/// One saved revision of a table's game log (DGN), with who saved it, when and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LogRecord {
    pub revision: i32,
    pub body: String,
    pub reason: Option<String>,
    pub source: Option<String>,
    pub saved_by: Option<String>,
    pub saved_at: DateTime<Utc>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeatRecord {
    pub seat: i16,
    pub circle: i16,
    pub player: FilePlayer,
    pub faction: Option<String>,
    pub offered: Option<Vec<String>>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AttemptRecord {
    pub turn: i16,
    pub revision: i32,
    pub players: Vec<FilePlayer>,
    /// Per player: the strongholds the judge saw.
    pub evidence: BTreeMap<FilePlayer, Vec<Stronghold>>,
    pub reason: Option<String>,
    pub recorded_by: Option<String>,
    pub recorded_at: DateTime<Utc>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReportRecord {
    pub revision: i32,
    pub ended: String,
    pub last_turn: i16,
    /// Seats as the report stores them, `player_id` being the file's player number.
    pub seats: Vec<SeatResult>,
    pub judge_draw: Option<FilePlayer>,
    pub reason: Option<String>,
    pub created_by: Option<String>,
    pub created_at: DateTime<Utc>,
    pub final_at: Option<DateTime<Utc>>,
    pub finalised_by: Option<String>,
    /// The Bene Gesserit's prediction (2.02.03), when the report records it (format 2).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prediction: Option<tournament::Prediction>,
    pub confirmations: Vec<ConfirmationRecord>,
    /// Disputes taken and resolved by the judges (issue 18); absent from older files.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dispute_steps: Vec<DisputeStepRecord>,
}

/// One step of a player's dispute of this revision: taken by a judge, or resolved with a note.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DisputeStepRecord {
    pub player: FilePlayer,
    /// `taken` or `resolved`.
    pub step: String,
    pub note: Option<String>,
    pub finalised: bool,
    pub by: Option<String>,
    pub at: DateTime<Utc>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConfirmationRecord {
    pub player: FilePlayer,
    pub agrees: bool,
    pub note: Option<String>,
    pub by: Option<String>,
    pub at: DateTime<Utc>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FinalsRecord {
    pub closed_at: DateTime<Utc>,
    pub closed_by: Option<String>,
    pub finalists: Vec<FilePlayer>,
    pub tied: Vec<FilePlayer>,
    pub open_seats: i32,
    pub draw_seed: Option<i64>,
    pub drawn: Option<Vec<FilePlayer>>,
    pub drawn_by: Option<String>,
    pub drawn_at: Option<DateTime<Utc>>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AuditRecord {
    pub at: DateTime<Utc>,
    /// The name recorded then (may differ from the account's name now).
    pub actor: Option<String>,
    /// The account, if it still existed when the file was written.
    pub actor_account: Option<String>,
    pub action: String,
    pub subject: Option<String>,
    pub detail: Value,
}

/// One row of the standings as they were.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StandingCheck {
    pub rank: usize,
    pub player: FilePlayer,
    pub points: String,
    pub best_game: Option<String>,
    /// `in`, `out` or `tied`.
    pub finals: String,
}
