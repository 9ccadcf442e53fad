//! Live updates: each instance LISTENs on PostgreSQL's channel and passes what it hears to the
//! pages open on it, as server-sent events (`GET /events/{slug}/live`).
//!
//! A write anywhere (any instance, the command line) NOTIFYs inside its transaction
//! (`db::live::notify`); PostgreSQL delivers the news to every instance's listener, and each
//! instance fans it out to its own open pages. Nothing here is state another instance needs:
//! a page that reconnects to a different instance misses nothing it could not refetch.

use std::{collections::VecDeque, convert::Infallible, time::Duration};

use axum::{
    extract::{Path, State},
    http::{HeaderValue, StatusCode, header},
    response::{
        IntoResponse, Response,
        sse::{Event, KeepAlive, Sse},
    },
};
use db::live::{CHANNEL, News, Topic};
use sqlx::{PgPool, postgres::PgListener};
use tokio::sync::{broadcast, watch};

use super::{AppState, cache::PageCache};

/// How often an idle stream sends a comment, so proxies and phones keep the connection open.
pub const KEEP_ALIVE: Duration = Duration::from_secs(15);
/// Retry delays after the listener's connection fails: doubling from the first to the last,
/// which is short: the page cache waits for the listener, and Mentat should be whole again
/// within seconds of PostgreSQL.
const BACKOFF_FIRST: Duration = Duration::from_millis(250);
const BACKOFF_LAST: Duration = Duration::from_secs(2);
/// News waiting for a slow page before it is told it missed some (and refetches).
const BUFFER: usize = 256;

/// What the hub tells the open pages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Signal {
    News(News),
    /// The listener lost its connection and is back: news may have been missed meanwhile, so
    /// every page refetches.
    Resync,
}

/// The fan-out: a broadcast of what the listener hears, and a switch that ends every stream
/// when the server shuts down (a graceful shutdown waits for open connections, and an event
/// stream never ends by itself).
#[derive(Clone)]
pub struct Hub {
    news: broadcast::Sender<Signal>,
    closing: watch::Sender<bool>,
    /// Pages rendered once for many phones; the news drops them.
    pages: PageCache,
}

impl Default for Hub {
    fn default() -> Self {
        Self::new()
    }
}

impl Hub {
    /// A hub that hears nothing until [`listen`] runs for it.
    pub fn new() -> Self {
        let (news, _) = broadcast::channel(BUFFER);
        let (closing, _) = watch::channel(false);
        Self {
            news,
            closing,
            pages: PageCache::new(),
        }
    }

    /// The cache of pages this hub's news keeps fresh.
    pub fn pages(&self) -> PageCache {
        self.pages.clone()
    }

    pub fn subscribe(&self) -> broadcast::Receiver<Signal> {
        self.news.subscribe()
    }

    /// Passes a signal to every open stream (the listener does this; tests may too).
    pub fn send(&self, signal: Signal) {
        // No open page is not an error.
        let _ = self.news.send(signal);
    }

    /// Ends every open stream, now and from now on.
    pub fn close(&self) {
        self.closing.send_replace(true);
    }

    /// Listens in a task of its own, until the pool closes or the task is aborted.
    pub fn spawn_listener(&self, pool: PgPool) -> tokio::task::JoinHandle<()> {
        tokio::spawn(listen(pool, self.clone()))
    }
}

