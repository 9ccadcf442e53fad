//! Pages a hall's phones ask for again and again, rendered once and served from memory until the
//! event's news says they changed.
//!
//! The public standings change only when a report becomes final, is corrected, or the finals
//! move, and every such write NOTIFYs inside its transaction (`db::live`). Each instance's
//! listener ([`super::live::listen`]) hears every notification, whichever instance or command
//! made the write, and drops that event's pages here before it tells the open pages; so no
//! instance serves standings older than the notification, and a second instance is never stale
//! after a report is final. While the listener is not connected (at start, or after PostgreSQL
//! went away) news may be missed, so nothing is cached then; when it is back, everything cached
//! before is dropped.
//!
//! A player's page is cached for at most [`PLAYER_PAGE_TTL`], and dropped on news and on every
//! change made through this instance: it shows the server's clock reading, which a browser counts
//! on from, and seats and clocks change without news (made through another instance, such a
//! change shows on a reloaded player's page within that second).
//!
//! Entries hold the HTML and its gzip, made once, and a strong ETag: a phone that asks again with
//! `If-None-Match` gets `304 Not Modified`.

use std::{
    collections::HashMap,
    hash::{Hash, Hasher},
    io::Write,
    sync::{
        Arc, Mutex,
        atomic::{AtomicBool, Ordering},
    },
    time::{Duration, Instant},
};

use axum::{
    body::{Body, Bytes},
    http::{HeaderMap, HeaderValue, Response, StatusCode, header},
};

/// How long a player's page may be served from memory.
pub const PLAYER_PAGE_TTL: Duration = Duration::from_secs(1);
/// How long the standings may be, at most, without news: a backstop for changes that send none
/// (an event's name).
pub const STANDINGS_TTL: Duration = Duration::from_secs(60);
/// More entries than this and the cache starts afresh: addresses with made-up query strings
/// must not fill the memory.
const MAX_ENTRIES: usize = 4096;

/// A rendered page, ready to send.
#[derive(Debug, Clone)]
pub struct Entry {
    html: Bytes,
    gzip: Bytes,
    etag: HeaderValue,
    /// Headers of the render worth repeating (its Content-Security-Policy).
    extra: Vec<(header::HeaderName, HeaderValue)>,
    cache_control: &'static str,
    stored: Instant,
    ttl: Duration,
    event_id: Option<i64>,
}

impl Entry {
    /// `html` as a page; `event_id` names the event whose news drops it (None: any news).
    pub fn new(
        html: Bytes,
        event_id: Option<i64>,
        ttl: Duration,
        cache_control: &'static str,
    ) -> Self {
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        html.hash(&mut hasher);
        // Hex digits and a number: always a valid header value.
        let etag = HeaderValue::from_str(&format!("\"{:016x}-{}\"", hasher.finish(), html.len()))
            .unwrap_or_else(|_| HeaderValue::from_static("\"unnamed\""));
        let mut encoder =
            flate2::write::GzEncoder::new(Vec::with_capacity(html.len() / 4), Default::default());
        let gzip = encoder
            .write_all(&html)
            .and_then(|()| encoder.finish())
            .map(Bytes::from)
            .unwrap_or_default();
        Self {
            html,
            gzip,
            etag,
            extra: Vec::new(),
            cache_control,
            stored: Instant::now(),
            ttl,
            event_id,
        }
    }

    pub fn with_header(mut self, name: header::HeaderName, value: HeaderValue) -> Self {
        self.extra.push((name, value));
        self
    }

    fn fresh(&self) -> bool {
        self.stored.elapsed() < self.ttl
    }

