//! Server functions for results at a table: win attempts (4.01.04), the game report and its
//! revisions (4.01.02, 4.01.07), players' confirmations, the head judge's decisions (4.01.05),
//! and the finals (closing qualifying, the cut-line draw). Each begins with its role check.

// A server function takes one argument per form field. (The browser-side stub the `server` macro
// writes does not carry an `allow` on the function.)
#![allow(clippy::too_many_arguments)]

use dune::{Faction, Stronghold, WinType};
use leptos::prelude::*;
use serde::{Deserialize, Serialize};
use tournament::EndValues;
use tournament::ids::{PlayerId, Revision, RoundNumber, TableNumber};
use tournament::report::{Ending, ReportStatus};

use crate::error::AppError;
#[cfg(feature = "ssr")]
use crate::{
    events::load,
    server::{answer, back, back_with, fail, internal, pool, require, require_staff},
};
#[cfg(feature = "ssr")]
use leptos::server_fn::ServerFn;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatView {
    pub player_id: PlayerId,
    pub player: String,
    pub seat: i16,
    /// As dealt (0.08), once dealt.
    pub faction: Option<Faction>,
    /// The viewer's own seat (their linked account).
    pub mine: bool,
    pub win_attempts: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TurnView {
    pub turn: u32,
    pub revision: Revision,
    /// (player, strongholds seen).
    pub attempts: Vec<(String, Vec<Stronghold>)>,
    pub by: Option<String>,
    pub at: String,
    pub reason: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReportSeatView {
    pub player_id: PlayerId,
    pub player: String,
    pub faction: Faction,
    pub ally: Option<Faction>,
    pub result: Option<WinType>,
    pub end: EndValues,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConfirmationView {
    pub player: String,
    pub agrees: bool,
    pub note: Option<String>,
    pub by: Option<String>,
    pub at: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RevisionView {
    pub revision: Revision,
    pub ended: Ending,
    pub last_turn: u32,
    pub seats: Vec<ReportSeatView>,
    pub judge_draw: Option<String>,
    /// The Bene Gesserit's prediction (2.02.03): faction and turn.
    #[serde(default)]
    pub prediction: Option<(Faction, u32)>,
    pub reason: Option<String>,
    pub by: Option<String>,
    pub at: String,
    pub final_at: Option<String>,
    pub finalised_by: Option<String>,
    pub confirmations: Vec<ConfirmationView>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableData {
    pub slug: String,
    pub event_name: String,
    pub round: RoundNumber,
    pub table: TableNumber,
    /// In seat order: a seat's position here is its position in the report.
    pub seats: Vec<SeatView>,
    /// Latest record of each recorded turn, then every older revision.
    pub turns: Vec<TurnView>,
    pub turn_history: Vec<TurnView>,
    /// Per recorded turn: the revision the page shows (for the stale-page check).
    pub turn_revisions: Vec<(u32, Revision)>,
    pub status: ReportStatus,
    /// Newest first. Empty when the viewer may not see an unconfirmed report.
    pub revisions: Vec<RevisionView>,
    pub latest_revision: Revision,
    /// (player, result) per seat, and the adjudication's reasoning (4.01.09).
    pub results: Vec<(String, Option<WinType>)>,
    pub adjudication: Vec<String>,
    /// The win types a report may name under the event's ruleset.
    pub win_types: Vec<WinType>,
    pub factions: Vec<Faction>,
    pub can_record: bool,
    pub can_override: bool,
    /// The viewer's own seat's player id, if they sit here.
    pub my_player: Option<PlayerId>,
    /// The final table (ruling 13).
    pub final_table: bool,
    /// The table's clock (4.01.08); it stops when the report becomes final.
    pub clock: Option<tournament::Clock>,
    /// The database's time as the page was read, for the clock and the page's "as of".
    pub now_ms: i64,
}

#[cfg(feature = "ssr")]
fn when(at: chrono::DateTime<chrono::Utc>) -> String {
    at.format("%Y-%m-%d %H:%M UTC").to_string()
}

/// A judge's check for recording results, with their role (which says whether they may also
/// change what is final).
#[cfg(feature = "ssr")]
async fn require_recorder(
    event_id: tournament::ids::EventId,
) -> Result<(db::roles::Actor, Option<db::roles::Role>), AppError> {
    match require(event_id, db::roles::Action::RecordResults).await? {
        (Some(actor), role) => Ok((actor, role)),
        (None, _) => fail(AppError::SignInRequired),
    }
}

#[server]
pub async fn get_table(
    slug: String,
    round: RoundNumber,
    table: TableNumber,
) -> Result<TableData, AppError> {
    use db::roles::{Action, allows};
    let event = load(&slug).await?;
    let (actor, role) = require(event.id, Action::ViewPublic).await?;
    let admin = actor.as_ref().is_some_and(|a| a.is_admin);
    let results =
        answer(db::results::reports::table_results(&pool()?, event.id, round, table).await)?;
    let my_player = actor.as_ref().and_then(|a| {
        results
            .table
            .seats
            .iter()
            .find(|s| s.user_id == Some(a.user_id))
            .map(|s| s.player_id)
    });
    let can_record = allows(role, admin, Action::RecordResults);
    let sees_unconfirmed = allows(role, admin, Action::ViewAllReports) || my_player.is_some();
    let name_of = |id: PlayerId| {
        results
            .table
            .seat_of(id)
            .map_or_else(|| format!("player {id}"), |s| s.player.to_string())
    };
    let counts = results.counts();
    let seat_of = |id: PlayerId| results.table.seat_of(id).map_or(i16::MAX, |s| s.seat);
    let turn_view = |r: &db::results::attempts::TurnRecord| TurnView {
        turn: r.turn,
        revision: r.revision,
        // In seat order, as the players sit and as the form lists them.
        attempts: {
            let mut list: Vec<&db::results::attempts::Attempt> = r.attempts.iter().collect();
            list.sort_by_key(|a| seat_of(a.player_id));
            list.iter()
                .map(|a| (name_of(a.player_id), a.strongholds.clone()))
                .collect()
        },
        by: r.recorded_by.clone(),
        at: when(r.recorded_at),
        reason: r.reason.clone(),
    };
    let latest_turns = db::results::attempts::latest(&results.attempts);
    let turns: Vec<TurnView> = latest_turns.iter().map(|r| turn_view(r)).collect();
    let turn_revisions = latest_turns.iter().map(|r| (r.turn, r.revision)).collect();
    let turn_history = results
        .attempts
        .iter()
        .filter(|r| !latest_turns.iter().any(|l| std::ptr::eq(*l, *r)))
        .map(turn_view)
        .collect();
    let revisions: Vec<RevisionView> = results
        .revisions
        .iter()
        .filter(|r| sees_unconfirmed || r.final_at.is_some())
        .map(|r| RevisionView {
            revision: r.revision,
            ended: r.draft.ended,
            last_turn: r.draft.last_turn,
            prediction: r.draft.prediction.map(|p| (p.faction, p.turn)),
            seats: r
                .draft
                .seats
                .iter()
                .map(|s| ReportSeatView {
                    player_id: s.player_id,
                    player: name_of(s.player_id),
                    faction: s.faction,
                    ally: s.ally,
                    result: s.result,
                    end: s.end,
                })
                .collect(),
            judge_draw: r.draft.judge_draw.map(name_of),
            reason: r.reason.clone(),
            by: r.created_by.clone(),
            at: when(r.created_at),
            final_at: r.final_at.map(when),
            finalised_by: r.finalised_by.clone(),
            confirmations: r
                .confirmations
                .iter()
                .map(|c| ConfirmationView {
                    player: name_of(c.player_id),
                    agrees: c.agrees,
                    note: c.note.clone(),
                    by: c.by.clone(),
                    at: when(c.at),
                })
                .collect(),
        })
        .collect();
    let (results_list, adjudication) = match (
        &results.outcome,
        sees_unconfirmed || results.status.is_final(),
    ) {
        (Some(o), true) => (
            o.results.iter().map(|(id, w)| (name_of(*id), *w)).collect(),
            o.adjudication.clone().unwrap_or_default(),
        ),
        _ => (Vec::new(), Vec::new()),
    };
    let ruleset = results.table.ruleset;
    let final_table = db::rounds::final_number(&pool()?, event.id)
        .await
        .map_err(|e| internal("loading the round", e))?
        == Some(round);
    let clock = db::clocks::of_table(&pool()?, event.id, round, table)
        .await
        .map_err(|e| internal("reading the table's clock", e))?;
    Ok(TableData {
        final_table,
        slug: event.slug,
        event_name: event.name,
        round,
        table,
        seats: results
            .table
            .seats
            .iter()
            .map(|s| SeatView {
                player_id: s.player_id,
                player: s.player.to_string(),
                seat: s.seat,
                faction: s.faction,
                mine: Some(s.player_id) == my_player,
                win_attempts: counts.get(&s.player_id).copied().unwrap_or(0),
            })
            .collect(),
        turns,
        turn_history,
        turn_revisions,
        status: results.status,
        latest_revision: results.latest().map_or(Revision::NONE, |r| r.revision),
        revisions,
        results: results_list,
        adjudication,
        win_types: ruleset
            .win_types()
            .iter()
            .copied()
            .filter(|w| *w != WinType::Adjudicated)
            .collect(),
        factions: ruleset.factions().to_vec(),
        can_record,
        can_override: allows(role, admin, Action::Override),
        my_player,
        clock: clock.map(|(c, _)| c),
        now_ms: clock.map_or_else(|| chrono::Utc::now().timestamp_millis(), |(_, now)| now),
    })
}

/// One seat's line of the win-attempt form.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AttemptSeatForm {
    pub player_id: PlayerId,
    /// The checkbox: present when ticked.
    #[serde(default)]
    pub made: Option<String>,
    /// Strongholds seen, separated by spaces or commas ("ARK CAR TUK").
    #[serde(default)]
    pub evidence: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AttemptsForm {
    pub slug: String,
    pub round: RoundNumber,
    pub table: TableNumber,
    pub turn: String,
    /// The revision of that turn the page showed, per turn: "4:1,5:2".
    #[serde(default)]
    pub shown: String,
    #[serde(default)]
    pub reason: String,
    #[serde(default)]
    pub seats: Vec<AttemptSeatForm>,
}

/// What a judge typed as the strongholds seen, each read as a code or a name; the unknown ones
/// are named back.
#[cfg(feature = "ssr")]
fn strongholds_seen(text: &str) -> Result<Vec<Stronghold>, String> {
    let (known, unknown): (Vec<_>, Vec<_>) = text
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|w| !w.is_empty())
        .map(|w| Stronghold::from_typed(w).ok_or(w))
        .partition(Result::is_ok);
    if unknown.is_empty() {
        Ok(known.into_iter().flatten().collect())
    } else {
        let words: Vec<&str> = unknown.into_iter().filter_map(Result::err).collect();
        Err(format!(
            "{} {} not a stronghold; write ARK, CAR, TUK, TAB, HAB or SW (4.02: the Shield Wall).",
            words.join(", "),
            if words.len() == 1 { "is" } else { "are" }
        ))
    }
}

#[server]
pub async fn record_attempts(form: AttemptsForm) -> Result<Revision, AppError> {
    use db::roles::{Action, allows};
    let event = load(&form.slug).await?;
    let (actor, role) = require_recorder(event.id).await?;
    let Ok(turn) = form.turn.trim().parse::<u32>() else {
        return fail(AppError::field(
            "turn",
            "Pick the turn whose Battle phase this is (1 to 10).",
        ));
    };
    let base = form
        .shown
        .split(',')
        .filter_map(|p| p.split_once(':'))
        .find(|(t, _)| t.trim().parse::<u32>().ok() == Some(turn))
        .and_then(|(_, r)| r.parse::<Revision>().ok())
        .unwrap_or(Revision::NONE);
    let mut attempts = Vec::new();
    let mut problems = Vec::new();
    for (i, s) in form.seats.iter().enumerate() {
        if s.made.is_none() {
            continue;
        }
        match strongholds_seen(&s.evidence) {
            Ok(strongholds) => attempts.push(db::results::attempts::Attempt {
                player_id: s.player_id,
                strongholds,
            }),
            Err(message) => problems.push((format!("evidence-{i}"), message)),
        }
    }
    if !problems.is_empty() {
        return fail(AppError::Fields(problems));
    }
    let entry = db::results::attempts::TurnEntry {
        turn,
        base_revision: base,
        attempts,
        reason: Some(form.reason.clone()),
    };
    let may_override = allows(role, actor.is_admin, Action::Override);
    let revision = answer(
        db::results::attempts::record(
            &pool()?,
            &actor,
            may_override,
            event.id,
            form.round,
            form.table,
            entry,
        )
        .await,
    )?;
    back_with(
        RecordAttempts::url(),
        &format!("Saved (revision {revision})."),
        &[],
    );
    Ok(revision)
}

/// One seat's line of the report form, in seat order; numbers as typed, checked on the server.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReportSeatForm {
    pub player_id: PlayerId,
    pub faction: String,
    #[serde(default)]
    pub ally: String,
    #[serde(default)]
    pub result: String,
    #[serde(default)]
    pub strongholds: String,
    #[serde(default)]
    pub forces: String,
    #[serde(default)]
    pub spice: String,
    #[serde(default)]
    pub cards: String,
    #[serde(default)]
    pub leaders: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReportForm {
    pub slug: String,
    pub round: RoundNumber,
    pub table: TableNumber,
    /// The revision the page showed (0: none).
    pub base_revision: Revision,
    pub ended: String,
    pub last_turn: String,
    #[serde(default)]
    pub judge_draw: String,
    #[serde(default)]
    pub reason: String,
    #[serde(default)]
    pub seats: Vec<ReportSeatForm>,
    /// The Bene Gesserit's prediction (2.02.03): the faction's code and the turn.
    #[serde(default)]
    pub prediction_faction: String,
    #[serde(default)]
    pub prediction_turn: String,
    /// The head judge calls time before the clock has run out (4.01.08): the report may say
    /// the game ended by the clock while it still runs; recorded in the audit log.
    #[serde(default)]
    pub call_time: Option<String>,
}

/// The form's text as typed values; what cannot be read is named at its control. Whether the
/// values make a valid report is the tournament rules' business, not this function's.
#[cfg(feature = "ssr")]
fn parse_report(form: &ReportForm) -> Result<db::results::reports::Draft, AppError> {
    use crate::error::seat_field_id;
    use tournament::report::capitalised;
    let mut problems: Vec<(String, String)> = Vec::new();
    let ended = match form.ended.as_str() {
        "win" => Some(Ending::Win),
        "time" => Some(Ending::Time),
        "turns" => Some(Ending::Turns),
        _ => {
            problems.push((
                "ended".into(),
                "Say how the game ended: a win, the clock, or the end of turn 10.".into(),
            ));
            None
        }
    };
    let last_turn = match form.last_turn.trim().parse::<u32>() {
        Ok(t) => Some(t),
        Err(_) => {
            problems.push((
                "last_turn".into(),
                "The last turn played is a number from 1 to 10.".into(),
            ));
            None
        }
    };
    let mut seats = Vec::new();
    for (i, s) in form.seats.iter().enumerate() {
        let field = |name: &str| seat_field_id(i, name);
        let faction = Faction::from_typed(&s.faction);
        if faction.is_none() {
            problems.push((
                field("faction"),
                "Pick the faction this player played.".into(),
            ));
        }
        let ally = match s.ally.trim() {
            "" => None,
            code => {
                let ally = Faction::from_typed(code);
                if ally.is_none() {
                    problems.push((field("ally"), format!("{code} is not a faction.")));
                }
                ally
            }
        };
        let result = match s.result.trim() {
            "" => None,
            code => {
                let win = WinType::from_typed(code);
                if win.is_none() {
                    problems.push((field("result"), format!("{code} is not a result.")));
                }
                win
            }
        };
        let mut end = EndValues::default();
        for (category, text) in EndValues::CATEGORIES.into_iter().zip([
            &s.strongholds,
            &s.forces,
            &s.spice,
            &s.cards,
            &s.leaders,
        ]) {
            match text.trim() {
                "" => {}
                t => match t.parse::<u32>() {
                    Ok(n) => end.set(category, n),
                    Err(_) => problems.push((
                        field(category.field()),
                        format!(
                            "{} is a whole number, such as 3 (you typed {t:?}).",
                            capitalised(category.label())
                        ),
                    )),
                },
            }
        }
        if let Some(faction) = faction {
            seats.push(db::results::reports::SeatResult {
                player_id: s.player_id,
                faction,
                ally,
                result,
                end,
            });
        }
    }
    let judge_draw = match form.judge_draw.trim() {
        "" => None,
        id => match id.parse::<PlayerId>() {
            Ok(id) => Some(id),
            Err(_) => {
                problems.push(("judge_draw".into(), "Pick the player drawn.".into()));
                None
            }
        },
    };
    let prediction = match (form.prediction_faction.trim(), form.prediction_turn.trim()) {
        ("", "") => None,
        ("", _) => {
            problems.push((
                "prediction_faction".into(),
                "Pick the faction the Bene Gesserit predicted (2.02.03).".into(),
            ));
            None
        }
        (_, "") => {
            problems.push((
                "prediction_turn".into(),
                "Give the turn the Bene Gesserit predicted (2.02.03).".into(),
            ));
            None
        }
        (code, turn) => {
            let faction = Faction::from_typed(code);
            if faction.is_none() {
                problems.push((
                    "prediction_faction".into(),
                    format!("{code} is not a faction."),
                ));
            }
            let turn = turn.parse::<u32>().ok();
            if turn.is_none() {
                problems.push((
                    "prediction_turn".into(),
                    "The predicted turn is a number from 1 to 10.".into(),
                ));
            }
            faction
                .zip(turn)
                .map(|(faction, turn)| tournament::Prediction { faction, turn })
        }
    };
    match (ended, last_turn) {
        (Some(ended), Some(last_turn)) if problems.is_empty() => Ok(db::results::reports::Draft {
            ended,
            last_turn,
            seats,
            judge_draw,
            prediction,
        }),
        _ => Err(AppError::Fields(problems)),
    }
}

#[server]
pub async fn save_report(form: ReportForm) -> Result<Revision, AppError> {
    use db::roles::{Action, allows};
    let event = load(&form.slug).await?;
    let (actor, role) = require_recorder(event.id).await?;
    let draft = answer(parse_report(&form))?;
    let may_override = allows(role, actor.is_admin, Action::Override);
    let early = form.call_time.as_deref().is_some_and(|v| !v.is_empty());
    let pool = pool()?;
    let saved = if early {
        db::results::reports::save_calling_time(
            &pool,
            &actor,
            may_override,
            event.id,
            form.round,
            form.table,
            form.base_revision,
            &draft,
            Some(&form.reason),
        )
        .await
    } else {
        db::results::reports::save(
            &pool,
            &actor,
            may_override,
            event.id,
            form.round,
            form.table,
            form.base_revision,
            &draft,
            Some(&form.reason),
        )
        .await
    };
    let revision = answer(saved)?;
    back_with(
        SaveReport::url(),
        &format!("Saved as revision {revision}."),
        &[],
    );
    Ok(revision)
}

/// A seated player answers the report (agree, or dispute with a note); a judge may answer for
/// a player (`for_player`).
#[server]
pub async fn answer_report(
    slug: String,
    round: RoundNumber,
    table: TableNumber,
    revision: Revision,
    player_id: PlayerId,
    agrees: bool,
    #[server(default)] note: String,
    #[server(default)] for_player: bool,
) -> Result<bool, AppError> {
    use db::results::reports::{Answer, Answerer};
    use db::roles::Action;
    let event = load(&slug).await?;
    let (actor, answerer) = if for_player {
        (
            require_staff(event.id, Action::RecordResults).await?,
            Answerer::Judge,
        )
    } else {
        (
            require_staff(event.id, Action::ConfirmOwnReport).await?,
            Answerer::Player,
        )
    };
    let reply = Answer {
        round,
        table,
        revision,
        player_id,
        agrees,
        note: Some(note),
        answerer,
    };
    let complete = answer(db::results::reports::answer(&pool()?, &actor, event.id, &reply).await)
        .map_err(|e| {
        // A judge's page holds a dispute form per player: name the note of this one.
        match e {
            AppError::Field { field, message } if field == "note" => AppError::Field {
                field: note_field(player_id),
                message,
            },
            e => e,
        }
    })?;
    back();
    Ok(complete)
}

/// The form field of a dispute's note, one per player on the table page.
pub fn note_field(player_id: PlayerId) -> String {
    format!("note-{player_id}")
}

#[server]
pub async fn finalise_report(
    slug: String,
    round: RoundNumber,
    table: TableNumber,
    revision: Revision,
) -> Result<(), AppError> {
    let event = load(&slug).await?;
    let actor = require_staff(event.id, db::roles::Action::Override).await?;
    answer(
        db::results::reports::finalise(&pool()?, &actor, event.id, round, table, revision).await,
    )?;
    back();
    Ok(())
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FinalsView {
    pub slug: String,
    pub event_name: String,
    pub seats: usize,
    pub can_override: bool,
    pub closed: bool,
    pub closed_at: Option<String>,
    pub closed_by: Option<String>,
    /// Sure of a seat (closed: as fixed at closing; open: as the standings stand now).
    pub finalists: Vec<String>,
    /// The finalists' rows of the standings, in order, each with the tiebreak that put them
    /// above the next player where one did.
    pub finalist_rows: Vec<CutRow>,
    pub tied: Vec<String>,
    pub open_seats: usize,
    /// (seed, picked, by, at) once drawn.
    pub draw: Option<(String, Vec<String>, Option<String>, String)>,
    pub tables: i64,
    pub tables_final: i64,
    /// The players around the finals line with what separated them; empty while no game
    /// counts or when everyone is in.
    pub cut: Vec<CutRow>,
    /// How many of `cut` are above the line.
    pub cut_above: usize,
    /// The final table, once drawn.
    pub final_table: Option<crate::final_table::FinalTableView>,
    /// How the final table is seated (the event's setting).
    pub qualifying_order: bool,
}

/// One player of the finals page (a finalist, or near the finals line): points and the best
/// game's score (4.01.11), and why they are above the next row.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CutRow {
    pub rank: usize,
    pub player: String,
    pub points: String,
    /// The best game's values with their names, points first; empty without a game.
    pub best: Vec<(String, String)>,
    /// The same in short (`3 pts · 2 WA · …`, `tournament::standings::SCORE_LEGEND`).
    pub best_short: String,
    /// Tied across the cut: settled by a recorded draw (ruling 11).
    pub tied: bool,
    /// Why this row is above the next one shown.
    pub reason: Option<String>,
    /// The reason is a tiebreaker (same points as the next row).
    pub tiebreak: bool,
}

#[cfg(feature = "ssr")]
impl CutRow {
    fn of(row: &db::results::standings::Row, reason: Option<String>) -> CutRow {
        CutRow {
            rank: row.rank,
            player: row.player.clone(),
            points: row.points.clone(),
            best: row
                .best
                .map(|b| {
                    b.labelled()
                        .into_iter()
                        .map(|(name, value)| (name.to_owned(), value))
                        .collect()
                })
                .unwrap_or_default(),
            best_short: row.best.map(|b| b.short()).unwrap_or_default(),
            tied: row.finalist.is_none(),
            tiebreak: row.tiebreak && reason.is_some(),
            reason,
        }
    }
}

#[server]
pub async fn get_finals(slug: String) -> Result<FinalsView, AppError> {
    use db::roles::{Action, allows};
    let event = load(&slug).await?;
    let (actor, role) = require(event.id, Action::ViewPublic).await?;
    let admin = actor.as_ref().is_some_and(|a| a.is_admin);
    let standings = db::results::standings::event_standings(&pool()?, event.id)
        .await
        .map_err(|e| internal("computing the standings", e))?;
    let can_override = allows(role, admin, Action::Override);
    let (cut, cut_above) = match standings.around_the_line() {
        Some((rows, above)) => (
            rows.iter()
                .enumerate()
                .map(|(i, r)| CutRow::of(r, r.reason.clone().filter(|_| i + 1 < rows.len())))
                .collect(),
            above,
        ),
        None => (Vec::new(), 0),
    };
    let base = FinalsView {
        slug: event.slug,
        event_name: event.name,
        seats: standings.finals_seats,
        can_override,
        closed: false,
        closed_at: None,
        closed_by: None,
        finalists: Vec::new(),
        finalist_rows: Vec::new(),
        tied: Vec::new(),
        open_seats: 0,
        draw: None,
        tables: standings.tables,
        tables_final: standings.tables_final,
        cut,
        cut_above,
        final_table: standings.final_table.as_ref().map(Into::into),
        qualifying_order: false,
    };
    let qualifying_order = db::events::detail(&pool()?, event.id)
        .await
        .map_err(|e| internal("loading the event", e))?
        .is_some_and(|d| {
            d.settings.options.final_seating == tournament::FinalSeating::QualifyingOrder
        });
    let base = FinalsView {
        qualifying_order,
        ..base
    };
    // Each finalist's row, in standings order, with the reason it is above the next row of
    // the standings (a finalist or not) when a tiebreaker decided it.
    let finalist_rows = |names: &[String]| -> Vec<CutRow> {
        standings
            .rows
            .iter()
            .filter(|r| names.contains(&r.player))
            .map(|r| CutRow::of(r, r.reason.clone().filter(|_| r.tiebreak)))
            .collect()
    };
    Ok(match standings.closed {
        Some(c) => FinalsView {
            finalist_rows: finalist_rows(&c.finalists),
            closed: true,
            closed_at: Some(when(c.closed_at)),
            closed_by: c.closed_by,
            finalists: c.finalists,
            tied: c.tied,
            open_seats: usize::try_from(c.open_seats).unwrap_or(0),
            draw: c
                .draw
                .map(|d| (d.seed.to_string(), d.picked, d.by, when(d.at))),
            ..base
        },
        None => FinalsView {
            finalist_rows: finalist_rows(
                &standings
                    .rows
                    .iter()
                    .filter(|r| r.finalist == Some(true))
                    .map(|r| r.player.clone())
                    .collect::<Vec<_>>(),
            ),
            finalists: standings
                .rows
                .iter()
                .filter(|r| r.finalist == Some(true))
                .map(|r| r.player.clone())
                .collect(),
            tied: standings
                .cut_tie
                .as_ref()
                .map(|t| t.0.clone())
                .unwrap_or_default(),
            open_seats: standings.cut_tie.as_ref().map_or(0, |t| t.1),
            ..base
        },
    })
}

#[server]
pub async fn draw_finals_tie(
    slug: String,
    #[server(default)] seed: String,
) -> Result<(), AppError> {
    let event = load(&slug).await?;
    let actor = require_staff(event.id, db::roles::Action::Override).await?;
    let seed = match seed.trim() {
        "" => None,
        s => match s.parse::<u64>() {
            Ok(n) => Some(n),
            Err(_) => {
                return fail(AppError::field(
                    "seed",
                    "A seed is a whole number, such as 2026; leave it empty for a random one.",
                ));
            }
        },
    };
    answer(db::results::finals::draw_cut(&pool()?, &actor, event.id, seed).await)?;
    back();
    Ok(())
}
