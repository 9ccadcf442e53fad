//! Server functions that bring disputes and confirmations to someone: the judges' queue on the
//! dashboard, taking and resolving a dispute (4.01.05), and the reports that await a player's
//! confirmation, for their card.

use dune::{Faction, WinType};
use leptos::prelude::*;
#[cfg(feature = "ssr")]
use leptos::server_fn::ServerFn;
use serde::{Deserialize, Serialize};
use tournament::EndValues;
use tournament::ids::{PlayerId, Revision, RoundNumber, TableNumber};

use crate::error::AppError;
#[cfg(feature = "ssr")]
use crate::{
    events::load,
    server::{answer, internal, pool, require},
};

/// One entry of the judges' queue, in words and numbers the dashboard shows.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum QueueEntry {
    Dispute {
        round: RoundNumber,
        table: TableNumber,
        revision: Revision,
        player_id: PlayerId,
        player: String,
        note: String,
        /// "11:42 UTC".
        at: String,
        taken_by: Option<String>,
    },
    Awaiting {
        round: RoundNumber,
        table: TableNumber,
        waiting_for: Vec<String>,
        confirmed: usize,
        seated: usize,
    },
    OverTime {
        round: RoundNumber,
        table: TableNumber,
        /// Minutes past the limit.
        over_minutes: i64,
        /// In the 30 minutes to finish the turn (4.01.08), or past them (4.01.09).
        finishing: bool,
    },
}

impl QueueEntry {
    pub fn table_path(&self, slug: &str) -> String {
        let (round, table) = match self {
            QueueEntry::Dispute { round, table, .. }
            | QueueEntry::Awaiting { round, table, .. }
            | QueueEntry::OverTime { round, table, .. } => (round, table),
        };
        format!("/events/{slug}/rounds/{round}/tables/{table}")
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct QueueView {
    pub entries: Vec<QueueEntry>,
    /// The caller may make a disputed report final (the head judge).
    pub can_override: bool,
    /// The caller's user name, so the page says "you" for disputes they hold.
    pub me: String,
}

#[server]
pub async fn get_queue(slug: String) -> Result<QueueView, AppError> {
    use db::results::queue::Item;
    use db::roles::{Action, allows};
    let event = load(&slug).await?;
    let (actor, role) = require(event.id, Action::ViewAllReports).await?;
    let Some(actor) = actor else {
        return crate::server::fail(AppError::SignInRequired);
    };
    let queue = db::results::queue::queue(&pool()?, event.id)
        .await
        .map_err(|e| internal("loading the judges' queue", e))?;
    let entries = queue
        .items
        .into_iter()
        .map(|item| match item {
            Item::Dispute {
                round,
                table,
                revision,
                player_id,
                player,
                note,
                at,
                taken_by,
            } => QueueEntry::Dispute {
                round,
                table,
                revision,
                player_id,
                player,
                note: note.unwrap_or_default(),
                at: at.format("%H:%M UTC").to_string(),
                taken_by,
            },
            Item::Awaiting {
                round,
                table,
                waiting_for,
                confirmed,
                seated,
                ..
            } => QueueEntry::Awaiting {
                round,
                table,
                waiting_for,
                confirmed,
                seated,
            },
            Item::OverTime {
                round,
                table,
                phase,
                over_ms,
            } => QueueEntry::OverTime {
                round,
                table,
                over_minutes: over_ms / 60_000,
                finishing: phase == tournament::clock::Phase::FinishWindow,
            },
        })
        .collect();
    Ok(QueueView {
        entries,
        can_override: allows(role, actor.is_admin, Action::Override),
        me: actor.username,
    })
}

/// A judge takes a dispute; another judge who took it first is named in the refusal.
#[server]
pub async fn take_dispute(
    slug: String,
    round: RoundNumber,
    table: TableNumber,
    revision: Revision,
    player_id: PlayerId,
) -> Result<(), AppError> {
    use db::results::disputes::{self, DisputeKey};
    let event = load(&slug).await?;
    let actor = crate::server::require_staff(event.id, db::roles::Action::RecordResults).await?;
    let key = DisputeKey {
        round,
        table,
        revision,
        player_id,
    };
    answer(disputes::take(&pool()?, &actor, event.id, key).await)?;
    crate::server::back();
    Ok(())
}

/// Resolves a dispute with a note; `finalise` ("true") makes the disputed revision final, which
/// only the head judge may (4.01.05). Returns whether the report is final now.
#[server]
pub async fn resolve_dispute(
    slug: String,
    round: RoundNumber,
    table: TableNumber,
    revision: Revision,
    player_id: PlayerId,
    resolution: String,
    #[server(default)] finalise: bool,
) -> Result<bool, AppError> {
    use db::results::disputes::{self, DisputeKey, Resolution};
    use db::roles::{Action, allows};
    let event = load(&slug).await?;
    let (actor, role) = require(event.id, Action::RecordResults).await?;
    let Some(actor) = actor else {
        return crate::server::fail(AppError::SignInRequired);
    };
    let key = DisputeKey {
        round,
        table,
        revision,
        player_id,
    };
    let may_override = allows(role, actor.is_admin, Action::Override);
    let resolution = Resolution {
        note: resolution,
        finalise,
    };
    let is_final = answer(
        disputes::resolve(&pool()?, &actor, may_override, event.id, key, &resolution).await,
    )?;
    crate::server::back_with(
        ResolveDispute::url(),
        if is_final {
            "Dispute resolved; the report is final."
        } else {
            "Dispute resolved; the report waits for the players' confirmations."
        },
        &[],
    );
    Ok(is_final)
}

/// One seat of a report a player is asked to confirm.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LineView {
    pub player: String,
    pub mine: bool,
    pub faction: Faction,
    pub ally: Option<Faction>,
    pub result: Option<WinType>,
    pub end: EndValues,
    pub win_attempts: u32,
}

/// Where the player's own answer stands.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum MyAnswer {
    /// Not answered: the buttons are shown.
    Awaited,
    Agreed,
    /// Disputed: open, taken by a judge, or resolved with the judge's note.
    Disputed {
        taken_by: Option<String>,
        resolution: Option<String>,
    },
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AwaitingView {
    pub round: RoundNumber,
    pub table: TableNumber,
    pub revision: Revision,
    pub ended: tournament::report::Ending,
    pub last_turn: u32,
    pub lines: Vec<LineView>,
    pub answer: MyAnswer,
    /// The player's dispute of an earlier revision, settled by this one: the judge's note.
    #[serde(default)]
    pub settled: Option<String>,
}

/// The reports at the player's tables that are not final yet. Unconfirmed values are for the
/// table's players and the judges only: anyone else gets an empty list.
#[server]
pub async fn my_reports(slug: String, player_id: PlayerId) -> Result<Vec<AwaitingView>, AppError> {
    use db::results::disputes::DisputeState;
    use db::roles::{Action, allows};
    let event = load(&slug).await?;
    let (actor, role) = require(event.id, Action::ViewPublic).await?;
    let Some(actor) = actor else {
        return Ok(Vec::new());
    };
    let pool = pool()?;
    let player = db::players::get(&pool, event.id, player_id)
        .await
        .map_err(|e| internal("loading the player", e))?;
    let is_them = player.is_some_and(|p| p.user_id == Some(actor.user_id));
    if !is_them && !allows(role, actor.is_admin, Action::ViewAllReports) {
        return Ok(Vec::new());
    }
    let waiting = answer(db::results::reports::awaiting_for(&pool, event.id, player_id).await)?;
    Ok(waiting
        .into_iter()
        .map(|w| AwaitingView {
            round: w.round,
            table: w.table,
            revision: w.revision,
            ended: w.ended,
            last_turn: w.last_turn,
            lines: w
                .seats
                .into_iter()
                .map(|s| LineView {
                    mine: s.player_id == player_id,
                    player: s.player,
                    faction: s.faction,
                    ally: s.ally,
                    result: s.result,
                    end: s.end,
                    win_attempts: s.win_attempts,
                })
                .collect(),
            settled: w.settled,
            answer: match (w.answer, w.dispute) {
                (None, _) => MyAnswer::Awaited,
                (Some(true), _) => MyAnswer::Agreed,
                (Some(false), state) => MyAnswer::Disputed {
                    taken_by: match &state {
                        Some(DisputeState::Taken { by, .. }) => by.clone(),
                        _ => None,
                    },
                    resolution: match state {
                        Some(DisputeState::Resolved { note, .. }) => Some(note),
                        _ => None,
                    },
                },
            },
        })
        .collect())
}

/// What a table's badge on the round page says: the judges' queue, table by table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum TableFlag {
    Disputed,
    OverTime,
    Awaiting,
}

