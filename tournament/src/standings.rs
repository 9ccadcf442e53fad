//! Standings (4.01.10-4.01.11, rulings.md 10-11): points, then wins by weight, then games
//! best first, with the reason each row is above the next.

use std::cmp::Ordering;
use std::collections::HashMap;
use std::fmt;

use crate::finals::{self, Finals};
use crate::player::PlayerName;
use crate::report::ValidReport;
use crate::ruleset::Ruleset;
use crate::tiebreakers::{Category, Tiebreakers};
use dune::faction::Faction;
use dune::win_type::{Points, WinType};

/// Points as standings print them: `3`, `½`, `1½` (halves are the only fractions 4.01.10 makes).
pub fn points_text(points: Points) -> String {
    let halves = points.halves();
    match (halves / 2, halves % 2) {
        (0, 1) => "½".to_owned(),
        (whole, 1) => format!("{whole}½"),
        (whole, _) => whole.to_string(),
    }
}

/// A game's score as one dotted line: points, then the six tiebreakers of 4.01.11 in order
/// (`3.1.0.12.5.2.5`). The standings, the exports and the statistics all print it this way.
pub fn score_text((points, values): (Points, [u32; 6])) -> String {
    let mut text = points_text(points);
    for v in values {
        text.push('.');
        text.push_str(&v.to_string());
    }
    text
}

/// A game's score as 4.01.11 compares it: the game's points, then the six tiebreakers in
/// order (win attempts, strongholds, forces, spice, cards, leaders). Shown three ways: each value
/// with its name where there is room ([`GameScore::labelled`]), a short line with a legend
/// where there is not ([`GameScore::short`], [`SCORE_LEGEND`]), and the rulebook's dotted form
/// for files ([`GameScore::dotted`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub struct GameScore {
    pub points: Points,
    pub values: [u32; 6],
}

/// The short form's abbreviations, in the score's order: points, then 4.01.11's six values.
pub const SCORE_ABBREVIATIONS: [(&str, &str); 7] = [
    ("pts", "points"),
    ("WA", "win attempts"),
    ("SH", "strongholds"),
    ("F", "forces"),
    ("Sp", "spice"),
    ("C", "cards"),
    ("L", "leaders"),
];

/// What the short form's abbreviations stand for, said once beside it.
pub const SCORE_LEGEND: &str = "pts points · WA win attempts · SH strongholds · F forces · Sp spice · C cards · L leaders (4.01.11)";

impl GameScore {
    pub fn new((points, values): (Points, [u32; 6])) -> GameScore {
        GameScore { points, values }
    }

    /// `3½.1.0.12.5.2.5`, the rulebook's own notation (4.01.11's example `2.2.3.8.12.3.3`):
    /// what backups record, so files written before the other forms read the same.
    pub fn dotted(&self) -> String {
        score_text((self.points, self.values))
    }

    /// `3 pts · 2 WA · 3 SH · 8 F · 12 Sp · 3 C · 3 L`: each value before its abbreviation
    /// ([`SCORE_LEGEND`] says what they stand for), a value and its abbreviation never parted
    /// at a line break.
    pub fn short(&self) -> String {
        self.joined(|(short, _)| short)
    }

    /// Each value with its name: `(name, value)`, points first.
    pub fn labelled(&self) -> [(&'static str, String); 7] {
        let mut out = SCORE_ABBREVIATIONS.map(|(_, name)| (name, String::new()));
        out[0].1 = points_text(self.points);
        for (slot, value) in out[1..].iter_mut().zip(self.values) {
            slot.1 = value.to_string();
        }
        out
    }

    /// `3 points · 2 win attempts · …`, for a screen reader or a wide page.
    pub fn words(&self) -> String {
        self.joined(|(_, name)| name)
    }

    fn joined(&self, pick: impl Fn((&'static str, &'static str)) -> &'static str) -> String {
        self.labelled()
            .iter()
            .zip(SCORE_ABBREVIATIONS)
            .map(|((_, value), names)| format!("{value}\u{a0}{}", pick(names)))
            .collect::<Vec<_>>()
            .join(" · ")
    }
}

/// One game as it counts for one player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedGame {
    pub round: u32,
    pub table: u32,
    pub faction: Faction,
    pub result: Option<WinType>,
    /// The result's weight in the ruleset (higher is heavier, 0 for no win).
    pub weight: usize,
    /// The player's own values, not the ally's (ruling 11).
    pub tiebreakers: Tiebreakers,
}

