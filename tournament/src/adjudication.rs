//! Adjudication of a game stopped by the clock with no winner (4.01.09, rulings.md 9).

use std::fmt;

use serde::Serialize;

use crate::options::AdjudicationDeadlock;
use crate::tiebreakers::{Category, Tiebreakers};

/// One seat as adjudication sees it. `ally` is the index of the ally's seat in the same slice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AdjudicationSeat {
    pub ally: Option<usize>,
    pub tiebreakers: Tiebreakers,
}

/// The outcome and how it was reached, kept so a judge can explain it at the table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Adjudication {
    /// Seat indices, in seat order: the survivors and their allies.
    pub winners: Vec<usize>,
    pub decided_by: Decision,
    /// One step per category looked at, in 4.01.11 order.
    pub steps: Vec<Step>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Decision {
    /// This category left one player, or one alliance.
    Category(Category),
    /// Different alliances were tied in every category; all of them win (ruling 9's default).
    Deadlock,
    /// Different alliances were tied in every category; the head judge drew the winner.
    JudgeDraw,
}

impl fmt::Display for Decision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Decision::Category(c) => f.write_str(c.field()),
            Decision::Deadlock => f.write_str("tie"),
            Decision::JudgeDraw => f.write_str("judge_draw"),
        }
    }
}

/// The candidates still in the running before a category, their values in it (win attempts
/// alone, the other categories with the ally's amount added), and who was left after it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    pub category: Category,
    pub values: Vec<(usize, u32)>,
    pub remaining: Vec<usize>,
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AdjudicationError {
    /// Under [`AdjudicationDeadlock::JudgeDraw`] a surviving tie needs the judge's draw.
    #[error("needs the head judge's draw between the tied seats {0:?} (4.01.09, ruling 9)")]
    NeedsDraw(Vec<usize>),
    #[error("the drawn seat {drawn} is not among the tied seats {tied:?} (4.01.09, ruling 9)")]
    DrawNotTied { drawn: usize, tied: Vec<usize> },
}

fn settled(seats: &[AdjudicationSeat], candidates: &[usize]) -> bool {
    match candidates {
        [_] => true,
        [a, b] => seats.get(*a).and_then(|s| s.ally) == Some(*b),
        _ => false,
    }
}

/// Adjudicates. `drawn` is the seat the head judge drew, used only when the deadlock policy is
/// [`AdjudicationDeadlock::JudgeDraw`] and a tie survives every category.
///
/// An ally index that points outside `seats` or at the seat itself is ignored; validated
/// reports never contain one.
pub fn adjudicate(
    seats: &[AdjudicationSeat],
    deadlock: AdjudicationDeadlock,
    drawn: Option<usize>,
) -> Result<Adjudication, AdjudicationError> {
    let ally = |i: usize| {
        seats
            .get(i)
            .and_then(|s| s.ally)
            .filter(|&a| a != i && a < seats.len())
    };
    let value = |i: usize, category: Category| {
        let own = seats.get(i).map_or(0, |s| s.tiebreakers.get(category));
        match (category, ally(i)) {
            // 4.01.09: allies combine every category except win attempts.
            (Category::WinAttempts, _) | (_, None) => own,
            (_, Some(a)) => own.saturating_add(seats[a].tiebreakers.get(category)),
        }
    };
    let mut candidates: Vec<usize> = (0..seats.len()).collect();
    let mut steps = Vec::new();
    let mut decided_by = None;
    for category in Category::ALL {
        let values: Vec<(usize, u32)> = candidates
            .iter()
            .map(|&i| (i, value(i, category)))
            .collect();
        let best = values.iter().map(|&(_, v)| v).max().unwrap_or(0);
        candidates = values
            .iter()
            .filter(|&&(_, v)| v == best)
            .map(|&(i, _)| i)
            .collect();
        steps.push(Step {
            category,
            values,
            remaining: candidates.clone(),
        });
        if settled(seats, &candidates) {
            decided_by = Some(Decision::Category(category));
            break;
        }
    }
    let (survivors, decided_by) = match (decided_by, deadlock) {
        (Some(decision), _) => (candidates, decision),
        (None, AdjudicationDeadlock::AllSurvivors) => (candidates, Decision::Deadlock),
        (None, AdjudicationDeadlock::JudgeDraw) => match drawn {
            Some(d) if candidates.contains(&d) => (vec![d], Decision::JudgeDraw),
            Some(d) => {
                return Err(AdjudicationError::DrawNotTied {
                    drawn: d,
                    tied: candidates,
                });
            }
            None => return Err(AdjudicationError::NeedsDraw(candidates)),
        },
    };
    let mut winners: Vec<usize> = survivors
        .iter()
        .flat_map(|&i| std::iter::once(i).chain(ally(i)))
        .collect();
    winners.sort_unstable();
    winners.dedup();
    Ok(Adjudication {
        winners,
        decided_by,
        steps,
    })
}

