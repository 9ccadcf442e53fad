//! The demo's script: what happens at each table, decided from the seed alone. Pure: the same
//! seed gives the same players, plans, results and win attempts; [`super::write`] puts them into
//! the database as a judge would.

use dune::{Faction, Spice, Stronghold, WinType};
use tournament::EndValues;
use tournament::SeatEntry;
use tournament::attempts::Attempt;
use tournament::report::Ending;
use tournament::rng::DrawRng;

pub(super) const PLAYERS: usize = 30;
pub(super) const ROUNDS: i32 = 3;
/// Strongholds a judge may see as evidence of a win attempt (ruling 6); the Shield Wall counts
/// only after the fourth worm, which the demo's games do not reach.
const STRONGHOLDS: [Stronghold; 5] = [
    Stronghold::Arrakeen,
    Stronghold::Carthag,
    Stronghold::SietchTabr,
    Stronghold::HabbanyaSietch,
    Stronghold::TueksSietch,
];

/// The draw's own generator ([`DrawRng`]) with the few choices a script needs.
pub(super) struct Dice(DrawRng);

impl Dice {
    pub fn new(seed: u64) -> Dice {
        Dice(DrawRng::new(seed))
    }

    /// 0..n (0 when n is 0).
    pub fn below(&mut self, n: usize) -> usize {
        self.0.below(n)
    }

    /// lo..=hi.
    pub fn range(&mut self, lo: u32, hi: u32) -> u32 {
        let span = usize::try_from(hi.saturating_sub(lo)).unwrap_or(usize::MAX);
        lo + u32::try_from(self.0.below(span.saturating_add(1))).unwrap_or(0)
    }

    pub fn chance(&mut self, percent: usize) -> bool {
        self.0.below(100) < percent
    }

    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        self.0.shuffle(items);
    }

    /// `k` different items of `from`, in random order.
    pub fn pick<T: Copy>(&mut self, from: &[T], k: usize) -> Vec<T> {
        let mut all = from.to_vec();
        self.shuffle(&mut all);
        all.truncate(k);
        all
    }

    /// A seed for a round's draw: below 2^53, like the seeds Mentat draws itself.
    pub fn round_seed(&mut self) -> u64 {
        self.0.next_u64() & ((1 << 53) - 1)
    }
}

/// Made-up players; a seeded shuffle picks thirty.
pub(super) const NAMES: [&str; 44] = [
    "Amara Okafor",
    "Ben Whitaker",
    "Carmen Ruiz",
    "Dmitri Volkov",
    "Eleanor Marsh",
    "Farid Haddad",
    "Grace Liu",
    "Hiroshi Tanaka",
    "Ingrid Solberg",
    "Jamal Carter",
    "Keiko Mori",
    "Liam O'Connor",
    "Maya Patel",
    "Nikolai Petrov",
    "Olivia Bennett",
    "Pedro Alves",
    "Quinn Harper",
    "Rosa Delgado",
    "Samir Nasser",
    "Tessa Lindqvist",
    "Umar Siddiqui",
    "Valentina Rossi",
    "Wes Donnelly",
    "Xiao Chen",
    "Yusuf Demir",
    "Zoe Castellanos",
    "Aaron Feldman",
    "Bianca Moretti",
    "Callum Fraser",
    "Daniela Kowalski",
    "Emeka Eze",
    "Freya Nilsen",
    "Gustavo Pereira",
    "Hannah Schulz",
    "Ibrahim Diallo",
    "Julia Novak",
    "Kwame Mensah",
    "Lena Hoffmann",
    "Marcus Reid",
    "Noor Al-Amin",
    "Oscar Lindgren",
    "Priya Raman",
    "Rafael Ortega",
    "Siobhan Kelly",
];

pub(super) const CLUBS: [&str; 3] = [
    "Indy Spice Traders",
    "Sietch Chicago",
    "Caladan Gaming Club (Columbus)",
];

/// How a table's game ends, as planned for the demo.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Plan {
    /// Solo Stronghold Victory.
    Solo,
    /// Allied Stronghold Victory.
    Allied,
    /// The Bene Gesserit's prediction comes true.
    Prediction,
    /// Stopped by the clock: no results, Mentat adjudicates (4.01.09).
    Clock,
    /// Played to the end of turn 10: the Guild's default or the Fremen special (1.09.05).
    LastTurn,
}

