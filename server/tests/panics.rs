//! A handler that panics answers 500 in its caller's form, and the connection stays open: the
//! routes here panic on purpose (they exist in this test only, added with `router_with`).

use std::net::SocketAddr;

use axum::{
    Router,
    http::{Request, header},
    routing::{get, post},
};
use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper_util::rt::TokioIo;
use server::{
    config::WebConfig,
    http::{AppState, router_with},
};
use sqlx::PgPool;

async fn page_with_a_bug() -> &'static str {
    panic!("a bug in a page")
}

async fn server_function_with_a_bug() -> &'static str {
    panic!("a bug in a server function")
}

#[sqlx::test(migrator = "server::database::MIGRATOR")]
async fn a_panicking_handler_answers_500_and_keeps_the_connection(pool: PgPool) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("address");
    let state = AppState::new(
        server::commands::serve::leptos_options(addr, "target/site"),
        pool,
    );
    let extra = Router::new()
        .route("/test-only/panics", get(page_with_a_bug))
        .route("/api/test_only_panics", post(server_function_with_a_bug));
    let app = router_with(state, &WebConfig::local(), extra)
        .into_make_service_with_connect_info::<SocketAddr>();
    let served = tokio::spawn(async move { axum::serve(listener, app).await });

    let stream = tokio::net::TcpStream::connect(addr).await.expect("connect");
    let (mut sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
        .await
        .expect("handshake");
    let connection = tokio::spawn(connection);
    let host = addr.to_string();

    // A page: a short page that says so, not a dropped connection.
    let response = sender
        .send_request(
            Request::get("/test-only/panics")
                .header(header::HOST, &host)
                .body(Full::new(Bytes::new()))
                .expect("request"),
        )
        .await
        .expect("answered, not dropped");
    assert_eq!(response.status(), 500);
    assert!(
        response.headers()[header::CONTENT_TYPE]
            .to_str()
            .expect("text")
            .starts_with("text/html")
    );
    let page = response
        .into_body()
        .collect()
        .await
        .expect("body")
        .to_bytes();
    let page = String::from_utf8_lossy(&page);
    assert!(page.contains("Something went wrong"), "{page}");
    assert!(
        !page.contains("a bug in a page"),
        "the panic's text stays in the log"
    );

    // The same connection still serves.
    sender.ready().await.expect("the connection is kept");
    let response = sender
        .send_request(
            Request::get("/healthz")
                .header(header::HOST, &host)
                .body(Full::new(Bytes::new()))
                .expect("request"),
        )
        .await
        .expect("answered");
    assert_eq!(response.status(), 200);
    response.into_body().collect().await.expect("body");

    // A server function: the JSON error the page shows at its form.
    sender.ready().await.expect("the connection is kept");
    let response = sender
        .send_request(
            Request::post("/api/test_only_panics")
                .header(header::HOST, &host)
                .header(header::ORIGIN, format!("http://{host}"))
                .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
                .body(Full::new(Bytes::from_static(b"a=1")))
                .expect("request"),
        )
        .await
        .expect("answered, not dropped");
    assert_eq!(response.status(), 500);
    let body = response
        .into_body()
        .collect()
        .await
        .expect("body")
        .to_bytes();
    let error: serde_json::Value = serde_json::from_slice(&body).expect("JSON");
    assert!(
        error["Internal"]
            .as_str()
            .is_some_and(|m| m.contains("Something went wrong")),
        "{error}"
    );
    let decoded: app::error::AppError = serde_json::from_value(error).expect("an AppError");
    assert!(matches!(decoded, app::error::AppError::Internal(_)));

    sender.ready().await.expect("the connection is kept");
    let response = sender
        .send_request(
            Request::get("/healthz")
                .header(header::HOST, &host)
                .body(Full::new(Bytes::new()))
                .expect("request"),
        )
        .await
        .expect("answered");
    assert_eq!(response.status(), 200);
    drop(sender);
    let _ = connection.await;
    served.abort();
}
