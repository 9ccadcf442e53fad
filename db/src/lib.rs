//! Mentat's data access: plain async functions over a [`PgPool`], one module per resource.
//!
//! Server functions and the command line call these; neither writes SQL of its own. Every write
//! that touches more than one row runs in a transaction.
// A panic in the hall loses a judge's work: outside tests, every failure is an error value.
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

pub mod accounts;
pub mod actor;
pub mod audit;
pub mod backup;
pub mod claims;
pub mod clocks;
pub mod events;
pub mod export;
pub mod invitations;
pub mod live;
pub mod password;
pub mod players;
pub mod projector;
pub mod public_address;
pub mod results;
pub mod roles;
pub mod rounds;
pub mod statistics;
pub mod throttle;
pub mod tokens;

pub use sqlx::{Error, PgPool};

/// Migrations from `migrations/`, compiled in so a deployed server needs no files beside it.
pub static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("../migrations");

/// The newest migration applied successfully, if any.
pub async fn migration_version(pool: &PgPool) -> Result<Option<i64>, sqlx::Error> {
    sqlx::query_scalar("SELECT max(version) FROM _sqlx_migrations WHERE success")
        .fetch_one(pool)
        .await
}
