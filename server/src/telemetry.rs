//! Logs go to stderr through `tracing`; `RUST_LOG` picks what is shown.

use tracing_subscriber::{EnvFilter, fmt};

/// Installs the global subscriber once; later calls (tests) are harmless no-ops.
pub fn init() {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    let installed = fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .try_init();
    if installed.is_ok() {
        log_panics();
    }
}

/// Logs a panic once, as one event: its message, where in the code, and the backtrace when
/// `RUST_BACKTRACE` asks for one. A panic in a request handler is answered with a 500 by
/// `http::panics`; this is the only place it is written down.
fn log_panics() {
    std::panic::set_hook(Box::new(|info| {
        let place = info
            .location()
            .map(|l| format!("{}:{}", l.file(), l.line()))
            .unwrap_or_default();
        let message = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| (*s).to_owned())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "(no message)".to_owned());
        let backtrace = std::backtrace::Backtrace::capture();
        if backtrace.status() == std::backtrace::BacktraceStatus::Captured {
            tracing::error!(%place, %backtrace, "panicked: {message}");
        } else {
            tracing::error!(%place, "panicked: {message}");
        }
    }));
}
