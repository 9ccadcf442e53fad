//! Whether qualifying is closed, and who was in the finals then (rulings 11 and 13): the record
//! that the standings show and the finals page acts on.

use chrono::{DateTime, Utc};
use serde::Serialize;
use sqlx::{PgConnection, PgPool};
use tournament::ids::EventId;

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Closed {
    pub closed_at: DateTime<Utc>,
    pub closed_by: Option<String>,
    /// Sure of a seat when qualifying closed, in standings order.
    pub finalists: Vec<String>,
    /// Tied across the cut line, and the seats left for them.
    pub tied: Vec<String>,
    pub open_seats: i32,
    /// The draw that settled the tie: its seed and who it picked, in the order drawn.
    pub draw: Option<Draw>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Draw {
    pub seed: i64,
    pub picked: Vec<String>,
    pub by: Option<String>,
    pub at: DateTime<Utc>,
}

impl Closed {
    /// Everyone in the finals, or `None` while a cut tie is undrawn.
    pub fn all_finalists(&self) -> Option<Vec<String>> {
        if !self.tied.is_empty() && self.draw.is_none() {
            return None;
        }
        let mut all = self.finalists.clone();
        if let Some(d) = &self.draw {
            all.extend(d.picked.iter().cloned());
        }
        Some(all)
    }
}

type ClosedRow = (
    DateTime<Utc>,
    Option<String>,
    Vec<i64>,
    Vec<i64>,
    i32,
    Option<i64>,
    Option<Vec<i64>>,
    Option<String>,
    Option<DateTime<Utc>>,
);

pub async fn closed(pool: &PgPool, event_id: EventId) -> Result<Option<Closed>, sqlx::Error> {
    let mut conn = pool.acquire().await?;
    closed_on(&mut conn, event_id).await
}

/// As [`closed`], on one connection (inside a transaction, with its writes).
pub async fn closed_on(
    conn: &mut PgConnection,
    event_id: EventId,
) -> Result<Option<Closed>, sqlx::Error> {
    let row: Option<ClosedRow> = sqlx::query_as(
        "SELECT f.closed_at, c.username, f.finalists, f.tied, f.open_seats, f.draw_seed, f.drawn, \
           d.username, f.drawn_at \
         FROM finals f LEFT JOIN users c ON c.id = f.closed_by LEFT JOIN users d ON d.id = f.drawn_by \
         WHERE f.event_id = $1",
    )
    .bind(event_id)
    .fetch_optional(&mut *conn)
    .await?;
    let Some((closed_at, closed_by, finalists, tied, open_seats, seed, drawn, drawn_by, drawn_at)) =
        row
    else {
        return Ok(None);
    };
    let names: Vec<(i64, String)> =
        sqlx::query_as("SELECT id, name FROM players WHERE event_id = $1")
            .bind(event_id)
            .fetch_all(&mut *conn)
            .await?;
    let name = |id: &i64| {
        names
            .iter()
            .find(|(i, _)| i == id)
            .map_or_else(|| format!("player {id}"), |(_, n)| n.clone())
    };
    Ok(Some(Closed {
        closed_at,
        closed_by,
        finalists: finalists.iter().map(name).collect(),
        tied: tied.iter().map(name).collect(),
        open_seats,
        draw: match (seed, drawn, drawn_at) {
            (Some(seed), Some(picked), Some(at)) => Some(Draw {
                seed,
                picked: picked.iter().map(name).collect(),
                by: drawn_by,
                at,
            }),
            _ => None,
        },
    }))
}
