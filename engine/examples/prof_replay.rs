//! `cargo run --release -p engine --example prof_replay [parse]`: replays (or parses) the
//! ten-turn benchmark game 3,000 times, for a profiler (`perf record`) or `perf stat`.

fn main() {
    let src = include_str!("../tests/games/legal-ten-turn-six-factions.dgn");
    let parse_only = std::env::args().any(|a| a == "parse");
    let Ok(game) = engine::dgn::parse(src) else {
        return;
    };
    let mut n = 0;
    for _ in 0..3000 {
        n += if parse_only {
            engine::dgn::parse(std::hint::black_box(src)).map_or(0, |g| g.events.len())
        } else {
            engine::replay::replay(&game, &engine::replay::ReplayOptions::default())
                .turns
                .len()
        };
    }
    println!("{n}");
}
