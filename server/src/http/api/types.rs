//! What the API sends and takes. These are the API's own types, not the database's: a field
//! renamed inside Mentat must not break an organiser's script, so the JSON shape lives here,
//! versioned with the path (`/api/v1`). Codes are the ones pages and exports use: factions
//! `AT BG EM FR HK SG`…, win types `SSH EG`…, strongholds `ARK CAR TUK TAB HAB SW`.

use chrono::{DateTime, NaiveDate, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// An event and its settings.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Event {
    #[schema(example = "gencon-2026")]
    pub slug: String,
    #[schema(example = "GenCon 2026 Landsraad")]
    pub name: String,
    pub starts_on: Option<NaiveDate>,
    pub ends_on: Option<NaiveDate>,
    pub venue: String,
    /// `gc-2.13.3` (six classic factions) or `full`.
    #[schema(example = "gc-2.13.3")]
    pub ruleset: String,
    pub qualifying_rounds: i32,
    pub finals_seats: usize,
    /// Rounds drawn so far.
    pub rounds_drawn: i32,
    pub qualifying_closed: bool,
}

/// Wins of one type.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct WinCount {
    #[schema(example = "SSH")]
    pub code: String,
    pub count: u32,
}

/// One counted game of a player.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Game {
    pub round: u32,
    pub table: u32,
    #[schema(example = "FR")]
    pub faction: String,
    /// The win type's code; null for no win.
    pub result: Option<String>,
    /// Points, then the six tiebreakers of 4.01.11, dot-separated.
    #[schema(example = "3.2.3.8.12.3.3")]
    pub score: String,
}

/// A row of the standings.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Standing {
    pub rank: usize,
    pub player_id: i64,
    pub player: String,
    /// Points as judges write them: `3`, `2½`.
    #[schema(example = "4½")]
    pub points: String,
    /// Heaviest win type first.
    pub wins: Vec<WinCount>,
    /// The best game's score (points, then the six tiebreakers).
    pub best_game: Option<String>,
    /// Best first, as the standings compare them.
    pub games: Vec<Game>,
    /// `in` (a finalist), `out`, or `tied` across the cut line.
    #[schema(example = "in")]
    pub finals: String,
    /// Why this row is above the next one.
    pub reason: Option<String>,
    pub dropped: bool,
    pub alternate: bool,
    /// The place in the event once the final table is reported (ruling 13): the final game
    /// first, then qualifying order. Null before.
    pub placing: Option<usize>,
}

/// A tie across the finals cut line, for the head judge to draw.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct CutTie {
    pub players: Vec<String>,
    pub seats: usize,
}

/// The standings as the public page shows them.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Standings {
    pub rounds_played: i32,
    pub tables: i64,
    pub tables_final: i64,
    pub finals_seats: usize,
    pub cut_tie: Option<CutTie>,
    /// Qualifying closed: everyone in the finals (null while a cut tie is undrawn).
    pub finalists: Option<Vec<String>>,
    pub qualifying_closed: bool,
    /// Final reports left out until the head judge corrects them.
    pub left_out: Vec<String>,
    /// The final table's round, once it is seated; its result never counts in `rows`.
    pub final_round: Option<i32>,
    /// The final table's report is final: `placing` holds on every row.
    pub final_reported: bool,
    pub rows: Vec<Standing>,
}

/// A round in the list.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct RoundSummary {
    pub number: i32,
    /// The draw's seed (ruling 4).
    pub seed: i64,
    /// Play has begun: seats are final.
    pub begun: bool,
    pub tables: i64,
    pub seated: i64,
    pub byes: i64,
    pub reports_missing: i64,
}

/// A table clock read at `read_at` (4.01.08).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Clock {
    /// `not_started`, `running`, `finish_window` or `over`.
    #[schema(example = "running")]
    pub phase: String,
    pub paused: bool,
    /// The table's report is final: the clock stopped then, and shows the time at that instant.
    pub stopped: bool,
    pub elapsed_seconds: i64,
    pub limit_seconds: i64,
    /// To the limit while running, to the end of the finish window in it.
    pub remaining_seconds: i64,
    pub started_at: Option<DateTime<Utc>>,
}

/// A seat at a table.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Seat {
    /// The seat number drawn (0.07).
    pub seat: i16,
    /// The player circle (ruling 2).
    pub circle: i16,
    pub player_id: i64,
    pub player: String,
    /// The faction dealt (0.08); null until dealt.
    pub faction: Option<String>,
    /// `full` ruleset: the classic and expansion cards offered.
    pub offered: Option<Vec<String>>,
    pub dropped: bool,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Table {
    pub number: i32,
    /// Its final report is in.
    pub reported: bool,
    pub clock: Clock,
    pub seats: Vec<Seat>,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct PlayerRef {
    pub player_id: i64,
    pub player: String,
}

/// A round: its tables, seats, factions and clocks.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Round {
    pub number: i32,
    pub seed: i64,
    pub drawn_at: DateTime<Utc>,
    pub begun_at: Option<DateTime<Utc>>,
    /// The database's clock when the clocks were read.
    pub read_at: DateTime<Utc>,
    pub tables: Vec<Table>,
    pub byes: Vec<PlayerRef>,
}

