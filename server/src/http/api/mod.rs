//! The JSON API, version 1 (`/api/v1/…`, `docs/api.md`): read an event's standings, rounds and
//! reports; register and check in players and record Game Reports from organisers' scripts.
//!
//! Public data needs no sign-in; the rest takes an API token (`Authorization: Bearer …`, made
//! on the event's staff page) or a signed-in session, and answers 401/403 like the pages.
//! Errors are `{"error": "…", "field": "…"}` ([`error::ApiError`]).
//!
//! The OpenAPI document (`/api/v1/openapi.json`) is built by `utoipa` from the handlers'
//! annotations and the types in [`types`] as the router is assembled: a route cannot be added
//! without appearing in it.

pub mod error;
mod reads;
pub mod types;
mod writes;

use axum::{Json, Router, routing::get};
use utoipa::{
    Modify, OpenApi,
    openapi::security::{Http, HttpAuthScheme, SecurityScheme},
};
use utoipa_axum::{router::OpenApiRouter, routes};

use super::AppState;

/// Where the API lives; a later, incompatible version gets `/api/v2` beside it.
pub const BASE: &str = "/api/v1";

#[derive(OpenApi)]
#[openapi(
    info(
        title = "Mentat API",
        version = "1",
        description = "Read a Dune tournament's standings, rounds and Game Reports; register and check in players and record reports from scripts. Errors are {\"error\": \"…\", \"field\": \"…\"}. See docs/api.md for examples.",
    ),
    modifiers(&TokenScheme),
    tags(
        (name = "read", description = "Public data: no sign-in needed (staff see unconfirmed reports)"),
        (name = "write", description = "For organisers' scripts: an API token of the event"),
    ),
)]
struct ApiDoc;

/// The bearer token scheme the write endpoints name.
struct TokenScheme;

impl Modify for TokenScheme {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        let mut scheme = Http::new(HttpAuthScheme::Bearer);
        scheme.description =
            Some("An API token made by the event's organiser on its staff page (mentat_…).".into());
        components.add_security_scheme("token", SecurityScheme::Http(scheme));
    }
}

/// The API's routes and their OpenAPI document, assembled together.
fn parts() -> (Router<AppState>, utoipa::openapi::OpenApi) {
    OpenApiRouter::with_openapi(ApiDoc::openapi())
        .routes(routes!(reads::event))
        .routes(routes!(reads::standings))
        .routes(routes!(reads::rounds))
        .routes(routes!(reads::round))
        .routes(routes!(reads::report, writes::record_report))
        .routes(routes!(writes::register))
        .routes(routes!(writes::check_in, writes::check_out))
        .split_for_parts()
}

/// The OpenAPI document, as `/api/v1/openapi.json` serves it.
pub fn openapi() -> utoipa::openapi::OpenApi {
    parts().1
}

pub fn router() -> Router<AppState> {
    let (router, document) = parts();
    router.route(
        &format!("{BASE}/openapi.json"),
        get(move || {
            let document = document.clone();
            async move { Json(document) }
        }),
    )
}
