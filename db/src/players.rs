//! An event's players: registration (one by one or from CSV), check-in, late entry and drops.
//!
//! A player's name is a [`PlayerName`], the identity draws, reports and standings use; it is
//! unique in the event. Dropping a player never touches their past seats: the rounds they
//! played stay as they were, they are just not drawn again.

use serde::Serialize;
use sqlx::{PgPool, Postgres, Transaction};
use tournament::PlayerName;
use tournament::ids::{EventId, PlayerId, UserId};

use crate::{accounts::parse_email, audit, roles::Actor};

/// Longest club name accepted.
pub const MAX_CLUB_CHARS: usize = 100;
/// The most lines one CSV import takes; far above any event.
pub const MAX_CSV_LINES: usize = 5000;
/// The largest CSV text accepted, in bytes.
pub const MAX_CSV_BYTES: usize = 512 * 1024;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, sqlx::FromRow)]
pub struct Player {
    pub id: PlayerId,
    pub name: String,
    pub email: Option<String>,
    pub club: Option<String>,
    pub alternate: bool,
    pub checked_in: bool,
    pub entered_after_round: i32,
    pub dropped_after_round: Option<i32>,
    pub version: i32,
    /// The account the player signs in with to confirm their reports.
    pub user_id: Option<UserId>,
}

impl Player {
    pub fn is_late_entry(&self) -> bool {
        self.entered_after_round > 0
    }

    pub fn is_dropped(&self) -> bool {
        self.dropped_after_round.is_some()
    }
}

const PLAYER_COLUMNS: &str = "id, name, email, club, alternate, checked_in, entered_after_round, \
                              dropped_after_round, version, user_id";

/// A player to register, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewPlayer {
    pub name: PlayerName,
    pub email: Option<String>,
    pub club: Option<String>,
}

/// A bad value in a player's details, and the field it is in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldProblem {
    pub field: &'static str,
    pub message: String,
}

impl NewPlayer {
    pub fn parse(name: &str, email: &str, club: &str) -> Result<NewPlayer, FieldProblem> {
        let name = PlayerName::parse(name).map_err(|e| FieldProblem {
            field: "name",
            message: capitalise(&e.to_string()),
        })?;
        let email = parse_email(email).map_err(|message| FieldProblem {
            field: "email",
            message,
        })?;
        let club = club.trim();
        if club.chars().count() > MAX_CLUB_CHARS || club.chars().any(char::is_control) {
            return Err(FieldProblem {
                field: "club",
                message: format!(
                    "A club name is at most {MAX_CLUB_CHARS} characters, without control characters."
                ),
            });
        }
        Ok(NewPlayer {
            name,
            email,
            club: (!club.is_empty()).then(|| club.to_owned()),
        })
    }
}

fn capitalise(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect::<String>() + ".",
        None => String::new(),
    }
}

#[derive(Debug, thiserror::Error)]
pub enum PlayerError {
    #[error("{0} is already registered in this event.")]
    NameTaken(String),
    #[error("Another player of this event already uses the email address {0}.")]
    EmailTaken(String),
    #[error("There is no such player in this event.")]
    NotFound,
    #[error(
        "{0}'s entry changed since you loaded the page (someone else changed it first); reload to see it."
    )]
    Stale(String),
    #[error("{0} has dropped; reinstate them before checking them in.")]
    Dropped(String),
    #[error("No account is called {0:?}. Create it first (mentat user add), then link it.")]
    NoSuchAccount(String),
    #[error("The account {0:?} is already linked to another player of this event.")]
    AccountTaken(String),
    #[error("database error")]
    Database(#[from] sqlx::Error),
}

impl PlayerError {
    pub fn field(&self) -> Option<&'static str> {
        match self {
            Self::NameTaken(_) => Some("name"),
            Self::EmailTaken(_) => Some("email"),
            Self::NoSuchAccount(_) | Self::AccountTaken(_) => Some("username"),
            _ => None,
        }
    }
}

