//! The routes organisers take data out with, in one place so the router registers them with
//! one line: the JSON API (`/api/v1`), exports, the organiser's desk with its forms (tokens,
//! backup and restore, a players' CSV file), print pages and statistics.

use app::pages::standings::PublicSite;
use axum::{
    Extension, Router,
    extract::DefaultBodyLimit,
    routing::{get, post},
};

use super::{AppState, api, exports, organise, print, statistics};

/// A backup of a large event (300 players, every revision, the audit log) runs to a few
/// megabytes; uploads of it may be this large.
const MAX_UPLOAD_BYTES: usize = 32 * 1024 * 1024;

pub fn routes(site: PublicSite) -> Router<AppState> {
    Router::new()
        .merge(api::router())
        .route("/events/{slug}/export/{file}", get(exports::download))
        .route("/events/{slug}/organise", get(organise::desk))
        .route("/events/{slug}/tokens", post(organise::create_token))
        .route(
            "/events/{slug}/tokens/{id}/revoke",
            post(organise::revoke_token),
        )
        .route("/events/{slug}/backup", get(organise::backup))
        .route(
            "/events/{slug}/restore",
            post(organise::restore).layer(DefaultBodyLimit::max(MAX_UPLOAD_BYTES)),
        )
        .route(
            "/events/{slug}/players/import",
            post(organise::import_players),
        )
        .route("/events/{slug}/rounds/{n}/print/{what}", get(print::round))
        .route("/events/{slug}/print/standings", get(print::standings))
        .route("/events/{slug}/statistics", get(statistics::event))
        .route("/statistics", get(statistics::across))
        .layer(Extension(site))
}
