//! A draw for 300 players with 5 earlier rounds (goal: ≤ 100 ms).

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use tournament::{
    DrawRequest, History, PastRound, PlayerName, Ruleset, RulingOptions, cli, draw_round,
};

fn bench(c: &mut Criterion) {
    let players: Vec<PlayerName> = (0..300)
        .map(|i| PlayerName::parse(&format!("Player {i:03}")).expect("valid name"))
        .collect();
    let options = RulingOptions::default();
    let mut history = History::default();
    let mut outputs = Vec::new();
    for round in 0..5 {
        let drawn = draw_round(&DrawRequest {
            seed: 1000 + round,
            ruleset: Ruleset::Gc2133,
            players: &players,
            byes: &[],
            history: &history,
            options: &options,
        })
        .expect("300 players split");
        outputs.push(serde_json::to_string(&drawn).expect("serialises"));
        history.push(PastRound::from(&drawn));
    }
    let history_json = format!("[{}]", outputs.join(","));
    let names: String = players.iter().map(|p| format!("{p}\n")).collect();

    let request = DrawRequest {
        seed: 6,
        ruleset: Ruleset::Gc2133,
        players: &players,
        byes: &[],
        history: &history,
        options: &options,
    };
    let round = draw_round(&request).expect("draws");
    eprintln!(
        "round 6 of 300 players: {} repeated pairs, cost {}, lower bound {}, {} repeated factions",
        round.quality.pairing.repeat_pairs,
        round.quality.pairing.cost,
        round.quality.pairing.lower_bound,
        round.quality.repeat_factions
    );

    c.bench_function("draw 300 players, 5 earlier rounds (typed)", |b| {
        b.iter(|| draw_round(black_box(&request)).expect("draws"))
    });
    c.bench_function(
        "draw 300 players, 5 earlier rounds, full ruleset (typed)",
        |b| {
            let full = DrawRequest {
                ruleset: Ruleset::Full,
                ..request
            };
            b.iter(|| draw_round(black_box(&full)).expect("draws"))
        },
    );
    c.bench_function("cli::draw 300 players, 5 earlier rounds (JSON)", |b| {
        b.iter(|| cli::draw(6, "gc-2.13.3", black_box(&names), Some(&history_json)).expect("draws"))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
