//! Staff invitations on the server: making a one-use link (organisers and head judges, on the
//! staff page), showing it once, and taking it (`/invite/{secret}`) by signing in or creating
//! an account. The role is given in the transaction that spends the link
//! (`db::invitations::accept`).

use leptos::prelude::*;
use serde::{Deserialize, Serialize};

use crate::error::AppError;
#[cfg(feature = "ssr")]
use crate::server::{fail, internal};

/// Longest an invitation may stay open: a link in a chat should not outlive the event's week.
pub const MAX_DAYS: i64 = 14;

/// An invitation as its visitor sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct InvitationView {
    pub event_name: String,
    pub event_slug: String,
    pub role: String,
    pub from: Option<String>,
    pub expires: String,
    /// The visitor's user name when signed in.
    pub signed_in_as: Option<String>,
}

/// The link just made, shown once on the staff page (kept in the session until then, so the
/// secret never travels in an address the inviter's browser remembers).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NewInvitation {
    pub slug: String,
    pub label: String,
    pub role: String,
    pub link: String,
    /// Why a phone cannot open `link`, when it cannot (`qr::link_warning`).
    pub warning: Option<String>,
}

/// An invitation still open or already taken, as the staff page lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct InvitationRow {
    pub id: i64,
    pub label: String,
    pub role: String,
    pub standing: String,
    pub open: bool,
}

#[cfg(feature = "ssr")]
const NEW_INVITATION_KEY: &str = "new_invitation";

#[cfg(feature = "ssr")]
fn refusal(e: db::tokens::Refusal) -> AppError {
    match e {
        db::tokens::Refusal::Database(e) => internal("reading the invitation", e),
        other => AppError::Invalid(other.to_string()),
    }
}

/// What the link offers, or a sentence saying why it is refused.
#[server]
pub async fn invitation(secret: String) -> Result<InvitationView, AppError> {
    let pool = crate::server::pool()?;
    let seen = db::invitations::inspect(&pool, &secret)
        .await
        .map_err(refusal);
    let seen = match seen {
        Ok(seen) => seen,
        Err(e) => return fail(e),
    };
    let signed_in_as = crate::server::actor().await?.map(|a| a.username);
    Ok(InvitationView {
        event_name: seen.event_name,
        event_slug: seen.event_slug,
        role: seen.role.label().to_owned(),
        from: seen.from,
        expires: seen
            .token
            .expires_at
            .map(|at| at.format("%Y-%m-%d %H:%M UTC").to_string())
            .unwrap_or_default(),
        signed_in_as,
    })
}

/// The signed-in visitor takes the invitation; she lands on the event's page.
#[server]
pub async fn accept_invitation(secret: String) -> Result<(), AppError> {
    let actor = crate::server::require_actor().await?;
    let pool = crate::server::pool()?;
    match db::invitations::accept(&pool, &actor, &secret).await {
        Ok(accepted) => {
            crate::server::go_to(&format!("/events/{}", accepted.event_slug));
            Ok(())
        }
        Err(e) => fail(refusal(e)),
    }
}

/// A visitor without an account makes one and takes the invitation with it.
#[server]
pub async fn join_by_invitation(
    secret: String,
    username: String,
    password: String,
    repeat: String,
) -> Result<(), AppError> {
    let pool = crate::server::pool()?;
    // Refuse a dead link before making an account that would then hold nothing.
    if let Err(e) = db::invitations::inspect(&pool, &secret).await {
        return fail(refusal(e));
    }
    let actor =
        crate::server::create_account_and_sign_in(&pool, &username, password, &repeat).await?;
    match db::invitations::accept(&pool, &actor, &secret).await {
        Ok(accepted) => {
            crate::server::go_to(&format!("/events/{}", accepted.event_slug));
            Ok(())
        }
        Err(e) => fail(refusal(e)),
    }
}

