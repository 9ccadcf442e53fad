//! Back-off for sign-in: after [`MAX_FAILURES`] failures within [`WINDOW_MINUTES`] for one
//! account, or [`MAX_FAILURES_PER_ADDRESS`] from one address, further attempts are refused
//! until the window has passed.

use chrono::{DateTime, Duration, Utc};
use sqlx::{PgExecutor, PgPool};

pub const MAX_FAILURES: i64 = 5;
/// Higher than per account: a convention hall's Wi-Fi puts hundreds of people behind one
/// address, and a few typos among them must not lock everyone out.
pub const MAX_FAILURES_PER_ADDRESS: i64 = 30;
pub const WINDOW_MINUTES: i64 = 15;

pub fn account_key(login: &str) -> String {
    format!("account:{}", login.trim().to_lowercase())
}

pub fn address_key(addr: &str) -> String {
    format!("addr:{addr}")
}

/// When a sign-in for `account` from `address` (keys from [`account_key`] and [`address_key`])
/// may be tried again, if either is blocked now.
pub async fn blocked_until(
    pool: &PgPool,
    account: &str,
    address: &str,
) -> Result<Option<DateTime<Utc>>, sqlx::Error> {
    let by_account = key_blocked_until(pool, account, MAX_FAILURES).await?;
    let by_address = key_blocked_until(pool, address, MAX_FAILURES_PER_ADDRESS).await?;
    Ok(by_account.max(by_address))
}

async fn key_blocked_until(
    pool: &PgPool,
    key: &str,
    limit: i64,
) -> Result<Option<DateTime<Utc>>, sqlx::Error> {
    let window = Duration::minutes(WINDOW_MINUTES);
    let since = Utc::now() - window;
    // The oldest of the last `limit` failures in the window decides when one more is allowed;
    // with fewer than `limit` failures there is no row and no block.
    let oldest: Option<DateTime<Utc>> = sqlx::query_scalar(
        "SELECT min(at) FROM ( \
             SELECT at FROM sign_in_failures WHERE key = $1 AND at > $2 ORDER BY at DESC LIMIT $3 \
         ) recent HAVING count(*) >= $3",
    )
    .bind(key)
    .bind(since)
    .bind(limit)
    .fetch_optional(pool)
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
