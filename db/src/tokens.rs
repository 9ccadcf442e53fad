//! Tokens: secrets that grant something in one event without a password. One mechanism for
//! three purposes (`docs/architecture.md`, "Tokens"):
//!
//! - [`TokenKind::Api`]: an organiser's script calls the JSON API with the role the token grants
//!   (reusable until revoked or expired);
//! - [`TokenKind::StaffInvite`]: a one-use link that gives its taker a staff role;
//! - [`TokenKind::PlayerClaim`]: a one-use code or link that ties a registration to the account
//!   of the phone it is opened on;
//! - [`TokenKind::Account`]: a person's own token for scripts, in no event: it acts as its
//!   maker wherever the maker holds a role (and creates events when the maker is a site
//!   administrator), never beyond what the maker may do when it is used.
//!
//! The secret is shown once, when it is made ([`Issued::secret`]), and never stored: the table
//! keeps its SHA-256, and [`redeem`] finds a token by hashing what it is shown. Every use is
//! written to the audit log in the same transaction that counts it, so a use that is not
//! recorded did not happen.

use base64::Engine as _;
use chrono::{DateTime, Utc};
use serde::Serialize;
use sha2::{Digest, Sha256};
use sqlx::PgPool;
use tournament::ids::{EventId, PlayerId, UserId};

use crate::{
    audit,
    roles::{self, AccessError, Action, Actor, Role},
};

/// Every secret starts with this, so a leaked one is recognisable in a log or a paste (and
/// secret scanners can be told about it).
pub const PREFIX: &str = "mentat_";
/// Characters of the secret kept to tell tokens apart in lists ("mentat_AbCd…").
const HINT_CHARS: usize = 11;
/// Longest label.
pub const MAX_LABEL_CHARS: usize = 80;

/// What a token is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, sqlx::Type)]
#[sqlx(type_name = "token_kind", rename_all = "snake_case")]
#[serde(rename_all = "snake_case")]
pub enum TokenKind {
    Api,
    StaffInvite,
    PlayerClaim,
    Account,
}

impl TokenKind {
    pub fn as_str(self) -> &'static str {
        match self {
            TokenKind::Api => "api",
            TokenKind::StaffInvite => "staff_invite",
            TokenKind::PlayerClaim => "player_claim",
            TokenKind::Account => "account",
        }
    }

    /// How the token is named in messages.
    pub fn label(self) -> &'static str {
        match self {
            TokenKind::Api => "API token",
            TokenKind::StaffInvite => "staff invitation",
            TokenKind::PlayerClaim => "player's claim code",
            TokenKind::Account => "account token",
        }
    }
}

/// What a token grants: a role in its event, one player's registration, or (an account
/// token) whatever its maker may do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Grant {
    Role(Role),
    Player(PlayerId),
    Maker,
}

/// How often a token can be used.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Uses {
    /// Spent by its first use (invitations, claims).
    Once,
    /// Until revoked or expired (API tokens).
    Reusable,
}

/// A token to make. [`NewToken::api`] builds the one kind this release hands out; invitations
/// and claims (issue 18) are the same row with another kind, grant and `Uses::Once`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewToken {
    pub kind: TokenKind,
    pub label: String,
    pub grant: Grant,
    pub uses: Uses,
    pub expires_at: Option<DateTime<Utc>>,
}

impl NewToken {
    /// An API token granting `role` in the event, until revoked or `expires_at`.
    pub fn api(label: &str, role: Role, expires_at: Option<DateTime<Utc>>) -> NewToken {
        NewToken {
            kind: TokenKind::Api,
            label: label.trim().to_owned(),
            grant: Grant::Role(role),
            uses: Uses::Reusable,
            expires_at,
        }
    }

    /// A one-use link that gives its taker `role` in the event, until `expires_at`.
    pub fn staff_invite(label: &str, role: Role, expires_at: DateTime<Utc>) -> NewToken {
        NewToken {
            kind: TokenKind::StaffInvite,
            label: label.trim().to_owned(),
            grant: Grant::Role(role),
            uses: Uses::Once,
            expires_at: Some(expires_at),
        }
    }

    /// A one-use code that ties `player`'s registration to the account that types it.
    pub fn player_claim(label: &str, player: PlayerId, expires_at: DateTime<Utc>) -> NewToken {
        NewToken {
            kind: TokenKind::PlayerClaim,
            label: label.trim().to_owned(),
            grant: Grant::Player(player),
            uses: Uses::Once,
            expires_at: Some(expires_at),
        }
    }

