//! Server functions about events and their staff. Each checks the caller's role first.

// A server function takes one argument per form field, and the settings form has many. (The
// browser-side stub the `server` macro writes does not carry an `allow` on the function.)
#![allow(clippy::too_many_arguments)]

use leptos::prelude::*;
use serde::{Deserialize, Serialize};
use tournament::ids::{RoundNumber, UserId};

use crate::error::AppError;
#[cfg(feature = "ssr")]
use crate::server::{answer, back, back_with, fail, internal, pool, require};
#[cfg(feature = "ssr")]
use leptos::server_fn::ServerFn;

/// An event as the list of events shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EventSummary {
    pub slug: String,
    pub name: String,
    /// "30 July – 2 August 2026", empty when no dates are set.
    pub dates: String,
    /// `YYYY-MM-DD` of the first day (or the last, if only that is set), for `<time>`.
    pub date_iso: String,
    pub venue: String,
    /// "Registration", "Round 2 in play", "Finals", "Finished".
    pub stage: String,
    /// Registered players (alternates not counted).
    pub players: i64,
    /// Its last day is past.
    pub past: bool,
}

/// An event as its page shows it, with what the viewer may do there.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EventOverview {
    pub slug: String,
    pub name: String,
    /// "30 July – 2 August 2026", empty when no dates are set.
    pub dates: String,
    pub venue: String,
    pub ruleset: String,
    pub qualifying_rounds: i32,
    /// The latest round drawn, if any.
    pub current_round: Option<RoundNumber>,
    /// The viewer's role, as a label ("Judge"), if they have one.
    pub role: Option<String>,
    pub can_record_results: bool,
    pub can_run_event: bool,
    pub can_manage_staff: bool,
    /// Organisers and head judges: invitation links, the staff list.
    pub can_invite_staff: bool,
    pub can_view_audit: bool,
    /// The viewer's own registration, once claimed: the page opens on her table.
    pub my_player: Option<tournament::ids::PlayerId>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StaffRow {
    pub user_id: UserId,
    pub username: String,
    pub role: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AuditRow {
    pub at: String,
    /// The entry in words ("sam corrected the game report at table 3 in round 2").
    pub sentence: String,
    pub actor: String,
    pub action: String,
    pub subject: String,
    pub detail: String,
}

#[cfg(feature = "ssr")]
pub(crate) async fn load(slug: &str) -> Result<db::events::Event, AppError> {
    match db::events::by_slug(&pool()?, slug).await {
        Ok(Some(event)) => Ok(event),
        Ok(None) => fail(AppError::NotFound(format!(
            "There is no event at /events/{slug}."
        ))),
        Err(e) => Err(internal("loading the event", e)),
    }
}

/// What the viewer may open among the judges' pages of an event (`pages::dashboard::RunNav`
/// shows only those links).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Reach {
    /// The head judge's pages: dashboard, players, settings (`RunEvent`).
    pub run: bool,
    /// A judge's: every table's reports, the game logs, the organiser's desk (`RecordResults`).
    pub record: bool,
}

#[server]
pub async fn staff_reach(slug: String) -> Result<Reach, AppError> {
    use db::roles::{Action, allows};
    let event = load(&slug).await?;
    let (actor, role) = require(event.id, Action::ViewPublic).await?;
    let admin = actor.as_ref().is_some_and(|a| a.is_admin);
    Ok(Reach {
        run: allows(role, admin, Action::RunEvent),
        record: allows(role, admin, Action::RecordResults) && actor.is_some(),
    })
}

/// An event's name, public (every page's `<title>` names its event).
#[server]
pub async fn event_name(slug: String) -> Result<String, AppError> {
    Ok(load(&slug).await?.name)
}

