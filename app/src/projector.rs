//! The projector's data and the order it shows it in: the latest round's clocks, then where
//! everyone sits (A–Z), then the standings, a page at a time. Which page is up follows from the
//! time alone ([`slot_at`]), so every projector in the hall shows the same page, a reload keeps
//! it, and the server can render it without JavaScript.

use dune::Faction;
use leptos::prelude::*;
use serde::{Deserialize, Serialize};
use tournament::{
    Clock,
    ids::{RoundNumber, TableNumber},
};

use crate::{disputes::TableFlag, error::AppError};

/// Tables per page of clocks: four across, three down, legible from the back of a hall.
pub const TABLES_PER_PAGE: usize = 12;
/// Players per page of the seating list: four columns of ten.
pub const SEATS_PER_PAGE: usize = 40;
/// Rows per page of standings, and how many pages: the top of the standings is what a hall
/// reads off a wall; the rest is on everyone's phone.
pub const STANDINGS_PER_PAGE: usize = 12;
pub const STANDINGS_PAGES: usize = 2;
/// How long each page stays up unless the address says otherwise (`?every=`).
pub const DEFAULT_EVERY_SECONDS: u64 = 20;
pub const MIN_EVERY_SECONDS: u64 = 3;
pub const MAX_EVERY_SECONDS: u64 = 600;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProjectorTable {
    pub number: TableNumber,
    pub clock: Clock,
    pub reported: bool,
    /// What the table needs from a judge, the most urgent only.
    pub flag: Option<TableFlag>,
}

/// One seated player, for the A–Z list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seating {
    pub player: String,
    pub table: TableNumber,
    pub seat: i16,
    pub faction: Option<Faction>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProjectorStanding {
    pub rank: usize,
    pub player: String,
    pub points: String,
    /// "2 SSH · 1 BGP", or empty.
    pub wins: String,
    pub finalist: Option<bool>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProjectorView {
    pub slug: String,
    pub event_name: String,
    pub round: Option<RoundNumber>,
    /// The database's time when this was read (ms since the epoch).
    pub now_ms: i64,
    pub tables: Vec<ProjectorTable>,
    /// Seated players by name, A–Z (accents and case ignored).
    pub seating: Vec<Seating>,
    /// The top of the standings.
    pub standings: Vec<ProjectorStanding>,
    /// Players in the standings in all.
    pub standings_count: usize,
    pub finals_seats: usize,
    /// The latest round is the final table (ruling 13).
    pub round_final: bool,
    /// The final table's players in their final places, once its report is final.
    pub placings: Vec<crate::final_table::PlacingView>,
}

/// What a page of the projector shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Show {
    /// The event's placings, once the final table is reported: first, it is the news.
    Placings,
    Clocks,
    Seating,
    Standings,
}

impl Show {
    pub const ALL: [Show; 4] = [Show::Placings, Show::Clocks, Show::Seating, Show::Standings];

    /// In the address (`?view=`).
    pub fn code(self) -> &'static str {
        match self {
            Show::Placings => "placings",
            Show::Clocks => "clocks",
            Show::Seating => "seating",
            Show::Standings => "standings",
        }
    }

    pub fn parse(code: &str) -> Option<Show> {
        Show::ALL.into_iter().find(|s| s.code() == code)
    }

    pub fn title(self) -> &'static str {
        match self {
            Show::Placings => "Final placings",
            Show::Clocks => "Clocks",
            Show::Seating => "Where you sit",
            Show::Standings => "Standings",
        }
    }
}

/// One page of the projector.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Slot {
    pub show: Show,
    /// From 0.
    pub page: usize,
    /// Pages of this kind.
    pub pages: usize,
}

fn pages(items: usize, per_page: usize) -> usize {
    items.div_ceil(per_page).max(1)
}

/// Every page, in showing order. A kind with nothing to show still has its one page (it says
/// so), except that the seating list and the clocks need a round.
pub fn slots(view: &ProjectorView) -> Vec<Slot> {
    let mut out = Vec::new();
    let mut add = |show: Show, pages: usize| {
        out.extend((0..pages).map(|page| Slot { show, page, pages }));
    };
    if !view.placings.is_empty() {
        add(Show::Placings, 1);
    }
    if view.round.is_some() {
        add(Show::Clocks, pages(view.tables.len(), TABLES_PER_PAGE));
        add(Show::Seating, pages(view.seating.len(), SEATS_PER_PAGE));
    }
    add(
        Show::Standings,
        pages(view.standings.len(), STANDINGS_PER_PAGE),
    );
    out
}

