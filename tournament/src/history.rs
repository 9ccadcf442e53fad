//! Earlier rounds of an event, as far as the next draw needs them: who sat with whom, and who
//! played which faction.

use std::collections::{BTreeMap, HashMap};

use serde::{Deserialize, Serialize};

use crate::player::PlayerName;
use dune::faction::Faction;

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct History {
    pub rounds: Vec<PastRound>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PastRound {
    pub tables: Vec<PastTable>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PastTable {
    pub seats: Vec<PastSeat>,
}

/// `faction` is `None` when it is not known, as after a `full` draw where the player picked
/// at the table and nobody recorded the pick.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PastSeat {
    pub player: PlayerName,
    pub faction: Option<Faction>,
}

/// Earlier rounds that cannot have happened. Rounds and tables are 1-based positions in the
/// history.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HistoryError {
    #[error(
        "earlier round {round}: {player} sits at table {first_table} and again at table {second_table}"
    )]
    PlayerTwice {
        round: usize,
        player: PlayerName,
        first_table: usize,
        second_table: usize,
    },
    #[error(
        "earlier round {round}, table {table}: {seats} seats; a table seats at most 6 (4.01.01)"
    )]
    TableTooLarge {
        round: usize,
        table: usize,
        seats: usize,
    },
}

/// The most players at one table: six player circles (0.07).
pub const MAX_TABLE: usize = 6;

impl History {
    pub fn new(rounds: Vec<PastRound>) -> History {
        History { rounds }
    }

    pub fn push(&mut self, round: PastRound) {
        self.rounds.push(round);
    }

    /// A player may sit at most once per round.
    pub fn check(&self) -> Result<(), HistoryError> {
        for (r, round) in self.rounds.iter().enumerate() {
            let mut seen: HashMap<&str, usize> = HashMap::new();
            for (t, table) in round.tables.iter().enumerate() {
                if table.seats.len() > MAX_TABLE {
                    return Err(HistoryError::TableTooLarge {
                        round: r + 1,
                        table: t + 1,
                        seats: table.seats.len(),
                    });
                }
                for seat in &table.seats {
                    if let Some(first) = seen.get(seat.player.as_str()) {
                        return Err(HistoryError::PlayerTwice {
                            round: r + 1,
                            player: seat.player.clone(),
                            first_table: *first,
                            second_table: t + 1,
                        });
                    }
                    seen.insert(seat.player.as_str(), t + 1);
                }
            }
        }
        Ok(())
    }
}

/// History seen from the players of the round being drawn, indexed by their position in the
/// round's (sorted) player list. Players who left the event are dropped; newcomers have met
/// nobody.
pub(crate) struct Encounters {
    n: usize,
    meetings: Vec<u32>,
    played: Vec<[u32; 13]>,
    /// Per earlier round, the sizes of its tables counted in current players only.
    pub(crate) round_groups: Vec<Vec<usize>>,
}

impl Encounters {
    pub(crate) fn new(players: &[PlayerName], history: &History) -> Encounters {
        let n = players.len();
        let index: BTreeMap<&str, usize> = players
            .iter()
            .enumerate()
            .map(|(i, p)| (p.as_str(), i))
            .collect();
        let mut meetings = vec![0u32; n * n];
        let mut played = vec![[0u32; 13]; n];
        let mut round_groups = Vec::with_capacity(history.rounds.len());
        for round in &history.rounds {
            let mut groups = Vec::with_capacity(round.tables.len());
            for table in &round.tables {
                let present: Vec<usize> = table
                    .seats
                    .iter()
                    .filter_map(|s| index.get(s.player.as_str()).copied())
                    .collect();
                for seat in &table.seats {
                    if let (Some(&i), Some(f)) = (index.get(seat.player.as_str()), seat.faction) {
                        played[i][f.index()] = played[i][f.index()].saturating_add(1);
                    }
                }
                for (k, &a) in present.iter().enumerate() {
                    for &b in &present[k + 1..] {
                        if a != b {
                            meetings[a * n + b] = meetings[a * n + b].saturating_add(1);
                            meetings[b * n + a] = meetings[b * n + a].saturating_add(1);
                        }
                    }
                }
                if present.len() > 1 {
                    groups.push(present.len());
                }
            }
            round_groups.push(groups);
        }
        Encounters {
            n,
            meetings,
            played,
            round_groups,
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.n
    }

    pub(crate) fn meetings(&self, a: usize, b: usize) -> u32 {
        self.meetings.get(a * self.n + b).copied().unwrap_or(0)
    }

    pub(crate) fn played(&self, player: usize, faction: Faction) -> u32 {
        self.played
            .get(player)
            .map_or(0, |counts| counts[faction.index()])
    }

    pub(crate) fn anyone_played(&self) -> bool {
        self.played
            .iter()
            .any(|counts| counts.iter().any(|&c| c > 0))
    }

    pub(crate) fn anyone_met(&self) -> bool {
        self.meetings.iter().any(|&m| m > 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name(s: &str) -> PlayerName {
        PlayerName::parse(s).unwrap()
    }

    fn table(players: &[(&str, Option<Faction>)]) -> PastTable {
        PastTable {
            seats: players
                .iter()
                .map(|&(p, faction)| PastSeat {
                    player: name(p),
                    faction,
                })
                .collect(),
        }
    }

    #[test]
    fn counts_meetings_and_factions_of_current_players() {
        let history = History::new(vec![
            PastRound {
                tables: vec![
                    table(&[("A", Some(Faction::Atreides)), ("B", None), ("Gone", None)]),
                    table(&[("C", Some(Faction::Fremen)), ("D", None)]),
                ],
            },
            PastRound {
                tables: vec![table(&[
                    ("A", Some(Faction::Atreides)),
                    ("B", None),
                    ("C", None),
                ])],
            },
        ]);
        history.check().unwrap();
        let players = [name("A"), name("B"), name("C"), name("New")];
        let e = Encounters::new(&players, &history);
        assert_eq!(e.meetings(0, 1), 2);
        assert_eq!(e.meetings(1, 0), 2);
        assert_eq!(e.meetings(0, 2), 1);
        assert_eq!(e.meetings(2, 3), 0);
        assert_eq!(e.played(0, Faction::Atreides), 2);
        assert_eq!(e.played(2, Faction::Fremen), 1);
        assert_eq!(e.round_groups, vec![vec![2], vec![3]]);
    }

    #[test]
    fn a_player_twice_in_a_round_is_refused() {
        let history = History::new(vec![PastRound {
            tables: vec![table(&[("A", None)]), table(&[("A", None)])],
        }]);
        let err = history.check().unwrap_err();
        assert_eq!(
            err.to_string(),
            "earlier round 1: A sits at table 1 and again at table 2"
        );
        let crowded = History::new(vec![PastRound {
            tables: vec![table(&[("A", None); 7])],
        }]);
        assert!(matches!(
            crowded.check(),
            Err(HistoryError::TableTooLarge { seats: 7, .. })
        ));
    }
}
