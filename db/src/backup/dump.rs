//! Reading an event into a [`Backup`].

use std::collections::{BTreeMap, HashMap};

use chrono::{DateTime, NaiveDate, Utc};
use dune::Stronghold;
use serde_json::Value;
use sqlx::{PgConnection, PgPool};
use tournament::ids::{EventId, PlayerId};

use super::format::*;
use super::{FORMAT, VERSION};
use crate::{results::reports::SeatResult, roles::Role};

/// The players' numbers in the file: 1, 2, … in the order they registered.
struct Numbers(HashMap<i64, FilePlayer>);

impl Numbers {
    fn of(&self, id: i64) -> Result<FilePlayer, sqlx::Error> {
        self.0.get(&id).copied().ok_or_else(|| {
            sqlx::Error::Decode(format!("player {id} belongs to another event").into())
        })
    }

    fn all(&self, ids: &[i64]) -> Result<Vec<FilePlayer>, sqlx::Error> {
        ids.iter().map(|id| self.of(*id)).collect()
    }
}

fn decode(error: impl std::error::Error + Send + Sync + 'static) -> sqlx::Error {
    sqlx::Error::Decode(Box::new(error))
}

type EventRow = (
    String,
    String,
    Option<NaiveDate>,
    Option<NaiveDate>,
    String,
    String,
    Value,
    i32,
    String,
    i32,
    DateTime<Utc>,
    Option<String>,
    DateTime<Utc>,
    Option<String>,
);

type PlayerRow = (
    i64,
    String,
    Option<String>,
    Option<String>,
    bool,
    bool,
    i32,
    Option<i32>,
    Option<DateTime<Utc>>,
    i32,
    DateTime<Utc>,
    Option<String>,
    Option<String>,
);

type RoundRow = (
    i64,
    i32,
    i64,
    String,
    Value,
    Value,
    Option<String>,
    DateTime<Utc>,
    Option<String>,
    Option<DateTime<Utc>>,
    i32,
    bool,
);

type TableRow = (
    i64,
    i64,
    i32,
    Option<DateTime<Utc>>,
    Option<DateTime<Utc>>,
    i64,
    i64,
    Option<DateTime<Utc>>,
    i32,
);

type AttemptRow = (
    i64,
    i16,
    i32,
    Vec<i64>,
    Value,
    Option<String>,
    Option<String>,
    DateTime<Utc>,
);

type ReportRow = (
    i64,
    i64,
    i32,
    String,
    i16,
    Value,
    Option<i64>,
    Option<String>,
    Option<String>,
    DateTime<Utc>,
    Option<DateTime<Utc>>,
    Option<String>,
    Option<Value>,
);

type FinalsRow = (
    DateTime<Utc>,
    Option<String>,
    Vec<i64>,
    Vec<i64>,
    i32,
    Option<i64>,
    Option<Vec<i64>>,
    Option<String>,
    Option<DateTime<Utc>>,
);

/// The whole event as one [`Backup`], read as one consistent picture.
pub async fn dump(pool: &PgPool, event_id: EventId) -> Result<Backup, sqlx::Error> {
    let mut tx = pool.begin().await?;
    sqlx::query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        .execute(&mut *tx)
        .await?;
    let backup = read(&mut tx, event_id).await?;
    tx.commit().await?;
    Ok(backup)
}