/// The positions in `slots` that take turns: those of one kind when the address pins it
/// (`?view=seating`), else all.
pub fn turns(slots: &[Slot], only: Option<Show>) -> Vec<usize> {
    let pinned: Vec<usize> = (0..slots.len())
        .filter(|&i| only.is_none_or(|show| slots[i].show == show))
        .collect();
    if pinned.is_empty() {
        (0..slots.len()).collect()
    } else {
        pinned
    }
}

/// The position in `turns` that is up at `now_ms`: each stays `every_ms`, in turn, counted from
/// the epoch, so that it depends on the time alone.
pub fn slot_at(now_ms: i64, every_ms: i64, turns: usize) -> usize {
    if turns == 0 {
        return 0;
    }
    let every = every_ms.max(1);
    (now_ms.max(0) / every) as usize % turns
}

/// Milliseconds until the next page comes up.
pub fn ms_to_next(now_ms: i64, every_ms: i64) -> i64 {
    let every = every_ms.max(1);
    every - now_ms.max(0) % every
}

/// `?every=` in seconds, kept within bounds; the default when absent or not a number.
pub fn every_seconds(query: Option<&str>) -> u64 {
    query
        .and_then(|q| q.trim().parse::<u64>().ok())
        .map_or(DEFAULT_EVERY_SECONDS, |s| {
            s.clamp(MIN_EVERY_SECONDS, MAX_EVERY_SECONDS)
        })
}

/// The round's own timer: the clock of the table that will end last, among those still
/// playing. With every clock started at one instant (4.01.08) they agree; when a table was
/// paused or extended, the round lasts as long as its last table. `None` when every table's
/// report is final (or there is no table).
pub fn round_clock(tables: &[ProjectorTable], now_ms: i64) -> Option<Clock> {
    tables
        .iter()
        .filter(|t| !t.reported && !t.clock.read(now_ms).stopped)
        .max_by_key(|t| t.clock.read(now_ms).remaining_ms)
        .map(|t| t.clock)
}

