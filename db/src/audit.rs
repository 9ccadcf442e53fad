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
    DisplayNameChanged,
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
    DisputeTaken,
    DisputeResolved,
    ClocksStarted,
    ClocksPaused,
    ClocksResumed,
    PlayerEdited,
    PlayerDeleted,
    QualifyingReopened,
    FinalTableDrawn,
    FinalTableWithdrawn,
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
            Self::DisplayNameChanged => "display_name_changed",
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
            Self::DisputeTaken => "dispute_taken",
            Self::DisputeResolved => "dispute_resolved",
            Self::ClocksStarted => "clocks_started",
            Self::ClocksPaused => "clocks_paused",
            Self::ClocksResumed => "clocks_resumed",
            Self::PlayerEdited => "player_edited",
            Self::PlayerDeleted => "player_deleted",
            Self::QualifyingReopened => "qualifying_reopened",
            Self::FinalTableDrawn => "final_table_drawn",
            Self::FinalTableWithdrawn => "final_table_withdrawn",
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

/// An entry as a sentence a head judge reads without knowing the log's fields: "sam recorded
/// the report of table 3 in round 2 (revision 2): typo in spice". Unknown actions and details
/// fall back to their words, so nothing recorded is hidden.
pub fn sentence(
    action: &str,
    actor: Option<&str>,
    subject: Option<&str>,
    detail: &Value,
) -> String {
    let who = actor.filter(|a| !a.is_empty()).unwrap_or("Someone");
    let what = subject.unwrap_or_default();
    let text = |key: &str| -> Option<String> {
        match detail.get(key)? {
            Value::Null => None,
            Value::String(s) if s.is_empty() => None,
            Value::String(s) => Some(s.clone()),
            other => Some(other.to_string()),
        }
    };
    // "table 3 in round 2", "round 2", or nothing.
    let place = match (text("table"), text("round")) {
        (Some(t), Some(r)) => format!(" at table {t} in round {r}"),
        (None, Some(r)) => format!(" in round {r}"),
        (Some(t), None) => format!(" at table {t}"),
        (None, None) => String::new(),
    };
    let role = text("role").map(|r| r.replace('_', " "));
    let mut said = match action {
        "user_created" => format!("{who} created the account {what}"),
        "sign_in" => format!("{what} signed in"),
        "sign_in_failed" => format!("A sign-in as {what} failed"),
        "sign_in_blocked" => format!("Sign-ins as {what} were held back after repeated failures"),
        "sign_out" if detail.get("everywhere").is_some() => {
            format!("{what} signed out everywhere")
        }
        "sign_out" => format!("{what} signed out"),
        "password_changed" => format!("{what} changed their password"),
        "display_name_changed" => format!("{what} changed the name they are shown by"),
        "role_granted" => format!(
            "{who} made {what} {}",
            role.map_or("staff".to_owned(), |r| format!("a {r}"))
        ),
        "role_revoked" => format!(
            "{who} removed {what}'s role{}",
            role.map_or(String::new(), |r| format!(" of {r}"))
        ),
        "event_created" => format!("{who} created the event {what}"),
        "event_updated" => format!("{who} changed the event's settings"),
        "player_added" => format!("{who} registered {what}"),
        "players_imported" => format!("{who} imported players"),
        "player_checked_in" => format!("{who} checked in {what}"),
        "player_check_in_undone" => format!("{who} undid the check-in of {what}"),
        "players_checked_in" => format!("{who} checked in every player"),
        "player_dropped" => format!("{who} dropped {what} from the event"),
        "player_reinstated" => format!("{who} brought {what} back into the event"),
        "player_linked" => match text("account") {
            Some(account) => format!("{who} tied {what}'s registration to the account {account}"),
            None => format!("{who} untied {what}'s registration from its account"),
        },
        "round_drawn" => format!("{who} drew round{}", place.trim_start_matches(" in round")),
        "round_redrawn" => format!(
            "{who} drew round{} again",
            place.trim_start_matches(" in round")
        ),
        "round_begun" => format!("{who} began play{place}"),
        "round_cancelled" => format!("{who} cancelled the draw{place}"),
        "unreported_override" => {
            format!("{who} drew the next round with tables still unreported{place}")
        }
        "seats_swapped" => format!("{who} swapped seats{place}"),
        "clock_started" => format!("{who} started the clock{place}"),
        "clock_paused" => format!("{who} paused the clock{place}"),
        "clock_resumed" => format!("{who} resumed the clock{place}"),
        "clock_extended" => format!(
            "{who} gave {} more minutes{place}",
            text("minutes").unwrap_or_else(|| "some".to_owned())
        ),
        "report_received" => format!("{who} sent in the game report{place}"),
        "report_saved" => format!("{who} recorded the game report{place}"),
        "report_corrected" => format!("{who} corrected the game report{place}"),
        "report_reopened" => format!("{who} reopened the game report{place}"),
        "report_confirmed" => format!("{who} confirmed the game report{place}"),
        "report_disputed" => format!("{who} disputed the game report{place}"),
        "report_finalised" => format!("{who} made the game report final{place}"),
        "win_attempts_recorded" => format!("{who} recorded win attempts{place}"),
        "game_log_saved" => format!("{who} saved the game log{place}"),
        "qualifying_closed" => format!("{who} closed qualifying"),
        "finals_tie_drawn" => format!("{who} settled a tie for the finals by lot"),
        "token_created" => format!(
            "{who} made the {} \"{what}\"",
            kind_words(text("kind").as_deref())
        ),
        "token_revoked" => format!(
            "{who} withdrew the {} \"{what}\"",
            kind_words(text("kind").as_deref())
        ),
        "token_used" => format!(
            "The {} \"{what}\" was used",
            kind_words(text("kind").as_deref())
        ),
        "data_exported" => format!(
            "{who} exported {}",
            text("kind").unwrap_or_else(|| "data".to_owned())
        ),
        "event_backed_up" => format!("{who} downloaded a backup of the event"),
        "event_restored" => format!("{who} restored the event from a backup"),
        other => format!("{who}: {} {what}", other.replace('_', " "))
            .trim_end()
            .to_owned(),
    };
    if let Some(revision) = text("revision") {
        said.push_str(&format!(" (revision {revision})"));
    }
    if let Some(reason) = text("reason").or_else(|| text("note")) {
        said.push_str(&format!(": {reason}"));
    }
    said.push('.');
    said
}