    /// A person's own token for scripts, until revoked or `expires_at`.
    pub fn account(label: &str, expires_at: Option<DateTime<Utc>>) -> NewToken {
        NewToken {
            kind: TokenKind::Account,
            label: label.trim().to_owned(),
            grant: Grant::Maker,
            uses: Uses::Reusable,
            expires_at,
        }
    }

    /// What the kind allows: each problem named by its field.
    fn check(&self) -> Result<(), TokenError> {
        let chars = self.label.chars().count();
        if chars == 0 || chars > MAX_LABEL_CHARS || self.label.chars().any(char::is_control) {
            return Err(TokenError::BadLabel);
        }
        match (self.kind, self.grant, self.uses) {
            // A script acts as staff; a player's rights are about their own seat, which a
            // script has no business confirming.
            (TokenKind::Api, Grant::Role(Role::Player), _) => Err(TokenError::BadRole),
            (TokenKind::Api, Grant::Role(_), Uses::Reusable)
            | (TokenKind::Account, Grant::Maker, Uses::Reusable) => Ok(()),
            (TokenKind::StaffInvite, Grant::Role(_), Uses::Once)
            | (TokenKind::PlayerClaim, Grant::Player(_), Uses::Once)
                if self.expires_at.is_some() =>
            {
                Ok(())
            }
            _ => Err(TokenError::BadShape(self.kind)),
        }
    }
}

/// A secret as shown once to its maker. `Debug` hides it, so it never reaches a log.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    pub fn expose(&self) -> &str {
        &self.0
    }

    /// A claim code a player can type from her slip: 12 letters and digits without the ones
    /// that look alike (0/O, 1/I/L), in groups of four; 60 random bits, and it expires.
    fn generate_code() -> Result<Secret, TokenError> {
        const ALPHABET: &[u8] = b"ABCDEFGHJKMNPQRSTUVWXYZ23456789";
        let mut bytes = [0u8; 12];
        getrandom::fill(&mut bytes).map_err(|_| TokenError::NoRandomness)?;
        let mut code = String::with_capacity(14);
        for (i, byte) in bytes.iter().enumerate() {
            if i > 0 && i % 4 == 0 {
                code.push('-');
            }
            // 256 = 8 * 31 + 8: the first eight letters are a little likelier, which costs
            // under a bit of the code's 59.
            code.push(char::from(ALPHABET[usize::from(*byte) % ALPHABET.len()]));
        }
        Ok(Secret(code))
    }

    fn generate() -> Result<Secret, TokenError> {
        let mut bytes = [0u8; 32];
        getrandom::fill(&mut bytes).map_err(|_| TokenError::NoRandomness)?;
        Ok(Secret(format!(
            "{PREFIX}{}",
            base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
        )))
    }
}

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Secret(<hidden>)")
    }
}

fn digest(secret: &str) -> Vec<u8> {
    Sha256::digest(secret.trim().as_bytes()).to_vec()
}

/// A claim code as typed on a phone: any case, with or without its dashes and spaces.
fn normalise_code(code: &str) -> String {
    code.chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .map(|c| c.to_ascii_uppercase())
        .collect()
}

/// The stored fingerprint of a presented secret of `kind`.
fn digest_of(kind: TokenKind, secret: &str) -> Vec<u8> {
    match kind {
        TokenKind::PlayerClaim => digest(&normalise_code(secret)),
        TokenKind::Api | TokenKind::StaffInvite | TokenKind::Account => digest(secret),
    }
}

fn hint_of(secret: &str) -> String {
    secret.chars().take(HINT_CHARS).collect::<String>() + "…"
}

/// A token as the lists show it (never its secret).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Token {
    pub id: i64,
    pub kind: TokenKind,
    /// `None` for an account token, which belongs to no event.
    pub event_id: Option<EventId>,
    pub label: String,
    pub grant: Grant,
    pub hint: String,
    pub uses: Uses,
    pub expires_at: Option<DateTime<Utc>>,
    pub created_by: Option<String>,
    pub created_by_id: Option<UserId>,
    pub created_at: DateTime<Utc>,
    pub used_count: i64,
    pub last_used_at: Option<DateTime<Utc>>,
    pub revoked_at: Option<DateTime<Utc>>,
    pub revoked_by: Option<String>,
}

