//! Game reports (4.01.02, 4.01.07): saved as revisions, confirmed by the seated players or
//! finalised by the head judge (4.01.05), corrected by new revisions with a reason.
//!
//! Every rule about a report's content is the tournament crate's ([`tournament::validate_table`]);
//! this module turns the stored rows into its input and keeps the history.

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use dune::{Faction, WinType};
use serde::{Deserialize, Serialize};
use sqlx::{PgConnection, PgPool};
use tournament::ids::{EventId, PlayerId, Revision, RoundNumber, TableNumber};
use tournament::report::{Ending, ReportStatus as Status};
use tournament::{
    EndValues, Prediction, ReportField, SeatEntry, TableOutcome, TableReport, TableSeat,
    validate_table,
};

use super::disputes::{self, DisputeState};
use super::table::corrupt;
use super::{Field, FieldProblem, ResultsError, TableContext, attempts, reason_of, table};
use crate::{audit, live, roles::Actor};

/// One seat's line of the report as stored: the player, the result and the end values of
/// 4.01.11 (win attempts come from the win-attempt record).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatResult {
    pub player_id: PlayerId,
    pub faction: Faction,
    pub ally: Option<Faction>,
    pub result: Option<WinType>,
    #[serde(flatten)]
    pub end: EndValues,
}

/// What a judge fills in at the end of a game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Draft {
    pub ended: Ending,
    pub last_turn: u32,
    pub seats: Vec<SeatResult>,
    /// The head judge's draw when an adjudication tie survives every category (ruling 9).
    pub judge_draw: Option<PlayerId>,
    /// The Bene Gesserit's prediction (2.02.03), when recorded; a BGP win needs it.
    pub prediction: Option<Prediction>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Confirmation {
    pub player_id: PlayerId,
    pub agrees: bool,
    pub note: Option<String>,
    /// Who answered: the player, or the judge for them.
    pub by: Option<String>,
    pub at: DateTime<Utc>,
    /// Where a dispute stands (open, taken by a judge, resolved); `None` when the player agrees.
    pub dispute: Option<DisputeState>,
}

impl Confirmation {
    /// A disagreement no judge has resolved yet.
    pub fn is_open_dispute(&self) -> bool {
        !self.agrees && !matches!(self.dispute, Some(DisputeState::Resolved { .. }))
    }
}

/// One saved version of a table's report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReportRevision {
    pub revision: Revision,
    pub draft: Draft,
    pub reason: Option<String>,
    pub created_by: Option<String>,
    pub created_at: DateTime<Utc>,
    pub final_at: Option<DateTime<Utc>>,
    pub finalised_by: Option<String>,
    pub confirmations: Vec<Confirmation>,
}

/// The results a valid report gives per seat (adjudication included) and how adjudication got
/// there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    pub results: Vec<(PlayerId, Option<WinType>)>,
    pub adjudication: Option<Vec<String>>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableResults {
    pub table: TableContext,
    /// Every revision of every turn's win attempts.
    pub attempts: Vec<attempts::TurnRecord>,
    /// Newest first.
    pub revisions: Vec<ReportRevision>,
    pub status: Status,
    /// The latest revision's results, when it is valid.
    pub outcome: Option<Outcome>,
}

impl TableResults {
    pub fn latest(&self) -> Option<&ReportRevision> {
        self.revisions.first()
    }

    /// Win attempts per player as the latest report counts them.
    pub fn counts(&self) -> BTreeMap<PlayerId, u32> {
        attempts::counts(&self.attempts, self.latest().map(|r| r.draft.last_turn))
    }
}

fn status_of(table: &TableContext, latest: Option<&ReportRevision>) -> Status {
    let Some(rev) = latest else {
        return Status::Missing;
    };
    if rev.final_at.is_some() {
        return Status::Final;
    }
    // A resolved dispute no longer holds the report up: the judge's note says what was decided.
    if rev.confirmations.iter().any(Confirmation::is_open_dispute) {
        return Status::Disputed;
    }
    Status::Awaiting {
        confirmed: rev.confirmations.iter().filter(|c| c.agrees).count(),
        seated: table.seats.len(),
    }
}