/// What happens to the report after it is saved.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Finish {
    /// Every seated player confirms: final.
    Confirmed,
    /// Confirmed, then corrected by the head judge (revision 2, with a reason).
    Corrected,
    /// A player disputes it; the head judge makes it final (4.01.05).
    Disputed,
    /// Only some players have confirmed yet.
    Awaiting { confirmed: usize },
}

pub(super) const PLANS: [[Plan; 5]; 2] = [
    [
        Plan::Solo,
        Plan::Allied,
        Plan::Clock,
        Plan::Solo,
        Plan::Allied,
    ],
    [
        Plan::Allied,
        Plan::LastTurn,
        Plan::Solo,
        Plan::Prediction,
        Plan::Allied,
    ],
];
pub(super) const FINISHES: [[Finish; 5]; 2] = [
    [
        Finish::Corrected,
        Finish::Confirmed,
        Finish::Confirmed,
        Finish::Confirmed,
        Finish::Confirmed,
    ],
    [
        Finish::Confirmed,
        Finish::Confirmed,
        Finish::Disputed,
        Finish::Confirmed,
        Finish::Confirmed,
    ],
];
pub(super) const LAST_ROUND_PLANS: [Plan; 5] = [
    Plan::Allied,
    Plan::Solo,
    Plan::Solo,
    Plan::Allied,
    Plan::Solo,
];

/// A game as the demo imagines it, seat by seat in seat order.
pub(super) struct Game {
    pub ended: Ending,
    pub last_turn: u32,
    pub lines: Vec<SeatEntry>,
    /// Per turn: who made a win attempt and the strongholds seen.
    pub attempts: Vec<(u32, Vec<Attempt>)>,
    /// The Bene Gesserit's prediction, recorded when it won the game (2.02.03).
    pub prediction: Option<tournament::Prediction>,
}

/// The first `k` strongholds still free.
fn take(free: &mut Vec<Stronghold>, k: usize) -> Vec<Stronghold> {
    let k = k.min(free.len());
    free.drain(..k).collect()
}

