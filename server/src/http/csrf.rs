//! Cross-site request forgery: nothing changes state on GET, and every other method must come
//! from Mentat's own pages. Browsers say where a request comes from (`Sec-Fetch-Site`,
//! `Origin`); a request that says "another site" is refused with 403. Requests that say nothing
//! (command-line clients) cannot carry a victim's cookies from another site and pass.

use axum::{
    body::Body,
    extract::{Request, State},
    http::{Method, StatusCode, header},
    middleware::Next,
    response::{IntoResponse, Response},
};

/// The origins Mentat is served from, e.g. `https://mentat.example.org`. Empty means "the
/// request's own Host", which is right for a single address behind no proxy.
#[derive(Debug, Clone, Default)]
pub struct AllowedOrigins(pub Vec<String>);

pub async fn guard(
    State(allowed): State<AllowedOrigins>,
    request: Request,
    next: Next,
) -> Response {
    if matches!(
        *request.method(),
        Method::GET | Method::HEAD | Method::OPTIONS
    ) {
        return next.run(request).await;
    }
    match verdict(&allowed, &request) {
        Ok(()) => next.run(request).await,
        Err(why) => {
            tracing::warn!(method = %request.method(), path = %request.uri().path(), why, "refused a cross-origin request");
            (
                StatusCode::FORBIDDEN,
                "This request came from another site and was refused. Reload Mentat's page and try again.",
            )
                .into_response()
        }
    }
}

fn verdict(allowed: &AllowedOrigins, request: &Request<Body>) -> Result<(), &'static str> {
    let headers = request.headers();
    if let Some(site) = headers.get("sec-fetch-site").and_then(|v| v.to_str().ok()) {
        // "none" is a navigation the user typed or bookmarked; "same-origin" is ours.
        if site != "same-origin" && site != "none" {
            return Err("Sec-Fetch-Site is not same-origin");
        }
    }
    let Some(origin) = headers.get(header::ORIGIN).and_then(|v| v.to_str().ok()) else {
        return Ok(());
    };
    let origin = origin.trim_end_matches('/');
    if allowed.0.is_empty() {
        let host = headers
            .get(header::HOST)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default();
        let origin_host = origin.split_once("://").map_or(origin, |(_, rest)| rest);
        if !host.is_empty() && origin_host.eq_ignore_ascii_case(host) {
            return Ok(());
        }
        return Err("Origin differs from Host");
    }
    if allowed
        .0
        .iter()
        .any(|a| a.trim_end_matches('/').eq_ignore_ascii_case(origin))
    {
        Ok(())
    } else {
        Err("Origin is not a configured site")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn post(headers: &[(&str, &str)]) -> Request<Body> {
        let mut builder = Request::post("/api/anything");
        for (k, v) in headers {
            builder = builder.header(*k, *v);
        }
        builder.body(Body::empty()).expect("request")
    }

    #[test]
    fn same_origin_passes_and_cross_origin_fails() {
        let any = AllowedOrigins::default();
        assert!(
            verdict(
                &any,
                &post(&[
                    ("host", "127.0.0.1:3000"),
                    ("origin", "http://127.0.0.1:3000")
                ])
            )
            .is_ok()
        );
        assert!(
            verdict(
                &any,
                &post(&[
                    ("host", "127.0.0.1:3000"),
                    ("origin", "https://evil.example")
                ])
            )
            .is_err()
        );
        assert!(verdict(&any, &post(&[("sec-fetch-site", "cross-site")])).is_err());
        assert!(verdict(&any, &post(&[("sec-fetch-site", "same-site")])).is_err());
        assert!(
            verdict(&any, &post(&[])).is_ok(),
            "non-browser clients send neither header"
        );
    }

    #[test]
    fn configured_origins_are_matched_exactly() {
        let site = AllowedOrigins(vec!["https://mentat.example.org".into()]);
        assert!(verdict(&site, &post(&[("origin", "https://mentat.example.org")])).is_ok());
        assert!(verdict(&site, &post(&[("origin", "http://mentat.example.org")])).is_err());
    }
}
