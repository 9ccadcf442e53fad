//! The routes organisers take data out with, in one place so the router registers them with
//! one line: the JSON API (`/api/v1`), exports, the organiser's desk with its forms (tokens,
//! backup and restore, a players' CSV file), print pages and statistics.

use app::pages::standings::PublicSite;
use axum::{
    Extension, Router,
    routing::{get, post},
};

use super::{AppState, api, exports, organise, print, statistics};

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
        // Uploads share the router's body limit (`boundary::MAX_BODY_BYTES`, 2 MB): a compact
        // backup of a 300-player event fits; `mentat restore` takes any size.
        .route("/events/{slug}/restore", post(organise::restore))
        .route(
            "/events/{slug}/players/import",
            post(organise::import_players),
        )
        .route("/events/{slug}/rounds/{n}/print/{what}", get(print::round))
        .route("/events/{slug}/print/standings", get(print::standings))
        .route("/events/{slug}/print/qr", get(print::qr_codes))
        .route("/events/{slug}/statistics", get(statistics::event))
        .route("/statistics", get(statistics::across))
        .layer(Extension(site))
}
