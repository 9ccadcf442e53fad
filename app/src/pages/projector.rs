//! The projector (`/events/{slug}/clocks`): full screen, no site header, the round's own timer
//! on top, and below it, a page at a time, every table's clock with what it needs from a judge,
//! where everyone sits (A–Z), and the standings. Sized in viewport units so that one page fits a
//! 1280×720 projector as it fits 1920×1080, with nothing spilling or scrolling.
//!
//! Which page is up follows from the time (`projector::slot_at`): the server renders that page
//! and, without JavaScript, the page reloads itself when the next one is due. With it, the
//! [`ProjectorCycle`] island turns the pages, reloads the page when the event's news says a
//! table or the standings changed (a dispute shows within a second or two), and offers full
//! screen. `?view=clocks|seating|standings` keeps to one kind of page; `?every=30` sets the
//! seconds per page.

use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;
use tournament::ids::RoundNumber;

use crate::{
    components::{clock::TickingClock, refresh::NoScriptRefresh},
    pages::params::slug_param,
    projector::{
        ProjectorStanding, ProjectorTable, ProjectorView, SEATS_PER_PAGE, STANDINGS_PER_PAGE, Show,
        Slot, TABLES_PER_PAGE, every_seconds, get_projector, ms_to_next, round_clock, slot_at,
        slots, turns,
    },
};

/// The projector's address.
pub fn path(slug: &str) -> String {
    format!("/events/{slug}/clocks")
}

/// Is this address the projector's? (The site header stays off it.)
pub fn is_projector(path: &str) -> bool {
    let mut parts = path.trim_matches('/').split('/');
    matches!(
        (parts.next(), parts.next(), parts.next(), parts.next()),
        (Some("events"), Some(_), Some("clocks"), None)
    )
}

#[component]
pub fn ProjectorPage() -> impl IntoView {
    let slug = slug_param();
    let query = use_query_map();
    let only = Memo::new(move |_| query.read().get("view").as_deref().and_then(Show::parse));
    let every = Memo::new(move |_| every_seconds(query.read().get("every").as_deref()));
    let data = Resource::new(move || slug.get(), get_projector);
    view! {
        <main class="projector" aria-labelledby="projector-title">
            <Suspense fallback=|| view! { <h1 id="projector-title">"Projector"</h1><p>"Loading…"</p> }>
                {move || Suspend::new(async move {
                    match data.await {
                        Ok(v) => view! {
                            <Title text=format!("Projector · {}", v.event_name)/>
                            <Projector v=v only=only.get_untracked() every=every.get_untracked()/>
                        }.into_any(),
                        Err(e) => view! {
                            <Title text="Projector"/>
                            <h1 id="projector-title">"Projector"</h1>
                            <NoScriptRefresh seconds=30/>
                            <p role="alert">{e.to_string()}</p>
                        }.into_any(),
                    }
                })}
            </Suspense>
        </main>
    }
}

#[component]
fn Projector(v: ProjectorView, only: Option<Show>, every: u64) -> impl IntoView {
    let all = slots(&v);
    let taking_turns = turns(&all, only);
    let every_ms = every as i64 * 1000;
    let up = taking_turns[slot_at(v.now_ms, every_ms, taking_turns.len())];
    // Without JavaScript the page comes again when the next page is due (or to follow the
    // clocks and reports, when one page is all there is).
    let reload = if taking_turns.len() > 1 {
        (ms_to_next(v.now_ms, every_ms) / 1000 + 1) as u64
    } else {
        every.max(15)
    };
    let round_name = |n: RoundNumber| {
        if v.round_final {
            "Final table".to_owned()
        } else {
            format!("Round {n}")
        }
    };
    let title = match v.round {
        Some(n) => format!("{} · {}", v.event_name, round_name(n).to_lowercase()),
        None => v.event_name.clone(),
    };
    let timer = v.round.map(|n| match round_clock(&v.tables, v.now_ms) {
        Some(clock) => view! {
            <div class="round-timer">
                <TickingClock clock=clock server_now=v.now_ms label=format!("{}: time left", round_name(n))/>
            </div>
        }
        .into_any(),
        None => view! { <p class="round-timer round-done">{format!("{}: every report is in.", round_name(n))}</p> }.into_any(),
    });
    let link = {
        let slug = v.slug.clone();
        move |show: Option<Show>| {
            let href = match show {
                None => path(&slug),
                Some(s) => format!("{}?view={}", path(&slug), s.code()),
            };
            let label = show.map_or("Everything in turn", Show::title);
            let current = (show == only).then_some("page");
            view! { <a href=href aria-current=current>{label}</a> }
        }
    };
    let pages = all
        .iter()
        .enumerate()
        .map(|(i, slot)| slot_page(&v, *slot, i, i != up))
        .collect_view();
    view! {
        <NoScriptRefresh seconds=reload/>
        <div class="projector-bar">
            <h1 id="projector-title">{title}</h1>
            {timer}
            <ProjectorCycle slug=v.slug.clone() server_now=v.now_ms turns=taking_turns every_ms=every_ms/>
            <nav class="projector-nav" aria-label="Projector pages">
                {link(None)}
                {(!v.placings.is_empty()).then(|| link(Some(Show::Placings)))}
                {link(Some(Show::Clocks))}{link(Some(Show::Seating))}{link(Some(Show::Standings))}
                <a href=format!("/events/{}", v.slug)>"Leave the projector"</a>
            </nav>
        </div>
        <div class="projector-pages">{pages}</div>
    }
}