/// One seat's line of a Game Report.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ReportSeat {
    pub seat: i16,
    pub player_id: i64,
    pub player: String,
    pub faction: String,
    pub ally: Option<String>,
    /// The win type recorded (its code); null for no win.
    pub result: Option<String>,
    /// From the win-attempt record (4.01.04), up to the last turn.
    pub win_attempts: u32,
    pub strongholds: u32,
    pub forces: u32,
    pub spice: u32,
    pub cards: u32,
    pub leaders: u32,
}

/// A player's answer to the report.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Confirmation {
    pub player: String,
    pub agrees: bool,
    pub note: Option<String>,
    pub by: Option<String>,
    pub at: DateTime<Utc>,
}

/// A table's Game Report: the latest final revision (staff: the latest revision, final or not).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Report {
    pub round: i32,
    pub table: i32,
    pub revision: i32,
    /// `final`, `awaiting` (confirmations), or `disputed`.
    #[schema(example = "final")]
    pub status: String,
    /// `win`, `time` or `turns`.
    #[schema(example = "win")]
    pub ended: String,
    pub last_turn: u32,
    pub seats: Vec<ReportSeat>,
    /// The results once valid, adjudication included (win type per seat, in seat order).
    pub results: Vec<Option<String>>,
    /// How an adjudication was decided (4.01.09), step by step.
    pub adjudication: Vec<String>,
    pub judge_draw: Option<String>,
    pub saved_by: Option<String>,
    pub saved_at: DateTime<Utc>,
    /// Why this revision replaced a final one.
    pub reason: Option<String>,
    pub final_at: Option<DateTime<Utc>>,
    pub confirmations: Vec<Confirmation>,
}

/// A registered player.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Player {
    pub player_id: i64,
    pub name: String,
    pub email: Option<String>,
    pub club: Option<String>,
    pub checked_in: bool,
    pub alternate: bool,
    /// Rounds already drawn when the player entered (more than 0: a late entry).
    pub entered_after_round: i32,
    pub dropped_after_round: Option<i32>,
}

impl From<db::players::Player> for Player {
    fn from(p: db::players::Player) -> Player {
        Player {
            player_id: p.id.get(),
            name: p.name,
            email: p.email,
            club: p.club,
            checked_in: p.checked_in,
            alternate: p.alternate,
            entered_after_round: p.entered_after_round,
            dropped_after_round: p.dropped_after_round,
        }
    }
}

/// A player to register.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewPlayer {
    #[schema(example = "Alia Atreides")]
    pub name: String,
    #[serde(default)]
    #[schema(example = "alia@example.org")]
    pub email: Option<String>,
    #[serde(default)]
    pub club: Option<String>,
}

/// One seat's line of a report to record. Name the seat by `player_id` or by `seat` (the
/// number drawn); values left out are 0.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ReportSeatInput {
    pub player_id: Option<i64>,
    pub seat: Option<i16>,
    /// The faction played (its code).
    #[schema(example = "FR")]
    pub faction: String,
    #[serde(default)]
    pub ally: Option<String>,
    /// The win type (its code); leave it out for no win. An adjudicated game is decided by
    /// Mentat (4.01.09): send no result.
    #[serde(default)]
    pub result: Option<String>,
    #[serde(default)]
    pub strongholds: u32,
    #[serde(default)]
    pub forces: u32,
    #[serde(default)]
    pub spice: u32,
    #[serde(default)]
    pub cards: u32,
    #[serde(default)]
    pub leaders: u32,
}

/// A Game Report to record: the same checks as the table page's form (4.01.07).
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ReportInput {
    /// The revision this one replaces (0 or left out for the first report); a report saved
    /// meanwhile by someone else is answered with 409.
    #[serde(default)]
    pub base_revision: i32,
    /// `win`, `time` (the clock ran out) or `turns` (turn 10 ended).
    #[schema(example = "win")]
    pub ended: String,
    #[schema(example = 6)]
    pub last_turn: u32,
    pub seats: Vec<ReportSeatInput>,
    /// The player the head judge drew for a tied adjudication (ruling 9).
    #[serde(default)]
    pub judge_draw: Option<i64>,
    /// Why a final report is corrected (head judge only).
    #[serde(default)]
    pub reason: Option<String>,
}

/// A report recorded.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Recorded {
    pub revision: i32,
    /// Where to read it back.
    pub report: String,
}
