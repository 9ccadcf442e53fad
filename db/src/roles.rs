//! Who may do what in an event. The matrix is a pure function ([`allows`]) so it is tested
//! exhaustively; [`authorize`] looks up the caller's role and applies it.

use serde::{Deserialize, Serialize};
use sqlx::PgPool;
use tournament::ids::{EventId, UserId};

pub use crate::actor::Actor;
use crate::audit;

/// A person's role in one event. Each grants everything the roles below it grant, except that
/// a player's rights are about their own seat.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, sqlx::Type)]
#[sqlx(type_name = "event_role", rename_all = "snake_case")]
#[serde(rename_all = "snake_case")]
pub enum Role {
    Organiser,
    HeadJudge,
    Judge,
    Player,
}

impl Role {
    pub const ALL: [Role; 4] = [Role::Organiser, Role::HeadJudge, Role::Judge, Role::Player];

    pub fn label(self) -> &'static str {
        match self {
            Role::Organiser => "Organiser",
            Role::HeadJudge => "Head judge",
            Role::Judge => "Judge",
            Role::Player => "Player",
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Role::Organiser => "organiser",
            Role::HeadJudge => "head_judge",
            Role::Judge => "judge",
            Role::Player => "player",
        }
    }

    pub fn parse(text: &str) -> Option<Role> {
        Role::ALL.into_iter().find(|r| r.as_str() == text)
    }

    /// Higher for a role that grants more (an invitation never lowers a role already held).
    pub fn rank(self) -> u8 {
        match self {
            Role::Organiser => 3,
            Role::HeadJudge => 2,
            Role::Judge => 1,
            Role::Player => 0,
        }
    }
}

/// Everything a request can ask to do in an event.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Action {
    /// Event page, tables, standings, projector clock: public.
    ViewPublic,
    /// Confirm or dispute one's own game report; see one's own unconfirmed report.
    ConfirmOwnReport,
    /// Record win attempts and fill game reports for the event's tables.
    RecordResults,
    /// See every table's unconfirmed reports.
    ViewAllReports,
    /// Players, rounds, draws, seat swaps, clocks, event settings.
    RunEvent,
    /// Finalise disputed reports, override, close qualifying, settle finals ties.
    Override,
    /// Invite staff by a one-use link, and see who holds which role. A head judge may invite
    /// judges and head judges; an invitation to organise needs [`Action::ManageStaff`].
    InviteStaff,
    /// Grant and revoke roles.
    ManageStaff,
    /// Read the event's audit log.
    ViewAudit,
}

impl Action {
    pub const ALL: [Action; 9] = [
        Action::ViewPublic,
        Action::ConfirmOwnReport,
        Action::RecordResults,
        Action::ViewAllReports,
        Action::RunEvent,
        Action::Override,
        Action::InviteStaff,
        Action::ManageStaff,
        Action::ViewAudit,
    ];
}

/// The matrix. Site administrators act as organisers everywhere.
pub fn allows(role: Option<Role>, is_admin: bool, action: Action) -> bool {
    let role = if is_admin {
        Some(Role::Organiser)
    } else {
        role
    };
    match action {
        Action::ViewPublic => true,
        Action::ConfirmOwnReport => role.is_some(),
        Action::RecordResults | Action::ViewAllReports => {
            matches!(role, Some(Role::Organiser | Role::HeadJudge | Role::Judge))
        }
        // The head judge runs the hall: she brings in her judges and reads the audit log to
        // answer "who changed this table's report?" without finding an organiser.
        Action::RunEvent | Action::Override | Action::InviteStaff | Action::ViewAudit => {
            matches!(role, Some(Role::Organiser | Role::HeadJudge))
        }
        Action::ManageStaff => matches!(role, Some(Role::Organiser)),
    }
}