/// Imagines a plausible game at these seats: alliances, who holds which strongholds, the
/// values of 4.01.11 and the win attempts, consistent with the plan and the validation of
/// `tournament::report`.
pub(super) fn imagine(plan: Plan, seats: &[Faction], rng: &mut Dice) -> Game {
    let n = seats.len();
    let find = |f: Faction| seats.iter().position(|s| *s == f);
    let mut ally: Vec<Option<usize>> = vec![None; n];
    let mut result: Vec<Option<WinType>> = vec![None; n];
    let mut holds: Vec<Vec<Stronghold>> = vec![Vec::new(); n];
    let mut free: Vec<Stronghold> = STRONGHOLDS.to_vec();
    rng.shuffle(&mut free);
    // Who took part in the deciding win attempt on the last turn.
    let mut deciders: Vec<usize> = Vec::new();
    let mut prediction = None;

    let plan = match plan {
        Plan::Prediction if find(Faction::BeneGesserit).is_none() => Plan::Solo,
        Plan::LastTurn
            if find(Faction::SpacingGuild).is_none() || find(Faction::Fremen).is_none() =>
        {
            Plan::Solo
        }
        other => other,
    };
    let (ended, last_turn) = match plan {
        Plan::Clock => (Ending::Time, rng.range(5, 7)),
        Plan::LastTurn => (Ending::Turns, 10),
        _ => (Ending::Win, rng.range(4, 9)),
    };
    match plan {
        Plan::Solo => {
            let w = rng.below(n);
            result[w] = Some(WinType::SoloStronghold);
            holds[w] = take(&mut free, 3);
            deciders.push(w);
        }
        Plan::Allied => {
            let pair = rng.pick(&(0..n).collect::<Vec<_>>(), 2);
            if let [a, b] = pair[..] {
                ally[a] = Some(b);
                ally[b] = Some(a);
                result[a] = Some(WinType::AlliedStronghold);
                result[b] = Some(WinType::AlliedStronghold);
                let first = if rng.chance(50) { 2 } else { 3 };
                holds[a] = take(&mut free, first);
                holds[b] = take(&mut free, 4 - first);
                deciders.extend([a, b]);
            }
        }
        Plan::Prediction => {
            // The plan falls back to Solo above when the Bene Gesserit are not at the table.
            let bg = find(Faction::BeneGesserit).unwrap_or(0);
            let others: Vec<usize> = (0..n).filter(|&i| i != bg).collect();
            // The faction the BG predicted takes three strongholds on the predicted turn.
            let x = others[rng.below(others.len())];
            holds[x] = take(&mut free, 3);
            result[bg] = Some(WinType::BgPrediction);
            deciders.push(x);
            prediction = Some(tournament::Prediction {
                faction: seats[x],
                turn: last_turn,
            });
            if rng.chance(50) {
                let friends: Vec<usize> = others.iter().copied().filter(|&i| i != x).collect();
                let y = friends[rng.below(friends.len())];
                ally[bg] = Some(y);
                ally[y] = Some(bg);
            }
        }
        Plan::LastTurn => {
            let sg = find(Faction::SpacingGuild).unwrap_or(0);
            let fr = find(Faction::Fremen).unwrap_or(0);
            let (winner, solo, allied) = if rng.chance(60) {
                (sg, WinType::SoloDefault, WinType::AlliedDefault)
            } else {
                let sietches = [Stronghold::SietchTabr, Stronghold::HabbanyaSietch];
                holds[fr] = sietches.to_vec();
                free.retain(|c| !sietches.contains(c));
                (fr, WinType::SoloFremenSpecial, WinType::AlliedFremenSpecial)
            };
            let partners: Vec<usize> = (0..n).filter(|&i| i != sg && i != fr).collect();
            if rng.chance(50) {
                let y = partners[rng.below(partners.len())];
                ally[winner] = Some(y);
                ally[y] = Some(winner);
                result[winner] = Some(allied);
                result[y] = Some(allied);
            } else {
                result[winner] = Some(solo);
            }
        }
        Plan::Clock => {}
    }
    // Other alliances among the players still free to ally.
    let mut unallied: Vec<usize> = (0..n)
        .filter(|&i| ally[i].is_none() && result[i].is_none())
        .filter(|&i| !(plan == Plan::Prediction && deciders.contains(&i)))
        .collect();
    rng.shuffle(&mut unallied);
    let alliances = match plan {
        Plan::Clock => 1 + rng.below(2),
        _ => usize::from(rng.chance(60)),
    };
    for pair in unallied.chunks(2).take(alliances) {
        if let [a, b] = *pair {
            ally[a] = Some(b);
            ally[b] = Some(a);
        }
    }
    // The strongholds left go to the losers, at most one each: nobody else near a win.
    let mut losers: Vec<usize> = (0..n)
        .filter(|&i| result[i].is_none() && !deciders.contains(&i))
        .collect();
    rng.shuffle(&mut losers);
    for i in losers {
        if free.is_empty() {
            break;
        }
        if rng.chance(70) {
            holds[i].extend(take(&mut free, 1));
        }
    }

    let winners: Vec<usize> = (0..n)
        .filter(|&i| result[i].is_some() || deciders.contains(&i))
        .collect();
    let lines = seats
        .iter()
        .enumerate()
        .map(|(i, &faction)| {
            let strong = winners.contains(&i);
            let harkonnen = faction == Faction::Harkonnen;
            SeatEntry {
                faction,
                ally: ally[i].map(|a| seats[a]),
                result: result[i],
                end: EndValues {
                    strongholds: holds[i].len() as u32,
                    forces: if strong {
                        rng.range(9, 16)
                    } else {
                        rng.range(2, 13)
                    },
                    spice: Spice::new(if strong {
                        rng.range(6, 24)
                    } else {
                        rng.range(0, 18)
                    }),
                    cards: if harkonnen {
                        rng.range(2, 7)
                    } else {
                        rng.range(1, 4)
                    },
                    leaders: rng.range(2, 5),
                },
            }
        })
        .collect();

    // Win attempts: the deciding one on the last turn, a few earlier ones (turns 3-9).
    let mut attempts = Vec::new();
    let last_attempt_turn = last_turn.min(9);
    let decided_now = matches!(plan, Plan::Solo | Plan::Allied | Plan::Prediction);
    let earlier_until = if decided_now {
        last_turn - 1
    } else {
        last_attempt_turn
    };
    let earlier = match plan {
        Plan::Clock | Plan::LastTurn => 2 + rng.below(2),
        _ => rng.below(3),
    };
    let turns: Vec<u32> = (3..=earlier_until).collect();
    let mut turns = rng.pick(&turns, earlier);
    turns.sort_unstable();
    for turn in turns {
        let mut who = vec![rng.below(n)];
        if rng.chance(20) {
            let other = rng.below(n);
            if !who.contains(&other) {
                who.push(other);
            }
        }
        let seen = who
            .into_iter()
            .map(|seat| {
                let k = if ally[seat].is_some() { 2 } else { 3 };
                Attempt {
                    seat,
                    strongholds: rng.pick(&STRONGHOLDS, k),
                }
            })
            .collect();
        attempts.push((turn, seen));
    }
    if decided_now {
        let seen = deciders
            .iter()
            .map(|&seat| Attempt {
                seat,
                strongholds: holds[seat].clone(),
            })
            .collect();
        attempts.push((last_turn, seen));
    }
    Game {
        ended,
        last_turn,
        lines,
        attempts,
        prediction,
    }
}

