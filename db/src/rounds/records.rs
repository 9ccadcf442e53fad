//! What has been recorded at a round's tables: report revisions with their confirmations and
//! dispute steps, win-attempt records and game-log revisions. A change that would delete a
//! table (a redraw, a cancelled round, a withdrawn final table) reads this first: a redraw is
//! refused while anything is recorded, and a cancellation names what it removes, asks for a
//! confirmation, and copies all of it, word for word, into its audit entry.

use serde_json::Value;
use sqlx::PgConnection;
use tournament::ids::{TableId, TableNumber};

/// One table's records.
#[derive(Debug, Clone, PartialEq)]
pub struct TableRecords {
    pub table_id: TableId,
    pub table: TableNumber,
    /// Report revisions: (revision, saved by).
    pub reports: Vec<(i32, Option<String>)>,
    pub confirmations: usize,
    pub dispute_steps: usize,
    /// Turns with a win-attempt record, and how many revisions those records have in all.
    pub attempt_turns: Vec<i16>,
    pub attempt_revisions: usize,
    pub log_revisions: usize,
    /// Everything above in full, for the audit log.
    pub content: Value,
}

impl TableRecords {
    pub fn is_empty(&self) -> bool {
        self.reports.is_empty()
            && self.confirmations == 0
            && self.attempt_revisions == 0
            && self.log_revisions == 0
    }

    /// The table's records in words: "table 2: the Game Report (revision 1, saved by alice),
    /// 3 confirmations; win attempts at turns 2 and 4; the game log (2 revisions)".
    pub fn sentence(&self) -> String {
        let mut parts = Vec::new();
        if let Some((latest, by)) = self.reports.last() {
            let mut report = if self.reports.len() == 1 {
                format!(
                    "the Game Report (revision {latest}{})",
                    by.as_deref()
                        .map(|b| format!(", saved by {b}"))
                        .unwrap_or_default()
                )
            } else {
                format!(
                    "the Game Report ({} revisions, the latest saved by {})",
                    self.reports.len(),
                    by.as_deref().unwrap_or("someone")
                )
            };
            if self.confirmations > 0 {
                report.push_str(&format!(", {}", count(self.confirmations, "answer")));
            }
            if self.dispute_steps > 0 {
                report.push_str(&format!(", {}", count(self.dispute_steps, "dispute step")));
            }
            parts.push(report);
        }
        if !self.attempt_turns.is_empty() {
            let turns: Vec<String> = self.attempt_turns.iter().map(i16::to_string).collect();
            parts.push(format!(
                "win attempts recorded at {} {}",
                if turns.len() == 1 { "turn" } else { "turns" },
                list(&turns)
            ));
        }
        if self.log_revisions > 0 {
            parts.push(format!(
                "the game log ({})",
                count(self.log_revisions, "revision")
            ));
        }
        format!("table {}: {}", self.table, parts.join("; "))
    }
}

/// The records of every table of a round that has any, in table order.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RoundRecords {
    pub tables: Vec<TableRecords>,
}

impl RoundRecords {
    pub fn is_empty(&self) -> bool {
        self.tables.is_empty()
    }

    /// Each table's records in words, in table order.
    pub fn sentences(&self) -> Vec<String> {
        self.tables.iter().map(TableRecords::sentence).collect()
    }

    /// Only these tables' records.
    pub fn at(&self, tables: &[TableId]) -> RoundRecords {
        RoundRecords {
            tables: self
                .tables
                .iter()
                .filter(|t| tables.contains(&t.table_id))
                .cloned()
                .collect(),
        }
    }

    /// Everything recorded, in full, as the audit entry of the change that removes it keeps it.
    pub fn content(&self) -> Value {
        Value::Array(self.tables.iter().map(|t| t.content.clone()).collect())
    }
}

fn count(n: usize, noun: &str) -> String {
    format!("{n} {noun}{}", if n == 1 { "" } else { "s" })
}

/// "1, 2 and 3".
pub(crate) fn list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

type ReportRow = (TableId, i32, Option<String>, Value);
type AttemptRow = (TableId, i16, Value);
type LogRow = (TableId, Value);