/// The draft as the tournament's rules read it: seats in seat order, the latest win-attempt
/// record of each turn by seat. A player the draft names who does not sit here (a page older
/// than a seat change) is a problem of the request, reported before any rule is applied.
fn table_report(
    table: &TableContext,
    draft: &Draft,
    latest_turns: &[(u32, Vec<PlayerId>)],
) -> Result<TableReport, Vec<FieldProblem>> {
    let stale = |message: &str| {
        vec![FieldProblem {
            field: Field::Report(ReportField::Seats),
            message: message.to_owned(),
        }]
    };
    if draft
        .seats
        .iter()
        .any(|s| table.seat_of(s.player_id).is_none())
    {
        return Err(stale(
            "The report names a player who does not sit at this table; reload the page.",
        ));
    }
    let judge_draw = match draft.judge_draw {
        None => None,
        Some(id) => match table.seat_of(id) {
            Some(line) => Some(line.player.clone()),
            None => {
                return Err(vec![FieldProblem {
                    field: Field::Report(ReportField::JudgeDraw),
                    message: "The player drawn does not sit at this table.".into(),
                }]);
            }
        },
    };
    let seats = table
        .seats
        .iter()
        .map(|line| {
            let mut lines = draft.seats.iter().filter(|s| s.player_id == line.player_id);
            let entry = lines.next().map(|s| SeatEntry {
                faction: s.faction,
                ally: s.ally,
                result: s.result,
                end: s.end,
            });
            if lines.next().is_some() {
                return Err(stale(
                    "A player appears twice in the report; reload the page.",
                ));
            }
            Ok(TableSeat {
                player: line.player.clone(),
                dealt: line.faction,
                entry,
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(TableReport {
        ruleset: table.ruleset,
        options: table.options.clone(),
        // Both are positive: the table's loader refuses anything else.
        round: table.round.get().unsigned_abs(),
        table: table.table.get().unsigned_abs(),
        ended: draft.ended,
        last_turn: draft.last_turn,
        seats,
        judge_draw,
        attempts: attempts::by_seat(table, latest_turns),
        prediction: draft.prediction,
    })
}

/// Checks a draft against the table and the tournament rules; gives the results and the
/// adjudication's reasoning when it is valid.
pub fn check(
    table: &TableContext,
    draft: &Draft,
    latest_turns: &[(u32, Vec<PlayerId>)],
) -> Result<Outcome, Vec<FieldProblem>> {
    let report = table_report(table, draft, latest_turns)?;
    let outcome: TableOutcome = validate_table(&report).map_err(|errors| {
        errors
            .0
            .iter()
            .map(|e| FieldProblem {
                field: Field::Report(e.field),
                message: e.message(),
            })
            .collect::<Vec<_>>()
    })?;
    Ok(Outcome {
        results: table
            .seats
            .iter()
            .zip(outcome.results())
            .map(|(line, result)| (line.player_id, *result))
            .collect(),
        adjudication: outcome.adjudication,
    })
}

type ConfirmationRow = (
    Revision,
    PlayerId,
    bool,
    Option<String>,
    Option<String>,
    DateTime<Utc>,
);

type RevisionRow = (
    Revision,
    String,
    i16,
    serde_json::Value,
    Option<serde_json::Value>,
    Option<PlayerId>,
    Option<String>,
    Option<String>,
    DateTime<Utc>,
    Option<DateTime<Utc>>,
    Option<String>,
);

/// A stored ending; the schema admits only the three codes.
pub(crate) fn ending(code: &str) -> Result<Ending, sqlx::Error> {
    Ending::from_code(code).ok_or_else(|| corrupt("ending", code))
}

async fn revisions(
    db: &mut PgConnection,
    table: &TableContext,
) -> Result<Vec<ReportRevision>, sqlx::Error> {
    let rows: Vec<RevisionRow> = sqlx::query_as(
        "SELECT r.revision, r.ended, r.last_turn, r.seats, r.prediction, r.judge_draw, r.reason, \
           c.username, r.created_at, r.final_at, f.username \
         FROM game_reports r LEFT JOIN users c ON c.id = r.created_by \
           LEFT JOIN users f ON f.id = r.finalised_by \
         WHERE r.table_id = $1 ORDER BY r.revision DESC",
    )
    .bind(table.table_id)
    .fetch_all(&mut *db)
    .await?;
    let confirmations: Vec<ConfirmationRow> = sqlx::query_as(
        "SELECT r.revision, c.player_id, c.agrees, c.note, u.username, c.at \
             FROM report_confirmations c JOIN game_reports r ON r.id = c.report_id \
             LEFT JOIN users u ON u.id = c.by_user \
             WHERE r.table_id = $1 ORDER BY c.at",
    )
    .bind(table.table_id)
    .fetch_all(&mut *db)
    .await?;
    let steps = disputes::steps_of_table(&mut *db, table.table_id).await?;
    let mut out = Vec::with_capacity(rows.len());
    for (
        revision,
        ended,
        last_turn,
        seats,
        prediction,
        judge_draw,
        reason,
        by,
        at,
        final_at,
        fin,
    ) in rows
    {
        let seats: Vec<SeatResult> =
            serde_json::from_value(seats).map_err(|e| sqlx::Error::Decode(Box::new(e)))?;
        let prediction: Option<Prediction> = prediction
            .map(serde_json::from_value)
            .transpose()
            .map_err(|e| sqlx::Error::Decode(Box::new(e)))?;
        out.push(ReportRevision {
            revision,
            draft: Draft {
                ended: ending(&ended)?,
                last_turn: u32::try_from(last_turn)
                    .map_err(|_| corrupt("last turn", &last_turn.to_string()))?,
                seats,
                judge_draw,
                prediction,
            },
            reason,
            created_by: by,
            created_at: at,
            final_at,
            finalised_by: fin,
            confirmations: confirmations
                .iter()
                .filter(|c| c.0 == revision)
                .map(|c| Confirmation {
                    player_id: c.1,
                    agrees: c.2,
                    note: c.3.clone(),
                    by: c.4.clone(),
                    at: c.5,
                    dispute: (!c.2).then(|| disputes::state_of(&steps, revision, c.1, c.5)),
                })
                .collect(),
        });
    }
    Ok(out)
}

fn latest_of(history: &[attempts::TurnRecord]) -> Vec<(u32, Vec<PlayerId>)> {
    attempts::latest(history)
        .into_iter()
        .map(|r| (r.turn, r.attempts.iter().map(|a| a.player_id).collect()))
        .collect()
}

/// Everything recorded at table `table` of round `round`: win attempts, report revisions,
/// confirmations, and where the report stands.
pub async fn table_results(
    pool: &PgPool,
    event_id: EventId,
    round: RoundNumber,
    table: TableNumber,
) -> Result<TableResults, ResultsError> {
    let table = table::load(pool, event_id, round, table).await?;
    let mut conn = pool.acquire().await?;
    let attempts = attempts::history(&mut conn, table.table_id).await?;
    let revisions = revisions(&mut conn, &table).await?;
    drop(conn);
    let status = status_of(&table, revisions.first());
    let outcome = revisions
        .first()
        .and_then(|rev| check(&table, &rev.draft, &latest_of(&attempts)).ok());
    Ok(TableResults {
        table,
        attempts,
        revisions,
        status,
        outcome,
    })
}

/// Saves a report as a new revision. `base_revision` is the revision the judge's page showed
/// ([`Revision::NONE`]: none yet); if someone saved since, nothing is written and the caller is
/// told who, so the judge can compare. Correcting a final report needs the head judge
/// (`may_override`) and a reason; the correction is final at once (the head judge's decision is
/// final, 4.01.05). Returns the new revision.
///
/// A game ends by the clock (4.01.08) only once its time is up: while the table's clock still
/// runs, such a report is refused ([`save_calling_time`] is the head judge's early call).
#[allow(clippy::too_many_arguments)]
pub async fn save(
    pool: &PgPool,
    actor: &Actor,
    may_override: bool,
    event_id: EventId,
    round: RoundNumber,
    table: TableNumber,
    base_revision: Revision,
    draft: &Draft,
    reason: Option<&str>,
) -> Result<Revision, ResultsError> {
    save_checked(
        pool,
        actor,
        may_override,
        event_id,
        (round, table),
        base_revision,
        draft,
        reason,
        false,
    )
    .await
}

/// As [`save`], for a game the head judge stops by the clock before its time is up (a
/// rehearsal, a hall closing early): allowed to the head judge only, and the early call is
/// written to the audit log with the time that was left.
#[allow(clippy::too_many_arguments)]
pub async fn save_calling_time(
    pool: &PgPool,
    actor: &Actor,
    may_override: bool,
    event_id: EventId,
    round: RoundNumber,
    table: TableNumber,
    base_revision: Revision,
    draft: &Draft,
    reason: Option<&str>,
) -> Result<Revision, ResultsError> {
    save_checked(
        pool,
        actor,
        may_override,
        event_id,
        (round, table),
        base_revision,
        draft,
        reason,
        true,
    )
    .await
}

/// The table's clock still running before its limit (started, paused or not), with the time
/// left; `None` when its time is up, it was never started (the table keeps time by hand) or the
/// report is final.
async fn clock_still_runs(
    db: &mut PgConnection,
    table_id: tournament::ids::TableId,
) -> Result<Option<i64>, sqlx::Error> {
    let table: crate::rounds::TableRow = sqlx::query_as(&format!(
        "SELECT {} FROM game_tables t WHERE t.id = $1",
        crate::rounds::TABLE_COLUMNS
    ))
    .bind(table_id)
    .fetch_one(&mut *db)
    .await?;
    let (seated, now): (i64, DateTime<Utc>) =
        sqlx::query_as("SELECT count(*), now() FROM seats WHERE table_id = $1")
            .bind(table_id)
            .fetch_one(&mut *db)
            .await?;
    let row = (table, seated, now);
    let clock = crate::rounds::clock_of(&row.0, usize::try_from(row.1).unwrap_or(0));
    let reading = clock.read(row.2.timestamp_millis());
    Ok(
        (reading.phase == tournament::ClockPhase::Running && !reading.stopped)
            .then_some(reading.remaining_ms),
    )
}

#[allow(clippy::too_many_arguments)]
async fn save_checked(
    pool: &PgPool,
    actor: &Actor,
    may_override: bool,
    event_id: EventId,
    (round, table): (RoundNumber, TableNumber),
    base_revision: Revision,
    draft: &Draft,
    reason: Option<&str>,
    early_call: bool,
) -> Result<Revision, ResultsError> {
    let mut tx = pool.begin().await?;
    let table = table::lock(&mut tx, event_id, round, table).await?;
    let current: Option<(Revision, Option<DateTime<Utc>>, Option<String>)> = sqlx::query_as(
        "SELECT r.revision, r.final_at, u.username FROM game_reports r \
         LEFT JOIN users u ON u.id = r.created_by WHERE r.table_id = $1 \
         ORDER BY r.revision DESC LIMIT 1",
    )
    .bind(table.table_id)
    .fetch_optional(&mut *tx)
    .await?;
    let current_revision = current.as_ref().map_or(Revision::NONE, |c| c.0);
    if current_revision != base_revision {
        let by = super::credited(
            &mut tx,
            event_id,
            &["report_saved", "report_corrected"],
            serde_json::json!({ "round": round, "table": table.table, "revision": current_revision }),
            current.and_then(|c| c.2),
        )
        .await?;
        return Err(ResultsError::Changed {
            what: "This table's report",
            revision: current_revision,
            by,
        });
    }
    let correcting_final = current.as_ref().is_some_and(|c| c.1.is_some());
    let reason = reason_of(reason);
    if correcting_final {
        if !may_override {
            return Err(ResultsError::Forbidden(format!(
                "The report of {} is final; only the head judge can correct it (4.01.05).",
                table.label()
            )));
        }
        if reason.is_none() {
            return Err(ResultsError::field(
                "reason",
                "This report is final: say why it is corrected, for the record.",
            ));
        }
    }
    // Ended by the clock while the clock still runs: only the head judge's early call.
    let time_left = if draft.ended == Ending::Time && !correcting_final {
        clock_still_runs(&mut tx, table.table_id).await?
    } else {
        None
    };
    if let Some(left) = time_left {
        if !early_call {
            return Err(ResultsError::field(
                "ended",
                format!(
                    "{}'s clock still runs ({} left): a game ends by the clock only when its time is up (4.01.08). If the head judge calls time early, tick “Call time now” (it is recorded in the audit log).",
                    capitalise(&table.label()),
                    tournament::clock::format_hms(left)
                ),
            ));
        }
        if !may_override {
            return Err(ResultsError::Forbidden(
                "Only the head judge can call time before the clock runs out (4.01.08).".into(),
            ));
        }
    }
    let turns: Vec<(u32, Vec<PlayerId>)> = attempts::latest_turns(&mut tx, &[table.table_id])
        .await?
        .into_iter()
        .map(|(_, turn, players)| (turn, players))
        .collect();
    let outcome = check(&table, draft, &turns).map_err(ResultsError::Invalid)?;
    // Valid reports name a turn from 1 to 10 (0.02).
    let last_turn = i16::try_from(draft.last_turn).map_err(|_| {
        ResultsError::field(
            "last_turn",
            "The last turn played is a turn from 1 to 10 (0.02).",
        )
    })?;
    let revision = current_revision.next();
    let seats = serde_json::to_value(&draft.seats).map_err(|e| sqlx::Error::Encode(Box::new(e)))?;
    let report_id: i64 = sqlx::query_scalar(
        "INSERT INTO game_reports (table_id, revision, ended, last_turn, seats, judge_draw, reason, \
           created_by, final_at, finalised_by, prediction) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, CASE WHEN $9 THEN now() END, CASE WHEN $9 THEN $8 END, $10) \
         RETURNING id",
    )
    .bind(table.table_id)
    .bind(revision)
    .bind(draft.ended.code())
    .bind(last_turn)
    .bind(seats)
    .bind(draft.judge_draw)
    .bind(&reason)
    .bind(actor.user_id)
    .bind(correcting_final)
    .bind(
        draft
            .prediction
            .map(serde_json::to_value)
            .transpose()
            .map_err(|e| sqlx::Error::Encode(Box::new(e)))?,
    )
    .fetch_one(&mut *tx)
    .await?;
    let subject = table.label();
    let results: Vec<serde_json::Value> = outcome
        .results
        .iter()
        .filter_map(|(id, win)| {
            let seat = table.seat_of(*id)?;
            Some(serde_json::json!({ "player": seat.player, "result": win.map(WinType::code) }))
        })
        .collect();
    audit::record(
        &mut *tx,
        audit::Entry::by(
            actor,
            if correcting_final {
                audit::Action::ReportCorrected
            } else {
                audit::Action::ReportSaved
            },
            event_id,
            &subject,
            serde_json::json!({
                "round": table.round, "table": table.table, "revision": revision,
                "report_id": report_id, "ended": draft.ended.code(), "results": results,
                "reason": reason, "prediction": draft.prediction,
                // The head judge called time with the clock still running: what was left.
                "time_called_early": time_left.map(tournament::clock::format_hms),
            }),
        ),
    )
    .await?;
    settle_superseded(
        &mut tx,
        actor,
        &table,
        revision,
        correcting_final,
        reason.as_deref(),
    )
    .await?;
    live::notify(&mut *tx, event_id, live::Topic::Table).await?;
    if correcting_final {
        live::notify(&mut *tx, event_id, live::Topic::Standings).await?;
    }
    tx.commit().await?;
    Ok(revision)
}

/// A new revision replaces the ones before it, so a dispute still open on one of them is
/// settled by it: explicitly, as a resolution step naming the revision (the disputing player's
/// card says so), and in the audit log. Nothing is dropped silently.
async fn settle_superseded(
    tx: &mut PgConnection,
    actor: &Actor,
    table: &TableContext,
    revision: Revision,
    is_final: bool,
    reason: Option<&str>,
) -> Result<(), sqlx::Error> {
    let open: Vec<(i64, Revision, PlayerId, String)> = sqlx::query_as(
        "SELECT r.id, r.revision, c.player_id, p.name FROM report_confirmations c \
         JOIN game_reports r ON r.id = c.report_id JOIN players p ON p.id = c.player_id \
         WHERE r.table_id = $1 AND r.revision < $2 AND NOT c.agrees \
           AND NOT EXISTS (SELECT 1 FROM dispute_steps s WHERE s.report_id = c.report_id \
             AND s.player_id = c.player_id AND s.step = 'resolved' AND s.at >= c.at) \
         ORDER BY r.revision, p.name",
    )
    .bind(table.table_id)
    .bind(revision)
    .fetch_all(&mut *tx)
    .await?;
    for (report_id, disputed, player_id, player) in open {
        let note = format!(
            "Settled by revision {revision}, saved by {}{}. {}",
            actor.username,
            reason.map(|r| format!(" ({r})")).unwrap_or_default(),
            if is_final {
                "It corrects the report and is final (4.01.05)."
            } else {
                "Read it and confirm it, or dispute it again."
            }
        );
        sqlx::query(
            "INSERT INTO dispute_steps (report_id, player_id, step, note, finalised, by_user) \
             VALUES ($1, $2, 'resolved', $3, false, $4)",
        )
        .bind(report_id)
        .bind(player_id)
        .bind(&note)
        .bind(actor.user_id)
        .execute(&mut *tx)
        .await?;
        let subject = format!("{}, {player}", table.label());
        audit::record(
            &mut *tx,
            audit::Entry::by(
                actor,
                audit::Action::DisputeResolved,
                table.event_id,
                &subject,
                serde_json::json!({
                    "round": table.round, "table": table.table, "revision": disputed,
                    "player": player, "note": note, "final": false,
                    "superseded_by": revision,
                }),
            ),
        )
        .await?;
    }
    Ok(())
}

/// Who answers a report for a player.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answerer {
    /// The player, signed in with their linked account.
    Player,
    /// A judge, for a player who cannot (no phone, no account).
    Judge,
}

/// A seated player's answer to one revision of a table's report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    pub round: RoundNumber,
    pub table: TableNumber,
    /// The revision the player's page showed.
    pub revision: Revision,
    pub player_id: PlayerId,
    pub agrees: bool,
    /// Required when disputing: what is wrong.
    pub note: Option<String>,
    pub answerer: Answerer,
}

/// A seated player agrees with a revision, or disputes it with a note. When every seated
/// player agrees the report is final. Returns whether it is.
pub async fn answer(
    pool: &PgPool,
    actor: &Actor,
    event_id: EventId,
    answer: &Answer,
) -> Result<bool, ResultsError> {
    let mut tx = pool.begin().await?;
    let table = table::lock(&mut tx, event_id, answer.round, answer.table).await?;
    let Some(seat) = table.seat_of(answer.player_id).cloned() else {
        return Err(ResultsError::Forbidden(
            "That player does not sit at this table.".into(),
        ));
    };
    if answer.answerer == Answerer::Player && seat.user_id != Some(actor.user_id) {
        return Err(ResultsError::Forbidden(format!(
            "Only {} (or a judge) can answer for {}.",
            seat.player, seat.player
        )));
    }
    let report_id = open_revision(
        &mut tx,
        &table,
        answer.revision,
        "This table has no report to confirm yet.",
        "This report is already final; ask the head judge if something is wrong (4.01.05).",
    )
    .await?;
    let note = reason_of(answer.note.as_deref());
    if !answer.agrees && note.is_none() {
        return Err(ResultsError::field(
            "note",
            "Say what is wrong with the report, so the head judge can settle it.",
        ));
    }
    sqlx::query(
        // The instant of the answer itself (not of the transaction's start), taken after the
        // table's lock: a dispute's steps are those after its latest answer.
        "INSERT INTO report_confirmations (report_id, player_id, agrees, note, by_user, at) \
         VALUES ($1, $2, $3, $4, $5, clock_timestamp()) ON CONFLICT (report_id, player_id) DO UPDATE \
         SET agrees = EXCLUDED.agrees, note = EXCLUDED.note, by_user = EXCLUDED.by_user, at = EXCLUDED.at",
    )
    .bind(report_id)
    .bind(answer.player_id)
    .bind(answer.agrees)
    .bind(&note)
    .bind(actor.user_id)
    .execute(&mut *tx)
    .await?;
    let agreed: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM report_confirmations WHERE report_id = $1 AND agrees",
    )
    .bind(report_id)
    .fetch_one(&mut *tx)
    .await?;
    let complete = usize::try_from(agreed).is_ok_and(|n| n >= table.seats.len());
    if complete {
        mark_final(&mut tx, report_id, &table, None).await?;
    }
    let subject = format!("{}, {}", table.label(), seat.player);
    audit::record(
        &mut *tx,
        audit::Entry::by(
            actor,
            if answer.agrees {
                audit::Action::ReportConfirmed
            } else {
                audit::Action::ReportDisputed
            },
            event_id,
            &subject,
            serde_json::json!({
                "round": table.round, "table": table.table, "revision": answer.revision,
                "player": seat.player, "for_player": answer.answerer == Answerer::Judge,
                "note": note, "final": complete,
            }),
        ),
    )
    .await?;
    live::notify(&mut *tx, event_id, live::Topic::Table).await?;
    if complete {
        live::notify(&mut *tx, event_id, live::Topic::Standings).await?;
    }
    tx.commit().await?;
    Ok(complete)
}

/// The id of the table's latest revision, if it is `revision` (the one the caller's page
/// showed) and not final yet.
pub(crate) async fn open_revision(
    tx: &mut PgConnection,
    table: &TableContext,
    revision: Revision,
    missing: &str,
    already_final: &str,
) -> Result<i64, ResultsError> {
    let latest: Option<(i64, Revision, Option<DateTime<Utc>>)> = sqlx::query_as(
        "SELECT id, revision, final_at FROM game_reports WHERE table_id = $1 \
         ORDER BY revision DESC LIMIT 1",
    )
    .bind(table.table_id)
    .fetch_optional(&mut *tx)
    .await?;
    let Some((report_id, current, final_at)) = latest else {
        return Err(ResultsError::State(missing.to_owned()));
    };
    if current != revision {
        return Err(ResultsError::Changed {
            what: "This table's report",
            revision: current,
            by: "a judge".into(),
        });
    }
    if final_at.is_some() {
        return Err(ResultsError::State(already_final.to_owned()));
    }
    Ok(report_id)
}

pub(crate) async fn mark_final(
    tx: &mut PgConnection,
    report_id: i64,
    table: &TableContext,
    by: Option<tournament::ids::UserId>,
) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE game_reports SET final_at = now(), finalised_by = $2 WHERE id = $1")
        .bind(report_id)
        .bind(by)
        .execute(&mut *tx)
        .await?;
    sqlx::query("UPDATE game_tables SET reported_at = now(), version = version + 1 WHERE id = $1")
        .bind(table.table_id)
        .execute(&mut *tx)
        .await?;
    Ok(())
}