/// Locks the event against concurrent registrations and draws, and returns how many rounds are
/// drawn: a player entering after the first draw is a late entry.
async fn lock_event(
    tx: &mut Transaction<'_, Postgres>,
    event_id: EventId,
) -> Result<i32, sqlx::Error> {
    sqlx::query("SELECT id FROM events WHERE id = $1 FOR UPDATE")
        .bind(event_id)
        .execute(&mut **tx)
        .await?;
    let rounds: i64 = sqlx::query_scalar("SELECT count(*) FROM rounds WHERE event_id = $1")
        .bind(event_id)
        .fetch_one(&mut **tx)
        .await?;
    Ok(i32::try_from(rounds).unwrap_or(i32::MAX))
}

pub async fn add(
    pool: &PgPool,
    actor: &Actor,
    event_id: EventId,
    new: NewPlayer,
) -> Result<Player, PlayerError> {
    let mut tx = pool.begin().await?;
    let rounds = lock_event(&mut tx, event_id).await?;
    let inserted: Result<Player, sqlx::Error> = sqlx::query_as(&format!(
        "INSERT INTO players (event_id, name, email, club, entered_after_round) \
         VALUES ($1, $2, $3, $4, $5) RETURNING {PLAYER_COLUMNS}"
    ))
    .bind(event_id)
    .bind(new.name.as_str())
    .bind(new.email.as_deref())
    .bind(new.club.as_deref())
    .bind(rounds)
    .fetch_one(&mut *tx)
    .await;
    let player = match inserted {
        Ok(p) => p,
        Err(sqlx::Error::Database(e)) if e.constraint() == Some("players_event_name") => {
            return Err(PlayerError::NameTaken(new.name.to_string()));
        }
        Err(sqlx::Error::Database(e)) if e.constraint() == Some("players_event_email") => {
            return Err(PlayerError::EmailTaken(new.email.unwrap_or_default()));
        }
        Err(e) => return Err(e.into()),
    };
    let detail = serde_json::json!({ "late_entry": player.is_late_entry(), "club": player.club });
    audit::record(
        &mut *tx,
        audit::Entry::by(
            actor,
            audit::Action::PlayerAdded,
            event_id,
            &player.name,
            detail,
        ),
    )
    .await?;
    tx.commit().await?;
    Ok(player)
}

/// Every player of the event, alphabetically (case-insensitive).
pub async fn list(pool: &PgPool, event_id: EventId) -> Result<Vec<Player>, sqlx::Error> {
    sqlx::query_as(&format!(
        "SELECT {PLAYER_COLUMNS} FROM players WHERE event_id = $1 ORDER BY lower(name), name"
    ))
    .bind(event_id)
    .fetch_all(pool)
    .await
}

pub async fn get(
    pool: &PgPool,
    event_id: EventId,
    id: PlayerId,
) -> Result<Option<Player>, sqlx::Error> {
    sqlx::query_as(&format!(
        "SELECT {PLAYER_COLUMNS} FROM players WHERE event_id = $1 AND id = $2"
    ))
    .bind(event_id)
    .bind(id)
    .fetch_optional(pool)
    .await
}

/// A public search hit: no email, which is for the organisers only.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, sqlx::FromRow)]
pub struct Match {
    pub id: PlayerId,
    pub name: String,
    pub club: Option<String>,
}

/// Players whose name contains `query`, ignoring case; at most `limit`.
pub async fn search(
    pool: &PgPool,
    event_id: EventId,
    query: &str,
    limit: i64,
) -> Result<Vec<Match>, sqlx::Error> {
    let query = query.trim();
    if query.is_empty() {
        return Ok(Vec::new());
    }
    // strpos rather than LIKE, so '%' and '_' in a name are ordinary characters.
    sqlx::query_as(
        "SELECT id, name, club FROM players WHERE event_id = $1 AND strpos(lower(name), lower($2)) > 0 \
         ORDER BY strpos(lower(name), lower($2)), lower(name) LIMIT $3",
    )
    .bind(event_id)
    .bind(query)
    .bind(limit)
    .fetch_all(pool)
    .await
}