#[server]
pub async fn get_projector(slug: String) -> Result<ProjectorView, AppError> {
    use crate::{
        events::load,
        server::{internal, pool, require},
    };
    let event = load(&slug).await?;
    require(event.id, db::roles::Action::ViewPublic).await?;
    let data = db::projector::projector(&pool()?, event.id)
        .await
        .map_err(|e| internal("loading the projector", e))?;
    let flags = match &data.round {
        Some(r) => crate::disputes::round_flags(&data.queue, r.round.number),
        None => Vec::new(),
    };
    let (round, now_ms, tables, mut seating) = match data.round {
        None => (None, data.queue.now_ms, Vec::new(), Vec::new()),
        Some(r) => {
            let seating = r
                .tables
                .iter()
                .flat_map(|t| {
                    t.seats.iter().filter(|s| !s.dropped).map(|s| Seating {
                        player: s.player.clone(),
                        table: t.number,
                        seat: s.seat,
                        faction: s.faction,
                    })
                })
                .collect::<Vec<_>>();
            let tables = r
                .tables
                .into_iter()
                .map(|t| ProjectorTable {
                    number: t.number,
                    flag: flags.iter().find(|(n, _)| *n == t.number).map(|(_, f)| *f),
                    clock: t.clock,
                    reported: t.reported,
                })
                .collect();
            (Some(r.round.number), r.now_ms, tables, seating)
        }
    };
    seating.sort_by_cached_key(|s| (db::players::search::fold(&s.player), s.player.clone()));
    let standings = &data.standings;
    Ok(ProjectorView {
        slug: event.slug,
        event_name: event.name,
        round,
        now_ms,
        tables,
        seating,
        standings: standings
            .rows
            .iter()
            .take(STANDINGS_PER_PAGE * STANDINGS_PAGES)
            .map(|r| ProjectorStanding {
                rank: r.rank,
                player: r.player.clone(),
                points: r.points.clone(),
                wins: r
                    .wins
                    .iter()
                    .map(|(code, n)| format!("{n} {code}"))
                    .collect::<Vec<_>>()
                    .join(" · "),
                finalist: r.finalist,
            })
            .collect(),
        standings_count: standings.rows.len(),
        finals_seats: standings.finals_seats,
        round_final: standings
            .final_table
            .as_ref()
            .is_some_and(|t| Some(t.round) == round),
        placings: standings
            .final_table
            .as_ref()
            .map(|t| {
                crate::final_table::FinalTableView::from(t)
                    .finalists()
                    .cloned()
                    .collect()
            })
            .unwrap_or_default(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view(tables: usize, seated: usize, ranked: usize, round: bool) -> ProjectorView {
        ProjectorView {
            slug: "e".into(),
            event_name: "E".into(),
            round: round.then_some(RoundNumber(1)),
            now_ms: 0,
            tables: (1..=tables)
                .map(|n| ProjectorTable {
                    number: TableNumber(n as i32),
                    clock: Clock::default(),
                    reported: false,
                    flag: None,
                })
                .collect(),
            seating: (0..seated)
                .map(|i| Seating {
                    player: format!("P{i}"),
                    table: TableNumber(1),
                    seat: 1,
                    faction: None,
                })
                .collect(),
            standings: (0..ranked)
                .map(|i| ProjectorStanding {
                    rank: i + 1,
                    player: format!("P{i}"),
                    points: "0".into(),
                    wins: String::new(),
                    finalist: None,
                })
                .collect(),
            standings_count: ranked,
            finals_seats: 5,
            round_final: false,
            placings: Vec::new(),
        }
    }

    #[test]
    fn the_final_placings_come_first_once_the_final_table_is_reported() {
        let mut v = view(1, 6, 24, true);
        assert!(slots(&v).iter().all(|s| s.show != Show::Placings));
        v.placings = (1..=6)
            .map(|place| crate::final_table::PlacingView {
                place,
                player: format!("P{place}"),
                player_id: place as i64,
                at_final: true,
                result: None,
                qualified: place,
            })
            .collect();
        let s = slots(&v);
        assert_eq!(s[0].show, Show::Placings);
        assert_eq!(s.iter().filter(|x| x.show == Show::Placings).count(), 1);
        assert_eq!(Show::parse("placings"), Some(Show::Placings));
    }

    #[test]
    fn fifty_tables_take_five_pages_of_clocks_then_the_seating_and_the_top_of_the_standings() {
        let v = view(50, 290, 24, true);
        let s = slots(&v);
        let count = |show| s.iter().filter(|x| x.show == show).count();
        assert_eq!(count(Show::Clocks), 5);
        assert_eq!(count(Show::Seating), 8);
        assert_eq!(count(Show::Standings), 2);
        assert_eq!(
            s[0],
            Slot {
                show: Show::Clocks,
                page: 0,
                pages: 5
            }
        );
        assert_eq!(s.last().map(|x| x.show), Some(Show::Standings));
    }

    #[test]
    fn before_the_first_round_only_the_standings_show() {
        let s = slots(&view(0, 0, 0, false));
        assert_eq!(
            s,
            vec![Slot {
                show: Show::Standings,
                page: 0,
                pages: 1
            }]
        );
    }

    #[test]
    fn a_pinned_view_takes_turns_among_its_own_pages_only() {
        let v = view(13, 10, 3, true);
        let s = slots(&v);
        assert_eq!(turns(&s, Some(Show::Clocks)), vec![0, 1]);
        assert_eq!(turns(&s, Some(Show::Seating)), vec![2]);
        assert_eq!(turns(&s, None), vec![0, 1, 2, 3]);
    }

    #[test]
    fn the_page_up_depends_on_the_time_alone() {
        assert_eq!(slot_at(0, 20_000, 4), 0);
        assert_eq!(slot_at(19_999, 20_000, 4), 0);
        assert_eq!(slot_at(20_000, 20_000, 4), 1);
        assert_eq!(slot_at(80_000, 20_000, 4), 0);
        assert_eq!(slot_at(80_000, 20_000, 0), 0);
        assert_eq!(ms_to_next(25_000, 20_000), 15_000);
    }

    #[test]
    fn every_is_bounded_and_defaults() {
        assert_eq!(every_seconds(None), DEFAULT_EVERY_SECONDS);
        assert_eq!(every_seconds(Some("x")), DEFAULT_EVERY_SECONDS);
        assert_eq!(every_seconds(Some("1")), MIN_EVERY_SECONDS);
        assert_eq!(every_seconds(Some("30")), 30);
        assert_eq!(every_seconds(Some("99999")), MAX_EVERY_SECONDS);
    }

    #[test]
    fn the_round_timer_follows_the_table_that_ends_last_and_stops_when_all_are_in() {
        let started = |at: i64| Clock {
            started_at: Some(at),
            ..Clock::default()
        };
        let table = |n: i32, clock: Clock, reported: bool| ProjectorTable {
            number: TableNumber(n),
            clock,
            reported,
            flag: None,
        };
        let tables = vec![
            table(1, started(0), false),
            table(2, started(60_000), false),
            table(3, started(120_000), true),
        ];
        assert_eq!(round_clock(&tables, 200_000), Some(started(60_000)));
        let all_in = vec![table(1, started(0), true)];
        assert_eq!(round_clock(&all_in, 200_000), None);
    }
}