    /// The response for a request with these headers: 304 when the client holds this version,
    /// else the page, gzip'd when the client takes gzip.
    pub fn respond(&self, request: &HeaderMap) -> Response<Body> {
        let holds = request
            .get_all(header::IF_NONE_MATCH)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .any(|tag| tag.trim() == self.etag.to_str().unwrap_or_default() || tag.trim() == "*");
        let gzip = !self.gzip.is_empty()
            && request
                .get_all(header::ACCEPT_ENCODING)
                .iter()
                .filter_map(|v| v.to_str().ok())
                .any(accepts_gzip);
        let (status, body) = match (holds, gzip) {
            (true, _) => (StatusCode::NOT_MODIFIED, Bytes::new()),
            (false, true) => (StatusCode::OK, self.gzip.clone()),
            (false, false) => (StatusCode::OK, self.html.clone()),
        };
        let mut response = Response::new(Body::from(body));
        *response.status_mut() = status;
        let headers = response.headers_mut();
        headers.insert(header::ETAG, self.etag.clone());
        headers.insert(
            header::CACHE_CONTROL,
            HeaderValue::from_static(self.cache_control),
        );
        headers.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
        for (name, value) in &self.extra {
            headers.insert(name.clone(), value.clone());
        }
        if status == StatusCode::OK {
            headers.insert(
                header::CONTENT_TYPE,
                HeaderValue::from_static("text/html; charset=utf-8"),
            );
            if gzip {
                headers.insert(header::CONTENT_ENCODING, HeaderValue::from_static("gzip"));
            }
        }
        response
    }
}

/// `gzip` in an Accept-Encoding value, unless refused with `q=0`.
fn accepts_gzip(value: &str) -> bool {
    value.split(',').any(|part| {
        let mut pieces = part.split(';').map(str::trim);
        let coding = pieces.next().unwrap_or_default();
        let refused = pieces.any(|p| {
            p.strip_prefix("q=")
                .and_then(|q| q.parse::<f32>().ok())
                .is_some_and(|q| q == 0.0)
        });
        (coding.eq_ignore_ascii_case("gzip") || coding == "*") && !refused
    })
}

/// Taken before reading what a page shows; a page is stored only if no news came in between.
#[derive(Debug, Clone, Copy)]
pub struct Ticket(u64);

#[derive(Default)]
struct Inner {
    entries: HashMap<String, Entry>,
    /// Bumped by every piece of news: a render that began before it must not be stored.
    generation: u64,
    /// One render at a time per address: a hundred phones arriving at once wait for one.
    fills: HashMap<String, Arc<tokio::sync::Mutex<()>>>,
}

/// The cache, shared by an instance's handlers and its news listener.
#[derive(Clone, Default)]
pub struct PageCache {
    inner: Arc<Mutex<Inner>>,
    /// Whether this instance hears the news now; nothing is cached while it does not.
    listening: Arc<AtomicBool>,
}