/// LISTENs on [`CHANNEL`] and broadcasts each notification. A lost connection is reopened with
/// a doubling back-off; once it is back the pages are told to refetch, because notifications
/// sent meanwhile are gone.
pub async fn listen(pool: PgPool, hub: Hub) {
    let mut backoff = BACKOFF_FIRST;
    let mut reconnecting = false;
    loop {
        let mut listener = match connect(&pool).await {
            Ok(listener) => listener,
            Err(sqlx::Error::PoolClosed) => {
                hub.pages.set_listening(false);
                return;
            }
            Err(e) => {
                hub.pages.set_listening(false);
                tracing::warn!(error = %e, retry_in = ?backoff, "live updates: cannot LISTEN");
                tokio::time::sleep(backoff).await;
                backoff = (backoff * 2).min(BACKOFF_LAST);
                reconnecting = true;
                continue;
            }
        };
        // From now on nothing is missed: pages may be cached (and what was, is dropped).
        hub.pages.set_listening(true);
        if reconnecting {
            tracing::info!("live updates: listening again");
            hub.send(Signal::Resync);
        }
        backoff = BACKOFF_FIRST;
        reconnecting = true;
        loop {
            match listener.try_recv().await {
                Ok(Some(note)) => match News::parse(note.payload()) {
                    Some(news) => {
                        // The cache first: a page that refetches on this news must not get
                        // the copy from before it.
                        hub.pages
                            .invalidate(news.event_id.get(), news.topic == Topic::Standings);
                        hub.send(Signal::News(news));
                    }
                    None => {
                        tracing::warn!(payload = note.payload(), "live updates: unreadable");
                        hub.pages.invalidate_all();
                    }
                },
                // The connection dropped and sqlx has already reopened it (and LISTENs again).
                Ok(None) => {
                    tracing::warn!("live updates: connection lost and reopened");
                    hub.pages.invalidate_all();
                    hub.send(Signal::Resync);
                }
                Err(sqlx::Error::PoolClosed) => {
                    hub.pages.set_listening(false);
                    return;
                }
                Err(e) => {
                    tracing::warn!(error = %e, "live updates: listener failed");
                    hub.pages.set_listening(false);
                    break;
                }
            }
        }
    }
}

async fn connect(pool: &PgPool) -> Result<PgListener, sqlx::Error> {
    let mut listener = PgListener::connect_with(pool).await?;
    listener.listen(CHANNEL).await?;
    Ok(listener)
}

fn event(topic: Topic) -> Event {
    Event::default().event(topic.as_str()).data(topic.as_str())
}

/// `GET /events/{slug}/live`: the event's news as server-sent events, `event: standings` or
/// `event: table`, with a comment every 15 s while nothing happens.
pub async fn stream(State(state): State<AppState>, Path(slug): Path<String>) -> Response {
    let event_id = match db::events::by_slug(&state.pool, &slug).await {
        Ok(Some(event)) => event.id,
        Ok(None) => {
            return (StatusCode::NOT_FOUND, "No event lives at this address.").into_response();
        }
        Err(e) => {
            tracing::error!(error = %e, "live updates: loading the event");
            return StatusCode::INTERNAL_SERVER_ERROR.into_response();
        }
    };
    let news = state.live.subscribe();
    let closing = state.live.closing.subscribe();
    let pending: VecDeque<Topic> = VecDeque::new();
    let events = futures_util::stream::unfold(
        (news, closing, pending),
        move |(mut news, mut closing, mut pending)| async move {
            loop {
                if let Some(topic) = pending.pop_front() {
                    return Some((Ok::<_, Infallible>(event(topic)), (news, closing, pending)));
                }
                tokio::select! {
                    _ = closing.wait_for(|closed| *closed) => return None,
                    signal = news.recv() => match signal {
                        Ok(Signal::News(n)) if n.event_id == event_id => pending.push_back(n.topic),
                        Ok(Signal::News(_)) => {}
                        // Missed news: whatever it was, the page refetches everything.
                        Ok(Signal::Resync) | Err(broadcast::error::RecvError::Lagged(_)) => {
                            pending.extend([Topic::Standings, Topic::Table]);
                        }
                        Err(broadcast::error::RecvError::Closed) => return None,
                    },
                }
            }
        },
    );
    let mut response = Sse::new(events)
        .keep_alive(KeepAlive::new().interval(KEEP_ALIVE))
        .into_response();
    // Proxies such as nginx buffer responses unless told otherwise; news must not wait.
    response
        .headers_mut()
        .insert("x-accel-buffering", HeaderValue::from_static("no"));
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    response
}
