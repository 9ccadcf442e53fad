//! `GET /healthz` for load balancers and the run script: 200 when PostgreSQL answers.

use std::time::Duration;

use axum::{Json, extract::State, http::StatusCode, response::IntoResponse};
use serde_json::json;

use super::AppState;
use crate::database;

pub async fn healthz(State(state): State<AppState>) -> impl IntoResponse {
    // A hung database must not hang the probe: answer "down" after two seconds.
    let probe = tokio::time::timeout(
        Duration::from_secs(2),
        database::migration_version(&state.pool),
    );
    match probe.await {
        Ok(Ok(version)) => (
            StatusCode::OK,
            Json(json!({
                "status": "ok",
                "db": "ok",
                "migration": version,
                "version": env!("CARGO_PKG_VERSION"),
            })),
        ),
        Ok(Err(e)) => {
            tracing::warn!(error = %e, "health check: database query failed");
            down()
        }
        Err(_) => {
            tracing::warn!("health check: database did not answer within 2 s");
            down()
        }
    }
}

fn down() -> (StatusCode, Json<serde_json::Value>) {
    (
        StatusCode::SERVICE_UNAVAILABLE,
        Json(json!({ "status": "unavailable", "db": "down" })),
    )
}