async fn read(db: &mut PgConnection, event_id: EventId) -> Result<Backup, sqlx::Error> {
    let (
        slug,
        name,
        starts_on,
        ends_on,
        venue,
        ruleset,
        options,
        qualifying_rounds,
        public_url,
        version,
        created_at,
        created_by,
        now,
        restored_from,
    ): EventRow = sqlx::query_as(
        "SELECT e.slug, e.name, e.starts_on, e.ends_on, e.venue, e.ruleset, e.options, \
               e.qualifying_rounds, e.public_url, e.version, e.created_at, u.username, now(), \
               e.restored_from \
             FROM events e LEFT JOIN users u ON u.id = e.created_by WHERE e.id = $1",
    )
    .bind(event_id)
    .fetch_optional(&mut *db)
    .await?
    .ok_or(sqlx::Error::RowNotFound)?;
    let staff: Vec<(String, Role, Option<String>, DateTime<Utc>)> = sqlx::query_as(
        "SELECT u.username, r.role, g.username, r.granted_at FROM event_roles r \
           JOIN users u ON u.id = r.user_id LEFT JOIN users g ON g.id = r.granted_by \
         WHERE r.event_id = $1 ORDER BY lower(u.username)",
    )
    .bind(event_id)
    .fetch_all(&mut *db)
    .await?;
    let players: Vec<PlayerRow> = sqlx::query_as(
        "SELECT p.id, p.name, p.email, p.club, p.alternate, p.checked_in, p.entered_after_round, \
           p.dropped_after_round, p.dropped_at, p.version, p.created_at, u.username, p.sort_as \
         FROM players p LEFT JOIN users u ON u.id = p.user_id WHERE p.event_id = $1 ORDER BY p.id",
    )
    .bind(event_id)
    .fetch_all(&mut *db)
    .await?;
    let numbers = Numbers(players.iter().zip(1..).map(|(p, n)| (p.0, n)).collect());
    let rounds: Vec<RoundRow> = sqlx::query_as(
        "SELECT r.id, r.number, r.seed, r.ruleset, r.options, r.quality, r.override_reason, \
           r.drawn_at, u.username, r.started_at, r.version, r.final \
         FROM rounds r LEFT JOIN users u ON u.id = r.drawn_by WHERE r.event_id = $1 ORDER BY r.number",
    )
    .bind(event_id)
    .fetch_all(&mut *db)
    .await?;
    let byes: Vec<(i64, i64)> = sqlx::query_as(
        "SELECT b.round_id, b.player_id FROM round_byes b JOIN rounds r ON r.id = b.round_id \
         WHERE r.event_id = $1 ORDER BY b.round_id, b.player_id",
    )
    .bind(event_id)
    .fetch_all(&mut *db)
    .await?;
    let tables: Vec<TableRow> = sqlx::query_as(
        "SELECT t.id, t.round_id, t.number, t.clock_started_at, t.clock_paused_at, \
           t.clock_paused_ms, t.clock_extension_ms, t.reported_at, t.version \
         FROM game_tables t JOIN rounds r ON r.id = t.round_id WHERE r.event_id = $1 \
         ORDER BY t.round_id, t.number",
    )
    .bind(event_id)
    .fetch_all(&mut *db)
    .await?;
    #[allow(clippy::type_complexity)]
    let seats: Vec<(i64, i16, i16, i64, Option<String>, Option<Vec<String>>)> = sqlx::query_as(
        "SELECT s.table_id, s.seat, s.circle, s.player_id, s.faction, s.offered FROM seats s \
           JOIN rounds r ON r.id = s.round_id WHERE r.event_id = $1 ORDER BY s.table_id, s.seat",
    )
    .bind(event_id)
    .fetch_all(&mut *db)
    .await?;
    let attempts: Vec<AttemptRow> = sqlx::query_as(
        "SELECT w.table_id, w.turn, w.revision, w.players, w.evidence, w.reason, u.username, \
           w.recorded_at \
         FROM win_attempts w JOIN game_tables t ON t.id = w.table_id \
           JOIN rounds r ON r.id = t.round_id LEFT JOIN users u ON u.id = w.recorded_by \
         WHERE r.event_id = $1 ORDER BY w.table_id, w.turn, w.revision",
    )
    .bind(event_id)
    .fetch_all(&mut *db)
    .await?;
    let reports: Vec<ReportRow> = sqlx::query_as(
        "SELECT g.id, g.table_id, g.revision, g.ended, g.last_turn, g.seats, g.judge_draw, \
           g.reason, c.username, g.created_at, g.final_at, f.username, g.prediction \
         FROM game_reports g JOIN game_tables t ON t.id = g.table_id \
           JOIN rounds r ON r.id = t.round_id LEFT JOIN users c ON c.id = g.created_by \
           LEFT JOIN users f ON f.id = g.finalised_by \
         WHERE r.event_id = $1 ORDER BY g.table_id, g.revision",
    )
    .bind(event_id)
    .fetch_all(&mut *db)
    .await?;
    #[allow(clippy::type_complexity)]
    let confirmations: Vec<(
        i64,
        i64,
        bool,
        Option<String>,
        Option<String>,
        DateTime<Utc>,
    )> = sqlx::query_as(
        "SELECT c.report_id, c.player_id, c.agrees, c.note, u.username, c.at \
             FROM report_confirmations c JOIN game_reports g ON g.id = c.report_id \
               JOIN game_tables t ON t.id = g.table_id JOIN rounds r ON r.id = t.round_id \
               LEFT JOIN users u ON u.id = c.by_user \
             WHERE r.event_id = $1 ORDER BY c.report_id, c.at, c.player_id",
    )
    .bind(event_id)
    .fetch_all(&mut *db)
    .await?;
    #[allow(clippy::type_complexity)]
    let steps: Vec<(
        i64,
        i64,
        String,
        Option<String>,
        bool,
        Option<String>,
        DateTime<Utc>,
    )> = sqlx::query_as(
        "SELECT s.report_id, s.player_id, s.step, s.note, s.finalised, u.username, s.at \
             FROM dispute_steps s JOIN game_reports g ON g.id = s.report_id \
               JOIN game_tables t ON t.id = g.table_id JOIN rounds r ON r.id = t.round_id \
               LEFT JOIN users u ON u.id = s.by_user \
             WHERE r.event_id = $1 ORDER BY s.id",
    )
    .bind(event_id)
    .fetch_all(&mut *db)
    .await?;
    #[allow(clippy::type_complexity)]
    let logs: Vec<(
        i64,
        i32,
        String,
        Option<String>,
        Option<String>,
        Option<String>,
        DateTime<Utc>,
    )> = sqlx::query_as(
        "SELECT l.table_id, l.revision, l.body, l.reason, l.source, u.username, l.created_at \
         FROM game_logs l JOIN game_tables t ON t.id = l.table_id \
           JOIN rounds r ON r.id = t.round_id LEFT JOIN users u ON u.id = l.created_by \
         WHERE r.event_id = $1 ORDER BY l.table_id, l.revision",
    )
    .bind(event_id)
    .fetch_all(&mut *db)
    .await?;
    let finals: Option<FinalsRow> = sqlx::query_as(
        "SELECT f.closed_at, c.username, f.finalists, f.tied, f.open_seats, f.draw_seed, f.drawn, \
           d.username, f.drawn_at \
         FROM finals f LEFT JOIN users c ON c.id = f.closed_by LEFT JOIN users d ON d.id = f.drawn_by \
         WHERE f.event_id = $1",
    )
    .bind(event_id)
    .fetch_optional(&mut *db)
    .await?;
    #[allow(clippy::type_complexity)]
    let audit: Vec<(
        DateTime<Utc>,
        Option<String>,
        Option<String>,
        String,
        Option<String>,
        Value,
    )> = sqlx::query_as(
        "SELECT a.at, a.actor, u.username, a.action, a.subject, a.detail FROM audit_log a \
               LEFT JOIN users u ON u.id = a.actor_id WHERE a.event_id = $1 ORDER BY a.at, a.id",
    )
    .bind(event_id)
    .fetch_all(&mut *db)
    .await?;
    let standings = crate::results::standings::event_standings_on(&mut *db, event_id).await?;

    let mut round_records = Vec::with_capacity(rounds.len());
    for (
        round_id,
        number,
        seed,
        ruleset,
        options,
        quality,
        override_reason,
        drawn_at,
        drawn_by,
        started_at,
        version,
        final_table,
    ) in rounds
    {
        let mut table_records = Vec::new();
        for t in tables.iter().filter(|t| t.1 == round_id) {
            let table_id = t.0;
            let seats = seats
                .iter()
                .filter(|s| s.0 == table_id)
                .map(|s| {
                    Ok(SeatRecord {
                        seat: s.1,
                        circle: s.2,
                        player: numbers.of(s.3)?,
                        faction: s.4.clone(),
                        offered: s.5.clone(),
                    })
                })
                .collect::<Result<Vec<_>, sqlx::Error>>()?;
            let win_attempts = attempts
                .iter()
                .filter(|a| a.0 == table_id)
                .map(|a| {
                    let evidence: BTreeMap<String, Vec<Stronghold>> =
                        serde_json::from_value(a.4.clone()).map_err(decode)?;
                    let evidence = evidence
                        .into_iter()
                        .map(|(id, codes)| {
                            let id: i64 = id.parse().map_err(decode)?;
                            Ok((numbers.of(id)?, codes))
                        })
                        .collect::<Result<BTreeMap<_, _>, sqlx::Error>>()?;
                    Ok(AttemptRecord {
                        turn: a.1,
                        revision: a.2,
                        players: numbers.all(&a.3)?,
                        evidence,
                        reason: a.5.clone(),
                        recorded_by: a.6.clone(),
                        recorded_at: a.7,
                    })
                })
                .collect::<Result<Vec<_>, sqlx::Error>>()?;
            let reports = reports
                .iter()
                .filter(|r| r.1 == table_id)
                .map(|r| {
                    let seats: Vec<SeatResult> =
                        serde_json::from_value(r.5.clone()).map_err(decode)?;
                    let seats = seats
                        .into_iter()
                        .map(|s| {
                            Ok(SeatResult {
                                player_id: PlayerId(numbers.of(s.player_id.get())?),
                                ..s
                            })
                        })
                        .collect::<Result<Vec<_>, sqlx::Error>>()?;
                    Ok(ReportRecord {
                        revision: r.2,
                        ended: r.3.clone(),
                        last_turn: r.4,
                        seats,
                        judge_draw: r.6.map(|p| numbers.of(p)).transpose()?,
                        reason: r.7.clone(),
                        created_by: r.8.clone(),
                        created_at: r.9,
                        final_at: r.10,
                        finalised_by: r.11.clone(),
                        prediction: r
                            .12
                            .clone()
                            .map(serde_json::from_value)
                            .transpose()
                            .map_err(|e| sqlx::Error::Decode(Box::new(e)))?,
                        confirmations: confirmations
                            .iter()
                            .filter(|c| c.0 == r.0)
                            .map(|c| {
                                Ok(ConfirmationRecord {
                                    player: numbers.of(c.1)?,
                                    agrees: c.2,
                                    note: c.3.clone(),
                                    by: c.4.clone(),
                                    at: c.5,
                                })
                            })
                            .collect::<Result<Vec<_>, sqlx::Error>>()?,
                        dispute_steps: steps
                            .iter()
                            .filter(|s| s.0 == r.0)
                            .map(|s| {
                                Ok(DisputeStepRecord {
                                    player: numbers.of(s.1)?,
                                    step: s.2.clone(),
                                    note: s.3.clone(),
                                    finalised: s.4,
                                    by: s.5.clone(),
                                    at: s.6,
                                })
                            })
                            .collect::<Result<Vec<_>, sqlx::Error>>()?,
                    })
                })
                .collect::<Result<Vec<_>, sqlx::Error>>()?;
            table_records.push(TableRecord {
                number: t.2,
                clock_started_at: t.3,
                clock_paused_at: t.4,
                clock_paused_ms: t.5,
                clock_extension_ms: t.6,
                reported_at: t.7,
                version: t.8,
                seats,
                win_attempts,
                reports,
                logs: logs
                    .iter()
                    .filter(|l| l.0 == t.0)
                    .map(|l| LogRecord {
                        revision: l.1,
                        body: l.2.clone(),
                        reason: l.3.clone(),
                        source: l.4.clone(),
                        saved_by: l.5.clone(),
                        saved_at: l.6,
                    })
                    .collect(),
            });
        }
        round_records.push(RoundRecord {
            number,
            seed,
            ruleset,
            options,
            quality,
            override_reason,
            drawn_at,
            drawn_by,
            started_at,
            version,
            final_table,
            byes: byes
                .iter()
                .filter(|b| b.0 == round_id)
                .map(|b| numbers.of(b.1))
                .collect::<Result<Vec<_>, _>>()?,
            tables: table_records,
        });
    }
    Ok(Backup {
        format: FORMAT.to_owned(),
        version: VERSION,
        written_at: now,
        written_by: format!("Mentat {}", env!("CARGO_PKG_VERSION")),
        // Set by `to_json`, over the content written.
        digest: None,
        event: EventRecord {
            slug,
            name,
            starts_on,
            ends_on,
            venue,
            ruleset,
            options,
            qualifying_rounds,
            public_url,
            version,
            created_at,
            created_by,
            restored_from,
        },
        staff: staff
            .into_iter()
            .map(|(account, role, granted_by, granted_at)| StaffRecord {
                account,
                role,
                granted_by,
                granted_at,
            })
            .collect(),
        players: players
            .iter()
            .map(|p| {
                Ok(PlayerRecord {
                    player: numbers.of(p.0)?,
                    name: p.1.clone(),
                    email: p.2.clone(),
                    club: p.3.clone(),
                    alternate: p.4,
                    checked_in: p.5,
                    entered_after_round: p.6,
                    dropped_after_round: p.7,
                    dropped_at: p.8,
                    version: p.9,
                    created_at: p.10,
                    account: p.11.clone(),
                    sort_as: p.12.clone(),
                })
            })
            .collect::<Result<Vec<_>, sqlx::Error>>()?,
        rounds: round_records,
        finals: finals
            .map(|f| {
                Ok::<_, sqlx::Error>(FinalsRecord {
                    closed_at: f.0,
                    closed_by: f.1,
                    finalists: numbers.all(&f.2)?,
                    tied: numbers.all(&f.3)?,
                    open_seats: f.4,
                    draw_seed: f.5,
                    drawn: f.6.map(|d| numbers.all(&d)).transpose()?,
                    drawn_by: f.7,
                    drawn_at: f.8,
                })
            })
            .transpose()?,
        audit: audit
            .into_iter()
            .map(
                |(at, actor, actor_account, action, subject, detail)| AuditRecord {
                    at,
                    actor,
                    actor_account,
                    action,
                    subject,
                    detail,
                },
            )
            .collect(),
        standings: standings
            .rows
            .iter()
            .map(|r| {
                Ok(StandingCheck {
                    rank: r.rank,
                    player: numbers.of(r.player_id.get())?,
                    points: r.points.clone(),
                    best_game: r.best.map(|b| b.dotted()),
                    finals: crate::export::finals_code(r.finalist).to_owned(),
                })
            })
            .collect::<Result<Vec<_>, sqlx::Error>>()?,
    })
}

/// The file's text: compact JSON, about half the size of indented JSON, so the backup of a
/// 300-player event stays under the web upload's 2 MB (`jq .` shows it indented). It carries
/// the SHA-256 digest of its own content (`super::digest`), which a restore checks first.
pub fn to_json(backup: &Backup) -> Result<Vec<u8>, serde_json::Error> {
    let mut backup = backup.clone();
    backup.digest = None;
    let content = serde_json::to_value(&backup)?;
    backup.digest = Some(super::digest::of(&content));
    let mut out = serde_json::to_vec(&backup)?;
    out.push(b'\n');
    Ok(out)
}
