//! Finals entry (4.01.10-4.01.11, rulings.md 11 and 13): the first K of the standings, with a
//! tie across the cut line reported rather than broken silently; the final table's seating;
//! and the event's placings once the final game is reported.

use dune::{Faction, WinType};

use crate::draw::{Deal, Seat, Table, circles};
use crate::options::{FinalSeating, RulingOptions};
use crate::player::PlayerName;
use crate::rng::DrawRng;
use crate::ruleset::Ruleset;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finals {
    pub seats: usize,
    /// Players sure of a seat, in standings order.
    pub finalists: Vec<PlayerName>,
    /// Players exactly tied across the cut line, competing for the seats left.
    pub cut_tie: Option<CutTie>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CutTie {
    pub players: Vec<PlayerName>,
    /// Seats left for them, fewer than their number; the head judge draws (ruling 11).
    pub open_seats: usize,
}

/// `order` is the standings order and `tied_with_next[i]` says whether row i is exactly tied
/// with row i + 1. Returns the finals and, per row, `Some(true)` in, `Some(false)` out, `None`
/// undecided (in the cut tie).
pub fn select(
    order: &[PlayerName],
    tied_with_next: &[bool],
    seats: usize,
) -> (Finals, Vec<Option<bool>>) {
    let mut status = Vec::with_capacity(order.len());
    let mut finalists = Vec::new();
    let mut cut_tie = None;
    let mut start = 0;
    while start < order.len() {
        let mut end = start + 1;
        while end < order.len() && tied_with_next.get(end - 1).copied().unwrap_or(false) {
            end += 1;
        }
        let group = &order[start..end];
        if end <= seats {
            finalists.extend_from_slice(group);
            status.extend(std::iter::repeat_n(Some(true), group.len()));
        } else if start >= seats {
            status.extend(std::iter::repeat_n(Some(false), group.len()));
        } else {
            cut_tie = Some(CutTie {
                players: group.to_vec(),
                open_seats: seats - start,
            });
            status.extend(std::iter::repeat_n(None, group.len()));
        }
        start = end;
    }
    (
        Finals {
            seats,
            finalists,
            cut_tie,
        },
        status,
    )
}

/// Settles a tie across the cut line by a seeded draw (rulings 4 and 11): the players picked
/// for the `open_seats`, in the order drawn. The same seed and players give the same pick, so
/// the draw can be re-run in front of the players. Names are sorted first: only the set counts.
pub fn draw_cut(tied: &[PlayerName], open_seats: usize, seed: u64) -> Vec<PlayerName> {
    let mut pool = tied.to_vec();
    pool.sort();
    pool.dedup();
    DrawRng::new(seed).shuffle(&mut pool);
    pool.truncate(open_seats);
    pool
}

/// The most and fewest finalists one final table seats: a Dune game takes two to six players
/// (the prediction cards of 0.07 and the seats of the board).
pub const FINAL_TABLE_SEATS: std::ops::RangeInclusive<usize> = 2..=6;

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FinalTableError {
    #[error(
        "A final table seats 2 to 6 players and the finals list has {0}. Change the finals seats (ruling 13) in the event settings."
    )]
    Size(usize),
    #[error("{0} is on the finals list twice")]
    Duplicate(PlayerName),
}

