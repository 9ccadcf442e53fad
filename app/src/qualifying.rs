//! Server functions that guard the end of qualifying: closing it while rounds remain needs an
//! explicit confirmation, and the head judge may reopen it (audited).

use leptos::prelude::*;
use serde::{Deserialize, Serialize};

use crate::error::AppError;
#[cfg(feature = "ssr")]
use crate::{
    events::load,
    server::{answer, pool, require_staff},
};

/// Where qualifying stands against its plan, for the warning beside the closing form.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct QualifyingPlan {
    pub rounds_drawn: i32,
    pub rounds_planned: i32,
    pub closed: bool,
}

impl QualifyingPlan {
    pub fn remaining(&self) -> i32 {
        (self.rounds_planned - self.rounds_drawn).max(0)
    }
}

#[server]
pub async fn qualifying_state(slug: String) -> Result<QualifyingPlan, AppError> {
    use crate::server::{internal, require};
    let event = load(&slug).await?;
    require(event.id, db::roles::Action::ViewPublic).await?;
    let pool = pool()?;
    let failed = |e| internal("reading the event", e);
    let planned = db::events::detail(&pool, event.id)
        .await
        .map_err(failed)?
        .map_or(0, |d| d.settings.qualifying_rounds);
    let drawn = db::rounds::latest_qualifying(&pool, event.id)
        .await
        .map_err(failed)?
        .map_or(0, |n| n.get());
    let closed = db::results::qualifying::closed(&pool, event.id)
        .await
        .map_err(failed)?
        .is_some();
    Ok(QualifyingPlan {
        rounds_drawn: drawn,
        rounds_planned: planned,
        closed,
    })
}

/// Closes qualifying. While planned rounds remain undrawn it is refused at the `confirm`
/// checkbox, naming how many remain, unless the checkbox is ticked (`confirm=true`).
#[server]
pub async fn close_qualifying(
    slug: String,
    #[server(default)] confirm: bool,
) -> Result<(), AppError> {
    let event = load(&slug).await?;
    let actor = require_staff(event.id, db::roles::Action::Override).await?;
    answer(db::results::finals::close_qualifying(&pool()?, &actor, event.id, confirm).await)?;
    crate::server::back();
    Ok(())
}

/// The head judge reopens qualifying: rounds may be drawn again.
#[server]
pub async fn reopen_qualifying(
    slug: String,
    #[server(default)] confirm: bool,
) -> Result<(), AppError> {
    let event = load(&slug).await?;
    let actor = require_staff(event.id, db::roles::Action::Override).await?;
    answer(db::results::finals::reopen_qualifying(&pool()?, &actor, event.id, confirm).await)?;
    crate::server::back();
    Ok(())
}