/// Checks a player in or out, if the entry is still as the page showed it (`version`).
pub async fn set_checked_in(
    pool: &PgPool,
    actor: &Actor,
    event_id: EventId,
    player_id: PlayerId,
    version: i32,
    checked_in: bool,
) -> Result<Player, PlayerError> {
    let mut tx = pool.begin().await?;
    let current = locked(&mut tx, event_id, player_id, version).await?;
    if checked_in && current.is_dropped() {
        return Err(PlayerError::Dropped(current.name));
    }
    let player: Player = sqlx::query_as(&format!(
        "UPDATE players SET checked_in = $2, version = version + 1 WHERE id = $1 RETURNING {PLAYER_COLUMNS}"
    ))
    .bind(player_id)
    .bind(checked_in)
    .fetch_one(&mut *tx)
    .await?;
    let action = if checked_in {
        audit::Action::PlayerCheckedIn
    } else {
        audit::Action::PlayerCheckInUndone
    };
    audit::record(
        &mut *tx,
        audit::Entry::by(actor, action, event_id, &player.name, serde_json::json!({})),
    )
    .await?;
    tx.commit().await?;
    Ok(player)
}

/// Links the player to the account `username` signs in with (or unlinks with an empty name), so
/// they can confirm their own reports; the account gets the player role in the event unless it
/// already has one.
pub async fn link_account(
    pool: &PgPool,
    actor: &Actor,
    event_id: EventId,
    player_id: PlayerId,
    version: i32,
    username: &str,
) -> Result<Player, PlayerError> {
    let mut tx = pool.begin().await?;
    let current = locked(&mut tx, event_id, player_id, version).await?;
    let username = username.trim();
    let user: Option<(UserId, String)> = if username.is_empty() {
        None
    } else {
        let found: Option<(UserId, String)> =
            sqlx::query_as("SELECT id, username FROM users WHERE lower(username) = lower($1)")
                .bind(username)
                .fetch_optional(&mut *tx)
                .await?;
        Some(found.ok_or_else(|| PlayerError::NoSuchAccount(username.to_owned()))?)
    };
    if let Some((user_id, name)) = &user {
        let taken: Option<PlayerId> = sqlx::query_scalar(
            "SELECT id FROM players WHERE event_id = $1 AND user_id = $2 AND id <> $3",
        )
        .bind(event_id)
        .bind(user_id)
        .bind(player_id)
        .fetch_optional(&mut *tx)
        .await?;
        if taken.is_some() {
            return Err(PlayerError::AccountTaken(name.clone()));
        }
        sqlx::query(
            "INSERT INTO event_roles (event_id, user_id, role, granted_by) VALUES ($1, $2, 'player', $3) \
             ON CONFLICT (event_id, user_id) DO NOTHING",
        )
        .bind(event_id)
        .bind(user_id)
        .bind(actor.user_id)
        .execute(&mut *tx)
        .await?;
    }
    let player: Player = sqlx::query_as(&format!(
        "UPDATE players SET user_id = $2, version = version + 1 WHERE id = $1 RETURNING {PLAYER_COLUMNS}"
    ))
    .bind(player_id)
    .bind(user.as_ref().map(|u| u.0))
    .fetch_one(&mut *tx)
    .await?;
    audit::record(
        &mut *tx,
        audit::Entry::by(
            actor,
            audit::Action::PlayerLinked,
            event_id,
            &current.name,
            serde_json::json!({ "account": user.as_ref().map(|u| u.1.clone()) }),
        ),
    )
    .await?;
    tx.commit().await?;
    Ok(player)
}

/// The player row, locked, if it belongs to the event and still has `version`.
async fn locked(
    tx: &mut Transaction<'_, Postgres>,
    event_id: EventId,
    player_id: PlayerId,
    version: i32,
) -> Result<Player, PlayerError> {
    let current: Option<Player> = sqlx::query_as(&format!(
        "SELECT {PLAYER_COLUMNS} FROM players WHERE event_id = $1 AND id = $2 FOR UPDATE"
    ))
    .bind(event_id)
    .bind(player_id)
    .fetch_optional(&mut **tx)
    .await?;
    let current = current.ok_or(PlayerError::NotFound)?;
    if current.version != version {
        return Err(PlayerError::Stale(current.name));
    }
    Ok(current)
}

