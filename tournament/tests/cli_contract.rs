//! The command-line contract (docs/cli.md) through `tournament::cli`: golden JSON, byte-identical
//! reruns, and error messages that name the round, table, player and field.
//!
//! Golden files live in tests/data; after an intended contract change, regenerate them with
//! `MENTAT_BLESS=1 cargo test -p tournament --test cli_contract` and review the diff.

mod common;

use std::path::PathBuf;

use common::*;
use tournament::cli::{self, CliError};
use tournament::report::Ending;
use tournament::{Faction::*, WinType::*};

fn data(file: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(file)
}

fn golden(file: &str, actual: &str) {
    let path = data(file);
    if std::env::var_os("MENTAT_BLESS").is_some() {
        std::fs::write(&path, format!("{actual}\n")).expect("write golden file");
        return;
    }
    let expected = std::fs::read_to_string(&path).expect("golden file exists");
    assert_eq!(
        actual,
        expected.trim_end(),
        "output differs from {}",
        path.display()
    );
}

fn players(n: usize) -> String {
    (1..=n).map(|i| format!("Player {i}\n")).collect()
}

fn err_text(result: Result<String, CliError>) -> String {
    let err = result.expect_err("input must be refused");
    assert_eq!(err.exit_code(), 2);
    err.to_string()
}

#[test]
fn tables_prints_a_json_array() {
    assert_eq!(cli::tables("17").unwrap(), "[6,6,5]");
    assert_eq!(cli::tables(" 12\n").unwrap(), "[6,6]");
    assert_eq!(cli::tables("25").unwrap(), "[5,5,5,5,5]");
}

#[test]
fn tables_refuses_impossible_counts_with_ruling_1_options() {
    let text = err_text(cli::tables("13"));
    assert!(text.starts_with("13 players cannot be split into tables of 6 and 5 (4.01.01)"));
    assert!(text.contains("ruling 1"), "{text}");
    assert!(text.contains("1. alternates: add 2 alternates to make 15 players, tables [5,5,5]"));
    assert!(
        text.contains("2. 4-player tables: tables [5,4,4]"),
        "{text}"
    );
    assert!(text.contains("3. byes: 1 player, picked by the head judge, sits out (0 points, no game), tables [6,6]"), "{text}");
    for bad in ["", "x", "-3", "6.5", "99999999999999999999999"] {
        assert!(
            err_text(cli::tables(bad)).contains("not a number of players"),
            "{bad:?}"
        );
    }
    assert_eq!(err_text(cli::tables("0")), "there are no players to seat");
}

