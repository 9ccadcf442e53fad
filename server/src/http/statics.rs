//! Static files: the browser half (`/pkg/…`: stylesheet, script, wasm) and the public files
//! (the favicon, the small scripts and stylesheets of `public/`), at a static server's speed.
//!
//! Everything costly happens once, when the site is built: cargo-leptos names the stylesheet,
//! script and wasm by a hash of their content (`hash-files`; the pages link those names,
//! `app::assets`) and, for a release, writes a brotli and a gzip copy beside every file
//! (`--precompress`). tower-http's `ServeDir` sends the copy the browser accepts
//! (`Accept-Encoding`) with its `Content-Length`; nothing is compressed per request (the
//! compression layer leaves static files alone, [`NotStatic`]). On top of that every file gets
//!
//! - a strong `ETag`, from the served file's modification time, length and encoding (as nginx
//!   makes them), and `304 Not Modified` when the browser already holds it (`If-None-Match`,
//!   which takes precedence over `If-Modified-Since`);
//! - `Cache-Control: public, max-age=31536000, immutable` when its name carries its content's
//!   hash: a new build has new names, so a phone never needs to ask for it again; public files
//!   keep their names, so they get five minutes and are then checked with their `ETag`;
//! - `Vary: Accept-Encoding`, since the same address has several encodings.
//!
//! The three hashed files of the browser half are what every phone asks for at the start of a
//! round, so they are read once, when the server starts, with their precompressed copies
//! ([`preload`]), and sent from memory ([`from_memory`]): `ServeDir` opens and reads the file
//! on a blocking thread for every request, which held a stylesheet to a fraction of a static
//! server's rate. Their tag is a hash of the bytes sent. Anything else under `/pkg/` (or a
//! file missing at start) still goes to `ServeDir`.

use std::{
    collections::HashMap,
    hash::{Hash, Hasher},
    path::Path,
    sync::Arc,
};

use axum::{
    body::{Body, Bytes},
    extract::{Request, State},
    http::{HeaderValue, Method, StatusCode, header},
    middleware::Next,
    response::{IntoResponse, Response},
};
use tower_http::services::ServeDir;

/// How long a browser keeps a public file before asking again (with its `ETag`).
pub const PUBLIC_MAX_AGE: &str = "public, max-age=300";
/// Files named by their content's hash never change.
pub const IMMUTABLE: &str = "public, max-age=31536000, immutable";

/// Marks a response as a static file, so the compression layer passes it by.
#[derive(Debug, Clone, Copy)]
pub struct StaticFile;

/// The files under `site_root`, each sent precompressed when the browser accepts a copy that
/// is there; `fallback` answers for a path with no file.
pub fn files<F>(site_root: &Path, fallback: F) -> ServeDir<F> {
    ServeDir::new(site_root)
        .precompressed_br()
        .precompressed_gzip()
        .append_index_html_on_directories(false)
        .call_fallback_on_method_not_allowed(true)
        .fallback(fallback)
}

/// The fallback for `/pkg/…`: a missing file of the browser half is a plain 404.
pub async fn missing() -> StatusCode {
    StatusCode::NOT_FOUND
}

/// `files` with the caching headers of [`caching`].
pub fn cached<S>(
    files: S,
) -> impl tower::Service<
    Request,
    Response = Response,
    Error = std::convert::Infallible,
    Future: Send + 'static,
> + Clone
+ Send
+ Sync
+ 'static
where
    S: tower::Service<Request, Error = std::convert::Infallible> + Clone + Send + Sync + 'static,
    S::Response: IntoResponse,
    S::Future: Send + 'static,
{
    tower::Layer::layer(&axum::middleware::from_fn(caching), files)
}

