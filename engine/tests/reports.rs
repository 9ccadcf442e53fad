//! Derived game reports: each `tests/reports/<game>.json` is the report `mentat replay --report`
//! must derive from `tests/games/<game>.dgn`, and it must go through `mentat standings`.

use std::path::Path;

#[test]
fn derived_reports_match_and_score() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let mut checked = 0;
    let mut entries: Vec<_> = std::fs::read_dir(dir.join("reports"))
        .unwrap_or_else(|e| panic!("tests/reports: {e}"))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    entries.sort();
    for expected_path in entries {
        let name = expected_path
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or_default()
            .to_string();
        let game = dir.join("games").join(format!("{name}.dgn"));
        let src =
            std::fs::read_to_string(&game).unwrap_or_else(|e| panic!("{}: {e}", game.display()));
        let (outcome, report) = engine::report::report_text(&src);
        assert_eq!(outcome.exit_code(), 0, "{name}: {}", outcome.to_human());
        let json = match report {
            Some(Ok(json)) => json,
            other => panic!("{name}: no report: {other:?}"),
        };
        let expected = std::fs::read_to_string(&expected_path)
            .unwrap_or_else(|e| panic!("{}: {e}", expected_path.display()));
        assert_eq!(
            json.trim(),
            expected.trim(),
            "{name}: derived report differs"
        );
        let standings = tournament::cli::standings(&json, None)
            .unwrap_or_else(|e| panic!("{name}: mentat standings refuses the report: {e:?}"));
        assert!(standings.contains("\"standings\""), "{name}: {standings}");
        checked += 1;
    }
    assert!(checked >= 1, "no derived reports to check");
}

#[test]
fn a_game_in_progress_has_no_report_yet() {
    let src = "[Factions \"1=AT 2=HK\"]\nT0\nSTORM0 HK 1 AT 2 -> 4\nT1\n";
    let (_, report) = engine::report::report_text(src);
    let why = match report {
        Some(Err(why)) => why,
        other => panic!("expected no report, got {other:?}"),
    };
    assert!(why.contains("not over"), "{why}");
}

#[test]
fn snapshots_follow_every_phase() {
    let src = include_str!("games/legal-game-solo-stronghold-victory.dgn");
    let game = engine::dgn::parse(src).unwrap_or_else(|e| panic!("{e}"));
    let opts = engine::replay::ReplayOptions {
        snapshots: true,
        ..Default::default()
    };
    let r = engine::replay::replay(&game, &opts);
    assert!(r.is_legal());
    // Setup, then turns 1 and 2 phase by phase; each snapshot serialises.
    assert!(r.phases.len() >= 10, "{} snapshots", r.phases.len());
    assert!(
        r.phases
            .windows(2)
            .all(|w| (w[0].turn, w[0].phase) <= (w[1].turn, w[1].phase))
    );
    let json = serde_json::to_string(&r.phases).unwrap_or_else(|e| panic!("{e}"));
    assert!(json.contains("\"control\""));
}

/// Every victory a legal fixture ends with (each kind of the Mentat Pause's order: the
/// prediction, a stronghold victory, the Ecaz alliance's three strongholds, the Fremen's, the
/// Guild's, the End Game) reaches the derived report as the winners' result, and nobody else's;
/// and `mentat standings` accepts that report.
#[test]
fn every_victory_reaches_the_derived_report() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/games");
    let mut kinds = std::collections::BTreeSet::new();
    let mut entries: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("tests/games: {e}"))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("legal-") && n.ends_with(".dgn"))
        })
        .collect();
    entries.sort();
    for path in entries {
        let src = std::fs::read_to_string(&path).unwrap_or_default();
        let Ok(game) = engine::dgn::parse(&src) else {
            continue;
        };
        let r = engine::replay::replay(&game, &engine::replay::ReplayOptions::default());
        let Some(w) = r.winner.clone() else { continue };
        let report = engine::game_report::derive_game_report(&game, &r)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        for seat in &report.seats {
            let expected = w.factions.contains(&seat.faction).then_some(w.kind);
            assert_eq!(
                seat.result,
                expected,
                "{}: {}",
                path.display(),
                seat.faction
            );
        }
        let json = engine::game_report::derive_report(&game, &r)
            .ok()
            .and_then(|rep| serde_json::to_string(&rep).ok())
            .unwrap_or_default();
        // Reports of tables the tournament would not seat (four players) are for the engine only.
        if report.seats.len() >= 5 {
            tournament::cli::standings(&json, None).unwrap_or_else(|e| {
                panic!(
                    "{}: mentat standings refuses the report: {e:?}",
                    path.display()
                )
            });
        }
        kinds.insert(w.kind);
    }
    // Complete fixtures end with stronghold victories, Solo and Allied (the Ecaz alliance's
    // three strongholds among them); the others' logs stop at their Mentat Pause.
    for k in [
        dune::WinType::SoloStronghold,
        dune::WinType::AlliedStronghold,
    ] {
        assert!(
            kinds.contains(&k),
            "no legal fixture ends with {k:?}: {kinds:?}"
        );
    }
}
