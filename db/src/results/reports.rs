//! Game reports (4.01.02, 4.01.07): saved as revisions, confirmed by the seated players or
//! finalised by the head judge (4.01.05), corrected by new revisions with a reason.

use std::collections::{BTreeMap, HashMap};

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use sqlx::PgPool;
use tournament::{
    Faction, PlayerName, Tiebreakers, WinType,
    adjudication::{self, AdjudicationSeat},
    report::{Ending, GameReport, Report, ReportError, SeatReport},
};

use super::{FieldProblem, ResultsError, TableContext, attempts, reason_of, table};
use crate::{audit, live, roles::Actor};

/// One seat's line of the report: the result and the end values of 4.01.11 (win attempts come
/// from the win-attempt record).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatResult {
    pub player_id: i64,
    pub faction: Faction,
    pub ally: Option<Faction>,
    pub result: Option<WinType>,
    pub strongholds: u32,
    pub forces: u32,
    pub spice: u32,
    pub cards: u32,
    pub leaders: u32,
}

/// What a judge fills in at the end of a game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Draft {
    pub ended: Ending,
    pub last_turn: i16,
    pub seats: Vec<SeatResult>,
    /// The head judge's draw when an adjudication tie survives every category (ruling 9).
    pub judge_draw: Option<i64>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Confirmation {
    pub player_id: i64,
    pub agrees: bool,
    pub note: Option<String>,
    /// Who answered: the player, or the judge for them.
    pub by: Option<String>,
    pub at: DateTime<Utc>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Revision {
    pub id: i64,
    pub revision: i32,
    pub draft: Draft,
    pub reason: Option<String>,
    pub created_by: Option<String>,
    pub created_at: DateTime<Utc>,
    pub final_at: Option<DateTime<Utc>>,
    pub finalised_by: Option<String>,
    pub confirmations: Vec<Confirmation>,
}

/// Where a table's report stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum Status {
    Missing,
    /// Waiting for the seated players' confirmations.
    Awaiting {
        confirmed: usize,
        seated: usize,
    },
    /// A player disputes it: the head judge decides (4.01.05).
    Disputed,
    Final,
}

impl Status {
    pub fn label(self) -> String {
        match self {
            Status::Missing => "no report yet".into(),
            Status::Awaiting { confirmed, seated } => {
                format!("awaiting confirmation ({confirmed} of {seated})")
            }
            Status::Disputed => "disputed: head judge to decide (4.01.05)".into(),
            Status::Final => "final".into(),
        }
    }
}

/// The results a report gives, adjudication included, and how adjudication got there.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Outcome {
    pub results: Vec<(i64, Option<WinType>)>,
    pub adjudication: Option<Vec<String>>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableResults {
    pub table: TableContext,
    /// Every revision of every turn's win attempts.
    pub attempts: Vec<attempts::TurnRecord>,
    /// Newest first.
    pub revisions: Vec<Revision>,
    pub status: Status,
    /// The latest revision's results, when it is valid.
    pub outcome: Option<Outcome>,
}

impl TableResults {
    pub fn latest(&self) -> Option<&Revision> {
        self.revisions.first()
    }

    /// Win attempts per player as the latest report counts them.
    pub fn counts(&self) -> BTreeMap<i64, u32> {
        attempts::counts(&self.attempts, self.latest().map(|r| r.draft.last_turn))
    }
}

fn status_of(table: &TableContext, latest: Option<&Revision>) -> Status {
    let Some(rev) = latest else {
        return Status::Missing;
    };
    if rev.final_at.is_some() {
        return Status::Final;
    }
    if rev.confirmations.iter().any(|c| !c.agrees) {
        return Status::Disputed;
    }
    Status::Awaiting {
        confirmed: rev.confirmations.iter().filter(|c| c.agrees).count(),
        seated: table.seats.len(),
    }
}

