//! While PostgreSQL is away, every page and server function answers at once with a short
//! `503 Service Unavailable` page instead of waiting for a connection that will not come (the
//! pool would retry for its whole acquire timeout, then fail with a 500). Static files still
//! load; `/healthz` still answers for itself.
//!
//! A watcher keeps one connection of its own, outside the pool, so a busy pool never looks like
//! a dead database: it asks `SELECT 1` every [`PROBE_UP`] while the database answers and
//! reconnects every [`PROBE_DOWN`] while it does not. Mentat is back within a fraction of a
//! second of PostgreSQL: the pool tests each connection before handing it out and replaces the
//! dead ones by itself.
//!
//! A page asked for in the moment between PostgreSQL going away and the watcher seeing it would
//! otherwise wait for a pool connection until PostgreSQL is back (the pool retries a refused
//! connection for its whole acquire timeout), and every phone asking for the same standings
//! would wait behind it. So a read (`GET`, `HEAD`) still under way when the watcher sees the
//! database gone answers 503 at that moment. A write is left to finish or fail by itself: it is
//! one transaction, and an answer must never say "not saved" about a save that was committed.

use std::{sync::Arc, time::Duration};

use axum::{
    extract::{Request, State},
    http::{HeaderValue, Method, StatusCode, header},
    middleware::Next,
    response::{Html, IntoResponse, Response},
};
use sqlx::{ConnectOptions, Connection, PgConnection, PgPool};
use tokio::sync::{Mutex, watch};

pub const PROBE_UP: Duration = Duration::from_millis(500);
pub const PROBE_DOWN: Duration = Duration::from_millis(250);
/// A probe that takes longer than this counts as a database that does not answer.
const PROBE_TIMEOUT: Duration = Duration::from_secs(1);

/// Whether the database answers, as last seen.
#[derive(Clone)]
pub struct Database {
    /// Whether the database answers; requests under way wait on its changes.
    up: Arc<watch::Sender<bool>>,
    probe: Arc<Mutex<Option<PgConnection>>>,
    pool: PgPool,
}

impl Database {
    /// Believed up until a probe says otherwise.
    pub fn new(pool: PgPool) -> Self {
        Self {
            up: Arc::new(watch::Sender::new(true)),
            probe: Arc::new(Mutex::new(None)),
            pool,
        }
    }

    pub fn is_up(&self) -> bool {
        *self.up.borrow()
    }

    /// Resolves when the database is seen gone (never, if it stays up).
    async fn gone(&self) {
        let mut up = self.up.subscribe();
        if up.wait_for(|up| !up).await.is_err() {
            std::future::pending::<()>().await;
        }
    }

    /// Asks the database now, on the watcher's own connection, and records the answer.
    pub async fn check(&self) -> bool {
        let up = tokio::time::timeout(PROBE_TIMEOUT, self.ping())
            .await
            .unwrap_or(false);
        let was = self.up.send_replace(up);
        if was != up {
            if up {
                tracing::info!("the database answers again");
            } else {
                tracing::warn!("the database does not answer: pages answer 503 until it does");
            }
        }
        up
    }

    async fn ping(&self) -> bool {
        let mut probe = self.probe.lock().await;
        if let Some(connection) = probe.as_mut() {
            if connection.ping().await.is_ok() {
                return true;
            }
            *probe = None;
        }
        let options = self
            .pool
            .connect_options()
            .as_ref()
            .clone()
            .disable_statement_logging();
        match PgConnection::connect_with(&options).await {
            Ok(mut connection) => {
                let ok = connection.ping().await.is_ok();
                *probe = ok.then_some(connection);
                ok
            }
            Err(_) => false,
        }
    }

    /// Probes until the pool closes (the task is aborted at shutdown).
    pub fn spawn_watcher(&self) -> tokio::task::JoinHandle<()> {
        let database = self.clone();
        tokio::spawn(async move {
            while !database.pool.is_closed() {
                let up = database.check().await;
                tokio::time::sleep(if up { PROBE_UP } else { PROBE_DOWN }).await;
            }
        })
    }
}

/// Files the browser loads (`/pkg/…`, `favicon.svg`) and the health check pass; everything else
/// needs the database.
fn needs_database(path: &str) -> bool {
    if path == "/healthz" || path.starts_with("/pkg/") {
        return false;
    }
    let last = path.rsplit('/').next().unwrap_or_default();
    !last.contains('.')
}

pub async fn gate(State(database): State<Database>, request: Request, next: Next) -> Response {
    if !needs_database(request.uri().path()) {
        return next.run(request).await;
    }
    let api = request
        .uri()
        .path()
        .starts_with(super::boundary::API_PREFIX);
    if !database.is_up() {
        return unavailable(api);
    }
    let read = matches!(*request.method(), Method::GET | Method::HEAD);
    let response = if read {
        tokio::select! {
            response = next.run(request) => response,
            () = database.gone() => return unavailable(api),
        }
    } else {
        next.run(request).await
    };
    // A failure while the database was going away: say so rather than "something went wrong".
    if response.status() == StatusCode::INTERNAL_SERVER_ERROR && !database.check().await {
        return unavailable(api);
    }
    response
}

const MESSAGE: &str = "Mentat cannot reach its database just now. It reconnects by itself: try again in a few seconds.";

pub fn unavailable(api: bool) -> Response {
    let mut response = if api {
        (
            StatusCode::SERVICE_UNAVAILABLE,
            [(header::CONTENT_TYPE, "application/json")],
            serde_json::json!({ "Internal": MESSAGE }).to_string(),
        )
            .into_response()
    } else {
        (
            StatusCode::SERVICE_UNAVAILABLE,
            Html(format!(
                "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">\
                 <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
                 <title>Mentat: back in a moment</title>\
                 <link rel=\"stylesheet\" href=\"{}\"></head>\
                 <body><main class=\"page\"><h1>Back in a moment</h1><p>{MESSAGE}</p>\
                 <p><a href=\"\">Try again</a></p></main></body></html>",
                app::assets::stylesheet()
            )),
        )
            .into_response()
    };
    let headers = response.headers_mut();
    headers.insert(header::RETRY_AFTER, HeaderValue::from_static("5"));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

#[cfg(test)]
mod tests {
    use super::needs_database;

    #[test]
    fn files_and_the_health_check_pass_the_gate() {
        assert!(!needs_database("/pkg/mentat.css"));
        assert!(!needs_database("/favicon.svg"));
        assert!(!needs_database("/healthz"));
        assert!(needs_database("/"));
        assert!(needs_database("/events/x/standings"));
        assert!(needs_database("/api/sign_in123"));
    }
}