/// The adjudication in sentences a judge can read out at the table, one per category looked
/// at, then the outcome. `labels[i]` names seat `i` ("HK", or "HK (Ana)"); the ally's amount is
/// named with the seat's, as 4.01.09 adds it ("HK + ally EM 17").
pub fn explain(
    seats: &[AdjudicationSeat],
    adjudication: &Adjudication,
    labels: &[String],
) -> Vec<String> {
    let label = |i: usize| labels.get(i).map_or("?", String::as_str);
    let ally = |i: usize| {
        seats
            .get(i)
            .and_then(|s| s.ally)
            .filter(|&a| a != i && a < seats.len())
    };
    let who = |i: usize, category: Category| match (category, ally(i)) {
        (Category::WinAttempts, _) | (_, None) => label(i).to_owned(),
        (_, Some(a)) => format!("{} + ally {}", label(i), label(a)),
    };
    let list = |items: &[String]| match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    };
    let mut lines = Vec::with_capacity(adjudication.steps.len() + 1);
    for step in &adjudication.steps {
        let values: Vec<String> = step
            .values
            .iter()
            .map(|&(i, v)| format!("{} {v}", who(i, step.category)))
            .collect();
        let remaining: Vec<String> = step
            .remaining
            .iter()
            .map(|&i| label(i).to_owned())
            .collect();
        let best = step
            .values
            .iter()
            .find(|(i, _)| step.remaining.first() == Some(i))
            .map_or(0, |&(_, v)| v);
        let outcome = if step.remaining.len() == step.values.len() && step.values.len() > 1 {
            format!("all tied on {best}")
        } else if settled(seats, &step.remaining) {
            format!("{} ahead with {best}", list(&remaining))
        } else {
            format!("{} tied on {best}", list(&remaining))
        };
        lines.push(format!(
            "{} ({}): {}; {outcome}.",
            capitalised(step.category.label()),
            step.category.rule(),
            values.join(", ")
        ));
    }
    let winners: Vec<String> = adjudication
        .winners
        .iter()
        .map(|&i| label(i).to_owned())
        .collect();
    let why = match adjudication.decided_by {
        Decision::Category(c) => format!("decided by {} ({})", c.label(), c.rule()),
        Decision::Deadlock => {
            "tied in every value, so every survivor wins, as the event's settings say".to_owned()
        }
        Decision::JudgeDraw => "tied in every value; the head judge drew the winner".to_owned(),
    };
    lines.push(format!(
        "{} {} Adjudicated: {why} (4.01.09).",
        list(&winners),
        if winners.len() == 1 {
            "receives"
        } else {
            "receive"
        }
    ));
    lines
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seat(ally: Option<usize>, t: [u32; 6]) -> AdjudicationSeat {
        AdjudicationSeat {
            ally,
            tiebreakers: Tiebreakers::from_array(t),
        }
    }

    /// rules-catalogue c.8: AT 3, HK 3 (allied with EM), EM 1, SG 2, FR 0, BG 1 win attempts;
    /// strongholds tie 2 against 1 + 1; forces 12 against 8 + 9, so HK and its ally EM win.
    #[test]
    fn catalogue_worked_example() {
        let seats = [
            seat(None, [3, 2, 12, 5, 2, 4]),   // 0 AT
            seat(Some(2), [3, 1, 8, 3, 1, 3]), // 1 HK
            seat(Some(1), [1, 1, 9, 4, 2, 5]), // 2 EM
            seat(None, [2, 0, 10, 1, 1, 5]),   // 3 SG
            seat(None, [0, 0, 14, 2, 1, 5]),   // 4 FR
            seat(None, [1, 0, 3, 9, 4, 5]),    // 5 BG
        ];
        let adj = adjudicate(&seats, AdjudicationDeadlock::AllSurvivors, None).unwrap();
        assert_eq!(adj.winners, [1, 2]);
        assert_eq!(adj.decided_by, Decision::Category(Category::Forces));
        assert_eq!(adj.steps.len(), 3);
        assert_eq!(adj.steps[0].remaining, [0, 1]);
        assert_eq!(adj.steps[1].values, [(0, 2), (1, 2)]);
        assert_eq!(adj.steps[2].values, [(0, 12), (1, 17)]);
    }

    #[test]
    fn most_win_attempts_alone_decides() {
        let seats = [
            seat(None, [4, 0, 0, 0, 0, 0]),
            seat(None, [3, 9, 9, 9, 9, 9]),
        ];
        let adj = adjudicate(&seats, AdjudicationDeadlock::AllSurvivors, None).unwrap();
        assert_eq!(adj.winners, [0]);
        assert_eq!(adj.decided_by, Decision::Category(Category::WinAttempts));
    }

    #[test]
    fn allies_tied_together_both_win_at_once() {
        let seats = [
            seat(Some(1), [2, 1, 1, 1, 1, 1]),
            seat(Some(0), [2, 1, 1, 1, 1, 1]),
            seat(None, [1, 9, 9, 9, 9, 9]),
        ];
        let adj = adjudicate(&seats, AdjudicationDeadlock::AllSurvivors, None).unwrap();
        assert_eq!(adj.winners, [0, 1]);
        assert_eq!(adj.decided_by, Decision::Category(Category::WinAttempts));
    }

    #[test]
    fn deadlock_policies() {
        let seats = [
            seat(None, [2, 1, 1, 1, 1, 1]),
            seat(Some(2), [2, 1, 1, 1, 1, 1]),
            seat(Some(1), [0, 0, 0, 0, 0, 0]),
        ];
        let adj = adjudicate(&seats, AdjudicationDeadlock::AllSurvivors, None).unwrap();
        assert_eq!(adj.winners, [0, 1, 2]);
        assert_eq!(adj.decided_by, Decision::Deadlock);
        assert_eq!(adj.steps.len(), 6);
        assert_eq!(
            adjudicate(&seats, AdjudicationDeadlock::JudgeDraw, None),
            Err(AdjudicationError::NeedsDraw(vec![0, 1]))
        );
        let drawn = adjudicate(&seats, AdjudicationDeadlock::JudgeDraw, Some(1)).unwrap();
        assert_eq!(drawn.winners, [1, 2]);
        assert_eq!(drawn.decided_by, Decision::JudgeDraw);
        assert!(adjudicate(&seats, AdjudicationDeadlock::JudgeDraw, Some(2)).is_err());
    }
    #[test]
    fn explanation_of_the_catalogue_example() {
        let seats = [
            seat(None, [3, 2, 12, 5, 2, 4]),
            seat(Some(2), [3, 1, 8, 3, 1, 3]),
            seat(Some(1), [1, 1, 9, 4, 2, 5]),
            seat(None, [2, 0, 10, 1, 1, 5]),
            seat(None, [0, 0, 14, 2, 1, 5]),
            seat(None, [1, 0, 3, 9, 4, 5]),
        ];
        let labels: Vec<String> = ["AT", "HK", "EM", "SG", "FR", "BG"]
            .map(String::from)
            .into();
        let adj = adjudicate(&seats, AdjudicationDeadlock::AllSurvivors, None).unwrap();
        let lines = explain(&seats, &adj, &labels);
        assert_eq!(
            lines,
            [
                "Win attempts (4.01.11.01): AT 3, HK 3, EM 1, SG 2, FR 0, BG 1; AT and HK tied on 3.",
                "Strongholds controlled (4.01.11.02): AT 2, HK + ally EM 2; all tied on 2.",
                "Forces on the board (4.01.11.03): AT 12, HK + ally EM 17; HK ahead with 17.",
                "HK and EM receive Adjudicated: decided by forces on the board (4.01.11.03) (4.01.09).",
            ]
        );
    }
}
