//! Restoring a [`Backup`]: read and check the file, then write the event in one transaction.
//!
//! A file is refused, with the reason and nothing changed, when it is not text, not JSON
//! (damaged), cut off (truncated), not a Mentat backup (foreign), from a newer Mentat, or
//! inconsistent: a seat naming a player the file does not have, revisions with gaps, a final
//! report on a table not marked reported, or reports that no longer give the standings the
//! file recorded. Restoring over an existing event needs `replace`.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

use serde_json::Value;
use sqlx::{PgConnection, PgPool};
use tournament::ids::{EventId, PlayerId, UserId};
use tournament::{PlayerName, Ruleset, RulingOptions};

use super::format::*;
use super::{FORMAT, VERSION};
use crate::{
    accounts::UserName,
    audit,
    events::Event,
    password::{self, Password},
    results::reports::SeatResult,
    roles::{self, Action, Actor},
};

/// How to restore.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RestoreOptions {
    /// Restore under this address instead of the file's.
    pub as_slug: Option<String>,
    /// Replace an event that already lives at the address (its data is deleted first).
    pub replace: bool,
    /// The restored event's name. By default the file's, or, when another event here already
    /// has that name, the file's with "(restored <date>)" after it, so the two are told apart.
    pub name: Option<String>,
}

/// A backup file read and checked, with what the person restoring it should know.
#[derive(Debug, Clone, PartialEq)]
pub struct Parsed {
    pub backup: Backup,
    /// Said alongside a successful restore (a file too old to carry a digest).
    pub warnings: Vec<String>,
}

/// What a restore did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Restored {
    pub event: Event,
    pub replaced: bool,
    pub players: usize,
    pub rounds: usize,
    pub reports: usize,
    /// Accounts the file names that this server did not have: made without a usable
    /// password (an administrator sets one before they can sign in).
    pub created_accounts: Vec<String>,
    /// Accounts the file names that this server has, matched by user name.
    pub matched_accounts: Vec<String>,
    /// What the person restoring should know (a file without a digest).
    pub warnings: Vec<String>,
}

#[derive(Debug, thiserror::Error)]
pub enum RestoreError {
    #[error("The file is not a text file; a Mentat backup is JSON text.")]
    NotText,
    #[error(
        "The file is cut off (it ends at line {line}, column {column}): it was not copied or downloaded whole. Use the whole file."
    )]
    Truncated { line: usize, column: usize },
    #[error("The file is damaged at line {line}, column {column}: {message}.")]
    Damaged {
        line: usize,
        column: usize,
        message: String,
    },
    #[error("This is not a Mentat event backup: {0}")]
    Foreign(String),
    #[error(
        "This backup was written by a newer Mentat (file format {0}); this Mentat reads format {VERSION}. Restore it with the newer Mentat, or update this one."
    )]
    Newer(u64),
    #[error(
        "The file was changed after Mentat wrote it: its content no longer matches the digest it carries ({0}). A value edited by hand, or a file damaged in copying, gives this. Restore an unaltered copy of the backup."
    )]
    Altered(String),
    #[error(
        "The file says it is backup format {0} but carries no digest, which every file of that format has: it was edited after Mentat wrote it. Restore an unaltered copy of the backup."
    )]
    DigestMissing(u64),
    #[error("{0}")]
    BadName(String),
    #[error("The backup does not hold together, so it was not restored: {}", .0.join(" "))]
    Inconsistent(Vec<String>),
    #[error(
        "An event already lives at /events/{0}. Restore it under another address, or say explicitly that it is to be replaced (its data will be deleted)."
    )]
    Exists(String),
    #[error(
        "{0:?} is not an event address: use lowercase letters, digits and dashes (at most 60), such as gencon-2026."
    )]
    BadSlug(String),
    #[error("{0}")]
    Forbidden(String),
    #[error("database error")]
    Database(#[from] sqlx::Error),
}

impl RestoreError {
    /// The form field a web restore shows the message at.
    pub fn field(&self) -> Option<&'static str> {
        match self {
            Self::Exists(_) => Some("replace"),
            Self::BadSlug(_) => Some("as_slug"),
            Self::BadName(_) => Some("name"),
            Self::Database(_) | Self::Forbidden(_) => None,
            _ => Some("file"),
        }
    }
}