fn kind_words(kind: Option<&str>) -> &'static str {
    match kind {
        Some("staff_invite") => "staff invitation",
        Some("player_claim") => "claim code",
        _ => "API token",
    }
}

#[cfg(test)]
mod sentence_tests {
    use super::sentence;
    use serde_json::json;

    #[test]
    fn entries_read_as_sentences() {
        assert_eq!(
            sentence(
                "report_corrected",
                Some("sam"),
                Some("Table 3"),
                &json!({ "round": 2, "table": 3, "revision": 2, "reason": "typo in spice" })
            ),
            "sam corrected the game report at table 3 in round 2 (revision 2): typo in spice."
        );
        assert_eq!(
            sentence(
                "role_granted",
                Some("ana"),
                Some("kim"),
                &json!({ "role": "head_judge" })
            ),
            "ana made kim a head judge."
        );
        assert_eq!(
            sentence(
                "round_drawn",
                Some("ana"),
                None,
                &json!({ "round": 1, "seed": 7 })
            ),
            "ana drew round 1."
        );
        assert_eq!(
            sentence(
                "token_used",
                Some("ana (staff invitation \"Sam\")"),
                Some("Sam"),
                &json!({ "kind": "staff_invite" })
            ),
            "The staff invitation \"Sam\" was used."
        );
        assert_eq!(
            sentence("something_new", None, Some("x"), &json!({})),
            "Someone: something new x."
        );
    }
}
