//! The bar at the top of every page: where you are, and who you are signed in as. Rendered on
//! the server only; signing out is a plain form, so it needs no wasm.

use leptos::{prelude::*, server_fn::ServerFn};

use crate::auth::{SignOut, current_user, sign_in_path};

#[component]
pub fn SiteHeader() -> impl IntoView {
    let user = Resource::new(|| (), |_| current_user());
    // Signing in comes back to this page (`?next=`), so a link followed from a phone ends where
    // it was meant to.
    let location = leptos_router::hooks::use_location();
    let (path, query) = (
        location.pathname.get_untracked(),
        location.search.get_untracked(),
    );
    // The projector fills the screen on its own (`pages::projector`).
    if crate::pages::projector::is_projector(&path) {
        return ().into_any();
    }
    let here = if query.is_empty() {
        path
    } else {
        format!("{path}?{query}")
    };
    // `data-live` is set by the page's last island once the browser half runs
    // (`components::live::LiveMark`).
    view! {
        <header class="site-header">
            <nav aria-label="Site">
                <a class="brand" href="/">"Mentat"</a>
                <a href="/events">"Events"</a>
                <a href="/rules">"Rules"</a>
                <Suspense fallback=|| ()>
                    {move || { let here = here.clone(); Suspend::new(async move {
                        match user.await {
                            Ok(Some(u)) => view! {
                                <span class="who">"Signed in as "<a href="/account">{u.shown_name()}</a></span>
                                // The server answers with a redirect to the home page.
                                <form method="post" action=SignOut::url() class="inline">
                                    <button type="submit">"Sign out"</button>
                                </form>
                            }.into_any(),
                            _ => view! { <a href=sign_in_path(&here)>"Sign in"</a> }.into_any(),
                        }
                    })}}
                </Suspense>
            </nav>
        </header>
    }
    .into_any()
}
