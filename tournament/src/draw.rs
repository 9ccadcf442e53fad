//! Drawing a round: tables (4.01.01), seats (0.07) and factions (0.08), from a stored seed.
//!
//! The order of random draws is part of the audit trail and must not change: players sorted by
//! name (so the input order does not matter), the table seating of `pairing`, then table by table
//! the seat numbers and after them the factions (ruling 2: seats before factions).

use std::collections::BTreeSet;

use serde::ser::{SerializeMap, SerializeStruct};
use serde::{Serialize, Serializer};

use crate::history::{Encounters, History, HistoryError, PastRound, PastSeat, PastTable};
use crate::options::{OptionsError, RulingOptions};
use crate::pairing::{self, PairingQuality};
use crate::player::PlayerName;
use crate::rng::DrawRng;
use crate::ruleset::Ruleset;
use crate::tables::{self, TableError};
use dune::faction::Faction;

/// Everything a draw depends on. The same request always gives the same round.
#[derive(Clone, Copy, Debug)]
pub struct DrawRequest<'a> {
    pub seed: u64,
    pub ruleset: Ruleset,
    /// Everyone present, in any order.
    pub players: &'a [PlayerName],
    /// Players the head judge gives a bye this round (ruling 1): present but not seated.
    pub byes: &'a [PlayerName],
    pub history: &'a History,
    pub options: &'a RulingOptions,
}

/// A drawn round. Serialises to the JSON of `mentat draw` (docs/cli.md).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Round {
    pub seed: u64,
    pub ruleset: Ruleset,
    pub tables: Vec<Table>,
    pub byes: Vec<PlayerName>,
    pub quality: DrawQuality,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Table {
    #[serde(rename = "table")]
    pub number: usize,
    pub seats: Vec<Seat>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seat {
    /// The prediction card drawn, 1..n (0.07); seat 1 sits nearest Tuek's Sietch.
    pub seat: u8,
    /// Player circle 0-5, counterclockwise from the Storm Start sector (ruling 2).
    pub circle: u8,
    pub player: PlayerName,
    pub deal: Deal,
}

/// What the faction draw gave a player (0.08, ruling 3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Deal {
    /// `gc-2.13.3`: one classic faction, no choice.
    Assigned(Faction),
    /// `full`: one classic and one expansion card; the player picks one at the table.
    Offered {
        classic: Faction,
        expansion: Faction,
    },
    /// Nothing dealt: the player picks any faction of the ruleset at the table, in the order
    /// the event sets (a final table seated in qualifying order), and the report records it.
    Chosen,
}

