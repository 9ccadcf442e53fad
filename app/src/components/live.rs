//! Telling a live page from a server-rendered one, and saying how current a page is.

use leptos::prelude::*;

/// Marks the site header (and the document, for a page without one: the projector)
/// `data-live="true"` once the browser half runs. It is the last island
/// of every page and islands hydrate in document order, so when it runs every form above it is
/// handled by the app: tests wait for it, and a curious judge can see it in the page.
#[island]
pub fn LiveMark() -> impl IntoView {
    Effect::new(move |_| {
        if let Ok(Some(header)) = document().query_selector("header.site-header") {
            let _ = header.set_attribute("data-live", "true");
        }
        if let Some(root) = document().document_element() {
            let _ = root.set_attribute("data-live", "true");
        }
    });
}

/// "14:05:09": the time of day (UTC) of an instant in milliseconds since the epoch.
pub fn time_of_day(ms: i64) -> String {
    let secs = (ms / 1000).rem_euclid(86_400);
    format!("{:02}:{:02}:{:02}", secs / 3600, secs / 60 % 60, secs % 60)
}

/// The bar of a page whose parts follow the event's news (`data-live` parts, swapped by
/// `public/live-parts.js`, which the page loads after its content): without JavaScript it says
/// when the page was rendered and offers a refresh; with it, the script says the page is live
/// and when it last changed.
#[component]
pub fn LiveBar(
    slug: String,
    /// The server's time as it rendered the page (ms since the epoch).
    now_ms: i64,
) -> impl IntoView {
    // The page itself, without what an earlier form said (`done`, `__err`).
    let here = leptos_router::hooks::use_location()
        .pathname
        .get_untracked();
    view! {
        <p class="live-bar" data-live-source=format!("/events/{slug}/live")>
            <span data-live-stamp="">{format!("Shown as of {} UTC.", time_of_day(now_ms))}</span>
            <a href=here>"Refresh"</a>
        </p>
    }
}

/// The script that swaps a page's `data-live` parts as the news arrives; placed after the
/// content, so the page reads whole first.
#[component]
pub fn LiveParts() -> impl IntoView {
    view! { <script src="/live-parts.js" defer></script> }
}
