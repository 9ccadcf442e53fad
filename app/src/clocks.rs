//! Server functions for the clocks of a whole room: start every table's clock of a round at one
//! instant, pause them all (a fire alarm) and resume them all (4.01.08).

use leptos::prelude::*;
#[cfg(feature = "ssr")]
use leptos::server_fn::ServerFn;
use tournament::ids::RoundNumber;

use crate::error::AppError;
#[cfg(feature = "ssr")]
use crate::{
    events::load,
    server::{answer, fail, pool, require_staff},
};

/// `command`: `start`, `pause` or `resume`, for every table of round `number`. Returns what was
/// done, with the tables left as they were and why.
#[server]
pub async fn room_clocks(
    slug: String,
    number: RoundNumber,
    command: String,
) -> Result<Vec<String>, AppError> {
    use db::clocks::RoomCommand;
    let event = load(&slug).await?;
    let actor = require_staff(event.id, db::roles::Action::RunEvent).await?;
    let command = match command.as_str() {
        "start" => RoomCommand::StartAll,
        "pause" => RoomCommand::PauseAll,
        "resume" => RoomCommand::ResumeAll,
        _ => return fail(AppError::Invalid("Unknown clock command.".into())),
    };
    let outcome = answer(db::clocks::apply_all(&pool()?, &actor, event.id, number, command).await)?;
    let mut said = vec![outcome.summary(command)];
    said.extend(
        outcome
            .skipped
            .iter()
            .map(|(table, why)| format!("Table {table} left as it was: {why}.")),
    );
    if let Some((first, rest)) = said.split_first() {
        crate::server::back_with(RoomClocks::url(), first, rest);
    }
    Ok(said)
}
