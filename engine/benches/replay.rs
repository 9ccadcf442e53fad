//! Parse-only and replay of the ten-turn, six-faction game (`tests/games/legal-ten-turn-six-factions.dgn`).
//! Goal (issue 5): replay ≤ 3 × parse and under 200 µs.
//!
//! The same for the full rulebook's ten-turn game with the Ixians and the Tleilaxu
//! (`tests/games/legal-full-ten-turn-five-factions.dgn`). Goal (issue 24): replay ≤ 2 × parse and
//! under 300 µs.
//!
//! The same for the full rulebook's ten-turn game with CHOAM, Richese and the Free Traders at a
//! table of six (`tests/games/legal-full-ten-turn-choam-richese-free-traders.dgn`). Goal (issue
//! 25): replay ≤ 2 × parse and under 300 µs.

use criterion::{Criterion, black_box, criterion_group, criterion_main};
use engine::dgn;
use engine::replay::{ReplayOptions, replay};

const GAME: &str = include_str!("../tests/games/legal-ten-turn-six-factions.dgn");
const FULL: &str = include_str!("../tests/games/legal-full-ten-turn-five-factions.dgn");
const TRADE: &str =
    include_str!("../tests/games/legal-full-ten-turn-choam-richese-free-traders.dgn");

fn bench(c: &mut Criterion) {
    let game = dgn::parse(GAME).expect("the benchmark game parses");
    assert!(
        replay(&game, &ReplayOptions::default()).is_legal(),
        "the benchmark game replays cleanly"
    );
    c.bench_function("parse ten-turn six-faction game", |b| {
        b.iter(|| dgn::parse(black_box(GAME)))
    });
    c.bench_function("replay ten-turn six-faction game", |b| {
        b.iter(|| replay(black_box(&game), &ReplayOptions::default()))
    });
    c.bench_function("parse and replay, as the command line", |b| {
        b.iter(|| engine::report::replay_text(black_box(GAME)).exit_code())
    });
    let full = dgn::parse(FULL).expect("the full-format benchmark game parses");
    assert!(
        replay(&full, &ReplayOptions::default()).is_legal(),
        "the full-format benchmark game replays cleanly"
    );
    c.bench_function("parse full-format ten-turn game (IX, TL)", |b| {
        b.iter(|| dgn::parse(black_box(FULL)))
    });
    c.bench_function("replay full-format ten-turn game (IX, TL)", |b| {
        b.iter(|| replay(black_box(&full), &ReplayOptions::default()))
    });
    let trade = dgn::parse(TRADE).expect("the CHOAM, Richese and Free Traders game parses");
    assert!(
        replay(&trade, &ReplayOptions::default()).is_legal(),
        "the CHOAM, Richese and Free Traders game replays cleanly"
    );
    c.bench_function("parse full-format ten-turn game (CH, RI, FT)", |b| {
        b.iter(|| dgn::parse(black_box(TRADE)))
    });
    c.bench_function("replay full-format ten-turn game (CH, RI, FT)", |b| {
        b.iter(|| replay(black_box(&trade), &ReplayOptions::default()))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
