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
use axum::response::IntoResponse;
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

/// The largest page the safety net below reads whole to find its nonce.
const MAX_PAGE_BYTES: usize = 4 << 20;

/// A safety net for the page policy: a rendered page whose response lacks its own
/// Content-Security-Policy (seen now and then under load: the page carries its nonce but the
/// render's response options did not) would get the default policy, which blocks the page's
/// inline hydration scripts, and the page would never come alive. This reads such a page's
/// nonce from its own `<script nonce="…">` and gives it the page policy. Pages without inline
/// scripts (the public standings, print pages) are left to the default policy, and compressed
/// copies served from memory already carry their policy.
pub async fn nonce_policy(
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    let response = next.run(request).await;
    let is_html = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("text/html"));
    if !is_html
        || response
            .headers()
            .contains_key(header::CONTENT_SECURITY_POLICY)
        || response.headers().contains_key(header::CONTENT_ENCODING)
    {
        return response;
    }
    let (mut parts, body) = response.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, MAX_PAGE_BYTES).await else {
        // Too large or broken: nothing sensible to send but an error.
        return axum::http::StatusCode::INTERNAL_SERVER_ERROR.into_response();
    };
    if let Some(nonce) = script_nonce(&bytes)
        && let Ok(policy) = HeaderValue::from_str(&page_policy(nonce))
    {
        parts
            .headers
            .insert(header::CONTENT_SECURITY_POLICY, policy);
    }
    axum::response::Response::from_parts(parts, axum::body::Body::from(bytes))
}

/// The nonce of the first `<script … nonce="…">` of a page, if it is a plausible one (the
/// base64 alphabets only, so nothing else can slip into the header).
fn script_nonce(page: &[u8]) -> Option<&str> {
    let text = std::str::from_utf8(page).ok()?;
    let start = text.find("<script")?;
    let tag_end = start + text[start..].find('>')?;
    let tag = &text[start..tag_end];
    let at = tag.find("nonce=\"")? + "nonce=\"".len();
    let len = tag[at..].find('"')?;
    let nonce = &tag[at..at + len];
    let plausible = (8..=64).contains(&nonce.len())
        && nonce
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'+' | b'/' | b'='));
    plausible.then_some(nonce)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_nonce_is_read_from_the_first_script_and_nothing_else_passes() {
        let page = br#"<html><head><script type="module" nonce="ab12-_XY9zzzz">x</script>"#;
        assert_eq!(script_nonce(page), Some("ab12-_XY9zzzz"));
        assert_eq!(script_nonce(b"<html><script>x</script>"), None);
        assert_eq!(
            script_nonce(br#"<script nonce="abc'; script-src *">"#),
            None,
            "a quote or space cannot reach the header"
        );
        assert_eq!(script_nonce(br#"<p nonce="abcdefgh12">"#), None);
        assert!(page_policy("ab12-_XY9zzzz").contains("'nonce-ab12-_XY9zzzz'"));
    }
}
