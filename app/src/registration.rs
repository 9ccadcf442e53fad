//! Server functions that fix registration: edit a player's name, e-mail or club at any time
//! (audited; every page reads names from the database, so the fix shows everywhere), and delete
//! a player who was never seated.

// A server function takes one argument per form field. (The browser-side stub the `server` macro
// writes does not carry an `allow` on the function.)
#![allow(clippy::too_many_arguments)]

use leptos::prelude::*;
#[cfg(feature = "ssr")]
use leptos::server_fn::ServerFn;
use tournament::ids::PlayerId;

use crate::error::AppError;
#[cfg(feature = "ssr")]
use crate::{
    events::load,
    server::{answer, fail, pool, require_staff},
};

/// One player, for their edit page.
#[server]
pub async fn get_player(
    slug: String,
    player_id: PlayerId,
) -> Result<crate::players::PlayerRow, AppError> {
    let event = load(&slug).await?;
    require_staff(event.id, db::roles::Action::RunEvent).await?;
    let found = db::players::get(&pool()?, event.id, player_id)
        .await
        .map_err(|e| crate::server::internal("loading the player", e))?;
    let Some(p) = found else {
        return fail(AppError::NotFound(
            "There is no such player in this event.".into(),
        ));
    };
    Ok(crate::players::PlayerRow {
        late_after: p.is_late_entry().then_some(p.entered_after_round),
        id: p.id,
        email: p.email.unwrap_or_default(),
        club: p.club.unwrap_or_default(),
        checked_in: p.checked_in,
        alternate: p.alternate,
        dropped_after: p.dropped_after_round,
        version: p.version,
        linked: p.user_id.is_some(),
        search_name: db::players::search::fold(&p.name),
        sort_as: p.sort_as.unwrap_or_default(),
        name: p.name,
    })
}

/// The players whose name matches `query` the forgiving way (case, accents, any part of the
/// name), for check-in at the door; every player when the query is empty.
#[server]
pub async fn search_registered(
    slug: String,
    query: String,
) -> Result<Vec<crate::players::PlayerRow>, AppError> {
    let rows = crate::players::list_players(slug).await?;
    if db::players::search::fold(&query).is_empty() {
        return Ok(rows);
    }
    Ok(db::players::matching(rows, &query, |r| &r.name, usize::MAX))
}

/// Saves a player's details if the entry is still as the page showed it; returns the name.
#[server]
pub async fn edit_player(
    slug: String,
    player_id: PlayerId,
    version: i32,
    name: String,
    #[server(default)] email: String,
    #[server(default)] club: String,
    #[server(default)] sort_as: String,
    // The form shows the sort key (so an empty box clears it); a form without it keeps it.
    #[server(default)] sort_as_shown: bool,
) -> Result<String, AppError> {
    let event = load(&slug).await?;
    let actor = require_staff(event.id, db::roles::Action::RunEvent).await?;
    let new = match db::players::NewPlayer::parse(&name, &email, &club) {
        Ok(new) => new,
        Err(problem) => return fail(AppError::field(problem.field, problem.message)),
    };
    let sort_as = if sort_as_shown {
        match db::players::parse_sort_as(&sort_as) {
            Ok(key) => Some(key),
            Err(message) => return fail(AppError::field("sort_as", message)),
        }
    } else {
        None
    };
    let name = answer(
        db::players::edit_with_sort_key(
            &pool()?,
            &actor,
            event.id,
            player_id,
            version,
            new,
            sort_as,
        )
        .await,
    )?
    .name;
    crate::server::back_with(EditPlayer::url(), &format!("Saved: {name}."), &[]);
    Ok(name)
}

/// Deletes a player who has never sat at a table; a seated player is refused with where they
/// played and the advice to drop them instead. Returns the name deleted.
#[server]
pub async fn delete_player(
    slug: String,
    player_id: PlayerId,
    version: i32,
    #[server(default)] confirm: bool,
) -> Result<String, AppError> {
    let event = load(&slug).await?;
    let actor = require_staff(event.id, db::roles::Action::RunEvent).await?;
    let pool = pool()?;
    let name = db::players::get(&pool, event.id, player_id)
        .await
        .map_err(|e| crate::server::internal("loading the player", e))?
        .map(|p| p.name)
        .unwrap_or_default();
    // Deleting cannot be undone: the form asks once.
    if !confirm {
        return fail(AppError::field(
            "confirm",
            format!("Tick the box to confirm that {name} is to be deleted."),
        ));
    }
    answer(db::players::delete(&pool, &actor, event.id, player_id, version).await)?;
    // The player's page is gone: back to the list, which says who was deleted.
    let said: String = url::form_urlencoded::Serializer::new(String::new())
        .append_pair(crate::forms::DONE, DeletePlayer::url())
        .append_pair(crate::forms::SAID, &format!("{name} deleted."))
        .finish();
    crate::server::go_to(&format!("/events/{}/players?{said}", event.slug));
    Ok(name)
}
