//! Who sits at which table, so that players meet again as little as possible.
//!
//! The seeds say nothing about seating across rounds; Mentat follows Diplomacy tournaments and
//! minimises, over the pairs seated together this round, the sum of the squares of their earlier
//! meetings. The square makes a third meeting of one pair cost more than second meetings of two
//! pairs, so repeats spread out instead of piling onto the same pairs.
//!
//! Search: a seeded random seating, then swaps of two players between tables while a swap lowers
//! the cost, then a fixed number of random kicks (a few swaps) each followed by the same descent,
//! keeping the best seating. All of it is driven by the draw's seeded generator and a fixed
//! iteration count, never by the clock, so a draw re-runs identically.
//!
//! Lower bound, for proving a seating optimal: the cost is at least the number of repeated
//! pairs counted with multiplicity, Σ over earlier rounds of the pairs of that round's tablemates
//! seated together again. For one earlier round, the fewest such pairs come when each of its
//! tables is spread over the new tables as evenly as possible (g players over t tables in parts
//! of ⌊g/t⌋ and ⌈g/t⌉); the sum of those minima over earlier rounds bounds the cost from below.
//! With 12 players over two rounds it gives 12, which the search reaches.
//!
//! Then factions (0.08, ruling 3): among seatings of the same meeting cost, swaps that let the
//! faction deal give more players a faction they have not played. A table's shortfall is its
//! size less a maximum matching of players to unplayed factions, the number the deal reaches.

use serde::{Deserialize, Serialize};

use crate::history::Encounters;
use crate::rng::DrawRng;
use dune::faction::Faction;

/// How good the seating of a round is against earlier rounds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PairingQuality {
    /// Pairs seated together this round who had already met.
    pub repeat_pairs: u32,
    /// Σ over pairs seated together of (earlier meetings)², the quantity minimised.
    pub cost: u64,
    /// No seating with these table sizes costs less.
    pub lower_bound: u64,
}

impl PairingQuality {
    /// The seating is optimal: its cost meets the lower bound.
    pub fn proven_optimal(&self) -> bool {
        self.cost <= self.lower_bound
    }
}

/// Random kicks after the first descent. Each kick touches at most a handful of tables and the
/// descent after it rescans only those, so this stays well under a millisecond per kick for 300
/// players.
const KICKS: usize = 200;

/// Passes of the faction phase; each pass that helps deals at least one more unplayed faction,
/// and in practice two or three passes find nothing more.
const FACTION_SWEEPS: usize = 8;

/// Seats the players (indices into `enc`) at tables of the given sizes.
pub(crate) fn assign(
    enc: &Encounters,
    sizes: &[u8],
    pools: &[&[Faction]],
    rng: &mut DrawRng,
) -> (Vec<Vec<usize>>, PairingQuality) {
    let n = enc.len();
    let mut order: Vec<usize> = (0..n).collect();
    rng.shuffle(&mut order);
    let mut members = Vec::with_capacity(sizes.len());
    let mut rest = order.as_slice();
    for &size in sizes {
        let (head, tail) = rest.split_at(usize::from(size).min(rest.len()));
        members.push(head.to_vec());
        rest = tail;
    }
    let lower_bound = lower_bound(&enc.round_groups, sizes.len());
    let meetings = enc.anyone_met() && sizes.len() > 1;
    let factions = enc.anyone_played() && sizes.len() > 1;
    if !meetings && !factions {
        let quality = measure(enc, &members, lower_bound);
        return (members, quality);
    }

    let weights = Weights::new(enc);
    let mut best = Seating::new(&weights, members);
    if meetings {
        let mut current = best.clone();
        let mut dirty = vec![true; sizes.len()];
        current.descend(&weights, &mut dirty);
        best = current.clone();
        let target = i64::try_from(lower_bound).unwrap_or(i64::MAX);
        for _ in 0..KICKS {
            if best.cost <= target {
                break;
            }
            let kicks = 2 + rng.below(3);
            for _ in 0..kicks {
                let p = rng.below(n);
                let q = rng.below(n);
                let (a, b) = (current.table_of[p], current.table_of[q]);
                if a != b {
                    current.swap(&weights, p, q);
                    dirty[a] = true;
                    dirty[b] = true;
                }
            }
            current.descend(&weights, &mut dirty);
            if current.cost <= best.cost {
                best = current.clone();
            } else {
                current = best.clone();
            }
        }
    }
    if factions {
        let unplayed = Unplayed::new(enc, pools);
        best.spread_factions(&weights, &unplayed);
    }
    let quality = measure(enc, &best.members, lower_bound);
    (best.members, quality)
}

