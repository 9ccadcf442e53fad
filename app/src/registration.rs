//! Server functions that fix registration: edit a player's name, e-mail or club at any time
//! (audited; every page reads names from the database, so the fix shows everywhere), and delete
//! a player who was never seated.

use leptos::prelude::*;
use tournament::ids::PlayerId;

use crate::error::AppError;
#[cfg(feature = "ssr")]
use crate::{
    events::load,
    server::{answer, fail, pool, require_staff},
};

/// Saves a player's details if the entry is still as the page showed it; returns the name.
#[server]
pub async fn edit_player(
    slug: String,
    player_id: PlayerId,
    version: i32,
    name: String,
    #[server(default)] email: String,
    #[server(default)] club: String,
) -> Result<String, AppError> {
    let event = load(&slug).await?;
    let actor = require_staff(event.id, db::roles::Action::RunEvent).await?;
    let new = match db::players::NewPlayer::parse(&name, &email, &club) {
        Ok(new) => new,
        Err(problem) => return fail(AppError::field(problem.field, problem.message)),
    };
    answer(db::players::edit(&pool()?, &actor, event.id, player_id, version, new).await)
        .map(|p| p.name)
}

/// Deletes a player who has never sat at a table; a seated player is refused with where they
/// played and the advice to drop them instead. Returns the name deleted.
#[server]
pub async fn delete_player(
    slug: String,
    player_id: PlayerId,
    version: i32,
) -> Result<String, AppError> {
    let event = load(&slug).await?;
    let actor = require_staff(event.id, db::roles::Action::RunEvent).await?;
    let pool = pool()?;
    let name = db::players::get(&pool, event.id, player_id)
        .await
        .map_err(|e| crate::server::internal("loading the player", e))?
        .map(|p| p.name)
        .unwrap_or_default();
    answer(db::players::delete(&pool, &actor, event.id, player_id, version).await).map(|()| name)
}
