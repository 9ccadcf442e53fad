//! A player's phone page (`/events/{slug}/find/{player}`) for visitors who are not signed in:
//! every phone at a table opens the same page, so one render serves them all for up to
//! [`PLAYER_PAGE_TTL`] (its clock reading must stay fresh: the browser counts on from it), and
//! the event's news or any change made through this instance drops it sooner. Signed-in
//! visitors, whose header names them, always get a render of their own.
//!
//! The cached copy repeats the render's Content-Security-Policy, nonce and all, for that second:
//! the page is the same for every visitor and holds no text of theirs.

use axum::{
    extract::{Request, State},
    http::{Method, StatusCode, header},
    middleware::Next,
    response::{IntoResponse, Response},
};

use super::{
    boundary::API_PREFIX,
    cache::{Entry, PLAYER_PAGE_TTL, PageCache},
};

/// The largest page kept.
const MAX_PAGE: usize = 1 << 20;

/// `/events/<slug>/find/<number>`.
fn is_player_page(path: &str) -> bool {
    let mut parts = path.trim_start_matches('/').split('/');
    matches!(
        (parts.next(), parts.next(), parts.next(), parts.next(), parts.next()),
        (Some("events"), Some(slug), Some("find"), Some(player), None)
            if !slug.is_empty() && !player.is_empty() && player.bytes().all(|b| b.is_ascii_digit())
    )
}

fn signed_in(request: &Request) -> bool {
    request
        .headers()
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .any(|v| v.contains("mentat_session="))
}

pub async fn cached(State(pages): State<PageCache>, request: Request, next: Next) -> Response {
    // A signed-in call through this instance may be a change (a judge starting a clock,
    // swapping seats): the next phone gets a fresh page. Clocks and seats send no news, so other
    // instances rely on the TTL. Phones polling without an account do not count.
    if request.method() == Method::POST
        && request.uri().path().starts_with(API_PREFIX)
        && signed_in(&request)
    {
        let response = next.run(request).await;
        if response.status().is_success() {
            pages.invalidate_untied();
        }
        return response;
    }
    if request.method() != Method::GET
        || request.uri().query().is_some()
        || !is_player_page(request.uri().path())
        || signed_in(&request)
    {
        return next.run(request).await;
    }
    let key = format!("player {}", request.uri().path());
    let headers = request.headers().clone();
    if let Some(entry) = pages.get(&key) {
        return entry.respond(&headers);
    }
    let _filling = pages.fill(&key).await;
    if let Some(entry) = pages.get(&key) {
        return entry.respond(&headers);
    }
    let ticket = pages.ticket();
    let response = next.run(request).await;
    if response.status() != StatusCode::OK
        || response.headers().contains_key(header::SET_COOKIE)
        || response.headers().contains_key(header::CONTENT_ENCODING)
    {
        return response;
    }
    let (parts, body) = response.into_parts();
    let Ok(html) = axum::body::to_bytes(body, MAX_PAGE).await else {
        return StatusCode::INTERNAL_SERVER_ERROR.into_response();
    };
    let mut entry = Entry::new(html, None, PLAYER_PAGE_TTL, "no-cache");
    if let Some(policy) = parts.headers.get(header::CONTENT_SECURITY_POLICY) {
        entry = entry.with_header(header::CONTENT_SECURITY_POLICY, policy.clone());
    }
    pages.store(key, ticket, entry.clone());
    entry.respond(&headers)
}

#[cfg(test)]
mod tests {
    use super::is_player_page;

    #[test]
    fn only_a_players_page_is_cached() {
        assert!(is_player_page("/events/gencon/find/42"));
        assert!(!is_player_page("/events/gencon/find"));
        assert!(!is_player_page("/events/gencon/find/42/x"));
        assert!(!is_player_page("/events/gencon/find/abc"));
        assert!(!is_player_page("/events/gencon/standings"));
    }
}
