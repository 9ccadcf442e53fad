//! A table clock as players and judges see it, ticking in the browser between polls.
//!
//! The server sends the stored instants and its own time; the browser adds the time elapsed
//! since the page got them, so a phone with a wrong clock still shows the right time, and a
//! reload shows exactly what it showed before (the state lives in PostgreSQL).

use leptos::prelude::*;
use tournament::{
    Clock, ClockPhase, ClockReading,
    clock::{FINISH_WINDOW_MS, format_hms},
};

/// The server's time, moved forward by the browser's clock twice a second once hydrated.
/// During server rendering it is the server's time, so the first paint needs no JavaScript.
pub fn ticking_now(server_now: i64) -> Signal<i64> {
    let now = RwSignal::new(server_now);
    #[cfg(feature = "hydrate")]
    {
        let base = js_sys::Date::now();
        if let Ok(handle) = set_interval_with_handle(
            move || {
                let elapsed = (js_sys::Date::now() - base) as i64;
                let _ = now.try_set(server_now + elapsed);
            },
            std::time::Duration::from_millis(500),
        ) {
            on_cleanup(move || handle.clear());
        }
    }
    now.into()
}

/// Calls `refetch` every `seconds` once the page is live, so it follows changes made elsewhere
/// (a judge pausing a clock, a redraw).
pub fn poll_every(seconds: u64, refetch: impl Fn() + 'static) {
    #[cfg(feature = "hydrate")]
    if let Ok(handle) = set_interval_with_handle(refetch, std::time::Duration::from_secs(seconds)) {
        on_cleanup(move || handle.clear());
    }
    #[cfg(not(feature = "hydrate"))]
    let _ = (seconds, refetch);
}

/// What the clock means right now, in words.
pub fn state_text(reading: &ClockReading) -> String {
    let hours = reading.limit_ms / 3_600_000;
    let minutes = reading.limit_ms / 60_000 % 60;
    let limit = if minutes == 0 {
        format!("{hours} h")
    } else {
        format!("{hours} h {minutes} min")
    };
    let state = match reading.phase {
        ClockPhase::NotStarted => format!("Not started · limit {limit}"),
        ClockPhase::Running => format!("Running · time left of the {limit} limit"),
        ClockPhase::FinishWindow => format!(
            "Finish window · {} min to finish the current turn (4.01.08)",
            FINISH_WINDOW_MS / 60_000
        ),
        ClockPhase::Over => "Over · play stops; an unfinished game is adjudicated (4.01.09)".into(),
    };
    if reading.stopped {
        format!(
            "Stopped · the report is final, after {} of play",
            format_hms(reading.elapsed_ms)
        )
    } else if reading.paused {
        format!("Paused · {state}")
    } else {
        state
    }
}

#[component]
pub fn ClockFace(
    clock: Clock,
    #[prop(into)] now: Signal<i64>,
    /// "Table 3", read before the time by screen readers.
    #[prop(optional, into)]
    label: Option<String>,
) -> impl IntoView {
    let reading = Memo::new(move |_| clock.read(now.get()));
    view! {
        <div class="clock" role="group"
            data-phase=move || reading.get().phase.code()
            data-paused=move || reading.get().paused.then_some("true")
            data-stopped=move || reading.get().stopped.then_some("true")
            aria-label=label.clone()
        >
            <span class="clock-time" role="timer">{move || format_hms(reading.get().remaining_ms)}</span>
            <span class="clock-state">{move || state_text(&reading.get())}</span>
        </div>
    }
}

/// One table's clock as an island: the server renders it, the browser half ticks it.
#[island]
pub fn TickingClock(
    clock: Clock,
    /// The server's time when it rendered the page (ms since the epoch).
    server_now: i64,
    label: String,
) -> impl IntoView {
    let now = ticking_now(server_now);
    view! { <ClockFace clock=clock now=now label=label/> }
}