/// Per player and faction pool, the pool's factions the player has not played, as a bit set.
struct Unplayed {
    masks: Vec<u8>,
    pools: usize,
}

impl Unplayed {
    fn new(enc: &Encounters, pools: &[&[Faction]]) -> Unplayed {
        let mut masks = Vec::with_capacity(enc.len() * pools.len());
        for p in 0..enc.len() {
            for pool in pools {
                let mask = pool
                    .iter()
                    .take(8)
                    .enumerate()
                    .filter(|&(_, &f)| enc.played(p, f) == 0)
                    .fold(0u8, |m, (i, _)| m | (1 << i));
                masks.push(mask);
            }
        }
        Unplayed {
            masks,
            pools: pools.len(),
        }
    }

    /// Players at the table who cannot all be dealt an unplayed faction: the table's size less
    /// a maximum matching of players to unplayed factions, summed over the pools. The faction
    /// deal reaches exactly this.
    fn defect(&self, table: &[usize]) -> usize {
        (0..self.pools)
            .map(|pool| {
                let masks: Vec<u8> = table
                    .iter()
                    .map(|&p| self.masks.get(p * self.pools + pool).copied().unwrap_or(0))
                    .collect();
                table.len() - max_matching(&masks)
            })
            .sum()
    }
}

/// Kuhn's augmenting paths on at most 8 factions.
fn max_matching(masks: &[u8]) -> usize {
    fn augment(i: usize, masks: &[u8], seen: &mut u8, owner: &mut [usize; 8]) -> bool {
        for f in 0..8 {
            let bit = 1u8 << f;
            if masks[i] & bit == 0 || *seen & bit != 0 {
                continue;
            }
            *seen |= bit;
            if owner[f] == usize::MAX || augment(owner[f], masks, seen, owner) {
                owner[f] = i;
                return true;
            }
        }
        false
    }
    let mut owner = [usize::MAX; 8];
    (0..masks.len())
        .filter(|&i| {
            let mut seen = 0u8;
            augment(i, masks, &mut seen, &mut owner)
        })
        .count()
}

fn pairs(k: u64) -> u64 {
    k * k.saturating_sub(1) / 2
}

/// See the module comment.
fn lower_bound(round_groups: &[Vec<usize>], tables: usize) -> u64 {
    let Ok(t) = u64::try_from(tables) else {
        return 0;
    };
    if t == 0 {
        return 0;
    }
    round_groups
        .iter()
        .flatten()
        .map(|&g| {
            let g = g as u64;
            let (q, rem) = (g / t, g % t);
            rem * pairs(q + 1) + (t - rem) * pairs(q)
        })
        .sum()
}

fn measure(enc: &Encounters, members: &[Vec<usize>], lower_bound: u64) -> PairingQuality {
    let mut quality = PairingQuality {
        lower_bound,
        ..PairingQuality::default()
    };
    for table in members {
        for (k, &a) in table.iter().enumerate() {
            for &b in &table[k + 1..] {
                let m = u64::from(enc.meetings(a, b));
                if m > 0 {
                    quality.repeat_pairs += 1;
                    quality.cost += m * m;
                }
            }
        }
    }
    quality
}

/// The squared meeting counts as a dense matrix; 300 players take 700 KB.
struct Weights {
    n: usize,
    w: Vec<i64>,
}

impl Weights {
    fn new(enc: &Encounters) -> Weights {
        let n = enc.len();
        let mut w = vec![0i64; n * n];
        for a in 0..n {
            for b in 0..n {
                let m = i64::from(enc.meetings(a, b));
                w[a * n + b] = m * m;
            }
        }
        Weights { n, w }
    }

    fn row(&self, a: usize) -> &[i64] {
        &self.w[a * self.n..(a + 1) * self.n]
    }
}

#[derive(Clone)]
struct Seating {
    members: Vec<Vec<usize>>,
    table_of: Vec<usize>,
    /// `load[p * tables + t]`: Σ of p's weights with the players at table t.
    load: Vec<i64>,
    tables: usize,
    cost: i64,
}

