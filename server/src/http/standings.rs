//! `GET /events/{slug}/standings`: the public standings, rendered on the server by
//! `app::pages::standings` and sent without the wasm bundle. No sign-in: anyone in the hall
//! may read them. `?p=<player id>` opens one player's reasons and games under their row.
//!
//! A hall's phones all ask for the same page, and it changes only when the event's news says
//! so: it is rendered once and served from [`super::cache`] until then, gzip'd once, with a
//! strong ETag so a phone that asks again gets `304 Not Modified`.

use axum::{
    extract::{Path, RawQuery, State},
    http::{HeaderMap, HeaderValue, StatusCode, header},
    response::{Html, IntoResponse, Response},
};

use super::{
    AppState,
    cache::{Entry, STANDINGS_TTL},
};

/// A phone keeps its copy and asks again each time, answered 304 while nothing changed.
const CACHE_CONTROL: &str = "no-cache";

pub async fn page(
    State(state): State<AppState>,
    Path(slug): Path<String>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Response {
    let focus = query.as_deref().and_then(focus);
    let key = match focus {
        Some(id) => format!("standings {slug} {id}"),
        None => format!("standings {slug}"),
    };
    let pages = state.live.pages();
    if let Some(entry) = pages.get(&key) {
        return entry.respond(&headers);
    }
    let _filling = pages.fill(&key).await;
    if let Some(entry) = pages.get(&key) {
        return entry.respond(&headers);
    }
    // Taken before reading: news arriving during the render keeps it out of the cache.
    let ticket = pages.ticket();
    let event = match db::events::by_slug(&state.pool, &slug).await {
        Ok(Some(event)) => event,
        Ok(None) => {
            return (
                StatusCode::NOT_FOUND,
                no_cache(Html(app::pages::standings::not_found())),
            )
                .into_response();
        }
        Err(e) => return failed(e),
    };
    let standings = match db::results::standings::event_standings(&state.pool, event.id).await {
        Ok(standings) => standings,
        Err(e) => return failed(e),
    };
    let html = app::pages::standings::document(&app::pages::standings::Page {
        slug: &event.slug,
        name: &event.name,
        standings: &standings,
        focus,
    });
    let entry = Entry::new(
        html.into(),
        Some(event.id.get()),
        STANDINGS_TTL,
        CACHE_CONTROL,
    );
    // Only pages someone can ask for again: the table, or one of its players opened.
    if focus.is_none_or(|id| standings.rows.iter().any(|r| r.player_id.get() == id)) {
        pages.store(key, ticket, entry.clone());
    }
    entry.respond(&headers)
}

/// Standings change with every final report: a phone must ask again rather than show a copy.
fn no_cache(body: Html<String>) -> Response {
    let mut response = body.into_response();
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    response
}

fn failed(error: sqlx::Error) -> Response {
    tracing::error!(%error, "loading the public standings");
    (
        StatusCode::INTERNAL_SERVER_ERROR,
        Html(app::pages::standings::failed()),
    )
        .into_response()
}

/// The player named by `p=<id>` in the query. Anything malformed is ignored: the page is still
/// the standings.
fn focus(query: &str) -> Option<i64> {
    query
        .split('&')
        .find_map(|pair| pair.strip_prefix("p="))
        .and_then(|id| id.parse().ok())
}

#[cfg(test)]
mod tests {
    use super::focus;

    #[test]
    fn the_focus_is_the_p_parameter_or_nothing() {
        assert_eq!(focus("p=42"), Some(42));
        assert_eq!(focus("x=1&p=7"), Some(7));
        assert_eq!(focus("p=abc"), None);
        assert_eq!(focus("p=%zz"), None);
        assert_eq!(focus(""), None);
    }
}