/// One line about a game's result: "Solo Stronghold Victory for Ann (HK) on turn 6".
pub(super) fn result_text(game: &Game, labels: &[String]) -> String {
    let winners: Vec<(usize, WinType)> = game
        .lines
        .iter()
        .enumerate()
        .filter_map(|(i, l)| l.result.map(|w| (i, w)))
        .collect();
    let Some(&(_, win)) = winners.first() else {
        return String::from("no result");
    };
    let names: Vec<String> = winners
        .iter()
        .filter_map(|&(i, _)| labels.get(i).cloned())
        .collect();
    let when = match game.ended {
        Ending::Turns => "at the end of turn 10".to_owned(),
        _ => format!("on turn {}", game.last_turn),
    };
    format!("{} for {} {when}", win.name(), names.join(" and "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use tournament::{PlayerName, Ruleset, RulingOptions, TableReport, TableSeat, validate_table};

    #[test]
    fn imagined_games_follow_their_plan_and_pass_the_report_rules() {
        let seats = Faction::CLASSIC;
        for seed in 0..200 {
            let mut rng = Dice::new(seed);
            for plan in [
                Plan::Solo,
                Plan::Allied,
                Plan::Prediction,
                Plan::Clock,
                Plan::LastTurn,
            ] {
                let game = imagine(plan, &seats, &mut rng);
                let winners = game.lines.iter().filter(|l| l.result.is_some()).count();
                match plan {
                    Plan::Clock => assert_eq!(winners, 0),
                    Plan::Solo | Plan::Prediction => assert_eq!(winners, 1),
                    Plan::Allied => assert_eq!(winners, 2),
                    Plan::LastTurn => assert!((1..=2).contains(&winners)),
                }
                let held: u32 = game.lines.iter().map(|l| l.end.strongholds).sum();
                assert!(held <= 5, "{plan:?}: {held} strongholds");
                for (turn, seen) in &game.attempts {
                    assert!((3..=game.last_turn).contains(turn), "{plan:?} turn {turn}");
                    assert!(*turn <= 9);
                    assert!(!seen.is_empty());
                }
                let mut turns: Vec<u32> = game.attempts.iter().map(|a| a.0).collect();
                turns.dedup();
                assert_eq!(turns.len(), game.attempts.len(), "one record per turn");
                // The report passes the checks a judge's report passes.
                let report = TableReport {
                    ruleset: Ruleset::Gc2133,
                    options: RulingOptions::default(),
                    round: 1,
                    table: 1,
                    ended: game.ended,
                    last_turn: game.last_turn,
                    seats: seats
                        .iter()
                        .zip(&game.lines)
                        .enumerate()
                        .map(|(i, (&faction, line))| TableSeat {
                            player: PlayerName::parse(&format!("Player {i}")).unwrap(),
                            dealt: Some(faction),
                            entry: Some(*line),
                        })
                        .collect(),
                    judge_draw: None,
                    prediction: game.prediction,
                    attempts: game
                        .attempts
                        .iter()
                        .map(|(turn, seen)| (*turn, seen.iter().map(|a| a.seat).collect()))
                        .collect(),
                };
                if let Err(problems) = validate_table(&report) {
                    panic!("seed {seed}, {plan:?}: {problems}");
                }
            }
        }
    }
}
