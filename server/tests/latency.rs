//! The latency floor: no response on a keep-alive connection waits for a delayed ACK.
//!
//! A response that leaves in pieces (headers, then a gzip'd body in chunks) on a connection with
//! Nagle's algorithm on waits for the client's ACK of the first piece, and clients delay ACKs by
//! up to 40 ms: 44 ms per request where 1 ms would do. `mentat serve` sets TCP_NODELAY on every
//! connection. This asks for a compressed static file 100 times, one after another, on one
//! keep-alive connection of a real server on 127.0.0.1: with the delay that takes seconds,
//! without it a small fraction of one. The bound is generous (one second) on purpose: this
//! proves the floor is gone, it does not time the server.

use std::time::{Duration, Instant};

use axum::http::{Request, header};
use http_body_util::{BodyExt, Empty};
use hyper::body::Bytes;
use hyper_util::rt::TokioIo;
use server::config::WebConfig;
use sqlx::PgPool;

#[sqlx::test(migrator = "server::database::MIGRATOR")]
async fn a_hundred_compressed_files_on_one_connection_take_well_under_a_second(pool: PgPool) {
    let site = std::env::temp_dir().join(format!("mentat-latency-{}", std::process::id()));
    std::fs::create_dir_all(site.join("pkg")).expect("site folder");
    // Mentat's own stylesheet, with its gzip copy beside it as a release build makes it.
    let css = include_str!("../../style/main.css");
    std::fs::write(site.join("pkg/mentat.css"), css).expect("stylesheet");
    let mut gzip = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    std::io::Write::write_all(&mut gzip, css.as_bytes()).expect("gzip");
    std::fs::write(site.join("pkg/mentat.css.gz"), gzip.finish().expect("gzip")).expect("copy");

    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("address");
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let site_root = site.to_string_lossy().into_owned();
    let served = tokio::spawn(async move {
        server::commands::serve::serve(listener, pool, &site_root, &WebConfig::local(), async {
            let _ = stopped.await;
        })
        .await
    });

    let stream = tokio::net::TcpStream::connect(addr).await.expect("connect");
    let (mut sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
        .await
        .expect("handshake");
    let connection = tokio::spawn(connection);
    let get = || {
        Request::get("/pkg/mentat.css")
            .header(header::HOST, addr.to_string())
            .header(header::ACCEPT_ENCODING, "gzip")
            .body(Empty::<Bytes>::new())
            .expect("request")
    };
    // The first request warms up the file system and the router.
    let first = sender.send_request(get()).await.expect("answer");
    assert_eq!(first.status(), 200);
    assert_eq!(first.headers()[header::CONTENT_ENCODING], "gzip");
    first.into_body().collect().await.expect("body");

    let started = Instant::now();
    for _ in 0..100 {
        sender.ready().await.expect("the connection is kept alive");
        let response = sender.send_request(get()).await.expect("answer");
        assert_eq!(response.status(), 200);
        let body = response
            .into_body()
            .collect()
            .await
            .expect("body")
            .to_bytes();
        assert!(!body.is_empty());
    }
    let took = started.elapsed();
    eprintln!("100 compressed files on one connection: {took:?}");
    assert!(
        took < Duration::from_secs(1),
        "100 requests on one connection took {took:?}: something waits for a delayed ACK"
    );

    drop(sender);
    let _ = connection.await;
    let _ = stop.send(());
    let _ = served.await;
    let _ = std::fs::remove_dir_all(site);
}
