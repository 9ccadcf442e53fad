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
    /// The Bene Gesserit's prediction (2.02.03), when recorded.
    pub prediction: Option<PredictionInput>,
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
    /// The Bene Gesserit's prediction (2.02.03); required for a `BGP` result.
    #[serde(default)]
    pub prediction: Option<PredictionInput>,
    /// Why a final report is corrected (head judge only).
    #[serde(default)]
    pub reason: Option<String>,
}

/// The Bene Gesserit's prediction: the faction predicted to win by strongholds, and the turn.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PredictionInput {
    #[schema(example = "AT")]
    pub faction: String,
    #[schema(example = 6)]
    pub turn: u32,
}

/// A report recorded.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Recorded {
    pub revision: i32,
    /// Where to read it back.
    pub report: String,
}

/// An event to create (site administrators).
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewEvent {
    /// 3 to 120 characters; the address (`slug`) is made from it.
    #[schema(example = "Spice Cup 2026")]
    pub name: String,
}

/// An event's settings, as the settings page shows them.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Settings {
    /// Changes with every save; send it back to be told when someone saved meanwhile.
    pub version: i32,
    pub name: String,
    pub starts_on: Option<NaiveDate>,
    pub ends_on: Option<NaiveDate>,
    pub venue: String,
    /// `gc-2.13.3` or `full`.
    pub ruleset: String,
    pub qualifying_rounds: i32,
    /// The event's public address for the QR codes; empty for none.
    pub public_url: String,
    /// Finals seats (ruling 13), 2 to 6.
    pub finals_seats: usize,
    /// Ruling 1: `ask`, `alternates`, `four_player_tables` or `byes`.
    pub table_fallback: String,
    /// Ruling 2: the empty circle at a table of five (0, 2, 3, 4 or 5).
    pub five_player_empty_circle: u8,
    /// Ruling 9: `all_survivors` or `judge_draw`.
    pub adjudication_deadlock: String,
    /// How the final table is seated: `drawn` or `qualifying_order`.
    pub final_seating: String,
    /// The Shield Wall counts as a stronghold from the fourth worm (4.02).
    pub shield_wall: bool,
}

/// Settings to save. Every field is optional: what is left out keeps its value. `version`, when
/// sent, must be the one read (409 otherwise).
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SettingsInput {
    pub version: Option<i32>,
    pub name: Option<String>,
    /// `YYYY-MM-DD`; `""` clears the date.
    #[schema(example = "2026-11-25")]
    pub starts_on: Option<String>,
    /// `YYYY-MM-DD`; `""` clears the date.
    pub ends_on: Option<String>,
    pub venue: Option<String>,
    pub ruleset: Option<String>,
    pub qualifying_rounds: Option<i32>,
    pub public_url: Option<String>,
    pub finals_seats: Option<usize>,
    pub table_fallback: Option<String>,
    pub five_player_empty_circle: Option<u8>,
    pub adjudication_deadlock: Option<String>,
    pub final_seating: Option<String>,
    pub shield_wall: Option<bool>,
}

/// An API token to make (organisers). Its secret is in the answer, once.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewToken {
    /// What it is for, to tell tokens apart ("results bot").
    #[schema(example = "results bot")]
    pub label: String,
    /// `judge`, `head_judge` or `organiser`.
    #[schema(example = "head_judge")]
    pub role: String,
    /// When it stops working; none: until revoked.
    #[serde(default)]
    pub expires_at: Option<DateTime<Utc>>,
}

/// An API token as listed (never its secret).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Token {
    pub id: i64,
    pub label: String,
    pub role: String,
    /// The secret's first characters.
    #[schema(example = "mentat_k3V9…")]
    pub hint: String,
    pub expires_at: Option<DateTime<Utc>>,
    pub created_by: Option<String>,
    pub created_at: DateTime<Utc>,
    pub uses: i64,
    pub last_used_at: Option<DateTime<Utc>>,
    /// `active`, `revoked` or `expired`.
    #[schema(example = "active")]
    pub state: String,
}

/// A token just made: the secret is shown this once and never again.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct TokenIssued {
    #[serde(flatten)]
    pub token: Token,
    #[schema(example = "mentat_k3V9xQ2mT7wZ4pL8nR1sD6fH0jB5cY2aE9uG3iO7tWq")]
    pub secret: String,
}

