//! Standings for 1,000 players over 6 rounds (goal: ≤ 10 ms).

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use tournament::report::Ending;
use tournament::tables::split;
use tournament::{
    Faction, GameReport, PlayerName, Report, Ruleset, RulingOptions, SeatReport, Tiebreakers,
    WinType, cli, standings, validate,
};

/// xorshift64*: the benchmark's tournament must be the same on every run.
struct Gen(u64);

impl Gen {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) % n as u64) as usize
    }
}

fn tournament(players: usize, rounds: u32) -> Report {
    let mut g = Gen(0x5EED);
    let names: Vec<PlayerName> = (0..players)
        .map(|i| PlayerName::parse(&format!("Player {i:04}")).expect("valid name"))
        .collect();
    let sizes = split(players).expect("1,000 players split");
    let mut games = Vec::new();
    for round in 1..=rounds {
        let mut order: Vec<usize> = (0..players).collect();
        for i in (1..order.len()).rev() {
            order.swap(i, g.below(i + 1));
        }
        let mut at = 0;
        for (t, &size) in sizes.iter().enumerate() {
            let size = usize::from(size);
            let mut seats: Vec<SeatReport> = order[at..at + size]
                .iter()
                .zip(Faction::CLASSIC)
                .map(|(&p, faction)| SeatReport {
                    player: names[p].clone(),
                    faction,
                    ally: None,
                    result: None,
                    tiebreakers: Tiebreakers::from_array([
                        g.below(5) as u32,
                        // At most one each: a table of six controls no more than the six.
                        g.below(2) as u32,
                        g.below(21) as u32,
                        g.below(30) as u32,
                        g.below(5) as u32,
                        g.below(6) as u32,
                    ]),
                })
                .collect();
            at += size;
            let ended = match g.below(4) {
                0 => Ending::Time,
                _ => Ending::Win,
            };
            if ended == Ending::Win {
                // A stronghold victory: the winners hold what it takes (1.09.02), nobody else
                // holds one.
                for seat in seats.iter_mut() {
                    seat.tiebreakers.end.strongholds = 0;
                }
                if g.below(2) == 0 {
                    seats[0].tiebreakers.end.strongholds = 3;
                    seats[0].result = Some(WinType::SoloStronghold);
                } else {
                    let (a, b) = (seats[0].faction, seats[1].faction);
                    seats[0].ally = Some(b);
                    seats[1].ally = Some(a);
                    seats[0].result = Some(WinType::AlliedStronghold);
                    seats[1].result = Some(WinType::AlliedStronghold);
                    seats[0].tiebreakers.end.strongholds = 2;
                    seats[1].tiebreakers.end.strongholds = 2;
                }
            }
            games.push(GameReport {
                round,
                table: t as u32 + 1,
                ended,
                last_turn: None,
                seats,
                judge_draw: None,
                prediction: None,
            });
        }
    }
    Report {
        ruleset: Ruleset::Gc2133,
        options: RulingOptions::default(),
        games,
    }
}

fn bench(c: &mut Criterion) {
    let report = tournament(1000, 6);
    let valid = validate(&report).expect("the benchmark report is valid");
    let json = serde_json::to_string(&report).expect("serialises");

    c.bench_function(
        "standings 1000 players x 6 rounds (validated report)",
        |b| b.iter(|| standings(black_box(&valid), 6)),
    );
    c.bench_function("validate + standings 1000 x 6 (typed report)", |b| {
        b.iter(|| {
            let valid = validate(black_box(&report)).expect("valid");
            standings(&valid, 6)
        })
    });
    c.bench_function("cli::standings 1000 x 6 (JSON in, JSON out)", |b| {
        b.iter(|| cli::standings(black_box(&json), None).expect("valid"))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
