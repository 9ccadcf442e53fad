//! Server functions for results at a table: win attempts (4.01.04), the game report and its
//! revisions (4.01.02, 4.01.07), players' confirmations, the head judge's decisions (4.01.05),
//! and the finals (closing qualifying, the cut-line draw). Each begins with its role check.

use leptos::prelude::*;
use serde::{Deserialize, Serialize};

use crate::error::AppError;
#[cfg(feature = "ssr")]
use crate::{
    events::load,
    server::{fail, internal, pool, require, require_staff},
};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatView {
    pub player_id: i64,
    pub player: String,
    pub seat: i16,
    /// Faction code as dealt, if known.
    pub faction: Option<String>,
    pub faction_name: Option<String>,
    /// The viewer's own seat (their linked account).
    pub mine: bool,
    pub win_attempts: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TurnView {
    pub turn: i16,
    pub revision: i32,
    /// (player, strongholds seen).
    pub attempts: Vec<(String, Vec<String>)>,
    pub by: Option<String>,
    pub at: String,
    pub reason: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReportSeatView {
    pub player_id: i64,
    pub player: String,
    pub faction: String,
    pub ally: Option<String>,
    pub result: Option<String>,
    /// strongholds, forces, spice, cards, leaders.
    pub values: [u32; 5],
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
    pub revision: i32,
    pub ended: String,
    pub last_turn: i16,
    pub seats: Vec<ReportSeatView>,
    pub judge_draw: Option<String>,
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
    pub round: i32,
    pub table: i32,
    pub table_id: i64,
    pub seats: Vec<SeatView>,
    /// Latest record of each recorded turn, then every older revision.
    pub turns: Vec<TurnView>,
    pub turn_history: Vec<TurnView>,
    /// Per recorded turn: the revision the page shows (for the stale-page check).
    pub turn_revisions: Vec<(i16, i32)>,
    pub status: String,
    /// "missing", "awaiting", "disputed" or "final".
    pub state: String,
    /// Newest first. Empty when the viewer may not see an unconfirmed report.
    pub revisions: Vec<RevisionView>,
    pub latest_revision: i32,
    /// (player, result) per seat, and the adjudication's reasoning (4.01.09).
    pub results: Vec<(String, Option<String>)>,
    pub adjudication: Vec<String>,
    pub win_types: Vec<(String, String)>,
    pub factions: Vec<(String, String)>,
    pub can_record: bool,
    pub can_override: bool,
    /// The viewer's own seat's player id, if they sit here.
    pub my_player: Option<i64>,
}

#[cfg(feature = "ssr")]
fn when(at: chrono::DateTime<chrono::Utc>) -> String {
    at.format("%Y-%m-%d %H:%M UTC").to_string()
}

#[cfg(feature = "ssr")]
fn results_error<T>(error: db::results::ResultsError) -> Result<T, AppError> {
    use db::results::ResultsError as E;
    match error {
        E::NotFound => fail(AppError::NotFound(error.to_string())),
        E::Forbidden(m) => fail(AppError::Forbidden(m)),
        E::Changed { .. } => fail(AppError::Conflict(error.to_string())),
        // One problem at a field the form shows is told there alone; several are also listed
        // together, and a problem with no field of its own goes to the form's message.
        E::Invalid(mut problems) if problems.len() == 1 => {
            let p = problems.remove(0);
            if matches!(p.field.as_str(), "players" | "seats") {
                fail(AppError::Invalid(p.message))
            } else {
                fail(AppError::Field {
                    field: p.field,
                    message: p.message,
                })
            }
        }
        E::Invalid(problems) => fail(AppError::Fields(
            problems.into_iter().map(|p| (p.field, p.message)).collect(),
        )),
        E::State(m) => fail(AppError::Invalid(m)),
        E::Database(e) => Err(internal("saving the results", e)),
    }
}

/// A judge's check for recording results, with their role (which says whether they may also
/// change what is final).
#[cfg(feature = "ssr")]
async fn require_recorder(
    event_id: i64,
) -> Result<(db::roles::Actor, Option<db::roles::Role>), AppError> {
    match require(event_id, db::roles::Action::RecordResults).await? {
        (Some(actor), role) => Ok((actor, role)),
        (None, _) => fail(AppError::SignInRequired),
    }
}

#[cfg(feature = "ssr")]
async fn table_id_of(event_id: i64, round: i32, table: i32) -> Result<i64, AppError> {
    let id = db::results::table_id(&pool()?, event_id, round, table)
        .await
        .map_err(|e| internal("loading the table", e))?;
    match id {
        Some(id) => Ok(id),
        None => fail(AppError::NotFound(format!(
            "Round {round} has no table {table}."
        ))),
    }
}

#[server]
pub async fn get_table(slug: String, round: i32, table: i32) -> Result<TableData, AppError> {
    use db::results::reports;
    use db::roles::{Action, allows};
    let event = load(&slug).await?;
    let (actor, role) = require(event.id, Action::ViewPublic).await?;
    let admin = actor.as_ref().is_some_and(|a| a.is_admin);
    let table_id = table_id_of(event.id, round, table).await?;
    let pool = pool()?;
    let results = match reports::table_results(&pool, event.id, table_id).await {
        Ok(r) => r,
        Err(e) => return results_error(e),
    };
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
    let name_of = |id: i64| {
        results
            .table
            .seat_of(id)
            .map_or_else(|| format!("player {id}"), |s| s.player.clone())
    };
    let counts = results.counts();
    let seat_of = |id: i64| results.table.seat_of(id).map_or(i16::MAX, |s| s.seat);
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
    let final_now = results.status == reports::Status::Final;
    let revisions: Vec<RevisionView> = results
        .revisions
        .iter()
        .filter(|r| sees_unconfirmed || r.final_at.is_some())
        .map(|r| RevisionView {
            revision: r.revision,
            ended: r.draft.ended.code().to_owned(),
            last_turn: r.draft.last_turn,
            seats: r
                .draft
                .seats
                .iter()
                .map(|s| ReportSeatView {
                    player_id: s.player_id,
                    player: name_of(s.player_id),
                    faction: s.faction.code().to_owned(),
                    ally: s.ally.map(|a| a.code().to_owned()),
                    result: s.result.map(|w| w.code().to_owned()),
                    values: [s.strongholds, s.forces, s.spice, s.cards, s.leaders],
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
    let (results_list, adjudication) = match (&results.outcome, sees_unconfirmed || final_now) {
        (Some(o), true) => (
            o.results
                .iter()
                .map(|(id, w)| (name_of(*id), w.map(|w| w.code().to_owned())))
                .collect(),
            o.adjudication.clone().unwrap_or_default(),
        ),
        _ => (Vec::new(), Vec::new()),
    };
    let ruleset = results.table.ruleset;
    Ok(TableData {
        slug: event.slug,
        event_name: event.name,
        round,
        table,
        table_id,
        seats: results
            .table
            .seats
            .iter()
            .map(|s| SeatView {
                player_id: s.player_id,
                player: s.player.clone(),
                seat: s.seat,
                faction: s.faction.map(|f| f.code().to_owned()),
                faction_name: s.faction.map(|f| f.name().to_owned()),
                mine: Some(s.player_id) == my_player,
                win_attempts: counts.get(&s.player_id).copied().unwrap_or(0),
            })
            .collect(),
        turns,
        turn_history,
        turn_revisions,
        status: results.status.label(),
        state: match results.status {
            reports::Status::Missing => "missing",
            reports::Status::Awaiting { .. } => "awaiting",
            reports::Status::Disputed => "disputed",
            reports::Status::Final => "final",
        }
        .to_owned(),
        latest_revision: results.latest().map_or(0, |r| r.revision),
        revisions,
        results: results_list,
        adjudication,
        win_types: ruleset
            .win_types()
            .iter()
            .filter(|w| **w != tournament::WinType::Adjudicated)
            .map(|w| (w.code().to_owned(), w.name().to_owned()))
            .collect(),
        factions: ruleset
            .factions()
            .iter()
            .map(|f| (f.code().to_owned(), f.name().to_owned()))
            .collect(),
        can_record,
        can_override: allows(role, admin, Action::Override),
        my_player,
    })
}

/// One seat's line of the win-attempt form.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct AttemptSeatForm {
    pub player_id: i64,
    /// The checkbox: present when ticked.
    #[serde(default)]
    pub made: Option<String>,
    /// Stronghold codes seen, separated by spaces or commas ("AK CA TS").
    #[serde(default)]
    pub evidence: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct AttemptsForm {
    pub slug: String,
    pub table_id: i64,
    pub turn: String,
    /// The revision of that turn the page showed, per turn: "4:1,5:2".
    #[serde(default)]
    pub shown: String,
    #[serde(default)]
    pub reason: String,
    #[serde(default)]
    pub seats: Vec<AttemptSeatForm>,
}

#[server]
pub async fn record_attempts(form: AttemptsForm) -> Result<i32, AppError> {
    use db::roles::{Action, allows};
    let event = load(&form.slug).await?;
    let (actor, role) = require_recorder(event.id).await?;
    let pool = pool()?;
    let Ok(turn) = form.turn.trim().parse::<i16>() else {
        return fail(AppError::field(
            "turn",
            "Pick the turn whose Battle phase this is (1 to 10).",
        ));
    };
    let base = form
        .shown
        .split(',')
        .filter_map(|p| p.split_once(':'))
        .find(|(t, _)| t.trim().parse::<i16>().ok() == Some(turn))
        .and_then(|(_, r)| r.trim().parse::<i32>().ok())
        .unwrap_or(0);
    let entry = db::results::attempts::TurnEntry {
        turn,
        base_revision: base,
        attempts: form
            .seats
            .iter()
            .filter(|s| s.made.is_some())
            .map(|s| db::results::attempts::Attempt {
                player_id: s.player_id,
                strongholds: s
                    .evidence
                    .split(|c: char| c == ',' || c.is_whitespace())
                    .filter(|c| !c.is_empty())
                    .map(|c| c.to_uppercase())
                    .collect(),
            })
            .collect(),
        reason: Some(form.reason.clone()),
    };
    let may_override = allows(role, actor.is_admin, Action::Override);
    match db::results::attempts::record(&pool, &actor, may_override, event.id, form.table_id, entry)
        .await
    {
        Ok(revision) => Ok(revision),
        Err(e) => results_error(e),
    }
}

/// One seat's line of the report form; numbers as typed, checked on the server.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct ReportSeatForm {
    pub player_id: i64,
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

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct ReportForm {
    pub slug: String,
    pub table_id: i64,
    /// The revision the page showed (0: none).
    pub base_revision: i32,
    pub ended: String,
    pub last_turn: String,
    #[serde(default)]
    pub judge_draw: String,
    #[serde(default)]
    pub reason: String,
    #[serde(default)]
    pub seats: Vec<ReportSeatForm>,
}

#[cfg(feature = "ssr")]
fn parse_report(form: &ReportForm) -> Result<db::results::reports::Draft, AppError> {
    use tournament::{Faction, WinType, report::Ending};
    let mut problems: Vec<(String, String)> = Vec::new();
    let ended = match form.ended.as_str() {
        "win" => Ending::Win,
        "time" => Ending::Time,
        "turns" => Ending::Turns,
        _ => {
            problems.push((
                "ended".into(),
                "Say how the game ended: a win, the clock, or the end of turn 10.".into(),
            ));
            Ending::Win
        }
    };
    let last_turn = match form.last_turn.trim().parse::<i16>() {
        Ok(t) if (1..=10).contains(&t) => t,
        _ => {
            problems.push((
                "last_turn".into(),
                "The last turn played is a number from 1 to 10.".into(),
            ));
            1
        }
    };
    let mut seats = Vec::new();
    for s in &form.seats {
        let field = |name: &str| format!("seat-{}-{name}", s.player_id);
        let faction = Faction::from_code(s.faction.trim());
        if faction.is_none() {
            problems.push((
                field("faction"),
                "Pick the faction this player played.".into(),
            ));
        }
        let ally = match s.ally.trim() {
            "" => None,
            code => {
                let ally = Faction::from_code(code);
                if ally.is_none() {
                    problems.push((field("ally"), format!("{code} is not a faction.")));
                }
                ally
            }
        };
        let result = match s.result.trim() {
            "" => None,
            code => {
                let win = WinType::from_code(code);
                if win.is_none() {
                    problems.push((field("result"), format!("{code} is not a result.")));
                }
                win
            }
        };
        let mut number = |name: &'static str, label: &str, text: &str| -> u32 {
            match text.trim() {
                "" => 0,
                t => match t.parse::<u32>() {
                    Ok(n) => n,
                    Err(_) => {
                        problems.push((
                            field(name),
                            format!("{label} is a whole number, such as 3 (you typed {t:?})."),
                        ));
                        0
                    }
                },
            }
        };
        let strongholds = number("strongholds", "Strongholds", &s.strongholds);
        let forces = number("forces", "Forces on the board", &s.forces);
        let spice = number("spice", "Spice", &s.spice);
        let cards = number("cards", "Cards in hand", &s.cards);
        let leaders = number("leaders", "Active leaders", &s.leaders);
        if let Some(faction) = faction {
            seats.push(db::results::reports::SeatResult {
                player_id: s.player_id,
                faction,
                ally,
                result,
                strongholds,
                forces,
                spice,
                cards,
                leaders,
            });
        }
    }
    let judge_draw = match form.judge_draw.trim() {
        "" => None,
        id => match id.parse::<i64>() {
            Ok(id) => Some(id),
            Err(_) => {
                problems.push(("judge_draw".into(), "Pick the player drawn.".into()));
                None
            }
        },
    };
    if !problems.is_empty() {
        return Err(AppError::Fields(problems));
    }
    Ok(db::results::reports::Draft {
        ended,
        last_turn,
        seats,
        judge_draw,
    })
}

#[server]
pub async fn save_report(form: ReportForm) -> Result<i32, AppError> {
    use db::roles::{Action, allows};
    let event = load(&form.slug).await?;
    let (actor, role) = require_recorder(event.id).await?;
    let draft = match parse_report(&form) {
        Ok(d) => d,
        Err(e) => return fail(e),
    };
    let pool = pool()?;
    let may_override = allows(role, actor.is_admin, Action::Override);
    match db::results::reports::save(
        &pool,
        &actor,
        may_override,
        event.id,
        form.table_id,
        form.base_revision,
        &draft,
        Some(&form.reason),
    )
    .await
    {
        Ok(r) => Ok(r),
        Err(e) => results_error(e),
    }
}

/// A seated player answers the report (agree, or dispute with a note); a judge may answer for
/// a player (`for_player`).
#[server]
pub async fn answer_report(
    slug: String,
    table_id: i64,
    revision: i32,
    player_id: i64,
    agrees: bool,
    #[server(default)] note: String,
    #[server(default)] for_player: bool,
) -> Result<bool, AppError> {
    use db::results::reports::Answerer;
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
    match db::results::reports::answer(
        &pool()?,
        &actor,
        answerer,
        event.id,
        table_id,
        revision,
        player_id,
        agrees,
        Some(&note),
    )
    .await
    {
        Ok(done) => Ok(done),
        Err(e) => results_error(e),
    }
}

#[server]
pub async fn finalise_report(slug: String, table_id: i64, revision: i32) -> Result<(), AppError> {
    let event = load(&slug).await?;
    let actor = require_staff(event.id, db::roles::Action::Override).await?;
    match db::results::reports::finalise(&pool()?, &actor, event.id, table_id, revision).await {
        Ok(()) => Ok(()),
        Err(e) => results_error(e),
    }
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
    pub tied: Vec<String>,
    pub open_seats: usize,
    /// (seed, picked, by, at) once drawn.
    pub draw: Option<(String, Vec<String>, Option<String>, String)>,
    pub tables: i64,
    pub tables_final: i64,
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
    let base = FinalsView {
        slug: event.slug,
        event_name: event.name,
        seats: standings.finals_seats,
        can_override,
        closed: false,
        closed_at: None,
        closed_by: None,
        finalists: Vec::new(),
        tied: Vec::new(),
        open_seats: 0,
        draw: None,
        tables: standings.tables,
        tables_final: standings.tables_final,
    };
    Ok(match standings.closed {
        Some(c) => FinalsView {
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
pub async fn close_qualifying(slug: String) -> Result<(), AppError> {
    let event = load(&slug).await?;
    let actor = require_staff(event.id, db::roles::Action::Override).await?;
    match db::results::finals::close_qualifying(&pool()?, &actor, event.id).await {
        Ok(_) => Ok(()),
        Err(e) => results_error(e),
    }
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
    match db::results::finals::draw_cut(&pool()?, &actor, event.id, seed).await {
        Ok(_) => Ok(()),
        Err(e) => results_error(e),
    }
}
