//! An event's public page: when and where, the current round, "find me" and the projector, with
//! links to what the viewer's role lets them do.

use leptos::prelude::*;
use leptos_meta::Title;

use crate::{
    events::get_event,
    pages::{find::FindForm, params::slug_param},
};

#[component]
pub fn EventPage() -> impl IntoView {
    let slug = slug_param();
    let overview = Resource::new(move || slug.get(), get_event);
    view! {
        <main class="page">
            <Suspense fallback=|| view! { <p>"Loading the event…"</p> }>
                {move || Suspend::new(async move {
                    match overview.await {
                        Ok(e) => {
                            let base = format!("/events/{}", e.slug);
                            let when_where = [e.dates.clone(), e.venue.clone()]
                                .into_iter()
                                .filter(|s| !s.is_empty())
                                .collect::<Vec<_>>()
                                .join(" · ");
                            view! {
                                <Title text=e.name.clone()/>
                                <h1>{e.name.clone()}</h1>
                                {(!when_where.is_empty()).then(|| view! { <p class="lead">{when_where}</p> })}
                                <p>{format!("Ruleset {} · {} qualifying rounds", e.ruleset, e.qualifying_rounds)}</p>
                                {e.role.clone().map(|r| view! { <p class="role">"Your role: "<strong>{r}</strong></p> })}
                                <section aria-labelledby="players-corner">
                                    <h2 id="players-corner">"Players"</h2>
                                    <FindForm action=format!("{base}/find")/>
                                    <ul>
                                        {e.current_round.map(|n| view! {
                                            <li><a href=format!("{base}/rounds/{n}")>{format!("Round {n}: tables, seats and factions")}</a></li>
                                        })}
                                        <li><a href=format!("{base}/standings") rel="external">"Standings and the finals line"</a></li>
                                        <li><a href=format!("{base}/finals")>"Finals"</a></li>
                                        <li><a href=format!("{base}/clocks")>"Table clocks (projector)"</a></li>
                                        <li><a href=format!("{base}/statistics") rel="external">"Statistics: factions, win types, game length"</a></li>
                                    </ul>
                                </section>
                                {(e.can_record_results || e.can_manage_staff || e.can_run_event).then(|| view! {
                                    <section aria-labelledby="staff-tools">
                                        <h2 id="staff-tools">"Staff tools"</h2>
                                        <ul>
                                            {e.can_run_event.then(|| view! {
                                                <li><a href=format!("{base}/run")>"Dashboard: start rounds"</a></li>
                                                <li><a href=format!("{base}/players")>"Players: register, import, check in"</a></li>
                                                <li><a href=format!("{base}/settings")>"Event settings"</a></li>
                                            })}
                                            {e.can_record_results.then(|| view! {
                                                <li>{match e.current_round {
                                                    Some(n) => view! { <a href=format!("{base}/rounds/{n}")>"Judge tools: open a table of the current round for its win attempts and game report"</a> }.into_any(),
                                                    None => view! { "Judge tools: win attempts and game reports open from each table once a round is drawn." }.into_any(),
                                                }}</li>
                                            })}
                                            {e.can_record_results.then(|| view! {
                                                <li><a href=format!("{base}/organise") rel="external">"Organiser's desk: exports, print, backup, API tokens"</a></li>
                                            })}
                                            {e.can_manage_staff.then(|| view! {
                                                <li><a href=format!("{base}/staff")>"Staff and roles"</a></li>
                                                <li><a href=format!("{base}/audit")>"Audit log"</a></li>
                                            })}
                                        </ul>
                                    </section>
                                })}
                            }.into_any()
                        }
                        Err(e) => view! { <Title text="Event"/><h1>"Event"</h1><p role="alert">{e.to_string()}</p> }.into_any(),
                    }
                })}
            </Suspense>
        </main>
    }
}
