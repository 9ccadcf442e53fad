//! `mentat replay [--parse-only] [--json] [--public] [--report] FILE...`: check game logs in DGN
//! against the rules. The report's wording and JSON come from the engine (`engine::report`); this
//! module reads the files and picks the exit code (0 legal, 1 violations, 2 unreadable).
//! `--report` prints the derived game report (`mentat standings` input) on standard output and
//! the replay's verdict on standard error.

use std::{path::PathBuf, process::ExitCode};

use engine::{replay::ReplayOptions, report};

use super::read_input;

pub struct Options {
    pub parse_only: bool,
    pub json: bool,
    /// Ignore sealed entries, as a public observer would see the game.
    pub public: bool,
    /// Print the derived game report instead of the verdict.
    pub report: bool,
}

pub fn run(files: &[PathBuf], options: &Options) -> ExitCode {
    let several = files.len() > 1;
    let mut worst = 0;
    for path in files {
        let text = match read_input(path) {
            Ok(text) => text,
            Err(_) => {
                worst = worst.max(2);
                continue;
            }
        };
        if options.report {
            let (outcome, derived) = report::report_text(&text);
            eprint!("{}", outcome.to_human());
            let mut code = outcome.exit_code();
            match derived {
                Some(Ok(json)) => println!("{json}"),
                Some(Err(why)) => {
                    eprintln!("{}: no game report: {why}", path.display());
                    code = code.max(1);
                }
                None => {}
            }
            worst = worst.max(code);
            continue;
        }
        let outcome = if options.parse_only {
            report::parse_only_text(&text)
        } else {
            report::replay_text_with(
                &text,
                &if options.public {
                    ReplayOptions::public()
                } else {
                    ReplayOptions::default()
                },
            )
        };
        worst = worst.max(outcome.exit_code());
        let name = path.display().to_string();
        match (options.json, several) {
            (true, false) => println!("{}", outcome.to_json()),
            (true, true) => println!(
                "{{\"file\":{},\"report\":{}}}",
                serde_json::Value::String(name),
                outcome.to_json()
            ),
            (false, false) => print!("{}", outcome.to_human()),
            (false, true) => print!("== {name}\n{}", outcome.to_human()),
        }
    }
    ExitCode::from(u8::try_from(worst).unwrap_or(2))
}