/// The form field a report error belongs to: `seat-<player id>-<field>`, or the game's own.
fn field_of(table: &TableContext, error: &ReportError) -> String {
    let player = error.player.as_ref().and_then(|name| {
        table
            .seats
            .iter()
            .find(|s| s.player == name.as_str())
            .map(|s| s.player_id)
    });
    match (player, error.field) {
        (Some(id), Some(field)) => format!("seat-{id}-{field}"),
        (Some(id), None) => format!("seat-{id}-result"),
        (None, Some(field)) => field.to_owned(),
        (None, None) => "ended".to_owned(),
    }
}

/// Checks a draft against the table and the tournament rules; gives the results and the
/// adjudication's reasoning when it is valid.
pub fn check(
    table: &TableContext,
    draft: &Draft,
    counts: &BTreeMap<i64, u32>,
) -> Result<Outcome, Vec<FieldProblem>> {
    let mut problems = Vec::new();
    let mut push = |field: String, message: String| problems.push(FieldProblem { field, message });
    if !(1..=attempts::LAST_TURN).contains(&draft.last_turn) {
        push(
            "last_turn".into(),
            "The last turn played is a turn from 1 to 10 (1.09.05).".into(),
        );
    }
    if draft.ended == Ending::Turns && draft.last_turn != attempts::LAST_TURN {
        push(
            "last_turn".into(),
            format!(
                "A game that reached the end of the last turn has played turn 10, not {} (1.09.05); if it stopped earlier it ended by a win or the clock.",
                draft.last_turn
            ),
        );
    }
    let mut by_player: HashMap<i64, &SeatResult> = HashMap::new();
    for seat in &draft.seats {
        if table.seat_of(seat.player_id).is_none() {
            push(
                "seats".into(),
                "The report names a player who does not sit at this table; reload the page.".into(),
            );
        } else if by_player.insert(seat.player_id, seat).is_some() {
            push(
                "seats".into(),
                "A player appears twice in the report.".into(),
            );
        }
    }
    let mut game_seats = Vec::with_capacity(table.seats.len());
    for line in &table.seats {
        let Some(seat) = by_player.get(&line.player_id) else {
            push(
                format!("seat-{}-result", line.player_id),
                format!(
                    "{} sits at this table but is missing from the report.",
                    line.player
                ),
            );
            continue;
        };
        if let Some(dealt) = line.faction
            && dealt != seat.faction
        {
            push(
                format!("seat-{}-faction", line.player_id),
                format!(
                    "{} was dealt {} ({}) at this table (0.08), not {}.",
                    line.player,
                    dealt.code(),
                    dealt.name(),
                    seat.faction.code()
                ),
            );
        }
        let Ok(player) = PlayerName::parse(&line.player) else {
            continue;
        };
        game_seats.push(SeatReport {
            player,
            faction: seat.faction,
            ally: seat.ally,
            result: seat.result,
            tiebreakers: Tiebreakers {
                win_attempts: counts.get(&line.player_id).copied().unwrap_or(0),
                strongholds: seat.strongholds,
                forces: seat.forces,
                spice: seat.spice,
                cards: seat.cards,
                leaders: seat.leaders,
            },
        });
    }
    let judge_draw = match draft.judge_draw {
        None => None,
        Some(id) => match table.seat_of(id) {
            Some(line) => PlayerName::parse(&line.player).ok(),
            None => {
                push(
                    "judge_draw".into(),
                    "The player drawn does not sit at this table.".into(),
                );
                None
            }
        },
    };
    if !problems.is_empty() {
        return Err(problems);
    }
    let report = Report {
        ruleset: table.ruleset,
        options: table.options.clone(),
        games: vec![GameReport {
            round: u32::try_from(table.round).unwrap_or(0),
            table: u32::try_from(table.table).unwrap_or(0),
            ended: draft.ended,
            seats: game_seats,
            judge_draw,
        }],
    };
    let valid = tournament::validate(&report).map_err(|errors| {
        errors
            .0
            .iter()
            .map(|e| FieldProblem {
                field: field_of(table, e),
                message: {
                    let text = e.problem.to_string();
                    match &e.player {
                        Some(p) => format!("{p}: {text}"),
                        None => capitalised(&text),
                    }
                },
            })
            .collect::<Vec<_>>()
    })?;
    let Some(game) = valid.games().first() else {
        return Err(vec![FieldProblem {
            field: "ended".into(),
            message: "The report has no game.".into(),
        }]);
    };
    let ids: Vec<i64> = game
        .seats()
        .iter()
        .filter_map(|s| {
            table
                .seats
                .iter()
                .find(|l| l.player == s.player.as_str())
                .map(|l| l.player_id)
        })
        .collect();
    let adjudication = game.adjudication().map(|adj| {
        let seats: Vec<AdjudicationSeat> = game
            .seats()
            .iter()
            .zip(game.allies())
            .map(|(s, &ally)| AdjudicationSeat {
                ally,
                tiebreakers: s.tiebreakers,
            })
            .collect();
        let labels: Vec<String> = game
            .seats()
            .iter()
            .map(|s| format!("{} ({})", s.faction.code(), s.player))
            .collect();
        adjudication::explain(&seats, adj, &labels)
    });
    Ok(Outcome {
        results: ids
            .into_iter()
            .zip(game.results().iter().copied())
            .collect(),
        adjudication,
    })
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

type ConfirmationRow = (
    i64,
    i64,
    bool,
    Option<String>,
    Option<String>,
    DateTime<Utc>,
);

type RevisionRow = (
    i64,
    i32,
    String,
    i16,
    serde_json::Value,
    Option<i64>,
    Option<String>,
    Option<String>,
    DateTime<Utc>,
    Option<DateTime<Utc>>,
    Option<String>,
);

/// A stored ending; the schema admits only the three codes.
pub(crate) fn ending(code: &str) -> Result<Ending, sqlx::Error> {
    Ending::from_code(code)
        .ok_or_else(|| sqlx::Error::Decode(format!("unknown ending {code:?}").into()))
}

async fn revisions(pool: &PgPool, table_id: i64) -> Result<Vec<Revision>, sqlx::Error> {
    let rows: Vec<RevisionRow> = sqlx::query_as(
        "SELECT r.id, r.revision, r.ended, r.last_turn, r.seats, r.judge_draw, r.reason, \
           c.username, r.created_at, r.final_at, f.username \
         FROM game_reports r LEFT JOIN users c ON c.id = r.created_by \
           LEFT JOIN users f ON f.id = r.finalised_by \
         WHERE r.table_id = $1 ORDER BY r.revision DESC",
    )
    .bind(table_id)
    .fetch_all(pool)
    .await?;
    let ids: Vec<i64> = rows.iter().map(|r| r.0).collect();
    let confirmations: Vec<ConfirmationRow> = sqlx::query_as(
        "SELECT c.report_id, c.player_id, c.agrees, c.note, u.username, c.at \
             FROM report_confirmations c LEFT JOIN users u ON u.id = c.by_user \
             WHERE c.report_id = ANY($1) ORDER BY c.at",
    )
    .bind(&ids)
    .fetch_all(pool)
    .await?;
    let mut out = Vec::with_capacity(rows.len());
    for (id, revision, ended, last_turn, seats, judge_draw, reason, by, at, final_at, fin) in rows {
        let seats: Vec<SeatResult> =
            serde_json::from_value(seats).map_err(|e| sqlx::Error::Decode(Box::new(e)))?;
        out.push(Revision {
            id,
            revision,
            draft: Draft {
                ended: ending(&ended)?,
                last_turn,
                seats,
                judge_draw,
            },
            reason,
            created_by: by,
            created_at: at,
            final_at,
            finalised_by: fin,
            confirmations: confirmations
                .iter()
                .filter(|c| c.0 == id)
                .map(|c| Confirmation {
                    player_id: c.1,
                    agrees: c.2,
                    note: c.3.clone(),
                    by: c.4.clone(),
                    at: c.5,
                })
                .collect(),
        });
    }
    Ok(out)
}

/// Everything recorded at a table: win attempts, report revisions, confirmations, and where the
/// report stands.
pub async fn table_results(
    pool: &PgPool,
    event_id: i64,
    table_id: i64,
) -> Result<TableResults, ResultsError> {
    let table = table::load(pool, event_id, table_id).await?;
    let attempts = attempts::history(pool, table_id).await?;
    let revisions = revisions(pool, table_id).await?;
    let status = status_of(&table, revisions.first());
    let outcome = revisions.first().and_then(|rev| {
        let counts = attempts::counts(&attempts, Some(rev.draft.last_turn));
        check(&table, &rev.draft, &counts).ok()
    });
    Ok(TableResults {
        table,
        attempts,
        revisions,
        status,
        outcome,
    })
}

/// Saves a report as a new revision. `base_revision` is the revision the judge's page showed
/// (0: none yet); if someone saved since, nothing is written and the caller is told who, so the
/// judge can compare. Correcting a final report needs the head judge (`may_override`) and a
/// reason; the correction is final at once (the head judge's decision is final, 4.01.05).
/// Returns the new revision's number.
#[allow(clippy::too_many_arguments)]
pub async fn save(
    pool: &PgPool,
    actor: &Actor,
    may_override: bool,
    event_id: i64,
    table_id: i64,
    base_revision: i32,
    draft: &Draft,
    reason: Option<&str>,
) -> Result<i32, ResultsError> {
    let mut tx = pool.begin().await?;
    let table = table::lock(&mut tx, event_id, table_id).await?;
    let current: Option<(i32, Option<DateTime<Utc>>, Option<String>)> = sqlx::query_as(
        "SELECT r.revision, r.final_at, u.username FROM game_reports r \
         LEFT JOIN users u ON u.id = r.created_by WHERE r.table_id = $1 \
         ORDER BY r.revision DESC LIMIT 1",
    )
    .bind(table_id)
    .fetch_optional(&mut *tx)
    .await?;
    let current_revision = current.as_ref().map_or(0, |c| c.0);
    if current_revision != base_revision {
        return Err(ResultsError::Changed {
            what: "This table's report",
            revision: current_revision,
            by: current
                .and_then(|c| c.2)
                .unwrap_or_else(|| "someone".into()),
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
    let turns = attempts::latest_turns(&mut tx, &[table_id]).await?;
    if let Some((_, late, _)) = turns
        .iter()
        .find(|(_, turn, players)| *turn > draft.last_turn && !players.is_empty())
    {
        return Err(ResultsError::field(
            "last_turn",
            format!(
                "Win attempts are recorded for turn {late}, after the last turn played ({}); correct the last turn or that record.",
                draft.last_turn
            ),
        ));
    }
    let mut counts = BTreeMap::new();
    for (_, _, players) in turns.iter().filter(|(_, turn, _)| *turn <= draft.last_turn) {
        for &p in players {
            *counts.entry(p).or_insert(0) += 1;
        }
    }
    let outcome = check(&table, draft, &counts).map_err(ResultsError::Invalid)?;
    let revision = current_revision + 1;
    let seats = serde_json::to_value(&draft.seats).map_err(|e| sqlx::Error::Encode(Box::new(e)))?;
    let report_id: i64 = sqlx::query_scalar(
        "INSERT INTO game_reports (table_id, revision, ended, last_turn, seats, judge_draw, reason, \
           created_by, final_at, finalised_by) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, CASE WHEN $9 THEN now() END, CASE WHEN $9 THEN $8 END) \
         RETURNING id",
    )
    .bind(table_id)
    .bind(revision)
    .bind(draft.ended.code())
    .bind(draft.last_turn)
    .bind(seats)
    .bind(draft.judge_draw)
    .bind(&reason)
    .bind(actor.user_id)
    .bind(correcting_final)
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
                "reason": reason,
            }),
        ),
    )
    .await?;
    live::notify(&mut *tx, event_id, live::Topic::Table).await?;
    if correcting_final {
        live::notify(&mut *tx, event_id, live::Topic::Standings).await?;
    }
    tx.commit().await?;
    Ok(revision)
}