impl TableFlag {
    pub fn label(self) -> &'static str {
        match self {
            TableFlag::Disputed => "Disputed: a judge is called",
            TableFlag::OverTime => "Over time, no report",
            TableFlag::Awaiting => "Report awaits confirmation",
        }
    }

    pub fn code(self) -> &'static str {
        match self {
            TableFlag::Disputed => "disputed",
            TableFlag::OverTime => "over-time",
            TableFlag::Awaiting => "awaiting",
        }
    }
}

/// The flag of each table of round `round` that needs someone, the most urgent per table. The
/// status of a report is public (its table page says it), so anyone may read these.
#[server]
pub async fn table_flags(
    slug: String,
    round: RoundNumber,
) -> Result<Vec<(TableNumber, TableFlag)>, AppError> {
    let event = load(&slug).await?;
    require(event.id, db::roles::Action::ViewPublic).await?;
    let queue = db::results::queue::queue(&pool()?, event.id)
        .await
        .map_err(|e| internal("loading the tables' state", e))?;
    Ok(round_flags(&queue, round))
}

/// The most urgent flag of each table of round `round` in the judges' queue.
#[cfg(feature = "ssr")]
pub fn round_flags(
    queue: &db::results::queue::Queue,
    round: RoundNumber,
) -> Vec<(TableNumber, TableFlag)> {
    use db::results::queue::Item;
    let mut flags: Vec<(TableNumber, TableFlag)> = Vec::new();
    for item in &queue.items {
        let (r, t, flag) = match *item {
            Item::Dispute { round, table, .. } => (round, table, TableFlag::Disputed),
            Item::OverTime { round, table, .. } => (round, table, TableFlag::OverTime),
            Item::Awaiting { round, table, .. } => (round, table, TableFlag::Awaiting),
        };
        // The queue lists disputes first: the first flag of a table is its most urgent.
        if r == round && !flags.iter().any(|(n, _)| *n == t) {
            flags.push((t, flag));
        }
    }
    flags
}