impl PlayedGame {
    pub fn points(&self) -> Points {
        self.result.map_or(Points::ZERO, WinType::points)
    }

    /// 4.01.11's game score, `2.2.3.8.12.3.3` in the rulebook's example: the game's points, then
    /// the six tiebreakers.
    pub fn score(&self) -> (Points, [u32; 6]) {
        (self.points(), self.tiebreakers.as_array())
    }

    /// [`PlayedGame::score`] as a [`GameScore`], for showing.
    pub fn game_score(&self) -> GameScore {
        GameScore::new(self.score())
    }

    fn order(&self, other: &PlayedGame) -> Option<(Ordering, GameComponent)> {
        match self.weight.cmp(&other.weight) {
            Ordering::Equal => {}
            ord => return Some((ord, GameComponent::Result)),
        }
        Category::ALL.into_iter().find_map(|c| {
            match self.tiebreakers.get(c).cmp(&other.tiebreakers.get(c)) {
                Ordering::Equal => None,
                ord => Some((ord, GameComponent::Category(c))),
            }
        })
    }
}

/// A player's tournament so far.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerRecord {
    pub player: PlayerName,
    pub points: Points,
    /// Wins per type, aligned with [`Ruleset::win_types`] (heaviest first), zeros included.
    pub win_counts: Vec<u32>,
    /// Best first: heavier result, then higher tiebreakers in 4.01.11 order (ruling 11).
    pub games: Vec<PlayedGame>,
}

impl PlayerRecord {
    /// Wins with a non-zero count, heaviest first.
    pub fn wins(&self, ruleset: Ruleset) -> Vec<(WinType, u32)> {
        ruleset
            .win_types()
            .iter()
            .zip(&self.win_counts)
            .filter(|&(_, &n)| n > 0)
            .map(|(&w, &n)| (w, n))
            .collect()
    }

    pub fn best_game(&self) -> Option<&PlayedGame> {
        self.games.first()
    }
}

/// Which part of the compared games differed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameComponent {
    /// The game's result (its win type's weight).
    Result,
    Category(Category),
    /// One player has a game at this position and the other has none (a bye).
    Played,
}

/// Why a row stands above the next one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OrderReason {
    /// More points (4.01.10).
    Points,
    /// Same points; more wins of this type, the heaviest where the two differ (4.01.10).
    WinType(WinType),
    /// Same points and wins; the `game`-th best games (0 = best) differ in `component`
    /// (4.01.11, ruling 11).
    Game {
        game: usize,
        component: GameComponent,
    },
    /// Nothing separates them: the head judge settles it by a recorded draw (ruling 11).
    Tie,
}

fn ordinal(game: usize) -> String {
    match game {
        0 => "best game".to_owned(),
        1 => "2nd-best game".to_owned(),
        2 => "3rd-best game".to_owned(),
        n => format!("{}th-best game", n + 1),
    }
}

impl fmt::Display for OrderReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OrderReason::Points => f.write_str("more points (4.01.10)"),
            OrderReason::WinType(w) => {
                write!(f, "same points; more {} (4.01.10)", w.plural())
            }
            OrderReason::Game { game, component } => {
                write!(f, "same points and wins; ")?;
                match component {
                    GameComponent::Result => {
                        write!(f, "{} has the heavier result (ruling 11)", ordinal(*game))
                    }
                    GameComponent::Category(c) => write!(
                        f,
                        "{}: more {} ({}, ruling 11)",
                        ordinal(*game),
                        c.label(),
                        c.rule()
                    ),
                    GameComponent::Played => {
                        write!(f, "played a {} game (ruling 11)", ordinal(*game))
                    }
                }
            }
            OrderReason::Tie => f.write_str(
                "tied on points, wins and every game; the head judge settles it by a recorded \
                 draw (ruling 11)",
            ),
        }
    }
}

