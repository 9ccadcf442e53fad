//! `mentat serve`: migrate, then serve the web application until SIGINT or SIGTERM.

use std::net::SocketAddr;

use axum::serve::ListenerExt;
use leptos::prelude::LeptosOptions;
use sqlx::PgPool;
use tokio::net::TcpListener;

use crate::{
    config::{Config, WebConfig},
    database,
    error::StartupError,
    http::{self, AppState},
};

pub fn run() -> Result<(), StartupError> {
    let config = Config::from_env()?;
    super::runtime()?.block_on(async {
        let pool = database::connect(&config.database_url).await?;
        database::migrate(&pool, &config.database_url).await?;
        let listener = bind(config.site_addr).await?;
        tracing::info!(addr = %config.site_addr, "Mentat is listening on http://{}", config.site_addr);
        let cleanup = tokio::spawn(housekeeping(pool.clone()));
        let served = serve(listener, pool, &config.site_root, &config.web, shutdown_signal()).await;
        cleanup.abort();
        served
    })
}

pub async fn bind(addr: SocketAddr) -> Result<TcpListener, StartupError> {
    TcpListener::bind(addr).await.map_err(|e| match e.kind() {
        std::io::ErrorKind::AddrInUse => StartupError::PortInUse { addr },
        _ => StartupError::Listen {
            addr,
            cause: e.to_string(),
        },
    })
}

/// How long a stopping server waits for requests under way.
const SHUTDOWN_GRACE: std::time::Duration = std::time::Duration::from_secs(10);

/// Serves on an already bound listener, so tests can take a free port first.
pub async fn serve(
    listener: TcpListener,
    pool: PgPool,
    site_root: &str,
    web: &WebConfig,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> Result<(), StartupError> {
    let addr = listener
        .local_addr()
        .map_err(|e| StartupError::Serve(e.to_string()))?;
    let state = AppState::new(leptos_options(addr, site_root), pool.clone());
    // One listener per instance: PostgreSQL's notifications, fanned out to this instance's
    // open pages and its page cache.
    let hub = state.live.clone();
    let listening = hub.spawn_listener(pool);
    let watching = state.database.spawn_watcher();
    let app = http::router(state, web).into_make_service_with_connect_info::<SocketAddr>();
    // TCP_NODELAY: a response written in pieces (headers, then body chunks) must not wait for
    // the client's delayed ACK of the first (40 ms on every keep-alive request otherwise).
    let listener = listener.tap_io(|stream| {
        if let Err(e) = stream.set_nodelay(true) {
            tracing::debug!(error = %e, "could not set TCP_NODELAY");
        }
    });
    let (stopping, stop_asked) = tokio::sync::oneshot::channel::<()>();
    let serving = axum::serve(listener, app).with_graceful_shutdown(async move {
        shutdown.await;
        // Open event streams never end by themselves; the graceful shutdown waits for them.
        hub.close();
        let _ = stopping.send(());
    });
    // A request that never finishes must not keep a stopped server alive: after the grace
    // period it stops anyway (a load balancer has long since sent its traffic elsewhere).
    let deadline = async {
        if stop_asked.await.is_ok() {
            tokio::time::sleep(SHUTDOWN_GRACE).await;
        } else {
            std::future::pending::<()>().await;
        }
    };
    let served = tokio::select! {
        served = serving => served.map_err(|e| StartupError::Serve(e.to_string())),
        () = deadline => {
            tracing::warn!("requests still open {SHUTDOWN_GRACE:?} after the stop signal; stopping anyway");
            Ok(())
        }
    };
    listening.abort();
    watching.abort();
    served
}

/// Built here rather than read from Cargo.toml, so the binary runs from any folder with only
/// its site files next to it. A site whose files are named by their hashes has a `hash.txt`
/// (`app::assets`); Leptos's hydration scripts read the script's and wasm's names from it, by
/// its full path (Leptos would otherwise look beside the binary).
pub fn leptos_options(addr: SocketAddr, site_root: &str) -> LeptosOptions {
    let mut options = LeptosOptions::builder()
        .output_name("mentat")
        .site_root(site_root)
        .site_pkg_dir("pkg")
        .site_addr(addr)
        .build();
    let hash_file = std::path::Path::new(site_root).join(app::assets::HASH_FILE);
    if app::assets::Assets::of_site(std::path::Path::new(site_root)).hashed
        && let Ok(hash_file) = std::path::absolute(hash_file)
    {
        options.hash_files = true;
        options.hash_file = hash_file.to_string_lossy().into_owned().into();
    }
    options
}

/// Deletes expired sessions and stale sign-in failures every quarter hour. Every instance runs
/// it; the deletes are idempotent, so several at once do no harm.
async fn housekeeping(pool: PgPool) {
    use tower_sessions::ExpiredDeletion;
    let store = tower_sessions_sqlx_store::PostgresStore::new(pool.clone());
    let mut tick = tokio::time::interval(std::time::Duration::from_secs(15 * 60));
    loop {
        tick.tick().await;
        if let Err(e) = store.delete_expired().await {
            tracing::warn!(error = %e, "could not delete expired sessions");
        }
        if let Err(e) = ::db::throttle::prune(&pool).await {
            tracing::warn!(error = %e, "could not prune old sign-in failures");
        }
    }
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = terminate => {},
    }
    tracing::info!("shutting down: finishing requests in flight");
}
