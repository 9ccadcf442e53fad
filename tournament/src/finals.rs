//! Finals entry (4.01.10-4.01.11, rulings.md 11 and 13): the first K of the standings, with a
//! tie across the cut line reported rather than broken silently.

use crate::player::PlayerName;
use crate::rng::DrawRng;

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
}