impl Deal {
    pub fn faction(self) -> Option<Faction> {
        match self {
            Deal::Assigned(f) => Some(f),
            Deal::Offered { .. } | Deal::Chosen => None,
        }
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DrawQuality {
    pub pairing: PairingQuality,
    /// Faction cards dealt to a player who had already played that faction (under `full`,
    /// each of the two offered cards counts).
    pub repeat_factions: u32,
}

/// The most players one draw seats. Far above any Dune tournament, and it bounds the memory of
/// the seating search (a meeting matrix of n² entries).
pub const MAX_PLAYERS: usize = 2000;

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DrawError {
    #[error("{0} players is more than one draw seats ({MAX_PLAYERS})")]
    TooManyPlayers(usize),
    #[error("{0} is on the player list twice")]
    DuplicatePlayer(PlayerName),
    #[error("{0} is given a bye but is not on the player list")]
    ByeNotPlaying(PlayerName),
    #[error("{0} is given a bye twice")]
    DuplicateBye(PlayerName),
    #[error("{0}")]
    Tables(#[from] TableError),
    #[error("{0}")]
    History(#[from] HistoryError),
    #[error("{0}")]
    Options(#[from] OptionsError),
}

pub fn draw_round(req: &DrawRequest<'_>) -> Result<Round, DrawError> {
    req.options.check()?;
    req.history.check()?;
    if req.players.len() > MAX_PLAYERS {
        return Err(DrawError::TooManyPlayers(req.players.len()));
    }
    let mut players: Vec<PlayerName> = req.players.to_vec();
    players.sort();
    if let Some(pair) = players.windows(2).find(|w| w[0] == w[1]) {
        return Err(DrawError::DuplicatePlayer(pair[0].clone()));
    }
    let mut byes = BTreeSet::new();
    for bye in req.byes {
        if players.binary_search(bye).is_err() {
            return Err(DrawError::ByeNotPlaying(bye.clone()));
        }
        if !byes.insert(bye.clone()) {
            return Err(DrawError::DuplicateBye(bye.clone()));
        }
    }
    players.retain(|p| !byes.contains(p));
    let sizes = tables::plan(players.len(), req.options.table_fallback)?;

    let enc = Encounters::new(&players, req.history);
    let mut rng = DrawRng::new(req.seed);
    let pools: &[&[Faction]] = match req.ruleset {
        Ruleset::Gc2133 => &[&Faction::CLASSIC],
        Ruleset::Full => &[&Faction::CLASSIC, &Faction::EXPANSION],
    };
    let (members, pairing) = pairing::assign(&enc, &sizes, pools, &mut rng);

    let mut repeat_factions = 0;
    let mut out = Vec::with_capacity(members.len());
    for (t, mut order) in members.into_iter().enumerate() {
        rng.shuffle(&mut order);
        let circles = circles(order.len(), req.options.five_player_empty_circle);
        let deals: Vec<Deal> = match req.ruleset {
            Ruleset::Gc2133 => {
                let (classic, repeats) = deal(&enc, &order, &Faction::CLASSIC, &mut rng);
                repeat_factions += repeats;
                classic.into_iter().map(Deal::Assigned).collect()
            }
            Ruleset::Full => {
                let (classic, r1) = deal(&enc, &order, &Faction::CLASSIC, &mut rng);
                let (expansion, r2) = deal(&enc, &order, &Faction::EXPANSION, &mut rng);
                repeat_factions += r1 + r2;
                classic
                    .into_iter()
                    .zip(expansion)
                    .map(|(classic, expansion)| Deal::Offered { classic, expansion })
                    .collect()
            }
        };
        let seats = order
            .iter()
            .zip(circles)
            .zip(deals)
            .zip(1u8..)
            .map(|(((&p, circle), deal), seat)| Seat {
                seat,
                circle,
                player: players[p].clone(),
                deal,
            })
            .collect();
        out.push(Table {
            number: t + 1,
            seats,
        });
    }
    Ok(Round {
        seed: req.seed,
        ruleset: req.ruleset,
        tables: out,
        byes: byes.into_iter().collect(),
        quality: DrawQuality {
            pairing,
            repeat_factions,
        },
    })
}

/// Circles of seats 1..=size (ruling 2): counterclockwise from circle 1, next to Tuek's Sietch,
/// skipping the event's empty circle when fewer than six sit (at six, seat 6 is at circle 0).
pub fn circles(size: usize, empty_circle: u8) -> Vec<u8> {
    [1u8, 2, 3, 4, 5, 0]
        .into_iter()
        .filter(|&c| size >= 6 || c != empty_circle)
        .take(size)
        .collect()
}

/// Deals distinct factions from `pool` to the players (indices into `enc`), preferring factions
/// they have not played: first the fewest players given a faction they played, then the fewest
/// earlier plays in all, then uniformly at random among the deals that tie. Without history
/// every deal ties, which is a plain random deal. Tables hold at most six players and pools
/// seven factions, so listing every deal (at most 5,040) is cheap and exact.
fn deal(
    enc: &Encounters,
    players: &[usize],
    pool: &[Faction],
    rng: &mut DrawRng,
) -> (Vec<Faction>, u32) {
    struct Search<'a> {
        enc: &'a Encounters,
        players: &'a [usize],
        pool: &'a [Faction],
        used: Vec<bool>,
        /// The deal so far, four bits per player: pool index of player d at bits 4d..4d+4.
        current: u32,
        best_cost: (u32, u32),
        best: Vec<u32>,
    }
    impl Search<'_> {
        fn walk(&mut self, depth: usize, cost: (u32, u32)) {
            if cost > self.best_cost {
                return;
            }
            let Some(&player) = self.players.get(depth) else {
                if cost < self.best_cost {
                    self.best_cost = cost;
                    self.best.clear();
                }
                self.best.push(self.current);
                return;
            };
            for (i, &faction) in self.pool.iter().enumerate() {
                if self.used[i] {
                    continue;
                }
                let plays = self.enc.played(player, faction);
                let bits = (i as u32 & 0xF) << (4 * depth);
                self.used[i] = true;
                self.current |= bits;
                self.walk(depth + 1, (cost.0 + u32::from(plays > 0), cost.1 + plays));
                self.current &= !bits;
                self.used[i] = false;
            }
        }
    }
    // Tables seat at most six and pools hold at most seven, within the packing's 8 × 4 bits.
    let take = players.len().min(pool.len()).min(8);
    let mut search = Search {
        enc,
        players: &players[..take],
        pool,
        used: vec![false; pool.len()],
        current: 0,
        best_cost: (u32::MAX, u32::MAX),
        best: Vec::new(),
    };
    search.walk(0, (0, 0));
    let pick = rng.below(search.best.len());
    let chosen = search.best.get(pick).copied().unwrap_or_default();
    let factions = (0..take)
        .filter_map(|d| pool.get(((chosen >> (4 * d)) & 0xF) as usize).copied())
        .collect();
    let repeats = if search.best_cost.0 == u32::MAX {
        0
    } else {
        search.best_cost.0
    };
    (factions, repeats)
}

impl Serialize for Round {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("Round", 5)?;
        st.serialize_field("seed", &self.seed)?;
        st.serialize_field("ruleset", &self.ruleset)?;
        st.serialize_field("tables", &self.tables)?;
        st.serialize_field("byes", &self.byes)?;
        st.serialize_field("quality", &self.quality)?;
        st.end()
    }
}

impl Serialize for Seat {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(None)?;
        map.serialize_entry("seat", &self.seat)?;
        map.serialize_entry("circle", &self.circle)?;
        map.serialize_entry("player", &self.player)?;
        match self.deal {
            Deal::Assigned(f) => map.serialize_entry("faction", &f)?,
            Deal::Offered { classic, expansion } => {
                map.serialize_entry("offered", &[classic, expansion])?;
                map.serialize_entry("faction", &None::<Faction>)?;
            }
            Deal::Chosen => map.serialize_entry("faction", &None::<Faction>)?,
        }
        map.end()
    }
}

impl Serialize for DrawQuality {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("DrawQuality", 5)?;
        st.serialize_field("repeat_pairs", &self.pairing.repeat_pairs)?;
        st.serialize_field("cost", &self.pairing.cost)?;
        st.serialize_field("lower_bound", &self.pairing.lower_bound)?;
        st.serialize_field("proven_optimal", &self.pairing.proven_optimal())?;
        st.serialize_field("repeat_factions", &self.repeat_factions)?;
        st.end()
    }
}

