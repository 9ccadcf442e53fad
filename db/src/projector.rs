//! What the projector shows from the back of the hall: the latest round's tables with their
//! clocks and seats, which tables need a judge, and the standings. One read for one page.

use serde::Serialize;
use sqlx::PgPool;
use tournament::ids::EventId;

use crate::{
    results::{queue, standings},
    rounds,
};

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Projector {
    /// The latest round, `None` before the first is drawn.
    pub round: Option<rounds::RoundDetail>,
    pub queue: queue::Queue,
    pub standings: standings::EventStandings,
}

pub async fn projector(pool: &PgPool, event_id: EventId) -> Result<Projector, sqlx::Error> {
    let round = match rounds::latest_number(pool, event_id).await? {
        Some(number) => rounds::detail(pool, event_id, number).await?,
        None => None,
    };
    Ok(Projector {
        round,
        queue: queue::queue(pool, event_id).await?,
        standings: standings::event_standings(pool, event_id).await?,
    })
}