#[test]
fn draw_golden_and_byte_identical() {
    let twelve = players(12);
    let first = cli::draw(42, "gc-2.13.3", &twelve, None).unwrap();
    golden("draw_gc_seed42.json", &first);
    assert_eq!(cli::draw(42, "gc-2.13.3", &twelve, None).unwrap(), first);
    // The input order of names does not matter; the seed does.
    let reversed: String = twelve.lines().rev().map(|l| format!("{l}\r\n")).collect();
    assert_eq!(cli::draw(42, "gc-2.13.3", &reversed, None).unwrap(), first);
    assert_ne!(cli::draw(43, "gc-2.13.3", &twelve, None).unwrap(), first);

    let history = format!("[{first}]");
    let second = cli::draw(43, "full", &twelve, Some(&history)).unwrap();
    golden("draw_full_seed43_after_42.json", &second);
    assert_eq!(
        cli::draw(43, "full", &twelve, Some(&history)).unwrap(),
        second
    );
    // 12 players over two rounds: 12 repeated pairs, and that is proven optimal.
    assert!(second.contains(
        r#""quality":{"repeat_pairs":12,"cost":12,"lower_bound":12,"proven_optimal":true"#
    ));
    assert!(second.contains(r#""offered":["#) && second.contains(r#""faction":null"#));
}

#[test]
fn draw_errors_name_the_line_or_field() {
    let text = err_text(cli::draw(1, "gc-2.13.3", "Alice\nBob\nAlice\n", None));
    assert_eq!(text, "players, line 3: Alice is already on line 1");
    let text = err_text(cli::draw(1, "classic", &players(12), None));
    assert!(text.contains("unknown ruleset \"classic\""), "{text}");
    let text = err_text(cli::draw(1, "gc-2.13.3", &players(8), None));
    assert!(
        text.contains("8 players cannot be split") && text.contains("tables [4,4]"),
        "{text}"
    );
    let text = err_text(cli::draw(1, "gc-2.13.3", &players(12), Some("{}")));
    assert!(
        text.starts_with("history: must be a list of earlier `mentat draw` outputs"),
        "{text}"
    );
    let text = err_text(cli::draw(1, "gc-2.13.3", &players(12), Some("[nope")));
    assert!(text.starts_with("history: not valid JSON"), "{text}");
    let history = r#"[{"tables":[{"seats":[{"player":"Player 1"},{"faction":"AT"}]}]}]"#;
    let text = err_text(cli::draw(1, "gc-2.13.3", &players(12), Some(history)));
    assert_eq!(
        text,
        "history, earlier round 1, table 1, seat 2, field player: is missing"
    );
    let history = r#"[{"tables":[{"seats":[{"player":"Player 1","faction":"XX"}]}]}]"#;
    let text = err_text(cli::draw(1, "gc-2.13.3", &players(12), Some(history)));
    assert!(
        text.starts_with(
            "history, earlier round 1, table 1, seat 1, field faction: unknown faction \"XX\""
        ),
        "{text}"
    );
    let history =
        r#"[{"tables":[{"seats":[{"player":"Player 1"}]},{"seats":[{"player":"Player 1"}]}]}]"#;
    let text = err_text(cli::draw(1, "gc-2.13.3", &players(12), Some(history)));
    assert_eq!(
        text,
        "earlier round 1: Player 1 sits at table 1 and again at table 2"
    );
}

#[test]
fn history_with_recorded_full_picks_avoids_repeats() {
    let twelve = players(12);
    let first = cli::draw(7, "full", &twelve, None).unwrap();
    // The judge records each pick: here everyone took the classic card.
    let mut round: serde_json::Value = serde_json::from_str(&first).unwrap();
    for table in round["tables"].as_array_mut().unwrap() {
        for seat in table["seats"].as_array_mut().unwrap() {
            seat["faction"] = seat["offered"][0].clone();
        }
    }
    let history = serde_json::to_string(&vec![round]).unwrap();
    let second = cli::draw(8, "full", &twelve, Some(&history)).unwrap();
    assert!(second.contains(r#""repeat_factions":0"#), "{second}");
}

#[test]
fn standings_golden() {
    let report = std::fs::read_to_string(data("report.json")).unwrap();
    let out = cli::standings(&report, Some(2)).unwrap();
    golden("standings_report.json", &out);
    assert!(out.contains(r#"{"rank":2,"player":"Alice","points":2.0,"wins":{"ASH":1},"best_game":[2,2,3,8,12,3,3],"finalist":true,"tie":false,"#));
    assert!(out.contains(r#""decided_by":"forces""#));
    // --finals absent: the report's options decide, 6 by default.
    let default = cli::standings(&report, None).unwrap();
    assert!(default.contains(r#""finals":{"seats":6,"#));
}

#[test]
fn standings_of_the_4_01_10_example() {
    let mut t1 = vec![seat(
        "Solo",
        Atreides,
        None,
        Some(SoloStronghold),
        [3, 3, 8, 12, 3, 3],
    )];
    t1.extend(fillers(1, 1, &[BeneGesserit, Emperor, Fremen, Harkonnen]));
    let mut t2 = vec![
        seat(
            "Allied",
            Harkonnen,
            Some(Emperor),
            Some(AlliedStronghold),
            [4, 2, 9, 9, 4, 5],
        ),
        seat(
            "Ally 1",
            Emperor,
            Some(Harkonnen),
            Some(AlliedStronghold),
            [0, 2, 0, 0, 0, 0],
        ),
    ];
    t2.extend(fillers(1, 2, &[Atreides, BeneGesserit, Fremen]));
    let mut t3 = vec![
        seat(
            "Solo",
            SpacingGuild,
            Some(Atreides),
            Some(AlliedDefault),
            [0, 0, 5, 5, 1, 4],
        ),
        seat(
            "Ally 2",
            Atreides,
            Some(SpacingGuild),
            Some(AlliedDefault),
            [0, 0, 0, 0, 0, 0],
        ),
    ];
    t3.extend(fillers(2, 1, &[BeneGesserit, Emperor, Fremen]));
    let mut t4 = vec![
        seat(
            "Allied",
            Atreides,
            Some(Fremen),
            Some(AlliedStronghold),
            [4, 2, 9, 9, 4, 5],
        ),
        seat(
            "Ally 3",
            Fremen,
            Some(Atreides),
            Some(AlliedStronghold),
            [0, 2, 0, 0, 0, 0],
        ),
    ];
    t4.extend(fillers(2, 2, &[BeneGesserit, Emperor, Harkonnen]));
    let report = report(vec![
        game(1, 1, Ending::Win, t1),
        game(1, 2, Ending::Win, t2),
        game(2, 1, Ending::Turns, t3),
        game(2, 2, Ending::Win, t4),
    ]);
    let json = serde_json::to_string(&report).unwrap();
    let out = cli::standings(&json, None).unwrap();
    assert!(out.starts_with(
        r#"{"ruleset":"gc-2.13.3","standings":[{"rank":1,"player":"Solo","points":4.0,"wins":{"SSH":1,"ADV":1},"best_game":[3,3,3,8,12,3,3],"finalist":true,"tie":false,"reason":"same points; more Solo Stronghold Victories (4.01.10)"},{"rank":2,"player":"Allied","points":4.0,"wins":{"ASH":2},"#
    ), "{out}");
}

/// Each broken report is refused with exit code 2 and a message naming where the problem is.
#[test]
fn standings_errors_name_round_table_player_and_field() {
    let base = std::fs::read_to_string(data("report.json")).unwrap();
    let cases: &[(&str, &str, &str)] = &[
        (
            r#""ally":"HK","result":"ASH","win_attempts":2"#,
            r#""ally":null,"result":"ASH","win_attempts":2"#,
            "round 1, table 1, player Alice, field result: ASH (Allied Stronghold Victory) needs an ally; an unallied winner scores SSH (4.01.10, ruling 7)",
        ),
        (
            r#""forces":8,"spice":12"#,
            r#""forces":25,"spice":12"#,
            "round 1, table 1, player Alice, field forces: 25 forces on the board is more than the possible 20 (a faction has 20 forces; 4.01.11.03)",
        ),
        (
            r#""spice":12,"#,
            r#""spice":-3,"#,
            "round 1, table 1, player Alice, field spice: must be a whole number from 0 up, not -3",
        ),
        (
            r#""strongholds":3,"forces":8"#,
            r#""strongholds":7,"forces":8"#,
            "round 1, table 1, player Alice, field strongholds: 7 strongholds controlled is more than the possible 6",
        ),
        (
            r#""player":"Carol","faction":"EM","ally":"FR","result":null"#,
            r#""player":"Carol","faction":"EM","ally":"FR","result":"ASH""#,
            "round 2, table 1, player Carol, field result: result ASH on a game stopped by the clock",
        ),
        (
            r#""player":"Bob","faction":"HK","ally":"AT""#,
            r#""player":"Bob","faction":"HK","ally":"EM""#,
            "round 1, table 1, player Alice, field ally: ally HK (Bob) names EM as ally, not AT; an alliance is mutual (1.10)",
        ),
        (
            r#""player":"Bob","faction":"HK","ally":"AT""#,
            r#""player":"Bob","faction":"HK","ally":"SG""#,
            "round 1, table 1, player Bob, field ally: ally SG is not played at this table (1.10)",
        ),
        (
            r#""player":"Carol","faction":"BG""#,
            r#""player":"Carol","faction":"AT""#,
            "round 1, table 1, player Carol, field faction: AT is also played by Alice; each faction sits once per table (0.08)",
        ),
        (
            r#""player":"Carol","faction":"BG""#,
            r#""player":"Carol","faction":"IX""#,
            "round 1, table 1, player Carol, field faction: IX (Ixians) is not a faction of ruleset gc-2.13.3",
        ),
        (
            r#""player":"Carol","faction":"BG","ally":null,"result":null"#,
            r#""player":"Carol","faction":"BG","ally":null,"result":"SSH""#,
            "round 1, table 1, player Carol, field result: SSH here but ASH for Alice; a table has one kind of win (1.09)",
        ),
        (
            r#""player":"Erin","faction":"FR""#,
            r#""player":"Erin","faction":"FR","alley":"AT""#,
            "round 1, table 1, player Erin, field alley: unknown field",
        ),
        (
            r#","leaders":3}"#,
            "}",
            "round 1, table 1, player Alice, field leaders: is missing",
        ),
        (
            r#""round":2,"table":1,"ended":"time""#,
            r#""round":2,"table":1,"ended":"clock""#,
            "round 2, table 1, field ended: must be \"win\", \"time\" or \"turns\", not \"clock\"",
        ),
        (
            r#""round":2,"table":1"#,
            r#""round":1,"table":2"#,
            "round 1, table 2, player Alice, field player: the player also sits at table 1 in this round",
        ),
        (
            r#""round":2,"table":1"#,
            r#""round":1,"table":1"#,
            "round 1, table 1, field table: this round and table is reported twice",
        ),
        (
            r#""ASH","win_attempts":1"#,
            r#""SSH","win_attempts":1"#,
            "round 1, table 1, player Bob, field result: SSH here but ASH for Alice",
        ),
        (
            r#"{"ruleset":"gc-2.13.3","#,
            r#"{"ruleset":"gc-2.13.3","options":{"five_player_empty_circle":1},"#,
            "report, field options: five_player_empty_circle = 1",
        ),
        (
            r#"{"ruleset":"gc-2.13.3","#,
            r#"{"ruleset":"gc-2.13.3","options":{"finals":4},"#,
            "report, field options: unknown field `finals`",
        ),
        (
            r#"{"ruleset":"gc-2.13.3","#,
            r#"{"ruleset":"gc-2.13.4","#,
            "report, field ruleset: unknown ruleset \"gc-2.13.4\"",
        ),
    ];
    for (from, to, expected) in cases {
        assert!(base.contains(from), "fixture lacks {from}");
        let broken = base.replacen(from, to, 1);
        let text = err_text(cli::standings(&broken, None));
        assert!(
            text.lines().any(|line| line.starts_with(expected)),
            "\n got: {text}\nwant: {expected}"
        );
    }
}

#[test]
fn every_problem_is_listed_not_just_the_first() {
    let base = std::fs::read_to_string(data("report.json")).unwrap();
    let broken = base
        .replacen(r#""forces":8,"#, r#""forces":21,"#, 1)
        .replacen(r#""cards":4,"#, r#""cards":9,"#, 1);
    let text = err_text(cli::standings(&broken, None));
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert!(lines[0].starts_with("round 1, table 1, player Alice, field forces"));
    assert!(lines[1].starts_with("round 2, table 1, player Erin, field cards"));
}

#[test]
fn standings_json_syntax_errors() {
    assert!(err_text(cli::standings("", None)).starts_with("report: not valid JSON"));
    assert!(err_text(cli::standings("[]", None)).starts_with("report: must be an object"));
    assert_eq!(
        err_text(cli::standings("{}", None)),
        "report, field games: is missing"
    );
    let deep = "[".repeat(10_000);
    assert!(err_text(cli::standings(&deep, None)).starts_with("report: not valid JSON"));
}

#[test]
fn a_tie_across_the_cut_line_is_reported() {
    // Two identical players at two tables, both Solo Stronghold winners with the same values.
    let mut t1 = vec![seat(
        "Twin A",
        Atreides,
        None,
        Some(SoloStronghold),
        [2, 3, 5, 5, 2, 3],
    )];
    t1.extend(fillers(1, 1, &[BeneGesserit, Emperor, Fremen, Harkonnen]));
    let mut t2 = vec![seat(
        "Twin B",
        Atreides,
        None,
        Some(SoloStronghold),
        [2, 3, 5, 5, 2, 3],
    )];
    t2.extend(fillers(1, 2, &[BeneGesserit, Emperor, Fremen, Harkonnen]));
    let json = serde_json::to_string(&report(vec![
        game(1, 1, Ending::Win, t1),
        game(1, 2, Ending::Win, t2),
    ]))
    .unwrap();
    let out = cli::standings(&json, Some(1)).unwrap();
    assert!(out.contains(r#"{"rank":1,"player":"Twin A","points":3.0,"wins":{"SSH":1},"best_game":[3,2,3,5,5,2,3],"finalist":null,"tie":true,"reason":"tied on points, wins and every game; the head judge settles it by a recorded draw (ruling 11)"}"#), "{out}");
    assert!(out.contains(r#"{"rank":1,"player":"Twin B","#), "{out}");
    assert!(out.contains(r#""finals":{"seats":1,"finalists":[],"cut_tie":{"players":["Twin A","Twin B"],"open_seats":1}}"#), "{out}");
}
