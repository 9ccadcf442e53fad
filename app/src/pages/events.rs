//! The list of events (when, where, how far along, how many players: the current and coming
//! ones first, the past ones apart), and (for administrators) a form to create one.

use leptos::{prelude::*, server_fn::ServerFn};
use leptos_meta::Title;

use crate::{
    auth::current_user,
    components::field::{Field, FormError},
    events::{CreateEvent, EventSummary, list_events},
    forms::{PostForm, form_state},
};

#[component]
pub fn EventsPage() -> impl IntoView {
    let events = Resource::new(|| (), |_| list_events());
    let user = Resource::new(|| (), |_| current_user());
    view! {
        <Title text="Events"/>
        <main class="page">
            <h1>"Events"</h1>
            <Suspense fallback=|| view! { <p>"Loading events…"</p> }>
                {move || Suspend::new(async move {
                    match events.await {
                        Ok(list) if list.is_empty() => view! { <p>"No events yet."</p> }.into_any(),
                        Ok(list) => {
                            let (past, current): (Vec<_>, Vec<_>) = list.into_iter().partition(|e| e.past);
                            view! {
                                <section aria-labelledby="current-events">
                                    <h2 id="current-events">"Current and coming events"</h2>
                                    {if current.is_empty() {
                                        view! { <p>"None at the moment."</p> }.into_any()
                                    } else {
                                        view! { <EventCards list=current/> }.into_any()
                                    }}
                                </section>
                                {(!past.is_empty()).then(|| view! {
                                    <section aria-labelledby="past-events">
                                        <h2 id="past-events">"Past events"</h2>
                                        <EventCards list=past/>
                                    </section>
                                })}
                            }.into_any()
                        }
                        Err(e) => view! { <p role="alert">{e.to_string()}</p> }.into_any(),
                    }
                })}
                {move || Suspend::new(async move {
                    matches!(user.await, Ok(Some(ref u)) if u.is_admin).then(|| view! {
                        <section aria-labelledby="create-event" id="create">
                            <h2 id="create-event">"Create an event"</h2>
                            <CreateEventForm/>
                        </section>
                    })
                })}
            </Suspense>
        </main>
    }
}

/// Each event with its dates, venue, stage and players, each fact named (`<dt>`).
#[component]
fn EventCards(list: Vec<EventSummary>) -> impl IntoView {
    view! {
        <ul class="event-cards">
            {list.into_iter().map(|e| {
                let players = match e.players {
                    1 => "1 player".to_owned(),
                    n => format!("{n} players"),
                };
                let dates = if e.dates.is_empty() {
                    view! { <span class="unset">"Dates not set"</span> }.into_any()
                } else {
                    view! { <time datetime=e.date_iso>{e.dates}</time> }.into_any()
                };
                let venue = if e.venue.is_empty() {
                    view! { <span class="unset">"Venue not set"</span> }.into_any()
                } else {
                    view! { <span>{e.venue}</span> }.into_any()
                };
                view! {
                    <li class="event-card">
                        <h3><a href=format!("/events/{}", e.slug)>{e.name}</a></h3>
                        <dl class="event-facts">
                            <div><dt>"When"</dt><dd>{dates}</dd></div>
                            <div><dt>"Where"</dt><dd>{venue}</dd></div>
                            <div><dt>"Status"</dt><dd class="stage">{e.stage}</dd></div>
                            <div><dt>"Players"</dt><dd>{players}</dd></div>
                        </dl>
                    </li>
                }
            }).collect_view()}
        </ul>
    }
}

/// A created event opens its page (the server's redirect).
#[component]
fn CreateEventForm() -> impl IntoView {
    let error = form_state(CreateEvent::url()).error;
    view! {
        <PostForm action=CreateEvent::url()>
            <Field label="Event name" name="name" required=true
                hint="For example: GenCon 2027 Dune Qualifier." error=error/>
            <FormError error=error/>
            <button type="submit">"Create event"</button>
        </PostForm>
    }
}
