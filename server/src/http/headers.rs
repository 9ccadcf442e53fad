//! Security headers on every response, set once on the router with tower-http's
//! `SetResponseHeaderLayer` (only where a handler has not set its own).
//!
//! The Content-Security-Policy allows what Mentat's pages need and nothing else: scripts, styles,
//! images and fetches from Mentat itself, WebAssembly compiled by the browser
//! (`'wasm-unsafe-eval'`: the hydrated pages are a wasm module), and the inline scripts Leptos
//! writes into a page (the hydration loader and the resources a page was rendered with) by the
//! nonce leptos_axum draws for each render: [`page_policy`] is that page's own header. No page of
//! Mentat may be framed (`frame-ancestors 'none'`), so a judge's buttons cannot be laid under
//! another site's clicks.

use axum::http::{HeaderName, HeaderValue, header};
use tower_http::set_header::SetResponseHeaderLayer;

/// Everything but the nonce of a page's inline scripts (a macro, so the default policy below
/// is one constant built when the program compiles).
macro_rules! base {
    () => {
        "default-src 'self'; img-src 'self' data:; style-src 'self'; \
         connect-src 'self'; object-src 'none'; base-uri 'none'; \
         form-action 'self'; frame-ancestors 'none'"
    };
}
const BASE: &str = base!();

/// The policy of responses that carry no inline script: static files, the public standings,
/// server function answers, error pages.
pub const DEFAULT_POLICY: &str = concat!(base!(), "; script-src 'self' 'wasm-unsafe-eval'");

/// The policy of a page Leptos rendered with `nonce` on its inline scripts.
pub fn page_policy(nonce: &str) -> String {
    format!("{BASE}; script-src 'self' 'nonce-{nonce}' 'wasm-unsafe-eval'")
}

/// The layers, outermost first; each leaves a header a handler set alone.
pub fn layers() -> Vec<SetResponseHeaderLayer<HeaderValue>> {
    let fixed = |name: HeaderName, value: &'static str| {
        SetResponseHeaderLayer::if_not_present(name, HeaderValue::from_static(value))
    };
    vec![
        SetResponseHeaderLayer::if_not_present(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(DEFAULT_POLICY),
        ),
        fixed(header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        // Older browsers that do not read frame-ancestors.
        fixed(header::X_FRAME_OPTIONS, "DENY"),
        // Event addresses may carry a player's id (`?p=`): other sites learn only the origin.
        fixed(header::REFERRER_POLICY, "strict-origin-when-cross-origin"),
        fixed(
            HeaderName::from_static("permissions-policy"),
            "camera=(), microphone=(), geolocation=(), payment=()",
        ),
        fixed(
            HeaderName::from_static("cross-origin-opener-policy"),
            "same-origin",
        ),
    ]
}