/// Every event, public: the current and coming ones first, then the past ones.
#[server]
pub async fn list_events() -> Result<Vec<EventSummary>, AppError> {
    let events = db::events::listing(&pool()?)
        .await
        .map_err(|e| internal("listing events", e))?;
    Ok(events
        .into_iter()
        .map(|e| EventSummary {
            dates: date_range(e.starts_on, e.ends_on),
            date_iso: e
                .starts_on
                .or(e.ends_on)
                .map(|d| d.format("%Y-%m-%d").to_string())
                .unwrap_or_default(),
            stage: e.stage.label(),
            slug: e.slug,
            name: e.name,
            venue: e.venue,
            players: e.players,
            past: e.past,
        })
        .collect())
}

#[server]
pub async fn create_event(name: String) -> Result<String, AppError> {
    let actor = crate::server::require_actor().await?;
    match db::events::create(&pool()?, &actor, &name).await {
        Ok(event) => {
            let path = format!("/events/{}", event.slug);
            crate::server::go_to(&path);
            Ok(path)
        }
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
    let pool = pool()?;
    let detail = db::events::detail(&pool, event.id)
        .await
        .map_err(|e| internal("loading the event", e))?
        .ok_or_else(|| AppError::NotFound("The event is gone.".into()))?;
    let current_round = db::rounds::latest_number(&pool, event.id)
        .await
        .map_err(|e| internal("loading the rounds", e))?;
    let my_player = match &actor {
        Some(actor) => db::claims::player_of(&pool, actor, event.id)
            .await
            .map_err(|e| internal("finding your registration", e))?,
        None => None,
    };
    let s = detail.settings;
    Ok(EventOverview {
        slug: event.slug,
        name: s.name,
        dates: date_range(s.starts_on, s.ends_on),
        venue: s.venue,
        ruleset: s.ruleset.id().to_owned(),
        qualifying_rounds: s.qualifying_rounds,
        current_round,
        role: role.map(|r| r.label().to_owned()),
        can_record_results: allows(role, admin, Action::RecordResults),
        can_run_event: allows(role, admin, Action::RunEvent),
        can_manage_staff: allows(role, admin, Action::ManageStaff),
        can_invite_staff: allows(role, admin, Action::InviteStaff),
        can_view_audit: allows(role, admin, Action::ViewAudit),
        my_player,
    })
}

/// "30 July 2026", "30 July – 2 August 2026", or "" without dates.
#[cfg(feature = "ssr")]
fn date_range(first: Option<chrono::NaiveDate>, last: Option<chrono::NaiveDate>) -> String {
    let day = |d: chrono::NaiveDate| d.format("%-d %B %Y").to_string();
    match (first, last) {
        (Some(a), Some(b)) if a != b => format!("{} – {}", day(a), day(b)),
        (Some(a), _) | (None, Some(a)) => day(a),
        (None, None) => String::new(),
    }
}

/// The event's settings as the form shows them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SettingsView {
    pub slug: String,
    pub name: String,
    /// `YYYY-MM-DD` or empty, as `<input type=date>` takes it.
    pub starts_on: String,
    pub ends_on: String,
    pub venue: String,
    pub ruleset: String,
    pub table_fallback: String,
    pub five_player_empty_circle: u8,
    pub adjudication_deadlock: String,
    pub finals_seats: usize,
    pub final_seating: String,
    /// `on` or `off`: the Shield Wall counts as a stronghold from the fourth worm (4.02).
    #[serde(default)]
    pub shield_wall: String,
    pub qualifying_rounds: i32,
    pub version: i32,
    /// Rounds drawn so far: the ruleset is fixed once there is one.
    pub rounds_drawn: usize,
    /// Where phones reach Mentat, for the QR codes; empty when not set.
    pub public_url: String,
    /// A test event's rehearsal clock in minutes per table; empty for a real event.
    pub rehearsal_minutes: String,
}

#[cfg(feature = "ssr")]
fn option_code<T: Serialize>(value: &T) -> String {
    serde_json::to_value(value)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default()
}

