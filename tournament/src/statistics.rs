//! What an event's (or many events') final Game Reports say about the game: factions played
//! and won (solo and in alliance), win types, how often the clock decided (4.01.09), how long
//! games last, seat effects, and each faction's best showing (the WBC's "best faction" award)
//! with the strongholds its player held turn by turn where the win attempts recorded them.
//!
//! Pure arithmetic over [`GameStats`]; the database gathers them, the pages draw them.

use std::collections::BTreeMap;

use dune::{Faction, Points, WinType};
use serde::Serialize;

use crate::report::{Ending, MAX_TURNS};

/// One seat of a game, as its final report counts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeatStats {
    /// The seat number drawn (0.07): 1 sits next to Tuek's Sietch.
    pub seat: u8,
    pub player: String,
    pub faction: Faction,
    /// Allied at the end of the game.
    pub allied: bool,
    /// The result that counts (adjudication included).
    pub result: Option<WinType>,
    /// The game's score: points, then the six tiebreakers of 4.01.11.
    pub score: (Points, [u32; 6]),
    /// Strongholds the judge saw this player hold at each Battle phase with a win attempt:
    /// (turn, how many).
    pub strongholds_by_turn: Vec<(u32, usize)>,
}

/// One game with a final report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameStats {
    /// Where it was: "GenCon 2026, round 2, table 4".
    pub label: String,
    pub ended: Ending,
    pub last_turn: u32,
    /// The clock ended it and the head judge's rules decided it (4.01.09).
    pub adjudicated: bool,
    /// In seat order.
    pub seats: Vec<SeatStats>,
}

/// A count out of a total, shown as both.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Default)]
pub struct Share {
    pub count: usize,
    pub of: usize,
}

