//! The HTTP surface: the health check, static files, sessions, CSRF and the Leptos pages.

pub mod access;
pub mod api;
pub mod availability;
pub mod boundary;
pub mod cache;
mod csrf;
mod exports;
pub mod headers;
mod health;
pub mod live;
mod organise;
mod organisers;
mod player_page;
mod print;
pub mod standings;
mod statistics;

use axum::{
    Router,
    extract::FromRef,
    http::{HeaderValue, header},
    middleware,
    routing::get,
};
use leptos::prelude::{LeptosOptions, provide_context, use_context};
use leptos_axum::{LeptosRoutes, generate_route_list};
use sqlx::PgPool;
use tower_http::{compression::CompressionLayer, limit::RequestBodyLimitLayer};
use tower_sessions::{Expiry, SessionManagerLayer, cookie::SameSite};
use tower_sessions_sqlx_store::PostgresStore;

use crate::config::WebConfig;
pub use csrf::AllowedOrigins;

/// What every handler may need. Holds nothing another instance would miss: the truth is in
/// PostgreSQL, so any number of instances can serve the same event. `live` only fans out
/// PostgreSQL's notifications to the pages open on this instance.
#[derive(Clone)]
pub struct AppState {
    pub leptos_options: LeptosOptions,
    pub pool: PgPool,
    pub live: live::Hub,
    /// Whether PostgreSQL answers; pages answer 503 at once while it does not.
    pub database: availability::Database,
}

impl AppState {
    /// State with a hub that hears nothing until its listener is spawned
    /// ([`live::Hub::spawn_listener`]; `mentat serve` does it).
    pub fn new(leptos_options: LeptosOptions, pool: PgPool) -> Self {
        Self {
            leptos_options,
            database: availability::Database::new(pool.clone()),
            pool,
            live: live::Hub::new(),
        }
    }
}

impl FromRef<AppState> for LeptosOptions {
    fn from_ref(state: &AppState) -> Self {
        state.leptos_options.clone()
    }
}

pub fn router(state: AppState, web: &WebConfig) -> Router {
    let routes = generate_route_list(app::App);
    let options = state.leptos_options.clone();
    let pool = state.pool.clone();
    let site = app::pages::standings::PublicSite {
        origin: web.public_origins.first().cloned(),
        https: web.secure_cookies,
        trust_proxy: web.trust_proxy,
    };
    let sessions = SessionManagerLayer::new(PostgresStore::new(state.pool.clone()))
        .with_name("mentat_session")
        .with_http_only(true)
        .with_same_site(SameSite::Lax)
        .with_secure(web.secure_cookies)
        .with_expiry(Expiry::OnInactivity(time::Duration::hours(
            web.session_idle_hours,
        )));
    let organisers = organisers::routes(site.clone());
    // What every page render and server function call gets: the pool, the public address, and
    // the page's own Content-Security-Policy, which allows the inline scripts leptos_axum wrote
    // with this render's nonce.
    let context = move || {
        provide_context(pool.clone());
        provide_context(site.clone());
        if let (Some(nonce), Some(response)) = (
            leptos::nonce::use_nonce(),
            use_context::<leptos_axum::ResponseOptions>(),
        ) && let Ok(policy) = HeaderValue::from_str(&headers::page_policy(&nonce))
        {
            response.insert_header(header::CONTENT_SECURITY_POLICY, policy);
        }
    };
    let router = Router::new()
        .route("/healthz", get(health::healthz))
        // The public standings are plain server-rendered HTML without the wasm bundle: phones
        // on a hall's Wi-Fi load them fast, and they follow changes through `live`.
        .route("/events/{slug}/standings", get(standings::page))
        .route("/events/{slug}/live", get(live::stream))
        .merge(organisers)
        .leptos_routes_with_context(&state, routes, context.clone(), move || {
            app::shell(options.clone())
        })
        .fallback(leptos_axum::file_and_error_handler_with_context::<
            AppState,
            _,
        >(context, app::shell))
        // A rendered page always leaves with the policy that lets its own inline scripts run.
        .layer(middleware::from_fn(headers::nonce_policy))
        .layer(sessions)
        // A body over the limit is a 413 before anything reads it.
        .layer(RequestBodyLimitLayer::new(boundary::MAX_BODY_BYTES))
        // Server function calls: the same limit with an answer the page can show, UTF-8 only,
        // and errors with their own status.
        .layer(middleware::from_fn(boundary::guard))
        // Anonymous phones share one render of a player's page (outside the session layer: a
        // copy served from memory needs no session).
        .layer(middleware::from_fn_with_state(
            state.live.pages(),
            player_page::cached,
        ))
        .layer(middleware::from_fn_with_state(
            AllowedOrigins(web.public_origins.clone()),
            csrf::guard,
        ))
        .layer(middleware::from_fn_with_state(
            boundary::TrustProxy(web.trust_proxy),
            boundary::client_address,
        ))
        .layer(middleware::from_fn_with_state(
            state.database.clone(),
            availability::gate,
        ));
    let router = headers::layers()
        .into_iter()
        .fold(router, |router, layer| router.layer(layer));
    router.layer(CompressionLayer::new()).with_state(state)
}
