//! Logs go to stderr through `tracing`; `RUST_LOG` picks what is shown.

use tracing_subscriber::{EnvFilter, fmt};

/// Installs the global subscriber once; later calls (tests) are harmless no-ops.
pub fn init() {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    let _ = fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .try_init();
}
