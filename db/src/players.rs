//! An event's players: registration (one by one or from CSV), check-in, late entry and drops.
//!
//! A player's name is a [`PlayerName`], the identity draws, reports and standings use; it is
//! unique in the event. Dropping a player never touches their past seats: the rounds they
//! played stay as they were, they are just not drawn again.

use serde::Serialize;
use sqlx::{PgPool, Postgres, Transaction};
use tournament::PlayerName;
use tournament::ids::{EventId, PlayerId, UserId};

use crate::{accounts::parse_email, audit, live, roles::Actor};

mod import;
pub mod search;
pub use import::*;

/// Longest club name accepted.
pub const MAX_CLUB_CHARS: usize = 100;

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
    /// What the wall's lists sort the player by instead of the name (an organiser's choice).
    pub sort_as: Option<String>,
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
                              dropped_after_round, version, user_id, sort_as";

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
        // ";;;" or "---" is a slip of the paste, not a person: it must not be seated.
        if !name.as_str().chars().any(char::is_alphanumeric) {
            return Err(FieldProblem {
                field: "name",
                message: format!(
                    "{:?} is not a player's name: a name has at least one letter or digit.",
                    name.as_str()
                ),
            });
        }
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
    #[error(
        "No account is called {0:?}. A player makes their own account by claiming their registration with the code on their table slip, which links it too; here, link an account that already exists."
    )]
    NoSuchAccount(String),
    #[error("The account {0:?} is already linked to another player of this event.")]
    AccountTaken(String),
    #[error(
        "{name} cannot be deleted: they played in {place}, which stays in the event's record. Drop them instead; their games stay as they were."
    )]
    Seated { name: String, place: String },
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
pub(crate) async fn lock_event(
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

/// Players whose name matches `query` the forgiving way ([`search::rank`]: any part of the
/// name, case and accents aside), best first; at most `limit`.
pub async fn search(
    pool: &PgPool,
    event_id: EventId,
    query: &str,
    limit: usize,
) -> Result<Vec<Match>, sqlx::Error> {
    if search::fold(query).is_empty() {
        return Ok(Vec::new());
    }
    // An event has hundreds of players at most: folding every name here is cheaper than
    // keeping a folded copy in the database in step with every rename.
    let all: Vec<Match> =
        sqlx::query_as("SELECT id, name, club FROM players WHERE event_id = $1 AND NOT alternate")
            .bind(event_id)
            .fetch_all(pool)
            .await?;
    Ok(matching(all, query, |m| &m.name, limit))
}

/// The items whose name matches `query`, best first, then by name; at most `limit`.
pub fn matching<T>(items: Vec<T>, query: &str, name: impl Fn(&T) -> &str, limit: usize) -> Vec<T> {
    let mut ranked: Vec<((bool, usize), String, T)> = items
        .into_iter()
        .filter_map(|item| {
            let rank = search::rank(query, name(&item))?;
            let key = search::fold(name(&item));
            Some((rank, key, item))
        })
        .collect();
    ranked.sort_by(|a, b| (a.0, &a.1).cmp(&(b.0, &b.1)));
    ranked
        .into_iter()
        .take(limit)
        .map(|(_, _, item)| item)
        .collect()
}

/// Fixes a player's name, e-mail or club at any time, if the entry is still as the page showed
/// it (`version`). Pages read names from the database, so the new name shows on the draws,
/// standings and finals at once; the audit log keeps the old values.
pub async fn edit(
    pool: &PgPool,
    actor: &Actor,
    event_id: EventId,
    player_id: PlayerId,
    version: i32,
    new: NewPlayer,
) -> Result<Player, PlayerError> {
    edit_with_sort_key(pool, actor, event_id, player_id, version, new, None).await
}

/// As [`edit`], and sets the key the wall's lists sort the player by (`Some(None)`: the name
/// itself again); `None` leaves it as it is.
pub async fn edit_with_sort_key(
    pool: &PgPool,
    actor: &Actor,
    event_id: EventId,
    player_id: PlayerId,
    version: i32,
    new: NewPlayer,
    sort_as: Option<Option<String>>,
) -> Result<Player, PlayerError> {
    let mut tx = pool.begin().await?;
    let current = locked(&mut tx, event_id, player_id, version).await?;
    let sort_as = sort_as.unwrap_or_else(|| current.sort_as.clone());
    let updated: Result<Player, sqlx::Error> = sqlx::query_as(&format!(
        "UPDATE players SET name = $2, email = $3, club = $4, sort_as = $5, version = version + 1 \
         WHERE id = $1 RETURNING {PLAYER_COLUMNS}"
    ))
    .bind(player_id)
    .bind(new.name.as_str())
    .bind(new.email.as_deref())
    .bind(new.club.as_deref())
    .bind(sort_as.as_deref())
    .fetch_one(&mut *tx)
    .await;
    let player = match updated {
        Ok(p) => p,
        Err(sqlx::Error::Database(e)) if e.constraint() == Some("players_event_name") => {
            return Err(PlayerError::NameTaken(new.name.to_string()));
        }
        Err(sqlx::Error::Database(e)) if e.constraint() == Some("players_event_email") => {
            return Err(PlayerError::EmailTaken(new.email.unwrap_or_default()));
        }
        Err(e) => return Err(e.into()),
    };
    let mut changes = serde_json::Map::new();
    for (field, before, after) in [
        (
            "name",
            Some(current.name.clone()),
            Some(player.name.clone()),
        ),
        ("email", current.email.clone(), player.email.clone()),
        ("club", current.club.clone(), player.club.clone()),
        ("sort_as", current.sort_as.clone(), player.sort_as.clone()),
    ] {
        if before != after {
            changes.insert(
                field.into(),
                serde_json::json!({ "from": before, "to": after }),
            );
        }
    }
    if changes.is_empty() {
        // Nothing changed: nothing to record (the version moved, which is harmless).
        tx.commit().await?;
        return Ok(player);
    }
    audit::record(
        &mut *tx,
        audit::Entry::by(
            actor,
            audit::Action::PlayerEdited,
            event_id,
            &player.name,
            serde_json::Value::Object(changes),
        ),
    )
    .await?;
    // Names show on the standings and at the tables: open pages and cached ones follow.
    live::notify(&mut *tx, event_id, live::Topic::Standings).await?;
    live::notify(&mut *tx, event_id, live::Topic::Table).await?;
    tx.commit().await?;
    Ok(player)
}

/// Deletes a player who has never been seated (a duplicate, a typo entered twice, a no-show).
/// A player who has sat at a table or had a bye is part of the event's record: drop them
/// instead, which keeps their games.
pub async fn delete(
    pool: &PgPool,
    actor: &Actor,
    event_id: EventId,
    player_id: PlayerId,
    version: i32,
) -> Result<(), PlayerError> {
    let mut tx = pool.begin().await?;
    // The event first, as draws lock it: a round being drawn cannot seat the player meanwhile.
    lock_event(&mut tx, event_id).await?;
    let current = locked(&mut tx, event_id, player_id, version).await?;
    let seated: Option<(i32, Option<i32>)> = sqlx::query_as(
        "SELECT r.number, t.number FROM rounds r \
         LEFT JOIN seats s ON s.round_id = r.id AND s.player_id = $1 \
         LEFT JOIN game_tables t ON t.id = s.table_id \
         LEFT JOIN round_byes b ON b.round_id = r.id AND b.player_id = $1 \
         WHERE r.event_id = $2 AND (s.player_id IS NOT NULL OR b.player_id IS NOT NULL) \
         ORDER BY r.number LIMIT 1",
    )
    .bind(player_id)
    .bind(event_id)
    .fetch_optional(&mut *tx)
    .await?;
    if let Some((round, table)) = seated {
        return Err(PlayerError::Seated {
            name: current.name,
            place: match table {
                Some(t) => format!("round {round}, table {t}"),
                None => format!("round {round} (a bye)"),
            },
        });
    }
    // What goes with the row, for the record: the linked account and the claim codes printed
    // for the player (a player never seated has no results, confirmations or disputes).
    let account: Option<String> = match current.user_id {
        Some(id) => {
            sqlx::query_scalar("SELECT username FROM users WHERE id = $1")
                .bind(id)
                .fetch_optional(&mut *tx)
                .await?
        }
        None => None,
    };
    let claim_codes: Vec<String> = sqlx::query_scalar(
        "DELETE FROM tokens WHERE player_id = $1 AND kind = 'player_claim' RETURNING hint",
    )
    .bind(player_id)
    .fetch_all(&mut *tx)
    .await?;
    sqlx::query("DELETE FROM players WHERE id = $1")
        .bind(player_id)
        .execute(&mut *tx)
        .await?;
    audit::record(
        &mut *tx,
        audit::Entry::by(
            actor,
            audit::Action::PlayerDeleted,
            event_id,
            &current.name,
            serde_json::json!({
                "player": current.id, "email": current.email, "club": current.club,
                "checked_in": current.checked_in, "alternate": current.alternate,
                "entered_after_round": current.entered_after_round,
                "dropped_after_round": current.dropped_after_round,
                "account": account, "claim_codes": claim_codes,
            }),
        ),
    )
    .await?;
    live::notify(&mut *tx, event_id, live::Topic::Standings).await?;
    tx.commit().await?;
    Ok(())
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

/// The players an organiser gave a sort key (`sort_as`): what the wall's lists sort them by
/// instead of their names.
pub async fn sort_keys(
    pool: &PgPool,
    event_id: EventId,
) -> Result<std::collections::BTreeMap<PlayerId, String>, sqlx::Error> {
    let rows: Vec<(PlayerId, String)> = sqlx::query_as(
        "SELECT id, sort_as FROM players WHERE event_id = $1 AND sort_as IS NOT NULL",
    )
    .bind(event_id)
    .fetch_all(pool)
    .await?;
    Ok(rows.into_iter().collect())
}

#[cfg(test)]
mod tests {
    use super::*;

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
