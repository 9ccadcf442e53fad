//! Events: the tournament a set of rounds, players and staff belong to.

use chrono::{DateTime, NaiveDate, Utc};
use serde::{Deserialize, Serialize};
use sqlx::PgPool;
use tournament::ids::EventId;
use tournament::{Ruleset, RulingOptions};

use crate::{
    audit,
    public_address::PublicAddress,
    roles::{Actor, Role},
};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, sqlx::FromRow)]
pub struct Event {
    pub id: EventId,
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

/// An event with its settings, as the head judge edits them and the draws use them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EventDetail {
    pub id: EventId,
    pub slug: String,
    pub settings: Settings,
    /// Bumped by every change of the settings (optimistic concurrency).
    pub version: i32,
}

/// What the head judge sets for an event. `options.finals_seats` is the finals seats (ruling 13).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settings {
    pub name: String,
    pub starts_on: Option<NaiveDate>,
    pub ends_on: Option<NaiveDate>,
    pub venue: String,
    pub ruleset: Ruleset,
    pub options: RulingOptions,
    pub qualifying_rounds: i32,
    /// Where phones in the hall reach Mentat, for the QR codes; `None` leaves it to
    /// `MENTAT_PUBLIC_URL` or the request.
    pub public_url: Option<PublicAddress>,
}

/// The most finals seats an event may have: six tables' worth.
pub const MAX_FINALS_SEATS: usize = 36;
/// The most qualifying rounds (the schema checks it too).
pub const MAX_QUALIFYING_ROUNDS: i32 = 20;

#[derive(sqlx::FromRow)]
struct DetailRow {
    id: EventId,
    slug: String,
    name: String,
    starts_on: Option<NaiveDate>,
    ends_on: Option<NaiveDate>,
    venue: String,
    ruleset: String,
    options: serde_json::Value,
    qualifying_rounds: i32,
    public_url: String,
    version: i32,
}

const DETAIL_COLUMNS: &str = "id, slug, name, starts_on, ends_on, venue, ruleset, options, qualifying_rounds, public_url, \
     version";

impl TryFrom<DetailRow> for EventDetail {
    type Error = sqlx::Error;
    fn try_from(row: DetailRow) -> Result<Self, sqlx::Error> {
        Ok(EventDetail {
            id: row.id,
            slug: row.slug,
            version: row.version,
            settings: Settings {
                name: row.name,
                starts_on: row.starts_on,
                ends_on: row.ends_on,
                venue: row.venue,
                ruleset: parse_ruleset(&row.ruleset)?,
                options: parse_options(row.options)?,
                qualifying_rounds: row.qualifying_rounds,
                public_url: PublicAddress::parse(&row.public_url)
                    .map_err(|e| sqlx::Error::Decode(Box::new(e)))?,
            },
        })
    }
}

/// A stored ruleset; the schema only admits known ones.
pub(crate) fn parse_ruleset(text: &str) -> Result<Ruleset, sqlx::Error> {
    text.parse()
        .map_err(|e: tournament::ruleset::UnknownRuleset| sqlx::Error::Decode(Box::new(e)))
}

/// Stored ruling options; keys missing from older rows read as the defaults.
pub(crate) fn parse_options(value: serde_json::Value) -> Result<RulingOptions, sqlx::Error> {
    serde_json::from_value(value).map_err(|e| sqlx::Error::Decode(Box::new(e)))
}

pub async fn detail_by_slug(pool: &PgPool, slug: &str) -> Result<Option<EventDetail>, sqlx::Error> {
    let row: Option<DetailRow> = sqlx::query_as(&format!(
        "SELECT {DETAIL_COLUMNS} FROM events WHERE slug = $1"
    ))
    .bind(slug)
    .fetch_optional(pool)
    .await?;
    row.map(EventDetail::try_from).transpose()
}

pub async fn detail(
    db: impl sqlx::PgExecutor<'_>,
    id: EventId,
) -> Result<Option<EventDetail>, sqlx::Error> {
    let row: Option<DetailRow> = sqlx::query_as(&format!(
        "SELECT {DETAIL_COLUMNS} FROM events WHERE id = $1"
    ))
    .bind(id)
    .fetch_optional(db)
    .await?;
    row.map(EventDetail::try_from).transpose()
}

#[derive(Debug, thiserror::Error)]
pub enum SettingsError {
    #[error("Give the event a name of 3 to 120 characters.")]
    BadName,
    #[error("The venue is at most 200 characters.")]
    BadVenue,
    #[error("The last day cannot come before the first.")]
    DatesReversed,
    #[error("An event has 1 to {MAX_QUALIFYING_ROUNDS} qualifying rounds.")]
    BadRounds,
    #[error("{0} rounds are drawn already; the event cannot have fewer qualifying rounds.")]
    FewerThanDrawn(i64),
    #[error("The finals have 1 to {MAX_FINALS_SEATS} seats.")]
    BadFinalsSeats,
    #[error(
        "The ruleset cannot change once a round is drawn: factions already dealt belong to the old one."
    )]
    RulesetLocked,
    #[error("{0}")]
    Options(#[from] tournament::options::OptionsError),
    #[error(
        "The event's settings changed since you loaded them (someone else saved first); reload the page to see the change."
    )]
    Stale,
    #[error("There is no such event.")]
    NotFound,
    #[error("database error")]
    Database(#[from] sqlx::Error),
}

