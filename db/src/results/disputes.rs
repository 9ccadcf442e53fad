//! Disputes reach a judge (4.01.05): a player's dispute of a report is taken by one judge, whom
//! the others see, and resolved with a note. The head judge may resolve by making the disputed
//! revision final; any judge may resolve otherwise (the report corrected in a new revision, the
//! player satisfied), saying what was decided.
//!
//! Each step is a new row (`dispute_steps`) with who and when, and goes to the audit log; a
//! dispute's state is its latest step after the player's latest answer, so a player who
//! disputes again after a resolution opens it anew. A new revision of the report replaces the
//! disputed one: the players confirm the new one, and the queue shows only the latest. The new
//! revision settles the disputes still open on the ones before it, explicitly: a resolution step
//! naming the revision, audited, and shown on the disputing player's card
//! (`reports::settle_superseded`).

use chrono::{DateTime, Utc};
use serde::Serialize;
use sqlx::PgConnection;
use sqlx::PgPool;
use tournament::ids::{EventId, PlayerId, Revision, RoundNumber, TableId, TableNumber};

use super::{ResultsError, TableContext, reason_of, reports, table};
use crate::{audit, live, roles::Actor};

/// Where a dispute stands.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub enum DisputeState {
    /// Waiting for a judge.
    Open,
    /// A judge is on it; the others see who.
    Taken {
        by: Option<String>,
        at: DateTime<Utc>,
    },
    /// Settled, with the judge's note.
    Resolved {
        by: Option<String>,
        at: DateTime<Utc>,
        note: String,
        /// The disputed revision was made final by the resolution.
        finalised: bool,
    },
}

/// One step as stored: (revision, player, step, note, finalised, by, at).
pub(crate) type StepRow = (
    Revision,
    PlayerId,
    String,
    Option<String>,
    bool,
    Option<String>,
    DateTime<Utc>,
);

/// Every step of every dispute at the table, oldest first.
pub(crate) async fn steps_of_table(
    db: &mut PgConnection,
    table_id: TableId,
) -> Result<Vec<StepRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT r.revision, s.player_id, s.step, s.note, s.finalised, u.username, s.at \
         FROM dispute_steps s JOIN game_reports r ON r.id = s.report_id \
         LEFT JOIN users u ON u.id = s.by_user WHERE r.table_id = $1 ORDER BY s.id",
    )
    .bind(table_id)
    .fetch_all(&mut *db)
    .await
}

/// The state of `player`'s dispute of `revision`, answered at `answered_at`: its latest step
/// since then.
pub(crate) fn state_of(
    steps: &[StepRow],
    revision: Revision,
    player: PlayerId,
    answered_at: DateTime<Utc>,
) -> DisputeState {
    steps
        .iter()
        .rev()
        .find(|s| s.0 == revision && s.1 == player && s.6 >= answered_at)
        .map_or(DisputeState::Open, |s| {
            step_state(&s.2, s.3.clone(), s.4, s.5.clone(), s.6)
        })
}

fn step_state(
    step: &str,
    note: Option<String>,
    finalised: bool,
    by: Option<String>,
    at: DateTime<Utc>,
) -> DisputeState {
    match (step, note) {
        ("resolved", Some(note)) => DisputeState::Resolved {
            by,
            at,
            note,
            finalised,
        },
        _ => DisputeState::Taken { by, at },
    }
}

/// Which dispute: a player's answer to one revision of a table's report.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DisputeKey {
    pub round: RoundNumber,
    pub table: TableNumber,
    /// The revision the judge's page showed disputed.
    pub revision: Revision,
    pub player_id: PlayerId,
}

/// The dispute, read under the table's lock: the report's id, whether it is final, the player's
/// name and where the dispute stands.
struct Locked {
    table: TableContext,
    report_id: i64,
    is_final: bool,
    player: String,
    state: DisputeState,
}

async fn lock(
    tx: &mut PgConnection,
    event_id: EventId,
    key: DisputeKey,
) -> Result<Locked, ResultsError> {
    let table = table::lock(tx, event_id, key.round, key.table).await?;
    let Some(seat) = table.seat_of(key.player_id) else {
        return Err(ResultsError::State(
            "That player does not sit at this table.".into(),
        ));
    };
    let player = seat.player.to_string();
    let report: Option<(i64, Option<DateTime<Utc>>)> = sqlx::query_as(
        "SELECT id, final_at FROM game_reports WHERE table_id = $1 AND revision = $2",
    )
    .bind(table.table_id)
    .bind(key.revision)
    .fetch_optional(&mut *tx)
    .await?;
    let Some((report_id, final_at)) = report else {
        return Err(ResultsError::NotFound);
    };
    let answer: Option<(bool, DateTime<Utc>)> = sqlx::query_as(
        "SELECT agrees, at FROM report_confirmations WHERE report_id = $1 AND player_id = $2",
    )
    .bind(report_id)
    .bind(key.player_id)
    .fetch_optional(&mut *tx)
    .await?;
    let answered_at = match answer {
        Some((false, at)) => at,
        _ => {
            return Err(ResultsError::State(format!(
                "{player} does not dispute revision {} of {} (or has agreed since).",
                key.revision,
                table.label()
            )));
        }
    };
    type Latest = (String, Option<String>, bool, Option<String>, DateTime<Utc>);
    let latest: Option<Latest> = sqlx::query_as(
        "SELECT s.step, s.note, s.finalised, u.username, s.at FROM dispute_steps s \
             LEFT JOIN users u ON u.id = s.by_user \
             WHERE s.report_id = $1 AND s.player_id = $2 AND s.at >= $3 ORDER BY s.id DESC LIMIT 1",
    )
    .bind(report_id)
    .bind(key.player_id)
    .bind(answered_at)
    .fetch_optional(&mut *tx)
    .await?;
    let state = latest.map_or(DisputeState::Open, |(step, note, fin, by, at)| {
        step_state(&step, note, fin, by, at)
    });
    Ok(Locked {
        table,
        report_id,
        is_final: final_at.is_some(),
        player,
        state,
    })
}