/// Seats the final table: every finalist at table 1. `finalists` is in qualifying order.
///
/// `Drawn`: seats drawn (0.07) and factions dealt (0.08) from `seed`, as in a round, but with
/// no regard to earlier games: the final is one game and every faction is open to everyone.
/// `QualifyingOrder`: seat k to the k-th qualifier, who also picks her faction k-th.
pub fn seat_final_table(
    finalists: &[PlayerName],
    seating: FinalSeating,
    ruleset: Ruleset,
    options: &RulingOptions,
    seed: u64,
) -> Result<Table, FinalTableError> {
    if !FINAL_TABLE_SEATS.contains(&finalists.len()) {
        return Err(FinalTableError::Size(finalists.len()));
    }
    let mut sorted = finalists.to_vec();
    sorted.sort();
    if let Some(pair) = sorted.windows(2).find(|w| w[0] == w[1]) {
        return Err(FinalTableError::Duplicate(pair[0].clone()));
    }
    let circles = circles(finalists.len(), options.five_player_empty_circle);
    let (order, deals): (Vec<PlayerName>, Vec<Deal>) = match seating {
        FinalSeating::QualifyingOrder => (finalists.to_vec(), vec![Deal::Chosen; finalists.len()]),
        FinalSeating::Drawn => {
            // Names sorted first, so the same players and seed give the same table whatever
            // order they were listed in; then seats, then factions (ruling 2).
            let mut rng = DrawRng::new(seed);
            let mut order = sorted;
            rng.shuffle(&mut order);
            let mut deal = |pool: &[Faction]| {
                let mut pool = pool.to_vec();
                rng.shuffle(&mut pool);
                pool
            };
            let deals = match ruleset {
                Ruleset::Gc2133 => deal(&Faction::CLASSIC)
                    .into_iter()
                    .take(order.len())
                    .map(Deal::Assigned)
                    .collect(),
                Ruleset::Full => {
                    let classic = deal(&Faction::CLASSIC);
                    let expansion = deal(&Faction::EXPANSION);
                    classic
                        .into_iter()
                        .zip(expansion)
                        .take(order.len())
                        .map(|(classic, expansion)| Deal::Offered { classic, expansion })
                        .collect()
                }
            };
            (order, deals)
        }
    };
    let seats = order
        .into_iter()
        .zip(circles)
        .zip(deals)
        .zip(1u8..)
        .map(|(((player, circle), deal), seat)| Seat {
            seat,
            circle,
            player,
            deal,
        })
        .collect();
    Ok(Table { number: 1, seats })
}

/// Why a player holds her place in the event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlacingBasis {
    /// At the final table, with the final game's result (`None`: no win), and her place in
    /// qualifying, which orders players with the same result.
    Final {
        result: Option<WinType>,
        qualified: usize,
    },
    /// Not at the final table: her place in the qualifying standings.
    Qualifying { qualified: usize },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placing {
    /// 1 for the event's winner; no two players share a place.
    pub place: usize,
    pub player: PlayerName,
    pub basis: PlacingBasis,
}