/// The next round to draw. Everything is optional.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewRound {
    /// The round you mean to draw: if another is drawn first, 409 rather than the one after.
    pub number: Option<i32>,
    /// The draw's seed (ruling 4); none: a random one, stored.
    pub seed: Option<u64>,
    /// Ruling 1, for a count with no split into tables of 6 and 5: `alternates` (with
    /// `alternates`, their names), `four_player_tables` or `byes` (with `byes`, player ids).
    pub fallback: Option<String>,
    #[serde(default)]
    pub alternates: Vec<String>,
    #[serde(default)]
    pub byes: Vec<i64>,
    /// Why the round starts although the previous one has games without a final report.
    pub override_reason: Option<String>,
}

/// Something to do to every table clock of a round at one instant (4.01.08).
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ClocksInput {
    /// `start`, `pause` or `resume`.
    #[schema(example = "start")]
    pub command: String,
}

/// What a command to every clock did.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ClocksDone {
    /// What was done, in words.
    pub done: String,
    /// Tables left as they were, and why.
    pub skipped: Vec<TableSkipped>,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct TableSkipped {
    pub table: i32,
    pub why: String,
}

/// A seated player's answer to a report, given by a judge for them (4.01.05).
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ConfirmationInput {
    /// The revision you read (409 when a newer one was saved).
    pub revision: i32,
    pub player_id: i64,
    /// True: the player agrees; false: the player disputes it, with a `note`.
    pub agrees: bool,
    #[serde(default)]
    pub note: Option<String>,
}

/// The head judge makes a revision final (4.01.05).
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct FinaliseInput {
    pub revision: i32,
}

/// Where a report stands after an answer or a finalisation.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ReportState {
    pub revision: i32,
    /// `awaiting`, `disputed` or `final`.
    pub status: String,
    pub report: String,
}

/// Closing qualifying. While planned rounds remain undrawn, `early: true` confirms it.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CloseQualifying {
    #[serde(default)]
    pub early: bool,
}

/// Reopening qualifying: `confirm: true` when results are recorded at a drawn final table.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ReopenQualifying {
    #[serde(default)]
    pub confirm: bool,
}

/// A seed for a recorded draw (ruling 4); none: a random one.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SeedInput {
    pub seed: Option<u64>,
}

/// Qualifying, as the finals page shows it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Qualifying {
    pub closed: bool,
    pub closed_at: Option<DateTime<Utc>>,
    /// The finalists in qualifying order, once every seat is settled (null while a tie across
    /// the cut waits for its draw).
    pub finalists: Option<Vec<String>>,
    /// Players tied across the cut line, and the seats left for them (ruling 11).
    pub tied: Vec<String>,
    pub open_seats: usize,
    /// The seeded draw that settled the tie, once made.
    pub draw_seed: Option<i64>,
}

/// One place in the event once the final table is reported (ruling 13).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Placing {
    pub place: usize,
    pub player_id: i64,
    pub player: String,
    /// Played at the final table.
    pub at_final: bool,
    /// The result at the final table, in words.
    pub result: Option<String>,
    /// The place in qualifying.
    pub qualified: usize,
}

/// The event's placings: empty until the final table's report is final.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Placings {
    pub final_round: Option<i32>,
    pub final_reported: bool,
    pub placings: Vec<Placing>,
}

/// A share, as a count and a total.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Share {
    pub count: usize,
    pub of: usize,
    pub percent: u32,
}

/// A faction's games and wins.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct FactionStats {
    #[schema(example = "AT")]
    pub faction: String,
    pub played: usize,
    pub solo_wins: usize,
    pub allied_wins: usize,
    pub wins: Share,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct SeatStats {
    pub seat: u8,
    pub played: usize,
    pub wins: usize,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct TurnCount {
    pub turn: u32,
    pub games: usize,
}

/// A faction's best game.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct BestGame {
    pub faction: String,
    pub player: String,
    pub game: String,
    pub result: Option<String>,
    pub points: String,
    pub score: String,
}

/// The statistics of final reports (those that count), as the statistics page shows them.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Statistics {
    /// Events counted (a restored copy is counted once with its original).
    pub events: usize,
    pub games: usize,
    pub seats: usize,
    pub factions: Vec<FactionStats>,
    pub win_types: Vec<WinCount>,
    pub no_winner: usize,
    pub ended_by_win: usize,
    pub ended_by_time: usize,
    pub ended_by_turns: usize,
    pub adjudicated: Share,
    pub length: Vec<TurnCount>,
    /// The average last turn, to one decimal.
    pub average_length: f64,
    pub by_seat: Vec<SeatStats>,
    pub best: Vec<BestGame>,
}
