//! Rounds: the draw of tables (4.01.01), seats (0.07) and factions (0.08) from the `tournament`
//! crate, stored with its seed; the head judge's changes before play begins (redraw, seat swap,
//! cancel), each recorded in the audit log; and what the pages read.
//!
//! A round is *drawn* first: its tables are published and may still change. It *begins* when the
//! head judge locks it or the first table clock starts; from then on its seats are final.
//! Every change names the round's `version` it was based on, so a stale page cannot overwrite
//! a change it has not seen.

mod changes;
mod draw;
mod final_table;
mod reads;
pub mod records;

pub(crate) use changes::mark_begun;
pub use changes::{begin, cancel, recorded, redraw, swap};
pub use draw::start;
pub use final_table::{final_number, start_final};
pub use reads::*;

use tournament::ids::{PlayerId, RoundNumber, TableNumber};

use tournament::{DrawError, Faction, PlayerName, TableFallback};

/// Ruling 1's way out, chosen by the head judge for a player count that 4.01.01 cannot split.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fallback {
    /// These people fill the missing seats; they are registered as alternates.
    Alternates(Vec<PlayerName>),
    /// Tables of 4 where needed.
    FourPlayerTables,
    /// These players (ids) sit the round out: no game, 0 points.
    Byes(Vec<PlayerId>),
}

/// A request to draw the next round.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewRound {
    /// The round the page offered to start: if another head judge started it first, the
    /// request is refused rather than drawing the round after it.
    pub number: RoundNumber,
    /// `None`: a fresh random seed.
    pub seed: Option<u64>,
    pub fallback: Option<Fallback>,
    /// Required when the previous round still has games without a final report.
    pub override_reason: Option<String>,
}

#[derive(Debug, thiserror::Error)]
pub enum RoundError {
    #[error(
        "Round {asked} cannot be started: round {} is the next one, so someone else has started a round since you loaded the page. Reload to see it.",
        next
    )]
    NotNext {
        asked: RoundNumber,
        next: RoundNumber,
    },
    #[error(
        "Round {0} changed since you loaded it (a redraw, a seat swap, a clock or the start of play); reload the page and check it before changing it."
    )]
    Stale(RoundNumber),
    #[error(
        "Round {round} still has {} without a final report ({} {}). Wait for the reports, or give the reason for starting anyway.",
        if tables.len() == 1 { "a game" } else { "games" },
        if tables.len() == 1 { "table" } else { "tables" },
        tables.iter().map(TableNumber::to_string).collect::<Vec<_>>().join(", ")
    )]
    Unreported {
        round: RoundNumber,
        tables: Vec<TableNumber>,
    },
    #[error(
        "All {0} qualifying rounds are drawn. To add one, raise the number of rounds in the event settings."
    )]
    AllRoundsDrawn(i32),
    #[error(
        "Qualifying is closed, so no qualifying round starts. The head judge can reopen qualifying on the finals page."
    )]
    QualifyingClosed,
    #[error("Qualifying is open: close it on the finals page before drawing the final table.")]
    QualifyingOpen,
    #[error(
        "Players are tied across the finals line: draw who takes the open seats (ruling 11) on the finals page first."
    )]
    CutUndrawn,
    #[error("The final table is drawn already (round {0}). To draw it again, cancel it first.")]
    FinalDrawn(RoundNumber),
    #[error(
        "Round {0} is the final table: it is not redrawn like a round. Cancel it before play begins and draw it again; both are recorded."
    )]
    FinalRedraw(RoundNumber),
    #[error(
        "Round {round} cannot be redrawn: results are recorded at its tables ({}). A redraw would delete them. Correct a wrong record on its table's page; to draw the round again, cancel it (you are shown what goes, and the audit log keeps a copy) and start it again.",
        records::list(what)
    )]
    RecordedRedraw {
        round: RoundNumber,
        what: Vec<String>,
    },
    #[error(
        "These players cannot swap: results are recorded at their tables ({}), and a swap would leave them naming the wrong seats. Correct the records on the table's page first.",
        records::list(what)
    )]
    RecordedSwap { what: Vec<String> },
    #[error("Play has begun in round {0}; its seats are final.")]
    Begun(RoundNumber),
    #[error("Only the latest round can be cancelled, and round {0} is not the latest.")]
    NotLatest(RoundNumber),
    #[error("{0}")]
    Draw(#[from] DrawError),
    #[error("{message}")]
    Field {
        field: &'static str,
        message: String,
    },
    #[error("There is no such round in this event.")]
    NotFound,
    #[error("database error")]
    Database(#[from] sqlx::Error),
}

impl RoundError {
    fn field(field: &'static str, message: impl Into<String>) -> RoundError {
        RoundError::Field {
            field,
            message: message.into(),
        }
    }

    /// True when the request was based on an outdated page.
    pub fn is_conflict(&self) -> bool {
        matches!(self, Self::NotNext { .. } | Self::Stale(_))
    }
}

/// The largest seed a head judge may type: seeds are stored as a non-negative BIGINT.
pub const MAX_SEED: u64 = i64::MAX as u64;

/// Seeds drawn here stay below 2^53, so any tool (JavaScript included) reads them exactly.
pub(crate) fn fresh_seed() -> u64 {
    random_seed()
}

fn random_seed() -> u64 {
    const MASK: u64 = (1 << 53) - 1;
    let raw = getrandom::u64().unwrap_or_else(|_| {
        use std::hash::{BuildHasher, RandomState};
        RandomState::new().hash_one(std::time::SystemTime::now())
    });
    raw & MASK
}

fn seed_to_db(seed: u64) -> Result<i64, RoundError> {
    i64::try_from(seed).map_err(|_| {
        RoundError::field(
            "seed",
            format!("A seed is a whole number from 0 to {MAX_SEED}."),
        )
    })
}

struct Entrant {
    id: PlayerId,
    name: PlayerName,
}

fn player_name(text: &str) -> Result<PlayerName, sqlx::Error> {
    PlayerName::parse(text).map_err(|e| sqlx::Error::Decode(Box::new(e)))
}

/// A faction as stored (the draw wrote its code); an unknown code stops the read.
pub(crate) fn stored_faction(code: Option<&str>) -> Result<Option<Faction>, sqlx::Error> {
    code.map(|c| {
        Faction::from_code(c)
            .ok_or_else(|| sqlx::Error::Decode(format!("stored faction {c:?} is not valid").into()))
    })
    .transpose()
}

/// How a table fallback is written in the audit log and shown on the round page.
pub(crate) fn fallback_code(fallback: TableFallback) -> &'static str {
    match fallback {
        TableFallback::Ask => "ask",
        TableFallback::Alternates => "alternates",
        TableFallback::FourPlayerTables => "four_player_tables",
        TableFallback::Byes => "byes",
    }
}
