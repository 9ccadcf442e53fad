//! A handler that panics answers 500 and the connection stays open.
//!
//! tower-http's `CatchPanicLayer` turns a panic anywhere inside the router (a page render, a
//! server function, a codec inside one, a middleware) into a response, so no request that
//! finds a bug drops its connection without an answer. [`shape`] then gives that response the
//! form its caller reads: the server functions' JSON error (`{"Internal": …}`, which the page
//! shows at its form), the JSON API's `{"error": …}`, or a short page. The panic itself is
//! logged once, by the hook [`crate::telemetry::init`] installs (its message, its place in the
//! code, and a backtrace when `RUST_BACKTRACE` asks for one); nothing here logs it again.

use std::any::Any;

use axum::{
    extract::Request,
    http::{HeaderValue, StatusCode, header},
    middleware::Next,
    response::{Html, IntoResponse, Response},
};
use tower_http::catch_panic::CatchPanicLayer;

const MESSAGE: &str = "Something went wrong on the server, and it has been logged. Please try again; if it keeps happening, tell the organiser.";

/// Marks the answer to a request whose handler panicked, for [`shape`].
#[derive(Debug, Clone, Copy)]
struct Panicked;

type OnPanic = fn(Box<dyn Any + Send + 'static>) -> Response;

/// The layer that catches the panic (inside [`shape`]).
pub fn catch() -> CatchPanicLayer<OnPanic> {
    CatchPanicLayer::custom(marked as OnPanic)
}

fn marked(_panic: Box<dyn Any + Send + 'static>) -> Response {
    let mut response = StatusCode::INTERNAL_SERVER_ERROR.into_response();
    response.extensions_mut().insert(Panicked);
    response
}

/// Who reads the answer, by the address asked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Reader {
    ServerFunction,
    JsonApi,
    Person,
}

impl Reader {
    fn of(path: &str) -> Reader {
        if path.starts_with(super::api::BASE) {
            Reader::JsonApi
        } else if path.starts_with(super::boundary::API_PREFIX) {
            Reader::ServerFunction
        } else {
            Reader::Person
        }
    }

    fn answer(self) -> Response {
        let json = |value: serde_json::Value| {
            (
                StatusCode::INTERNAL_SERVER_ERROR,
                [(header::CONTENT_TYPE, "application/json")],
                value.to_string(),
            )
                .into_response()
        };
        let mut response = match self {
            Reader::ServerFunction => json(serde_json::json!({ "Internal": MESSAGE })),
            Reader::JsonApi => json(serde_json::json!({ "error": MESSAGE })),
            Reader::Person => (
                StatusCode::INTERNAL_SERVER_ERROR,
                Html(format!(
                    "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">\
                     <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
                     <title>Mentat: something went wrong</title>\
                     <link rel=\"stylesheet\" href=\"{}\"></head>\
                     <body><main class=\"page\"><h1>Something went wrong</h1><p>{MESSAGE}</p>\
                     <p><a href=\"/\">Mentat's home page</a></p></main></body></html>",
                    app::assets::stylesheet()
                )),
            )
                .into_response(),
        };
        response
            .headers_mut()
            .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
        response
    }
}

/// Replaces the bare 500 of a caught panic with the answer its caller reads.
pub async fn shape(request: Request, next: Next) -> Response {
    let reader = Reader::of(request.uri().path());
    let response = next.run(request).await;
    if response.extensions().get::<Panicked>().is_none() {
        return response;
    }
    reader.answer()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_caller_reads_the_failure_in_its_own_form() {
        assert_eq!(Reader::of("/api/v1/events"), Reader::JsonApi);
        assert_eq!(Reader::of("/api/save_report123"), Reader::ServerFunction);
        assert_eq!(Reader::of("/events/x/run"), Reader::Person);
    }
}
