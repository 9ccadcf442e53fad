//! The JSON that `mentat` prints. Key order is fixed by these structs; output is compact, one
//! line, so that equal inputs give byte-identical output.

use serde::ser::{SerializeMap, SerializeSeq};
use serde::{Serialize, Serializer};

use crate::adjudication::{Adjudication, Decision};
use crate::player::PlayerName;
use crate::report::{Ending, ScoredGame, ValidReport};
use crate::ruleset::Ruleset;
use crate::standings::{PlayerRecord, Standings};
use dune::win_type::{Points, WinType};

/// Our values always serialise (string keys, finite numbers); should that ever change, the
/// output says so as JSON rather than panicking.
pub(crate) fn to_json<T: Serialize>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_else(|e| format!("{{\"error\":{:?}}}", e.to_string()))
}

#[derive(Serialize)]
pub(crate) struct StandingsOut<'a> {
    ruleset: Ruleset,
    standings: Vec<RowOut<'a>>,
    finals: FinalsOut<'a>,
    games: Vec<GameOut<'a>>,
}

#[derive(Serialize)]
struct RowOut<'a> {
    rank: usize,
    player: &'a PlayerName,
    points: Points,
    wins: Wins,
    best_game: Option<BestGame>,
    finalist: Option<bool>,
    tie: bool,
    reason: Option<String>,
}

/// `{"SSH":1,"ADV":1}`, heaviest first, zero counts left out.
struct Wins(Vec<(WinType, u32)>);

impl Serialize for Wins {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (w, n) in &self.0 {
            map.serialize_entry(w.code(), n)?;
        }
        map.end()
    }
}

/// 4.01.11's game score as a list, `[2,2,3,8,12,3,3]`: the game's points (0.5 for an
/// Adjudicated win), then the six tiebreakers.
struct BestGame(Points, [u32; 6]);

impl Serialize for BestGame {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(7))?;
        if self.0.halves().is_multiple_of(2) {
            seq.serialize_element(&(self.0.halves() / 2))?;
        } else {
            seq.serialize_element(&self.0.as_f64())?;
        }
        for v in self.1 {
            seq.serialize_element(&v)?;
        }
        seq.end()
    }
}

#[derive(Serialize)]
struct FinalsOut<'a> {
    seats: usize,
    finalists: &'a [PlayerName],
    cut_tie: Option<CutTieOut<'a>>,
}

#[derive(Serialize)]
struct CutTieOut<'a> {
    players: &'a [PlayerName],
    open_seats: usize,
}

#[derive(Serialize)]
struct GameOut<'a> {
    round: u32,
    table: u32,
    ended: Ending,
    results: Results<'a>,
    adjudication: Option<AdjudicationOut<'a>>,
}

/// Every seated player in report order, `null` for no win.
struct Results<'a>(&'a ScoredGame);

impl Serialize for Results<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let game = self.0;
        let mut map = s.serialize_map(Some(game.seats().len()))?;
        for (seat, result) in game.seats().iter().zip(game.results()) {
            map.serialize_entry(seat.player.as_str(), result)?;
        }
        map.end()
    }
}

#[derive(Serialize)]
struct AdjudicationOut<'a> {
    winners: Vec<&'a PlayerName>,
    decided_by: String,
    summary: String,
    steps: Vec<StepOut<'a>>,
}

#[derive(Serialize)]
struct StepOut<'a> {
    category: &'static str,
    values: Values<'a>,
    remaining: Vec<&'a PlayerName>,
}

struct Values<'a>(Vec<(&'a PlayerName, u32)>);

impl Serialize for Values<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (p, v) in &self.0 {
            map.serialize_entry(p.as_str(), v)?;
        }
        map.end()
    }
}

impl<'a> StandingsOut<'a> {
    pub(crate) fn new(standings: &'a Standings, report: &'a ValidReport) -> StandingsOut<'a> {
        let ruleset = standings.ruleset;
        StandingsOut {
            ruleset,
            standings: standings
                .rows
                .iter()
                .map(|row| RowOut {
                    rank: row.rank,
                    player: &row.record.player,
                    points: row.record.points,
                    wins: Wins(row.record.wins(ruleset)),
                    best_game: best_game(&row.record),
                    finalist: row.finalist,
                    tie: row.tie,
                    reason: row.reason.map(|r| r.to_string()),
                })
                .collect(),
            finals: FinalsOut {
                seats: standings.finals.seats,
                finalists: &standings.finals.finalists,
                cut_tie: standings.finals.cut_tie.as_ref().map(|t| CutTieOut {
                    players: &t.players,
                    open_seats: t.open_seats,
                }),
            },
            games: report
                .games()
                .iter()
                .map(|game| GameOut {
                    round: game.round(),
                    table: game.table(),
                    ended: game.ended(),
                    results: Results(game),
                    adjudication: game.adjudication().map(|a| adjudication_out(game, a)),
                })
                .collect(),
        }
    }
}

fn best_game(record: &PlayerRecord) -> Option<BestGame> {
    record.best_game().map(|g| {
        let (points, values) = g.score();
        BestGame(points, values)
    })
}

fn adjudication_out<'a>(game: &'a ScoredGame, adj: &Adjudication) -> AdjudicationOut<'a> {
    let seats = game.seats();
    let player = |i: usize| seats.get(i).map(|s| &s.player);
    let winners: Vec<&PlayerName> = adj.winners.iter().filter_map(|&i| player(i)).collect();
    let steps: Vec<StepOut<'a>> = adj
        .steps
        .iter()
        .map(|step| StepOut {
            category: step.category.field(),
            values: Values(
                step.values
                    .iter()
                    .filter_map(|&(i, v)| player(i).map(|p| (p, v)))
                    .collect(),
            ),
            remaining: step.remaining.iter().filter_map(|&i| player(i)).collect(),
        })
        .collect();
    let winner_names: Vec<&str> = winners.iter().map(|p| p.as_str()).collect();
    let summary = match (adj.decided_by, adj.steps.last()) {
        (Decision::Category(c), Some(step)) => {
            let values: Vec<String> = step
                .values
                .iter()
                .filter_map(|&(i, v)| player(i).map(|p| format!("{p} {v}")))
                .collect();
            format!(
                "decided by {} ({}{}): {}; Adjudicated: {} (4.01.09)",
                c.label(),
                c.rule(),
                if c == crate::tiebreakers::Category::WinAttempts {
                    ""
                } else {
                    ", allies combined"
                },
                values.join(", "),
                winner_names.join(", ")
            )
        }
        (Decision::JudgeDraw, _) => format!(
            "tied in every category; the head judge drew, Adjudicated: {} (4.01.09, ruling 9)",
            winner_names.join(", ")
        ),
        _ => format!(
            "tied in every category; all survivors and their allies are Adjudicated: {} (4.01.09, \
             ruling 9)",
            winner_names.join(", ")
        ),
    };
    AdjudicationOut {
        winners,
        decided_by: adj.decided_by.to_string(),
        summary,
        steps,
    }
}
