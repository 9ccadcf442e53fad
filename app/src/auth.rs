//! Signing in and out, and the signed-in user as the pages see them.

use leptos::prelude::*;
use serde::{Deserialize, Serialize};

use crate::error::AppError;
#[cfg(feature = "ssr")]
use crate::server::{fail, internal};

/// What a page may know of the signed-in user. Never the password or its hash.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct UserInfo {
    pub username: String,
    pub is_admin: bool,
    /// The name she chose to be shown by, if any.
    pub display_name: Option<String>,
}

impl UserInfo {
    /// How the header names her.
    pub fn shown_name(&self) -> String {
        self.display_name
            .clone()
            .unwrap_or_else(|| self.username.clone())
    }
}

#[server]
pub async fn current_user() -> Result<Option<UserInfo>, AppError> {
    let Some(actor) = crate::server::actor().await? else {
        return Ok(None);
    };
    let display_name = db::accounts::display_name(&crate::server::pool()?, actor.user_id)
        .await
        .map_err(|e| internal("loading your account", e))?;
    Ok(Some(UserInfo {
        username: actor.username,
        is_admin: actor.is_admin,
        display_name,
    }))
}

/// Whether any account exists; with none, the sign-in page says how to create the first.
#[server]
pub async fn accounts_exist() -> Result<bool, AppError> {
    let pool = crate::server::pool()?;
    db::accounts::count(&pool)
        .await
        .map(|n| n > 0)
        .map_err(|e| internal("counting accounts", e))
}

/// Signs in and returns where to go next (a path on this site).
#[server]
pub async fn sign_in(
    login: String,
    password: String,
    next: Option<String>,
) -> Result<String, AppError> {
    if login.trim().is_empty() {
        return fail(AppError::field("login", "Enter your user name or email."));
    }
    if password.is_empty() {
        return fail(AppError::field("password", "Enter your password."));
    }
    let pool = crate::server::pool()?;
    let addr = crate::server::client_address().await;
    let password = db::password::Password::new(password);
    match db::accounts::sign_in(&pool, &login, password, &addr).await {
        Ok(actor) => {
            crate::server::start_session(&actor).await?;
            let next = safe_next(next.as_deref());
            // A full page load, so every part of the page (the header's user name included) is
            // rendered afresh for the new session.
            crate::server::go_to(&next);
            Ok(next)
        }
        Err(e @ db::accounts::SignInError::Invalid) => {
            fail(AppError::field("password", e.to_string()))
        }
        Err(e @ db::accounts::SignInError::Blocked { .. }) => {
            crate::server::set_status(http::StatusCode::TOO_MANY_REQUESTS);
            Err(AppError::Invalid(e.to_string()))
        }
        Err(e) => Err(internal("signing in", e)),
    }
}

/// Only paths on this site, so a crafted link cannot send someone elsewhere after sign-in.
pub fn safe_next(next: Option<&str>) -> String {
    match next {
        Some(path) if path.starts_with('/') && !path.starts_with("//") && !path.contains('\\') => {
            path.to_owned()
        }
        _ => "/events".to_owned(),
    }
}

/// The sign-in page, coming back to `here` (a path on this site) afterwards.
pub fn sign_in_path(here: &str) -> String {
    let here = safe_next(Some(here));
    if here == "/signin" || here.starts_with("/signin?") {
        return "/signin".to_owned();
    }
    // Percent-encoding by hand: a dozen lines instead of a crate in the browser half too.
    let mut encoded = String::with_capacity(here.len());
    for byte in here.bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' | b'/' => {
                encoded.push(byte as char)
            }
            _ => encoded.push_str(&format!("%{byte:02X}")),
        }
    }
    format!("/signin?next={encoded}")
}

#[server]
pub async fn sign_out() -> Result<String, AppError> {
    if let Some(actor) = crate::server::actor().await? {
        let pool = crate::server::pool()?;
        db::accounts::record_sign_out(&pool, &actor)
            .await
            .map_err(|e| internal("signing out", e))?;
    }
    crate::server::end_session().await?;
    crate::server::go_to("/");
    Ok("/".to_owned())
}

/// Signs out every session of the account, this one included: a phone left signed in at the
/// venue is signed out too.
#[server]
pub async fn sign_out_everywhere() -> Result<(), AppError> {
    let actor = crate::server::require_actor().await?;
    let pool = crate::server::pool()?;
    db::accounts::sign_out_everywhere(&pool, &actor)
        .await
        .map_err(|e| internal("signing out everywhere", e))?;
    crate::server::end_session().await?;
    crate::server::go_to("/signin?next=/account");
    Ok(())
}

/// Changes the name shown for the account (empty: the user name).
#[server]
pub async fn change_display_name(display_name: String) -> Result<(), AppError> {
    let actor = crate::server::require_actor().await?;
    let pool = crate::server::pool()?;
    match db::accounts::set_display_name(&pool, &actor, &display_name).await {
        Ok(name) => {
            use leptos::server_fn::ServerFn;
            let said = match name {
                Some(name) => format!("You are now shown as {name}."),
                None => "You are shown by your user name.".to_owned(),
            };
            crate::server::back_with(ChangeDisplayName::url(), &said, &[]);
            Ok(())
        }
        Err(e @ db::accounts::DisplayNameError::Invalid) => {
            fail(AppError::field("display_name", e.to_string()))
        }
        Err(e) => Err(internal("changing the display name", e)),
    }
}

#[server]
pub async fn change_password(current: String, new: String, repeat: String) -> Result<(), AppError> {
    let actor = crate::server::require_actor().await?;
    if new != repeat {
        return fail(AppError::field("repeat", "The two new passwords differ."));
    }
    let new = match db::password::Password::new_choice(new) {
        Ok(p) => p,
        Err(message) => return fail(AppError::field("new", message)),
    };
    let pool = crate::server::pool()?;
    match db::accounts::change_password(&pool, &actor, db::password::Password::new(current), new)
        .await
    {
        Ok(()) => {
            use leptos::server_fn::ServerFn;
            crate::server::back_with(ChangePassword::url(), "Your password was changed.", &[]);
            Ok(())
        }
        Err(e @ db::accounts::ChangePasswordError::WrongCurrent) => {
            fail(AppError::field("current", e.to_string()))
        }
        Err(e) => Err(internal("changing the password", e)),
    }
}

#[cfg(test)]
mod tests {
    use super::safe_next;

    #[test]
    fn only_local_paths_are_followed_after_sign_in() {
        assert_eq!(safe_next(Some("/events/gencon")), "/events/gencon");
        assert_eq!(safe_next(Some("//evil.example/")), "/events");
        assert_eq!(safe_next(Some("https://evil.example/")), "/events");
        assert_eq!(safe_next(Some("/\\evil.example")), "/events");
        assert_eq!(safe_next(None), "/events");
    }

    #[test]
    fn the_sign_in_link_carries_the_page_it_was_followed_from() {
        use super::sign_in_path;
        assert_eq!(
            sign_in_path("/events/gencon/find?q=Hanna Ö&x=1"),
            "/signin?next=/events/gencon/find%3Fq%3DHanna%20%C3%96%26x%3D1"
        );
        assert_eq!(sign_in_path("/signin?next=/x"), "/signin");
        assert_eq!(sign_in_path("//evil.example"), "/signin?next=/events");
    }
}