#[derive(Debug, thiserror::Error)]
pub enum AccessError {
    #[error("Sign in to do this.")]
    SignInRequired,
    #[error("Your role in this event does not allow this.")]
    Forbidden,
    #[error("database error")]
    Database(#[from] sqlx::Error),
}

pub async fn role_of(
    pool: impl sqlx::PgExecutor<'_>,
    user_id: UserId,
    event_id: EventId,
) -> Result<Option<Role>, sqlx::Error> {
    sqlx::query_scalar("SELECT role FROM event_roles WHERE event_id = $1 AND user_id = $2")
        .bind(event_id)
        .bind(user_id)
        .fetch_optional(pool)
        .await
}

/// Checks that `actor` may do `action` in the event, and returns their role there.
pub async fn authorize(
    pool: &PgPool,
    actor: Option<&Actor>,
    event_id: EventId,
    action: Action,
) -> Result<Option<Role>, AccessError> {
    if allows(None, false, action) {
        return Ok(match actor {
            Some(a) => role_of(pool, a.user_id, event_id).await?,
            None => None,
        });
    }
    let actor = actor.ok_or(AccessError::SignInRequired)?;
    let role = role_of(pool, actor.user_id, event_id).await?;
    if allows(role, actor.is_admin, action) {
        Ok(role)
    } else {
        Err(AccessError::Forbidden)
    }
}

#[derive(Debug, Clone, Serialize, Deserialize, sqlx::FromRow)]
pub struct StaffMember {
    pub user_id: UserId,
    pub username: String,
    pub role: Role,
}

pub async fn staff(pool: &PgPool, event_id: EventId) -> Result<Vec<StaffMember>, sqlx::Error> {
    sqlx::query_as(
        "SELECT u.id AS user_id, u.username, r.role FROM event_roles r JOIN users u ON u.id = r.user_id \
         WHERE r.event_id = $1 ORDER BY r.role, lower(u.username)",
    )
    .bind(event_id)
    .fetch_all(pool)
    .await
}

#[derive(Debug, thiserror::Error)]
pub enum GrantError {
    #[error(transparent)]
    Access(#[from] AccessError),
    #[error(
        "No account is called {0:?}. Invite them by a link instead (below): they make their account as they take the invitation."
    )]
    NoSuchUser(String),
    #[error("database error")]
    Database(#[from] sqlx::Error),
}

/// Gives `username` the role in the event (replacing any role they had), as `actor`.
pub async fn grant(
    pool: &PgPool,
    actor: &Actor,
    event_id: EventId,
    username: &str,
    role: Role,
) -> Result<(), GrantError> {
    authorize(pool, Some(actor), event_id, Action::ManageStaff).await?;
    let mut tx = pool.begin().await?;
    let user: Option<(UserId, String)> =
        sqlx::query_as("SELECT id, username FROM users WHERE lower(username) = lower($1)")
            .bind(username.trim())
            .fetch_optional(&mut *tx)
            .await?;
    let (user_id, name) = user.ok_or_else(|| GrantError::NoSuchUser(username.trim().to_owned()))?;
    sqlx::query(
        "INSERT INTO event_roles (event_id, user_id, role, granted_by) VALUES ($1, $2, $3, $4) \
         ON CONFLICT (event_id, user_id) DO UPDATE SET role = $3, granted_by = $4, granted_at = now()",
    )
    .bind(event_id)
    .bind(user_id)
    .bind(role)
    .bind(actor.user_id)
    .execute(&mut *tx)
    .await?;
    let mut entry = audit::Entry::new(audit::Action::RoleGranted);
    entry.actor_id = Some(actor.user_id);
    entry.actor = Some(&actor.username);
    entry.event_id = Some(event_id);
    entry.subject = Some(&name);
    entry.detail = serde_json::json!({ "role": role.as_str() });
    audit::record(&mut *tx, entry).await?;
    tx.commit().await?;
    Ok(())
}

pub async fn revoke(
    pool: &PgPool,
    actor: &Actor,
    event_id: EventId,
    user_id: UserId,
) -> Result<(), GrantError> {
    authorize(pool, Some(actor), event_id, Action::ManageStaff).await?;
    let mut tx = pool.begin().await?;
    let removed: Option<(String, Role)> = sqlx::query_as(
        "DELETE FROM event_roles r USING users u WHERE r.event_id = $1 AND r.user_id = $2 AND u.id = r.user_id \
         RETURNING u.username, r.role",
    )
    .bind(event_id)
    .bind(user_id)
    .fetch_optional(&mut *tx)
    .await?;
    if let Some((name, role)) = removed {
        let mut entry = audit::Entry::new(audit::Action::RoleRevoked);
        entry.actor_id = Some(actor.user_id);
        entry.actor = Some(&actor.username);
        entry.event_id = Some(event_id);
        entry.subject = Some(&name);
        entry.detail = serde_json::json!({ "role": role.as_str() });
        audit::record(&mut *tx, entry).await?;
    }
    tx.commit().await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The whole matrix, written out so a change to who may do what is a visible diff.
    #[test]
    fn the_role_matrix() {
        use Action::*;
        let expect = |role: Option<Role>, allowed: &[Action]| {
            for action in Action::ALL {
                assert_eq!(
                    allows(role, false, action),
                    allowed.contains(&action),
                    "{role:?} / {action:?}"
                );
            }
        };
        expect(None, &[ViewPublic]);
        expect(Some(Role::Player), &[ViewPublic, ConfirmOwnReport]);
        expect(
            Some(Role::Judge),
            &[ViewPublic, ConfirmOwnReport, RecordResults, ViewAllReports],
        );
        expect(
            Some(Role::HeadJudge),
            &[
                ViewPublic,
                ConfirmOwnReport,
                RecordResults,
                ViewAllReports,
                RunEvent,
                Override,
                InviteStaff,
                ViewAudit,
            ],
        );
        expect(Some(Role::Organiser), &Action::ALL);
        for action in Action::ALL {
            assert!(
                allows(None, true, action),
                "an administrator may {action:?}"
            );
        }
    }

    #[test]
    fn roles_round_trip_through_text() {
        for role in Role::ALL {
            assert_eq!(Role::parse(role.as_str()), Some(role));
        }
        assert_eq!(Role::parse("emperor"), None);
    }
}
