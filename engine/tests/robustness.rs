//! The fuzz target's check as a normal test: random bytes and mutated fixtures never make the
//! reader or the replay panic, exit codes stay 0/1/2, and syntax errors point inside the file.
//! (A small xorshift generator keeps it dependency-free and reproducible.)

use std::path::Path;

use engine::report::{Outcome, replay_text};

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

const ALPHABET: &[u8] = b"TSBNCARMXHP0123456789 ;,:/>$#{}()[]*?-+=%@\"\nadfKLWD~\t\xc3\xa9";

fn check(src: &str) {
    let outcome = replay_text(src);
    let code = outcome.exit_code();
    assert!((0..=2).contains(&code), "exit code {code} for {src:?}");
    let lines = src.split('\n').count() as u32;
    match &outcome {
        Outcome::Unreadable(errs) => {
            assert!(!errs.0.is_empty());
            for e in &errs.0 {
                assert!(
                    e.pos.line >= 1 && e.pos.line <= lines.max(1),
                    "error line {} outside 1..={lines} for {src:?}",
                    e.pos.line
                );
                assert!(e.pos.col >= 1, "{e}");
            }
        }
        Outcome::Replayed(r) => {
            for v in &r.violations {
                assert!(
                    v.pos.line >= 1 && v.pos.line <= lines.max(1),
                    "violation line {} outside 1..={lines}",
                    v.pos.line
                );
                assert!(!v.message.is_empty());
            }
        }
        Outcome::Parsed(_) => unreachable!("replay_text never returns Parsed"),
    }
    let _ = outcome.to_human();
    assert!(outcome.to_json().starts_with('{'));
    // The derived game report: a report or a reason, never a panic.
    let (_, report) = engine::report::report_text(src);
    if let Some(Ok(json)) = report {
        assert!(json.starts_with('{'));
    }
}

#[test]
fn random_bytes_never_panic() {
    let mut rng = Rng(0x5eed_1234_abcd_0001);
    for _ in 0..3000 {
        let len = rng.below(160);
        let bytes: Vec<u8> = (0..len)
            .map(|_| {
                if rng.below(4) == 0 {
                    rng.next() as u8
                } else {
                    ALPHABET[rng.below(ALPHABET.len())]
                }
            })
            .collect();
        check(&String::from_utf8_lossy(&bytes));
    }
}

#[test]
fn mutated_fixtures_never_panic() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/games");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "dgn"))
        .collect();
    files.sort();
    let mut rng = Rng(0x0dd_ba11_cafe_f00d);
    let mut runs = 0;
    for path in files.iter().step_by(3) {
        let src = std::fs::read_to_string(path).unwrap();
        let lines: Vec<&str> = src.lines().collect();
        for _ in 0..12 {
            let mut ls: Vec<String> = lines.iter().map(|s| s.to_string()).collect();
            match rng.below(5) {
                0 if !ls.is_empty() => {
                    let i = rng.below(ls.len());
                    ls.remove(i);
                }
                1 if !ls.is_empty() => {
                    let (i, j) = (rng.below(ls.len()), rng.below(ls.len()));
                    ls.swap(i, j);
                }
                2 if !ls.is_empty() => {
                    let i = rng.below(ls.len());
                    let dup = ls[i].clone();
                    ls.insert(rng.below(ls.len()), dup);
                }
                _ if !ls.is_empty() => {
                    let i = rng.below(ls.len());
                    let mut b = ls[i].clone().into_bytes();
                    if !b.is_empty() {
                        let k = rng.below(b.len());
                        b[k] = ALPHABET[rng.below(ALPHABET.len())];
                    }
                    ls[i] = String::from_utf8_lossy(&b).into_owned();
                }
                _ => {}
            }
            check(&ls.join("\n"));
            runs += 1;
        }
    }
    assert!(runs > 500, "only {runs} mutated logs");
}

/// The full format's logs with every faction the engine seats (Ecaz and Moritani with their
/// ambassadors and terror tokens, both texts): lines mutated, swapped between logs and played
/// under the other edition never make the reader or the replay panic, and every violation stands
/// at a line of the log.
#[test]
fn full_format_logs_with_every_faction_never_panic() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/games");
    let mut logs: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "dgn"))
        .filter_map(|p| std::fs::read_to_string(p).ok())
        .filter(|s| s.contains("[Ruleset \"full\"]"))
        .collect();
    logs.sort();
    assert!(logs.len() > 50, "only {} full-format logs", logs.len());
    // Every faction the engine seats sits in at least one of them.
    for f in dune::Faction::ALL {
        if engine::factions::sheet(f).is_some() && !f.is_classic() {
            assert!(
                logs.iter().any(|l| l.contains(&format!("={}", f.code()))),
                "{f} sits in no full-format log"
            );
        }
    }
    let mut rng = Rng(0xec4a_3041_7a11_0012);
    let mut runs = 0;
    for (k, src) in logs.iter().enumerate() {
        let other: Vec<&str> = logs[(k + 7) % logs.len()].lines().collect();
        for round in 0..10 {
            let mut ls: Vec<String> = src.lines().map(str::to_string).collect();
            if ls.is_empty() {
                continue;
            }
            match round % 5 {
                // A statement of another log in this one.
                0 if !other.is_empty() => {
                    let line = other[rng.below(other.len())].to_string();
                    ls.insert(rng.below(ls.len()), line);
                }
                // The other text of the full rulebook.
                1 => {
                    for l in ls.iter_mut() {
                        *l = if l.contains("\"original\"") {
                            l.replace("\"original\"", "\"revised\"")
                        } else {
                            l.replace("\"revised\"", "\"original\"")
                        };
                    }
                }
                2 => {
                    let i = rng.below(ls.len());
                    ls.remove(i);
                }
                3 => {
                    let (i, j) = (rng.below(ls.len()), rng.below(ls.len()));
                    ls.swap(i, j);
                }
                _ => {
                    let i = rng.below(ls.len());
                    let mut b = ls[i].clone().into_bytes();
                    if !b.is_empty() {
                        let k = rng.below(b.len());
                        b[k] = ALPHABET[rng.below(ALPHABET.len())];
                    }
                    ls[i] = String::from_utf8_lossy(&b).into_owned();
                }
            }
            check(&ls.join("\n"));
            runs += 1;
        }
    }
    assert!(runs > 500, "only {runs} mutated logs");
}
