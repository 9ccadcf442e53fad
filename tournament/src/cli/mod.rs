//! The command-line contract of `mentat tables | draw | standings` (docs/cli.md): text in, text
//! out, so the binary only parses arguments, prints, and exits with [`CliError::EXIT_CODE`].
//!
//! Every JSON shape an organiser's script reads or writes is defined here and documented in
//! `docs/cli.md`; changing one is changing a contract.

mod input;
mod output;

use std::collections::HashMap;
use std::fmt;

use crate::draw::{self as drawing, DrawError, DrawRequest};
use crate::options::{RulingOptions, TableFallback};
use crate::player::{NameError, PlayerName};
use crate::report::{self, ReportErrors};
use crate::ruleset::{Ruleset, UnknownRuleset};
use crate::standings as table_standings;
use crate::tables::{self, TableError};

pub use input::{parse_history, parse_report};

/// Anything wrong with a command's input. Display gives the whole message for stderr.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    #[error("tables: {0:?} is not a number of players (a whole number, 0 or more)")]
    PlayerCount(String),
    #[error("{0}")]
    Tables(#[from] TableError),
    #[error("{0}")]
    Ruleset(#[from] UnknownRuleset),
    #[error("players, line {line}: {error}")]
    PlayerName { line: usize, error: NameError },
    #[error("players, line {line}: {player} is already on line {first}")]
    DuplicatePlayer {
        line: usize,
        first: usize,
        player: PlayerName,
    },
    #[error("{0}")]
    Draw(#[from] DrawError),
    /// The text is not JSON at all.
    #[error("{what}: not valid JSON: {error}")]
    Json {
        what: &'static str,
        error: serde_json::Error,
    },
    /// The JSON has the wrong shape; `at` says where (round, table, player, field).
    #[error("{at}: {problem}")]
    Input { at: String, problem: String },
    #[error("{0}")]
    Report(#[from] ReportErrors),
}

impl CliError {
    /// Every input error exits with 2 (usage/data error); 0 is success.
    pub const EXIT_CODE: i32 = 2;

    pub fn exit_code(&self) -> i32 {
        Self::EXIT_CODE
    }
}

/// `mentat tables N`: the table sizes for N players as a JSON array, e.g. `[6,6,5]`; a count
/// that 4.01.01 cannot split is refused with ruling 1's options.
pub fn tables(players: &str) -> Result<String, CliError> {
    let n: usize = players
        .trim()
        .parse()
        .map_err(|_| CliError::PlayerCount(players.to_owned()))?;
    let sizes = tables::plan(n, TableFallback::Ask)?;
    Ok(output::to_json(&sizes))
}

/// `mentat draw --seed S [--ruleset R] [--history FILE] PLAYERS`, with the contents of the
/// PLAYERS file (one name per line) and of the history file. `ruleset` is the `--ruleset` text
/// (`gc-2.13.3` when the flag is absent).
pub fn draw(
    seed: u64,
    ruleset: &str,
    players_text: &str,
    history_json: Option<&str>,
) -> Result<String, CliError> {
    draw_with_options(
        seed,
        ruleset,
        players_text,
        history_json,
        &RulingOptions::default(),
    )
}

/// [`draw`] under an event's ruling options (4-player tables, the empty circle at five).
pub fn draw_with_options(
    seed: u64,
    ruleset: &str,
    players_text: &str,
    history_json: Option<&str>,
    options: &RulingOptions,
) -> Result<String, CliError> {
    let ruleset: Ruleset = ruleset.parse()?;
    let players = parse_players(players_text)?;
    let history = match history_json {
        Some(json) => parse_history(json)?,
        None => Default::default(),
    };
    let round = drawing::draw_round(&DrawRequest {
        seed,
        ruleset,
        players: &players,
        byes: &[],
        history: &history,
        options,
    })?;
    Ok(output::to_json(&round))
}

/// `mentat standings [--finals K] REPORTS`, with the contents of the REPORTS file. `finals` is
/// `None` when the flag is absent: the report's `options.finals_seats` decides (default 6).
pub fn standings(reports_json: &str, finals: Option<usize>) -> Result<String, CliError> {
    let report = parse_report(reports_json)?;
    let valid = report::validate(&report)?;
    let seats = finals.unwrap_or(valid.options().finals_seats);
    let standings = table_standings::compute(&valid, seats);
    Ok(output::to_json(&output::StandingsOut::new(
        &standings, &valid,
    )))
}

/// One name per line; blank lines are skipped and names trimmed.
pub fn parse_players(text: &str) -> Result<Vec<PlayerName>, CliError> {
    let mut players = Vec::new();
    let mut lines: HashMap<PlayerName, usize> = HashMap::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let player =
            PlayerName::parse(line).map_err(|error| CliError::PlayerName { line: i + 1, error })?;
        if let Some(&first) = lines.get(&player) {
            return Err(CliError::DuplicatePlayer {
                line: i + 1,
                first,
                player,
            });
        }
        lines.insert(player.clone(), i + 1);
        players.push(player);
    }
    Ok(players)
}

/// Where in an input a problem is, in the words of a Game Report: "round 2, table 3, player
/// Alice, field forces".
#[derive(Clone, Debug, Default)]
pub(crate) struct At(Vec<String>);

impl At {
    pub(crate) fn new(first: impl Into<String>) -> At {
        At(vec![first.into()])
    }

    pub(crate) fn with(&self, part: impl Into<String>) -> At {
        let mut parts = self.0.clone();
        parts.push(part.into());
        At(parts)
    }

    pub(crate) fn field(&self, name: &str) -> At {
        self.with(format!("field {name}"))
    }

    pub(crate) fn fail(&self, problem: impl Into<String>) -> CliError {
        CliError::Input {
            at: self.to_string(),
            problem: problem.into(),
        }
    }
}

impl fmt::Display for At {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0.join(", "))
    }
}