/// The event's placings once the final game is reported: the final table first, ordered by the
/// final game's result (its weight in the ruleset, 4.01.10) and, between equal results (two
/// allies, or everyone without a win), by qualifying place; then everyone else in qualifying
/// order. `qualifying` is the standings order; `final_results` each finalist's result.
pub fn placings(
    ruleset: Ruleset,
    qualifying: &[PlayerName],
    final_results: &[(PlayerName, Option<WinType>)],
) -> Vec<Placing> {
    let qualified = |p: &PlayerName| {
        qualifying
            .iter()
            .position(|q| q == p)
            .map_or(usize::MAX, |i| i + 1)
    };
    let mut at_final: Vec<(&PlayerName, Option<WinType>, usize)> = final_results
        .iter()
        .map(|(p, r)| (p, *r, qualified(p)))
        .collect();
    at_final.sort_by(|a, b| {
        ruleset
            .weight(b.1)
            .cmp(&ruleset.weight(a.1))
            .then(a.2.cmp(&b.2))
            .then_with(|| a.0.cmp(b.0))
    });
    let mut out: Vec<Placing> = at_final
        .into_iter()
        .map(|(player, result, qualified)| Placing {
            place: 0,
            player: player.clone(),
            basis: PlacingBasis::Final { result, qualified },
        })
        .collect();
    for (i, player) in qualifying.iter().enumerate() {
        if final_results.iter().all(|(p, _)| p != player) {
            out.push(Placing {
                place: 0,
                player: player.clone(),
                basis: PlacingBasis::Qualifying { qualified: i + 1 },
            });
        }
    }
    for (i, placing) in out.iter_mut().enumerate() {
        placing.place = i + 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(n: usize) -> Vec<PlayerName> {
        (0..n)
            .map(|i| PlayerName::parse(&format!("P{i}")).unwrap())
            .collect()
    }

    #[test]
    fn a_tie_inside_the_finals_or_below_is_harmless() {
        let order = names(5);
        let (finals, status) = select(&order, &[true, false, false, true], 2);
        assert_eq!(finals.finalists, order[..2]);
        assert_eq!(finals.cut_tie, None);
        assert_eq!(
            status,
            [
                Some(true),
                Some(true),
                Some(false),
                Some(false),
                Some(false)
            ]
        );
    }

    #[test]
    fn a_tie_across_the_cut_line_is_reported() {
        let order = names(6);
        // Rows 2, 3, 4 are tied; three seats leave one for them.
        let (finals, status) = select(&order, &[false, false, true, true, false], 3);
        assert_eq!(finals.finalists, order[..2]);
        let tie = finals.cut_tie.unwrap();
        assert_eq!(tie.players, order[2..5]);
        assert_eq!(tie.open_seats, 1);
        assert_eq!(
            status,
            [Some(true), Some(true), None, None, None, Some(false)]
        );
    }

    #[test]
    fn more_seats_than_players() {
        let order = names(3);
        let (finals, status) = select(&order, &[false, false], 6);
        assert_eq!(finals.finalists.len(), 3);
        assert!(status.iter().all(|s| *s == Some(true)));
        let (finals, _) = select(&order, &[false, false], 0);
        assert!(finals.finalists.is_empty() && finals.cut_tie.is_none());
    }
    #[test]
    fn the_cut_draw_is_reproducible_and_fair_to_the_set() {
        let tied = names(4);
        let first = draw_cut(&tied, 2, 99);
        assert_eq!(first.len(), 2);
        assert!(first.iter().all(|p| tied.contains(p)));
        assert_ne!(first[0], first[1]);
        let mut reversed = tied.clone();
        reversed.reverse();
        assert_eq!(draw_cut(&reversed, 2, 99), first);
        // Over many seeds every tied player is sometimes picked.
        let picked: std::collections::HashSet<PlayerName> =
            (0..64).flat_map(|s| draw_cut(&tied, 1, s)).collect();
        assert_eq!(picked.len(), 4);
        assert!(draw_cut(&tied, 9, 1).len() == 4);
    }

    #[test]
    fn a_drawn_final_table_seats_everyone_once_with_distinct_factions_reproducibly() {
        let finalists = names(6);
        let options = RulingOptions::default();
        let table = seat_final_table(
            &finalists,
            FinalSeating::Drawn,
            Ruleset::Gc2133,
            &options,
            7,
        )
        .unwrap();
        assert_eq!(table.number, 1);
        let mut seated: Vec<PlayerName> = table.seats.iter().map(|s| s.player.clone()).collect();
        seated.sort();
        assert_eq!(seated, finalists);
        let seats: Vec<u8> = table.seats.iter().map(|s| s.seat).collect();
        assert_eq!(seats, [1, 2, 3, 4, 5, 6]);
        let factions: std::collections::BTreeSet<Faction> = table
            .seats
            .iter()
            .filter_map(|s| s.deal.faction())
            .collect();
        assert_eq!(factions.len(), 6, "every classic faction once (0.08)");
        let mut reversed = finalists.clone();
        reversed.reverse();
        assert_eq!(
            seat_final_table(&reversed, FinalSeating::Drawn, Ruleset::Gc2133, &options, 7).unwrap(),
            table,
            "the same players and seed give the same table"
        );
        // Over seeds, the best qualifier is not always in seat 1.
        let firsts: std::collections::BTreeSet<PlayerName> = (0..32)
            .map(|seed| {
                seat_final_table(
                    &finalists,
                    FinalSeating::Drawn,
                    Ruleset::Gc2133,
                    &options,
                    seed,
                )
                .unwrap()
                .seats[0]
                    .player
                    .clone()
            })
            .collect();
        assert!(firsts.len() > 2);
    }

    #[test]
    fn a_five_player_final_leaves_the_events_empty_circle_and_full_offers_two_cards() {
        let options = RulingOptions {
            five_player_empty_circle: 3,
            ..RulingOptions::default()
        };
        let table =
            seat_final_table(&names(5), FinalSeating::Drawn, Ruleset::Full, &options, 1).unwrap();
        assert!(table.seats.iter().all(|s| s.circle != 3));
        for seat in &table.seats {
            let Deal::Offered { classic, expansion } = seat.deal else {
                panic!("full offers a pair: {:?}", seat.deal);
            };
            assert!(classic.is_classic() && !expansion.is_classic());
        }
    }

    #[test]
    fn a_final_in_qualifying_order_seats_by_place_and_leaves_factions_to_choose() {
        let finalists = names(5);
        let table = seat_final_table(
            &finalists,
            FinalSeating::QualifyingOrder,
            Ruleset::Gc2133,
            &RulingOptions::default(),
            0,
        )
        .unwrap();
        let order: Vec<&PlayerName> = table.seats.iter().map(|s| &s.player).collect();
        assert_eq!(order, finalists.iter().collect::<Vec<_>>());
        assert!(table.seats.iter().all(|s| s.deal == Deal::Chosen));
    }

    #[test]
    fn a_final_table_takes_two_to_six_distinct_players() {
        let o = RulingOptions::default();
        for n in [0, 1, 7] {
            assert_eq!(
                seat_final_table(&names(n), FinalSeating::Drawn, Ruleset::Gc2133, &o, 0),
                Err(FinalTableError::Size(n))
            );
        }
        let twice = vec![
            names(1)[0].clone(),
            names(1)[0].clone(),
            names(2)[1].clone(),
        ];
        assert!(matches!(
            seat_final_table(&twice, FinalSeating::Drawn, Ruleset::Gc2133, &o, 0),
            Err(FinalTableError::Duplicate(_))
        ));
    }

    #[test]
    fn placings_put_the_final_result_first_then_qualifying_order() {
        // Eight players qualified P0..P7; P0..P4 played the final and P3 won it solo.
        let qualifying = names(8);
        let results: Vec<(PlayerName, Option<WinType>)> = qualifying[..5]
            .iter()
            .map(|p| {
                let won = p.as_str() == "P3";
                (p.clone(), won.then_some(WinType::SoloStronghold))
            })
            .collect();
        let placings = placings(Ruleset::Gc2133, &qualifying, &results);
        let order: Vec<&str> = placings.iter().map(|p| p.player.as_str()).collect();
        assert_eq!(order, ["P3", "P0", "P1", "P2", "P4", "P5", "P6", "P7"]);
        assert_eq!(placings[0].place, 1);
        assert_eq!(
            placings[0].basis,
            PlacingBasis::Final {
                result: Some(WinType::SoloStronghold),
                qualified: 4
            }
        );
        assert_eq!(placings[5].basis, PlacingBasis::Qualifying { qualified: 6 });
        assert_eq!(placings[7].place, 8);
    }

    #[test]
    fn allies_who_win_the_final_are_ordered_by_qualifying_place() {
        let qualifying = names(6);
        let result = |p: &PlayerName| match p.as_str() {
            "P4" | "P2" => Some(WinType::AlliedStronghold),
            "P5" => Some(WinType::Adjudicated),
            _ => None,
        };
        let results: Vec<_> = qualifying.iter().map(|p| (p.clone(), result(p))).collect();
        let order: Vec<String> = placings(Ruleset::Gc2133, &qualifying, &results)
            .into_iter()
            .map(|p| p.player.as_str().to_owned())
            .collect();
        assert_eq!(order, ["P2", "P4", "P5", "P0", "P1", "P3"]);
    }
}
