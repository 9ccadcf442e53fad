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
pub mod panics;
mod player_page;
mod print;
pub mod standings;
pub mod statics;
mod statistics;

use axum::{
    Router,
    extract::FromRef,
    handler::{Handler, HandlerWithoutStateExt},
    http::{HeaderValue, header},
    middleware,
    routing::get,
};
use leptos::prelude::{LeptosOptions, provide_context, use_context};
use leptos_axum::{LeptosRoutes, generate_route_list};
use sqlx::PgPool;
use tower_http::{
    compression::{CompressionLayer, predicate::Predicate},
    limit::RequestBodyLimitLayer,
};
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
    router_with(state, web, Router::new())
}

/// [`router`] with `extra` routes among the pages, behind the same layers: tests add a route
/// that panics, to prove the answer a panic gets. The server itself has none.
#[doc(hidden)]
pub fn router_with(state: AppState, web: &WebConfig, extra: Router<AppState>) -> Router {
    let site_root = std::path::PathBuf::from(state.leptos_options.site_root.as_ref());
    app::assets::set(app::assets::Assets::of_site(&site_root));
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
        .merge(extra)
        .leptos_routes_with_context(&state, routes, context.clone(), move || {
            app::shell(options.clone())
        })
        // Any other address is a public file (favicon, scripts), or else the not-found page.
        .fallback_service(statics::cached(statics::files(
            &site_root,
            leptos_axum::file_and_error_handler_with_context::<AppState, _>(context, app::shell)
                .with_state(state.clone()),
        )))
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
        ))
        // A body declared too large is read and refused, before any other check answers early.
        .layer(middleware::from_fn(boundary::oversize));
    // The browser half's files, outside the pages' layers: no session, no database, nothing to
    // check on a request for a file (the availability gate passes them anyway).
    let router = router.route_service(
        "/pkg/{*file}",
        tower::Layer::layer(
            &middleware::from_fn_with_state(statics::preload(&site_root), statics::from_memory),
            statics::cached(statics::files(&site_root, statics::missing.into_service())),
        ),
    );
    let router = router
        // A panic anywhere inside answers 500 in the caller's form; the connection stays.
        .layer(panics::catch())
        .layer(middleware::from_fn(panics::shape));
    let router = headers::layers()
        .into_iter()
        .fold(router, |router, layer| router.layer(layer));
    // Static files leave as built (precompressed); everything else is compressed on the way.
    router
        .layer(CompressionLayer::new().compress_when(
            tower_http::compression::DefaultPredicate::new().and(statics::NotStatic),
        ))
        .with_state(state)
}
