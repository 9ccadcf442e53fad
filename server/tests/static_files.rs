//! Static files as a release serves them: names with their content's hash, linked by the pages,
//! sent precompressed (brotli or gzip, as the browser accepts) with their length, a strong ETag
//! and a year's caching; public files for five minutes. A test binary of its own: the site's
//! names are fixed once per process (`app::assets`).

use axum::{
    body::Body,
    http::{Request, StatusCode, header},
};
use server::{
    config::WebConfig,
    http::{AppState, router},
};
use sqlx::PgPool;
use tower::ServiceExt;

const CSS: &str = "body { color: #222; } /* Mentat */\n";

/// A site as `cargo leptos build --release --precompress` with `hash-files` leaves it.
fn site() -> std::path::PathBuf {
    let site = std::env::temp_dir().join(format!("mentat-static-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&site);
    std::fs::create_dir_all(site.join("pkg")).expect("site folder");
    std::fs::write(site.join("hash.txt"), "js: J5h\nwasm: W4s\ncss: C55\n").expect("hashes");
    let css = site.join("pkg/mentat.C55.css");
    std::fs::write(&css, CSS).expect("stylesheet");
    std::fs::write(site.join("pkg/mentat.C55.css.br"), b"BROTLI BYTES").expect("br");
    std::fs::write(site.join("pkg/mentat.C55.css.gz"), b"GZIP BYTES!").expect("gz");
    std::fs::write(site.join("pkg/mentat.J5h.js"), "export default 1;").expect("script");
    std::fs::write(site.join("favicon.svg"), "<svg/>").expect("favicon");
    site
}

async fn get(
    app: &axum::Router,
    path: &str,
    headers: &[(&str, &str)],
) -> (StatusCode, axum::http::HeaderMap, Vec<u8>) {
    let mut request = Request::get(path).header(header::HOST, "127.0.0.1:3000");
    for (k, v) in headers {
        request = request.header(*k, *v);
    }
    let response = app
        .clone()
        .oneshot(request.body(Body::empty()).expect("request"))
        .await
        .expect("answer");
    let status = response.status();
    let headers = response.headers().clone();
    let body = axum::body::to_bytes(response.into_body(), 1 << 20)
        .await
        .expect("body")
        .to_vec();
    (status, headers, body)
}

#[sqlx::test(migrator = "server::database::MIGRATOR")]
async fn static_files_are_sent_as_built_and_kept_by_browsers(pool: PgPool) {
    let site = site();
    let root = site.to_string_lossy().into_owned();
    let state = AppState::new(
        server::commands::serve::leptos_options("127.0.0.1:3000".parse().expect("addr"), &root),
        pool,
    );
    let app = router(state, &WebConfig::local());

    // The pages link the hashed names (the stylesheet, and the hydration script's files).
    let (status, _, html) = get(&app, "/", &[]).await;
    assert_eq!(status, 200);
    let html = String::from_utf8_lossy(&html);
    assert!(html.contains("/pkg/mentat.C55.css"), "{html}");
    assert!(
        html.contains("mentat.J5h"),
        "the script by its hash: {html}"
    );
    assert!(!html.contains("/pkg/mentat.css"));

    // Brotli where the browser takes it: the file made at build time, with its length.
    let css = "/pkg/mentat.C55.css";
    let (status, headers, body) = get(&app, css, &[("accept-encoding", "gzip, deflate, br")]).await;
    assert_eq!(status, 200);
    assert_eq!(body, b"BROTLI BYTES");
    assert_eq!(headers[header::CONTENT_ENCODING], "br");
    assert_eq!(headers[header::CONTENT_LENGTH], "12");
    assert_eq!(headers[header::CONTENT_TYPE], "text/css");
    assert_eq!(
        headers[header::CACHE_CONTROL],
        "public, max-age=31536000, immutable"
    );
    assert_eq!(headers[header::VARY], "accept-encoding");
    let br_tag = headers[header::ETAG].to_str().expect("tag").to_owned();
    assert!(
        br_tag.starts_with('"') && !br_tag.starts_with("W/"),
        "strong: {br_tag}"
    );

    // gzip, and the file itself, each with a tag of its own.
    let (_, headers, body) = get(&app, css, &[("accept-encoding", "gzip")]).await;
    assert_eq!(body, b"GZIP BYTES!");
    assert_eq!(headers[header::CONTENT_ENCODING], "gzip");
    let gzip_tag = headers[header::ETAG].to_str().expect("tag").to_owned();
    let (_, headers, body) = get(&app, css, &[]).await;
    assert_eq!(body, CSS.as_bytes());
    assert!(headers.get(header::CONTENT_ENCODING).is_none());
    assert_eq!(headers[header::CONTENT_LENGTH], CSS.len().to_string());
    let plain_tag = headers[header::ETAG].to_str().expect("tag").to_owned();
    assert_ne!(br_tag, gzip_tag);
    assert_ne!(gzip_tag, plain_tag);

    // A browser that holds it is told so, with nothing sent.
    let (status, headers, body) = get(
        &app,
        css,
        &[("accept-encoding", "br"), ("if-none-match", &br_tag)],
    )
    .await;
    assert_eq!(status, StatusCode::NOT_MODIFIED);
    assert!(body.is_empty());
    assert_eq!(headers[header::ETAG], br_tag.as_str());
    // The ETag decides over the date: another version's tag gets the file.
    let (status, _, body) = get(
        &app,
        css,
        &[
            ("accept-encoding", "br"),
            ("if-none-match", "\"another\""),
            ("if-modified-since", "Fri, 01 Jan 2100 00:00:00 GMT"),
        ],
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(body, b"BROTLI BYTES");

    // Public files keep their names: five minutes, then asked again with their tag.
    let (status, headers, body) = get(&app, "/favicon.svg", &[("accept-encoding", "gzip")]).await;
    assert_eq!(status, 200);
    assert_eq!(body, b"<svg/>");
    assert_eq!(headers[header::CACHE_CONTROL], "public, max-age=300");
    assert!(headers.contains_key(header::ETAG));
    assert!(
        headers.get(header::CONTENT_ENCODING).is_none(),
        "nothing is compressed per request"
    );

    // What is not there: a plain 404 under /pkg, the not-found page elsewhere.
    let (status, headers, _) = get(&app, "/pkg/mentat.old.css", &[]).await;
    assert_eq!(status, 404);
    assert!(headers.get(header::CACHE_CONTROL).is_none());
    let (status, _, page) = get(&app, "/no-such-page", &[]).await;
    assert_eq!(status, 404);
    assert!(String::from_utf8_lossy(&page).contains("<html"));

    let _ = std::fs::remove_dir_all(site);
}
