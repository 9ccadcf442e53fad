//! Live updates across server instances: a write announces what changed with PostgreSQL's
//! NOTIFY, inside its transaction, so the news goes out only if the write commits. Every
//! instance LISTENs and passes the news to its open pages (server-sent events).

use sqlx::PgExecutor;
use tournament::ids::EventId;

/// The one channel Mentat notifies on; the payload says which event and what changed.
pub const CHANNEL: &str = "mentat_live";

/// What changed, as open pages care about it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Topic {
    /// A report became final or was corrected, or the finals changed: standings moved.
    Standings,
    /// Win attempts, a report revision or a confirmation at a table; a table's clock or seats
    /// (a round drawn, redrawn, begun or cancelled, a swap).
    Table,
}

impl Topic {
    pub fn as_str(self) -> &'static str {
        match self {
            Topic::Standings => "standings",
            Topic::Table => "table",
        }
    }

    pub fn parse(text: &str) -> Option<Topic> {
        match text {
            "standings" => Some(Topic::Standings),
            "table" => Some(Topic::Table),
            _ => None,
        }
    }
}

/// A notification as it travels: `"<event id> <topic>"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct News {
    pub event_id: EventId,
    pub topic: Topic,
}

impl News {
    pub fn payload(self) -> String {
        format!("{} {}", self.event_id, self.topic.as_str())
    }

    pub fn parse(payload: &str) -> Option<News> {
        let (id, topic) = payload.split_once(' ')?;
        Some(News {
            event_id: id.parse().ok()?,
            topic: Topic::parse(topic)?,
        })
    }
}

/// Queues the news; PostgreSQL delivers it when the surrounding transaction commits.
pub async fn notify(
    db: impl PgExecutor<'_>,
    event_id: EventId,
    topic: Topic,
) -> Result<(), sqlx::Error> {
    sqlx::query("SELECT pg_notify($1, $2)")
        .bind(CHANNEL)
        .bind(News { event_id, topic }.payload())
        .execute(db)
        .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn payloads_round_trip() {
        let news = News {
            event_id: EventId(42),
            topic: Topic::Standings,
        };
        assert_eq!(News::parse(&news.payload()), Some(news));
        assert_eq!(News::parse("x standings"), None);
        assert_eq!(News::parse("4 weather"), None);
        assert_eq!(News::parse(""), None);
    }
}
