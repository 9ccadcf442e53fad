//! Keeping a page current: the server renders it as it stands, and the page loads itself again
//! every so often (with JavaScript, from an island; without, through a `<noscript>` refresh).

use leptos::prelude::*;

use crate::components::clock::poll_every;

/// A page that reloads itself when JavaScript is off (with it, [`FollowPage`] does). The markup
/// is set as inner HTML so hydration never walks into it.
#[component]
pub fn NoScriptRefresh(seconds: u64) -> impl IntoView {
    view! { <noscript inner_html=format!(r#"<meta http-equiv="refresh" content="{seconds}">"#)></noscript> }
}

/// Loads the page again every `seconds` once the browser half runs, so a page that only shows
/// (a player's card, the projector, a round to the public) follows changes made elsewhere.
#[island]
pub fn FollowPage(seconds: u64) -> impl IntoView {
    poll_every(seconds, || {
        #[cfg(feature = "hydrate")]
        {
            let _ = window().location().reload();
        }
    });
}

/// Keeps a page current with or without JavaScript.
#[component]
pub fn KeepCurrent(
    /// Seconds between loads with JavaScript.
    seconds: u64,
    /// Seconds between loads without it.
    without_js: u64,
) -> impl IntoView {
    view! {
        <NoScriptRefresh seconds=without_js/>
        <FollowPage seconds=seconds/>
    }
}