fn is_slug(slug: &str) -> bool {
    !slug.is_empty()
        && slug.len() <= 60
        && !slug.starts_with('-')
        && !slug.ends_with('-')
        && !slug.contains("--")
        && slug
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

/// Reads and checks a backup file without touching the database: its digest first, then
/// its shape, then whether it agrees with itself.
pub fn parse(bytes: &[u8]) -> Result<Parsed, RestoreError> {
    let text = std::str::from_utf8(bytes).map_err(|_| RestoreError::NotText)?;
    let value: Value = serde_json::from_str(text.trim_start_matches('\u{feff}')).map_err(|e| {
        if e.is_eof() {
            RestoreError::Truncated {
                line: e.line(),
                column: e.column(),
            }
        } else {
            let message = e.to_string();
            // serde_json ends its message with the place; the error says it already.
            let message = message
                .split(" at line ")
                .next()
                .unwrap_or(&message)
                .to_owned();
            RestoreError::Damaged {
                line: e.line(),
                column: e.column(),
                message,
            }
        }
    })?;
    let Some(object) = value.as_object() else {
        return Err(RestoreError::Foreign(
            "it is JSON, but not an object with a \"format\" field.".into(),
        ));
    };
    match object.get("format").and_then(Value::as_str) {
        Some(FORMAT) => {}
        Some(other) => {
            return Err(RestoreError::Foreign(format!(
                "its \"format\" is {other:?}, not {FORMAT:?}."
            )));
        }
        None => {
            return Err(RestoreError::Foreign(format!(
                "it has no \"format\": {FORMAT:?} field (is it an export rather than a backup?)."
            )));
        }
    }
    let version = match object.get("version").and_then(Value::as_u64) {
        Some(v) if v <= u64::from(VERSION) && v >= 1 => v,
        Some(v) if v > u64::from(VERSION) => return Err(RestoreError::Newer(v)),
        _ => {
            return Err(RestoreError::Foreign(
                "its \"version\" is not a format version number.".into(),
            ));
        }
    };
    let mut warnings = Vec::new();
    match object.get("digest") {
        Some(Value::String(stated)) => {
            let computed = super::digest::of(&value);
            if *stated != computed {
                return Err(RestoreError::Altered(format!(
                    "it carries {}, its content gives {}",
                    short(stated),
                    short(&computed)
                )));
            }
        }
        Some(_) => {
            return Err(RestoreError::Altered(
                "its \"digest\" is not a digest".into(),
            ));
        }
        None if version >= 2 => return Err(RestoreError::DigestMissing(version)),
        None => warnings.push(format!(
            "This file is from an older Mentat (backup format {version}) and carries no digest, \
             so Mentat cannot tell whether it was changed since it was written. It was restored \
             as it reads: check its players, reports and standings."
        )),
    }
    let backup: Backup = serde_path_to_error::deserialize(value).map_err(|e| {
        RestoreError::Inconsistent(vec![format!(
            "its {} is not valid ({}).",
            e.path(),
            e.inner()
        )])
    })?;
    let problems = check(&backup);
    if problems.is_empty() {
        Ok(Parsed { backup, warnings })
    } else {
        Err(RestoreError::Inconsistent(problems))
    }
}

/// A digest as a message shows it: its kind and first 12 hex digits.
fn short(digest: &str) -> String {
    let cut: String = digest
        .chars()
        .take(super::digest::PREFIX.len() + 12)
        .collect();
    if cut.len() < digest.len() {
        format!("{cut}…")
    } else {
        cut
    }
}

/// Everything the file must agree with itself about, as sentences naming where.
fn check(b: &Backup) -> Vec<String> {
    let mut problems = Vec::new();
    let mut problem = |text: String| {
        if problems.len() < 10 {
            problems.push(text);
        }
    };
    if b.event.ruleset.parse::<Ruleset>().is_err() {
        problem(format!(
            "the event's ruleset {:?} is unknown.",
            b.event.ruleset
        ));
    }
    match serde_json::from_value::<RulingOptions>(b.event.options.clone()) {
        Ok(options) => {
            if let Err(e) = options.check() {
                problem(format!("the event's ruling options are not valid: {e}."));
            }
        }
        Err(e) => problem(format!("the event's ruling options are not valid: {e}.")),
    }
    if let Err(e) = crate::public_address::PublicAddress::parse(&b.event.public_url) {
        problem(format!("the event's public address is not valid: {e}"));
    }
    let mut players: HashMap<FilePlayer, &str> = HashMap::new();
    let mut names = HashSet::new();
    let mut emails = HashSet::new();
    for p in &b.players {
        if players.insert(p.player, &p.name).is_some() {
            problem(format!("player number {} appears twice.", p.player));
        }
        if PlayerName::parse(&p.name).is_err() {
            problem(format!(
                "player {}'s name {:?} is not a valid name.",
                p.player, p.name
            ));
        }
        if !names.insert(p.name.as_str()) {
            problem(format!(
                "the name {:?} appears twice among the players.",
                p.name
            ));
        }
        if let Some(email) = &p.email
            && !emails.insert(email.to_lowercase())
        {
            problem(format!(
                "the email address {email} appears twice among the players."
            ));
        }
    }
    let known = |p: FilePlayer| players.contains_key(&p);
    let mut staff = HashSet::new();
    for s in &b.staff {
        if !staff.insert(s.account.to_lowercase()) {
            problem(format!("the account {} has two roles.", s.account));
        }
    }
    let mut round_numbers = BTreeSet::new();
    for r in &b.rounds {
        let at = format!("round {}", r.number);
        if r.number < 1 || !round_numbers.insert(r.number) {
            problem(format!("{at} is numbered twice or below 1."));
        }
        let mut placed: HashSet<FilePlayer> = HashSet::new();
        let mut table_numbers = HashSet::new();
        for bye in &r.byes {
            if !known(*bye) {
                problem(format!(
                    "{at} gives a bye to player {bye}, who is not among the players."
                ));
            }
            if !placed.insert(*bye) {
                problem(format!("{at} places player {bye} twice."));
            }
        }
        for t in &r.tables {
            let at = format!("{at}, table {}", t.number);
            if t.number < 1 || !table_numbers.insert(t.number) {
                problem(format!("{at} is numbered twice or below 1."));
            }
            let mut seat_numbers = HashSet::new();
            let seated: HashSet<FilePlayer> = t.seats.iter().map(|s| s.player).collect();
            for s in &t.seats {
                if !seat_numbers.insert(s.seat) {
                    problem(format!("{at} has seat {} twice.", s.seat));
                }
                if !known(s.player) {
                    problem(format!(
                        "{at}, seat {}: player {} is not among the players.",
                        s.seat, s.player
                    ));
                }
                if !placed.insert(s.player) {
                    problem(format!(
                        "{at}: player {} is placed twice in the round.",
                        s.player
                    ));
                }
                for code in s.faction.iter().chain(s.offered.iter().flatten()) {
                    if dune::Faction::from_code(code).is_none() {
                        problem(format!("{at}, seat {}: {code:?} is not a faction.", s.seat));
                    }
                }
            }
            if !numbered_from_one(t.logs.iter().map(|l| l.revision)) {
                problem(format!(
                    "{at}: its game log's revisions are not 1, 2, … without gaps."
                ));
            }
            let mut turns: BTreeMap<i16, Vec<i32>> = BTreeMap::new();
            for a in &t.win_attempts {
                turns.entry(a.turn).or_default().push(a.revision);
                for p in a.players.iter().chain(a.evidence.keys()) {
                    if !seated.contains(p) {
                        problem(format!(
                            "{at}, turn {}: player {p} made a win attempt but does not sit there.",
                            a.turn
                        ));
                    }
                }
            }
            for (turn, revisions) in turns {
                if !numbered_from_one(revisions) {
                    problem(format!(
                        "{at}, turn {turn}: its records are not revisions 1, 2, … without gaps."
                    ));
                }
            }
            if !numbered_from_one(t.reports.iter().map(|r| r.revision)) {
                problem(format!(
                    "{at}: its reports are not revisions 1, 2, … without gaps."
                ));
            }
            for rep in &t.reports {
                let at = format!("{at}, report revision {}", rep.revision);
                if tournament::report::Ending::from_code(&rep.ended).is_none() {
                    problem(format!("{at}: {:?} is not how a game ends.", rep.ended));
                }
                let named = rep
                    .seats
                    .iter()
                    .map(|s| s.player_id.get())
                    .chain(rep.judge_draw)
                    .chain(rep.confirmations.iter().map(|c| c.player))
                    .chain(rep.dispute_steps.iter().map(|d| d.player));
                for p in named {
                    if !seated.contains(&p) {
                        problem(format!("{at}: player {p} does not sit at the table."));
                    }
                }
            }
            let any_final = t.reports.iter().any(|r| r.final_at.is_some());
            if any_final != t.reported_at.is_some() {
                problem(format!(
                    "{at}: {} but the table is {}marked reported.",
                    if any_final {
                        "a report is final"
                    } else {
                        "no report is final"
                    },
                    if t.reported_at.is_some() { "" } else { "not " }
                ));
            }
        }
    }
    if let Some(f) = &b.finals {
        for p in f
            .finalists
            .iter()
            .chain(&f.tied)
            .chain(f.drawn.iter().flatten())
        {
            if !known(*p) {
                problem(format!(
                    "the finals name player {p}, who is not among the players."
                ));
            }
        }
    }
    for s in &b.standings {
        if !known(s.player) {
            problem(format!(
                "the standings name player {}, who is not among the players.",
                s.player
            ));
        }
    }
    problems
}

/// Every account the file names.
/// Whether revisions, in any order, are 1, 2, … n without gaps or repeats.
fn numbered_from_one(revisions: impl IntoIterator<Item = i32>) -> bool {
    let mut revisions: Vec<i32> = revisions.into_iter().collect();
    revisions.sort_unstable();
    revisions
        .iter()
        .copied()
        .eq(1..=i32::try_from(revisions.len()).unwrap_or(0))
}

fn accounts(b: &Backup) -> BTreeSet<String> {
    let mut all = BTreeSet::new();
    let mut add = |name: &Option<String>| {
        if let Some(n) = name {
            all.insert(n.clone());
        }
    };
    add(&b.event.created_by);
    for s in &b.staff {
        add(&Some(s.account.clone()));
        add(&s.granted_by);
    }
    for p in &b.players {
        add(&p.account);
    }
    for r in &b.rounds {
        add(&r.drawn_by);
        for t in &r.tables {
            for a in &t.win_attempts {
                add(&a.recorded_by);
            }
            for l in &t.logs {
                add(&l.saved_by);
            }
            for rep in &t.reports {
                add(&rep.created_by);
                add(&rep.finalised_by);
                for c in &rep.confirmations {
                    add(&c.by);
                }
                for d in &rep.dispute_steps {
                    add(&d.by);
                }
            }
        }
    }
    if let Some(f) = &b.finals {
        add(&f.closed_by);
        add(&f.drawn_by);
    }
    for a in &b.audit {
        add(&a.actor_account);
    }
    all
}

/// A database refusal as the reason the file was refused.
fn rejected(error: sqlx::Error) -> RestoreError {
    match &error {
        sqlx::Error::Database(e)
            if e.constraint().is_some()
                || e.code()
                    .is_some_and(|c| c.starts_with("22") || c.starts_with("23")) =>
        {
            RestoreError::Inconsistent(vec![format!(
                "it breaks one of Mentat's rules for stored data ({}{}).",
                e.message(),
                e.constraint().map(|c| format!(", {c}")).unwrap_or_default()
            )])
        }
        _ => RestoreError::Database(error),
    }
}

/// Restores the event in `bytes`. `actor` is who restores from the web (`None`: the command
/// line, which has the database already): a new event needs a site administrator, replacing
/// one needs its organiser.
pub async fn restore(
    pool: &PgPool,
    actor: Option<&Actor>,
    bytes: &[u8],
    options: RestoreOptions,
) -> Result<Restored, RestoreError> {
    let Parsed { backup, warnings } = parse(bytes)?;
    let slug = options
        .as_slug
        .as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .unwrap_or(&backup.event.slug)
        .to_owned();
    if !is_slug(&slug) {
        return Err(RestoreError::BadSlug(slug));
    }
    let mut tx = pool.begin().await?;
    let existing: Option<(EventId, String)> =
        sqlx::query_as("SELECT id, name FROM events WHERE slug = $1 FOR UPDATE")
            .bind(&slug)
            .fetch_optional(&mut *tx)
            .await?;
    if let Some(actor) = actor {
        match &existing {
            Some((id, _)) => {
                roles::authorize(pool, Some(actor), *id, Action::ManageStaff)
                    .await
                    .map_err(|_| {
                        RestoreError::Forbidden(format!(
                            "Only the organisers of the event at /events/{slug} can replace it."
                        ))
                    })?;
            }
            None if !actor.is_admin => {
                return Err(RestoreError::Forbidden(
                    "Only site administrators add events; restore over an event you organise, or ask an administrator.".into(),
                ));
            }
            None => {}
        }
    }
    let replaced = match existing {
        Some(_) if !options.replace => return Err(RestoreError::Exists(slug)),
        Some((id, name)) => {
            // Rounds first: their seats and reports name players, whose rows go with the event.
            sqlx::query("DELETE FROM rounds WHERE event_id = $1")
                .bind(id)
                .execute(&mut *tx)
                .await?;
            sqlx::query("DELETE FROM events WHERE id = $1")
                .bind(id)
                .execute(&mut *tx)
                .await?;
            Some(name)
        }
        None => None,
    };
    let name = restored_name(&mut tx, &backup, options.name.as_deref()).await?;
    let (users, created, matched) = account_ids(&mut tx, &backup).await?;
    let event = write(&mut tx, &backup, &slug, &name, &users)
        .await
        .map_err(rejected)?;
    // The file's standings must come out of its reports exactly.
    let standings = crate::results::standings::event_standings_on(&mut tx, event.id).await?;
    let ids: HashMap<String, FilePlayer> = backup
        .players
        .iter()
        .map(|p| (p.name.clone(), p.player))
        .collect();
    let now: Vec<StandingCheck> = standings
        .rows
        .iter()
        .map(|r| StandingCheck {
            rank: r.rank,
            player: ids.get(&r.player).copied().unwrap_or_default(),
            points: r.points.clone(),
            best_game: r.best.map(|b| b.dotted()),
            finals: crate::export::finals_code(r.finalist).to_owned(),
        })
        .collect();
    if now != backup.standings {
        let differences: Vec<String> = backup
            .standings
            .iter()
            .zip(now.iter().map(Some).chain(std::iter::repeat(None)))
            .filter(|(was, is)| Some(*was) != *is)
            .take(3)
            .map(|(was, is)| {
                let name = |p: FilePlayer| {
                    backup
                        .players
                        .iter()
                        .find(|x| x.player == p)
                        .map_or_else(|| format!("player {p}"), |x| x.name.clone())
                };
                match is {
                    Some(is) => format!(
                        "the file has {} at rank {} with {} points, its reports give {} at rank {} with {}.",
                        name(was.player), was.rank, was.points, name(is.player), is.rank, is.points
                    ),
                    None => format!("the file has {} at rank {}, its reports do not.", name(was.player), was.rank),
                }
            })
            .collect();
        let mut problems = vec![
            "its reports do not give the standings it recorded (was a report edited?):".to_owned(),
        ];
        problems.extend(if differences.is_empty() {
            vec![format!(
                "it records {} rows, its reports give {}.",
                backup.standings.len(),
                now.len()
            )]
        } else {
            differences
        });
        return Err(RestoreError::Inconsistent(problems));
    }
    let detail = serde_json::json!({
        "from": backup.event.slug, "written_at": backup.written_at, "written_by": backup.written_by,
        "replaced": replaced.is_some(), "accounts_created": created,
    });
    let mut entry = audit::Entry::new(audit::Action::EventRestored);
    entry.actor_id = actor.map(|a| a.user_id);
    entry.actor = Some(actor.map_or("mentat restore (command line)", |a| a.username.as_str()));
    entry.event_id = Some(event.id);
    entry.subject = Some(&event.name);
    entry.detail = detail.clone();
    audit::record(&mut *tx, entry.clone()).await?;
    if replaced.is_some() {
        // The replaced event's own log went with it: the server's log keeps the replacement.
        entry.event_id = None;
        entry.subject = Some(&slug);
        audit::record(&mut *tx, entry).await?;
    }
    if let Some(actor) = actor {
        // Whoever restores can see what they restored.
        sqlx::query(
            "INSERT INTO event_roles (event_id, user_id, role, granted_by) VALUES ($1, $2, 'organiser', $2) \
             ON CONFLICT (event_id, user_id) DO NOTHING",
        )
        .bind(event.id)
        .bind(actor.user_id)
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await?;
    Ok(Restored {
        event,
        replaced: replaced.is_some(),
        players: backup.players.len(),
        rounds: backup.rounds.len(),
        reports: backup
            .rounds
            .iter()
            .flat_map(|r| &r.tables)
            .map(|t| t.reports.len())
            .sum(),
        created_accounts: created,
        matched_accounts: matched,
        warnings,
    })
}

/// The restored event's name: the one asked for, else the file's, told apart with "(restored
/// <date>)" when another event here already has it (the event being replaced is gone by now).
async fn restored_name(
    tx: &mut PgConnection,
    backup: &Backup,
    asked: Option<&str>,
) -> Result<String, RestoreError> {
    if let Some(name) = asked.map(str::trim).filter(|n| !n.is_empty()) {
        if !(3..=120).contains(&name.chars().count()) || name.chars().any(char::is_control) {
            return Err(RestoreError::BadName(
                "Give the restored event a name of 3 to 120 characters.".into(),
            ));
        }
        return Ok(name.to_owned());
    }
    let taken: bool = sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM events WHERE name = $1)")
        .bind(&backup.event.name)
        .fetch_one(&mut *tx)
        .await?;
    if !taken {
        return Ok(backup.event.name.clone());
    }
    let today: chrono::NaiveDate = sqlx::query_scalar("SELECT (now() AT TIME ZONE 'UTC')::date")
        .fetch_one(&mut *tx)
        .await?;
    let suffix = format!(" (restored {today})");
    // The name stays within the 120 characters a name may have.
    let keep = 120usize.saturating_sub(suffix.chars().count());
    let base: String = backup.event.name.chars().take(keep).collect();
    Ok(format!("{}{suffix}", base.trim_end()))
}

/// The id of every account the file names: found by user name, or made without a usable
/// password (a random one nobody is told).
async fn account_ids(
    tx: &mut PgConnection,
    backup: &Backup,
) -> Result<(HashMap<String, UserId>, Vec<String>, Vec<String>), RestoreError> {
    let mut ids = HashMap::new();
    let (mut created, mut matched) = (Vec::new(), Vec::new());
    for name in accounts(backup) {
        let found: Option<UserId> =
            sqlx::query_scalar("SELECT id FROM users WHERE lower(username) = lower($1)")
                .bind(&name)
                .fetch_optional(&mut *tx)
                .await?;
        let id = match found {
            Some(id) => {
                matched.push(name.clone());
                id
            }
            None => {
                let valid = UserName::parse(&name).map_err(|e| {
                    RestoreError::Inconsistent(vec![format!(
                        "the account name {name:?} is not valid: {e}"
                    )])
                })?;
                let mut secret = [0u8; 32];
                getrandom::fill(&mut secret).map_err(|e| {
                    RestoreError::Database(sqlx::Error::Protocol(format!("no randomness: {e}")))
                })?;
                let unusable = Password::new(
                    secret
                        .iter()
                        .map(|b| format!("{b:02x}"))
                        .collect::<String>(),
                );
                let hash = password::hash(unusable)
                    .await
                    .map_err(|e| RestoreError::Database(sqlx::Error::Protocol(e.to_string())))?;
                created.push(name.clone());
                sqlx::query_scalar(
                    "INSERT INTO users (username, password_hash) VALUES ($1, $2) RETURNING id",
                )
                .bind(valid.as_str())
                .bind(hash)
                .fetch_one(&mut *tx)
                .await?
            }
        };
        ids.insert(name, id);
    }
    Ok((ids, created, matched))
}

/// Writes the checked file as the event at `slug`.
async fn write(
    tx: &mut PgConnection,
    b: &Backup,
    slug: &str,
    name: &str,
    users: &HashMap<String, UserId>,
) -> Result<Event, sqlx::Error> {
    let user = |name: &Option<String>| name.as_ref().and_then(|n| users.get(n)).copied();
    let e = &b.event;
    let event: Event = sqlx::query_as(
        "INSERT INTO events (slug, name, created_by, created_at, starts_on, ends_on, venue, ruleset, \
           options, qualifying_rounds, version, public_url, restored_from, restored_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, now()) \
         RETURNING id, slug, name, created_at",
    )
    .bind(slug)
    .bind(name)
    .bind(user(&e.created_by))
    .bind(e.created_at)
    .bind(e.starts_on)
    .bind(e.ends_on)
    .bind(&e.venue)
    .bind(&e.ruleset)
    .bind(&e.options)
    .bind(e.qualifying_rounds)
    .bind(e.version)
    // Checked before (`check`); stored as the settings form stores it.
    .bind(
        crate::public_address::PublicAddress::parse(&e.public_url)
            .ok()
            .flatten()
            .map(|a| a.to_string())
            .unwrap_or_default(),
    )
    // A copy of a copy remembers the first event.
    .bind(e.restored_from.as_deref().unwrap_or(&e.slug))
    .fetch_one(&mut *tx)
    .await?;
    for s in &b.staff {
        sqlx::query(
            "INSERT INTO event_roles (event_id, user_id, role, granted_by, granted_at) VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(event.id)
        .bind(users.get(&s.account).copied())
        .bind(s.role)
        .bind(user(&s.granted_by))
        .bind(s.granted_at)
        .execute(&mut *tx)
        .await?;
    }
    let mut players: HashMap<FilePlayer, PlayerId> = HashMap::new();
    for p in &b.players {
        let id: PlayerId = sqlx::query_scalar(
            "INSERT INTO players (event_id, name, email, club, alternate, checked_in, \
               entered_after_round, dropped_after_round, dropped_at, version, created_at, user_id, \
               sort_as) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) RETURNING id",
        )
        .bind(event.id)
        .bind(&p.name)
        .bind(&p.email)
        .bind(&p.club)
        .bind(p.alternate)
        .bind(p.checked_in)
        .bind(p.entered_after_round)
        .bind(p.dropped_after_round)
        .bind(p.dropped_at)
        .bind(p.version)
        .bind(p.created_at)
        .bind(user(&p.account))
        .bind(&p.sort_as)
        .fetch_one(&mut *tx)
        .await?;
        players.insert(p.player, id);
    }
    // Checked before writing: every player number the file uses is among its players.
    let id = |p: FilePlayer| players.get(&p).copied().unwrap_or(PlayerId(0));
    let ids = |ps: &[FilePlayer]| ps.iter().map(|p| id(*p)).collect::<Vec<_>>();
    for r in &b.rounds {
        let round_id: i64 = sqlx::query_scalar(
            "INSERT INTO rounds (event_id, number, seed, ruleset, options, quality, override_reason, \
               drawn_at, drawn_by, started_at, version, final) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING id",
        )
        .bind(event.id)
        .bind(r.number)
        .bind(r.seed)
        .bind(&r.ruleset)
        .bind(&r.options)
        .bind(&r.quality)
        .bind(&r.override_reason)
        .bind(r.drawn_at)
        .bind(user(&r.drawn_by))
        .bind(r.started_at)
        .bind(r.version)
        .bind(r.final_table)
        .fetch_one(&mut *tx)
        .await?;
        for bye in &r.byes {
            sqlx::query("INSERT INTO round_byes (round_id, player_id) VALUES ($1, $2)")
                .bind(round_id)
                .bind(id(*bye))
                .execute(&mut *tx)
                .await?;
        }
        for t in &r.tables {
            let table_id: i64 = sqlx::query_scalar(
                "INSERT INTO game_tables (round_id, number, clock_started_at, clock_paused_at, \
                   clock_paused_ms, clock_extension_ms, reported_at, version) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id",
            )
            .bind(round_id)
            .bind(t.number)
            .bind(t.clock_started_at)
            .bind(t.clock_paused_at)
            .bind(t.clock_paused_ms)
            .bind(t.clock_extension_ms)
            .bind(t.reported_at)
            .bind(t.version)
            .fetch_one(&mut *tx)
            .await?;
            for s in &t.seats {
                sqlx::query(
                    "INSERT INTO seats (table_id, round_id, seat, circle, player_id, faction, offered) \
                     VALUES ($1, $2, $3, $4, $5, $6, $7)",
                )
                .bind(table_id)
                .bind(round_id)
                .bind(s.seat)
                .bind(s.circle)
                .bind(id(s.player))
                .bind(&s.faction)
                .bind(&s.offered)
                .execute(&mut *tx)
                .await?;
            }
            for a in &t.win_attempts {
                let evidence: serde_json::Map<String, Value> = a
                    .evidence
                    .iter()
                    .map(|(p, codes)| (id(*p).to_string(), serde_json::json!(codes)))
                    .collect();
                sqlx::query(
                    "INSERT INTO win_attempts (table_id, turn, revision, players, evidence, reason, \
                       recorded_by, recorded_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
                )
                .bind(table_id)
                .bind(a.turn)
                .bind(a.revision)
                .bind(ids(&a.players))
                .bind(Value::Object(evidence))
                .bind(&a.reason)
                .bind(user(&a.recorded_by))
                .bind(a.recorded_at)
                .execute(&mut *tx)
                .await?;
            }
            for l in &t.logs {
                sqlx::query(
                    "INSERT INTO game_logs (table_id, revision, body, reason, source, created_by, \
                       created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)",
                )
                .bind(table_id)
                .bind(l.revision)
                .bind(&l.body)
                .bind(&l.reason)
                .bind(&l.source)
                .bind(user(&l.saved_by))
                .bind(l.saved_at)
                .execute(&mut *tx)
                .await?;
            }
            for rep in &t.reports {
                let seats: Vec<SeatResult> = rep
                    .seats
                    .iter()
                    .map(|s| SeatResult {
                        player_id: id(s.player_id.get()),
                        ..*s
                    })
                    .collect();
                let seats =
                    serde_json::to_value(&seats).map_err(|e| sqlx::Error::Encode(Box::new(e)))?;
                let report_id: i64 = sqlx::query_scalar(
                    "INSERT INTO game_reports (table_id, revision, ended, last_turn, seats, judge_draw, \
                       reason, created_by, created_at, final_at, finalised_by, prediction) \
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING id",
                )
                .bind(table_id)
                .bind(rep.revision)
                .bind(&rep.ended)
                .bind(rep.last_turn)
                .bind(seats)
                .bind(rep.judge_draw.map(id))
                .bind(&rep.reason)
                .bind(user(&rep.created_by))
                .bind(rep.created_at)
                .bind(rep.final_at)
                .bind(user(&rep.finalised_by))
                .bind(
                    rep.prediction
                        .map(serde_json::to_value)
                        .transpose()
                        .map_err(|e| sqlx::Error::Encode(Box::new(e)))?,
                )
                .fetch_one(&mut *tx)
                .await?;
                for c in &rep.confirmations {
                    sqlx::query(
                        "INSERT INTO report_confirmations (report_id, player_id, agrees, note, by_user, at) \
                         VALUES ($1, $2, $3, $4, $5, $6)",
                    )
                    .bind(report_id)
                    .bind(id(c.player))
                    .bind(c.agrees)
                    .bind(&c.note)
                    .bind(user(&c.by))
                    .bind(c.at)
                    .execute(&mut *tx)
                    .await?;
                }
                for d in &rep.dispute_steps {
                    sqlx::query(
                        "INSERT INTO dispute_steps (report_id, player_id, step, note, finalised, by_user, at) \
                         VALUES ($1, $2, $3, $4, $5, $6, $7)",
                    )
                    .bind(report_id)
                    .bind(id(d.player))
                    .bind(&d.step)
                    .bind(&d.note)
                    .bind(d.finalised)
                    .bind(user(&d.by))
                    .bind(d.at)
                    .execute(&mut *tx)
                    .await?;
                }
            }
        }
    }
    if let Some(f) = &b.finals {
        sqlx::query(
            "INSERT INTO finals (event_id, closed_at, closed_by, finalists, tied, open_seats, draw_seed, \
               drawn, drawn_by, drawn_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
        )
        .bind(event.id)
        .bind(f.closed_at)
        .bind(user(&f.closed_by))
        .bind(ids(&f.finalists))
        .bind(ids(&f.tied))
        .bind(f.open_seats)
        .bind(f.draw_seed)
        .bind(f.drawn.as_deref().map(ids))
        .bind(user(&f.drawn_by))
        .bind(f.drawn_at)
        .execute(&mut *tx)
        .await?;
    }
    for a in &b.audit {
        sqlx::query(
            "INSERT INTO audit_log (at, actor, actor_id, event_id, action, subject, detail) \
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(a.at)
        .bind(&a.actor)
        .bind(user(&a.actor_account))
        .bind(event.id)
        .bind(&a.action)
        .bind(&a.subject)
        .bind(&a.detail)
        .execute(&mut *tx)
        .await?;
    }
    Ok(event)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_are_checked() {
        assert!(is_slug("gencon-2026"));
        for bad in ["", "GenCon", "a--b", "-a", "a-", "a b", &"a".repeat(61)] {
            assert!(!is_slug(bad), "{bad:?}");
        }
    }

    #[test]
    fn foreign_damaged_truncated_and_newer_files_are_told_apart() {
        assert!(matches!(parse(b"\xff\xfe"), Err(RestoreError::NotText)));
        assert!(matches!(
            parse(br#"{"format": "mentat-event-backup", "version": 1, "event": {"#),
            Err(RestoreError::Truncated { line: 1, .. })
        ));
        assert!(matches!(
            parse(b"{\"format\": \"mentat-event-backup\",\n \"version\": 1,,}"),
            Err(RestoreError::Damaged { line: 2, .. })
        ));
        assert!(matches!(parse(b"[1, 2]"), Err(RestoreError::Foreign(_))));
        assert!(matches!(
            parse(br#"[{"rank": 1, "player": "A"}]"#),
            Err(RestoreError::Foreign(_))
        ));
        assert!(matches!(
            parse(br#"{"format": "tabbycat"}"#),
            Err(RestoreError::Foreign(m)) if m.contains("tabbycat")
        ));
        assert!(matches!(
            parse(br#"{"format": "mentat-event-backup", "version": 7}"#),
            Err(RestoreError::Newer(7))
        ));
        assert!(matches!(
            parse(br#"{"format": "mentat-event-backup", "version": 1}"#),
            Err(RestoreError::Inconsistent(m)) if m[0].contains("written_at") || m[0].contains("missing")
        ));
    }
}
