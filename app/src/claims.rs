//! Player claims on the server: the head judge makes a one-use code for a player (on the
//! player's card, shown once), and the player takes it at `/claim` (typed, or from the link
//! `/claim?code=…`), signed in or with a new account. Her account is tied to her registration
//! in the transaction that spends the code (`db::claims::claim`).

use leptos::prelude::*;
use serde::{Deserialize, Serialize};
use tournament::ids::PlayerId;

use crate::error::AppError;
#[cfg(feature = "ssr")]
use crate::server::{fail, internal};

/// How long a claim code works: the length of a weekend event.
pub const CLAIM_DAYS: i64 = 4;

/// A claim code just made, shown once on the player's card.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NewClaim {
    pub player_id: PlayerId,
    pub code: String,
    pub link: String,
    pub expires: String,
    /// Why a phone cannot open `link`, when it cannot (`qr::link_warning`).
    pub warning: Option<String>,
}

#[cfg(feature = "ssr")]
const NEW_CLAIM_KEY: &str = "new_claim";

#[cfg(feature = "ssr")]
fn claim_error(e: db::claims::ClaimError) -> AppError {
    use db::{claims::ClaimError, tokens::Refusal};
    match e {
        ClaimError::Database(e) | ClaimError::Refused(Refusal::Database(e)) => {
            internal("taking the claim code", e)
        }
        ClaimError::Refused(Refusal::Unknown) => AppError::field(
            "code",
            "This claim code is not known: check it against your slip (12 letters and digits), or ask the head judge for a new one.",
        ),
        other => AppError::field("code", other.to_string()),
    }
}

/// Makes a claim code for a player (head judges and organisers) and keeps it for the card to
/// show once.
#[server]
pub async fn make_claim_code(slug: String, player_id: PlayerId) -> Result<(), AppError> {
    let event = crate::events::load(&slug).await?;
    let actor = crate::server::require_staff(event.id, db::roles::Action::RunEvent).await?;
    let expires = chrono::Utc::now() + chrono::Duration::days(CLAIM_DAYS);
    let pool = crate::server::pool()?;
    let issued = match db::claims::issue(&pool, &actor, event.id, player_id, expires).await {
        Ok(issued) => issued,
        Err(db::tokens::TokenError::NotFound) => {
            return fail(AppError::NotFound("No such player in this event.".into()));
        }
        Err(db::tokens::TokenError::Access(_)) => {
            return fail(AppError::Forbidden(
                "Only the head judge and organisers make claim codes.".into(),
            ));
        }
        Err(e) => return Err(internal("making the claim code", e)),
    };
    let code = issued.secret.expose().to_owned();
    let path = format!("/claim?code={code}");
    // The event's public address, as the QR codes have it: the link is opened on a phone.
    let link = crate::qr::event_link(event.id, &path).await?;
    let session = crate::server::session().await?;
    session
        .insert(
            NEW_CLAIM_KEY,
            NewClaim {
                player_id,
                code,
                warning: crate::qr::link_warning(&link),
                link,
                expires: expires.format("%Y-%m-%d %H:%M UTC").to_string(),
            },
        )
        .await
        .map_err(|e| internal("keeping the new code", e))?;
    crate::server::back();
    Ok(())
}

/// The claim code just made for this player, once: reading it forgets it. `None` as well for
/// anyone who may not make codes.
#[server]
pub async fn take_new_claim(
    slug: String,
    player_id: PlayerId,
) -> Result<Option<NewClaim>, AppError> {
    let event = crate::events::load(&slug).await?;
    let Some(actor) = crate::server::actor().await? else {
        return Ok(None);
    };
    let pool = crate::server::pool()?;
    let role = db::roles::role_of(&pool, actor.user_id, event.id)
        .await
        .map_err(|e| internal("checking your role", e))?;
    if !db::roles::allows(role, actor.is_admin, db::roles::Action::RunEvent) {
        return Ok(None);
    }
    let session = crate::server::session().await?;
    let kept: Option<NewClaim> = session
        .get(NEW_CLAIM_KEY)
        .await
        .map_err(|e| internal("reading the new code", e))?;
    match kept {
        Some(new) if new.player_id == player_id => {
            session
                .remove::<NewClaim>(NEW_CLAIM_KEY)
                .await
                .map_err(|e| internal("forgetting the new code", e))?;
            Ok(Some(new))
        }
        _ => Ok(None),
    }
}

/// Whether the viewer may make claim codes in the event (the card shows the form).
#[server]
pub async fn can_make_claims(slug: String) -> Result<bool, AppError> {
    let event = crate::events::load(&slug).await?;
    let Some(actor) = crate::server::actor().await? else {
        return Ok(false);
    };
    let role = db::roles::role_of(&crate::server::pool()?, actor.user_id, event.id)
        .await
        .map_err(|e| internal("checking your role", e))?;
    Ok(db::roles::allows(
        role,
        actor.is_admin,
        db::roles::Action::RunEvent,
    ))
}

/// The signed-in player takes a code; she lands on her card.
#[server]
pub async fn claim_registration(code: String) -> Result<(), AppError> {
    let actor = crate::server::require_actor().await?;
    if code.trim().is_empty() {
        return fail(AppError::field(
            "code",
            "Enter the claim code from your slip.",
        ));
    }
    match db::claims::claim(&crate::server::pool()?, &actor, &code).await {
        Ok(claimed) => {
            crate::server::go_to(&format!(
                "/events/{}/find/{}",
                claimed.event_slug, claimed.player_id
            ));
            Ok(())
        }
        Err(e) => fail(claim_error(e)),
    }
}

/// A player without an account makes one with her code and takes it.
#[server]
pub async fn join_by_claim(
    code: String,
    username: String,
    password: String,
    repeat: String,
) -> Result<(), AppError> {
    let pool = crate::server::pool()?;
    if code.trim().is_empty() {
        return fail(AppError::field(
            "code",
            "Enter the claim code from your slip.",
        ));
    }
    // Refuse a dead code before making an account that would then hold nothing.
    if let Err(e) = db::tokens::inspect(&pool, db::tokens::TokenKind::PlayerClaim, &code).await {
        return fail(claim_error(db::claims::ClaimError::Refused(e)));
    }
    let actor =
        crate::server::create_account_and_sign_in(&pool, &username, password, &repeat).await?;
    match db::claims::claim(&pool, &actor, &code).await {
        Ok(claimed) => {
            crate::server::go_to(&format!(
                "/events/{}/find/{}",
                claimed.event_slug, claimed.player_id
            ));
            Ok(())
        }
        Err(e) => fail(claim_error(e)),
    }
}