impl Share {
    /// In percent, rounded; 0 of 0 is 0.
    pub fn percent(self) -> u32 {
        if self.of == 0 {
            return 0;
        }
        let p = (self.count * 1000 / self.of + 5) / 10;
        u32::try_from(p).unwrap_or(u32::MAX)
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FactionLine {
    pub faction: Faction,
    pub played: usize,
    /// Won without an ally.
    pub solo_wins: usize,
    /// Won as part of an alliance.
    pub allied_wins: usize,
}

impl FactionLine {
    pub fn wins(&self) -> Share {
        Share {
            count: self.solo_wins + self.allied_wins,
            of: self.played,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SeatLine {
    pub seat: u8,
    pub played: usize,
    pub wins: usize,
}

/// A faction's best game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BestShowing {
    pub faction: Faction,
    pub player: String,
    pub game: String,
    pub result: Option<WinType>,
    pub points: Points,
    pub score: String,
    pub strongholds_by_turn: Vec<(u32, usize)>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Statistics {
    pub games: usize,
    pub seats: usize,
    /// Every faction that was played, most played first.
    pub factions: Vec<FactionLine>,
    /// Games won by each type (a game counts once per win type in it), heaviest first.
    pub win_types: Vec<(WinType, usize)>,
    /// Games without any win.
    pub no_winner: usize,
    pub ended_by_win: usize,
    pub ended_by_time: usize,
    pub ended_by_turns: usize,
    pub adjudicated: Share,
    /// Games by their last turn, turns 1 to 10.
    pub length: Vec<(u32, usize)>,
    /// Tenths of a turn, so it stays a whole number: 57 is 5.7 turns.
    pub average_length_tenths: u32,
    pub by_seat: Vec<SeatLine>,
    /// Factions in [`Faction::ALL`] order.
    pub best: Vec<BestShowing>,
}

pub fn compute(games: &[GameStats]) -> Statistics {
    let mut factions: BTreeMap<Faction, FactionLine> = BTreeMap::new();
    let mut win_types: BTreeMap<WinType, usize> = BTreeMap::new();
    let mut by_seat: BTreeMap<u8, SeatLine> = BTreeMap::new();
    let mut best: BTreeMap<Faction, (&GameStats, &SeatStats)> = BTreeMap::new();
    let mut length: BTreeMap<u32, usize> = (1..=MAX_TURNS).map(|t| (t, 0)).collect();
    let (mut no_winner, mut seats, mut turns) = (0, 0, 0u64);
    let (mut by_win, mut by_time, mut by_turns, mut adjudicated) = (0, 0, 0, 0);
    for game in games {
        match game.ended {
            Ending::Win => by_win += 1,
            Ending::Time => by_time += 1,
            Ending::Turns => by_turns += 1,
        }
        if game.adjudicated {
            adjudicated += 1;
        }
        *length.entry(game.last_turn).or_default() += 1;
        turns += u64::from(game.last_turn);
        let mut types: Vec<WinType> = game.seats.iter().filter_map(|s| s.result).collect();
        types.sort_unstable();
        types.dedup();
        if types.is_empty() {
            no_winner += 1;
        }
        for t in types {
            *win_types.entry(t).or_default() += 1;
        }
        for seat in &game.seats {
            seats += 1;
            let line = factions.entry(seat.faction).or_insert(FactionLine {
                faction: seat.faction,
                played: 0,
                solo_wins: 0,
                allied_wins: 0,
            });
            line.played += 1;
            let won = seat.result.is_some();
            if won && seat.allied {
                line.allied_wins += 1;
            } else if won {
                line.solo_wins += 1;
            }
            let s = by_seat.entry(seat.seat).or_insert(SeatLine {
                seat: seat.seat,
                played: 0,
                wins: 0,
            });
            s.played += 1;
            s.wins += usize::from(won);
            match best.get(&seat.faction) {
                Some((_, held)) if held.score >= seat.score => {}
                _ => {
                    best.insert(seat.faction, (game, seat));
                }
            }
        }
    }
    let mut factions: Vec<FactionLine> = factions.into_values().collect();
    factions.sort_by(|a, b| b.played.cmp(&a.played).then(a.faction.cmp(&b.faction)));
    let mut win_types: Vec<(WinType, usize)> = win_types.into_iter().collect();
    win_types.sort_by(|a, b| b.0.points().cmp(&a.0.points()).then(a.0.cmp(&b.0)));
    let average_length_tenths = match u64::try_from(games.len()) {
        Ok(n) if n > 0 => u32::try_from((turns * 10 + n / 2) / n).unwrap_or(u32::MAX),
        _ => 0,
    };
    Statistics {
        games: games.len(),
        seats,
        factions,
        win_types,
        no_winner,
        ended_by_win: by_win,
        ended_by_time: by_time,
        ended_by_turns: by_turns,
        adjudicated: Share {
            count: adjudicated,
            of: games.len(),
        },
        length: length.into_iter().collect(),
        average_length_tenths,
        by_seat: by_seat.into_values().collect(),
        best: best
            .into_values()
            .map(|(game, seat)| BestShowing {
                faction: seat.faction,
                player: seat.player.clone(),
                game: game.label.clone(),
                result: seat.result,
                points: seat.score.0,
                score: crate::standings::GameScore::new(seat.score).short(),
                strongholds_by_turn: seat.strongholds_by_turn.clone(),
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seat(n: u8, faction: Faction, result: Option<WinType>, allied: bool) -> SeatStats {
        SeatStats {
            seat: n,
            player: format!("P{n}"),
            faction,
            allied,
            result,
            score: (
                result.map_or(Points::ZERO, WinType::points),
                [u32::from(n), 0, 0, 0, 0, 0],
            ),
            strongholds_by_turn: Vec::new(),
        }
    }

    fn game(ended: Ending, last_turn: u32, adjudicated: bool, seats: Vec<SeatStats>) -> GameStats {
        GameStats {
            label: "g".into(),
            ended,
            last_turn,
            adjudicated,
            seats,
        }
    }

    #[test]
    fn factions_win_types_length_and_seats_are_counted() {
        use Faction::*;
        let games = vec![
            game(
                Ending::Win,
                4,
                false,
                vec![
                    seat(1, Fremen, Some(WinType::SoloStronghold), false),
                    seat(2, Atreides, None, false),
                    seat(3, Harkonnen, None, false),
                ],
            ),
            game(
                Ending::Win,
                6,
                false,
                vec![
                    seat(1, Atreides, Some(WinType::AlliedStronghold), true),
                    seat(2, Fremen, Some(WinType::AlliedStronghold), true),
                    seat(3, Emperor, None, false),
                ],
            ),
            game(
                Ending::Time,
                7,
                true,
                vec![
                    seat(1, Emperor, None, false),
                    seat(2, Fremen, Some(WinType::Adjudicated), false),
                    seat(3, Atreides, None, false),
                ],
            ),
        ];
        let s = compute(&games);
        assert_eq!((s.games, s.seats), (3, 9));
        let fremen = s.factions.iter().find(|f| f.faction == Fremen).unwrap();
        assert_eq!(
            (fremen.played, fremen.solo_wins, fremen.allied_wins),
            (3, 2, 1)
        );
        assert_eq!(fremen.wins(), Share { count: 3, of: 3 });
        let harkonnen = s.factions.iter().find(|f| f.faction == Harkonnen).unwrap();
        assert_eq!(harkonnen.wins().percent(), 0);
        // An allied win counts once for the game.
        assert_eq!(
            s.win_types,
            vec![
                (WinType::SoloStronghold, 1),
                (WinType::AlliedStronghold, 1),
                (WinType::Adjudicated, 1)
            ]
        );
        assert_eq!(s.adjudicated, Share { count: 1, of: 3 });
        assert_eq!(s.adjudicated.percent(), 33);
        assert_eq!(
            (s.ended_by_win, s.ended_by_time, s.ended_by_turns),
            (2, 1, 0)
        );
        assert_eq!(s.average_length_tenths, 57);
        assert_eq!(s.length.iter().find(|(t, _)| *t == 6), Some(&(6, 1)));
        assert_eq!(s.length.len(), 10);
        let seat2 = s.by_seat.iter().find(|l| l.seat == 2).unwrap();
        assert_eq!((seat2.played, seat2.wins), (3, 2));
        // The best showing is the best game score: Fremen's solo stronghold win.
        let best = s.best.iter().find(|b| b.faction == Fremen).unwrap();
        assert_eq!(best.result, Some(WinType::SoloStronghold));
        assert_eq!(
            best.score,
            "3\u{a0}pts · 1\u{a0}WA · 0\u{a0}SH · 0\u{a0}F · 0\u{a0}Sp · 0\u{a0}C · 0\u{a0}L"
        );
    }

    #[test]
    fn expansion_factions_count_like_the_classic_ones() {
        use Faction::*;
        // Two full-format games: Ecaz and its ally win one, Moritani the other.
        let games = vec![
            game(
                Ending::Win,
                3,
                false,
                vec![
                    seat(1, Emperor, None, false),
                    seat(2, Ecaz, Some(WinType::AlliedStronghold), true),
                    seat(3, SpacingGuild, Some(WinType::AlliedStronghold), true),
                    seat(4, Moritani, None, false),
                    seat(5, Harkonnen, None, false),
                ],
            ),
            game(
                Ending::Win,
                2,
                false,
                vec![
                    seat(1, Emperor, None, false),
                    seat(2, Moritani, Some(WinType::SoloStronghold), false),
                    seat(3, BeneGesserit, None, false),
                    seat(4, SpacingGuild, None, false),
                    seat(5, Ecaz, None, false),
                ],
            ),
        ];
        let s = compute(&games);
        let line = |f: Faction| s.factions.iter().find(|l| l.faction == f).unwrap();
        assert_eq!(
            (
                line(Ecaz).played,
                line(Ecaz).allied_wins,
                line(Ecaz).solo_wins
            ),
            (2, 1, 0)
        );
        assert_eq!((line(Moritani).played, line(Moritani).solo_wins), (2, 1));
        let best = |f: Faction| s.best.iter().find(|b| b.faction == f).unwrap();
        assert_eq!(best(Moritani).result, Some(WinType::SoloStronghold));
        assert_eq!(best(Ecaz).result, Some(WinType::AlliedStronghold));
        // Most played first, then in chapter order: the Emperor, the Guild, Ecaz, Moritani.
        let order: Vec<Faction> = s.factions.iter().map(|l| l.faction).collect();
        assert_eq!(&order[..4], &[Emperor, SpacingGuild, Ecaz, Moritani]);
    }

    #[test]
    fn no_games_means_zeroes_not_a_division_by_zero() {
        let s = compute(&[]);
        assert_eq!(s.games, 0);
        assert_eq!(s.average_length_tenths, 0);
        assert_eq!(s.adjudicated.percent(), 0);
        assert!(s.factions.is_empty());
    }
}