/// Where a token stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Standing {
    Active,
    Revoked,
    Expired,
    /// A one-use token that has been used.
    Spent,
}

impl Token {
    pub fn standing(&self, now: DateTime<Utc>) -> Standing {
        if self.revoked_at.is_some() {
            Standing::Revoked
        } else if self.uses == Uses::Once && self.used_count > 0 {
            Standing::Spent
        } else if self.expires_at.is_some_and(|at| at <= now) {
            Standing::Expired
        } else {
            Standing::Active
        }
    }
}

/// A token just made, with its secret: show it once, then forget it.
#[derive(Debug, Clone)]
pub struct Issued {
    pub token: Token,
    pub secret: Secret,
}

#[derive(Debug, thiserror::Error)]
pub enum TokenError {
    #[error("{0}")]
    Access(#[from] AccessError),
    #[error("Give the token a name of 1 to {MAX_LABEL_CHARS} characters, such as \"results bot\".")]
    BadLabel,
    #[error(
        "An API token acts as a judge, head judge or organiser; a player's rights are for the player's own phone."
    )]
    BadRole,
    #[error("A {} cannot be made this way.", .0.label())]
    BadShape(TokenKind),
    #[error("There is no such token in this event.")]
    NotFound,
    #[error("The server could not make a secret just now; try again.")]
    NoRandomness,
    #[error("database error")]
    Database(#[from] sqlx::Error),
}

impl TokenError {
    pub fn field(&self) -> Option<&'static str> {
        match self {
            Self::BadLabel => Some("label"),
            Self::BadRole => Some("role"),
            _ => None,
        }
    }
}

type TokenRow = (
    i64,
    TokenKind,
    Option<EventId>,
    String,
    Option<Role>,
    Option<PlayerId>,
    String,
    bool,
    Option<DateTime<Utc>>,
    Option<String>,
    Option<UserId>,
    DateTime<Utc>,
    i64,
    Option<DateTime<Utc>>,
    Option<DateTime<Utc>>,
    Option<String>,
);

const SELECT: &str = "SELECT t.id, t.kind, t.event_id, t.label, t.role, t.player_id, t.hint, \
       t.single_use, t.expires_at, c.username, t.created_by, t.created_at, t.used_count, \
       t.last_used_at, t.revoked_at, r.username \
     FROM tokens t LEFT JOIN users c ON c.id = t.created_by LEFT JOIN users r ON r.id = t.revoked_by";

fn token_of(row: TokenRow) -> Result<Token, sqlx::Error> {
    let (
        id,
        kind,
        event_id,
        label,
        role,
        player_id,
        hint,
        single_use,
        expires_at,
        created_by,
        created_by_id,
        created_at,
        used_count,
        last_used_at,
        revoked_at,
        revoked_by,
    ) = row;
    let grant = match (role, player_id) {
        (Some(role), None) => Grant::Role(role),
        (None, Some(player)) => Grant::Player(player),
        (None, None) if kind == TokenKind::Account => Grant::Maker,
        // The schema's tokens_grant constraint admits nothing else.
        _ => {
            return Err(sqlx::Error::Decode(
                format!("token {id} grants neither a role nor a player").into(),
            ));
        }
    };
    Ok(Token {
        id,
        kind,
        event_id,
        label,
        grant,
        hint,
        uses: if single_use {
            Uses::Once
        } else {
            Uses::Reusable
        },
        expires_at,
        created_by,
        created_by_id,
        created_at,
        used_count,
        last_used_at,
        revoked_at,
        revoked_by,
    })
}

/// Who may make or revoke a token of this kind.
fn action_for(kind: TokenKind) -> Action {
    match kind {
        TokenKind::Api => Action::ManageStaff,
        TokenKind::StaffInvite => Action::InviteStaff,
        TokenKind::PlayerClaim => Action::RunEvent,
        // Made by its owner for themselves, outside any event (`issue_account`).
        TokenKind::Account => Action::ManageStaff,
    }
}

