//! `mentat export`, `mentat backup` and `mentat restore`: an event's data out of Mentat and back
//! in, for organisers' scripts and for moving an event to another machine (docs/cli.md).
//!
//! These run with the database's own access (DATABASE_URL), as the operator of the server:
//! no sign-in. Exit codes: 0 done, 1 the database failed, 2 the input was refused (an unknown
//! event or kind, a file that is not a backup), with the reason on standard error.

use std::{io::Write, path::Path, process::ExitCode};

use db::{
    PgPool,
    backup::{RestoreError, RestoreOptions},
    export::{Format, Kind},
};

use crate::{config, database, error::StartupError};

/// What a command ended with.
enum Outcome {
    Done,
    Refused(String),
}

fn run(migrate: bool, work: impl AsyncFnOnce(PgPool) -> Result<Outcome, String>) -> ExitCode {
    let result: Result<Result<Outcome, String>, StartupError> = (|| {
        let url = config::database_url()?;
        super::runtime()?.block_on(async {
            let pool = database::connect(&url).await?;
            if migrate {
                database::migrate(&pool, &url).await?;
            }
            Ok(work(pool).await)
        })
    })();
    match result {
        Ok(Ok(Outcome::Done)) => ExitCode::SUCCESS,
        Ok(Ok(Outcome::Refused(message))) => {
            eprintln!("mentat: {message}");
            ExitCode::from(2)
        }
        Ok(Err(message)) => {
            eprintln!("mentat: {message}");
            ExitCode::FAILURE
        }
        Err(e) => {
            eprintln!("mentat: {e}");
            ExitCode::FAILURE
        }
    }
}

fn print(bytes: &[u8]) -> Result<Outcome, String> {
    let mut out = std::io::stdout().lock();
    out.write_all(bytes)
        .and_then(|()| out.flush())
        .map_err(|e| format!("cannot write to standard output: {e}"))?;
    Ok(Outcome::Done)
}

async fn event(pool: &PgPool, slug: &str) -> Result<Result<db::events::Event, Outcome>, String> {
    match db::events::by_slug(pool, slug).await {
        Ok(Some(event)) => Ok(Ok(event)),
        Ok(None) => Ok(Err(Outcome::Refused(format!(
            "there is no event at /events/{slug}; `mentat export` takes the event's address, as in its web address."
        )))),
        Err(e) => Err(format!("reading the event failed: {e}")),
    }
}

/// `mentat export SLUG KIND [--format csv|json]`: the same rows as the web download (without
/// the byte-order mark a spreadsheet needs).
pub fn export(slug: &str, kind: &str, format: &str) -> ExitCode {
    let Some(kind) = Kind::parse(kind) else {
        let kinds: Vec<&str> = Kind::ALL.iter().map(|k| k.as_str()).collect();
        eprintln!(
            "mentat: there is no export called {kind:?}; choose one of {}.",
            kinds.join(", ")
        );
        return ExitCode::from(2);
    };
    let Some(format) = Format::parse(format) else {
        eprintln!("mentat: the format is csv or json, not {format:?}.");
        return ExitCode::from(2);
    };
    run(false, async move |pool| {
        let event = match event(&pool, slug).await? {
            Ok(event) => event,
            Err(refused) => return Ok(refused),
        };
        let rows = db::export::rows(&pool, event.id, kind)
            .await
            .map_err(|e| format!("reading the export failed: {e}"))?;
        print(&rows.write(format).map_err(|e| e.to_string())?)
    })
}

/// `mentat backup SLUG`: the whole event as JSON on standard output.
pub fn backup(slug: &str) -> ExitCode {
    run(false, async move |pool| {
        let event = match event(&pool, slug).await? {
            Ok(event) => event,
            Err(refused) => return Ok(refused),
        };
        let backup = db::backup::dump(&pool, event.id)
            .await
            .map_err(|e| format!("reading the event failed: {e}"))?;
        print(&db::backup::to_json(&backup).map_err(|e| e.to_string())?)
    })
}

/// `mentat restore FILE [--as SLUG] [--replace] [--name NAME]`: the event in a backup file,
/// into this database (migrated first, so an empty database works).
pub fn restore(
    file: &Path,
    as_slug: Option<String>,
    replace: bool,
    name: Option<String>,
) -> ExitCode {
    let bytes = if file.as_os_str() == "-" {
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut std::io::stdin(), &mut bytes).map(|_| bytes)
    } else {
        std::fs::read(file)
    };
    let bytes = match bytes {
        Ok(bytes) => bytes,
        Err(e) => {
            eprintln!("mentat: cannot read {}: {e}", file.display());
            return ExitCode::from(2);
        }
    };
    let options = RestoreOptions {
        as_slug,
        replace,
        name,
    };
    run(true, async move |pool| {
        match db::backup::restore(&pool, None, &bytes, options).await {
            Ok(restored) => {
                println!(
                    "Restored {} at /events/{}: {} players, {} rounds, {} report revisions{}.",
                    restored.event.name,
                    restored.event.slug,
                    restored.players,
                    restored.rounds,
                    restored.reports,
                    if restored.replaced {
                        " (it replaced the event that was there)"
                    } else {
                        ""
                    }
                );
                for warning in &restored.warnings {
                    eprintln!("mentat: warning: {warning}");
                }
                if !restored.created_accounts.is_empty() {
                    println!(
                        "Accounts made without a password (they sign in once an administrator sets one): {}.",
                        restored.created_accounts.join(", ")
                    );
                }
                Ok(Outcome::Done)
            }
            Err(RestoreError::Database(e)) => Err(format!("the restore failed: {e}")),
            Err(RestoreError::Exists(slug)) => Ok(Outcome::Refused(format!(
                "an event already lives at /events/{slug}. Restore it beside it with --as NEW-ADDRESS, or replace it (deleting its data) with --replace."
            ))),
            Err(refused) => Ok(Outcome::Refused(format!("{refused} Nothing was changed."))),
        }
    })
}
