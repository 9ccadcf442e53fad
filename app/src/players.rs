//! Server functions for an event's players: registration, CSV import, check-in, drops.
//! Head-judge actions (RunEvent); each checks the caller's role first.

use leptos::prelude::*;
use serde::{Deserialize, Serialize};
use tournament::ids::PlayerId;

use crate::error::AppError;
#[cfg(feature = "ssr")]
use crate::{
    events::load,
    server::{answer, back, back_with, back_with_notes, fail, internal, pool, require_staff},
};
#[cfg(feature = "ssr")]
use leptos::server_fn::ServerFn;

/// A player as the head judge's list shows them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerRow {
    pub id: PlayerId,
    pub name: String,
    pub email: String,
    pub club: String,
    pub checked_in: bool,
    pub alternate: bool,
    /// Entered after this many rounds were drawn (a late entry), if any.
    pub late_after: Option<i32>,
    pub dropped_after: Option<i32>,
    pub version: i32,
    /// Signs in with an account, so they can confirm their own reports.
    pub linked: bool,
    /// The name as the forgiving search compares it (`db::players::search::fold`), folded on
    /// the server so the page's filter-as-you-type and the server's `?q=` agree.
    pub search_name: String,
    /// What the wall's lists sort the player by instead of the name; empty for the name.
    pub sort_as: String,
}

/// A CSV line that was not imported.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RefusedLine {
    pub line: usize,
    pub text: String,
    pub reason: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ImportOutcome {
    pub added: usize,
    pub refused: Vec<RefusedLine>,
    /// Header columns Mentat does not use, named so nobody wonders where they went.
    pub ignored_columns: Vec<String>,
    /// How the text was read ("tab-separated, with a header (columns used: name, email)").
    pub read_as: String,
}

#[server]
pub async fn list_players(slug: String) -> Result<Vec<PlayerRow>, AppError> {
    let event = load(&slug).await?;
    require_staff(event.id, db::roles::Action::RunEvent).await?;
    let players = db::players::list(&pool()?, event.id)
        .await
        .map_err(|e| internal("listing players", e))?;
    Ok(players
        .into_iter()
        .map(|p| PlayerRow {
            late_after: p.is_late_entry().then_some(p.entered_after_round),
            id: p.id,
            email: p.email.unwrap_or_default(),
            club: p.club.unwrap_or_default(),
            checked_in: p.checked_in,
            alternate: p.alternate,
            dropped_after: p.dropped_after_round,
            version: p.version,
            linked: p.user_id.is_some(),
            search_name: db::players::search::fold(&p.name),
            sort_as: p.sort_as.unwrap_or_default(),
            name: p.name,
        })
        .collect())
}

#[server]
pub async fn add_player(
    slug: String,
    name: String,
    email: String,
    club: String,
) -> Result<String, AppError> {
    let event = load(&slug).await?;
    let actor = require_staff(event.id, db::roles::Action::RunEvent).await?;
    let new = match db::players::NewPlayer::parse(&name, &email, &club) {
        Ok(new) => new,
        Err(problem) => return fail(AppError::field(problem.field, problem.message)),
    };
    let name = answer(db::players::add(&pool()?, &actor, event.id, new).await)?.name;
    back_with(AddPlayer::url(), &format!("{name} added."), &[]);
    Ok(name)
}

/// What an import that added nobody says (the page shows it as a failure, not a success).
pub const NOTHING_IMPORTED: &str = "Nothing was imported.";

/// The most refused lines an import's report carries in the page's address; the rest are
/// counted (a long list would make an address too long for some proxies).
pub const REPORTED_LINES: usize = 40;

/// What the players page says after an import: the message, its notes (how the text was read,
/// which column became which field) and the refused lines.
#[cfg(feature = "ssr")]
pub fn import_said(report: &db::players::ImportReport) -> (String, Vec<String>, Vec<String>) {
    let mut lines: Vec<String> = report
        .refused
        .iter()
        .take(REPORTED_LINES)
        .map(|r| format!("Line {}: {} — {}", r.line, r.text, r.reason))
        .collect();
    if report.refused.len() > REPORTED_LINES {
        lines.push(format!(
            "… and {} more lines refused: fix the first ones and import the text again.",
            report.refused.len() - REPORTED_LINES
        ));
    }
    // Nothing imported is never said as a success.
    let message = match report.added.len() {
        0 => NOTHING_IMPORTED.to_owned(),
        n => format!("Imported {n} player{}.", if n == 1 { "" } else { "s" }),
    };
    let mut notes = vec![format!("Read as {}.", report.read_as)];
    if !report.mapping.is_empty() {
        notes.push(format!("Columns: {}.", report.mapping));
    }
    (message, notes, lines)
}