/// Adds the caching headers to a file `ServeDir` sent, and answers `If-None-Match`.
pub async fn caching(mut request: Request, next: Next) -> Response {
    let immutable = app::assets::current().is_immutable(request.uri().path());
    let is_read = matches!(*request.method(), Method::GET | Method::HEAD);
    let if_none_match = request.headers().get(header::IF_NONE_MATCH).cloned();
    if if_none_match.is_some() {
        // The ETag decides (RFC 9110, 13.2.2): ServeDir must not answer by the date alone.
        request.headers_mut().remove(header::IF_MODIFIED_SINCE);
    }
    let mut response = next.run(request).await;
    let status = response.status();
    let from_file = status == StatusCode::NOT_MODIFIED
        || (status == StatusCode::OK && response.headers().contains_key(header::LAST_MODIFIED));
    if !is_read || !from_file {
        return response;
    }
    response.extensions_mut().insert(StaticFile);
    let headers = response.headers_mut();
    headers.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static(if immutable { IMMUTABLE } else { PUBLIC_MAX_AGE }),
    );
    headers.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
    let Some(tag) = etag(headers) else {
        return response;
    };
    let matched = if_none_match
        .as_ref()
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| matches(v, &tag));
    let Ok(tag) = HeaderValue::from_str(&tag) else {
        return response;
    };
    if matched {
        let mut not_modified = StatusCode::NOT_MODIFIED.into_response();
        let kept = not_modified.headers_mut();
        for name in [
            header::CACHE_CONTROL,
            header::VARY,
            header::LAST_MODIFIED,
            header::CONTENT_ENCODING,
        ] {
            if let Some(value) = response.headers().get(&name) {
                kept.insert(name, value.clone());
            }
        }
        kept.insert(header::ETAG, tag);
        not_modified.extensions_mut().insert(StaticFile);
        return not_modified;
    }
    response.headers_mut().insert(header::ETAG, tag);
    response
}

/// The served file's tag: its modification time, its length and its encoding, so each
/// encoding of a file, and each version of it, has its own.
fn etag(headers: &axum::http::HeaderMap) -> Option<String> {
    let modified = headers.get(header::LAST_MODIFIED)?.as_bytes();
    let length: u64 = headers
        .get(header::CONTENT_LENGTH)?
        .to_str()
        .ok()?
        .parse()
        .ok()?;
    let encoding = headers
        .get(header::CONTENT_ENCODING)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("identity");
    let mut hasher = std::hash::DefaultHasher::new();
    modified.hash(&mut hasher);
    Some(format!(
        "\"{:x}-{length:x}-{encoding}\"",
        hasher.finish() & 0xffff_ffff_ffff
    ))
}

/// The browser half's hashed files as built, by address, each in the encodings the build made.
#[derive(Clone, Default)]
pub struct Preloaded(Arc<HashMap<String, Vec<Variant>>>);

/// One encoding of a preloaded file.
struct Variant {
    /// `br`, `gzip`, or `None` for the file itself.
    encoding: Option<&'static str>,
    content_type: &'static str,
    body: Bytes,
    tag: HeaderValue,
}

/// Reads the stylesheet, script and wasm the pages link, with their `.br` and `.gz` copies,
/// when their names carry their content's hash (a development build without hashes is served
/// from the folder, where a rebuild replaces it).
pub fn preload(site_root: &Path) -> Preloaded {
    let assets = app::assets::current();
    let mut files = HashMap::new();
    for (address, content_type) in [
        (&assets.stylesheet, "text/css"),
        (&assets.script, "text/javascript"),
        (&assets.wasm, "application/wasm"),
    ] {
        if !assets.is_immutable(address) {
            continue;
        }
        let path = site_root.join(address.trim_start_matches('/'));
        let mut variants = Vec::new();
        for (suffix, encoding) in [(".br", Some("br")), (".gz", Some("gzip")), ("", None)] {
            let mut name = path.clone().into_os_string();
            name.push(suffix);
            let Ok(bytes) = std::fs::read(&name) else {
                continue;
            };
            let mut hasher = std::hash::DefaultHasher::new();
            bytes.hash(&mut hasher);
            let tag = format!(
                "\"{:x}-{:x}-{}\"",
                hasher.finish(),
                bytes.len(),
                encoding.unwrap_or("identity")
            );
            let Ok(tag) = HeaderValue::from_str(&tag) else {
                continue;
            };
            variants.push(Variant {
                encoding,
                content_type,
                body: Bytes::from(bytes),
                tag,
            });
        }
        // Without the file itself a browser that takes no encoding could not be answered.
        if variants.iter().any(|v| v.encoding.is_none()) {
            files.insert(address.clone(), variants);
        }
    }
    Preloaded(Arc::new(files))
}

