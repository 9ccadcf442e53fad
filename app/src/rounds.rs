//! Server functions for rounds and clocks: the head judge's dashboard, starting a round (with
//! ruling 1's choices), redraws, swaps, table clocks, and the public projector and player views.
//! Each begins with its role check.

use dune::Faction;
use leptos::prelude::*;
use serde::{Deserialize, Serialize};
use tournament::Clock;
use tournament::ids::{PlayerId, RoundNumber, TableId, TableNumber};

use crate::error::AppError;
#[cfg(feature = "ssr")]
use crate::{
    events::load,
    server::{answer, fail, internal, pool, require, require_staff},
};

/// A round in the dashboard's list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundRow {
    pub number: RoundNumber,
    pub begun: bool,
    pub tables: i64,
    pub seated: i64,
    pub byes: i64,
    pub in_play: i64,
    pub reports_missing: i64,
    /// The final table (ruling 13).
    pub final_table: bool,
}

/// How the next round's players split into tables.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum TablePlan {
    /// Table sizes (4.01.01, or 4-player tables if the event allows them).
    Tables(Vec<u8>),
    /// No split: ruling 1's options, worked out for this count.
    Choose {
        /// Alternates to add, and the tables then.
        alternates: (usize, Vec<u8>),
        four_player_tables: Option<Vec<u8>>,
        /// Byes to give, and the tables then.
        byes: Option<(usize, Vec<u8>)>,
        /// Everyone who would be drawn: the byes are chosen among them.
        entrants: Vec<(PlayerId, String)>,
    },
    NoPlayers,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NextRound {
    pub number: RoundNumber,
    pub entrants: usize,
    pub plan: TablePlan,
    /// The previous round's tables still without a final report.
    pub unreported: Vec<TableNumber>,
    pub previous: Option<RoundNumber>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DashboardView {
    pub slug: String,
    pub name: String,
    pub registered: i64,
    pub checked_in: i64,
    pub dropped: i64,
    pub alternates: i64,
    pub qualifying_rounds: i32,
    pub rounds: Vec<RoundRow>,
    /// `None` when every qualifying round is drawn or qualifying is closed.
    pub next: Option<NextRound>,
    pub qualifying_closed: bool,
}

#[server]
pub async fn get_dashboard(slug: String) -> Result<DashboardView, AppError> {
    use tournament::tables;
    let event = load(&slug).await?;
    require_staff(event.id, db::roles::Action::RunEvent).await?;
    let pool = pool()?;
    let failed = |e| internal("loading the dashboard", e);
    let detail = db::events::detail(&pool, event.id)
        .await
        .map_err(failed)?
        .ok_or_else(|| AppError::NotFound("The event is gone.".into()))?;
    let counts = db::rounds::player_counts(&pool, event.id)
        .await
        .map_err(failed)?;
    let rounds = db::rounds::list(&pool, event.id).await.map_err(failed)?;
    let qualifying_closed = db::results::qualifying::closed(&pool, event.id)
        .await
        .map_err(failed)?
        .is_some();
    let number = rounds
        .last()
        .map_or(RoundNumber::FIRST, |r| r.number.next());
    let next = if qualifying_closed || number.get() > detail.settings.qualifying_rounds {
        None
    } else {
        let entrants = db::rounds::entrants(&pool, event.id)
            .await
            .map_err(failed)?;
        let fallback = detail.settings.options.table_fallback;
        let plan = match tables::plan(entrants.len(), fallback) {
            Ok(sizes) => TablePlan::Tables(sizes),
            Err(tables::TableError::NoPlayers) => TablePlan::NoPlayers,
            Err(tables::TableError::NoSplit(options)) => TablePlan::Choose {
                alternates: options.alternates,
                four_player_tables: options.four_player_tables,
                byes: options.byes,
                entrants: entrants.clone(),
            },
        };
        let unreported = match rounds.last() {
            Some(last) if last.reports_missing > 0 => {
                db::rounds::unreported_tables(&pool, event.id, last.number)
                    .await
                    .map_err(failed)?
            }
            _ => Vec::new(),
        };
        Some(NextRound {
            number,
            entrants: entrants.len(),
            plan,
            unreported,
            previous: rounds.last().map(|r| r.number),
        })
    };
    Ok(DashboardView {
        slug: detail.slug,
        name: detail.settings.name,
        registered: counts.registered,
        checked_in: counts.checked_in,
        dropped: counts.dropped,
        alternates: counts.alternates,
        qualifying_rounds: detail.settings.qualifying_rounds,
        rounds: rounds
            .into_iter()
            .map(|r| RoundRow {
                number: r.number,
                begun: r.begun,
                tables: r.tables,
                seated: r.seated,
                byes: r.byes,
                in_play: r.in_play,
                reports_missing: r.reports_missing,
                final_table: r.final_table,
            })
            .collect(),
        next,
        qualifying_closed,
    })
}

/// An optional seed typed by the head judge; empty means a fresh random one.
#[cfg(feature = "ssr")]
pub(crate) fn parse_seed(text: Option<&str>) -> Result<Option<u64>, AppError> {
    match text.map(str::trim) {
        None | Some("") => Ok(None),
        Some(t) => match t.parse::<u64>() {
            Ok(seed) if seed <= db::rounds::MAX_SEED => Ok(Some(seed)),
            _ => Err(AppError::field(
                "seed",
                format!(
                    "A seed is a whole number from 0 to {}; leave it empty for a random one.",
                    db::rounds::MAX_SEED
                ),
            )),
        },
    }
}

/// Draws the next round; returns its number.
#[server]
pub async fn start_round(
    slug: String,
    number: RoundNumber,
    seed: Option<String>,
    fallback: Option<String>,
    alternates: Option<String>,
    byes: Option<Vec<PlayerId>>,
    override_reason: Option<String>,
) -> Result<RoundNumber, AppError> {
    use db::rounds::{Fallback, NewRound};
    let event = load(&slug).await?;
    let actor = require_staff(event.id, db::roles::Action::RunEvent).await?;
    let seed = answer(parse_seed(seed.as_deref()))?;
    let fallback = match fallback.as_deref().map(str::trim).unwrap_or("") {
        "" => None,
        "four_player_tables" => Some(Fallback::FourPlayerTables),
        "byes" => Some(Fallback::Byes(byes.unwrap_or_default())),
        "alternates" => {
            let mut names = Vec::new();
            for line in alternates.as_deref().unwrap_or("").lines() {
                if line.trim().is_empty() {
                    continue;
                }
                match tournament::PlayerName::parse(line) {
                    Ok(name) if names.contains(&name) => {
                        return fail(AppError::field(
                            "alternates",
                            format!("{name} is named twice."),
                        ));
                    }
                    Ok(name) => names.push(name),
                    Err(e) => return fail(AppError::field("alternates", format!("{e}."))),
                }
            }
            Some(Fallback::Alternates(names))
        }
        _ => {
            return fail(AppError::field(
                "fallback",
                "Choose how to seat the players who do not fit: alternates, 4-player tables or byes.",
            ));
        }
    };
    let new = NewRound {
        number,
        seed,
        fallback,
        override_reason,
    };
    answer(db::rounds::start(&pool()?, &actor, event.id, new).await)?;
    // The new round's page, for a plain form post and for the browser half alike.
    crate::server::go_to(&format!("/events/{}/rounds/{number}", event.slug));
    Ok(number)
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatView {
    pub seat: i16,
    pub circle: i16,
    pub player_id: PlayerId,
    pub player: String,
    /// Dealt under gc-2.13.3; under full, once the pick is recorded.
    pub faction: Option<Faction>,
    /// Under full: the two cards offered, classic and expansion.
    pub offered: Option<(Faction, Faction)>,
    pub dropped: bool,
}

impl SeatView {
    /// What the seat shows under "Faction": the faction's name once known, else (under `full`)
    /// the two cards offered.
    pub fn faction_text(&self) -> String {
        match (self.faction, self.offered) {
            (Some(f), _) => f.name().to_owned(),
            (None, Some((classic, expansion))) => {
                format!("{} / {}", classic.name(), expansion.name())
            }
            // Nothing dealt: a final table seated in qualifying order picks at the table.
            (None, None) => "Picks at the table".to_owned(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableView {
    pub id: TableId,
    pub number: TableNumber,
    pub version: i32,
    pub reported: bool,
    pub clock: Clock,
    pub seats: Vec<SeatView>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundData {
    pub slug: String,
    pub event_name: String,
    pub number: RoundNumber,
    /// As text: a u64 does not survive every JSON reader.
    pub seed: String,
    pub ruleset: String,
    pub table_fallback: String,
    pub begun: bool,
    pub drawn_at: String,
    pub override_reason: Option<String>,
    pub repeat_pairs: i64,
    pub repeat_factions: i64,
    pub version: i32,
    pub latest: bool,
    /// The final table (ruling 13), not a qualifying round.
    pub final_table: bool,
    pub tables: Vec<TableView>,
    pub byes: Vec<String>,
    pub now_ms: i64,
    pub can_run: bool,
    pub can_record: bool,
    /// Who changed what in this round (head judges only).
    pub changes: Vec<crate::events::AuditRow>,
    /// Every seated player by name, A–Z (accents and case ignored): where to send someone who
    /// asks "where do I sit?".
    pub seated: Vec<SeatedPlayer>,
    /// What is recorded at the tables before play began (head judges only, while the round can
    /// still change): a redraw is refused, a cancellation removes it after a confirmation.
    #[serde(default)]
    pub recorded: Vec<String>,
}

/// A player and their place, for the round's A–Z list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatedPlayer {
    pub player: String,
    pub table: TableNumber,
    pub seat: i16,
}

#[cfg(feature = "ssr")]
fn seat_view(s: db::rounds::SeatInfo) -> SeatView {
    SeatView {
        seat: s.seat,
        circle: s.circle,
        player_id: s.player_id,
        player: s.player,
        faction: s.faction,
        offered: s.offered,
        dropped: s.dropped,
    }
}

#[server]
pub async fn get_round(slug: String, number: RoundNumber) -> Result<RoundData, AppError> {
    use db::roles::{Action, allows};
    let event = load(&slug).await?;
    let (actor, role) = require(event.id, Action::ViewPublic).await?;
    let admin = actor.as_ref().is_some_and(|a| a.is_admin);
    let can_run = allows(role, admin, Action::RunEvent);
    let pool = pool()?;
    let failed = |e| internal("loading the round", e);
    let Some(detail) = db::rounds::detail(&pool, event.id, number)
        .await
        .map_err(failed)?
    else {
        return fail(AppError::NotFound(format!(
            "Round {number} has not been drawn."
        )));
    };
    let latest = db::rounds::latest_number(&pool, event.id)
        .await
        .map_err(failed)?;
    let changes = if can_run {
        db::audit::for_round(&pool, event.id, number)
            .await
            .map_err(failed)?
            .into_iter()
            .map(crate::events::audit_row)
            .collect()
    } else {
        Vec::new()
    };
    let recorded = if can_run && detail.round.started_at.is_none() {
        db::rounds::recorded(&pool, event.id, number)
            .await
            .map_err(failed)?
            .sentences()
    } else {
        Vec::new()
    };
    let mut seated: Vec<SeatedPlayer> = detail
        .tables
        .iter()
        .flat_map(|t| {
            t.seats.iter().filter(|s| !s.dropped).map(|s| SeatedPlayer {
                player: s.player.clone(),
                table: t.number,
                seat: s.seat,
            })
        })
        .collect();
    seated.sort_by_cached_key(|s| (db::players::search::fold(&s.player), s.player.clone()));
    let r = detail.round;
    let quality = |key: &str| r.quality.get(key).and_then(|v| v.as_i64()).unwrap_or(0);
    Ok(RoundData {
        slug: event.slug,
        event_name: event.name,
        number: r.number,
        seed: r.seed.to_string(),
        ruleset: r.ruleset.clone(),
        table_fallback: r.table_fallback.clone(),
        begun: r.started_at.is_some(),
        drawn_at: r.drawn_at.format("%Y-%m-%d %H:%M UTC").to_string(),
        override_reason: r.override_reason.clone(),
        repeat_pairs: quality("repeat_pairs"),
        repeat_factions: quality("repeat_factions"),
        version: r.version,
        latest: latest == Some(r.number),
        final_table: r.final_table,
        tables: detail
            .tables
            .into_iter()
            .map(|t| TableView {
                id: t.id,
                number: t.number,
                version: t.version,
                reported: t.reported,
                clock: t.clock,
                seats: t.seats.into_iter().map(seat_view).collect(),
            })
            .collect(),
        byes: detail.byes.into_iter().map(|(_, name)| name).collect(),
        now_ms: detail.now_ms,
        can_run,
        can_record: allows(role, admin, Action::RecordResults),
        changes,
        seated,
        recorded,
    })
}

#[server]
pub async fn redraw_round(
    slug: String,
    number: RoundNumber,
    version: i32,
    seed: Option<String>,
) -> Result<(), AppError> {
    let event = load(&slug).await?;
    let actor = require_staff(event.id, db::roles::Action::RunEvent).await?;
    let seed = answer(parse_seed(seed.as_deref()))?;
    answer(db::rounds::redraw(&pool()?, &actor, event.id, number, version, seed).await)?;
    crate::server::back();
    Ok(())
}

#[server]
pub async fn swap_seats(
    slug: String,
    number: RoundNumber,
    version: i32,
    first: PlayerId,
    second: PlayerId,
) -> Result<(), AppError> {
    let event = load(&slug).await?;
    let actor = require_staff(event.id, db::roles::Action::RunEvent).await?;
    answer(db::rounds::swap(&pool()?, &actor, event.id, number, version, first, second).await)?;
    crate::server::back();
    Ok(())
}

#[server]
pub async fn begin_round(slug: String, number: RoundNumber, version: i32) -> Result<(), AppError> {
    let event = load(&slug).await?;
    let actor = require_staff(event.id, db::roles::Action::RunEvent).await?;
    answer(db::rounds::begin(&pool()?, &actor, event.id, number, version).await)?;
    crate::server::back();
    Ok(())
}

/// Withdraws the round's draw; returns the dashboard's address.
#[server]
pub async fn cancel_round(
    slug: String,
    number: RoundNumber,
    version: i32,
    #[server(default)] confirm: bool,
) -> Result<String, AppError> {
    let event = load(&slug).await?;
    let actor = require_staff(event.id, db::roles::Action::RunEvent).await?;
    answer(db::rounds::cancel(&pool()?, &actor, event.id, number, version, confirm).await)?;
    let path = format!("/events/{}/run", event.slug);
    crate::server::go_to(&path);
    Ok(path)
}

/// `command`: start, pause or resume.
#[server]
pub async fn table_clock(
    slug: String,
    table_id: TableId,
    version: i32,
    command: String,
) -> Result<(), AppError> {
    use db::clocks::Command;
    let event = load(&slug).await?;
    let actor = require_staff(event.id, db::roles::Action::RunEvent).await?;
    let command = match command.as_str() {
        "start" => Command::Start,
        "pause" => Command::Pause,
        "resume" => Command::Resume,
        _ => return fail(AppError::Invalid("Unknown clock command.".into())),
    };
    answer(db::clocks::apply(&pool()?, &actor, event.id, table_id, version, command).await)?;
    crate::server::back();
    Ok(())
}

#[server]
pub async fn extend_clock(
    slug: String,
    table_id: TableId,
    version: i32,
    minutes: String,
    reason: String,
) -> Result<(), AppError> {
    let event = load(&slug).await?;
    let actor = require_staff(event.id, db::roles::Action::RunEvent).await?;
    let Ok(minutes) = minutes.trim().parse::<i64>() else {
        return fail(AppError::field(
            "minutes",
            "Enter the extension in whole minutes, such as 10.",
        ));
    };
    let command = db::clocks::Command::Extend { minutes, reason };
    answer(db::clocks::apply(&pool()?, &actor, event.id, table_id, version, command).await)?;
    crate::server::back();
    Ok(())
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardRow {
    pub number: TableNumber,
    pub clock: Clock,
    pub reported: bool,
}

/// Every table's clock in the latest round, for the projector.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardView {
    pub event_name: String,
    pub round: Option<RoundNumber>,
    pub tables: Vec<BoardRow>,
    pub now_ms: i64,
}

#[server]
pub async fn get_board(slug: String) -> Result<BoardView, AppError> {
    let event = load(&slug).await?;
    require(event.id, db::roles::Action::ViewPublic).await?;
    let board = db::clocks::board(&pool()?, event.id)
        .await
        .map_err(|e| internal("loading the clocks", e))?;
    Ok(match board {
        None => BoardView {
            event_name: event.name,
            round: None,
            tables: Vec::new(),
            now_ms: 0,
        },
        Some(b) => BoardView {
            event_name: event.name,
            round: Some(b.round),
            tables: b
                .tables
                .into_iter()
                .map(|t| BoardRow {
                    number: t.number,
                    clock: t.clock,
                    reported: t.reported,
                })
                .collect(),
            now_ms: b.now_ms,
        },
    })
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FoundPlayer {
    pub id: PlayerId,
    pub name: String,
    pub club: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FindView {
    pub event_name: String,
    pub matches: Vec<FoundPlayer>,
}

/// The public "find me" search: names only, never emails.
#[server]
pub async fn find_players(slug: String, query: String) -> Result<FindView, AppError> {
    let event = load(&slug).await?;
    require(event.id, db::roles::Action::ViewPublic).await?;
    let matches = db::players::search(&pool()?, event.id, &query, 25)
        .await
        .map_err(|e| internal("searching players", e))?;
    Ok(FindView {
        event_name: event.name,
        matches: matches
            .into_iter()
            .map(|m| FoundPlayer {
                id: m.id,
                name: m.name,
                club: m.club.unwrap_or_default(),
            })
            .collect(),
    })
}

/// Where a player is in the latest round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum CardPlace {
    NotSeated,
    Bye,
    Seated {
        table: TableNumber,
        seat: SeatView,
        clock: Clock,
        reported: bool,
        table_seats: Vec<SeatView>,
    },
}

/// What a player's phone shows.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerCard {
    pub event_name: String,
    pub name: String,
    pub club: String,
    pub checked_in: bool,
    pub dropped: bool,
    pub round: Option<RoundNumber>,
    pub round_begun: bool,
    /// The latest round is the final table (ruling 13).
    pub round_final: bool,
    /// The player's place in the event, once the final table is reported.
    pub placing: Option<crate::final_table::PlacingView>,
    pub ruleset: String,
    pub place: CardPlace,
    pub now_ms: i64,
}

impl PlayerCard {
    /// What the final table means for this player, in one sentence; `None` before it is drawn.
    pub fn final_note(&self) -> Option<String> {
        if let Some(p) = &self.placing {
            return Some(format!(
                "You placed {} of the event ({}).",
                crate::final_table::ordinal(p.place),
                p.basis()
            ));
        }
        if !self.round_final {
            return None;
        }
        Some(match self.place {
            CardPlace::Seated { .. } if self.round_begun => {
                "You are playing the final table.".to_owned()
            }
            CardPlace::Seated { .. } => {
                "You are at the final table; seats may still change until play begins.".to_owned()
            }
            _ => "The final table is being played; you are not at it. Your qualifying place stands on the standings.".to_owned(),
        })
    }
}

#[server]
pub async fn get_player_card(slug: String, player_id: PlayerId) -> Result<PlayerCard, AppError> {
    use db::rounds::Place;
    let event = load(&slug).await?;
    require(event.id, db::roles::Action::ViewPublic).await?;
    let Some(view) = db::rounds::player_view(&pool()?, event.id, player_id)
        .await
        .map_err(|e| internal("loading the player", e))?
    else {
        return fail(AppError::NotFound(
            "No such player in this event; search for your name again.".into(),
        ));
    };
    // Placings exist only once the final table is drawn and reported: only then are the
    // standings read for a card.
    let placing = if view.round_final {
        db::results::standings::event_standings(&pool()?, event.id)
            .await
            .map_err(|e| internal("computing the placings", e))?
            .final_table
            .as_ref()
            .map(crate::final_table::FinalTableView::from)
            .and_then(|t| t.placing_of(player_id.get()).cloned())
    } else {
        None
    };
    Ok(PlayerCard {
        event_name: event.name,
        name: view.name,
        club: view.club.unwrap_or_default(),
        checked_in: view.checked_in,
        dropped: view.dropped,
        round: view.round,
        round_begun: view.round_begun,
        round_final: view.round_final,
        placing,
        ruleset: view.ruleset.unwrap_or_default(),
        place: match view.place {
            Place::NotSeated => CardPlace::NotSeated,
            Place::Bye => CardPlace::Bye,
            Place::Seated {
                table,
                seat,
                clock,
                reported,
                table_seats,
            } => CardPlace::Seated {
                table,
                seat: seat_view(seat),
                clock,
                reported,
                table_seats: table_seats.into_iter().map(seat_view).collect(),
            },
        },
        now_ms: view.now_ms,
    })
}
