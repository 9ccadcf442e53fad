//! The `mentat` command line. `serve` is the default; the other commands are tools for
//! organisers' scripts and for operating the server.

use std::{path::PathBuf, process::ExitCode};

use clap::{Parser, Subcommand};

use crate::commands;

#[derive(Debug, Parser)]
#[command(
    name = "mentat",
    version,
    about = "Tournament manager and judge's assistant for Dune (GenCon rules)",
    long_about = "Tournament manager and judge's assistant for Dune (GenCon rules).\n\n\
                  Without a command, `mentat` serves the web application (same as `mentat serve`)."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Serve the web application (the default). Needs DATABASE_URL; applies migrations first.
    Serve,
    /// Apply database migrations to DATABASE_URL and exit.
    Migrate,
    /// Manage accounts.
    #[command(subcommand)]
    User(UserCommand),
    /// Account tokens: a person's key for the JSON API (docs/api.md), acting as them in every
    /// event they hold a role in (and creating events, for a site administrator).
    #[command(subcommand)]
    Token(TokenCommand),
    /// Create a sample event to look around in: 30 players, 3 rounds with clocks and results,
    /// a head judge's and a player's sign-in (docs/cli.md). Needs DATABASE_URL.
    Demo {
        /// The same seed gives the same draws and results (default: a random one, printed).
        #[arg(long)]
        seed: Option<u64>,
        /// The address people open Mentat at, for the printed links (default: MENTAT_PUBLIC_URL,
        /// else LEPTOS_SITE_ADDR or PORT as `mentat serve` uses them, else http://127.0.0.1:3000).
        #[arg(long)]
        base_url: Option<String>,
    },
    /// Create a large event for load tests and benchmarks (script/bench, script/faults): players
    /// checked in, rounds with every report final, a head judge; prints it as JSON.
    /// Needs DATABASE_URL.
    Seed {
        /// How many players.
        #[arg(long, default_value_t = 300)]
        players: usize,
        /// How many rounds, each with every report final.
        #[arg(long, default_value_t = 4)]
        rounds: i32,
        /// Draw and begin one more round whose reports are still to be written.
        #[arg(long)]
        open_round: bool,
    },
    /// Table sizes for a number of players (4.01.01), as a JSON array.
    Tables {
        /// How many players are present.
        players: String,
    },
    /// Draw tables, seats (0.07) and factions (0.08) for one round, as JSON.
    Draw {
        /// The random seed; the same seed and players give the same draw.
        #[arg(long)]
        seed: u64,
        /// `gc-2.13.3` (six classic factions) or `full` (a classic and an expansion card each).
        #[arg(long, default_value = "gc-2.13.3")]
        ruleset: String,
        /// A JSON array of earlier outputs of this command, to avoid repeat opponents and factions.
        #[arg(long)]
        history: Option<PathBuf>,
        /// A file with one player name per line (`-` for standard input).
        players: PathBuf,
    },
    /// Replay game logs written in DGN (docs/notation.md) and report every rule broken.
    /// Exit code 0 when legal, 1 when there are violations, 2 when a file is not readable DGN.
    Replay {
        /// Check the notation only, not the rules.
        #[arg(long)]
        parse_only: bool,
        /// Print JSON instead of a report (one object per line with several files).
        #[arg(long)]
        json: bool,
        /// Ignore sealed entries `{…}`, as a public observer would (default: audit them).
        #[arg(long)]
        public: bool,
        /// Print the game report derived from the log: the JSON `mentat standings` reads (the
        /// replay's verdict goes to standard error). Exit code 1 when the log breaks a rule or the
        /// game is not over.
        #[arg(long, conflicts_with_all = ["parse_only", "json", "public"])]
        report: bool,
        /// One or more DGN files (`-` for standard input).
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Print one kind of an event's data as CSV or JSON (docs/exports.md): standings, players,
    /// seats, reports, attempts or audit. Needs DATABASE_URL.
    Export {
        /// The event's address, as in /events/SLUG.
        slug: String,
        /// standings, players, seats, reports, attempts or audit.
        kind: String,
        /// csv or json.
        #[arg(long, default_value = "csv")]
        format: String,
    },
    /// Print the whole event as a backup file (JSON): `mentat backup SLUG > event.json`.
    Backup {
        /// The event's address, as in /events/SLUG.
        slug: String,
    },
    /// Restore an event from a backup file; the database is migrated first, so an empty one
    /// works. A damaged or inconsistent file is refused and nothing changes.
    Restore {
        /// The backup file (`-` for standard input).
        file: PathBuf,
        /// Restore under this address instead of the one in the file.
        #[arg(long = "as", value_name = "NEW_SLUG")]
        as_slug: Option<String>,
        /// Replace the event at that address if there is one (its data is deleted).
        #[arg(long)]
        replace: bool,
        /// The restored event's name (default: the file's; "… (restored DATE)" when an event
        /// here already has that name).
        #[arg(long)]
        name: Option<String>,
    },
    /// Standings, adjudications and the finals cut from a file of game reports, as JSON.
    Standings {
        /// Finals seats (default: the report's option, else 6).
        #[arg(long)]
        finals: Option<usize>,
        /// The game-report JSON (`-` for standard input).
        reports: PathBuf,
    },
}