impl SettingsError {
    /// The form field at fault, for showing the message next to it.
    pub fn field(&self) -> Option<&'static str> {
        match self {
            Self::BadName => Some("name"),
            Self::BadVenue => Some("venue"),
            Self::DatesReversed => Some("ends_on"),
            Self::BadRounds | Self::FewerThanDrawn(_) => Some("qualifying_rounds"),
            Self::BadFinalsSeats => Some("finals_seats"),
            Self::RulesetLocked => Some("ruleset"),
            Self::Options(_) => Some("five_player_empty_circle"),
            _ => None,
        }
    }
}

impl Settings {
    /// Checks what the types cannot; the name and venue come back trimmed.
    pub fn check(mut self) -> Result<Settings, SettingsError> {
        self.name = self.name.trim().to_owned();
        self.venue = self.venue.trim().to_owned();
        if !(3..=120).contains(&self.name.chars().count()) {
            return Err(SettingsError::BadName);
        }
        if self.venue.chars().count() > 200 || self.venue.chars().any(char::is_control) {
            return Err(SettingsError::BadVenue);
        }
        if let (Some(first), Some(last)) = (self.starts_on, self.ends_on)
            && last < first
        {
            return Err(SettingsError::DatesReversed);
        }
        if !(1..=MAX_QUALIFYING_ROUNDS).contains(&self.qualifying_rounds) {
            return Err(SettingsError::BadRounds);
        }
        if !(1..=MAX_FINALS_SEATS).contains(&self.options.finals_seats) {
            return Err(SettingsError::BadFinalsSeats);
        }
        self.options.check()?;
        Ok(self)
    }
}

/// Saves the settings if nobody changed them since `version` was read; returns the new state.
pub async fn update_settings(
    pool: &PgPool,
    actor: &Actor,
    event_id: EventId,
    version: i32,
    settings: Settings,
) -> Result<EventDetail, SettingsError> {
    let settings = settings.check()?;
    let mut tx = pool.begin().await?;
    let current: Option<DetailRow> = sqlx::query_as(&format!(
        "SELECT {DETAIL_COLUMNS} FROM events WHERE id = $1 FOR UPDATE"
    ))
    .bind(event_id)
    .fetch_optional(&mut *tx)
    .await?;
    let current = EventDetail::try_from(current.ok_or(SettingsError::NotFound)?)?;
    if current.version != version {
        return Err(SettingsError::Stale);
    }
    let drawn: i64 = sqlx::query_scalar("SELECT count(*) FROM rounds WHERE event_id = $1")
        .bind(event_id)
        .fetch_one(&mut *tx)
        .await?;
    if drawn > 0 && settings.ruleset != current.settings.ruleset {
        return Err(SettingsError::RulesetLocked);
    }
    if i64::from(settings.qualifying_rounds) < drawn {
        return Err(SettingsError::FewerThanDrawn(drawn));
    }
    let options =
        serde_json::to_value(&settings.options).map_err(|e| sqlx::Error::Encode(Box::new(e)))?;
    let row: DetailRow = sqlx::query_as(&format!(
        "UPDATE events SET name = $2, starts_on = $3, ends_on = $4, venue = $5, ruleset = $6, \
         options = $7, qualifying_rounds = $8, public_url = $10, version = version + 1 \
         WHERE id = $1 AND version = $9 RETURNING {DETAIL_COLUMNS}"
    ))
    .bind(event_id)
    .bind(&settings.name)
    .bind(settings.starts_on)
    .bind(settings.ends_on)
    .bind(&settings.venue)
    .bind(settings.ruleset.id())
    .bind(&options)
    .bind(settings.qualifying_rounds)
    .bind(version)
    .bind(
        settings
            .public_url
            .as_ref()
            .map_or("", PublicAddress::as_str),
    )
    .fetch_one(&mut *tx)
    .await?;
    let updated = EventDetail::try_from(row)?;
    let detail = serde_json::json!({
        "name": settings.name,
        "starts_on": settings.starts_on,
        "ends_on": settings.ends_on,
        "venue": settings.venue,
        "ruleset": settings.ruleset.id(),
        "options": options,
        "qualifying_rounds": settings.qualifying_rounds,
        "public_url": settings.public_url.as_ref().map(PublicAddress::as_str),
    });
    audit::record(
        &mut *tx,
        audit::Entry::by(
            actor,
            audit::Action::EventUpdated,
            event_id,
            &updated.settings.name,
            detail,
        ),
    )
    .await?;
    tx.commit().await?;
    Ok(updated)
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