/// Makes a token in the event, as `actor` (an organiser for API tokens and invitations, the
/// head judge too for claims). Returns it with its secret, which is never shown again.
pub async fn issue(
    pool: &PgPool,
    actor: &Actor,
    event_id: EventId,
    new: NewToken,
) -> Result<Issued, TokenError> {
    if new.kind == TokenKind::Account {
        return Err(TokenError::BadShape(new.kind));
    }
    roles::authorize(pool, Some(actor), event_id, action_for(new.kind)).await?;
    // A head judge may bring in judges and head judges; only an organiser makes organisers.
    if new.kind == TokenKind::StaffInvite && new.grant == Grant::Role(Role::Organiser) {
        roles::authorize(pool, Some(actor), event_id, Action::ManageStaff).await?;
    }
    let mut tx = pool.begin().await?;
    let issued = insert_in(&mut tx, actor, Some(event_id), &new).await?;
    tx.commit().await?;
    Ok(issued)
}

/// Makes an account token for `actor` themselves: a script's key that acts as them in every
/// event (and creates events if they are a site administrator). Shown once, like every secret.
pub async fn issue_account(
    pool: &PgPool,
    actor: &Actor,
    label: &str,
    expires_at: Option<DateTime<Utc>>,
) -> Result<Issued, TokenError> {
    let mut tx = pool.begin().await?;
    let issued = insert_in(&mut tx, actor, None, &NewToken::account(label, expires_at)).await?;
    tx.commit().await?;
    Ok(issued)
}

/// The account tokens `user_id` made, newest first.
pub async fn list_account(pool: &PgPool, user_id: UserId) -> Result<Vec<Token>, sqlx::Error> {
    let rows: Vec<TokenRow> = sqlx::query_as(&format!(
        "{SELECT} WHERE t.kind = 'account' AND t.created_by = $1 ORDER BY t.created_at DESC, t.id DESC"
    ))
    .bind(user_id)
    .fetch_all(pool)
    .await?;
    rows.into_iter().map(token_of).collect()
}