impl Seating {
    fn new(weights: &Weights, members: Vec<Vec<usize>>) -> Seating {
        let n = weights.n;
        let tables = members.len();
        let mut table_of = vec![0; n];
        for (t, table) in members.iter().enumerate() {
            for &p in table {
                table_of[p] = t;
            }
        }
        let mut load = vec![0i64; n * tables];
        let mut cost = 0;
        for p in 0..n {
            let row = weights.row(p);
            for (t, table) in members.iter().enumerate() {
                load[p * tables + t] = table.iter().map(|&q| row[q]).sum();
            }
            cost += load[p * tables + table_of[p]];
        }
        Seating {
            members,
            table_of,
            load,
            tables,
            cost: cost / 2,
        }
    }

    fn delta(&self, weights: &Weights, p: usize, q: usize) -> i64 {
        let (a, b) = (self.table_of[p], self.table_of[q]);
        let t = self.tables;
        let wpq = weights.w[p * weights.n + q];
        self.load[p * t + b] - wpq + self.load[q * t + a]
            - wpq
            - self.load[p * t + a]
            - self.load[q * t + b]
    }

    fn swap(&mut self, weights: &Weights, p: usize, q: usize) {
        let delta = self.delta(weights, p, q);
        let (a, b) = (self.table_of[p], self.table_of[q]);
        let t = self.tables;
        let (row_p, row_q) = (weights.row(p), weights.row(q));
        for r in 0..weights.n {
            let d = row_q[r] - row_p[r];
            self.load[r * t + a] += d;
            self.load[r * t + b] -= d;
        }
        if let Some(slot) = self.members[a].iter_mut().find(|x| **x == p) {
            *slot = q;
        }
        if let Some(slot) = self.members[b].iter_mut().find(|x| **x == q) {
            *slot = p;
        }
        self.table_of[p] = b;
        self.table_of[q] = a;
        self.cost += delta;
    }

    /// Swaps that deal more players an unplayed faction without raising the meeting cost.
    fn spread_factions(&mut self, weights: &Weights, unplayed: &Unplayed) {
        let mut defects: Vec<usize> = self.members.iter().map(|t| unplayed.defect(t)).collect();
        let mut trial_a = Vec::with_capacity(6);
        let mut trial_b = Vec::with_capacity(6);
        for _ in 0..FACTION_SWEEPS {
            let mut improved = false;
            for a in 0..self.tables {
                let mut slot = 0;
                while defects[a] > 0 && slot < self.members[a].len() {
                    let p = self.members[a][slot];
                    for q in 0..weights.n {
                        let b = self.table_of[q];
                        if b == a || self.delta(weights, p, q) > 0 {
                            continue;
                        }
                        trial_a.clone_from(&self.members[a]);
                        trial_a[slot] = q;
                        trial_b.clone_from(&self.members[b]);
                        if let Some(x) = trial_b.iter_mut().find(|x| **x == q) {
                            *x = p;
                        }
                        let (da, db) = (unplayed.defect(&trial_a), unplayed.defect(&trial_b));
                        if da + db < defects[a] + defects[b] {
                            self.swap(weights, p, q);
                            defects[a] = da;
                            defects[b] = db;
                            improved = true;
                            break;
                        }
                    }
                    slot += 1;
                }
            }
            if !improved {
                break;
            }
        }
    }

    /// Swaps while a swap helps. Only pairs with a player at a dirty table can have become
    /// improving since the last scan, so only those are rescanned.
    fn descend(&mut self, weights: &Weights, dirty: &mut [bool]) {
        while let Some(x) = dirty.iter().position(|&d| d) {
            dirty[x] = false;
            let mut slot = 0;
            while slot < self.members[x].len() {
                let p = self.members[x][slot];
                let better = (0..weights.n)
                    .filter(|&q| self.table_of[q] != x)
                    .find(|&q| self.delta(weights, p, q) < 0);
                match better {
                    Some(q) => {
                        dirty[self.table_of[q]] = true;
                        // x changed too, so its earlier slots need another look.
                        dirty[x] = true;
                        self.swap(weights, p, q);
                    }
                    None => slot += 1,
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lower_bound_of_even_spreads() {
        // 12 players: two earlier tables of 6 over two new tables, 3 + 3 each: 4 × 3 pairs.
        assert_eq!(lower_bound(&[vec![6, 6]], 2), 12);
        // 300 players, earlier tables of 6 spread over 50 tables: nobody must meet again.
        assert_eq!(lower_bound(&[vec![6; 50]], 50), 0);
        assert_eq!(lower_bound(&[vec![5, 5]], 2), 8);
        assert_eq!(lower_bound(&[], 0), 0);
    }
}
