//! The `mentat` binary as an organiser meets it.

use std::process::Command;

fn mentat() -> Command {
    Command::new(env!("CARGO_BIN_EXE_mentat"))
}

#[test]
fn help_lists_the_subcommands() {
    let out = mentat().arg("--help").output().expect("runs");
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    for command in ["serve", "migrate"] {
        assert!(text.contains(command), "--help lacks {command}: {text}");
    }
}

#[test]
fn serving_without_a_database_explains_what_to_do() {
    let out = mentat()
        .arg("serve")
        .env_remove("DATABASE_URL")
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stderr);
    assert!(text.contains("DATABASE_URL is not set"), "{text}");
    assert!(!text.contains("panicked"), "{text}");
}

#[test]
fn an_unreachable_database_fails_cleanly() {
    let out = mentat()
        .arg("migrate")
        .env(
            "DATABASE_URL",
            "postgres://mentat:secret@127.0.0.1:1/mentat",
        )
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stderr);
    assert!(text.contains("could not reach PostgreSQL"), "{text}");
    assert!(!text.contains("secret"), "{text}");
    assert!(!text.contains("panicked"), "{text}");
}

#[test]
fn an_unknown_subcommand_is_a_usage_error() {
    let out = mentat().arg("frobnicate").output().expect("runs");
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn tables_prints_the_split_or_refuses_with_the_options() {
    let out = mentat().args(["tables", "17"]).output().expect("runs");
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "[6,6,5]");
    let out = mentat().args(["tables", "8"]).output().expect("runs");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("4.01.01") && err.contains("alternates"),
        "{err}"
    );
}

#[test]
fn draw_is_reproducible_from_its_seed() {
    let dir = std::env::temp_dir().join(format!("mentat-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let players = dir.join("players.txt");
    let names: Vec<String> = (1..=11).map(|i| format!("Player {i}")).collect();
    std::fs::write(&players, names.join("\n")).expect("write");
    let run = |seed: &str| {
        let out = mentat()
            .args(["draw", "--seed", seed])
            .arg(&players)
            .output()
            .expect("runs");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        out.stdout
    };
    let first = run("42");
    assert_eq!(first, run("42"), "same seed, same bytes");
    assert_ne!(first, run("43"), "another seed, another draw");
    let json: serde_json::Value = serde_json::from_slice(&first).expect("JSON");
    let seats: usize = json["tables"]
        .as_array()
        .expect("tables")
        .iter()
        .map(|t| t["seats"].as_array().map_or(0, Vec::len))
        .sum();
    assert_eq!(seats, 11);
    let missing = mentat()
        .args(["draw", "--seed", "1"])
        .arg(dir.join("missing.txt"))
        .output()
        .expect("runs");
    assert_eq!(missing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("missing.txt"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn standings_reads_reports_from_standard_input() {
    use std::io::Write;
    let report = r#"{"ruleset":"gc-2.13.3","games":[{"round":1,"table":1,"ended":"win","seats":[
        {"player":"Ann","faction":"AT","ally":null,"result":"SSH","win_attempts":2,"strongholds":3,"forces":10,"spice":5,"cards":2,"leaders":4},
        {"player":"Ben","faction":"BG","ally":null,"result":null,"win_attempts":0,"strongholds":1,"forces":6,"spice":9,"cards":3,"leaders":5},
        {"player":"Cal","faction":"EM","ally":null,"result":null,"win_attempts":0,"strongholds":0,"forces":8,"spice":20,"cards":4,"leaders":5},
        {"player":"Dee","faction":"FR","ally":null,"result":null,"win_attempts":1,"strongholds":1,"forces":12,"spice":3,"cards":1,"leaders":3},
        {"player":"Eli","faction":"HK","ally":null,"result":null,"win_attempts":0,"strongholds":0,"forces":5,"spice":2,"cards":4,"leaders":2}]}]}"#;
    let mut child = mentat()
        .args(["standings", "--finals", "2", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("runs");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(report.as_bytes())
        .expect("write");
    let out = child.wait_with_output().expect("finishes");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(json["standings"][0]["player"], "Ann");
    assert_eq!(json["standings"][0]["points"], 3.0);
    assert_eq!(json["standings"][0]["finalist"], true);
}

#[test]
fn replay_reports_legal_illegal_and_unreadable_logs_with_their_exit_codes() {
    let games = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../engine/tests/games");
    let mut names: Vec<String> = std::fs::read_dir(&games)
        .expect("fixtures")
        .filter_map(|e| e.ok().map(|e| e.file_name().to_string_lossy().into_owned()))
        .collect();
    names.sort();
    let legal = names
        .iter()
        .find(|n| n.starts_with("legal-"))
        .expect("a legal fixture");
    let out = mentat()
        .arg("replay")
        .arg(games.join(legal))
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(0), "{legal}");
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("OK"));

    let illegal = names
        .iter()
        .find(|n| n.starts_with("illegal-1."))
        .expect("an illegal fixture");
    let rule = illegal
        .trim_start_matches("illegal-")
        .split('-')
        .next()
        .expect("rule");
    let out = mentat()
        .args(["replay", "--json"])
        .arg(games.join(illegal))
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1), "{illegal}");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(json["ok"], false);
    assert_eq!(json["violations"][0]["rule"], rule, "{illegal}");

    let dir = std::env::temp_dir().join(format!("mentat-replay-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let garbled = dir.join("garbled.dgn");
    std::fs::write(&garbled, "T1\nSTORM ???\n").expect("write");
    let out = mentat()
        .args(["replay", "--parse-only"])
        .arg(&garbled)
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stdout).contains("line 2, column 1"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn replay_derives_the_game_report_that_standings_reads() {
    let game = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../engine/tests/games/legal-ten-turn-six-factions.dgn");
    let out = mentat()
        .args(["replay", "--report"])
        .arg(&game)
        .output()
        .expect("runs");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(report["games"][0]["ended"], "turns");
    let dir = std::env::temp_dir().join(format!("mentat-report-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("report.json");
    std::fs::write(&file, &out.stdout).expect("write");
    let out = mentat().arg("standings").arg(&file).output().expect("runs");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let standings: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(standings["standings"].as_array().map(Vec::len), Some(6));
    let _ = std::fs::remove_dir_all(&dir);
}
