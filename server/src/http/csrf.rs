//! Cross-site request forgery: nothing changes state on GET, and every other method must come
//! from Mentat's own pages. Browsers say where a request comes from (`Sec-Fetch-Site`,
//! `Origin`, `Referer`), and a page of another site cannot change what they say. A
//! state-changing request is accepted when
//!
//! - it carries an API token (`Authorization: Bearer …`): the token is the credential, and
//!   another site's page cannot set that header (Mentat grants no cross-origin requests);
//! - otherwise its `Origin` is one of Mentat's public addresses (or, when none is configured, the
//!   request's own host) and `Sec-Fetch-Site`, when sent, does not say another site;
//! - or, without an `Origin`, `Sec-Fetch-Site` says `same-origin`, or the `Referer` is a page of
//!   one of those addresses.
//!
//! Everything else is refused with 403, a request that names no origin at all included, as the
//! frameworks that do CSRF by origin do: such a request cannot show it came from Mentat's page.
//! Command-line clients send an API token, or the `Origin` of the address they call. One
//! exception: a request that carries no cookie at all to the JSON API or to the log check
//! (`/api/verify`, which reads a log and saves nothing) has no credentials a browser could have
//! added, so it goes on to the endpoint's own answer (the API's 401, "send a token"; the
//! verdict on the log).

use axum::{
    body::Body,
    extract::{Request, State},
    http::{HeaderMap, Method, StatusCode, Uri, header},
    middleware::Next,
    response::{IntoResponse, Response},
};

/// The origins Mentat is served from, e.g. `https://mentat.example.org`. Empty means "the
/// request's own Host", which is right for a single address behind no proxy.
#[derive(Debug, Clone, Default)]
pub struct AllowedOrigins(pub Vec<String>);

/// Why a request was refused, for the log and the answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Refusal {
    /// The browser said another site sent it.
    CrossSite(&'static str),
    /// Nothing in the request says which page sent it.
    Unnamed,
}

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
        Err(refusal) => {
            let (why, message) = match refusal {
                Refusal::CrossSite(why) => (
                    why,
                    "This request came from another site and was refused. Reload Mentat's page and try again.",
                ),
                Refusal::Unnamed => (
                    "no Origin, Sec-Fetch-Site or Referer of Mentat's",
                    "This request did not say which page sent it, so it was refused. Reload Mentat's page and try again; a script sends an API token (Authorization: Bearer) or the Origin header of Mentat's address.",
                ),
            };
            tracing::warn!(method = %request.method(), path = %request.uri().path(), why, "refused a state-changing request");
            (StatusCode::FORBIDDEN, message).into_response()
        }
    }
}

fn verdict(allowed: &AllowedOrigins, request: &Request<Body>) -> Result<(), Refusal> {
    let headers = request.headers();
    if has_bearer_token(headers) {
        return Ok(());
    }
    let fetch_site = headers.get("sec-fetch-site").and_then(|v| v.to_str().ok());
    if let Some(site) = fetch_site
        && site != "same-origin"
        && site != "none"
    {
        // "none" is a navigation the user typed or bookmarked; "same-origin" is ours.
        return Err(Refusal::CrossSite("Sec-Fetch-Site is not same-origin"));
    }
    if let Some(origin) = headers.get(header::ORIGIN) {
        let origin = origin.to_str().unwrap_or_default();
        return if is_ours(allowed, headers, origin) {
            Ok(())
        } else if allowed.0.is_empty() {
            Err(Refusal::CrossSite("Origin differs from Host"))
        } else {
            Err(Refusal::CrossSite("Origin is not a configured site"))
        };
    }
    if fetch_site == Some("same-origin") {
        return Ok(());
    }
    match headers
        .get(header::REFERER)
        .and_then(|v| v.to_str().ok())
        .and_then(origin_of)
    {
        Some(origin) if is_ours(allowed, headers, &origin) => Ok(()),
        Some(_) => Err(Refusal::CrossSite("Referer is not a page of Mentat's")),
        None if answers_for_itself(request.uri().path())
            && !headers.contains_key(header::COOKIE) =>
        {
            Ok(())
        }
        None => Err(Refusal::Unnamed),
    }
}

/// Endpoints where a request without credentials is no forgery: the JSON API (which then asks
/// for a token) and the log check, which changes nothing (`app::gamelog::verify`).
fn answers_for_itself(path: &str) -> bool {
    path.starts_with(super::api::BASE) || path == VERIFY
}

/// The log check's address (`#[server(endpoint = "verify")]` under `/api`).
const VERIFY: &str = "/api/verify";

/// `Authorization: Bearer …`, whatever the token (a bad one is refused with 401 further in).
fn has_bearer_token(headers: &HeaderMap) -> bool {
    headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().split_once(' '))
        .is_some_and(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
}

/// The origin (`scheme://host[:port]`) of an absolute address such as a `Referer`.
fn origin_of(address: &str) -> Option<String> {
    let uri: Uri = address.parse().ok()?;
    let scheme = uri.scheme_str()?;
    let authority = uri.authority()?;
    // A Referer never carries credentials; an address with them is not one of ours.
    if authority.as_str().contains('@') {
        return None;
    }
    Some(format!("{scheme}://{authority}"))
}

