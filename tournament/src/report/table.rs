//! One table's Game Report as the event holds it: the seats as drawn, with the faction each was
//! dealt (0.08), the judge's line for each, and the win attempts recorded at every Battle phase
//! (4.01.04). [`validate_table`] applies every rule about its content, the same checks as the
//! command line's reports plus the ones only the event knows (dealt factions, the attempts).

use dune::{Faction, WinType};

use super::check::{self, Found};
use super::{
    Ending, GameReport, MAX_TURNS, Prediction, PredictionField, Problem, ReportError, ReportErrors,
    ReportField, ScoredGame, SeatField, SeatReport,
};
use crate::adjudication;
use crate::options::RulingOptions;
use crate::player::PlayerName;
use crate::ruleset::Ruleset;
use crate::tiebreakers::{EndValues, Tiebreakers};

/// What a judge writes on one seat's line at the end of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeatEntry {
    pub faction: Faction,
    pub ally: Option<Faction>,
    pub result: Option<WinType>,
    pub end: EndValues,
}

/// A seat of the table in seat order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableSeat {
    pub player: PlayerName,
    /// The faction the draw dealt (0.08), when the draw dealt one.
    pub dealt: Option<Faction>,
    /// The judge's line for this seat; `None` when the report leaves the seat out.
    pub entry: Option<SeatEntry>,
}

/// One table's report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableReport {
    pub ruleset: Ruleset,
    pub options: RulingOptions,
    pub round: u32,
    pub table: u32,
    pub ended: Ending,
    pub last_turn: u32,
    pub seats: Vec<TableSeat>,
    /// The player the head judge drew when adjudication leaves a tie (ruling 9).
    pub judge_draw: Option<PlayerName>,
    /// The latest record of each turn's win attempts: the turn and the seats that made one.
    pub attempts: Vec<(u32, Vec<usize>)>,
    /// The Bene Gesserit's prediction (2.02.03), when recorded; a Bene Gesserit Prediction win
    /// needs it.
    pub prediction: Option<Prediction>,
}

/// A valid table report, scored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableOutcome {
    pub game: ScoredGame,
    /// Per seat: win attempts up to the last turn played (4.01.11.01).
    pub win_attempts: Vec<u32>,
    /// The adjudication's reasoning, step by step, for a game stopped by the clock (4.01.09).
    pub adjudication: Option<Vec<String>>,
}

impl TableOutcome {
    /// Per seat: the result, Adjudicated for adjudication's winners.
    pub fn results(&self) -> &[Option<WinType>] {
        self.game.results()
    }
}

impl ReportError {
    /// The problem as a form shows it beside its field: the player's name first for a seat's
    /// field ("Alice: …"), the round and table left out (the form is that table's).
    pub fn message(&self) -> String {
        let text = self.problem.to_string();
        match &self.player {
            Some(p) => format!("{p}: {text}"),
            None => super::capitalised(&text),
        }
    }
}

/// Checks a table's report and scores it; every problem names its field.
pub fn validate_table(report: &TableReport) -> Result<TableOutcome, ReportErrors> {
    let mut found: Vec<Found> = Vec::new();
    if let Err(e) = report.options.check() {
        found.push((ReportField::Options, Problem::Options(e)));
    }
    let in_game = |turn: u32| turn <= report.last_turn;
    if let Some(&(turn, _)) = report
        .attempts
        .iter()
        .find(|(turn, seats)| !in_game(*turn) && !seats.is_empty())
        && (1..=MAX_TURNS).contains(&report.last_turn)
    {
        found.push((
            ReportField::LastTurn,
            Problem::AttemptAfterLastTurn {
                turn,
                last_turn: report.last_turn,
            },
        ));
    }
    let mut win_attempts = vec![0u32; report.seats.len()];
    for (_, seats) in report.attempts.iter().filter(|(turn, _)| in_game(*turn)) {
        for &s in seats {
            if let Some(n) = win_attempts.get_mut(s) {
                *n += 1;
            }
        }
    }

    let mut seats = Vec::with_capacity(report.seats.len());
    for (i, seat) in report.seats.iter().enumerate() {
        let Some(entry) = seat.entry else {
            found.push((
                ReportField::Seat(i, SeatField::Result),
                Problem::SeatMissing,
            ));
            continue;
        };
        if let Some(dealt) = seat.dealt
            && dealt != entry.faction
        {
            found.push((
                ReportField::Seat(i, SeatField::Faction),
                Problem::NotDealt {
                    dealt,
                    reported: entry.faction,
                },
            ));
        }
        seats.push(SeatReport {
            player: seat.player.clone(),
            faction: entry.faction,
            ally: entry.ally,
            result: entry.result,
            tiebreakers: Tiebreakers {
                win_attempts: win_attempts[i],
                end: entry.end,
            },
        });
    }
    // At an event's table the prediction that won is on the record (2.02.03).
    if report.prediction.is_none()
        && report.seats.iter().any(|s| {
            s.entry
                .is_some_and(|e| e.result == Some(WinType::BgPrediction))
        })
    {
        found.push((
            ReportField::Prediction(PredictionField::Faction),
            Problem::PredictionMissing,
        ));
    }
    let game = GameReport {
        round: report.round,
        table: report.table,
        ended: report.ended,
        last_turn: Some(report.last_turn),
        judge_draw: report.judge_draw.clone(),
        seats,
        prediction: report.prediction,
    };
    // Seats left out would shift every later seat: check the rest only when all are there.
    if game.seats.len() == report.seats.len() {
        check::check_game(report.ruleset, &report.options, &game, &mut found);
    }
    let scored = if found.is_empty() {
        match check::score(&report.options, &game) {
            Ok(scored) => Some(scored),
            Err(problem) => {
                found.push((ReportField::JudgeDraw, problem));
                None
            }
        }
    } else {
        None
    };
    match scored {
        Some(scored) if found.is_empty() => {
            let adjudication = scored.adjudication().map(|adj| {
                let labels: Vec<String> = scored
                    .seats()
                    .iter()
                    .map(|s| format!("{} ({})", s.faction.code(), s.player))
                    .collect();
                let seats = check::adjudication_seats(scored.seats(), scored.allies());
                adjudication::explain(&seats, adj, &labels)
            });
            Ok(TableOutcome {
                game: scored,
                win_attempts,
                adjudication,
            })
        }
        _ => Err(ReportErrors(
            found
                .into_iter()
                .map(|f| {
                    check::locate_by(
                        report.round,
                        report.table,
                        |i| report.seats.get(i).map(|s| &s.player),
                        f,
                    )
                })
                .collect(),
        )),
    }
}