/// Checks in every registered player who has not dropped; returns how many changed.
pub async fn check_in_all(
    pool: &PgPool,
    actor: &Actor,
    event_id: EventId,
) -> Result<u64, PlayerError> {
    let mut tx = pool.begin().await?;
    let changed = sqlx::query(
        "UPDATE players SET checked_in = true, version = version + 1 \
         WHERE event_id = $1 AND NOT checked_in AND NOT alternate AND dropped_after_round IS NULL",
    )
    .bind(event_id)
    .execute(&mut *tx)
    .await?
    .rows_affected();
    audit::record(
        &mut *tx,
        audit::Entry::by(
            actor,
            audit::Action::PlayersCheckedIn,
            event_id,
            "all players",
            serde_json::json!({ "checked_in": changed }),
        ),
    )
    .await?;
    tx.commit().await?;
    Ok(changed)
}

/// Drops a player (`dropped = true`) or takes them back. A dropped player keeps every seat they
/// had; from the next draw on they are left out.
pub async fn set_dropped(
    pool: &PgPool,
    actor: &Actor,
    event_id: EventId,
    player_id: PlayerId,
    version: i32,
    dropped: bool,
) -> Result<Player, PlayerError> {
    let mut tx = pool.begin().await?;
    let rounds = lock_event(&mut tx, event_id).await?;
    let current = locked(&mut tx, event_id, player_id, version).await?;
    if current.is_dropped() == dropped {
        // Already so: nothing to record, but the page was not stale either.
        return Ok(current);
    }
    let player: Player = sqlx::query_as(&format!(
        "UPDATE players SET dropped_after_round = CASE WHEN $2 THEN $3 END, \
         dropped_at = CASE WHEN $2 THEN now() END, checked_in = checked_in AND NOT $2, \
         version = version + 1 WHERE id = $1 RETURNING {PLAYER_COLUMNS}"
    ))
    .bind(player_id)
    .bind(dropped)
    .bind(rounds)
    .fetch_one(&mut *tx)
    .await?;
    let action = if dropped {
        audit::Action::PlayerDropped
    } else {
        audit::Action::PlayerReinstated
    };
    audit::record(
        &mut *tx,
        audit::Entry::by(
            actor,
            action,
            event_id,
            &player.name,
            serde_json::json!({ "after_round": rounds }),
        ),
    )
    .await?;
    tx.commit().await?;
    Ok(player)
}

// ---------------------------------------------------------------------------------------------
// CSV import

/// One line of a CSV import that was not imported, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Refusal {
    /// 1-based line number in the text (where the record starts).
    pub line: usize,
    /// The line as it was, for the report.
    pub text: String,
    pub reason: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CsvRow {
    pub line: usize,
    pub player: NewPlayer,
}

/// A CSV text read into players, each bad line refused with its reason. Nothing is saved.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CsvParse {
    pub rows: Vec<CsvRow>,
    pub refused: Vec<Refusal>,
}

/// What an import did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ImportReport {
    pub added: Vec<String>,
    pub refused: Vec<Refusal>,
}

#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    #[error(
        "The CSV text is empty: paste one player per line (name, then optional email and club)."
    )]
    Empty,
    #[error("The CSV text is too large: at most {MAX_CSV_LINES} lines and {} KB.", MAX_CSV_BYTES / 1024)]
    TooLarge,
    #[error("database error")]
    Database(#[from] sqlx::Error),
}

#[derive(Clone, Copy)]
enum Column {
    Name,
    Email,
    Club,
}