/// Everything recorded at the tables of round `round_id`, read inside the caller's transaction
/// (which holds the round's lock).
pub(crate) async fn of_round(
    db: &mut PgConnection,
    round_id: i64,
) -> Result<RoundRecords, sqlx::Error> {
    let tables: Vec<(TableId, TableNumber)> =
        sqlx::query_as("SELECT id, number FROM game_tables WHERE round_id = $1 ORDER BY number")
            .bind(round_id)
            .fetch_all(&mut *db)
            .await?;
    let reports: Vec<ReportRow> = sqlx::query_as(
        "SELECT r.table_id, r.revision, u.username, jsonb_build_object( \
           'revision', r.revision, 'ended', r.ended, 'last_turn', r.last_turn, \
           'seats', r.seats, 'prediction', r.prediction, 'judge_draw', r.judge_draw, \
           'reason', r.reason, 'saved_by', u.username, 'saved_at', r.created_at, \
           'final_at', r.final_at, \
           'confirmations', (SELECT coalesce(jsonb_agg(jsonb_build_object( \
               'player', p.name, 'agrees', c.agrees, 'note', c.note, 'by', cu.username, \
               'at', c.at) ORDER BY c.at), '[]'::jsonb) \
             FROM report_confirmations c JOIN players p ON p.id = c.player_id \
             LEFT JOIN users cu ON cu.id = c.by_user WHERE c.report_id = r.id), \
           'dispute_steps', (SELECT coalesce(jsonb_agg(jsonb_build_object( \
               'player', p.name, 'step', d.step, 'note', d.note, 'finalised', d.finalised, \
               'by', du.username, 'at', d.at) ORDER BY d.id), '[]'::jsonb) \
             FROM dispute_steps d JOIN players p ON p.id = d.player_id \
             LEFT JOIN users du ON du.id = d.by_user WHERE d.report_id = r.id)) \
         FROM game_reports r JOIN game_tables t ON t.id = r.table_id \
         LEFT JOIN users u ON u.id = r.created_by \
         WHERE t.round_id = $1 ORDER BY r.table_id, r.revision",
    )
    .bind(round_id)
    .fetch_all(&mut *db)
    .await?;
    let attempts: Vec<AttemptRow> = sqlx::query_as(
        "SELECT w.table_id, w.turn, jsonb_build_object('turn', w.turn, 'revision', w.revision, \
           'players', (SELECT coalesce(jsonb_agg(p.name ORDER BY p.name), '[]'::jsonb) \
             FROM players p WHERE p.id = ANY (w.players)), \
           'evidence', w.evidence, 'reason', w.reason, 'recorded_by', u.username, \
           'recorded_at', w.recorded_at) \
         FROM win_attempts w JOIN game_tables t ON t.id = w.table_id \
         LEFT JOIN users u ON u.id = w.recorded_by \
         WHERE t.round_id = $1 ORDER BY w.table_id, w.turn, w.revision",
    )
    .bind(round_id)
    .fetch_all(&mut *db)
    .await?;
    let logs: Vec<LogRow> = sqlx::query_as(
        "SELECT l.table_id, jsonb_build_object('revision', l.revision, 'body', l.body, \
           'reason', l.reason, 'source', l.source, 'saved_by', u.username, 'saved_at', l.created_at) \
         FROM game_logs l JOIN game_tables t ON t.id = l.table_id \
         LEFT JOIN users u ON u.id = l.created_by \
         WHERE t.round_id = $1 ORDER BY l.table_id, l.revision",
    )
    .bind(round_id)
    .fetch_all(&mut *db)
    .await?;
    let mut out = RoundRecords::default();
    for (table_id, table) in tables {
        let mine_reports: Vec<&ReportRow> = reports.iter().filter(|r| r.0 == table_id).collect();
        let mine_attempts: Vec<&AttemptRow> = attempts.iter().filter(|a| a.0 == table_id).collect();
        let mine_logs: Vec<&LogRow> = logs.iter().filter(|l| l.0 == table_id).collect();
        let counted = |key: &str| {
            mine_reports
                .iter()
                .map(|r| r.3.get(key).and_then(Value::as_array).map_or(0, Vec::len))
                .sum::<usize>()
        };
        let mut attempt_turns: Vec<i16> = mine_attempts.iter().map(|a| a.1).collect();
        attempt_turns.dedup();
        let records = TableRecords {
            table_id,
            table,
            reports: mine_reports.iter().map(|r| (r.1, r.2.clone())).collect(),
            confirmations: counted("confirmations"),
            dispute_steps: counted("dispute_steps"),
            attempt_turns,
            attempt_revisions: mine_attempts.len(),
            log_revisions: mine_logs.len(),
            content: serde_json::json!({
                "table": table,
                "reports": mine_reports.iter().map(|r| r.3.clone()).collect::<Vec<_>>(),
                "win_attempts": mine_attempts.iter().map(|a| a.2.clone()).collect::<Vec<_>>(),
                "logs": mine_logs.iter().map(|l| l.1.clone()).collect::<Vec<_>>(),
            }),
        };
        if !records.is_empty() {
            out.tables.push(records);
        }
    }
    Ok(out)
}
