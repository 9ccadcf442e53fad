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
}

#[server]
pub async fn current_user() -> Result<Option<UserInfo>, AppError> {
    Ok(crate::server::actor().await?.map(|a| UserInfo {
        username: a.username,
        is_admin: a.is_admin,
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
}
