//! Win attempts (4.01.04, ruling 6): at the start of each Battle phase a judge records which
//! players made one, and the strongholds seen as evidence. [`check_turn`] holds the rules about
//! one turn's record; the report counts them up to its last turn ([`crate::validate_table`]).

use std::fmt;

use dune::Stronghold;

use crate::report::MAX_TURNS;

/// One player's attempt: the seat (in seat order) and the strongholds seen, which may be none.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attempt {
    pub seat: usize,
    pub strongholds: Vec<Stronghold>,
}

/// Where a problem with a turn's record is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AttemptField {
    Turn,
    /// The seat's tick box.
    Seat(usize),
    /// The record names a seat the table does not have (a page older than a change of seats).
    Seats,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AttemptProblem {
    TurnOutOfRange { turn: u32 },
    TickedTwice,
    NoSuchSeat,
}

impl fmt::Display for AttemptProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AttemptProblem::TurnOutOfRange { turn } => write!(
                f,
                "pick a turn from 1 to {MAX_TURNS}, not {turn} (0.02: the game lasts ten turns)"
            ),
            AttemptProblem::TickedTwice => f.write_str(
                "ticked twice; a player makes at most one win attempt per turn (ruling 6)",
            ),
            AttemptProblem::NoSuchSeat => {
                f.write_str("one of the players ticked does not sit at this table; reload the page")
            }
        }
    }
}

/// Checks one turn's record at a table of `seats` seats.
pub fn check_turn(
    turn: u32,
    attempts: &[Attempt],
    seats: usize,
) -> Vec<(AttemptField, AttemptProblem)> {
    let mut found = Vec::new();
    if !(1..=MAX_TURNS).contains(&turn) {
        found.push((AttemptField::Turn, AttemptProblem::TurnOutOfRange { turn }));
    }
    for (i, a) in attempts.iter().enumerate() {
        if a.seat >= seats {
            found.push((AttemptField::Seats, AttemptProblem::NoSuchSeat));
        } else if attempts[..i].iter().any(|b| b.seat == a.seat) {
            found.push((AttemptField::Seat(a.seat), AttemptProblem::TickedTwice));
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(seat: usize) -> Attempt {
        Attempt {
            seat,
            strongholds: vec![Stronghold::Arrakeen],
        }
    }

    #[test]
    fn a_turn_record_names_each_problem() {
        assert!(check_turn(4, &[at(0), at(3)], 6).is_empty());
        assert_eq!(
            check_turn(0, &[], 6),
            [(
                AttemptField::Turn,
                AttemptProblem::TurnOutOfRange { turn: 0 }
            )]
        );
        assert_eq!(
            check_turn(11, &[at(1), at(1), at(6)], 6)[1..],
            [
                (AttemptField::Seat(1), AttemptProblem::TickedTwice),
                (AttemptField::Seats, AttemptProblem::NoSuchSeat)
            ]
        );
    }
}
