//! Staff invitations: a one-use link (a [`TokenKind::StaffInvite`] token) that gives whoever
//! opens it, once signed in, the role it names in its event. The role is written in the same
//! transaction that spends the link, so a link is never spent without its role given, nor a
//! role given twice by one link.

use sqlx::PgPool;
use tournament::ids::EventId;

use crate::{
    audit,
    roles::{self, Action, Actor, Role},
    tokens::{self, Grant, Refusal, Token, TokenKind},
};

/// An invitation as its visitor sees it before taking it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invitation {
    pub token: Token,
    pub role: Role,
    pub event_slug: String,
    pub event_name: String,
    /// Who made it.
    pub from: Option<String>,
}

/// An invitation taken: the event, and the role its taker now holds there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Accepted {
    pub event_id: EventId,
    pub event_slug: String,
    /// The role held now: the invitation's, or a higher one held already.
    pub role: Role,
}

fn role_of(token: &Token) -> Result<Role, Refusal> {
    match token.grant {
        Grant::Role(role) => Ok(role),
        Grant::Player(_) | Grant::Maker => Err(Refusal::WrongKind(TokenKind::StaffInvite)),
    }
}

async fn event_of(
    db: impl sqlx::PgExecutor<'_>,
    event_id: EventId,
) -> Result<(String, String), sqlx::Error> {
    sqlx::query_as("SELECT slug, name FROM events WHERE id = $1")
        .bind(event_id)
        .fetch_one(db)
        .await
}

/// What the link `secret` offers, or why it is refused (used, expired, revoked, unknown).
pub async fn inspect(pool: &PgPool, secret: &str) -> Result<Invitation, Refusal> {
    let token = tokens::inspect(pool, TokenKind::StaffInvite, secret).await?;
    let role = role_of(&token)?;
    let event_id = token
        .event_id
        .ok_or(Refusal::WrongKind(TokenKind::StaffInvite))?;
    let (event_slug, event_name) = event_of(pool, event_id).await?;
    Ok(Invitation {
        role,
        event_slug,
        event_name,
        from: token.created_by.clone(),
        token,
    })
}

/// Spends the link `secret` and gives `taker` its role in its event, in one transaction. A
/// role she already holds that grants more is kept (an organiser who opens a judge's link stays
/// organiser).
pub async fn accept(pool: &PgPool, taker: &Actor, secret: &str) -> Result<Accepted, Refusal> {
    let mut tx = pool.begin().await?;
    let purpose = format!("taken by {}", taker.username);
    let redeemed = tokens::redeem_in(
        &mut tx,
        TokenKind::StaffInvite,
        secret,
        tokens::Use { purpose: &purpose },
    )
    .await?;
    let invited = role_of(&redeemed.token)?;
    // A link is worth no more than its maker's present role: taking her role away also stops
    // the invitations she handed out.
    let needed = if invited == Role::Organiser {
        Action::ManageStaff
    } else {
        Action::InviteStaff
    };
    if !roles::allows(redeemed.maker_role, redeemed.maker_is_admin, needed) {
        return Err(Refusal::MakerLacksRole {
            kind: TokenKind::StaffInvite,
            label: redeemed.token.label,
        });
    }
    let event_id = redeemed
        .token
        .event_id
        .ok_or(Refusal::WrongKind(TokenKind::StaffInvite))?;
    let held = roles::role_of(&mut *tx, taker.user_id, event_id).await?;
    let role = match held {
        Some(held) if held.rank() >= invited.rank() => held,
        _ => {
            sqlx::query(
                "INSERT INTO event_roles (event_id, user_id, role, granted_by) VALUES ($1, $2, $3, $4) \
                 ON CONFLICT (event_id, user_id) DO UPDATE SET role = $3, granted_by = $4, granted_at = now()",
            )
            .bind(event_id)
            .bind(taker.user_id)
            .bind(invited)
            .bind(redeemed.token.created_by_id)
            .execute(&mut *tx)
            .await?;
            let mut entry = audit::Entry::new(audit::Action::RoleGranted);
            entry.actor_id = Some(redeemed.actor.user_id);
            entry.actor = Some(&redeemed.actor.username);
            entry.event_id = Some(event_id);
            entry.subject = Some(&taker.username);
            entry.detail = serde_json::json!({
                "role": invited.as_str(), "invitation": redeemed.token.id,
            });
            audit::record(&mut *tx, entry).await?;
            invited
        }
    };
    let (event_slug, _) = event_of(&mut *tx, event_id).await?;
    tx.commit().await?;
    Ok(Accepted {
        event_id,
        event_slug,
        role,
    })
}