impl PageCache {
    pub fn new() -> Self {
        Self::default()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    pub fn get(&self, key: &str) -> Option<Entry> {
        if !self.listening.load(Ordering::Acquire) {
            return None;
        }
        let inner = self.lock();
        inner.entries.get(key).filter(|e| e.fresh()).cloned()
    }

    pub fn ticket(&self) -> Ticket {
        Ticket(self.lock().generation)
    }

    /// Keeps `entry` unless news came since `ticket` or the listener is not connected.
    pub fn store(&self, key: String, ticket: Ticket, entry: Entry) {
        if !self.listening.load(Ordering::Acquire) {
            return;
        }
        let mut inner = self.lock();
        if inner.generation != ticket.0 {
            return;
        }
        if inner.entries.len() >= MAX_ENTRIES {
            inner.entries.clear();
        }
        inner.entries.insert(key, entry);
    }

    /// Waits for any render of `key` in progress; hold the guard while rendering.
    pub async fn fill(&self, key: &str) -> FillGuard {
        let lock = {
            let mut inner = self.lock();
            inner
                .fills
                .entry(key.to_owned())
                .or_insert_with(|| Arc::new(tokio::sync::Mutex::new(())))
                .clone()
        };
        let guard = lock.clone().lock_owned().await;
        FillGuard {
            cache: self.clone(),
            key: key.to_owned(),
            lock,
            _guard: guard,
        }
    }

    /// News about `event_id`: every page not tied to one event is dropped, and that event's
    /// pages too when its standings moved.
    pub fn invalidate(&self, event_id: i64, standings_moved: bool) {
        let mut inner = self.lock();
        inner.generation += 1;
        inner.entries.retain(|_, e| match e.event_id {
            Some(id) => !(standings_moved && id == event_id),
            None => false,
        });
    }

    /// Something changed through this instance that sends no news (a clock started, a seat
    /// swapped): the pages tied to no one event (players' pages) go.
    pub fn invalidate_untied(&self) {
        let mut inner = self.lock();
        inner.generation += 1;
        inner.entries.retain(|_, e| e.event_id.is_some());
    }

    /// News may have been missed: everything goes.
    pub fn invalidate_all(&self) {
        let mut inner = self.lock();
        inner.generation += 1;
        inner.entries.clear();
    }

    /// The listener is connected (true) or not (false). Either way, what was cached goes.
    pub fn set_listening(&self, listening: bool) {
        if self.listening.swap(listening, Ordering::AcqRel) != listening {
            self.invalidate_all();
        }
    }
}

/// Held while one request renders a page that others wait for.
pub struct FillGuard {
    cache: PageCache,
    key: String,
    lock: Arc<tokio::sync::Mutex<()>>,
    _guard: tokio::sync::OwnedMutexGuard<()>,
}

impl Drop for FillGuard {
    fn drop(&mut self) {
        let mut inner = self.cache.lock();
        // The map's reference, this guard's and the guard's own: nobody else waits.
        if Arc::strong_count(&self.lock) <= 3 {
            inner.fills.remove(&self.key);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(text: &str, event: Option<i64>) -> Entry {
        Entry::new(
            Bytes::from(text.to_owned()),
            event,
            STANDINGS_TTL,
            "no-cache",
        )
    }

    #[test]
    fn nothing_is_cached_while_the_news_is_not_heard() {
        let cache = PageCache::new();
        cache.store("a".into(), cache.ticket(), page("x", Some(1)));
        assert!(cache.get("a").is_none());
        cache.set_listening(true);
        cache.store("a".into(), cache.ticket(), page("x", Some(1)));
        assert!(cache.get("a").is_some());
        cache.set_listening(false);
        assert!(cache.get("a").is_none());
        cache.set_listening(true);
        assert!(
            cache.get("a").is_none(),
            "dropped when the listener went away"
        );
    }

    #[test]
    fn news_drops_the_events_pages_and_renders_begun_before_it() {
        let cache = PageCache::new();
        cache.set_listening(true);
        cache.store("one".into(), cache.ticket(), page("1", Some(1)));
        cache.store("two".into(), cache.ticket(), page("2", Some(2)));
        cache.invalidate(2, false);
        assert!(
            cache.get("two").is_some(),
            "a table's news leaves the standings"
        );
        cache.store("any".into(), cache.ticket(), page("p", None));
        let before = cache.ticket();
        cache.invalidate(1, true);
        assert!(cache.get("one").is_none());
        assert!(cache.get("two").is_some());
        assert!(
            cache.get("any").is_none(),
            "pages of no one event go on any news"
        );
        cache.store("one".into(), before, page("stale", Some(1)));
        assert!(
            cache.get("one").is_none(),
            "rendered from data older than the news"
        );
    }

    #[test]
    fn a_client_holding_the_version_gets_304_and_gzip_when_it_asks() {
        let entry = page(&"<p>standings</p>".repeat(100), Some(1));
        let mut headers = HeaderMap::new();
        headers.insert(
            header::ACCEPT_ENCODING,
            HeaderValue::from_static("gzip, br"),
        );
        let full = entry.respond(&headers);
        assert_eq!(full.status(), 200);
        assert_eq!(full.headers()[header::CONTENT_ENCODING], "gzip");
        let etag = full.headers()[header::ETAG].clone();
        headers.insert(header::IF_NONE_MATCH, etag);
        assert_eq!(entry.respond(&headers).status(), 304);
        assert!(accepts_gzip("deflate, gzip;q=0.5"));
        assert!(!accepts_gzip("gzip;q=0"));
        assert!(!accepts_gzip("identity"));
    }
}
