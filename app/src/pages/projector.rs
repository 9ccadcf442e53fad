//! The projector: every table of the current round with its time left, in large type. It polls
//! the server and ticks in between; without JavaScript it reloads itself.

use leptos::prelude::*;
use leptos_meta::Title;

use crate::{
    components::{clock::TickingClock, refresh::KeepCurrent},
    pages::params::slug_param,
    rounds::{BoardView, get_board},
};

/// Seconds between polls (and between reloads without JavaScript).
const REFRESH_SECONDS: u64 = 15;

#[component]
pub fn ProjectorPage() -> impl IntoView {
    let slug = slug_param();
    let board = Resource::new(move || slug.get(), get_board);
    view! {
        <main class="page projector">
            <KeepCurrent seconds=REFRESH_SECONDS without_js=REFRESH_SECONDS/>
            <Suspense fallback=|| view! { <p>"Loading the clocks…"</p> }>
                {move || Suspend::new(async move {
                    match board.await {
                        Ok(b) => view! {
                            <Title text=format!("Clocks · {}", b.event_name)/>
                            <Board b=b/>
                        }.into_any(),
                        Err(e) => view! { <Title text="Clocks"/><p role="alert">{e.to_string()}</p> }.into_any(),
                    }
                })}
            </Suspense>
        </main>
    }
}

#[component]
fn Board(b: BoardView) -> impl IntoView {
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
                    <TickingClock clock=t.clock server_now=b.now_ms label=format!("Table {}", t.number)/>
                </li>
            }).collect_view()}
        </ul>
    }
}