/// Revokes one of `actor`'s account tokens (an administrator may revoke anyone's).
pub async fn revoke_account(
    pool: &PgPool,
    actor: &Actor,
    token_id: i64,
) -> Result<Token, TokenError> {
    let mut tx = pool.begin().await?;
    let row: Option<TokenRow> = sqlx::query_as(&format!(
        "{SELECT} WHERE t.id = $1 AND t.kind = 'account' FOR UPDATE OF t"
    ))
    .bind(token_id)
    .fetch_optional(&mut *tx)
    .await?;
    let token = token_of(row.ok_or(TokenError::NotFound)?)?;
    if token.created_by_id != Some(actor.user_id) && !actor.is_admin {
        return Err(TokenError::Access(AccessError::Forbidden));
    }
    if token.revoked_at.is_none() {
        sqlx::query("UPDATE tokens SET revoked_at = now(), revoked_by = $2 WHERE id = $1")
            .bind(token_id)
            .bind(actor.user_id)
            .execute(&mut *tx)
            .await?;
        let mut entry = audit::Entry::new(audit::Action::TokenRevoked);
        entry.actor_id = Some(actor.user_id);
        entry.actor = Some(&actor.username);
        entry.subject = Some(&token.label);
        entry.detail = serde_json::json!({ "token": token.id, "kind": token.kind.as_str() });
        audit::record(&mut *tx, entry).await?;
    }
    let row: TokenRow = sqlx::query_as(&format!("{SELECT} WHERE t.id = $1"))
        .bind(token_id)
        .fetch_one(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(token_of(row)?)
}

/// Checks an authorised token and writes it and its audit entry inside `tx`; gives its secret.
pub(crate) async fn insert_in(
    tx: &mut sqlx::Transaction<'_, sqlx::Postgres>,
    actor: &Actor,
    event_id: Option<EventId>,
    new: &NewToken,
) -> Result<Issued, TokenError> {
    new.check()?;
    let secret = match new.kind {
        TokenKind::PlayerClaim => Secret::generate_code()?,
        TokenKind::Api | TokenKind::StaffInvite | TokenKind::Account => Secret::generate()?,
    };
    let (role, player) = match new.grant {
        Grant::Role(role) => (Some(role), None),
        Grant::Player(player) => (None, Some(player)),
        Grant::Maker => (None, None),
    };
    let id: i64 = sqlx::query_scalar(
        "INSERT INTO tokens (kind, event_id, label, role, player_id, secret_sha256, hint, \
           single_use, expires_at, created_by) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id",
    )
    .bind(new.kind)
    .bind(event_id)
    .bind(&new.label)
    .bind(role)
    .bind(player)
    .bind(digest_of(new.kind, secret.expose()))
    // A claim code is short: its hint gives away two characters, not most of it.
    .bind(match new.kind {
        TokenKind::PlayerClaim => secret.expose().chars().take(2).collect::<String>() + "…",
        TokenKind::Api | TokenKind::StaffInvite | TokenKind::Account => hint_of(secret.expose()),
    })
    .bind(new.uses == Uses::Once)
    .bind(new.expires_at)
    .bind(actor.user_id)
    .fetch_one(&mut **tx)
    .await?;
    let mut entry = audit::Entry::new(audit::Action::TokenCreated);
    entry.actor_id = Some(actor.user_id);
    entry.actor = Some(&actor.username);
    entry.event_id = event_id;
    entry.subject = Some(&new.label);
    entry.detail = serde_json::json!({
        "token": id, "kind": new.kind.as_str(), "grant": new.grant,
        "expires_at": new.expires_at,
    });
    audit::record(&mut **tx, entry).await?;
    let row: TokenRow = sqlx::query_as(&format!("{SELECT} WHERE t.id = $1"))
        .bind(id)
        .fetch_one(&mut **tx)
        .await?;
    Ok(Issued {
        token: token_of(row)?,
        secret,
    })
}

/// The event's tokens of one kind, newest first.
pub async fn list(
    pool: &PgPool,
    event_id: EventId,
    kind: TokenKind,
) -> Result<Vec<Token>, sqlx::Error> {
    let rows: Vec<TokenRow> = sqlx::query_as(&format!(
        "{SELECT} WHERE t.event_id = $1 AND t.kind = $2 ORDER BY t.created_at DESC, t.id DESC"
    ))
    .bind(event_id)
    .bind(kind)
    .fetch_all(pool)
    .await?;
    rows.into_iter().map(token_of).collect()
}

/// Revokes a token of the event: from now on it is refused. Revoking twice changes nothing.
pub async fn revoke(
    pool: &PgPool,
    actor: &Actor,
    event_id: EventId,
    token_id: i64,
) -> Result<Token, TokenError> {
    let mut tx = pool.begin().await?;
    let row: Option<TokenRow> = sqlx::query_as(&format!(
        "{SELECT} WHERE t.id = $1 AND t.event_id = $2 FOR UPDATE OF t"
    ))
    .bind(token_id)
    .bind(event_id)
    .fetch_optional(&mut *tx)
    .await?;
    let token = token_of(row.ok_or(TokenError::NotFound)?)?;
    roles::authorize(pool, Some(actor), event_id, action_for(token.kind)).await?;
    if token.revoked_at.is_some() {
        return Ok(token);
    }
    sqlx::query("UPDATE tokens SET revoked_at = now(), revoked_by = $2 WHERE id = $1")
        .bind(token_id)
        .bind(actor.user_id)
        .execute(&mut *tx)
        .await?;
    audit::record(
        &mut *tx,
        audit::Entry::by(
            actor,
            audit::Action::TokenRevoked,
            event_id,
            &token.label,
            serde_json::json!({ "token": token.id, "kind": token.kind.as_str() }),
        ),
    )
    .await?;
    let row: TokenRow = sqlx::query_as(&format!("{SELECT} WHERE t.id = $1"))
        .bind(token_id)
        .fetch_one(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(token_of(row)?)
}

/// Why a presented secret was refused. Each message tells its holder what to do.
#[derive(Debug, thiserror::Error)]
pub enum Refusal {
    #[error(
        "This token is not known to Mentat: check it was copied whole, or ask the event's organiser for a new one."
    )]
    Unknown,
    #[error("The {} \"{label}\" was revoked; ask the event's organiser for a new one.", .kind.label())]
    Revoked { kind: TokenKind, label: String },
    #[error("The {} \"{label}\" has expired; ask the event's organiser for a new one.", .kind.label())]
    Expired { kind: TokenKind, label: String },
    #[error("The {} \"{label}\" has been used already; each one works once.", .kind.label())]
    Spent { kind: TokenKind, label: String },
    #[error(
        "The account that made the {} \"{label}\" no longer exists; ask the event's organiser for a new one.", .kind.label()
    )]
    Orphaned { kind: TokenKind, label: String },
    #[error("This is not a {}.", .0.label())]
    WrongKind(TokenKind),
    #[error(
        "The person who made the {} \"{label}\" may no longer give this role; ask the event's organiser for a new one.", .kind.label()
    )]
    MakerLacksRole { kind: TokenKind, label: String },
    #[error("database error")]
    Database(#[from] sqlx::Error),
}

