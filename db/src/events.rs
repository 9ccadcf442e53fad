//! Events: the tournament a set of rounds, players and staff belong to.

use chrono::{DateTime, NaiveDate, Utc};
use serde::{Deserialize, Serialize};
use sqlx::PgPool;
use tournament::ids::{EventId, RoundNumber};
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

/// Where an event stands, as the events list says it, derived from its rounds, its finals and
/// its dates (never stored, so it cannot disagree with them).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Stage {
    /// No round drawn yet: players register and check in.
    Registration,
    /// The latest round drawn and how far it is.
    Round {
        number: RoundNumber,
        progress: RoundProgress,
    },
    /// Qualifying is closed: the finals.
    Finals,
    /// The event's last day is past.
    Finished,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum RoundProgress {
    /// Drawn; seats may still change.
    Drawn,
    /// Play began and a table's report is not final yet.
    InPlay,
    /// Every table's report is final.
    Reported,
}

impl Stage {
    /// The stage from what the database holds: the latest round (with whether play began and
    /// how many of its tables lack a final report), whether qualifying closed, and whether the
    /// last day is past.
    pub fn derive(
        latest: Option<(RoundNumber, bool, i64)>,
        finals_closed: bool,
        past: bool,
    ) -> Stage {
        if past {
            return Stage::Finished;
        }
        if finals_closed {
            return Stage::Finals;
        }
        match latest {
            None => Stage::Registration,
            Some((number, started, open_tables)) => Stage::Round {
                number,
                progress: if open_tables == 0 {
                    RoundProgress::Reported
                } else if started {
                    RoundProgress::InPlay
                } else {
                    RoundProgress::Drawn
                },
            },
        }
    }

    /// "Registration", "Round 2 in play", "Finals", "Finished".
    pub fn label(&self) -> String {
        match self {
            Stage::Registration => "Registration".to_owned(),
            Stage::Round { number, progress } => match progress {
                RoundProgress::Drawn => format!("Round {number} drawn"),
                RoundProgress::InPlay => format!("Round {number} in play"),
                RoundProgress::Reported => format!("Round {number} reported"),
            },
            Stage::Finals => "Finals".to_owned(),
            Stage::Finished => "Finished".to_owned(),
        }
    }
}

/// An event as the public list of events shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Listing {
    pub id: EventId,
    pub slug: String,
    pub name: String,
    pub starts_on: Option<NaiveDate>,
    pub ends_on: Option<NaiveDate>,
    pub venue: String,
    /// Registered players, alternates not counted (dropped players are).
    pub players: i64,
    pub stage: Stage,
    /// The last day (or the only day set) is before today: listed apart, under "Past events".
    pub past: bool,
}

#[derive(sqlx::FromRow)]
struct ListingRow {
    id: EventId,
    slug: String,
    name: String,
    starts_on: Option<NaiveDate>,
    ends_on: Option<NaiveDate>,
    venue: String,
    players: i64,
    round: Option<RoundNumber>,
    round_started: Option<bool>,
    open_tables: Option<i64>,
    finals_closed: bool,
    past: bool,
}

/// Every event for the public list: the current and coming ones first (soonest first, events
/// without dates after them, newest first), then the past ones (latest first). "Today" is the
/// database's `current_date`, the one clock Mentat reads.
pub async fn listing(pool: &PgPool) -> Result<Vec<Listing>, sqlx::Error> {
    let rows: Vec<ListingRow> = sqlx::query_as(
        "SELECT e.id, e.slug, e.name, e.starts_on, e.ends_on, e.venue, \
           (SELECT count(*) FROM players p WHERE p.event_id = e.id AND NOT p.alternate) AS players, \
           r.number AS round, r.started_at IS NOT NULL AS round_started, \
           (SELECT count(*) FROM game_tables t WHERE t.round_id = r.id AND t.reported_at IS NULL) \
             AS open_tables, \
           EXISTS (SELECT 1 FROM finals f WHERE f.event_id = e.id) AS finals_closed, \
           COALESCE(COALESCE(e.ends_on, e.starts_on) < current_date, false) AS past \
         FROM events e \
         LEFT JOIN LATERAL (SELECT id, number, started_at FROM rounds \
           WHERE event_id = e.id ORDER BY number DESC LIMIT 1) r ON true \
         ORDER BY past, \
           CASE WHEN COALESCE(COALESCE(e.ends_on, e.starts_on) < current_date, false) \
             THEN NULL ELSE e.starts_on END ASC NULLS LAST, \
           COALESCE(e.ends_on, e.starts_on) DESC NULLS LAST, e.created_at DESC",
    )
    .fetch_all(pool)
    .await?;
    Ok(rows
        .into_iter()
        .map(|r| Listing {
            stage: Stage::derive(
                r.round.map(|n| {
                    (
                        n,
                        r.round_started.unwrap_or(false),
                        r.open_tables.unwrap_or(0),
                    )
                }),
                r.finals_closed,
                r.past,
            ),
            id: r.id,
            slug: r.slug,
            name: r.name,
            starts_on: r.starts_on,
            ends_on: r.ends_on,
            venue: r.venue,
            players: r.players,
            past: r.past,
        })
        .collect())
}

