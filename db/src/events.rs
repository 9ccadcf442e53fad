//! Events: the tournament a set of rounds, players and staff belong to.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use sqlx::PgPool;

use crate::{
    audit,
    roles::{Actor, Role},
};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, sqlx::FromRow)]
pub struct Event {
    pub id: i64,
    pub slug: String,
    pub name: String,
    pub created_at: DateTime<Utc>,
}

/// The part of an event's address after `/events/`: lowercase letters, digits and dashes.
pub fn slug_from_name(name: &str) -> String {
    let mut slug = String::new();
    for c in name.trim().to_lowercase().chars() {
        if c.is_ascii_alphanumeric() {
            slug.push(c);
        } else if !slug.ends_with('-') && !slug.is_empty() {
            slug.push('-');
        }
    }
    let slug = slug.trim_end_matches('-');
    if slug.is_empty() {
        "event".to_owned()
    } else {
        slug.chars().take(60).collect()
    }
}

#[derive(Debug, thiserror::Error)]
pub enum CreateEventError {
    #[error("Only site administrators create events.")]
    Forbidden,
    #[error("Give the event a name of 3 to 120 characters.")]
    BadName,
    #[error("An event with the address /events/{0} exists already; choose another name.")]
    SlugTaken(String),
    #[error("database error")]
    Database(#[from] sqlx::Error),
}

/// Creates an event; its creator becomes its organiser.
pub async fn create(pool: &PgPool, actor: &Actor, name: &str) -> Result<Event, CreateEventError> {
    if !actor.is_admin {
        return Err(CreateEventError::Forbidden);
    }
    let name = name.trim();
    if !(3..=120).contains(&name.chars().count()) {
        return Err(CreateEventError::BadName);
    }
    let slug = slug_from_name(name);
    let mut tx = pool.begin().await?;
    let inserted: Result<Event, sqlx::Error> = sqlx::query_as(
        "INSERT INTO events (slug, name, created_by) VALUES ($1, $2, $3) RETURNING id, slug, name, created_at",
    )
    .bind(&slug)
    .bind(name)
    .bind(actor.user_id)
    .fetch_one(&mut *tx)
    .await;
    let event = match inserted {
        Ok(event) => event,
        Err(sqlx::Error::Database(e)) if e.is_unique_violation() => {
            return Err(CreateEventError::SlugTaken(slug));
        }
        Err(e) => return Err(e.into()),
    };
    sqlx::query(
        "INSERT INTO event_roles (event_id, user_id, role, granted_by) VALUES ($1, $2, $3, $2)",
    )
    .bind(event.id)
    .bind(actor.user_id)
    .bind(Role::Organiser)
    .execute(&mut *tx)
    .await?;
    let mut entry = audit::Entry::new(audit::Action::EventCreated);
    entry.actor_id = Some(actor.user_id);
    entry.actor = Some(&actor.username);
    entry.event_id = Some(event.id);
    entry.subject = Some(&event.name);
    audit::record(&mut *tx, entry).await?;
    tx.commit().await?;
    Ok(event)
}

pub async fn by_slug(pool: &PgPool, slug: &str) -> Result<Option<Event>, sqlx::Error> {
    sqlx::query_as("SELECT id, slug, name, created_at FROM events WHERE slug = $1")
        .bind(slug)
        .fetch_optional(pool)
        .await
}

pub async fn list(pool: &PgPool) -> Result<Vec<Event>, sqlx::Error> {
    sqlx::query_as("SELECT id, slug, name, created_at FROM events ORDER BY created_at DESC")
        .fetch_all(pool)
        .await
}

#[cfg(test)]
mod tests {
    use super::slug_from_name;

    #[test]
    fn slugs_are_readable_addresses() {
        assert_eq!(
            slug_from_name("GenCon 2026 — Landsraad Qualifier"),
            "gencon-2026-landsraad-qualifier"
        );
        assert_eq!(slug_from_name("  !!  "), "event");
    }
}