/// Who answers a report for a player.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answerer {
    /// The player, signed in with their linked account.
    Player,
    /// A judge, for a player who cannot (no phone, no account).
    Judge,
}

/// A seated player agrees with revision `revision`, or disputes it with a note. When every
/// seated player agrees the report is final.
#[allow(clippy::too_many_arguments)]
pub async fn answer(
    pool: &PgPool,
    actor: &Actor,
    answerer: Answerer,
    event_id: i64,
    table_id: i64,
    revision: i32,
    player_id: i64,
    agrees: bool,
    note: Option<&str>,
) -> Result<bool, ResultsError> {
    let mut tx = pool.begin().await?;
    let table = table::lock(&mut tx, event_id, table_id).await?;
    let Some(seat) = table.seat_of(player_id).cloned() else {
        return Err(ResultsError::Forbidden(
            "That player does not sit at this table.".into(),
        ));
    };
    if answerer == Answerer::Player && seat.user_id != Some(actor.user_id) {
        return Err(ResultsError::Forbidden(format!(
            "Only {} (or a judge) can answer for {}.",
            seat.player, seat.player
        )));
    }
    let report_id = open_revision(
        &mut tx,
        table_id,
        revision,
        "This table has no report to confirm yet.",
        "This report is already final; ask the head judge if something is wrong (4.01.05).",
    )
    .await?;
    let note = reason_of(note);
    if !agrees && note.is_none() {
        return Err(ResultsError::field(
            "note",
            "Say what is wrong with the report, so the head judge can settle it.",
        ));
    }
    sqlx::query(
        "INSERT INTO report_confirmations (report_id, player_id, agrees, note, by_user) \
         VALUES ($1, $2, $3, $4, $5) ON CONFLICT (report_id, player_id) DO UPDATE \
         SET agrees = EXCLUDED.agrees, note = EXCLUDED.note, by_user = EXCLUDED.by_user, at = now()",
    )
    .bind(report_id)
    .bind(player_id)
    .bind(agrees)
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
    let complete = usize::try_from(agreed).unwrap_or(0) >= table.seats.len();
    if complete {
        mark_final(&mut tx, report_id, table_id, None).await?;
    }
    let subject = format!("{}, {}", table.label(), seat.player);
    audit::record(
        &mut *tx,
        audit::Entry::by(
            actor,
            if agrees {
                audit::Action::ReportConfirmed
            } else {
                audit::Action::ReportDisputed
            },
            event_id,
            &subject,
            serde_json::json!({
                "round": table.round, "table": table.table, "revision": revision,
                "player": seat.player, "for_player": answerer == Answerer::Judge,
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
async fn open_revision(
    tx: &mut sqlx::PgConnection,
    table_id: i64,
    revision: i32,
    missing: &str,
    already_final: &str,
) -> Result<i64, ResultsError> {
    let latest: Option<(i64, i32, Option<DateTime<Utc>>)> = sqlx::query_as(
        "SELECT id, revision, final_at FROM game_reports WHERE table_id = $1 \
         ORDER BY revision DESC LIMIT 1",
    )
    .bind(table_id)
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

async fn mark_final(
    tx: &mut sqlx::PgConnection,
    report_id: i64,
    table_id: i64,
    by: Option<i64>,
) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE game_reports SET final_at = now(), finalised_by = $2 WHERE id = $1")
        .bind(report_id)
        .bind(by)
        .execute(&mut *tx)
        .await?;
    sqlx::query("UPDATE game_tables SET reported_at = now(), version = version + 1 WHERE id = $1")
        .bind(table_id)
        .execute(&mut *tx)
        .await?;
    Ok(())
}

/// The head judge makes revision `revision` final without waiting for (or despite)
/// confirmations (4.01.05).
pub async fn finalise(
    pool: &PgPool,
    actor: &Actor,
    event_id: i64,
    table_id: i64,
    revision: i32,
) -> Result<(), ResultsError> {
    let mut tx = pool.begin().await?;
    let table = table::lock(&mut tx, event_id, table_id).await?;
    let report_id = open_revision(
        &mut tx,
        table_id,
        revision,
        "This table has no report to finalise yet.",
        "This report is already final.",
    )
    .await?;
    mark_final(&mut tx, report_id, table_id, Some(actor.user_id)).await?;
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
