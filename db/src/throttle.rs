//! Back-off for sign-in: after [`MAX_FAILURES`] failures within [`WINDOW_MINUTES`], for one
//! account or from one address, further attempts are refused until the window has passed.

use chrono::{DateTime, Duration, Utc};
use sqlx::{PgExecutor, PgPool};

pub const MAX_FAILURES: i64 = 5;
pub const WINDOW_MINUTES: i64 = 15;

pub fn account_key(login: &str) -> String {
    format!("account:{}", login.trim().to_lowercase())
}

pub fn address_key(addr: &str) -> String {
    format!("addr:{addr}")
}

/// When the earliest key of `keys` may try again, if any is blocked now.
pub async fn blocked_until(
    pool: &PgPool,
    keys: &[String],
) -> Result<Option<DateTime<Utc>>, sqlx::Error> {
    let window = Duration::minutes(WINDOW_MINUTES);
    let since = Utc::now() - window;
    // The oldest of the last MAX_FAILURES failures in the window decides when one more is allowed.
    let oldest: Option<DateTime<Utc>> = sqlx::query_scalar(
        "SELECT max(oldest) FROM ( \
             SELECT key, min(at) AS oldest FROM ( \
                 SELECT key, at, row_number() OVER (PARTITION BY key ORDER BY at DESC) AS n \
                 FROM sign_in_failures WHERE key = ANY($1) AND at > $2 \
             ) recent WHERE n <= $3 GROUP BY key HAVING count(*) >= $3 \
         ) blocked",
    )
    .bind(keys)
    .bind(since)
    .bind(MAX_FAILURES)
    .fetch_one(pool)
    .await?;
    Ok(oldest.map(|at| at + window))
}

pub async fn record_failure(db: impl PgExecutor<'_>, keys: &[String]) -> Result<(), sqlx::Error> {
    sqlx::query("INSERT INTO sign_in_failures (key) SELECT unnest($1::text[])")
        .bind(keys)
        .execute(db)
        .await?;
    Ok(())
}

/// A successful sign-in forgives the account's failures (not the address's).
pub async fn clear(db: impl PgExecutor<'_>, key: &str) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM sign_in_failures WHERE key = $1")
        .bind(key)
        .execute(db)
        .await?;
    Ok(())
}

/// Drops failures too old to matter; run by the background clean-up task.
pub async fn prune(pool: &PgPool) -> Result<u64, sqlx::Error> {
    let cutoff = Utc::now() - Duration::minutes(WINDOW_MINUTES);
    let done = sqlx::query("DELETE FROM sign_in_failures WHERE at < $1")
        .bind(cutoff)
        .execute(pool)
        .await?;
    Ok(done.rows_affected())
}
