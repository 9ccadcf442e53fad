//! Passwords and their hashes never reach the logs, at any level. This test binary installs a
//! global TRACE subscriber that records everything every thread logs.

mod common;

use std::sync::{Arc, Mutex};

use common::*;
use leptos::server_fn::ServerFn;
use sqlx::PgPool;

#[derive(Clone, Default)]
struct Capture(Arc<Mutex<Vec<u8>>>);

impl std::io::Write for Capture {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if let Ok(mut inner) = self.0.lock() {
            inner.extend_from_slice(buf);
        }
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[sqlx::test(migrator = "server::database::MIGRATOR")]
async fn no_password_or_hash_in_logs_at_trace_level(pool: PgPool) {
    let capture = Capture::default();
    let writer = capture.clone();
    tracing_subscriber::fmt()
        .with_max_level(tracing::Level::TRACE)
        .with_writer(move || writer.clone())
        .with_ansi(false)
        .init();

    user(&pool, "alice", false).await;
    let app = app(pool.clone());
    let cookie = sign_in(&app, "alice").await;
    let _ = send(
        &app,
        form_post(
            app::auth::SignIn::PATH,
            "login=alice&password=Wrong-Guess-123",
            None,
        ),
    )
    .await;
    let change = "current=alice-password&new=Brand-New-Secret-42&repeat=Brand-New-Secret-42";
    let changed = send(
        &app,
        form_post(app::auth::ChangePassword::PATH, change, Some(&cookie)),
    )
    .await;
    assert_eq!(changed.status(), 200);
    let hash: String =
        sqlx::query_scalar("SELECT password_hash FROM users WHERE username = 'alice'")
            .fetch_one(&pool)
            .await
            .expect("hash");

    let logs = String::from_utf8_lossy(&capture.0.lock().expect("logs")).into_owned();
    assert!(
        logs.contains("INSERT INTO users"),
        "the capture must see sqlx's statements:\n{logs}"
    );
    for secret in [
        "alice-password",
        "Wrong-Guess-123",
        "Brand-New-Secret-42",
        hash.as_str(),
        "$argon2id$",
    ] {
        assert!(!logs.contains(secret), "{secret:?} leaked into the logs");
    }
}