/// A drawn round becomes history as drawn; under `full` the faction is unknown until someone
/// records the player's pick (set `faction` on the seat).
impl From<&Round> for PastRound {
    fn from(round: &Round) -> PastRound {
        PastRound {
            tables: round
                .tables
                .iter()
                .map(|table| PastTable {
                    seats: table
                        .seats
                        .iter()
                        .map(|seat| PastSeat {
                            player: seat.player.clone(),
                            faction: seat.deal.faction(),
                        })
                        .collect(),
                })
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(n: usize) -> Vec<PlayerName> {
        (1..=n)
            .map(|i| PlayerName::parse(&format!("P{i:03}")).unwrap())
            .collect()
    }

    fn draw(seed: u64, ruleset: Ruleset, players: &[PlayerName], history: &History) -> Round {
        draw_round(&DrawRequest {
            seed,
            ruleset,
            players,
            byes: &[],
            history,
            options: &RulingOptions::default(),
        })
        .unwrap()
    }

    #[test]
    fn circles_follow_ruling_2() {
        assert_eq!(circles(6, 0), [1, 2, 3, 4, 5, 0]);
        assert_eq!(circles(5, 0), [1, 2, 3, 4, 5]);
        assert_eq!(circles(5, 3), [1, 2, 4, 5, 0]);
        assert_eq!(circles(4, 0), [1, 2, 3, 4]);
    }

    #[test]
    fn gc_deals_each_classic_faction_once_per_table() {
        let players = names(17);
        let round = draw(9, Ruleset::Gc2133, &players, &History::default());
        let sizes: Vec<usize> = round.tables.iter().map(|t| t.seats.len()).collect();
        assert_eq!(sizes, [6, 6, 5]);
        let mut everyone = BTreeSet::new();
        for table in &round.tables {
            let factions: BTreeSet<Faction> = table
                .seats
                .iter()
                .filter_map(|s| s.deal.faction())
                .collect();
            assert_eq!(factions.len(), table.seats.len());
            assert!(factions.iter().all(|f| f.is_classic()));
            let seats: Vec<u8> = table.seats.iter().map(|s| s.seat).collect();
            assert_eq!(seats, (1..=table.seats.len() as u8).collect::<Vec<_>>());
            everyone.extend(table.seats.iter().map(|s| s.player.clone()));
        }
        assert_eq!(everyone.len(), 17);
    }

    #[test]
    fn full_offers_one_classic_and_one_expansion_card() {
        let players = names(12);
        let round = draw(3, Ruleset::Full, &players, &History::default());
        for table in &round.tables {
            let mut offered = BTreeSet::new();
            for seat in &table.seats {
                let Deal::Offered { classic, expansion } = seat.deal else {
                    panic!("full offers two cards");
                };
                assert!(classic.is_classic() && !expansion.is_classic());
                assert!(offered.insert(classic) && offered.insert(expansion));
            }
        }
    }

    #[test]
    fn input_order_does_not_matter() {
        let players = names(23);
        let mut reversed = players.clone();
        reversed.reverse();
        let h = History::default();
        assert_eq!(
            draw(5, Ruleset::Gc2133, &players, &h),
            draw(5, Ruleset::Gc2133, &reversed, &h)
        );
        assert_ne!(
            draw(5, Ruleset::Gc2133, &players, &h),
            draw(6, Ruleset::Gc2133, &players, &h)
        );
    }

    #[test]
    fn twelve_players_over_two_rounds_repeat_exactly_twelve_pairs() {
        let players = names(12);
        let mut history = History::default();
        let first = draw(1, Ruleset::Gc2133, &players, &history);
        history.push(PastRound::from(&first));
        let second = draw(2, Ruleset::Gc2133, &players, &history);
        assert_eq!(second.quality.pairing.repeat_pairs, 12);
        assert_eq!(second.quality.pairing.cost, 12);
        assert!(second.quality.pairing.proven_optimal());
        // Two classic factions per player over two rounds: no repeats needed.
        assert_eq!(second.quality.repeat_factions, 0);
        for table in &second.tables {
            for seat in &table.seats {
                let before = first
                    .tables
                    .iter()
                    .flat_map(|t| &t.seats)
                    .find(|s| s.player == seat.player)
                    .and_then(|s| s.deal.faction());
                assert_ne!(
                    before,
                    seat.deal.faction(),
                    "{} repeats a faction",
                    seat.player
                );
            }
        }
    }

    #[test]
    fn early_rounds_repeat_no_faction() {
        let players = names(30);
        let mut history = History::default();
        for round in 0..3 {
            let drawn = draw(round, Ruleset::Gc2133, &players, &history);
            assert_eq!(drawn.quality.repeat_factions, 0, "round {}", round + 1);
            history.push(PastRound::from(&drawn));
        }
    }

    #[test]
    fn byes_and_errors() {
        let players = names(13);
        let h = History::default();
        let options = RulingOptions::default();
        let req = |byes: &[PlayerName]| {
            draw_round(&DrawRequest {
                seed: 1,
                ruleset: Ruleset::Gc2133,
                players: &players,
                byes,
                history: &h,
                options: &options,
            })
        };
        assert!(matches!(req(&[]), Err(DrawError::Tables(_))));
        let round = req(&players[..1]).unwrap();
        assert_eq!(round.byes, players[..1]);
        assert_eq!(round.tables.len(), 2);
        let stranger = PlayerName::parse("Nobody").unwrap();
        assert!(matches!(req(&[stranger]), Err(DrawError::ByeNotPlaying(_))));
        let mut twice = players.clone();
        twice.push(players[0].clone());
        let err = draw_round(&DrawRequest {
            seed: 1,
            ruleset: Ruleset::Gc2133,
            players: &twice,
            byes: &[],
            history: &h,
            options: &options,
        });
        assert!(matches!(err, Err(DrawError::DuplicatePlayer(_))));
        let bad_history = History::new(vec![PastRound {
            tables: vec![
                PastTable {
                    seats: vec![PastSeat {
                        player: players[0].clone(),
                        faction: None,
                    }],
                },
                PastTable {
                    seats: vec![PastSeat {
                        player: players[0].clone(),
                        faction: None,
                    }],
                },
            ],
        }]);
        let err = draw_round(&DrawRequest {
            seed: 1,
            ruleset: Ruleset::Gc2133,
            players: &players[..12],
            byes: &[],
            history: &bad_history,
            options: &options,
        });
        assert!(matches!(err, Err(DrawError::History(_))));
    }
}
