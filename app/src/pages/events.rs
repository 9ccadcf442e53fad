//! The list of events, and (for administrators) a form to create one.

use leptos::{prelude::*, server_fn::ServerFn};
use leptos_meta::Title;

use crate::{
    auth::current_user,
    components::field::{Field, FormError},
    events::{CreateEvent, list_events},
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
                        Ok(list) => view! {
                            <ul class="event-list">
                                {list.into_iter().map(|e| view! {
                                    <li><a href=format!("/events/{}", e.slug)>{e.name}</a></li>
                                }).collect_view()}
                            </ul>
                        }.into_any(),
                        Err(e) => view! { <p role="alert">{e.to_string()}</p> }.into_any(),
                    }
                })}
                {move || Suspend::new(async move {
                    matches!(user.await, Ok(Some(ref u)) if u.is_admin).then(|| view! {
                        <section aria-labelledby="create-event">
                            <h2 id="create-event">"Create an event"</h2>
                            <CreateEventForm/>
                        </section>
                    })
                })}
            </Suspense>
        </main>
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
