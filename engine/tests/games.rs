//! Every file in `tests/games/` carries its verdict in its name:
//! - `legal-<what>.dgn` replays with no violation;
//! - `illegal-<rule>-<what>.dgn`: the first violation reported names `<rule>`, in Mentat's
//!   numbering (001's where the GenCon rulebook has the rule, else 000's; a `full` game reports
//!   it in 000's numbering, `Violation::is_of`);
//! - `illegal-000-<rule>-<what>.dgn`: the same, with `<rule>` the full rulebook's own number, for
//!   the few numbers 000 gives another rule than 001 does (000's 1.14.07, the Ixians' Karama
//!   power, is the Free Traders' in 001);
//! - `unreadable-<what>.dgn` is not DGN (exit code 2).
//!
//! Adding a fixture is enough for it to be checked.

use std::path::{Path, PathBuf};

use engine::report::{Outcome, parse_only, replay_text};

fn fixtures() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/games");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "dgn"))
        .collect();
    files.sort();
    files
}

#[test]
fn every_fixture_has_the_verdict_its_name_promises() {
    let mut failures = Vec::new();
    let files = fixtures();
    for path in &files {
        let name = path
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or_default()
            .to_string();
        let src =
            std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let outcome = replay_text(&src);
        if name.starts_with("legal-") {
            if outcome.exit_code() != 0 {
                failures.push(format!(
                    "{name}: expected no violation, got:\n{}",
                    outcome.to_human()
                ));
            }
        } else if let Some(rest) = name.strip_prefix("illegal-") {
            let (own_number, rest) = match rest.strip_prefix("000-") {
                Some(rest) => (true, rest),
                None => (false, rest),
            };
            let rule = rest.split('-').next().unwrap_or_default();
            let number = dune::Rule::parse(rule)
                .unwrap_or_else(|e| panic!("{name}: {rule} is not a rule number: {e}"));
            let cites = |v: &engine::replay::Violation| {
                if own_number {
                    v.book == dune::Book::Full && v.rule == number
                } else {
                    v.is_of(number)
                }
            };
            match &outcome {
                Outcome::Replayed(r) => match r.violations.first() {
                    Some(v) if cites(v) => {}
                    Some(v) => failures.push(format!(
                        "{name}: first violation is {} ({}), expected {rule}\n{}",
                        v.rule,
                        v.message,
                        outcome.to_human()
                    )),
                    None => failures.push(format!(
                        "{name}: expected a violation of {rule}, the log replays cleanly"
                    )),
                },
                other => failures.push(format!(
                    "{name}: expected a replay, got:\n{}",
                    other.to_human()
                )),
            }
        } else if name.starts_with("unreadable-") {
            if outcome.exit_code() != 2 || parse_only(&src).is_ok() {
                failures.push(format!(
                    "{name}: expected a syntax error, got:\n{}",
                    outcome.to_human()
                ));
            }
        } else {
            failures.push(format!(
                "{name}: fixture names start with legal-, illegal-<rule>- or unreadable-"
            ));
        }
    }
    assert!(files.len() >= 2, "no fixtures found");
    assert!(
        failures.is_empty(),
        "{} of {} fixtures failed:\n\n{}",
        failures.len(),
        files.len(),
        failures.join("\n\n")
    );
}

#[test]
fn every_legal_fixture_also_parses_and_replays_in_public_mode() {
    for path in fixtures() {
        let name = path
            .file_name()
            .and_then(|s| s.to_str())
            .unwrap_or_default()
            .to_string();
        if !name.starts_with("legal-") {
            continue;
        }
        let src = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(parse_only(&src).is_ok(), "{name}");
        let public =
            engine::report::replay_text_with(&src, &engine::replay::ReplayOptions::public());
        assert_eq!(
            public.exit_code(),
            0,
            "{name} in public mode:\n{}",
            public.to_human()
        );
    }
}

/// Battles' hidden information is checked in audit mode only (notation §5): these logs break a
/// rule that only the sealed setup reveals (traitor cards kept, the prediction, the hands, the
/// Ixians' pocket cards and the card they put back, the Tleilaxu's Face Dancers), so
/// each is illegal as audited and replays cleanly from the published log.
#[test]
fn hidden_information_is_checked_in_audit_mode_only() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/games");
    for name in [
        "illegal-1.07.06.06-traitor-not-held",
        "illegal-1.07.06.06-harkonnen-traitor-for-ally-not-held",
        "illegal-2.02.03-prediction-claimed-for-another-turn",
        "illegal-2.02.06-voice-command-withheld",
        "illegal-2.02.07-ally-voice-command-withheld",
        "illegal-3.01.08-plan-card-not-in-hand",
        "illegal-2.07.03-pocket-cards-one-short",
        "illegal-2.07.03-starting-card-not-a-pocket-card",
        "illegal-2.07.08-card-put-back-is-auctioned",
        "illegal-2.08.05-face-dancer-not-drawn",
        "illegal-3.02.09-sixth-shield",
        "illegal-3.02.11-sixth-snooper",
    ] {
        let path = dir.join(format!("{name}.dgn"));
        let src =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!(replay_text(&src).exit_code(), 1, "{name} in audit mode");
        let public =
            engine::report::replay_text_with(&src, &engine::replay::ReplayOptions::public());
        assert_eq!(
            public.exit_code(),
            0,
            "{name} in public mode:\n{}",
            public.to_human()
        );
    }
}

/// Deal and bribe terms the engine cannot check are not violations: the replay lists them for the
/// judge (1.12.00), and checks every structured term.
#[test]
fn free_text_terms_are_listed_as_not_checked() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/games");
    for (name, expected) in [
        (
            "legal-deal-terms-kept",
            "EM votes with HK on the next rules dispute",
        ),
        ("legal-bribe", "no bid on card 1"),
    ] {
        let src = std::fs::read_to_string(dir.join(format!("{name}.dgn"))).unwrap();
        let Outcome::Replayed(r) = replay_text(&src) else {
            panic!("{name} is not DGN");
        };
        assert!(r.is_legal(), "{name}");
        assert!(
            r.not_checked.iter().any(|n| n.text.contains(expected)),
            "{name}: {:?}",
            r.not_checked
        );
        let json = replay_text(&src).to_json();
        assert!(json.contains("\"not_checked\""), "{name}: {json}");
        assert!(replay_text(&src).to_human().contains("Not checked"));
    }
}

/// Every violation kind of `tests/citations.tsv` (a claim the engine disproves, where a specific
/// rule decides) cites its specific rule in its example log; `script/citations REV` counts the same
/// for an earlier engine.
#[test]
fn every_listed_citation_kind_cites_its_specific_rule() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let table = std::fs::read_to_string(root.join("citations.tsv")).unwrap();
    let mut rows = 0;
    for line in table
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
    {
        let cols: Vec<&str> = line.split('\t').collect();
        let [_, kind, example, general, specific] = cols[..] else {
            panic!("five tab-separated columns: {line}");
        };
        assert_ne!(general, specific, "{kind}");
        assert!(
            example.starts_with(&format!("illegal-{specific}-")),
            "{kind}: the example's name names {specific}"
        );
        let src = std::fs::read_to_string(root.join("games").join(format!("{example}.dgn")))
            .unwrap_or_else(|e| panic!("{example}: {e}"));
        let Outcome::Replayed(r) = replay_text(&src) else {
            panic!("{example} is not DGN");
        };
        let first = r.violations.first().map(|v| v.rule.to_string());
        assert_eq!(first.as_deref(), Some(specific), "{kind} ({example})");
        rows += 1;
    }
    assert!(rows >= 40, "{rows} kinds");
}