/// The head judge makes revision `revision` final without waiting for (or despite)
/// confirmations (4.01.05).
pub async fn finalise(
    pool: &PgPool,
    actor: &Actor,
    event_id: EventId,
    round: RoundNumber,
    table: TableNumber,
    revision: Revision,
) -> Result<(), ResultsError> {
    let mut tx = pool.begin().await?;
    let table = table::lock(&mut tx, event_id, round, table).await?;
    let report_id = open_revision(
        &mut tx,
        &table,
        revision,
        "This table has no report to finalise yet.",
        "This report is already final.",
    )
    .await?;
    mark_final(&mut tx, report_id, &table, Some(actor.user_id)).await?;
    let subject = table.label();
    audit::record(
        &mut *tx,
        audit::Entry::by(
            actor,
            audit::Action::ReportFinalised,
            event_id,
            &subject,
            serde_json::json!({ "round": table.round, "table": table.table, "revision": revision }),
        ),
    )
    .await?;
    live::notify(&mut *tx, event_id, live::Topic::Table).await?;
    live::notify(&mut *tx, event_id, live::Topic::Standings).await?;
    tx.commit().await?;
    Ok(())
}

/// One seat of a report as the player asked to confirm it reads it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ReportLine {
    pub player_id: PlayerId,
    pub player: String,
    pub faction: Faction,
    pub ally: Option<Faction>,
    /// The result, adjudication included (4.01.09).
    pub result: Option<WinType>,
    pub end: EndValues,
    pub win_attempts: u32,
}

