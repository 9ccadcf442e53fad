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
mod run;
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
        description = "Run a Dune tournament from a script: create the event, save its settings, make its tokens, register and check in players, draw and begin rounds, run the clocks, record, confirm and finalise Game Reports, close qualifying, seat the final table; read standings, placings and statistics. Errors are {\"error\": \"…\", \"field\": \"…\"}. See docs/api.md for examples.",
    ),
    modifiers(&TokenScheme),
    tags(
        (name = "read", description = "Public data: no sign-in needed (staff see unconfirmed reports)"),
        (name = "write", description = "For organisers' scripts: an API token of the event"),
        (name = "run", description = "Running the event from a script, with the role its page needs: an API token of the event (or an administrator's account token to create one)"),
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
            Some("An API token made by the event's organiser on its Organiser's desk (/events/{slug}/organise), or a person's account token (mentat token add), mentat_….".into());
        components.add_security_scheme("token", SecurityScheme::Http(scheme));
    }
}

/// The API's routes and their OpenAPI document, assembled together.
fn parts() -> (Router<AppState>, utoipa::openapi::OpenApi) {
    OpenApiRouter::with_openapi(ApiDoc::openapi())
        .routes(routes!(run::create_event))
        .routes(routes!(reads::event))
        .routes(routes!(run::settings, run::save_settings))
        .routes(routes!(run::tokens, run::make_token))
        .routes(routes!(run::revoke_token))
        .routes(routes!(reads::standings))
        .routes(routes!(reads::placings))
        .routes(routes!(reads::statistics))
        .routes(routes!(reads::statistics_across))
        .routes(routes!(reads::rounds, run::draw_round))
        .routes(routes!(reads::round))
        .routes(routes!(run::begin_round))
        .routes(routes!(run::clocks))
        .routes(routes!(reads::report, writes::record_report))
        .routes(routes!(run::confirm))
        .routes(routes!(run::finalise))
        .routes(routes!(run::qualifying))
        .routes(routes!(run::close_qualifying))
        .routes(routes!(run::reopen_qualifying))
        .routes(routes!(run::cut_draw))
        .routes(routes!(run::final_table))
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