#[derive(Debug, Subcommand)]
pub enum UserCommand {
    /// Create an account. The password is asked for (or read from standard input's first line).
    Add {
        /// The user name to sign in with.
        name: String,
        /// An email address that also signs in.
        #[arg(long)]
        email: Option<String>,
        /// A site administrator: creates events and acts as organiser everywhere.
        #[arg(long)]
        admin: bool,
    },
}

#[derive(Debug, Subcommand)]
pub enum TokenCommand {
    /// Make an account token for NAME and print it (once) on standard output.
    Add {
        /// The account the token acts as.
        name: String,
        /// What it is for, to tell tokens apart ("season script").
        #[arg(long)]
        label: String,
        /// It stops working after this many days (default: when revoked).
        #[arg(long)]
        days: Option<u32>,
    },
    /// Revoke an account token by its id (printed when it was made).
    Revoke { id: i64 },
}

pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // clap prints help and version itself; usage errors get exit code 2.
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    let command = cli.command.unwrap_or(Command::Serve);
    // The organisers' tools print JSON and use exit code 2 for bad input, as docs/cli.md says.
    match &command {
        Command::Tables { players } => return commands::tournament::tables(players),
        Command::Draw {
            seed,
            ruleset,
            history,
            players,
        } => {
            return commands::tournament::draw(*seed, ruleset, history.as_deref(), players);
        }
        Command::Standings { finals, reports } => {
            return commands::tournament::standings(*finals, reports);
        }
        Command::Replay {
            parse_only,
            json,
            public,
            report,
            files,
        } => {
            let options = commands::replay::Options {
                parse_only: *parse_only,
                json: *json,
                public: *public,
                report: *report,
            };
            return commands::replay::run(files, &options);
        }
        _ => {}
    }
    crate::telemetry::init();
    // The data commands print the event on standard output and end with their own exit code.
    match &command {
        Command::Export { slug, kind, format } => {
            return commands::data::export(slug, kind, format);
        }
        Command::Backup { slug } => return commands::data::backup(slug),
        Command::Restore {
            file,
            as_slug,
            replace,
            name,
        } => return commands::data::restore(file, as_slug.clone(), *replace, name.clone()),
        _ => {}
    }
    let result = match command {
        Command::Serve => commands::serve::run(),
        Command::Migrate => commands::migrate::run(),
        Command::User(UserCommand::Add { name, email, admin }) => {
            commands::user::add(&name, email.as_deref(), admin)
        }
        Command::Token(TokenCommand::Add { name, label, days }) => {
            commands::user::token_add(&name, &label, days)
        }
        Command::Token(TokenCommand::Revoke { id }) => commands::user::token_revoke(id),
        Command::Demo { seed, base_url } => {
            commands::demo::run(&commands::demo::Options { seed, base_url })
        }
        Command::Seed {
            players,
            rounds,
            open_round,
        } => commands::seed::run(&commands::seed::Options {
            players,
            rounds,
            open_round,
        }),
        Command::Tables { .. }
        | Command::Export { .. }
        | Command::Backup { .. }
        | Command::Restore { .. }
        | Command::Draw { .. }
        | Command::Standings { .. }
        | Command::Replay { .. } => Ok(()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("mentat: {e}");
            ExitCode::FAILURE
        }
    }
}