/// A report at a player's table that is not final yet: what they are asked to confirm.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AwaitingReport {
    pub round: RoundNumber,
    pub table: TableNumber,
    pub revision: Revision,
    pub ended: Ending,
    pub last_turn: u32,
    /// In seat order.
    pub seats: Vec<ReportLine>,
    /// The player's answer to this revision: none yet, agreed, or disputed.
    pub answer: Option<bool>,
    /// Where the player's dispute stands, if they disputed.
    pub dispute: Option<DisputeState>,
    /// The player disputed an earlier revision, and this one settled it: the resolution's note.
    pub settled: Option<String>,
}

/// The reports at `player_id`'s tables that are not final yet, oldest round first: the
/// player's card says that they await the player's confirmation, with the values.
pub async fn awaiting_for(
    pool: &PgPool,
    event_id: EventId,
    player_id: PlayerId,
) -> Result<Vec<AwaitingReport>, ResultsError> {
    let tables: Vec<(RoundNumber, TableNumber)> = sqlx::query_as(
        "SELECT r.number, t.number FROM seats s JOIN game_tables t ON t.id = s.table_id \
         JOIN rounds r ON r.id = t.round_id \
         WHERE r.event_id = $1 AND s.player_id = $2 AND t.reported_at IS NULL \
           AND EXISTS (SELECT 1 FROM game_reports g WHERE g.table_id = t.id) \
         ORDER BY r.number",
    )
    .bind(event_id)
    .bind(player_id)
    .fetch_all(pool)
    .await?;
    let mut out = Vec::new();
    for (round, table) in tables {
        let results = table_results(pool, event_id, round, table).await?;
        let Some(latest) = results.latest() else {
            continue;
        };
        if latest.final_at.is_some() {
            continue;
        }
        let counts = results.counts();
        let result_of = |id: PlayerId, drafted: Option<WinType>| {
            results.outcome.as_ref().map_or(drafted, |o| {
                o.results
                    .iter()
                    .find(|(p, _)| *p == id)
                    .map_or(drafted, |(_, w)| *w)
            })
        };
        let mine = latest
            .confirmations
            .iter()
            .find(|c| c.player_id == player_id);
        // A dispute of an earlier revision settled when this one was saved.
        let settled = results
            .revisions
            .iter()
            .skip(1)
            .flat_map(|r| &r.confirmations)
            .filter(|c| c.player_id == player_id)
            .find_map(|c| match &c.dispute {
                Some(DisputeState::Resolved { note, at, .. }) if *at >= latest.created_at => {
                    Some(note.clone())
                }
                _ => None,
            });
        out.push(AwaitingReport {
            round,
            table,
            revision: latest.revision,
            ended: latest.draft.ended,
            last_turn: latest.draft.last_turn,
            seats: results
                .table
                .seats
                .iter()
                .filter_map(|line| {
                    let s = latest
                        .draft
                        .seats
                        .iter()
                        .find(|s| s.player_id == line.player_id)?;
                    Some(ReportLine {
                        player_id: s.player_id,
                        player: line.player.to_string(),
                        faction: s.faction,
                        ally: s.ally,
                        result: result_of(s.player_id, s.result),
                        end: s.end,
                        win_attempts: counts.get(&s.player_id).copied().unwrap_or(0),
                    })
                })
                .collect(),
            answer: mine.map(|c| c.agrees),
            dispute: mine.and_then(|c| c.dispute.clone()),
            settled,
        });
    }
    Ok(out)
}

fn capitalise(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}
