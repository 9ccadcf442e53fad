//! The landing page: what Mentat is, and a sign that the browser half is running.

use leptos::prelude::*;
use tournament::{TableFallback, tables};

/// "17" → "6 + 6 + 5", or the options of ruling 1 when the count has no split.
fn tables_for(text: &str) -> String {
    match text.trim().parse::<usize>() {
        Ok(0) | Err(_) if text.trim().is_empty() => String::new(),
        Ok(n) if n > 10_000 => "Enter a number of players up to 10,000.".to_owned(),
        Ok(n) => match tables::split(n) {
            Some(sizes) => {
                let list: Vec<String> = sizes.iter().map(u8::to_string).collect();
                format!("{} tables: {} (4.01.01)", sizes.len(), list.join(" + "))
            }
            None => tables::NoSplit::new(n, TableFallback::Ask).to_string(),
        },
        Err(_) => "Enter a whole number of players.".to_owned(),
    }
}

#[component]
pub fn HomePage() -> impl IntoView {
    view! {
        <main class="page">
            <header class="masthead">
                <h1>"Mentat"</h1>
                <p class="tagline">
                    "Tournament manager and judge's assistant for Dune, run under the GenCon Landsraad rules."
                </p>
            </header>
            <TableCalculator/>
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

/// The status line and the table calculator: the one part of the page that runs in the browser.
#[island]
fn TableCalculator() -> impl IntoView {
    // Effects never run during server rendering, so this flips only once the wasm has hydrated
    // the island: the status line tells a judge whether live features (clocks, standings) work.
    let live = RwSignal::new(false);
    Effect::new(move |_| live.set(true));
    let players = RwSignal::new(String::new());
    view! {
        <p id="client-status" role="status" class:live=move || live.get()>
            {move || {
                if live.get() {
                    "Live: this page is connected and updates by itself."
                } else {
                    "Static page: live updates start once the page has loaded."
                }
            }}
        </p>
        <section aria-labelledby="calc">
            <h2 id="calc">"How many tables?"</h2>
            <div class="field">
                <label for="players">"Players present"</label>
                <input id="players" type="number" inputmode="numeric" min="1"
                    on:input=move |ev| players.set(event_target_value(&ev))/>
            </div>
            <output for="players" class="answer" aria-live="polite">{move || tables_for(&players.get())}</output>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::tables_for;

    #[test]
    fn the_calculator_answers_in_words() {
        assert_eq!(tables_for("17"), "3 tables: 6 + 6 + 5 (4.01.01)");
        assert!(tables_for("8").contains("cannot be split"));
        assert_eq!(tables_for("seventeen"), "Enter a whole number of players.");
        assert_eq!(tables_for(""), "");
    }
}
