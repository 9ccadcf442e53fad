//! A small HTTP/1.1 client over a real TCP connection (hyper's connection API): one request per
//! connection, with a time limit, as a phone on the hall's Wi-Fi would make it.

use std::{net::SocketAddr, time::Duration};

use axum::http::{HeaderMap, Request, header};
use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper_util::rt::TokioIo;

/// What came back.
#[derive(Debug)]
pub struct Reply {
    pub status: u16,
    pub headers: HeaderMap,
    pub body: Bytes,
}

impl Reply {
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    pub fn session_cookie(&self) -> Option<String> {
        self.headers
            .get_all(header::SET_COOKIE)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .find(|v| v.starts_with("mentat_session="))
            .and_then(|v| v.split(';').next())
            .map(str::to_owned)
    }
}

/// Every request is answered, or failed, within this long.
pub const LIMIT: Duration = Duration::from_secs(20);

pub async fn send(addr: SocketAddr, request: Request<Full<Bytes>>) -> Result<Reply, String> {
    let exchange = async {
        let stream = tokio::net::TcpStream::connect(addr)
            .await
            .map_err(|e| format!("connect: {e}"))?;
        let (mut sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
            .await
            .map_err(|e| format!("handshake: {e}"))?;
        tokio::spawn(connection);
        let response = sender
            .send_request(request)
            .await
            .map_err(|e| format!("request: {e}"))?;
        let status = response.status().as_u16();
        let headers = response.headers().clone();
        let body = response
            .into_body()
            .collect()
            .await
            .map_err(|e| format!("body: {e}"))?
            .to_bytes();
        Ok(Reply {
            status,
            headers,
            body,
        })
    };
    tokio::time::timeout(LIMIT, exchange)
        .await
        .map_err(|_| format!("no answer within {LIMIT:?}"))?
}

pub async fn get(addr: SocketAddr, path: &str, cookie: Option<&str>) -> Result<Reply, String> {
    let mut request = Request::get(path).header(header::HOST, addr.to_string());
    if let Some(cookie) = cookie {
        request = request.header(header::COOKIE, cookie);
    }
    send(
        addr,
        request.body(Full::new(Bytes::new())).expect("request"),
    )
    .await
}

/// A form POST to a server function, as the page sends it.
pub async fn post(
    addr: SocketAddr,
    path: &str,
    body: String,
    cookie: Option<&str>,
) -> Result<Reply, String> {
    let mut request = Request::post(path)
        .header(header::HOST, addr.to_string())
        .header(header::ORIGIN, format!("http://{addr}"))
        .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
        .header(header::ACCEPT, "application/json");
    if let Some(cookie) = cookie {
        request = request.header(header::COOKIE, cookie);
    }
    send(
        addr,
        request.body(Full::new(Bytes::from(body))).expect("request"),
    )
    .await
}

/// A POST with any body and content type (or none), from Mentat's own origin, for the fuzz
/// test of every server function.
pub async fn post_raw(
    addr: SocketAddr,
    path: &str,
    content_type: Option<&str>,
    body: Bytes,
    cookie: Option<&str>,
) -> Result<Reply, String> {
    let mut request = Request::post(path)
        .header(header::HOST, addr.to_string())
        .header(header::ORIGIN, format!("http://{addr}"))
        .header(header::ACCEPT, "application/json");
    if let Some(content_type) = content_type {
        request = request.header(header::CONTENT_TYPE, content_type);
    }
    if let Some(cookie) = cookie {
        request = request.header(header::COOKIE, cookie);
    }
    send(addr, request.body(Full::new(body)).expect("request")).await
}
