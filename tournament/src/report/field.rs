//! Where in a Game Report a problem is: the report's own fields, or one field of one seat.
//! Seats are numbered by their position in the report (the table's seat order); the pages turn
//! a field into the id of their form control, the command line into words.

use std::fmt;

use crate::tiebreakers::Category;

/// A field of one seat's line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SeatField {
    Player,
    Faction,
    Ally,
    Result,
    /// One of the six tiebreaker values (4.01.11).
    Value(Category),
}

impl SeatField {
    /// The field's name in the report JSON (`docs/cli.md`) and in form controls.
    pub fn name(self) -> &'static str {
        match self {
            SeatField::Player => "player",
            SeatField::Faction => "faction",
            SeatField::Ally => "ally",
            SeatField::Result => "result",
            SeatField::Value(c) => c.field(),
        }
    }
}

/// A part of the Bene Gesserit's prediction (2.02.03).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PredictionField {
    Faction,
    Turn,
}

/// A field of a report.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ReportField {
    /// The event's ruling options (rulings.md), which belong to no game.
    Options,
    Round,
    Table,
    /// How the game ended.
    Ended,
    /// The last turn played.
    LastTurn,
    /// The head judge's draw of a tied adjudication (ruling 9).
    JudgeDraw,
    /// The list of seats as a whole (its size, a seat left out).
    Seats,
    /// The Bene Gesserit's prediction: its faction or its turn.
    Prediction(PredictionField),
    /// One field of the seat at this position (0-based, in report order).
    Seat(usize, SeatField),
}

impl ReportField {
    /// The field's name in the report JSON; a seat's field is named without its seat.
    pub fn name(self) -> &'static str {
        match self {
            ReportField::Options => "options",
            ReportField::Round => "round",
            ReportField::Table => "table",
            ReportField::Ended => "ended",
            ReportField::LastTurn => "last_turn",
            ReportField::JudgeDraw => "judge_draw",
            ReportField::Seats => "seats",
            ReportField::Prediction(PredictionField::Faction) => "prediction_faction",
            ReportField::Prediction(PredictionField::Turn) => "prediction_turn",
            ReportField::Seat(_, f) => f.name(),
        }
    }

    /// The seat position, for a seat's field.
    pub fn seat(self) -> Option<usize> {
        match self {
            ReportField::Seat(i, _) => Some(i),
            _ => None,
        }
    }
}

impl fmt::Display for ReportField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