/// Compares two players; `Greater` means `a` ranks above `b`. The reason names the first
/// difference, which is what a judge would say.
pub fn compare(ruleset: Ruleset, a: &PlayerRecord, b: &PlayerRecord) -> (Ordering, OrderReason) {
    match a.points.cmp(&b.points) {
        Ordering::Equal => {}
        ord => return (ord, OrderReason::Points),
    }
    for (i, (x, y)) in a.win_counts.iter().zip(&b.win_counts).enumerate() {
        if x != y {
            let win = ruleset
                .win_types()
                .get(i)
                .copied()
                .unwrap_or(WinType::Adjudicated);
            return (x.cmp(y), OrderReason::WinType(win));
        }
    }
    let longest = a.games.len().max(b.games.len());
    for game in 0..longest {
        match (a.games.get(game), b.games.get(game)) {
            (Some(x), Some(y)) => {
                if let Some((ord, component)) = x.order(y) {
                    return (ord, OrderReason::Game { game, component });
                }
            }
            (Some(_), None) => {
                return (
                    Ordering::Greater,
                    OrderReason::Game {
                        game,
                        component: GameComponent::Played,
                    },
                );
            }
            (None, Some(_)) => {
                return (
                    Ordering::Less,
                    OrderReason::Game {
                        game,
                        component: GameComponent::Played,
                    },
                );
            }
            (None, None) => break,
        }
    }
    (Ordering::Equal, OrderReason::Tie)
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StandingRow {
    /// Competition ranking: exact ties share a rank, the next rank skips (1, 2, 2, 4).
    pub rank: usize,
    pub record: PlayerRecord,
    /// Exactly tied with the row above or below.
    pub tie: bool,
    /// `Some(true)` in the finals, `Some(false)` out, `None` in a tie across the cut line
    /// (settled by the head judge's recorded draw, ruling 11).
    pub finalist: Option<bool>,
    /// Why this row is above the next; `None` on the last row.
    pub reason: Option<OrderReason>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Standings {
    pub ruleset: Ruleset,
    pub rows: Vec<StandingRow>,
    pub finals: Finals,
}

/// Gathers every player's games from a validated report.
pub fn records(report: &ValidReport) -> Vec<PlayerRecord> {
    let ruleset = report.ruleset();
    let mut index: HashMap<&str, usize> = HashMap::new();
    let mut records: Vec<PlayerRecord> = Vec::new();
    for game in report.games() {
        for (seat, result) in game.seats().iter().zip(game.results()) {
            let i = *index.entry(seat.player.as_str()).or_insert_with(|| {
                records.push(PlayerRecord {
                    player: seat.player.clone(),
                    points: Points::ZERO,
                    win_counts: vec![0; ruleset.win_types().len()],
                    games: Vec::new(),
                });
                records.len() - 1
            });
            let record = &mut records[i];
            if let Some(win) = *result {
                record.points = record.points.saturating_add(win.points());
                if let Some(count) = ruleset
                    .rank(win)
                    .and_then(|r| record.win_counts.get_mut(r - 1))
                {
                    *count = count.saturating_add(1);
                }
            }
            record.games.push(PlayedGame {
                round: game.round(),
                table: game.table(),
                faction: seat.faction,
                result: *result,
                weight: ruleset.weight(*result),
                tiebreakers: seat.tiebreakers,
            });
        }
    }
    for record in &mut records {
        record.games.sort_by(|x, y| {
            y.order(x)
                .map_or(Ordering::Equal, |(ord, _)| ord)
                .then_with(|| (x.round, x.table).cmp(&(y.round, y.table)))
        });
    }
    records
}

/// Standings with `finals_seats` seats in the finals (ruling 13).
pub fn compute(report: &ValidReport, finals_seats: usize) -> Standings {
    compute_for(report, &[], finals_seats, |_| true)
}

/// As [`compute`], for an event in progress: `entrants` without a counted game yet are listed
/// with 0 points, and finals seats go only to players `eligible` says may take one (a dropped
/// player keeps their row and their games count for everyone else, but the seat passes to the
/// next eligible player).
pub fn compute_for(
    report: &ValidReport,
    entrants: &[PlayerName],
    finals_seats: usize,
    eligible: impl Fn(&PlayerName) -> bool,
) -> Standings {
    let ruleset = report.ruleset();
    let mut records = records(report);
    let known: std::collections::HashSet<PlayerName> =
        records.iter().map(|r| r.player.clone()).collect();
    for player in entrants {
        if !known.contains(player) {
            records.push(PlayerRecord {
                player: player.clone(),
                points: Points::ZERO,
                win_counts: vec![0; ruleset.win_types().len()],
                games: Vec::new(),
            });
        }
    }
    records.sort_by(|a, b| {
        compare(ruleset, b, a)
            .0
            .then_with(|| a.player.cmp(&b.player))
    });
    let reasons: Vec<OrderReason> = records
        .windows(2)
        .map(|pair| compare(ruleset, &pair[0], &pair[1]).1)
        .collect();
    let tied_with_next: Vec<bool> = reasons.iter().map(|r| *r == OrderReason::Tie).collect();
    // The cut runs over eligible players only; two eligible rows are tied when nothing
    // separates them, whoever sits between them.
    let seats_for: Vec<usize> = (0..records.len())
        .filter(|&i| eligible(&records[i].player))
        .collect();
    let eligible_tied: Vec<bool> = seats_for
        .windows(2)
        .map(|w| compare(ruleset, &records[w[0]], &records[w[1]]).1 == OrderReason::Tie)
        .collect();
    let (finals, status) = finals::select(
        &seats_for
            .iter()
            .map(|&i| records[i].player.clone())
            .collect::<Vec<_>>(),
        &eligible_tied,
        finals_seats,
    );
    let mut finalist = vec![Some(false); records.len()];
    for (k, &i) in seats_for.iter().enumerate() {
        finalist[i] = status.get(k).copied().flatten();
    }
    let mut rows = Vec::with_capacity(records.len());
    let mut rank = 0;
    for (i, record) in records.into_iter().enumerate() {
        let tied_above = i > 0 && tied_with_next.get(i - 1).copied().unwrap_or(false);
        let tied_below = tied_with_next.get(i).copied().unwrap_or(false);
        if !tied_above {
            rank = i + 1;
        }
        rows.push(StandingRow {
            rank,
            record,
            tie: tied_above || tied_below,
            finalist: finalist.get(i).copied().flatten(),
            reason: reasons.get(i).copied(),
        });
    }
    Standings {
        ruleset: report.ruleset(),
        rows,
        finals,
    }
}

#[cfg(test)]
mod score_tests {
    use super::*;

    #[test]
    fn a_game_score_reads_in_words_in_short_and_dotted() {
        // The rulebook's example (4.01.11): 2 points, then 2.3.8.12.3.3.
        let score = GameScore::new((Points::from_halves(4), [2, 3, 8, 12, 3, 3]));
        assert_eq!(score.dotted(), "2.2.3.8.12.3.3");
        assert_eq!(
            score.short(),
            "2\u{a0}pts · 2\u{a0}WA · 3\u{a0}SH · 8\u{a0}F · 12\u{a0}Sp · 3\u{a0}C · 3\u{a0}L"
        );
        assert_eq!(
            score.words(),
            "2\u{a0}points · 2\u{a0}win attempts · 3\u{a0}strongholds · 8\u{a0}forces · 12\u{a0}spice · 3\u{a0}cards · 3\u{a0}leaders"
        );
        let half = GameScore::new((Points::from_halves(1), [0; 6]));
        assert_eq!(half.labelled()[0], ("points", "½".to_owned()));
        assert_eq!(half.dotted(), "½.0.0.0.0.0.0");
    }
}
