//! Player claims: the head judge makes a one-use code per player (a
//! [`TokenKind::PlayerClaim`] token, printed on the table slip or shown on the player's page);
//! the player types it (or follows its link) on her phone, signed in, and her account is tied
//! to her registration in the transaction that spends the code. From then on the event page
//! opens on her table.

use chrono::{DateTime, Utc};
use sqlx::PgPool;
use tournament::ids::{EventId, PlayerId};

use crate::{
    audit,
    roles::Actor,
    tokens::{self, Grant, Issued, NewToken, Refusal, TokenError, TokenKind},
};

/// Makes a claim code for one player of the event (head judges and organisers).
pub async fn issue(
    pool: &PgPool,
    actor: &Actor,
    event_id: EventId,
    player_id: PlayerId,
    expires_at: DateTime<Utc>,
) -> Result<Issued, TokenError> {
    let name: Option<String> =
        sqlx::query_scalar("SELECT name FROM players WHERE event_id = $1 AND id = $2")
            .bind(event_id)
            .bind(player_id)
            .fetch_optional(pool)
            .await?;
    let name = name.ok_or(TokenError::NotFound)?;
    tokens::issue(
        pool,
        actor,
        event_id,
        NewToken::player_claim(&name, player_id, expires_at),
    )
    .await
}

/// A claim code made for a printed table slip.
#[derive(Debug, Clone)]
pub struct SlipCode {
    pub player_id: PlayerId,
    pub secret: tokens::Secret,
}

/// Claim codes for those of `players` whose registration is tied to no account yet, for the
/// table slips the head judge prints: one transaction, each code in the audit log like one made
/// on the player's card. A code is stored only hashed and so shown only as it is made; each
/// print makes new ones, and the codes of earlier prints stay good until they expire, so a slip
/// already handed out never stops working because the page was opened again. Players already
/// claimed get none.
pub async fn issue_for_slips(
    pool: &PgPool,
    actor: &Actor,
    event_id: EventId,
    players: &[PlayerId],
    expires_at: DateTime<Utc>,
) -> Result<Vec<SlipCode>, TokenError> {
    crate::roles::authorize(pool, Some(actor), event_id, crate::roles::Action::RunEvent).await?;
    let ids: Vec<i64> = players.iter().map(|p| p.0).collect();
    let mut tx = pool.begin().await?;
    let unclaimed: Vec<(PlayerId, String)> = sqlx::query_as(
        "SELECT id, name FROM players WHERE event_id = $1 AND id = ANY($2) AND user_id IS NULL \
         ORDER BY id FOR UPDATE",
    )
    .bind(event_id)
    .bind(&ids)
    .fetch_all(&mut *tx)
    .await?;
    let mut codes = Vec::with_capacity(unclaimed.len());
    for (player_id, name) in unclaimed {
        let new = NewToken::player_claim(&name, player_id, expires_at);
        let issued = tokens::insert_in(&mut tx, actor, Some(event_id), &new).await?;
        codes.push(SlipCode {
            player_id,
            secret: issued.secret,
        });
    }
    tx.commit().await?;
    Ok(codes)
}

/// A claim taken: the player now tied to the account.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Claimed {
    pub event_id: EventId,
    pub event_slug: String,
    pub player_id: PlayerId,
    pub player_name: String,
}

#[derive(Debug, thiserror::Error)]
pub enum ClaimError {
    #[error(transparent)]
    Refused(#[from] Refusal),
    #[error(
        "The registration of {0} is already tied to another account; ask the head judge if that is not you."
    )]
    AlreadyClaimed(String),
    #[error(
        "Your account already holds the registration of {0} in this event; one account plays one seat."
    )]
    AccountTaken(String),
    #[error("database error")]
    Database(#[from] sqlx::Error),
}

/// Spends the code and ties `taker`'s account to its player, in one transaction; gives her the
/// player role in the event unless she holds a role already. Claiming one's own registration
/// again is refused as spent (the code works once), and changes nothing.
pub async fn claim(pool: &PgPool, taker: &Actor, code: &str) -> Result<Claimed, ClaimError> {
    let mut tx = pool.begin().await?;
    let purpose = format!("claimed by {}", taker.username);
    let redeemed = tokens::redeem_in(
        &mut tx,
        TokenKind::PlayerClaim,
        code,
        tokens::Use { purpose: &purpose },
    )
    .await?;
    let Grant::Player(player_id) = redeemed.token.grant else {
        return Err(Refusal::WrongKind(TokenKind::PlayerClaim).into());
    };
    let Some(event_id) = redeemed.token.event_id else {
        return Err(ClaimError::Refused(Refusal::WrongKind(
            TokenKind::PlayerClaim,
        )));
    };
    let (name, holder): (String, Option<tournament::ids::UserId>) = sqlx::query_as(
        "SELECT name, user_id FROM players WHERE event_id = $1 AND id = $2 FOR UPDATE",
    )
    .bind(event_id)
    .bind(player_id)
    .fetch_one(&mut *tx)
    .await?;
    if holder.is_some_and(|h| h != taker.user_id) {
        return Err(ClaimError::AlreadyClaimed(name));
    }
    let other: Option<String> = sqlx::query_scalar(
        "SELECT name FROM players WHERE event_id = $1 AND user_id = $2 AND id <> $3",
    )
    .bind(event_id)
    .bind(taker.user_id)
    .bind(player_id)
    .fetch_optional(&mut *tx)
    .await?;
    if let Some(other) = other {
        return Err(ClaimError::AccountTaken(other));
    }
    sqlx::query("UPDATE players SET user_id = $2, version = version + 1 WHERE id = $1")
        .bind(player_id)
        .bind(taker.user_id)
        .execute(&mut *tx)
        .await?;
    sqlx::query(
        "INSERT INTO event_roles (event_id, user_id, role, granted_by) VALUES ($1, $2, 'player', $3) \
         ON CONFLICT (event_id, user_id) DO NOTHING",
    )
    .bind(event_id)
    .bind(taker.user_id)
    .bind(redeemed.token.created_by_id)
    .execute(&mut *tx)
    .await?;
    audit::record(
        &mut *tx,
        audit::Entry::by(
            taker,
            audit::Action::PlayerLinked,
            event_id,
            &name,
            serde_json::json!({ "account": taker.username, "claim": redeemed.token.id }),
        ),
    )
    .await?;
    let slug: String = sqlx::query_scalar("SELECT slug FROM events WHERE id = $1")
        .bind(event_id)
        .fetch_one(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(Claimed {
        event_id,
        event_slug: slug,
        player_id,
        player_name: name,
    })
}

/// The player of the event tied to `actor`'s account, if any: the event page opens on her.
pub async fn player_of(
    pool: &PgPool,
    actor: &Actor,
    event_id: EventId,
) -> Result<Option<PlayerId>, sqlx::Error> {
    sqlx::query_scalar("SELECT id FROM players WHERE event_id = $1 AND user_id = $2")
        .bind(event_id)
        .bind(actor.user_id)
        .fetch_optional(pool)
        .await
}
