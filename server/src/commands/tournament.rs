//! `mentat tables`, `mentat draw` and `mentat standings`: the tournament procedure for
//! organisers' scripts. The JSON contract lives in the `tournament` crate (`docs/cli.md`);
//! this module only reads files and prints.

use std::{path::Path, process::ExitCode};

use super::read_input;

/// Prints the result, or the error with exit code 2, as the contract says.
fn finish(result: Result<String, tournament::cli::CliError>) -> ExitCode {
    match result {
        Ok(json) => {
            println!("{json}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{e}");
            ExitCode::from(2)
        }
    }
}

pub fn tables(players: &str) -> ExitCode {
    finish(tournament::cli::tables(players))
}

pub fn draw(seed: u64, ruleset: &str, history: Option<&Path>, players: &Path) -> ExitCode {
    let players = match read_input(players) {
        Ok(text) => text,
        Err(code) => return code,
    };
    let history = match history.map(read_input).transpose() {
        Ok(text) => text,
        Err(code) => return code,
    };
    finish(tournament::cli::draw(
        seed,
        ruleset,
        &players,
        history.as_deref(),
    ))
}

pub fn standings(finals: Option<usize>, reports: &Path) -> ExitCode {
    match read_input(reports) {
        Ok(text) => finish(tournament::cli::standings(&text, finals)),
        Err(code) => code,
    }
}