/// Reads `name[,email[,club]]` lines. A first line naming the columns (`name`, `email`,
/// `club`, in any order and case) sets their order. Fields may be quoted ("Smith, Jr."), and a
/// text without commas but with semicolons is read as semicolon-separated, as spreadsheets in
/// many countries write it.
pub fn parse_csv(text: &str) -> Result<CsvParse, ImportError> {
    if text.len() > MAX_CSV_BYTES {
        return Err(ImportError::TooLarge);
    }
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let delimiter = if !text.contains(',') && text.contains(';') {
        ';'
    } else {
        ','
    };
    let records = split_records(text, delimiter);
    if records.len() > MAX_CSV_LINES + 1 {
        return Err(ImportError::TooLarge);
    }
    let mut out = CsvParse::default();
    let mut columns = vec![Column::Name, Column::Email, Column::Club];
    let mut names: std::collections::HashMap<String, usize> = Default::default();
    let mut emails: std::collections::HashMap<String, usize> = Default::default();
    let mut first = true;
    for record in records {
        let refuse = |reason: String| Refusal {
            line: record.line,
            text: record.raw.clone(),
            reason,
        };
        if record.fields.iter().all(|f| f.trim().is_empty()) {
            continue;
        }
        let header = first
            && record
                .fields
                .first()
                .is_some_and(|f| f.trim().eq_ignore_ascii_case("name"));
        first = false;
        if header {
            let mut order = Vec::new();
            for field in &record.fields {
                match field.trim().to_ascii_lowercase().as_str() {
                    "name" => order.push(Column::Name),
                    "email" | "e-mail" => order.push(Column::Email),
                    "club" => order.push(Column::Club),
                    other => {
                        out.refused.push(refuse(format!(
                            "unknown column {other:?} in the header (expected name, email, club)"
                        )));
                        return Ok(CsvParse {
                            rows: Vec::new(),
                            refused: out.refused,
                        });
                    }
                }
            }
            columns = order;
            continue;
        }
        if let Some(problem) = &record.problem {
            out.refused.push(refuse(problem.clone()));
            continue;
        }
        if record.fields.len() > columns.len()
            && record.fields[columns.len()..]
                .iter()
                .any(|f| !f.trim().is_empty())
        {
            out.refused.push(refuse(format!(
                "{} fields, but a line holds at most {} (name, email, club)",
                record.fields.len(),
                columns.len()
            )));
            continue;
        }
        let (mut name, mut email, mut club) = ("", "", "");
        for (column, value) in columns.iter().zip(&record.fields) {
            match column {
                Column::Name => name = value,
                Column::Email => email = value,
                Column::Club => club = value,
            }
        }
        let player = match NewPlayer::parse(name, email, club) {
            Ok(p) => p,
            Err(problem) => {
                out.refused.push(refuse(format!(
                    "{}: {}",
                    problem.field,
                    lowercase_first(&problem.message)
                )));
                continue;
            }
        };
        if let Some(line) = names.get(player.name.as_str()) {
            out.refused
                .push(refuse(format!("{} is already on line {line}", player.name)));
            continue;
        }
        if let Some(email) = &player.email
            && let Some(line) = emails.get(&email.to_lowercase())
        {
            out.refused.push(refuse(format!(
                "the email address {email} is already on line {line}"
            )));
            continue;
        }
        names.insert(player.name.as_str().to_owned(), record.line);
        if let Some(email) = &player.email {
            emails.insert(email.to_lowercase(), record.line);
        }
        out.rows.push(CsvRow {
            line: record.line,
            player,
        });
    }
    Ok(out)
}

fn lowercase_first(text: &str) -> String {
    let text = text.trim_end_matches('.');
    let mut chars = text.chars();
    match chars.next() {
        // Acronyms stay as written: "A player name…" → "a player name…", "CSV" stays.
        Some(first) if !chars.clone().next().is_some_and(char::is_uppercase) => {
            first.to_lowercase().chain(chars).collect()
        }
        _ => text.to_owned(),
    }
}

struct Record {
    line: usize,
    raw: String,
    fields: Vec<String>,
    problem: Option<String>,
}