/// Whether `origin` is one of Mentat's public addresses, or the request's own host when none is
/// configured.
fn is_ours(allowed: &AllowedOrigins, headers: &HeaderMap, origin: &str) -> bool {
    let origin = origin.trim_end_matches('/');
    if allowed.0.is_empty() {
        let host = headers
            .get(header::HOST)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default();
        let origin_host = origin.split_once("://").map_or(origin, |(_, rest)| rest);
        return !host.is_empty() && origin_host.eq_ignore_ascii_case(host);
    }
    allowed
        .0
        .iter()
        .any(|a| a.trim_end_matches('/').eq_ignore_ascii_case(origin))
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

    const HOST: (&str, &str) = ("host", "127.0.0.1:3000");

    #[test]
    fn same_origin_passes_and_cross_origin_fails() {
        let any = AllowedOrigins::default();
        assert!(verdict(&any, &post(&[HOST, ("origin", "http://127.0.0.1:3000")])).is_ok());
        assert!(verdict(&any, &post(&[HOST, ("origin", "https://evil.example")])).is_err());
        assert!(verdict(&any, &post(&[HOST, ("origin", "null")])).is_err());
        assert!(
            verdict(
                &any,
                &post(&[
                    HOST,
                    ("origin", "http://127.0.0.1:3000"),
                    ("sec-fetch-site", "cross-site")
                ])
            )
            .is_err()
        );
        assert!(verdict(&any, &post(&[HOST, ("sec-fetch-site", "cross-site")])).is_err());
        assert!(verdict(&any, &post(&[HOST, ("sec-fetch-site", "same-site")])).is_err());
    }

    #[test]
    fn without_an_origin_the_browser_or_the_referer_must_vouch_for_the_page() {
        let any = AllowedOrigins::default();
        assert_eq!(
            verdict(&any, &post(&[HOST])),
            Err(Refusal::Unnamed),
            "a request that names no origin at all is refused"
        );
        assert!(verdict(&any, &post(&[HOST, ("sec-fetch-site", "same-origin")])).is_ok());
        assert!(verdict(&any, &post(&[HOST, ("sec-fetch-site", "none")])).is_err());
        assert!(
            verdict(
                &any,
                &post(&[HOST, ("referer", "http://127.0.0.1:3000/events/x/run?p=1")])
            )
            .is_ok()
        );
        assert!(
            verdict(
                &any,
                &post(&[HOST, ("referer", "http://evil.example/?127.0.0.1:3000")])
            )
            .is_err()
        );
        assert!(
            verdict(
                &any,
                &post(&[HOST, ("referer", "http://127.0.0.1:3000@evil.example/")])
            )
            .is_err()
        );
        assert!(verdict(&any, &post(&[HOST, ("referer", "not an address")])).is_err());
        let site = AllowedOrigins(vec!["https://mentat.example.org".into()]);
        assert!(
            verdict(
                &site,
                &post(&[("referer", "https://mentat.example.org/events/x")])
            )
            .is_ok()
        );
        assert!(
            verdict(
                &site,
                &post(&[("referer", "http://mentat.example.org/events/x")])
            )
            .is_err()
        );
    }

    #[test]
    fn the_json_api_without_credentials_answers_for_itself() {
        let any = AllowedOrigins::default();
        let api = |headers: &[(&str, &str)]| {
            let mut builder = Request::post("/api/v1/events/x/players");
            for (k, v) in headers {
                builder = builder.header(*k, *v);
            }
            builder.body(Body::empty()).expect("request")
        };
        assert!(
            verdict(&any, &api(&[HOST])).is_ok(),
            "401 from the API itself"
        );
        assert_eq!(
            verdict(&any, &api(&[HOST, ("cookie", "mentat_session=x")])),
            Err(Refusal::Unnamed),
            "a browser's cookie needs a browser's origin"
        );
        assert_eq!(verdict(&any, &post(&[HOST])), Err(Refusal::Unnamed));
        let verify = |headers: &[(&str, &str)]| {
            let mut builder = Request::post(VERIFY);
            for (k, v) in headers {
                builder = builder.header(*k, *v);
            }
            builder.body(Body::empty()).expect("request")
        };
        assert!(
            verdict(&any, &verify(&[HOST])).is_ok(),
            "a plain curl may check a log"
        );
        assert_eq!(
            verdict(&any, &verify(&[HOST, ("cookie", "mentat_session=x")])),
            Err(Refusal::Unnamed)
        );
    }

    #[test]
    fn an_api_token_vouches_for_itself() {
        let any = AllowedOrigins::default();
        assert!(verdict(&any, &post(&[HOST, ("authorization", "Bearer mentat_x")])).is_ok());
        assert!(verdict(&any, &post(&[HOST, ("authorization", "bearer mentat_x")])).is_ok());
        assert!(
            verdict(
                &any,
                &post(&[HOST, ("authorization", "Basic YWRtaW46eA==")])
            )
            .is_err(),
            "credentials a browser may add by itself do not"
        );
    }

    #[test]
    fn configured_origins_are_matched_exactly() {
        let site = AllowedOrigins(vec!["https://mentat.example.org".into()]);
        assert!(verdict(&site, &post(&[("origin", "https://mentat.example.org")])).is_ok());
        assert!(verdict(&site, &post(&[("origin", "http://mentat.example.org")])).is_err());
    }
}
