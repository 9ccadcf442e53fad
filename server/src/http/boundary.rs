//! The edge of the HTTP surface: what every request must be before a handler sees it, and what
//! every server function's failure answers with.
//!
//! - A body over [`MAX_BODY_BYTES`] is refused with 413 (tower-http's `RequestBodyLimitLayer`
//!   answers when `Content-Length` says so up front; [`guard`] when a chunked body grows past it).
//! - A server function call whose text is not UTF-8, raw or percent-encoded, is refused with 400:
//!   a name with invalid bytes must not be stored as replacement characters.
//! - A server function's error is answered with the status its `AppError` stands for (the server
//!   function machinery answers every error with 500, and only errors raised through
//!   `app::server::fail` carry their own status), and no message in it is longer than a
//!   sentence: a 100 KB value a client sent is not echoed back.
//! - A file upload (a server function that takes `multipart/form-data`, [`MULTIPART`]) is
//!   refused with 415 unless its body is multipart with a boundary: server_fn 0.8's multipart
//!   codec panics on any other body (it `expect`s the boundary), so nothing else may reach it.
//!   Its files may be binary (a zip archive), so the UTF-8 check is theirs to make, per file.
//! - Behind a trusted load balancer, the client's address is the one the balancer saw.

use std::net::{IpAddr, SocketAddr};

use axum::{
    body::{Body, Bytes},
    extract::{ConnectInfo, Request, State},
    http::{HeaderValue, Method, StatusCode, header},
    middleware::Next,
    response::{IntoResponse, Response},
};
use leptos::server_fn::error::SERVER_FN_ERROR_HEADER;
use serde_json::Value;

/// The largest request body accepted. The largest legitimate one is a CSV import
/// (`db::players::MAX_CSV_BYTES`, 512 KiB) sent form-encoded, which can grow it up to threefold.
pub const MAX_BODY_BYTES: usize = 2 * 1024 * 1024;
/// Where Leptos serves server functions.
pub const API_PREFIX: &str = "/api/";
/// The longest text an error message carries; longer ones are cut with "…".
pub const MAX_MESSAGE_CHARS: usize = 200;
/// Error bodies larger than this are not worth reading back to shorten: they are replaced.
const MAX_ERROR_BODY: usize = 1 << 20;

/// The server functions that take `multipart/form-data` (file uploads). The fuzz test of every
/// server function (`server/tests/faults/fuzz.rs`) sends each one a body that is not multipart,
/// so an upload added without being named here fails it.
pub fn multipart_paths() -> [&'static str; 1] {
    use leptos::server_fn::ServerFn;
    [app::gamelog::UploadLogs::PATH]
}

/// How much of a body that is too large is read (and dropped) before it is refused: a client
/// still sending when the server answers and closes gets a reset and never sees the 413, so the
/// server reads on, as nginx's lingering close does, up to this much and for at most
/// [`DRAIN_TIME`].
const DRAIN_BYTES: usize = 16 * 1024 * 1024;
const DRAIN_TIME: std::time::Duration = std::time::Duration::from_secs(10);

/// Refuses a body whose declared length is over [`MAX_BODY_BYTES`] with 413, after reading what
/// the client sends (see [`DRAIN_BYTES`]), so the client reads the refusal rather than a reset
/// connection. Server function calls get the refusal as JSON their page shows.
pub async fn oversize(request: Request, next: Next) -> Response {
    let declared = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_none_or(|n| n <= MAX_BODY_BYTES as u64) {
        return next.run(request).await;
    }
    let server_function = request.uri().path().starts_with(API_PREFIX);
    let (_, body) = request.into_parts();
    let drained = tokio::time::timeout(DRAIN_TIME, async {
        let _ = axum::body::to_bytes(body, DRAIN_BYTES).await;
    })
    .await;
    if drained.is_err() {
        tracing::debug!("stopped reading a body too large to accept");
    }
    let mut response = if server_function {
        too_large()
    } else {
        (
            StatusCode::PAYLOAD_TOO_LARGE,
            "The request is too large (at most 2 MB).",
        )
            .into_response()
    };
    response
        .headers_mut()
        .insert(header::CONNECTION, HeaderValue::from_static("close"));
    response
}

/// Checks a server function call's body before the server function reads it, and gives its
/// error the right status after.
pub async fn guard(request: Request, next: Next) -> Response {
    let path = request.uri().path();
    // The JSON API (`/api/v1/…`) shares the prefix but not the server functions' error shape:
    // it reads and answers its own bodies (`http::api::error`).
    if !path.starts_with(API_PREFIX) || path.starts_with(super::api::BASE) {
        return next.run(request).await;
    }
    let request = match check_request(request).await {
        Ok(request) => request,
        Err(refusal) => return refusal,
    };
    answer(next.run(request).await).await
}

