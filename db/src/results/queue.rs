//! The judges' queue on the dashboard: open disputes, reports awaiting the players'
//! confirmation, and tables past their time (4.01.08) with no report, across every round of the
//! event. One read; pages follow it through the `Table` notifications that every dispute,
//! confirmation, report and clock change sends.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use sqlx::PgPool;
use tournament::ids::{EventId, PlayerId, Revision, RoundNumber, TableNumber};
use tournament::{Clock, clock::Phase};

use super::disputes::DisputeState;

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub enum Item {
    /// A player disputes the latest revision of a table's report.
    Dispute {
        round: RoundNumber,
        table: TableNumber,
        revision: Revision,
        player_id: PlayerId,
        player: String,
        /// What the player says is wrong.
        note: Option<String>,
        at: DateTime<Utc>,
        /// The judge who has it, if any.
        taken_by: Option<String>,
    },
    /// A report waits for the players' confirmations.
    Awaiting {
        round: RoundNumber,
        table: TableNumber,
        revision: Revision,
        /// The seated players who have not answered yet.
        waiting_for: Vec<String>,
        confirmed: usize,
        seated: usize,
    },
    /// The table's time is up (the finish window or over) and no report is in.
    OverTime {
        round: RoundNumber,
        table: TableNumber,
        phase: Phase,
        /// Playing time past the limit.
        over_ms: i64,
    },
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Queue {
    /// Disputes oldest first, then tables over time, then reports awaiting confirmation.
    pub items: Vec<Item>,
    pub now_ms: i64,
}

impl Queue {
    pub fn disputes(&self) -> usize {
        self.items
            .iter()
            .filter(|i| matches!(i, Item::Dispute { .. }))
            .count()
    }
}

/// One seat of a table's latest revision, as the query aggregates it.
#[derive(Debug, Deserialize)]
struct SeatAnswer {
    player_id: PlayerId,
    player: String,
    agrees: Option<bool>,
    note: Option<String>,
    at: Option<DateTime<Utc>>,
    step: Option<String>,
    by: Option<String>,
    step_at: Option<DateTime<Utc>>,
}

type Row = (
    RoundNumber,
    TableNumber,
    Option<DateTime<Utc>>,
    Option<DateTime<Utc>>,
    i64,
    i64,
    i64,
    Option<i64>,
    DateTime<Utc>,
    Option<Revision>,
    serde_json::Value,
);

/// Every table of the event without a final report: its clock, its latest revision and each
/// seat's answer to it with the dispute's latest step since that answer.
const QUERY: &str = "\
WITH open_tables AS (
    SELECT t.id, r.number AS round, t.number AS table_no, t.clock_started_at, t.clock_paused_at,
           t.clock_paused_ms, t.clock_extension_ms,
           (SELECT count(*) FROM seats s WHERE s.table_id = t.id) AS seated,
           (SELECT (e.options->>'rehearsal_minutes')::bigint * 60000 FROM events e
             WHERE e.id = r.event_id) AS rehearsal_ms
    FROM game_tables t JOIN rounds r ON r.id = t.round_id
    WHERE r.event_id = $1 AND t.reported_at IS NULL
), latest AS (
    SELECT DISTINCT ON (g.table_id) g.id, g.table_id, g.revision
    FROM game_reports g WHERE g.table_id IN (SELECT id FROM open_tables)
    ORDER BY g.table_id, g.revision DESC
)
SELECT o.round, o.table_no, o.clock_started_at, o.clock_paused_at, o.clock_paused_ms,
       o.clock_extension_ms, o.seated, o.rehearsal_ms, now(), l.revision,
       coalesce((
           SELECT jsonb_agg(jsonb_build_object(
                      'player_id', s.player_id, 'player', p.name, 'agrees', c.agrees,
                      'note', c.note, 'at', c.at, 'step', d.step, 'by', d.username,
                      'step_at', d.at) ORDER BY s.seat)
           FROM seats s JOIN players p ON p.id = s.player_id
           LEFT JOIN report_confirmations c ON c.report_id = l.id AND c.player_id = s.player_id
           LEFT JOIN LATERAL (
               SELECT ds.step, u.username, ds.at FROM dispute_steps ds
               LEFT JOIN users u ON u.id = ds.by_user
               WHERE ds.report_id = l.id AND ds.player_id = s.player_id AND ds.at >= c.at
               ORDER BY ds.id DESC LIMIT 1) d ON true
           WHERE s.table_id = o.id), '[]'::jsonb)
