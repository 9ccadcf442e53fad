//! `GET /events/{slug}/statistics` and `GET /statistics` (every event): public, like the
//! standings they are made from, rendered by `app::pages::statistics` without the wasm.

use app::pages::statistics;
use axum::{
    extract::{Path, State},
    http::{HeaderValue, header},
    response::{Html, IntoResponse, Response},
};

use super::{
    AppState,
    access::{self, Denied},
    organise::page_for,
};

fn no_cache(html: String) -> Response {
    let mut response = Html(html).into_response();
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    response
}

pub async fn event(State(state): State<AppState>, Path(slug): Path<String>) -> Response {
    let result = async {
        let event = access::event(&state.pool, &slug).await?;
        let games = db::statistics::games(&state.pool, Some(event.id))
            .await
            .map_err(|e| access::internal("gathering statistics", e))?;
        let s = tournament::statistics::compute(&games);
        Ok::<_, Denied>(no_cache(statistics::document_for(
            Some((&event.slug, &event.name)),
            1,
            &s,
        )))
    }
    .await;
    result.unwrap_or_else(page_for)
}

pub async fn across(State(state): State<AppState>) -> Response {
    let result = async {
        let events = db::statistics::counted_events(&state.pool)
            .await
            .map_err(|e| access::internal("listing events", e))?;
        let games = db::statistics::games(&state.pool, None)
            .await
            .map_err(|e| access::internal("gathering statistics", e))?;
        let s = tournament::statistics::compute(&games);
        Ok::<_, Denied>(no_cache(statistics::document_for(None, events.len(), &s)))
    }
    .await;
    result.unwrap_or_else(page_for)
}
