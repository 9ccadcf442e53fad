//! The list of events, and (for administrators) a form to create one.

use leptos::prelude::*;

use crate::{
    auth::{current_user, hard_navigate},
    components::field::{Field, FormError, last_error},
    events::{CreateEvent, list_events},
};

#[component]
pub fn EventsPage() -> impl IntoView {
    let events = Resource::new(|| (), |_| list_events());
    let user = Resource::new(|| (), |_| current_user());
    let create = ServerAction::<CreateEvent>::new();
    let error = last_error(create.value());
    Effect::new(move |_| {
        if let Some(Ok(path)) = create.value().get() {
            hard_navigate(&path);
        }
    });
    view! {
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
                            <ActionForm action=create>
                                <Field label="Event name" name="name" required=true
                                    hint="For example: GenCon 2027 Dune Qualifier." error=error/>
                                <FormError error=error/>
                                <button type="submit">"Create event"</button>
                            </ActionForm>
                        </section>
                    })
                })}
            </Suspense>
        </main>
    }
}