/// RFC 4180 records: quoted fields may hold the delimiter, doubled quotes and line breaks.
fn split_records(text: &str, delimiter: char) -> Vec<Record> {
    let mut records = Vec::new();
    let mut line = 1;
    let mut chars = text.chars().peekable();
    while chars.peek().is_some() {
        let start_line = line;
        let mut raw = String::new();
        let mut fields = Vec::new();
        let mut field = String::new();
        let mut quoted = false;
        let mut was_quoted = false;
        let mut problem = None;
        loop {
            let Some(c) = chars.next() else {
                if quoted {
                    problem = Some("a quoted field is never closed (missing \")".to_owned());
                }
                break;
            };
            if c == '\n' {
                line += 1;
            }
            if quoted {
                if c == '"' {
                    if chars.peek() == Some(&'"') {
                        chars.next();
                        raw.push_str("\"\"");
                        field.push('"');
                        continue;
                    }
                    quoted = false;
                } else {
                    field.push(c);
                }
                raw.push(c);
                continue;
            }
            match c {
                '\n' => break,
                '\r' if chars.peek() == Some(&'\n') => {}
                '"' if field.trim().is_empty() && !was_quoted => {
                    field.clear();
                    quoted = true;
                    was_quoted = true;
                    raw.push(c);
                }
                c if c == delimiter => {
                    fields.push(std::mem::take(&mut field));
                    was_quoted = false;
                    raw.push(c);
                }
                c => {
                    if was_quoted && !c.is_whitespace() && problem.is_none() {
                        problem = Some("text after a closing quote; double a quote inside a quoted field (\"\")".to_owned());
                    }
                    field.push(c);
                    raw.push(c);
                }
            }
        }
        fields.push(field);
        records.push(Record {
            line: start_line,
            raw: raw.trim_end_matches('\r').to_owned(),
            fields,
            problem,
        });
    }
    records
}