/// The players page with an import's report, scrolled to it: where the import route sends
/// the organiser (`server/src/http/organise.rs`).
#[cfg(feature = "ssr")]
pub fn import_done_path(slug: &str, report: &db::players::ImportReport) -> String {
    use crate::forms::{DONE, DONE_ANCHOR, LINE, NOTE, SAID};
    let (message, notes, lines) = import_said(report);
    let mut query = url::form_urlencoded::Serializer::new(String::new());
    query.append_pair(DONE, ImportPlayers::url());
    query.append_pair(SAID, &message);
    for note in &notes {
        query.append_pair(NOTE, note);
    }
    for line in &lines {
        query.append_pair(LINE, line);
    }
    format!("/events/{slug}/players?{}#{DONE_ANCHOR}", query.finish())
}

/// Imports pasted CSV text whose columns are clear (unclear ones are ignored). The players page
/// posts its text to the import route instead, which shows a preview when a column is unclear;
/// this stays for scripts and the browser half.
#[server]
pub async fn import_players(slug: String, csv: String) -> Result<ImportOutcome, AppError> {
    use db::players::ImportError;
    let event = load(&slug).await?;
    let actor = require_staff(event.id, db::roles::Action::RunEvent).await?;
    match db::players::import_csv(&pool()?, &actor, event.id, &csv).await {
        Ok(report) => {
            let (message, notes, lines) = import_said(&report);
            let outcome = ImportOutcome {
                added: report.added.len(),
                refused: report
                    .refused
                    .into_iter()
                    .map(|r| RefusedLine {
                        line: r.line,
                        text: r.text,
                        reason: r.reason,
                    })
                    .collect(),
                ignored_columns: report.ignored_columns,
                read_as: report.read_as,
            };
            back_with_notes(ImportPlayers::url(), &message, &notes, &lines);
            Ok(outcome)
        }
        Err(ImportError::Database(e)) => Err(internal("importing players", e)),
        Err(e) => fail(AppError::field("csv", e.to_string())),
    }
}

#[server]
pub async fn check_in(
    slug: String,
    player_id: PlayerId,
    version: i32,
    checked_in: bool,
) -> Result<(), AppError> {
    let event = load(&slug).await?;
    let actor = require_staff(event.id, db::roles::Action::RunEvent).await?;
    answer(
        db::players::set_checked_in(&pool()?, &actor, event.id, player_id, version, checked_in)
            .await,
    )?;
    back();
    Ok(())
}

/// Checks in everyone not checked in yet, once the head judge has ticked that they mean it:
/// at the door, one wrong tap must not check in the whole list.
#[server]
pub async fn check_in_all(slug: String, #[server(default)] confirm: bool) -> Result<u64, AppError> {
    let event = load(&slug).await?;
    let actor = require_staff(event.id, db::roles::Action::RunEvent).await?;
    if !confirm {
        return fail(AppError::field(
            "confirm",
            "Tick the box to confirm that everyone is to be checked in; nobody was checked in.",
        ));
    }
    let count = answer(db::players::check_in_all(&pool()?, &actor, event.id).await)?;
    back_with(
        CheckInAll::url(),
        &match count {
            1 => "1 player checked in.".to_owned(),
            n => format!("{n} players checked in."),
        },
        &[],
    );
    Ok(count)
}

#[server]
pub async fn set_dropped(
    slug: String,
    player_id: PlayerId,
    version: i32,
    dropped: bool,
) -> Result<(), AppError> {
    let event = load(&slug).await?;
    let actor = require_staff(event.id, db::roles::Action::RunEvent).await?;
    answer(
        db::players::set_dropped(&pool()?, &actor, event.id, player_id, version, dropped).await,
    )?;
    back();
    Ok(())
}

/// Links a player to the account they sign in with (`player` is "id:version" from the list),
/// so they can confirm their own game reports on their phone. An empty user name unlinks.
#[server]
pub async fn link_account(
    slug: String,
    player: String,
    username: String,
) -> Result<String, AppError> {
    let event = load(&slug).await?;
    let actor = require_staff(event.id, db::roles::Action::RunEvent).await?;
    let Some((id, version)) = player
        .split_once(':')
        .and_then(|(i, v)| Some((i.parse::<PlayerId>().ok()?, v.parse::<i32>().ok()?)))
    else {
        return fail(AppError::field("player", "Pick the player to link."));
    };
    let p = answer(
        db::players::link_account(&pool()?, &actor, event.id, id, version, &username).await,
    )?;
    let message = if p.user_id.is_some() {
        format!("{} now confirms reports as {}.", p.name, username.trim())
    } else {
        format!("{} is no longer linked to an account.", p.name)
    };
    back_with(LinkAccount::url(), &message, &[]);
    Ok(message)
}