/// What a new event's setup has done so far, read from the data (nobody ticks it by hand).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Setup {
    /// The settings were saved at least once (their version moved).
    pub settings_saved: bool,
    /// Staff besides the event's creator have a role, or an invitation link was made.
    pub staff_invited: bool,
    /// Registered players, alternates not counted.
    pub players: i64,
    /// Of them, checked in and not dropped.
    pub checked_in: i64,
    pub round_one_drawn: bool,
}

pub async fn setup(pool: &PgPool, event_id: EventId) -> Result<Setup, sqlx::Error> {
    let row: Option<(bool, bool, i64, i64, bool)> = sqlx::query_as(
        "SELECT e.version > 1, \
           EXISTS (SELECT 1 FROM event_roles r WHERE r.event_id = e.id AND r.role <> 'player' \
                   AND r.user_id IS DISTINCT FROM e.created_by) \
             OR EXISTS (SELECT 1 FROM tokens t WHERE t.event_id = e.id AND t.kind = 'staff_invite'), \
           (SELECT count(*) FROM players p WHERE p.event_id = e.id AND NOT p.alternate), \
           (SELECT count(*) FROM players p WHERE p.event_id = e.id AND NOT p.alternate \
             AND p.checked_in AND p.dropped_after_round IS NULL), \
           EXISTS (SELECT 1 FROM rounds r WHERE r.event_id = e.id AND r.number = 1) \
         FROM events e WHERE e.id = $1",
    )
    .bind(event_id)
    .fetch_optional(pool)
    .await?;
    Ok(row
        .map(
            |(settings_saved, staff_invited, players, checked_in, round_one_drawn)| Setup {
                settings_saved,
                staff_invited,
                players,
                checked_in,
                round_one_drawn,
            },
        )
        .unwrap_or_default())
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

/// The finals are one table (ruling 13): 2 to 6 seats.
pub const FINALS_SEATS: std::ops::RangeInclusive<usize> = tournament::finals::FINAL_TABLE_SEATS;
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
    #[error("The finals are one table of 2 to 6 players; enter a number from 2 to 6.")]
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
            Self::Options(tournament::options::OptionsError::RehearsalMinutes(_)) => {
                Some("rehearsal_minutes")
            }
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
        if !FINALS_SEATS.contains(&self.options.finals_seats) {
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
    use super::{RoundProgress, Stage, slug_from_name};
    use tournament::ids::RoundNumber;

    #[test]
    fn the_stage_follows_rounds_finals_and_dates() {
        let r2 = RoundNumber(2);
        assert_eq!(Stage::derive(None, false, false), Stage::Registration);
        assert_eq!(Stage::derive(None, false, false).label(), "Registration");
        let drawn = Stage::derive(Some((r2, false, 3)), false, false);
        assert_eq!(drawn.label(), "Round 2 drawn");
        let playing = Stage::derive(Some((r2, true, 1)), false, false);
        assert_eq!(
            playing,
            Stage::Round {
                number: r2,
                progress: RoundProgress::InPlay
            }
        );
        assert_eq!(playing.label(), "Round 2 in play");
        assert_eq!(
            Stage::derive(Some((r2, true, 0)), false, false).label(),
            "Round 2 reported"
        );
        assert_eq!(
            Stage::derive(Some((r2, true, 0)), true, false),
            Stage::Finals
        );
        assert_eq!(
            Stage::derive(Some((r2, true, 0)), true, true),
            Stage::Finished
        );
        assert_eq!(Stage::derive(None, false, true).label(), "Finished");
    }

    #[test]
    fn slugs_are_readable_addresses() {
        assert_eq!(
            slug_from_name("GenCon 2026 — Landsraad Qualifier"),
            "gencon-2026-landsraad-qualifier"
        );
        assert_eq!(slug_from_name("  !!  "), "event");
    }
}