#[server]
pub async fn get_settings(slug: String) -> Result<SettingsView, AppError> {
    let event = load(&slug).await?;
    require(event.id, db::roles::Action::RunEvent).await?;
    let pool = pool()?;
    let detail = db::events::detail(&pool, event.id)
        .await
        .map_err(|e| internal("loading the event", e))?
        .ok_or_else(|| AppError::NotFound("The event is gone.".into()))?;
    let rounds = db::rounds::list(&pool, event.id)
        .await
        .map_err(|e| internal("loading the rounds", e))?;
    let s = detail.settings;
    let date = |d: Option<chrono::NaiveDate>| d.map(|d| d.to_string()).unwrap_or_default();
    Ok(SettingsView {
        slug: detail.slug,
        name: s.name,
        starts_on: date(s.starts_on),
        ends_on: date(s.ends_on),
        venue: s.venue,
        ruleset: s.ruleset.id().to_owned(),
        table_fallback: option_code(&s.options.table_fallback),
        five_player_empty_circle: s.options.five_player_empty_circle,
        adjudication_deadlock: option_code(&s.options.adjudication_deadlock),
        finals_seats: s.options.finals_seats,
        final_seating: option_code(&s.options.final_seating),
        shield_wall: if s.options.shield_wall { "on" } else { "off" }.to_owned(),
        qualifying_rounds: s.qualifying_rounds,
        version: detail.version,
        rounds_drawn: rounds.len(),
        public_url: s
            .public_url
            .map(|a| a.as_str().to_owned())
            .unwrap_or_default(),
        rehearsal_minutes: s
            .options
            .rehearsal_minutes
            .map(|m| m.to_string())
            .unwrap_or_default(),
    })
}

/// Reads one form value into its type, or names the field and what it should hold.
#[cfg(feature = "ssr")]
fn parse_field<T: std::str::FromStr>(
    field: &str,
    text: &str,
    expected: &str,
) -> Result<T, AppError> {
    text.trim()
        .parse()
        .map_err(|_| AppError::field(field, expected.to_owned()))
}

#[cfg(feature = "ssr")]
fn parse_date(field: &str, text: &str) -> Result<Option<chrono::NaiveDate>, AppError> {
    let text = text.trim();
    if text.is_empty() {
        return Ok(None);
    }
    chrono::NaiveDate::parse_from_str(text, "%Y-%m-%d")
        .map(Some)
        .map_err(|_| AppError::field(field, "Enter a date such as 2026-07-30."))
}

#[cfg(feature = "ssr")]
fn parse_choice<T: serde::de::DeserializeOwned>(field: &str, text: &str) -> Result<T, AppError> {
    serde_json::from_value(serde_json::Value::String(text.trim().to_owned()))
        .map_err(|_| AppError::field(field, "Choose one of the listed options."))
}