async fn check_request(request: Request) -> Result<Request, Response> {
    let (parts, body) = request.into_parts();
    if let Some(query) = parts.uri.query()
        && !percent_decodes_to_utf8(query.as_bytes())
    {
        return Err(refuse(
            StatusCode::BAD_REQUEST,
            "The address is not valid UTF-8 text.",
        ));
    }
    if parts.method == Method::GET || parts.method == Method::HEAD {
        return Ok(Request::from_parts(parts, body));
    }
    let content_type = parts
        .headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok());
    let multipart = content_type.is_some_and(|v| multer::parse_boundary(v).is_ok());
    if multipart_paths().contains(&parts.uri.path()) && !multipart {
        return Err(refuse(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "This address takes files sent as a form upload (multipart/form-data with a boundary). Choose the files on the page and send them again.",
        ));
    }
    let declared = parts
        .headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|n| n > MAX_BODY_BYTES as u64) {
        return Err(too_large());
    }
    let bytes = match axum::body::to_bytes(body, MAX_BODY_BYTES).await {
        Ok(bytes) => bytes,
        Err(_) => return Err(too_large()),
    };
    let form = content_type.is_some_and(|v| v.starts_with("application/x-www-form-urlencoded"));
    let text_ok = if multipart {
        // Files: the upload reads each one and names any that is not text.
        true
    } else if form {
        percent_decodes_to_utf8(&bytes)
    } else {
        std::str::from_utf8(&bytes).is_ok()
    };
    if !text_ok {
        return Err(refuse(
            StatusCode::BAD_REQUEST,
            "The request is not valid UTF-8 text. Type the text again, or paste it from another source.",
        ));
    }
    Ok(Request::from_parts(parts, Body::from(bytes)))
}

/// A form body or query string whose names and values, once percent-decoded, are UTF-8.
pub fn percent_decodes_to_utf8(encoded: &[u8]) -> bool {
    encoded
        .split(|&b| b == b'&')
        .flat_map(|pair| pair.splitn(2, |&b| b == b'='))
        .all(|part| percent_encoding::percent_decode(part).decode_utf8().is_ok())
}

pub fn too_large() -> Response {
    refuse(
        StatusCode::PAYLOAD_TOO_LARGE,
        "The request is too large (at most 2 MB).",
    )
}

/// A refusal in the shape server functions answer errors with (`AppError` as JSON, which the
/// browser half decodes and shows), so a page shows it like any other error.
fn refuse(status: StatusCode, message: &str) -> Response {
    let body = serde_json::json!({ "Invalid": message }).to_string();
    let mut response = (status, body).into_response();
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    response
}

/// Gives a server function's error its status and shortens any long message in it.
async fn answer(response: Response) -> Response {
    if !response.headers().contains_key(SERVER_FN_ERROR_HEADER) {
        return response;
    }
    let (mut parts, body) = response.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, MAX_ERROR_BODY).await else {
        tracing::warn!("a server function's error was too large to pass on");
        return refuse(
            StatusCode::INTERNAL_SERVER_ERROR,
            "Something went wrong on the server; please try again.",
        );
    };
    let Ok(mut error) = serde_json::from_slice::<Value>(&bytes) else {
        return Response::from_parts(parts, Body::from(bytes));
    };
    if parts.status == StatusCode::INTERNAL_SERVER_ERROR
        && let Some(status) = status_of(&error)
    {
        parts.status = status;
    }
    let body = if shorten(&mut error) {
        Bytes::from(error.to_string())
    } else {
        bytes
    };
    parts.headers.remove(header::CONTENT_LENGTH);
    Response::from_parts(parts, Body::from(body))
}

/// The status an `AppError` (as JSON) stands for. The server function machinery turns failures
/// to read the request into `Transport` errors on the server: those are the client's, so 400.
fn status_of(error: &Value) -> Option<StatusCode> {
    let decoded: app::error::AppError = serde_json::from_value(error.clone()).ok()?;
    let code = match decoded {
        app::error::AppError::Transport(_) => 400,
        other => other.status(),
    };
    StatusCode::from_u16(code).ok()
}

