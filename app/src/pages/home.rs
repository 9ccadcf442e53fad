//! The landing page: what Mentat is, and a sign that the browser half is running.

use leptos::prelude::*;

#[component]
pub fn HomePage() -> impl IntoView {
    // Effects never run during server rendering, so this flips only once the wasm has hydrated
    // the page: the status line tells a judge whether live features (clocks, standings) work.
    let live = RwSignal::new(false);
    Effect::new(move |_| live.set(true));

    view! {
        <main class="page">
            <header class="masthead">
                <h1>"Mentat"</h1>
                <p class="tagline">
                    "Tournament manager and judge's assistant for Dune, run under the GenCon Landsraad rules."
                </p>
            </header>
            <p id="client-status" role="status" class:live=move || live.get()>
                {move || {
                    if live.get() {
                        "Live: this page is connected and updates by itself."
                    } else {
                        "Static page: live updates start once the page has loaded."
                    }
                }}
            </p>
            <section aria-labelledby="who">
                <h2 id="who">"Who it is for"</h2>
                <ul>
                    <li><strong>"Head judges"</strong>" run rounds, clocks, win attempts and reports."</li>
                    <li><strong>"Players"</strong>" find their table, seat, faction and clock on a phone."</li>
                    <li><strong>"Organisers"</strong>" export results and print slips."</li>
                </ul>
            </section>
        </main>
    }
}