/// One use of a token: what it was used for, for the audit log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Use<'a> {
    /// What was done with it, e.g. `POST /api/v1/events/gencon/players`.
    pub purpose: &'a str,
}

/// A token accepted: the token, and the actor its uses are recorded as (the account that made
/// it, named with the token, so the audit log says "alice (API token "results bot")").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Redeemed {
    pub token: Token,
    pub actor: Actor,
    /// The role its maker holds in the event now: a token never grants more than its maker
    /// still has (see [`Redeemed::allows`]).
    pub maker_role: Option<Role>,
    pub maker_is_admin: bool,
}

impl Redeemed {
    /// Whether this token may do `action`: both the role it grants and its maker's present
    /// role must allow it, so taking someone's role away also stops their tokens.
    pub fn allows(&self, action: Action) -> bool {
        let granted = match self.token.grant {
            Grant::Role(role) => Some(role),
            Grant::Player(_) => Some(Role::Player),
            // An account token grants what its maker has.
            Grant::Maker => self.maker_role,
        };
        roles::allows(granted, false, action)
            && roles::allows(self.maker_role, self.maker_is_admin, action)
    }
}

/// Accepts a presented secret of `kind`, counts the use and records it in the audit log, all
/// in one transaction; a one-use token is spent by it. Refuses a secret that is unknown,
/// revoked, expired, spent or of another kind, saying which.
pub async fn redeem(
    pool: &PgPool,
    kind: TokenKind,
    presented: &str,
    purpose: Use<'_>,
) -> Result<Redeemed, Refusal> {
    let mut tx = pool.begin().await?;
    let redeemed = redeem_in(&mut tx, kind, presented, purpose).await?;
    tx.commit().await?;
    Ok(redeemed)
}

/// Finds a presented secret of `kind` and says whether it may be used now, locking its row
/// until the transaction ends (so two takers of one invitation cannot both succeed).
async fn check_in(
    conn: &mut sqlx::PgConnection,
    kind: TokenKind,
    presented: &str,
) -> Result<Token, Refusal> {
    let hash = digest_of(kind, presented);
    let row: Option<TokenRow> = sqlx::query_as(&format!(
        "{SELECT} WHERE t.secret_sha256 = $1 FOR UPDATE OF t"
    ))
    .bind(&hash)
    .fetch_optional(&mut *conn)
    .await?;
    let token = token_of(row.ok_or(Refusal::Unknown)?)?;
    let now: DateTime<Utc> = sqlx::query_scalar("SELECT now()")
        .fetch_one(&mut *conn)
        .await?;
    let (k, label) = (token.kind, token.label.clone());
    match token.standing(now) {
        Standing::Active => {}
        Standing::Revoked => return Err(Refusal::Revoked { kind: k, label }),
        Standing::Expired => return Err(Refusal::Expired { kind: k, label }),
        Standing::Spent => return Err(Refusal::Spent { kind: k, label }),
    }
    // A script's bearer token may be an event's API token or a person's account token.
    let script = kind == TokenKind::Api && token.kind == TokenKind::Account;
    if token.kind != kind && !script {
        return Err(Refusal::WrongKind(kind));
    }
    Ok(token)
}

/// What a presented secret would do, without using it: the invitation page shows this before
/// its visitor signs in, and refuses a used, expired or revoked one at once.
pub async fn inspect(pool: &PgPool, kind: TokenKind, presented: &str) -> Result<Token, Refusal> {
    let mut tx = pool.begin().await?;
    let token = check_in(&mut tx, kind, presented).await?;
    tx.rollback().await?;
    Ok(token)
}