/// Imports the lines that are fine, in one transaction, and reports every line refused and why.
/// A line is either imported whole or refused; if saving fails, nothing is saved.
pub async fn import_csv(
    pool: &PgPool,
    actor: &Actor,
    event_id: EventId,
    text: &str,
) -> Result<ImportReport, ImportError> {
    let parsed = parse_csv(text)?;
    if parsed.rows.is_empty() && parsed.refused.is_empty() {
        return Err(ImportError::Empty);
    }
    let mut refused = parsed.refused;
    let mut tx = pool.begin().await?;
    let rounds = lock_event(&mut tx, event_id).await?;
    let existing: Vec<(String, Option<String>)> =
        sqlx::query_as("SELECT name, lower(email) FROM players WHERE event_id = $1")
            .bind(event_id)
            .fetch_all(&mut *tx)
            .await?;
    let names: std::collections::HashSet<&str> = existing.iter().map(|(n, _)| n.as_str()).collect();
    let emails: std::collections::HashSet<&str> =
        existing.iter().filter_map(|(_, e)| e.as_deref()).collect();
    let lines: std::collections::HashMap<usize, &str> = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim_end_matches('\r')))
        .collect();
    let mut accepted = Vec::new();
    for row in parsed.rows {
        let reason = if names.contains(row.player.name.as_str()) {
            Some(format!(
                "{} is already registered in this event",
                row.player.name
            ))
        } else if let Some(email) = &row.player.email
            && emails.contains(email.to_lowercase().as_str())
        {
            Some(format!(
                "another player of this event already uses the email address {email}"
            ))
        } else {
            None
        };
        match reason {
            Some(reason) => refused.push(Refusal {
                line: row.line,
                text: lines.get(&row.line).copied().unwrap_or_default().to_owned(),
                reason,
            }),
            None => accepted.push(row.player),
        }
    }
    refused.sort_by_key(|r| r.line);
    let names: Vec<&str> = accepted.iter().map(|p| p.name.as_str()).collect();
    let emails: Vec<Option<&str>> = accepted.iter().map(|p| p.email.as_deref()).collect();
    let clubs: Vec<Option<&str>> = accepted.iter().map(|p| p.club.as_deref()).collect();
    sqlx::query(
        "INSERT INTO players (event_id, name, email, club, entered_after_round) \
         SELECT $1, n, e, c, $5 FROM unnest($2::text[], $3::text[], $4::text[]) AS t(n, e, c)",
    )
    .bind(event_id)
    .bind(&names)
    .bind(&emails)
    .bind(&clubs)
    .bind(rounds)
    .execute(&mut *tx)
    .await?;
    audit::record(
        &mut *tx,
        audit::Entry::by(
            actor,
            audit::Action::PlayersImported,
            event_id,
            "CSV import",
            serde_json::json!({
                "added": names.len(),
                "refused": refused.iter().map(|r| format!("line {}: {}", r.line, r.reason)).collect::<Vec<_>>(),
            }),
        ),
    )
    .await?;
    tx.commit().await?;
    Ok(ImportReport {
        added: names.into_iter().map(str::to_owned).collect(),
        refused,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(p: &CsvParse) -> Vec<&str> {
        p.rows.iter().map(|r| r.player.name.as_str()).collect()
    }

    #[test]
    fn plain_lines_quoted_fields_and_a_header() {
        let p = parse_csv(
            "Name,Club,Email\r\nAlice,Arrakeen,alice@example.org\r\n\"Smith, Jr.\",,\r\n\n\"Say \"\"Hi\"\"\",Sietch,\n",
        )
        .unwrap();
        assert_eq!(names(&p), ["Alice", "Smith, Jr.", "Say \"Hi\""]);
        assert_eq!(p.rows[0].player.club.as_deref(), Some("Arrakeen"));
        assert_eq!(p.rows[0].player.email.as_deref(), Some("alice@example.org"));
        assert_eq!(p.rows[1].line, 3);
        assert_eq!(p.rows[2].line, 5);
        assert!(p.refused.is_empty(), "{:?}", p.refused);
    }

    #[test]
    fn bad_lines_are_refused_with_their_number_and_reason() {
        let p = parse_csv(
            "Alice\nBob,not-an-email\n,x@example.org\nAlice,a2@example.org\nCarol,c@example.org,Club,extra\nDave,C@example.org\nErin,c@EXAMPLE.org\n\"Frank,\n",
        )
        .unwrap();
        assert_eq!(names(&p), ["Alice", "Dave"]);
        let reasons: Vec<(usize, &str)> = p
            .refused
            .iter()
            .map(|r| (r.line, r.reason.as_str()))
            .collect();
        assert_eq!(
            reasons[0],
            (2, "email: an email address looks like name@example.org")
        );
        assert_eq!(reasons[1], (3, "name: a player name is empty"));
        assert_eq!(reasons[2], (4, "Alice is already on line 1"));
        assert_eq!(reasons[3].0, 5);
        assert!(reasons[3].1.contains("at most 3"), "{}", reasons[3].1);
        assert_eq!(
            reasons[4],
            (7, "the email address c@EXAMPLE.org is already on line 6")
        );
        assert_eq!(reasons[5].0, 8);
        assert!(reasons[5].1.contains("never closed"));
        assert_eq!(p.refused[0].text, "Bob,not-an-email");
    }

    #[test]
    fn semicolons_when_there_are_no_commas_and_a_byte_order_mark() {
        let p = parse_csv("\u{feff}name;email\nAlice;a@example.org\n").unwrap();
        assert_eq!(names(&p), ["Alice"]);
        assert_eq!(p.rows[0].player.email.as_deref(), Some("a@example.org"));
    }

    #[test]
    fn an_unknown_header_column_refuses_the_file() {
        let p = parse_csv("name,phone\nAlice,123\n").unwrap();
        assert!(p.rows.is_empty());
        assert!(p.refused[0].reason.contains("\"phone\""));
    }

    #[test]
    fn player_fields_name_the_field_at_fault() {
        assert_eq!(NewPlayer::parse(" ", "", "").unwrap_err().field, "name");
        assert_eq!(NewPlayer::parse("A", "x", "").unwrap_err().field, "email");
        assert_eq!(
            NewPlayer::parse("A", "", &"c".repeat(101))
                .unwrap_err()
                .field,
            "club"
        );
        let ok = NewPlayer::parse(" A ", " ", " Sietch ").unwrap();
        assert_eq!(ok.name.as_str(), "A");
        assert_eq!(ok.email, None);
        assert_eq!(ok.club.as_deref(), Some("Sietch"));
    }
}
