//! Server functions that guard the end of qualifying: closing it while rounds remain needs an
//! explicit confirmation, and the head judge may reopen it (audited).

use leptos::prelude::*;

use crate::error::AppError;
#[cfg(feature = "ssr")]
use crate::{
    events::load,
    server::{answer, pool, require_staff},
};

/// Closes qualifying. While planned rounds remain undrawn it is refused at the `confirm`
/// checkbox, naming how many remain, unless the checkbox is ticked (`confirm=true`).
#[server]
pub async fn close_qualifying(
    slug: String,
    #[server(default)] confirm: bool,
) -> Result<(), AppError> {
    let event = load(&slug).await?;
    let actor = require_staff(event.id, db::roles::Action::Override).await?;
    answer(db::results::finals::close_qualifying(&pool()?, &actor, event.id, confirm).await)
        .map(|_| ())
}

/// The head judge reopens qualifying: rounds may be drawn again.
#[server]
pub async fn reopen_qualifying(slug: String) -> Result<(), AppError> {
    let event = load(&slug).await?;
    let actor = require_staff(event.id, db::roles::Action::Override).await?;
    answer(db::results::finals::reopen_qualifying(&pool()?, &actor, event.id).await)
}
