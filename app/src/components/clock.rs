//! A table clock as players and judges see it, ticking in the browser.
//!
//! The server renders the clock as it reads at that instant, and writes the stored instants and
//! its own time into the markup (`data-clock`, `data-now`). The browser half ticks every clock
//! on the page from them (`crate::hydration`, `clocks`), adding the time elapsed since it first
//! saw each one, so a phone with a wrong clock still shows the right time, a reload shows
//! exactly what it showed before (the state lives in PostgreSQL), and a clock swapped into the
//! page by the live updates (`public/live-parts.js`) ticks like the others.

use leptos::prelude::*;
use tournament::{Clock, ClockPhase, ClockReading, clock::format_hms};

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

/// A length of time in hours and minutes: "5 h", "4 h 30 min", "3 min".
fn duration_text(ms: i64) -> String {
    let (hours, minutes) = (ms / 3_600_000, ms / 60_000 % 60);
    match (hours, minutes) {
        (0, m) => format!("{m} min"),
        (h, 0) => format!("{h} h"),
        (h, m) => format!("{h} h {m} min"),
    }
}

/// What the clock means right now, in words.
pub fn state_text(clock: &Clock, reading: &ClockReading) -> String {
    let limit = duration_text(reading.limit_ms);
    let rehearsal = if clock.rehearsal_ms.is_some() {
        " (rehearsal clock)"
    } else {
        ""
    };
    let state = match reading.phase {
        ClockPhase::NotStarted => format!("Not started · limit {limit}{rehearsal}"),
        ClockPhase::Running => {
            format!("Running · time left of the {limit} limit{rehearsal}")
        }
        ClockPhase::FinishWindow => format!(
            "Finish window · {} to finish the current turn (4.01.08)",
            duration_text(clock.finish_window_ms())
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

/// One table's clock as the server reads it at `server_now`, with what the browser half needs
/// to tick it: the stored instants (`data-clock`) and the server's time (`data-now`).
#[component]
pub fn TickingClock(
    clock: Clock,
    /// The server's time when it rendered the page (ms since the epoch).
    server_now: i64,
    /// "Table 3", read before the time by screen readers.
    label: String,
) -> impl IntoView {
    let reading = clock.read(server_now);
    let data = serde_json::to_string(&clock).unwrap_or_default();
    view! {
        <div class="clock" role="group"
            data-clock=data
            data-now=server_now.to_string()
            data-phase=reading.phase.code()
            data-paused=reading.paused.then_some("true")
            data-stopped=reading.stopped.then_some("true")
            aria-label=label
        >
            <span class="clock-time" role="timer">{format_hms(reading.remaining_ms)}</span>
            <span class="clock-state">{state_text(&clock, &reading)}</span>
        </div>
    }
}