/// Cuts every string in `value` longer than [`MAX_MESSAGE_CHARS`]; true when one was cut.
fn shorten(value: &mut Value) -> bool {
    match value {
        Value::String(text) if text.chars().count() > MAX_MESSAGE_CHARS => {
            let cut: String = text.chars().take(MAX_MESSAGE_CHARS - 1).collect();
            *text = format!("{cut}…");
            true
        }
        Value::Array(items) => items.iter_mut().fold(false, |cut, v| shorten(v) | cut),
        Value::Object(fields) => fields.values_mut().fold(false, |cut, v| shorten(v) | cut),
        _ => false,
    }
}

/// Whether to believe `X-Forwarded-For` (`MENTAT_TRUST_PROXY`).
#[derive(Debug, Clone, Copy)]
pub struct TrustProxy(pub bool);

/// Behind a trusted load balancer, replaces the connection's address (which is the balancer's)
/// with the client's, so the sign-in back-off counts per client. The last address in
/// `X-Forwarded-For` is the one the balancer itself saw; earlier ones are whatever the client
/// wrote, and believing them would let anyone choose a fresh address for every attempt.
pub async fn client_address(
    State(TrustProxy(trust)): State<TrustProxy>,
    mut request: Request,
    next: Next,
) -> Response {
    if trust
        && let Some(ip) = request
            .headers()
            .get_all("x-forwarded-for")
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .filter_map(|v| v.trim().parse::<IpAddr>().ok())
            .next_back()
    {
        request
            .extensions_mut()
            .insert(ConnectInfo(SocketAddr::new(ip, 0)));
    }
    next.run(request).await
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::{Router, middleware, routing::get};
    use tower::ServiceExt;

    async fn seen_address(trust: bool, forwarded: Option<&str>) -> String {
        let app =
            Router::new()
                .route(
                    "/",
                    get(|ConnectInfo(addr): ConnectInfo<SocketAddr>| async move {
                        addr.ip().to_string()
                    }),
                )
                .layer(middleware::from_fn_with_state(
                    TrustProxy(trust),
                    client_address,
                ));
        let mut request = Request::get("/");
        if let Some(f) = forwarded {
            request = request.header("x-forwarded-for", f);
        }
        let mut request = request.body(Body::empty()).expect("request");
        request
            .extensions_mut()
            .insert(ConnectInfo(SocketAddr::from(([10, 0, 0, 1], 4000))));
        let response = app.oneshot(request).await.expect("answer");
        let bytes = axum::body::to_bytes(response.into_body(), 100)
            .await
            .expect("body");
        String::from_utf8(bytes.to_vec()).expect("text")
    }

    #[tokio::test]
    async fn the_forwarded_address_counts_only_behind_a_trusted_proxy() {
        let forwarded = Some("203.0.113.9, 198.51.100.7");
        assert_eq!(seen_address(false, forwarded).await, "10.0.0.1");
        // The balancer appends the address it saw: the last one, not the client's own claim.
        assert_eq!(seen_address(true, forwarded).await, "198.51.100.7");
        assert_eq!(seen_address(true, None).await, "10.0.0.1");
        assert_eq!(seen_address(true, Some("not an address")).await, "10.0.0.1");
    }

    #[test]
    fn percent_encoded_text_must_decode_to_utf8() {
        assert!(percent_decodes_to_utf8(b"name=Ana+Mar%C3%ADa&club="));
        assert!(percent_decodes_to_utf8(b""));
        assert!(!percent_decodes_to_utf8(b"name=%FF%FE"));
        assert!(!percent_decodes_to_utf8(b"n%C3=x"));
        // A stray % is passed through as text by form decoding: still UTF-8.
        assert!(percent_decodes_to_utf8(b"name=100%"));
    }

    #[test]
    fn long_strings_are_cut_anywhere_in_the_error() {
        let mut error =
            serde_json::json!({ "Field": { "field": "name", "message": "x".repeat(100_000) } });
        assert!(shorten(&mut error));
        let message = error["Field"]["message"].as_str().expect("a string");
        assert_eq!(message.chars().count(), MAX_MESSAGE_CHARS);
        assert!(message.ends_with('…'));
        let mut short = serde_json::json!({ "Invalid": "Too short." });
        assert!(!shorten(&mut short));
    }

    #[test]
    fn errors_the_client_caused_are_4xx() {
        let status = |v: Value| status_of(&v).map(|s| s.as_u16());
        assert_eq!(
            status(serde_json::json!({ "Invalid": "missing field" })),
            Some(422)
        );
        assert_eq!(
            status(serde_json::json!({ "Transport": "length limit exceeded" })),
            Some(400)
        );
        assert_eq!(status(serde_json::json!({ "Internal": "x" })), Some(500));
        assert_eq!(status(serde_json::json!("SignInRequired")), Some(401));
    }
}
