//! `cargo run --release -p engine --example prof_replay [parse] [full]`: replays (or parses) the
//! ten-turn benchmark game 3,000 times (`full`: the full format's, with the Ixians and the
//! Tleilaxu), for a profiler (`perf record`, `valgrind --tool=callgrind`) or `perf stat`.

fn main() {
    let src = if std::env::args().any(|a| a == "full") {
        include_str!("../tests/games/legal-full-ten-turn-five-factions.dgn")
    } else {
        include_str!("../tests/games/legal-ten-turn-six-factions.dgn")
    };
    let parse_only = std::env::args().any(|a| a == "parse");
    let Ok(game) = engine::dgn::parse(src) else {
        return;
    };
    let mut n = 0;
    let runs: u32 = std::env::var("RUNS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(3000);
    for _ in 0..runs {
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