/// "Clocks · 2 of 5", or just "Clocks".
fn page_heading(slot: Slot) -> String {
    if slot.pages > 1 {
        format!(
            "{} · {} of {}",
            slot.show.title(),
            slot.page + 1,
            slot.pages
        )
    } else {
        slot.show.title().to_owned()
    }
}

/// One page of the projector; the hidden ones wait their turn.
fn slot_page(v: &ProjectorView, slot: Slot, index: usize, hidden: bool) -> AnyView {
    let heading_id = format!("projector-page-{index}");
    let labelled_by = heading_id.clone();
    let body = match slot.show {
        Show::Placings => view! {
            <ol class="projector-placings">
                {v.placings.iter().map(|p| view! {
                    <li value=p.place.to_string() class:winner=p.result.is_some()>
                        <span class="place">{crate::final_table::ordinal(p.place)}</span>
                        <span class="who">{p.player.clone()}</span>
                        <span class="why">{p.basis()}</span>
                    </li>
                }).collect_view()}
            </ol>
        }
        .into_any(),
        Show::Clocks => {
            let tables = v
                .tables
                .iter()
                .skip(slot.page * TABLES_PER_PAGE)
                .take(TABLES_PER_PAGE);
            let items = tables
                .map(|t| view! { <TableCard t=t.clone() now=v.now_ms/> })
                .collect_view();
            view! { <ul class="board">{items}</ul> }.into_any()
        }
        Show::Seating => {
            let seats = v
                .seating
                .iter()
                .skip(slot.page * SEATS_PER_PAGE)
                .take(SEATS_PER_PAGE);
            let items = seats
                .map(|s| {
                    let faction = s.faction.map(|f| format!(" · {}", f.name()));
                    view! {
                        <li>
                            <span class="who">{s.player.clone()}</span>
                            <span class="where">{format!("Table {} · seat {}", s.table, s.seat)}{faction}</span>
                        </li>
                    }
                })
                .collect_view();
            if v.seating.is_empty() {
                view! { <p class="lead">"Nobody is seated in this round."</p> }.into_any()
            } else {
                view! { <ul class="seating">{items}</ul> }.into_any()
            }
        }
        Show::Standings => {
            let rows: Vec<ProjectorStanding> = v
                .standings
                .iter()
                .skip(slot.page * STANDINGS_PER_PAGE)
                .take(STANDINGS_PER_PAGE)
                .cloned()
                .collect();
            standings_table(rows, v).into_any()
        }
    };
    view! {
        <section class="projector-page" data-slot=index.to_string() data-show=slot.show.code()
            hidden=hidden aria-labelledby=labelled_by>
            <h2 id=heading_id>{page_heading(slot)}</h2>
            {body}
        </section>
    }
    .into_any()
}

#[component]
fn TableCard(t: ProjectorTable, now: i64) -> impl IntoView {
    let badge = match (t.flag, t.reported) {
        (Some(flag), _) => Some(
            view! { <p class="badge flag" data-flag=flag.code()>{flag.label()}</p> }.into_any(),
        ),
        (None, true) => Some(view! { <p class="badge">"Report final"</p> }.into_any()),
        (None, false) => None,
    };
    view! {
        <li class="board-table" data-table=t.number.to_string()>
            <h3>{format!("Table {}", t.number)}</h3>
            {badge}
            <TickingClock clock=t.clock server_now=now label=format!("Table {}", t.number)/>
        </li>
    }
}

