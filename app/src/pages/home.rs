//! The landing page: what Mentat is, and the two ways in: a player or visitor finds their
//! event, a judge or organiser runs one (signing in first, or creating it).

use leptos::prelude::*;

use crate::auth::{current_user, sign_in_path};

#[component]
pub fn HomePage() -> impl IntoView {
    let user = Resource::new(|| (), |_| current_user());
    view! {
        <main class="page home">
            <header class="masthead">
                <h1>"Mentat"</h1>
                <p class="tagline">
                    "Tournament manager and judge's assistant for Dune, run under the GenCon Landsraad rules."
                </p>
            </header>
            <div class="ways-in">
                <section class="way-in" aria-labelledby="find-event">
                    <h2 id="find-event"><a href="/events">"Find your event"</a></h2>
                    <p>"Players and visitors: your table, seat and faction, the round's clocks and the standings, on your phone."</p>
                    <p class="more">"A code on your slip? "<a href="/claim">"Claim your registration"</a></p>
                </section>
                <section class="way-in" aria-labelledby="run-event">
                    <Suspense fallback=|| view! {
                        <h2 id="run-event"><a href=sign_in_path("/events")>"Run an event"</a></h2>
                    }>
                        {move || Suspend::new(async move {
                            let (href, next) = match user.await {
                                Ok(Some(u)) if u.is_admin => ("/events#create".to_owned(), "Create an event, or open one from the list."),
                                Ok(Some(_)) => ("/events".to_owned(), "Open your event from the list."),
                                _ => (sign_in_path("/events"), "Sign in with your account (an invitation link makes one), then open your event."),
                            };
                            view! {
                                <h2 id="run-event"><a href=href>"Run an event"</a></h2>
                                <p>"Organisers and judges: players and check-in, draws, clocks, game reports and standings."</p>
                                <p class="more">{next}</p>
                            }
                        })}
                    </Suspense>
                </section>
            </div>
        </main>
    }
}