fn already_resolved(state: &DisputeState) -> Option<ResultsError> {
    match state {
        DisputeState::Resolved { by, .. } => Some(ResultsError::State(format!(
            "{} resolved this dispute already.",
            by.as_deref().unwrap_or("A judge")
        ))),
        _ => None,
    }
}

/// A judge takes the dispute: from now on the others see that it is theirs. Taking one's own
/// dispute again changes nothing; a dispute another judge has taken is refused with their name.
pub async fn take(
    pool: &PgPool,
    actor: &Actor,
    event_id: EventId,
    key: DisputeKey,
) -> Result<(), ResultsError> {
    let mut tx = pool.begin().await?;
    let locked = lock(&mut tx, event_id, key).await?;
    if locked.is_final {
        return Err(ResultsError::State(format!(
            "The report of {} is final already; nothing is left to settle.",
            locked.table.label()
        )));
    }
    if let Some(e) = already_resolved(&locked.state) {
        return Err(e);
    }
    if let DisputeState::Taken { by, .. } = &locked.state {
        if by.as_deref() == Some(actor.username.as_str()) {
            return Ok(());
        }
        return Err(ResultsError::Taken {
            by: by.clone().unwrap_or_else(|| "Another judge".into()),
        });
    }
    sqlx::query(
        "INSERT INTO dispute_steps (report_id, player_id, step, by_user) VALUES ($1, $2, 'taken', $3)",
    )
    .bind(locked.report_id)
    .bind(key.player_id)
    .bind(actor.user_id)
    .execute(&mut *tx)
    .await?;
    let subject = format!("{}, {}", locked.table.label(), locked.player);
    audit::record(
        &mut *tx,
        audit::Entry::by(
            actor,
            audit::Action::DisputeTaken,
            event_id,
            &subject,
            serde_json::json!({
                "round": key.round, "table": key.table, "revision": key.revision,
                "player": locked.player,
            }),
        ),
    )
    .await?;
    live::notify(&mut *tx, event_id, live::Topic::Table).await?;
    tx.commit().await?;
    Ok(())
}

/// How a judge settles a dispute.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resolution {
    /// What was decided, in words the player reads.
    pub note: String,
    /// The report stands as disputed: the head judge makes the revision final (4.01.05).
    pub finalise: bool,
}

/// Resolves the dispute with a note. The judge who took it resolves it (the head judge may
/// resolve any); resolving an open dispute takes it at the same time. Making the disputed
/// revision final is the head judge's decision (`may_override`) and needs it to be the latest
/// revision. Returns whether the report is final now.
pub async fn resolve(
    pool: &PgPool,
    actor: &Actor,
    may_override: bool,
    event_id: EventId,
    key: DisputeKey,
    resolution: &Resolution,
) -> Result<bool, ResultsError> {
    let Some(note) = reason_of(Some(&resolution.note)) else {
        return Err(ResultsError::field(
            "resolution",
            "Say what was decided, for the player and the record.",
        ));
    };
    let mut tx = pool.begin().await?;
    let locked = lock(&mut tx, event_id, key).await?;
    if let Some(e) = already_resolved(&locked.state) {
        return Err(e);
    }
    if let DisputeState::Taken { by, .. } = &locked.state
        && by.as_deref() != Some(actor.username.as_str())
        && !may_override
    {
        return Err(ResultsError::Taken {
            by: by.clone().unwrap_or_else(|| "Another judge".into()),
        });
    }
    if resolution.finalise {
        if !may_override {
            return Err(ResultsError::Forbidden(
                "Only the head judge makes a disputed report final (4.01.05).".into(),
            ));
        }
        let report_id = reports::open_revision(
            &mut tx,
            &locked.table,
            key.revision,
            "This table has no report to finalise yet.",
            "This report is final already.",
        )
        .await?;
        reports::mark_final(&mut tx, report_id, &locked.table, Some(actor.user_id)).await?;
    } else if locked.is_final {
        return Err(ResultsError::State(format!(
            "The report of {} is final already; nothing is left to settle.",
            locked.table.label()
        )));
    }
    sqlx::query(
        "INSERT INTO dispute_steps (report_id, player_id, step, note, finalised, by_user) \
         VALUES ($1, $2, 'resolved', $3, $4, $5)",
    )
    .bind(locked.report_id)
    .bind(key.player_id)
    .bind(&note)
    .bind(resolution.finalise)
    .bind(actor.user_id)
    .execute(&mut *tx)
    .await?;
    let subject = format!("{}, {}", locked.table.label(), locked.player);
    audit::record(
        &mut *tx,
        audit::Entry::by(
            actor,
            audit::Action::DisputeResolved,
            event_id,
            &subject,
            serde_json::json!({
                "round": key.round, "table": key.table, "revision": key.revision,
                "player": locked.player, "note": note, "final": resolution.finalise,
            }),
        ),
    )
    .await?;
    live::notify(&mut *tx, event_id, live::Topic::Table).await?;
    if resolution.finalise {
        live::notify(&mut *tx, event_id, live::Topic::Standings).await?;
    }
    tx.commit().await?;
    Ok(resolution.finalise)
}