/// Makes an invitation link (`days` until it expires) and keeps it for the staff page to show
/// once.
#[server]
pub async fn invite_staff(
    slug: String,
    label: String,
    role: String,
    days: String,
) -> Result<(), AppError> {
    use db::roles::{Action, Role};
    use db::tokens::{NewToken, TokenError};
    let event = crate::events::load(&slug).await?;
    let actor = crate::server::require_staff(event.id, Action::InviteStaff).await?;
    let role = match Role::parse(&role) {
        Some(role) if role != Role::Player => role,
        _ => return fail(AppError::field("role", "Choose one of the listed roles.")),
    };
    let days = match days.trim().parse::<i64>() {
        Ok(d) if (1..=MAX_DAYS).contains(&d) => d,
        _ => {
            return fail(AppError::field(
                "days",
                format!("Give a whole number of days from 1 to {MAX_DAYS}."),
            ));
        }
    };
    let expires = chrono::Utc::now() + chrono::Duration::days(days);
    let pool = crate::server::pool()?;
    let issued = match db::tokens::issue(
        &pool,
        &actor,
        event.id,
        NewToken::staff_invite(&label, role, expires),
    )
    .await
    {
        Ok(issued) => issued,
        Err(TokenError::BadLabel) => {
            return fail(AppError::field(
                "label",
                "Say who the link is for, in 1 to 80 characters (a name such as \"Sam\").",
            ));
        }
        Err(TokenError::Access(_)) => {
            return fail(AppError::field(
                "role",
                "Only an organiser invites organisers; a head judge invites judges and head judges.",
            ));
        }
        Err(e) => return Err(internal("making the invitation", e)),
    };
    let path = format!("/invite/{}", issued.secret.expose());
    // The event's public address, as the QR codes have it: the link is opened on a phone.
    let link = crate::qr::event_link(event.id, &path).await?;
    let session = crate::server::session().await?;
    session
        .insert(
            NEW_INVITATION_KEY,
            NewInvitation {
                slug: event.slug.clone(),
                label: issued.token.label.clone(),
                role: role.label().to_owned(),
                warning: crate::qr::link_warning(&link),
                link,
            },
        )
        .await
        .map_err(|e| internal("keeping the new link", e))?;
    crate::server::back();
    Ok(())
}

/// The link just made in this event, once: reading it forgets it.
#[server]
pub async fn take_new_invitation(slug: String) -> Result<Option<NewInvitation>, AppError> {
    let session = crate::server::session().await?;
    let kept: Option<NewInvitation> = session
        .get(NEW_INVITATION_KEY)
        .await
        .map_err(|e| internal("reading the new link", e))?;
    match kept {
        Some(new) if new.slug == slug => {
            session
                .remove::<NewInvitation>(NEW_INVITATION_KEY)
                .await
                .map_err(|e| internal("forgetting the new link", e))?;
            Ok(Some(new))
        }
        _ => Ok(None),
    }
}

/// The event's invitations, newest first.
#[server]
pub async fn event_invitations(slug: String) -> Result<Vec<InvitationRow>, AppError> {
    use db::tokens::{Grant, Standing, TokenKind};
    let event = crate::events::load(&slug).await?;
    crate::server::require_staff(event.id, db::roles::Action::InviteStaff).await?;
    let tokens = db::tokens::list(&crate::server::pool()?, event.id, TokenKind::StaffInvite)
        .await
        .map_err(|e| internal("listing invitations", e))?;
    let now = chrono::Utc::now();
    Ok(tokens
        .into_iter()
        .map(|t| {
            let standing = t.standing(now);
            InvitationRow {
                id: t.id,
                role: match t.grant {
                    Grant::Role(role) => role.label().to_owned(),
                    Grant::Player(_) | Grant::Maker => String::new(),
                },
                standing: match standing {
                    Standing::Active => format!(
                        "Open until {}",
                        t.expires_at
                            .map(|at| at.format("%Y-%m-%d %H:%M UTC").to_string())
                            .unwrap_or_default()
                    ),
                    Standing::Spent => "Used".to_owned(),
                    Standing::Expired => "Expired".to_owned(),
                    Standing::Revoked => "Withdrawn".to_owned(),
                },
                open: standing == Standing::Active,
                label: t.label,
            }
        })
        .collect())
}

/// Withdraws an open invitation: its link is refused from now on.
#[server]
pub async fn revoke_invitation(slug: String, id: i64) -> Result<(), AppError> {
    let event = crate::events::load(&slug).await?;
    let actor = crate::server::require_staff(event.id, db::roles::Action::InviteStaff).await?;
    match db::tokens::revoke(&crate::server::pool()?, &actor, event.id, id).await {
        Ok(_) => {
            crate::server::back();
            Ok(())
        }
        Err(db::tokens::TokenError::NotFound) => fail(AppError::NotFound(
            "There is no such invitation in this event.".into(),
        )),
        Err(db::tokens::TokenError::Access(_)) => fail(AppError::Forbidden(
            "Your role in this event does not allow this.".into(),
        )),
        Err(e) => Err(internal("withdrawing the invitation", e)),
    }
}
