//! A new event's setup checklist on the dashboard: settings saved, staff invited, players
//! registered, players checked in, round 1 drawn. Each step is read from the data
//! (`db::events::setup`), so it ticks itself off; nobody ticks it by hand. Once round 1 is
//! drawn, setup is over and the checklist is no longer shown.

use leptos::prelude::*;
use serde::{Deserialize, Serialize};

use crate::error::AppError;

/// One step of the setup, with where to do it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SetupStep {
    pub label: String,
    pub done: bool,
    /// What the data says ("12 of 17 checked in").
    pub detail: String,
    pub href: String,
}

#[server]
pub async fn get_setup(slug: String) -> Result<Vec<SetupStep>, AppError> {
    use crate::server::{internal, pool, require_staff};
    let event = crate::events::load(&slug).await?;
    require_staff(event.id, db::roles::Action::RunEvent).await?;
    let s = db::events::setup(&pool()?, event.id)
        .await
        .map_err(|e| internal("reading the event's setup", e))?;
    if s.round_one_drawn {
        return Ok(Vec::new());
    }
    Ok(steps(&slug, &s))
}

#[cfg(feature = "ssr")]
fn steps(slug: &str, s: &db::events::Setup) -> Vec<SetupStep> {
    let base = format!("/events/{slug}");
    let step = |label: &str, done: bool, detail: String, path: &str| SetupStep {
        label: label.to_owned(),
        done,
        detail,
        href: format!("{base}{path}"),
    };
    let players = |n: i64| match n {
        1 => "1 player".to_owned(),
        n => format!("{n} players"),
    };
    vec![
        step(
            "Settings saved",
            s.settings_saved,
            if s.settings_saved {
                "Dates, venue, rounds and rulings are set.".to_owned()
            } else {
                "Set the dates, venue, rounds and rulings.".to_owned()
            },
            "/settings",
        ),
        step(
            "Staff invited",
            s.staff_invited,
            if s.staff_invited {
                "Judges have a role or an invitation link.".to_owned()
            } else {
                "Invite the judges with a link.".to_owned()
            },
            "/staff",
        ),
        step(
            "Players registered",
            s.players > 0,
            if s.players > 0 {
                format!("{} registered.", players(s.players))
            } else {
                "Add players or import a CSV file.".to_owned()
            },
            "/players",
        ),
        step(
            "Players checked in",
            s.checked_in > 0,
            format!("{} of {} checked in.", s.checked_in, s.players),
            "/players",
        ),
        step(
            "Round 1 drawn",
            s.round_one_drawn,
            "Start round 1 below once the players are checked in.".to_owned(),
            "/run#next-round",
        ),
    ]
}

#[component]
pub fn SetupChecklist(slug: Memo<String>) -> impl IntoView {
    let setup = Resource::new(move || slug.get(), get_setup);
    view! {
        <Suspense fallback=|| ()>
            {move || Suspend::new(async move {
                let steps = setup.await.unwrap_or_default();
                (!steps.is_empty()).then(|| {
                    let done = steps.iter().filter(|s| s.done).count();
                    let total = steps.len();
                    view! {
                        <section class="setup" aria-labelledby="setup-heading">
                            <h2 id="setup-heading">"Setting up"</h2>
                            <p class="hint" data-testid="setup-progress">{format!("{done} of {total} done")}</p>
                            <ol class="checklist">
                                {steps.into_iter().map(|s| view! {
                                    <li data-done=s.done.to_string()>
                                        <span class="mark">{if s.done { "Done" } else { "To do" }}</span>
                                        <span class="step">
                                            <a href=s.href>{s.label}</a>
                                            <span class="detail">{s.detail}</span>
                                        </span>
                                    </li>
                                }).collect_view()}
                            </ol>
                        </section>
                    }
                })
            })}
        </Suspense>
    }
}
