//! The audit log: security events and every change a judge may need to reconstruct.

use chrono::{DateTime, Utc};
use serde::Serialize;
use serde_json::Value;
use sqlx::{PgExecutor, PgPool};
use tournament::ids::{EventId, RoundNumber, UserId};

use crate::actor::Actor;

/// What happened. Stored as text so old rows stay readable when new kinds are added.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    UserCreated,
    SignIn,
    SignInFailed,
    SignInBlocked,
    SignOut,
    PasswordChanged,
    RoleGranted,
    RoleRevoked,
    EventCreated,
    EventUpdated,
    PlayerAdded,
    PlayersImported,
    PlayerCheckedIn,
    PlayerCheckInUndone,
    PlayersCheckedIn,
    PlayerDropped,
    PlayerReinstated,
    RoundDrawn,
    UnreportedOverride,
    RoundRedrawn,
    SeatsSwapped,
    RoundBegun,
    RoundCancelled,
    ClockStarted,
    ClockPaused,
    ClockResumed,
    ClockExtended,
    ReportReceived,
    ReportReopened,
    WinAttemptsRecorded,
    ReportSaved,
    ReportCorrected,
    ReportConfirmed,
    ReportDisputed,
    ReportFinalised,
    QualifyingClosed,
    FinalsTieDrawn,
    PlayerLinked,
    TokenCreated,
    TokenRevoked,
    TokenUsed,
    DataExported,
    EventBackedUp,
    EventRestored,
    GameLogSaved,
}

impl Action {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::UserCreated => "user_created",
            Self::SignIn => "sign_in",
            Self::SignInFailed => "sign_in_failed",
            Self::SignInBlocked => "sign_in_blocked",
            Self::SignOut => "sign_out",
            Self::PasswordChanged => "password_changed",
            Self::RoleGranted => "role_granted",
            Self::RoleRevoked => "role_revoked",
            Self::EventCreated => "event_created",
            Self::EventUpdated => "event_updated",
            Self::PlayerAdded => "player_added",
            Self::PlayersImported => "players_imported",
            Self::PlayerCheckedIn => "player_checked_in",
            Self::PlayerCheckInUndone => "player_check_in_undone",
            Self::PlayersCheckedIn => "players_checked_in",
            Self::PlayerDropped => "player_dropped",
            Self::PlayerReinstated => "player_reinstated",
            Self::RoundDrawn => "round_drawn",
            Self::UnreportedOverride => "unreported_override",
            Self::RoundRedrawn => "round_redrawn",
            Self::SeatsSwapped => "seats_swapped",
            Self::RoundBegun => "round_begun",
            Self::RoundCancelled => "round_cancelled",
            Self::ClockStarted => "clock_started",
            Self::ClockPaused => "clock_paused",
            Self::ClockResumed => "clock_resumed",
            Self::ClockExtended => "clock_extended",
            Self::ReportReceived => "report_received",
            Self::ReportReopened => "report_reopened",
            Self::WinAttemptsRecorded => "win_attempts_recorded",
            Self::ReportSaved => "report_saved",
            Self::ReportCorrected => "report_corrected",
            Self::ReportConfirmed => "report_confirmed",
            Self::ReportDisputed => "report_disputed",
            Self::ReportFinalised => "report_finalised",
            Self::QualifyingClosed => "qualifying_closed",
            Self::FinalsTieDrawn => "finals_tie_drawn",
            Self::PlayerLinked => "player_linked",
            Self::TokenCreated => "token_created",
            Self::TokenRevoked => "token_revoked",
            Self::TokenUsed => "token_used",
            Self::DataExported => "data_exported",
            Self::EventBackedUp => "event_backed_up",
            Self::EventRestored => "event_restored",
            Self::GameLogSaved => "game_log_saved",
        }
    }
}

/// One entry; `actor` is the user name as it was then, kept even if the account goes.
#[derive(Debug, Clone)]
pub struct Entry<'a> {
    pub action: Action,
    pub actor_id: Option<UserId>,
    pub actor: Option<&'a str>,
    pub event_id: Option<EventId>,
    pub subject: Option<&'a str>,
    pub detail: Value,
}

impl<'a> Entry<'a> {
    pub fn new(action: Action) -> Self {
        Self {
            action,
            actor_id: None,
            actor: None,
            event_id: None,
            subject: None,
            detail: Value::Object(Default::default()),
        }
    }

    /// What `actor` did in an event, to `subject`, with the details a judge needs later.
    pub fn by(
        actor: &'a Actor,
        action: Action,
        event_id: EventId,
        subject: &'a str,
        detail: Value,
    ) -> Self {
        Self {
            action,
            actor_id: Some(actor.user_id),
            actor: Some(&actor.username),
            event_id: Some(event_id),
            subject: Some(subject),
            detail,
        }
    }
}

pub async fn record(db: impl PgExecutor<'_>, entry: Entry<'_>) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO audit_log (action, actor_id, actor, event_id, subject, detail) \
         VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(entry.action.as_str())
    .bind(entry.actor_id)
    .bind(entry.actor)
    .bind(entry.event_id)
    .bind(entry.subject)
    .bind(entry.detail)
    .execute(db)
    .await?;
    Ok(())
}

#[derive(Debug, Clone, Serialize, sqlx::FromRow)]
pub struct Row {
    pub at: DateTime<Utc>,
    pub actor: Option<String>,
    pub action: String,
    pub subject: Option<String>,
    pub detail: Value,
}

/// Newest first. `event_id = None` lists the security events that belong to no event.
pub async fn list(
    pool: &PgPool,
    event_id: Option<EventId>,
    limit: i64,
) -> Result<Vec<Row>, sqlx::Error> {
    sqlx::query_as(
        "SELECT at, actor, action, subject, detail FROM audit_log \
         WHERE event_id IS NOT DISTINCT FROM $1 ORDER BY at DESC, id DESC LIMIT $2",
    )
    .bind(event_id)
    .bind(limit)
    .fetch_all(pool)
    .await
}

/// The changes recorded for one round of an event (draws, redraws, swaps, clocks), oldest
/// first: the round page's "who changed what" list.
pub async fn for_round(
    pool: &PgPool,
    event_id: EventId,
    round: RoundNumber,
) -> Result<Vec<Row>, sqlx::Error> {
    sqlx::query_as(
        "SELECT at, actor, action, subject, detail FROM audit_log \
         WHERE event_id = $1 AND detail @> jsonb_build_object('round', $2::int) ORDER BY at, id",
    )
    .bind(event_id)
    .bind(round)
    .fetch_all(pool)
    .await
}
