//! A page's `<title>`, most specific first and naming its event: "Players · Journey A ·
//! Mentat" (the shell adds "Mentat").

use leptos::prelude::*;
use leptos_meta::Title;

use crate::events::event_name;

/// "Players · Journey A": the page, then its event.
pub fn with_event(page: &str, event: &str) -> String {
    if event.is_empty() {
        page.to_owned()
    } else {
        format!("{page} · {event}")
    }
}

/// The `<title>` of a page of the event at `slug` that does not load the event's name itself.
#[component]
pub fn EventTitle(#[prop(into)] page: String, slug: Memo<String>) -> impl IntoView {
    let name = Resource::new(move || slug.get(), event_name);
    view! {
        <Suspense fallback=|| ()>
            {move || {
                let page = page.clone();
                Suspend::new(async move {
                    let name = name.await.unwrap_or_default();
                    view! { <Title text=with_event(&page, &name)/> }
                })
            }}
        </Suspense>
    }
}