#[server]
pub async fn save_settings(
    slug: String,
    version: i32,
    name: String,
    starts_on: String,
    ends_on: String,
    venue: String,
    ruleset: String,
    table_fallback: String,
    five_player_empty_circle: String,
    adjudication_deadlock: String,
    finals_seats: String,
    qualifying_rounds: String,
    #[server(default)] public_url: String,
    #[server(default)] final_seating: String,
    #[server(default)] shield_wall: String,
    #[server(default)] rehearsal_minutes: String,
) -> Result<(), AppError> {
    let event = load(&slug).await?;
    let actor = crate::server::require_staff(event.id, db::roles::Action::RunEvent).await?;
    let parsed = (|| {
        Ok::<_, AppError>(db::events::Settings {
            name,
            starts_on: parse_date("starts_on", &starts_on)?,
            ends_on: parse_date("ends_on", &ends_on)?,
            venue,
            ruleset: parse_field("ruleset", &ruleset, "Choose gc-2.13.3 or full.")?,
            options: tournament::RulingOptions {
                table_fallback: parse_choice("table_fallback", &table_fallback)?,
                five_player_empty_circle: parse_field(
                    "five_player_empty_circle",
                    &five_player_empty_circle,
                    "Choose circle 0, 2, 3, 4 or 5.",
                )?,
                adjudication_deadlock: parse_choice(
                    "adjudication_deadlock",
                    &adjudication_deadlock,
                )?,
                finals_seats: parse_field(
                    "finals_seats",
                    &finals_seats,
                    "Enter a whole number of seats, such as 6.",
                )?,
                // Forms from before the setting existed leave it out: the default.
                final_seating: if final_seating.trim().is_empty() {
                    tournament::FinalSeating::default()
                } else {
                    parse_choice("final_seating", &final_seating)?
                },
                // Forms from before the setting existed leave it out: on, as GenCon plays.
                shield_wall: match shield_wall.trim() {
                    "" | "on" => true,
                    "off" => false,
                    _ => {
                        return Err(AppError::field(
                            "shield_wall",
                            "Choose one of the listed options.",
                        ));
                    }
                },
                rehearsal_minutes: match rehearsal_minutes.trim() {
                    "" => None,
                    m => Some(parse_field(
                        "rehearsal_minutes",
                        m,
                        "Enter the minutes each table's clock runs, 1 to 120, or leave it empty.",
                    )?),
                },
            },
            qualifying_rounds: parse_field(
                "qualifying_rounds",
                &qualifying_rounds,
                "Enter a whole number of rounds, such as 4.",
            )?,
            public_url: db::public_address::PublicAddress::parse(&public_url)
                .map_err(|e| AppError::field("public_url", e.to_string()))?,
        })
    })();
    let settings = match parsed {
        Ok(s) => s,
        Err(e) => return fail(e),
    };
    answer(db::events::update_settings(&pool()?, &actor, event.id, version, settings).await)?;
    back_with(SaveSettings::url(), "Saved.", &[]);
    Ok(())
}

#[server]
pub async fn event_staff(slug: String) -> Result<Vec<StaffRow>, AppError> {
    let event = load(&slug).await?;
    require(event.id, db::roles::Action::InviteStaff).await?;
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
        Ok(()) => {
            back();
            Ok(())
        }
        Err(e @ db::roles::GrantError::NoSuchUser(_)) => {
            fail(AppError::field("username", e.to_string()))
        }
        Err(db::roles::GrantError::Access(_)) => fail(AppError::Forbidden(
            "Only the event's organisers manage its staff.".into(),
        )),
        Err(e) => Err(internal("granting the role", e)),
    }
}

/// The field a staff row's confirmation is reported at: each row is its own form.
pub fn remove_confirm_field(user_id: UserId) -> String {
    format!("confirm-{user_id}")
}

/// Removes someone's role. Removing cannot be undone (only a new grant): the form asks once,
/// and without the ticked box (`confirm=true`) it is refused at that row's box.
#[server]
pub async fn revoke_role(
    slug: String,
    user_id: UserId,
    #[server(default)] confirm: bool,
) -> Result<(), AppError> {
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
    if !confirm {
        let staff = db::roles::staff(&pool()?, event.id)
            .await
            .map_err(|e| internal("listing staff", e))?;
        let name = staff
            .iter()
            .find(|s| s.user_id == user_id)
            .map_or_else(|| "this person".to_owned(), |s| s.username.clone());
        return fail(AppError::field(
            &remove_confirm_field(user_id),
            format!(
                "Tick the box to confirm that {name}'s role is to be removed; nothing was changed."
            ),
        ));
    }
    db::roles::revoke(&pool()?, &actor, event.id, user_id)
        .await
        .map_err(|e| internal("removing the role", e))?;
    back();
    Ok(())
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
pub(crate) fn audit_row(row: db::audit::Row) -> AuditRow {
    AuditRow {
        at: row.at.format("%Y-%m-%d %H:%M:%S UTC").to_string(),
        sentence: db::audit::sentence(
            &row.action,
            row.actor.as_deref(),
            row.subject.as_deref(),
            &row.detail,
        ),
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