/// [`redeem`] inside the caller's transaction, so what the token grants is written in the same
/// transaction that spends it: if granting fails, the token is not spent.
pub async fn redeem_in(
    tx: &mut sqlx::PgConnection,
    kind: TokenKind,
    presented: &str,
    purpose: Use<'_>,
) -> Result<Redeemed, Refusal> {
    let token = check_in(&mut *tx, kind, presented).await?;
    let (k, label) = (token.kind, token.label.clone());
    let maker: Option<(UserId, String, bool)> = match token.created_by_id {
        Some(id) => {
            sqlx::query_as("SELECT id, username, is_admin FROM users WHERE id = $1")
                .bind(id)
                .fetch_optional(&mut *tx)
                .await?
        }
        None => None,
    };
    let Some((user_id, username, is_admin)) = maker else {
        return Err(Refusal::Orphaned { kind: k, label });
    };
    let maker_role: Option<Role> = match token.event_id {
        Some(event_id) => {
            sqlx::query_scalar("SELECT role FROM event_roles WHERE event_id = $1 AND user_id = $2")
                .bind(event_id)
                .bind(user_id)
                .fetch_optional(&mut *tx)
                .await?
        }
        None => None,
    };
    sqlx::query(
        "UPDATE tokens SET used_count = used_count + 1, last_used_at = now() WHERE id = $1",
    )
    .bind(token.id)
    .execute(&mut *tx)
    .await?;
    let actor = Actor {
        user_id,
        username: format!("{username} ({} \"{}\")", token.kind.label(), token.label),
        // An account token is its maker, administrator or not; an event's token never acts
        // beyond the role it grants.
        is_admin: token.kind == TokenKind::Account && is_admin,
    };
    let mut entry = audit::Entry::new(audit::Action::TokenUsed);
    entry.actor_id = Some(actor.user_id);
    entry.actor = Some(&actor.username);
    entry.event_id = token.event_id;
    entry.subject = Some(&token.label);
    entry.detail = serde_json::json!({ "token": token.id, "kind": token.kind.as_str(), "use": purpose.purpose });
    audit::record(&mut *tx, entry).await?;
    Ok(Redeemed {
        token,
        actor,
        maker_role,
        maker_is_admin: is_admin,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_are_long_prefixed_and_hidden_from_debug() {
        let a = Secret::generate().unwrap();
        let b = Secret::generate().unwrap();
        assert_ne!(a, b);
        assert!(a.expose().starts_with(PREFIX));
        assert_eq!(a.expose().len(), PREFIX.len() + 43);
        assert_eq!(format!("{a:?}"), "Secret(<hidden>)");
        assert_eq!(hint_of(a.expose()).chars().count(), HINT_CHARS + 1);
        assert_eq!(digest(a.expose()).len(), 32);
        assert_eq!(digest(&format!(" {} ", a.expose())), digest(a.expose()));
    }

    #[test]
    fn claim_codes_are_short_unambiguous_and_typed_in_any_case() {
        let code = Secret::generate_code().unwrap();
        let text = code.expose();
        assert_eq!(text.len(), 14, "{text}");
        assert_eq!(text.matches('-').count(), 2);
        assert!(!text.contains(['0', 'O', '1', 'I', 'L']), "{text}");
        let typed = text.to_lowercase().replace('-', " ");
        assert_eq!(
            digest_of(TokenKind::PlayerClaim, &typed),
            digest_of(TokenKind::PlayerClaim, text)
        );
        assert_ne!(Secret::generate_code().unwrap(), code);
    }

    #[test]
    fn each_kind_takes_only_its_own_shape() {
        let soon = Some(Utc::now());
        assert!(NewToken::api("bot", Role::Judge, None).check().is_ok());
        assert!(matches!(
            NewToken::api("bot", Role::Player, None).check(),
            Err(TokenError::BadRole)
        ));
        assert!(matches!(
            NewToken::api("  ", Role::Judge, None).check(),
            Err(TokenError::BadLabel)
        ));
        let invite = NewToken {
            kind: TokenKind::StaffInvite,
            label: "Sam".into(),
            grant: Grant::Role(Role::Judge),
            uses: Uses::Once,
            expires_at: soon,
        };
        assert!(invite.check().is_ok());
        assert!(
            NewToken {
                expires_at: None,
                ..invite.clone()
            }
            .check()
            .is_err(),
            "an invitation expires"
        );
        assert!(
            NewToken {
                uses: Uses::Reusable,
                ..invite.clone()
            }
            .check()
            .is_err(),
            "an invitation is used once"
        );
        let claim = NewToken {
            kind: TokenKind::PlayerClaim,
            label: "slip".into(),
            grant: Grant::Player(PlayerId(3)),
            uses: Uses::Once,
            expires_at: soon,
        };
        assert!(claim.check().is_ok());
        assert!(
            NewToken {
                grant: Grant::Role(Role::Player),
                ..claim
            }
            .check()
            .is_err(),
            "a claim names a player"
        );
    }
}