FROM open_tables o LEFT JOIN latest l ON l.table_id = o.id
ORDER BY o.round, o.table_no";

pub async fn queue(pool: &PgPool, event_id: EventId) -> Result<Queue, sqlx::Error> {
    let rows: Vec<Row> = sqlx::query_as(QUERY).bind(event_id).fetch_all(pool).await?;
    let now_ms = rows
        .first()
        .map_or_else(|| Utc::now().timestamp_millis(), |r| r.8.timestamp_millis());
    let mut disputes = Vec::new();
    let mut over = Vec::new();
    let mut awaiting = Vec::new();
    for (
        round,
        table,
        started,
        paused,
        paused_ms,
        extension_ms,
        seated,
        rehearsal_ms,
        now,
        revision,
        seats,
    ) in rows
    {
        let seats: Vec<SeatAnswer> =
            serde_json::from_value(seats).map_err(|e| sqlx::Error::Decode(Box::new(e)))?;
        let Some(revision) = revision else {
            let clock = Clock {
                started_at: started.map(|t| t.timestamp_millis()),
                paused_at: paused.map(|t| t.timestamp_millis()),
                paused_ms,
                extension_ms,
                players: u8::try_from(seated).unwrap_or(u8::MAX),
                stopped_at: None,
                rehearsal_ms,
            };
            let reading = clock.read(now.timestamp_millis());
            if matches!(reading.phase, Phase::FinishWindow | Phase::Over) {
                over.push(Item::OverTime {
                    round,
                    table,
                    phase: reading.phase,
                    over_ms: reading.elapsed_ms - reading.limit_ms,
                });
            }
            continue;
        };
        let mut open_dispute = false;
        for s in &seats {
            if s.agrees != Some(false) {
                continue;
            }
            let state = match (s.step.as_deref(), s.step_at) {
                (Some("resolved"), Some(at)) => DisputeState::Resolved {
                    by: s.by.clone(),
                    at,
                    note: String::new(),
                    finalised: false,
                },
                (Some(_), Some(at)) => DisputeState::Taken {
                    by: s.by.clone(),
                    at,
                },
                _ => DisputeState::Open,
            };
            if matches!(state, DisputeState::Resolved { .. }) {
                continue;
            }
            open_dispute = true;
            disputes.push(Item::Dispute {
                round,
                table,
                revision,
                player_id: s.player_id,
                player: s.player.clone(),
                note: s.note.clone(),
                at: s.at.unwrap_or(now),
                taken_by: match state {
                    DisputeState::Taken { by, .. } => Some(by.unwrap_or_else(|| "a judge".into())),
                    _ => None,
                },
            });
        }
        if !open_dispute {
            awaiting.push(Item::Awaiting {
                round,
                table,
                revision,
                waiting_for: seats
                    .iter()
                    .filter(|s| s.agrees.is_none())
                    .map(|s| s.player.clone())
                    .collect(),
                confirmed: seats.iter().filter(|s| s.agrees == Some(true)).count(),
                seated: seats.len(),
            });
        }
    }
    disputes.sort_by_key(|d| match d {
        Item::Dispute { at, .. } => Some(*at),
        _ => None,
    });
    let mut items = disputes;
    items.extend(over);
    items.extend(awaiting);
    Ok(Queue { items, now_ms })
}
