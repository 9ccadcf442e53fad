//! Keeping a page current without JavaScript.

use leptos::prelude::*;

/// A page that reloads itself when JavaScript is off (with it, the page polls instead). The
/// markup is set as inner HTML so hydration never walks into it.
#[component]
pub fn NoScriptRefresh(seconds: u64) -> impl IntoView {
    view! { <noscript inner_html=format!(r#"<meta http-equiv="refresh" content="{seconds}">"#)></noscript> }
}