/// Answers a read of a preloaded file from memory, in the first encoding the browser accepts
/// (brotli, gzip, the file itself), with the headers [`caching`] gives a file from the folder;
/// anything else goes on.
pub async fn from_memory(State(files): State<Preloaded>, request: Request, next: Next) -> Response {
    let is_read = matches!(*request.method(), Method::GET | Method::HEAD);
    let Some(variants) = is_read.then(|| files.0.get(request.uri().path())).flatten() else {
        return next.run(request).await;
    };
    let headers = request.headers();
    let accepted = headers
        .get(header::ACCEPT_ENCODING)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default();
    let Some(variant) = variants
        .iter()
        .find(|v| v.encoding.is_none_or(|e| accepts(accepted, e)))
    else {
        return next.run(request).await;
    };
    let held = headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .and_then(|list| variant.tag.to_str().ok().map(|tag| matches(list, tag)))
        .unwrap_or(false);
    let mut response = if held {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        let mut response = if *request.method() == Method::HEAD {
            Response::new(Body::empty())
        } else {
            Response::new(Body::from(variant.body.clone()))
        };
        let headers = response.headers_mut();
        headers.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static(variant.content_type),
        );
        headers.insert(
            header::CONTENT_LENGTH,
            HeaderValue::from(variant.body.len()),
        );
        response
    };
    let headers = response.headers_mut();
    if let Some(encoding) = variant.encoding {
        headers.insert(header::CONTENT_ENCODING, HeaderValue::from_static(encoding));
    }
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(IMMUTABLE));
    headers.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
    headers.insert(header::ETAG, variant.tag.clone());
    response.extensions_mut().insert(StaticFile);
    response
}

/// Whether an `Accept-Encoding` list takes `encoding` (named, or `*`, and not at `q=0`).
fn accepts(list: &str, encoding: &str) -> bool {
    list.split(',').any(|item| {
        let mut parts = item.split(';');
        let name = parts.next().unwrap_or_default().trim();
        let refused = parts.any(|p| {
            p.trim()
                .strip_prefix("q=")
                .and_then(|q| q.trim().parse::<f32>().ok())
                .is_some_and(|q| q <= 0.0)
        });
        (name.eq_ignore_ascii_case(encoding) || name == "*") && !refused
    })
}

/// Whether an `If-None-Match` list names `tag` (or is `*`). Weak comparison, as RFC 9110 asks
/// for this header: a `W/` prefix is ignored.
fn matches(list: &str, tag: &str) -> bool {
    list.split(',')
        .map(|t| t.trim())
        .any(|t| t == "*" || t.trim_start_matches("W/") == tag)
}

/// Compress what asks for it, except static files: they are sent as built, precompressed.
#[derive(Debug, Clone, Copy)]
pub struct NotStatic;

impl tower_http::compression::Predicate for NotStatic {
    fn should_compress<B>(&self, response: &axum::http::Response<B>) -> bool
    where
        B: axum::body::HttpBody,
    {
        response.extensions().get::<StaticFile>().is_none()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accept_encoding_lists_are_read_with_their_weights() {
        assert!(accepts("gzip, deflate, br", "br"));
        assert!(accepts("gzip;q=1.0, br;q=0.5", "br"));
        assert!(!accepts("gzip, br;q=0", "br"));
        assert!(accepts("*", "gzip"));
        assert!(!accepts("", "gzip"));
        assert!(!accepts("identity", "br"));
    }

    #[test]
    fn if_none_match_lists_are_read_as_browsers_send_them() {
        let tag = "\"abc-10-br\"";
        assert!(matches("\"abc-10-br\"", tag));
        assert!(matches("\"x\", W/\"abc-10-br\"", tag));
        assert!(matches("*", tag));
        assert!(!matches("\"abc-10-gzip\"", tag));
    }

    #[test]
    fn each_encoding_and_version_of_a_file_has_its_own_tag() {
        let tagged =
            |modified: &'static str, length: &'static str, encoding: Option<&'static str>| {
                let mut headers = axum::http::HeaderMap::new();
                headers.insert(header::LAST_MODIFIED, HeaderValue::from_static(modified));
                headers.insert(header::CONTENT_LENGTH, HeaderValue::from_static(length));
                if let Some(e) = encoding {
                    headers.insert(header::CONTENT_ENCODING, HeaderValue::from_static(e));
                }
                etag(&headers).expect("a tag")
            };
        let monday = "Mon, 23 Nov 2026 10:00:00 GMT";
        let base = tagged(monday, "100", None);
        assert_eq!(base, tagged(monday, "100", None), "stable");
        assert!(base.starts_with('"') && base.ends_with('"') && !base.starts_with("W/"));
        assert_ne!(base, tagged(monday, "100", Some("br")));
        assert_ne!(base, tagged(monday, "101", None));
        assert_ne!(base, tagged("Tue, 24 Nov 2026 10:00:00 GMT", "100", None));
    }
}
