//! Exports: the event's data as rows an organiser takes into a spreadsheet or a script, in CSV
//! or JSON (`docs/exports.md` documents every column). Each kind is one flat row type, so the
//! CSV headers and the JSON keys are the same names, derived from the same struct.
//!
//! The standings are public; everything else is for the staff ([`Kind::action`]).

mod cells;
mod rows;

use serde::Serialize;
use sqlx::PgPool;
use tournament::ids::EventId;

use crate::roles::Action;
pub use cells::neutralise;
pub use rows::*;

/// What to export.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    /// The standings with the finals line.
    Standings,
    /// Every registered player.
    Players,
    /// Seats and factions per round, byes included.
    Seats,
    /// Game reports: every revision, one row per seat, with its confirmation.
    Reports,
    /// Win attempts per turn: every revision of every turn's record.
    Attempts,
    /// The event's audit log, oldest first.
    Audit,
    /// The statistics page as rows: games, endings, win types, factions, seats, lengths.
    Statistics,
}

impl Kind {
    pub const ALL: [Kind; 7] = [
        Kind::Standings,
        Kind::Players,
        Kind::Seats,
        Kind::Reports,
        Kind::Attempts,
        Kind::Audit,
        Kind::Statistics,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Standings => "standings",
            Kind::Players => "players",
            Kind::Seats => "seats",
            Kind::Reports => "reports",
            Kind::Attempts => "attempts",
            Kind::Audit => "audit",
            Kind::Statistics => "statistics",
        }
    }

    pub fn parse(text: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.as_str() == text)
    }

    /// What it is, for the download links.
    pub fn title(self) -> &'static str {
        match self {
            Kind::Standings => "Standings with the finals line",
            Kind::Players => "Players (with email addresses)",
            Kind::Seats => "Seats and factions per round",
            Kind::Reports => "Game reports, every revision",
            Kind::Attempts => "Win attempts per turn, every revision",
            Kind::Audit => "Audit log",
            Kind::Statistics => "Statistics: endings, win types, factions, seats",
        }
    }

    /// Who may download it: the standings are public like their page; the players' list holds
    /// email addresses (the head judge's); the audit log is the organisers'; the rest is for
    /// every judge.
    pub fn action(self) -> Action {
        match self {
            // The statistics are public like their page.
            Kind::Standings | Kind::Statistics => Action::ViewPublic,
            Kind::Players => Action::RunEvent,
            Kind::Seats | Kind::Reports | Kind::Attempts => Action::ViewAllReports,
            Kind::Audit => Action::ViewAudit,
        }
    }
}

/// How to write it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    Csv,
    Json,
}

impl Format {
    pub fn parse(text: &str) -> Option<Format> {
        match text {
            "csv" => Some(Format::Csv),
            "json" => Some(Format::Json),
            _ => None,
        }
    }

    pub fn extension(self) -> &'static str {
        match self {
            Format::Csv => "csv",
            Format::Json => "json",
        }
    }

    pub fn content_type(self) -> &'static str {
        match self {
            Format::Csv => "text/csv; charset=utf-8",
            Format::Json => "application/json",
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    #[error("database error")]
    Database(#[from] sqlx::Error),
    #[error("the export could not be written: {0}")]
    Write(String),
}

/// The rows of one kind.
#[derive(Debug, Clone, PartialEq)]
pub enum Rows {
    Standings(Vec<StandingRow>),
    Players(Vec<PlayerRow>),
    Seats(Vec<SeatRow>),
    Reports(Vec<ReportRow>),
    Attempts(Vec<AttemptRow>),
    Audit(Vec<AuditRow>),
    Statistics(Vec<StatisticRow>),
}

impl Rows {
    pub fn len(&self) -> usize {
        match self {
            Rows::Standings(r) => r.len(),
            Rows::Players(r) => r.len(),
            Rows::Seats(r) => r.len(),
            Rows::Reports(r) => r.len(),
            Rows::Attempts(r) => r.len(),
            Rows::Audit(r) => r.len(),
            Rows::Statistics(r) => r.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The rows written in `format`.
    pub fn write(&self, format: Format) -> Result<Vec<u8>, ExportError> {
        match self {
            Rows::Standings(r) => write(r, format),
            Rows::Players(r) => write(r, format),
            Rows::Seats(r) => write(r, format),
            Rows::Reports(r) => write(r, format),
            Rows::Attempts(r) => write(r, format),
            Rows::Audit(r) => write(r, format),
            Rows::Statistics(r) => write(r, format),
        }
    }
}

fn write<T: Serialize + Headers>(rows: &[T], format: Format) -> Result<Vec<u8>, ExportError> {
    match format {
        Format::Json => {
            let mut out =
                serde_json::to_vec_pretty(rows).map_err(|e| ExportError::Write(e.to_string()))?;
            out.push(b'\n');
            Ok(out)
        }
        Format::Csv => cells::write_csv(rows, T::HEADERS),
    }
}

/// The CSV header of a row type, for an export with no rows (the `csv` crate writes the header
/// from the first row it serialises, so an empty export would otherwise have none).
pub trait Headers {
    const HEADERS: &'static [&'static str];
}

/// Reads one kind of the event's data.
pub async fn rows(pool: &PgPool, event_id: EventId, kind: Kind) -> Result<Rows, ExportError> {
    Ok(match kind {
        Kind::Standings => Rows::Standings(rows::standings(pool, event_id).await?),
        Kind::Players => Rows::Players(rows::players(pool, event_id).await?),
        Kind::Seats => Rows::Seats(rows::seats(pool, event_id).await?),
        Kind::Reports => Rows::Reports(rows::reports(pool, event_id).await?),
        Kind::Attempts => Rows::Attempts(rows::attempts(pool, event_id).await?),
        Kind::Audit => Rows::Audit(rows::audit(pool, event_id).await?),
        Kind::Statistics => Rows::Statistics(rows::statistics(pool, event_id).await?),
    })
}
