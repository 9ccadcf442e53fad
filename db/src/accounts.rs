//! Accounts: creating them, signing in, changing passwords.

use chrono::{DateTime, Utc};
use sqlx::PgPool;
use tournament::ids::UserId;

use crate::{
    audit,
    password::{self, Password},
    roles::Actor,
    throttle,
};

/// A user name: 2-40 letters, digits, `.`, `_` or `-`, so it is easy to type on a phone and
/// safe to show anywhere.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UserName(String);

impl UserName {
    pub fn parse(text: &str) -> Result<Self, String> {
        let text = text.trim();
        let len = text.chars().count();
        if !(2..=40).contains(&len) {
            return Err("A user name has 2 to 40 characters.".to_owned());
        }
        if !text
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '.' | '_' | '-'))
        {
            return Err("A user name may hold letters, digits, '.', '_' and '-' only.".to_owned());
        }
        Ok(Self(text.to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// Loosely checked: the only use is signing in with it, so it must be unique, not deliverable.
pub fn parse_email(text: &str) -> Result<Option<String>, String> {
    let text = text.trim();
    if text.is_empty() {
        return Ok(None);
    }
    match text.split_once('@') {
        Some((local, domain))
            if !local.is_empty() && domain.contains('.') && !text.contains(char::is_whitespace) =>
        {
            Ok(Some(text.to_owned()))
        }
        _ => Err("An email address looks like name@example.org.".to_owned()),
    }
}

pub struct NewUser {
    pub username: UserName,
    pub email: Option<String>,
    pub password: Password,
    pub is_admin: bool,
}

#[derive(Debug, thiserror::Error)]
pub enum CreateUserError {
    #[error("The user name {0:?} is taken.")]
    UsernameTaken(String),
    #[error("Another account already uses the email address {0:?}.")]
    EmailTaken(String),
    #[error(transparent)]
    Password(#[from] password::PasswordError),
    #[error("database error")]
    Database(#[from] sqlx::Error),
}

impl CreateUserError {
    /// The form field at fault, for showing the message next to it.
    pub fn field(&self) -> Option<&'static str> {
        match self {
            Self::UsernameTaken(_) => Some("username"),
            Self::EmailTaken(_) => Some("email"),
            _ => None,
        }
    }
}

pub async fn create_user(
    pool: &PgPool,
    new: NewUser,
    actor: Option<&Actor>,
) -> Result<UserId, CreateUserError> {
    let phc = password::hash(new.password).await?;
    let mut tx = pool.begin().await?;
    let inserted: Result<UserId, sqlx::Error> = sqlx::query_scalar(
        "INSERT INTO users (username, email, password_hash, is_admin) VALUES ($1, $2, $3, $4) RETURNING id",
    )
    .bind(new.username.as_str())
    .bind(new.email.as_deref())
    .bind(&phc)
    .bind(new.is_admin)
    .fetch_one(&mut *tx)
    .await;
    let id = match inserted {
        Ok(id) => id,
        Err(sqlx::Error::Database(e)) if e.constraint() == Some("users_username_key") => {
            return Err(CreateUserError::UsernameTaken(
                new.username.as_str().to_owned(),
            ));
        }
        Err(sqlx::Error::Database(e)) if e.constraint() == Some("users_email_key") => {
            return Err(CreateUserError::EmailTaken(new.email.unwrap_or_default()));
        }
        Err(e) => return Err(e.into()),
    };
    let mut entry = audit::Entry::new(audit::Action::UserCreated);
    entry.actor_id = actor.map(|a| a.user_id);
    entry.actor = actor.map(|a| a.username.as_str());
    entry.subject = Some(new.username.as_str());
    entry.detail = serde_json::json!({ "admin": new.is_admin });
    audit::record(&mut *tx, entry).await?;
    tx.commit().await?;
    Ok(id)
}

pub async fn count(pool: &PgPool) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar("SELECT count(*) FROM users")
        .fetch_one(pool)
        .await
}

/// The signed-in user as of now (a session holds only the id, so a removed account or a
/// changed admin flag takes effect at once).
pub async fn actor(pool: &PgPool, user_id: UserId) -> Result<Option<Actor>, sqlx::Error> {
    let row: Option<(UserId, String, bool)> =
        sqlx::query_as("SELECT id, username, is_admin FROM users WHERE id = $1")
            .bind(user_id)
            .fetch_optional(pool)
            .await?;
    Ok(row.map(|(user_id, username, is_admin)| Actor {
        user_id,
        username,
        is_admin,
    }))
}

#[derive(Debug, thiserror::Error)]
pub enum SignInError {
    #[error("That user name or email and password do not match an account.")]
    Invalid,
    #[error(
        "Too many failed sign-ins for this account or from this address. Try again after {} (UTC), \
         or ask an organiser to check your account.", until.format("%H:%M")
    )]
    Blocked { until: DateTime<Utc> },
    #[error(transparent)]
    Password(#[from] password::PasswordError),
    #[error("database error")]
    Database(#[from] sqlx::Error),
}

/// Checks a sign-in by user name or email from `addr`, with the back-off of [`throttle`].
pub async fn sign_in(
    pool: &PgPool,
    login: &str,
    password: Password,
    addr: &str,
) -> Result<Actor, SignInError> {
    let login = login.trim();
    let keys = [throttle::account_key(login), throttle::address_key(addr)];
    if let Some(until) = throttle::blocked_until(pool, &keys[0], &keys[1]).await? {
        let mut entry = audit::Entry::new(audit::Action::SignInBlocked);
        entry.subject = Some(login);
        entry.detail = serde_json::json!({ "address": addr });
        audit::record(pool, entry).await?;
        return Err(SignInError::Blocked { until });
    }
    let row: Option<(UserId, String, bool, String)> = sqlx::query_as(
        "SELECT id, username, is_admin, password_hash FROM users \
         WHERE lower(username) = lower($1) OR lower(email) = lower($1) LIMIT 1",
    )
    .bind(login)
    .fetch_optional(pool)
    .await?;
    let (stored, found) = match row {
        Some((id, username, is_admin, phc)) => (Some(phc), Some((id, username, is_admin))),
        None => (None, None),
    };
    let ok = password::verify(password, stored).await?;
    let mut tx = pool.begin().await?;
    let result = match (ok, found) {
        (true, Some((user_id, username, is_admin))) => {
            throttle::clear(&mut *tx, &keys[0]).await?;
            let mut entry = audit::Entry::new(audit::Action::SignIn);
            entry.actor_id = Some(user_id);
            entry.actor = Some(&username);
            entry.subject = Some(&username);
            entry.detail = serde_json::json!({ "address": addr });
            audit::record(&mut *tx, entry).await?;
            Ok(Actor {
                user_id,
                username,
                is_admin,
            })
        }
        _ => {
            throttle::record_failure(&mut *tx, &keys).await?;
            let mut entry = audit::Entry::new(audit::Action::SignInFailed);
            entry.subject = Some(login);
            entry.detail = serde_json::json!({ "address": addr });
            audit::record(&mut *tx, entry).await?;
            Err(SignInError::Invalid)
        }
    };
    tx.commit().await?;
    result
}

pub async fn record_sign_out(pool: &PgPool, actor: &Actor) -> Result<(), sqlx::Error> {
    let mut entry = audit::Entry::new(audit::Action::SignOut);
    entry.actor_id = Some(actor.user_id);
    entry.actor = Some(&actor.username);
    entry.subject = Some(&actor.username);
    audit::record(pool, entry).await
}

#[derive(Debug, thiserror::Error)]
pub enum ChangePasswordError {
    #[error("The current password is not right.")]
    WrongCurrent,
    #[error(transparent)]
    Password(#[from] password::PasswordError),
    #[error("database error")]
    Database(#[from] sqlx::Error),
}

pub async fn change_password(
    pool: &PgPool,
    actor: &Actor,
    current: Password,
    new: Password,
) -> Result<(), ChangePasswordError> {
    let stored: Option<String> =
        sqlx::query_scalar("SELECT password_hash FROM users WHERE id = $1")
            .bind(actor.user_id)
            .fetch_optional(pool)
            .await?;
    if !password::verify(current, stored).await? {
        return Err(ChangePasswordError::WrongCurrent);
    }
    let phc = password::hash(new).await?;
    let mut tx = pool.begin().await?;
    sqlx::query("UPDATE users SET password_hash = $2, password_changed_at = now() WHERE id = $1")
        .bind(actor.user_id)
        .bind(&phc)
        .execute(&mut *tx)
        .await?;
    let mut entry = audit::Entry::new(audit::Action::PasswordChanged);
    entry.actor_id = Some(actor.user_id);
    entry.actor = Some(&actor.username);
    entry.subject = Some(&actor.username);
    audit::record(&mut *tx, entry).await?;
    tx.commit().await?;
    Ok(())
}

/// Records that the session `session_id` (the store's id) is signed in as `user_id`, so
/// [`sign_out_everywhere`] can find it; forgets rows of this account whose session is gone.
pub async fn record_session(
    pool: &PgPool,
    user_id: UserId,
    session_id: &str,
) -> Result<(), sqlx::Error> {
    let mut tx = pool.begin().await?;
    sqlx::query(
        "DELETE FROM account_sessions a WHERE a.user_id = $1 \
         AND NOT EXISTS (SELECT 1 FROM tower_sessions.session s WHERE s.id = a.session_id)",
    )
    .bind(user_id)
    .execute(&mut *tx)
    .await?;
    sqlx::query(
        "INSERT INTO account_sessions (session_id, user_id) VALUES ($1, $2) \
         ON CONFLICT (session_id) DO UPDATE SET user_id = $2, created_at = now()",
    )
    .bind(session_id)
    .bind(user_id)
    .execute(&mut *tx)
    .await?;
    tx.commit().await
}

/// Deletes every session of `actor`'s account from the session store (phones left signed in
/// included), and says how many there were. Other accounts' sessions are untouched.
pub async fn sign_out_everywhere(pool: &PgPool, actor: &Actor) -> Result<u64, sqlx::Error> {
    let mut tx = pool.begin().await?;
    let removed = sqlx::query(
        "DELETE FROM tower_sessions.session s USING account_sessions a \
         WHERE a.session_id = s.id AND a.user_id = $1",
    )
    .bind(actor.user_id)
    .execute(&mut *tx)
    .await?
    .rows_affected();
    sqlx::query("DELETE FROM account_sessions WHERE user_id = $1")
        .bind(actor.user_id)
        .execute(&mut *tx)
        .await?;
    let mut entry = audit::Entry::new(audit::Action::SignOut);
    entry.actor_id = Some(actor.user_id);
    entry.actor = Some(&actor.username);
    entry.subject = Some(&actor.username);
    entry.detail = serde_json::json!({ "everywhere": true, "sessions": removed });
    audit::record(&mut *tx, entry).await?;
    tx.commit().await?;
    Ok(removed)
}

/// Longest display name.
pub const MAX_DISPLAY_NAME_CHARS: usize = 60;

#[derive(Debug, thiserror::Error)]
pub enum DisplayNameError {
    #[error("A display name has at most {MAX_DISPLAY_NAME_CHARS} characters, on one line.")]
    Invalid,
    #[error("database error")]
    Database(#[from] sqlx::Error),
}

/// Sets the name shown for the account (empty: show the user name); returns it.
pub async fn set_display_name(
    pool: &PgPool,
    actor: &Actor,
    name: &str,
) -> Result<Option<String>, DisplayNameError> {
    let name = name.trim();
    if name.chars().count() > MAX_DISPLAY_NAME_CHARS || name.chars().any(char::is_control) {
        return Err(DisplayNameError::Invalid);
    }
    let name = (!name.is_empty()).then(|| name.to_owned());
    let mut tx = pool.begin().await?;
    sqlx::query("UPDATE users SET display_name = $2 WHERE id = $1")
        .bind(actor.user_id)
        .bind(name.as_deref())
        .execute(&mut *tx)
        .await?;
    let mut entry = audit::Entry::new(audit::Action::DisplayNameChanged);
    entry.actor_id = Some(actor.user_id);
    entry.actor = Some(&actor.username);
    entry.subject = Some(&actor.username);
    entry.detail = serde_json::json!({ "display_name": name });
    audit::record(&mut *tx, entry).await?;
    tx.commit().await?;
    Ok(name)
}

/// The name shown for the account, if one was chosen.
pub async fn display_name(pool: &PgPool, user_id: UserId) -> Result<Option<String>, sqlx::Error> {
    let name: Option<Option<String>> =
        sqlx::query_scalar("SELECT display_name FROM users WHERE id = $1")
            .bind(user_id)
            .fetch_optional(pool)
            .await?;
    Ok(name.flatten())
}
