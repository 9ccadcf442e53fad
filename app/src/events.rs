//! Server functions about events and their staff. Each checks the caller's role first.

use leptos::prelude::*;
use serde::{Deserialize, Serialize};

use crate::error::AppError;
#[cfg(feature = "ssr")]
use crate::server::{fail, internal, pool, require};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EventSummary {
    pub slug: String,
    pub name: String,
}

/// An event as its page shows it, with what the viewer may do there.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EventOverview {
    pub slug: String,
    pub name: String,
    /// The viewer's role, as a label ("Judge"), if they have one.
    pub role: Option<String>,
    pub can_record_results: bool,
    pub can_run_event: bool,
    pub can_manage_staff: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StaffRow {
    pub user_id: i64,
    pub username: String,
    pub role: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AuditRow {
    pub at: String,
    pub actor: String,
    pub action: String,
    pub subject: String,
    pub detail: String,
}

#[cfg(feature = "ssr")]
async fn load(slug: &str) -> Result<db::events::Event, AppError> {
    match db::events::by_slug(&pool()?, slug).await {
        Ok(Some(event)) => Ok(event),
        Ok(None) => fail(AppError::NotFound(format!(
            "There is no event at /events/{slug}."
        ))),
        Err(e) => Err(internal("loading the event", e)),
    }
}

#[server]
pub async fn list_events() -> Result<Vec<EventSummary>, AppError> {
    let events = db::events::list(&pool()?)
        .await
        .map_err(|e| internal("listing events", e))?;
    Ok(events
        .into_iter()
        .map(|e| EventSummary {
            slug: e.slug,
            name: e.name,
        })
        .collect())
}

#[server]
pub async fn create_event(name: String) -> Result<String, AppError> {
    let actor = crate::server::require_actor().await?;
    match db::events::create(&pool()?, &actor, &name).await {
        Ok(event) => Ok(format!("/events/{}", event.slug)),
        Err(e @ db::events::CreateEventError::Forbidden) => {
            fail(AppError::Forbidden(e.to_string()))
        }
        Err(
            e
            @ (db::events::CreateEventError::BadName | db::events::CreateEventError::SlugTaken(_)),
        ) => fail(AppError::field("name", e.to_string())),
        Err(e) => Err(internal("creating the event", e)),
    }
}

#[server]
pub async fn get_event(slug: String) -> Result<EventOverview, AppError> {
    use db::roles::{Action, allows};
    let event = load(&slug).await?;
    let (actor, role) = require(event.id, Action::ViewPublic).await?;
    let admin = actor.as_ref().is_some_and(|a| a.is_admin);
    Ok(EventOverview {
        slug: event.slug,
        name: event.name,
        role: role.map(|r| r.label().to_owned()),
        can_record_results: allows(role, admin, Action::RecordResults),
        can_run_event: allows(role, admin, Action::RunEvent),
        can_manage_staff: allows(role, admin, Action::ManageStaff),
    })
}

#[server]
pub async fn event_staff(slug: String) -> Result<Vec<StaffRow>, AppError> {
    let event = load(&slug).await?;
    require(event.id, db::roles::Action::ManageStaff).await?;
    let staff = db::roles::staff(&pool()?, event.id)
        .await
        .map_err(|e| internal("listing staff", e))?;
    Ok(staff
        .into_iter()
        .map(|s| StaffRow {
            user_id: s.user_id,
            username: s.username,
            role: s.role.label().to_owned(),
        })
        .collect())
}

#[server]
pub async fn grant_role(slug: String, username: String, role: String) -> Result<(), AppError> {
    let event = load(&slug).await?;
    let (actor, _) = require(event.id, db::roles::Action::ManageStaff).await?;
    let Some(actor) = actor else {
        return fail(AppError::SignInRequired);
    };
    let Some(role) = db::roles::Role::parse(&role) else {
        return fail(AppError::field("role", "Choose one of the listed roles."));
    };
    if username.trim().is_empty() {
        return fail(AppError::field(
            "username",
            "Enter the user name of an existing account.",
        ));
    }
    match db::roles::grant(&pool()?, &actor, event.id, &username, role).await {
        Ok(()) => Ok(()),
        Err(e @ db::roles::GrantError::NoSuchUser(_)) => {
            fail(AppError::field("username", e.to_string()))
        }
        Err(db::roles::GrantError::Access(_)) => fail(AppError::Forbidden(
            "Only the event's organisers manage its staff.".into(),
        )),
        Err(e) => Err(internal("granting the role", e)),
    }
}

#[server]
pub async fn revoke_role(slug: String, user_id: i64) -> Result<(), AppError> {
    let event = load(&slug).await?;
    let (actor, _) = require(event.id, db::roles::Action::ManageStaff).await?;
    let Some(actor) = actor else {
        return fail(AppError::SignInRequired);
    };
    if actor.user_id == user_id {
        return fail(AppError::Invalid(
            "You cannot remove your own role; ask another organiser.".into(),
        ));
    }
    db::roles::revoke(&pool()?, &actor, event.id, user_id)
        .await
        .map_err(|e| internal("removing the role", e))
}

#[server]
pub async fn event_audit(slug: String) -> Result<Vec<AuditRow>, AppError> {
    let event = load(&slug).await?;
    require(event.id, db::roles::Action::ViewAudit).await?;
    let rows = db::audit::list(&pool()?, Some(event.id), 500)
        .await
        .map_err(|e| internal("reading the audit log", e))?;
    Ok(rows.into_iter().map(audit_row).collect())
}

/// Sign-ins and other security events that belong to no event: for administrators.
#[server]
pub async fn security_audit() -> Result<Vec<AuditRow>, AppError> {
    let actor = crate::server::require_actor().await?;
    if !actor.is_admin {
        return fail(AppError::Forbidden(
            "Only site administrators read the security log.".into(),
        ));
    }
    let rows = db::audit::list(&pool()?, None, 500)
        .await
        .map_err(|e| internal("reading the audit log", e))?;
    Ok(rows.into_iter().map(audit_row).collect())
}

#[cfg(feature = "ssr")]
fn audit_row(row: db::audit::Row) -> AuditRow {
    AuditRow {
        at: row.at.format("%Y-%m-%d %H:%M:%S UTC").to_string(),
        actor: row.actor.unwrap_or_default(),
        action: row.action.replace('_', " "),
        subject: row.subject.unwrap_or_default(),
        detail: match &row.detail {
            serde_json::Value::Object(map) if map.is_empty() => String::new(),
            serde_json::Value::Object(map) => map
                .iter()
                .map(|(k, v)| {
                    format!(
                        "{k}: {}",
                        v.as_str().map_or_else(|| v.to_string(), str::to_owned)
                    )
                })
                .collect::<Vec<_>>()
                .join(", "),
            other => other.to_string(),
        },
    }
}
