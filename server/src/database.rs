//! Connecting to PostgreSQL and applying the embedded migrations.

use std::time::Duration;

use sqlx::{PgPool, postgres::PgPoolOptions};

use crate::{config::redact, error::StartupError};

pub use db::MIGRATOR;

/// Opens a pool and proves the server answers, so a wrong address fails at start, not at the
/// first request.
pub async fn connect(url: &str) -> Result<PgPool, StartupError> {
    let unreachable = |cause: String| StartupError::DatabaseUnreachable {
        target: redact(url),
        cause,
    };
    let pool = PgPoolOptions::new()
        // Enough for a busy round on 2 cores; more instances scale out, not bigger pools.
        .max_connections(16)
        // Long enough for a burst of saves to queue on a busy machine; while PostgreSQL is away
        // the pages answer 503 at once instead (http/availability.rs).
        .acquire_timeout(Duration::from_secs(5))
        .connect(url)
        .await
        .map_err(|e| unreachable(e.to_string()))?;
    sqlx::query("SELECT 1")
        .execute(&pool)
        .await
        .map_err(|e| unreachable(e.to_string()))?;
    Ok(pool)
}

pub async fn migrate(pool: &PgPool, url: &str) -> Result<(), StartupError> {
    MIGRATOR
        .run(pool)
        .await
        .map_err(|e| StartupError::Migration {
            target: redact(url),
            cause: e.to_string(),
        })
}

pub use db::migration_version;
