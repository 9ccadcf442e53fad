//! The projector: every table of the current round with its time left, in large type. It polls
//! the server and ticks in between; without JavaScript it reloads itself.

use leptos::prelude::*;

use crate::{
    components::{
        clock::{ClockFace, poll_every, ticking_now},
        refresh::NoScriptRefresh,
    },
    pages::params::slug_param,
    rounds::{BoardView, get_board},
};

/// Seconds between polls (and between reloads without JavaScript).
const REFRESH_SECONDS: u64 = 15;

#[component]
pub fn ProjectorPage() -> impl IntoView {
    let slug = slug_param();
    let board = Resource::new(move || slug.get(), get_board);
    poll_every(REFRESH_SECONDS, move || board.refetch());
    view! {
        <main class="page projector">
            <NoScriptRefresh seconds=REFRESH_SECONDS/>
            <Transition fallback=|| view! { <p>"Loading the clocks…"</p> }>
                {move || Suspend::new(async move {
                    match board.await {
                        Ok(b) => view! { <Board b=b/> }.into_any(),
                        Err(e) => view! { <p role="alert">{e.to_string()}</p> }.into_any(),
                    }
                })}
            </Transition>
        </main>
    }
}

#[component]
fn Board(b: BoardView) -> impl IntoView {
    let now = ticking_now(b.now_ms);
    view! {
        <h1>{match b.round {
            Some(n) => format!("{} · round {n}", b.event_name),
            None => b.event_name.clone(),
        }}</h1>
        {b.round.is_none().then(|| view! { <p class="lead">"No round has been drawn yet."</p> })}
        <ul class="board">
            {b.tables.into_iter().map(|t| view! {
                <li class="board-table" data-table=t.number.to_string()>
                    <h2>{format!("Table {}", t.number)}{t.reported.then_some(" · report in")}</h2>
                    <ClockFace clock=t.clock now=now label=format!("Table {}", t.number)/>
                </li>
            }).collect_view()}
        </ul>
    }
}