fn standings_table(rows: Vec<ProjectorStanding>, v: &ProjectorView) -> impl IntoView + use<> {
    if rows.is_empty() {
        return view! { <p class="lead">"No game is final yet: the standings start with the first final report."</p> }.into_any();
    }
    let more = v.standings_count.saturating_sub(v.standings.len());
    let body = rows
        .into_iter()
        .map(|r| {
            let class = match r.finalist {
                Some(true) => "finalist",
                None => "cut-tie",
                Some(false) => "",
            };
            view! {
                <tr class=class>
                    <td>{r.rank}</td>
                    <th scope="row">{r.player}{match r.finalist {
                        Some(true) => Some(view! { <span class="badge">"Finals"</span> }.into_any()),
                        None => Some(view! { <span class="badge flag" data-flag="awaiting">"Tied at the cut"</span> }.into_any()),
                        Some(false) => None,
                    }}</th>
                    <td>{r.points}</td>
                    <td>{r.wins}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <table tabindex="0" class="projector-standings">
            <thead><tr>
                <th scope="col">"Rank"</th><th scope="col">"Player"</th>
                <th scope="col">"Points"</th><th scope="col">"Wins"</th>
            </tr></thead>
            <tbody>{body}</tbody>
        </table>
        <p class="hint">{format!(
            "{} seats in the finals (4.01.10). {}",
            v.finals_seats,
            if more > 0 { format!("{more} more players on the standings page.") } else { String::new() }
        )}</p>
    }
    .into_any()
}

/// The projector's browser half: turns the pages on time, reloads when the event's news arrives
/// (at most every few seconds, so a busy hall does not make it flicker), and offers full screen.
#[island]
fn ProjectorCycle(
    slug: String,
    server_now: i64,
    turns: Vec<usize>,
    every_ms: i64,
) -> impl IntoView {
    let ready = RwSignal::new(false);
    let now = crate::components::clock::ticking_now(server_now);
    Effect::new(move |_| ready.set(true));
    #[cfg(feature = "hydrate")]
    {
        let up = Memo::new(move |_| {
            turns
                .get(slot_at(now.get(), every_ms, turns.len()))
                .copied()
        });
        Effect::new(move |_| {
            let Some(up) = up.get() else { return };
            if let Ok(pages) = document().query_selector_all(".projector-page") {
                for i in 0..pages.length() {
                    let Some(page) = pages.item(i) else { continue };
                    let Ok(page) = wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(page) else {
                        continue;
                    };
                    let mine = page
                        .get_attribute("data-slot")
                        .and_then(|s| s.parse::<usize>().ok())
                        == Some(up);
                    if mine {
                        let _ = page.remove_attribute("hidden");
                    } else {
                        let _ = page.set_attribute("hidden", "");
                    }
                }
            }
        });
        follow_news(&slug);
    }
    #[cfg(not(feature = "hydrate"))]
    let _ = (slug, turns, every_ms, now);
    let full_screen = move |_| {
        #[cfg(feature = "hydrate")]
        {
            let document = document();
            if document.fullscreen_element().is_some() {
                document.exit_fullscreen();
            } else if let Some(root) = document.document_element() {
                let _ = root.request_fullscreen();
            }
        }
    };
    view! {
        <button type="button" class="secondary projector-full" hidden=move || !ready.get() on:click=full_screen>
            "Full screen"
        </button>
    }
}

/// Reloads the page when the event's news says something the projector shows has changed.
#[cfg(feature = "hydrate")]
fn follow_news(slug: &str) {
    use std::{cell::Cell, rc::Rc};
    use wasm_bindgen::{JsCast, closure::Closure};
    /// No two loads closer than this: news comes in bursts in a busy hall.
    const CALM_MS: f64 = 5_000.0;
    let Ok(source) = web_sys::EventSource::new(&format!("/events/{slug}/live")) else {
        return;
    };
    let loaded = js_sys::Date::now();
    let pending = Rc::new(Cell::new(false));
    let reload = {
        let pending = pending.clone();
        move || {
            if pending.replace(true) {
                return;
            }
            let wait = (CALM_MS - (js_sys::Date::now() - loaded)).max(500.0);
            set_timeout(
                || {
                    let _ = window().location().reload();
                },
                std::time::Duration::from_millis(wait as u64),
            );
        }
    };
    for topic in ["table", "standings"] {
        let reload = reload.clone();
        let on_news = Closure::<dyn Fn()>::new(reload);
        let _ = source.add_event_listener_with_callback(topic, on_news.as_ref().unchecked_ref());
        on_news.forget();
    }
    // After a lost connection, news may have been missed: load the page afresh.
    let lost = Rc::new(Cell::new(false));
    let on_error = {
        let lost = lost.clone();
        Closure::<dyn Fn()>::new(move || lost.set(true))
    };
    source.set_onerror(Some(on_error.as_ref().unchecked_ref()));
    on_error.forget();
    let on_open = Closure::<dyn Fn()>::new(move || {
        if lost.replace(false) {
            reload();
        }
    });
    source.set_onopen(Some(on_open.as_ref().unchecked_ref()));
    on_open.forget();
    // The source lives as long as the page.
    std::mem::forget(source);
}
