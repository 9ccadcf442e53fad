//! The rulebook's own examples (001 4.01.10, 4.01.11) and the worked examples of
//! rules-catalogue.md §c, through the typed library API.

mod common;

use common::*;
use tournament::report::Ending;
use tournament::standings::{GameComponent, StandingRow};
use tournament::{
    Category, Faction::*, OrderReason, Points, TableFallback, WinType::*, standings, validate,
};

fn row<'a>(rows: &'a [StandingRow], player: &str) -> &'a StandingRow {
    rows.iter()
        .find(|r| r.record.player.as_str() == player)
        .expect("player in standings")
}

fn position(rows: &[StandingRow], player: &str) -> usize {
    rows.iter()
        .position(|r| r.record.player.as_str() == player)
        .expect("player in standings")
}

/// 4.01.10: Solo Stronghold + Allied Default (4 points) goes through ahead of two Allied
/// Stronghold Victories (4 points).
#[test]
fn rule_4_01_10_weighting_example() {
    let mut t1 = vec![seat(
        "X",
        Atreides,
        None,
        Some(SoloStronghold),
        [3, 3, 10, 5, 2, 4],
    )];
    t1.extend(fillers(1, 1, &[BeneGesserit, Emperor, Fremen, Harkonnen]));
    let mut t2 = vec![
        seat(
            "Y",
            Harkonnen,
            Some(Emperor),
            Some(AlliedStronghold),
            [9, 3, 20, 30, 8, 5],
        ),
        seat(
            "Y's ally 1",
            Emperor,
            Some(Harkonnen),
            Some(AlliedStronghold),
            [0, 1, 1, 0, 0, 1],
        ),
    ];
    t2.extend(fillers(
        1,
        2,
        &[Atreides, BeneGesserit, Fremen, SpacingGuild],
    ));
    let mut t3 = vec![
        seat(
            "X",
            SpacingGuild,
            Some(Atreides),
            Some(AlliedDefault),
            [0, 0, 5, 5, 1, 4],
        ),
        seat(
            "X's ally",
            Atreides,
            Some(SpacingGuild),
            Some(AlliedDefault),
            [0, 0, 1, 0, 0, 1],
        ),
    ];
    t3.extend(fillers(2, 1, &[BeneGesserit, Emperor, Fremen]));
    let mut t4 = vec![
        seat(
            "Y",
            Atreides,
            Some(Fremen),
            Some(AlliedStronghold),
            [9, 3, 20, 30, 8, 5],
        ),
        seat(
            "Y's ally 2",
            Fremen,
            Some(Atreides),
            Some(AlliedStronghold),
            [0, 1, 1, 0, 0, 1],
        ),
    ];
    t4.extend(fillers(2, 2, &[BeneGesserit, Emperor, Harkonnen]));
    let report = report(vec![
        game(1, 1, Ending::Win, t1),
        game(1, 2, Ending::Win, t2),
        game(2, 1, Ending::Turns, t3),
        game(2, 2, Ending::Win, t4),
    ]);
    let valid = validate(&report).unwrap();
    let s = standings(&valid, 6);
    assert_eq!(s.rows[0].record.player.as_str(), "X");
    assert_eq!(s.rows[1].record.player.as_str(), "Y");
    assert_eq!(s.rows[0].record.points, Points::from_halves(8));
    assert_eq!(s.rows[1].record.points, Points::from_halves(8));
    assert_eq!(s.rows[0].reason, Some(OrderReason::WinType(SoloStronghold)));
    assert_eq!(
        s.rows[0].reason.unwrap().to_string(),
        "same points; more Solo Stronghold Victories (4.01.10)"
    );
    assert_eq!((s.rows[0].rank, s.rows[1].rank), (1, 2));
}

/// 4.01.11: A's best game 2.2.3.8.12.3.3 against B's 2.4.2.2.4.2.1; B goes through on win
/// attempts, whatever A's later categories.
#[test]
fn rule_4_01_11_a_versus_b_example() {
    let mut t1 = vec![
        seat(
            "A",
            Atreides,
            Some(Harkonnen),
            Some(AlliedStronghold),
            [2, 3, 8, 12, 3, 3],
        ),
        seat(
            "A's ally",
            Harkonnen,
            Some(Atreides),
            Some(AlliedStronghold),
            [0, 1, 0, 0, 0, 0],
        ),
    ];
    t1.extend(fillers(1, 1, &[BeneGesserit, Emperor, Fremen]));
    let mut t2 = vec![
        seat(
            "B",
            Atreides,
            Some(Harkonnen),
            Some(AlliedStronghold),
            [4, 2, 2, 4, 2, 1],
        ),
        seat(
            "B's ally",
            Harkonnen,
            Some(Atreides),
            Some(AlliedStronghold),
            [0, 2, 0, 0, 0, 0],
        ),
    ];
    t2.extend(fillers(1, 2, &[BeneGesserit, Emperor, Fremen]));
    let valid = validate(&report(vec![
        game(1, 1, Ending::Win, t1),
        game(1, 2, Ending::Win, t2),
    ]))
    .unwrap();
    let s = standings(&valid, 1);
    assert_eq!(s.rows[0].record.player.as_str(), "B");
    assert_eq!(s.rows[1].record.player.as_str(), "A");
    assert_eq!(
        s.rows[0].reason,
        Some(OrderReason::Game {
            game: 0,
            component: GameComponent::Category(Category::WinAttempts)
        })
    );
    assert_eq!(
        s.rows[0].reason.unwrap().to_string(),
        "same points and wins; best game: more win attempts (4.01.11.01, ruling 11)"
    );
    let score = |p: &str| {
        let g = row(&s.rows, p).record.best_game().unwrap().score();
        (g.0.as_f64(), g.1)
    };
    assert_eq!(score("A"), (2.0, [2, 3, 8, 12, 3, 3]));
    assert_eq!(score("B"), (2.0, [4, 2, 2, 4, 2, 1]));
    assert_eq!(s.rows[0].finalist, Some(true));
    assert_eq!(s.rows[1].finalist, Some(false));
}

/// rules-catalogue c.8: HK (3 attempts, allied with EM) and AT (3) tie on strongholds (1 + 1
/// against 2) and HK's alliance wins on forces (8 + 9 against 12); EM wins too.
#[test]
fn catalogue_c8_adjudication_example() {
    let seats = vec![
        seat("at", Atreides, None, None, [3, 2, 12, 5, 2, 4]),
        seat("hk", Harkonnen, Some(Emperor), None, [3, 1, 8, 3, 1, 3]),
        seat("em", Emperor, Some(Harkonnen), None, [1, 1, 9, 4, 2, 5]),
        seat("sg", SpacingGuild, None, None, [2, 0, 10, 1, 1, 5]),
        seat("fr", Fremen, None, None, [0, 0, 14, 2, 1, 5]),
        seat("bg", BeneGesserit, None, None, [1, 0, 3, 9, 4, 5]),
    ];
    let valid = validate(&report(vec![game(1, 1, Ending::Time, seats)])).unwrap();
    let g = &valid.games()[0];
    assert_eq!(
        g.results(),
        [None, Some(Adjudicated), Some(Adjudicated), None, None, None]
    );
    let adj = g.adjudication().unwrap();
    assert_eq!(
        adj.decided_by,
        tournament::adjudication::Decision::Category(Category::Forces)
    );
    let s = standings(&valid, 6);
    assert_eq!(row(&s.rows, "hk").record.points, Points::from_halves(1));
    assert_eq!(row(&s.rows, "em").record.points, Points::from_halves(1));
}

/// rules-catalogue c.9: seven players over three games; order P7, P1, P2, P4, P5, P3, P6.
#[test]
fn catalogue_c9_fuller_example() {
    let mut games = Vec::new();
    let mut table_in_round = [0u32; 4];
    let mut add = |round: usize, player: &str, kind: &str| {
        table_in_round[round] += 1;
        let r = round as u32;
        let t = table_in_round[round];
        let p = player;
        let (ended, seats) = match kind {
            "SSH" => {
                let mut s = vec![seat(
                    p,
                    Atreides,
                    None,
                    Some(SoloStronghold),
                    [1, 3, 5, 5, 2, 3],
                )];
                s.extend(fillers(r, t, &[BeneGesserit, Emperor, Fremen, Harkonnen]));
                (Ending::Win, s)
            }
            "BGP" => {
                let mut s = vec![seat(
                    p,
                    BeneGesserit,
                    None,
                    Some(BgPrediction),
                    [1, 1, 5, 5, 2, 3],
                )];
                s.extend(fillers(r, t, &[Atreides, Emperor, Fremen, Harkonnen]));
                (Ending::Win, s)
            }
            "ASH" => {
                let mut s = vec![
                    seat(
                        p,
                        Atreides,
                        Some(Harkonnen),
                        Some(AlliedStronghold),
                        [1, 2, 5, 5, 2, 3],
                    ),
                    seat(
                        &format!("r{r}t{t}-ally"),
                        Harkonnen,
                        Some(Atreides),
                        Some(AlliedStronghold),
                        [0, 2, 1, 0, 0, 1],
                    ),
                ];
                s.extend(fillers(r, t, &[BeneGesserit, Emperor, Fremen]));
                (Ending::Win, s)
            }
            "ADJ" => {
                let mut s = vec![seat(p, Atreides, None, None, [5, 1, 5, 5, 2, 3])];
                s.extend(fillers(r, t, &[BeneGesserit, Emperor, Fremen, Harkonnen]));
                (Ending::Time, s)
            }
            "EG" => {
                let mut s = vec![seat(p, Atreides, None, Some(EndGame), [1, 2, 5, 5, 2, 3])];
                s.extend(fillers(r, t, &[BeneGesserit, Emperor, Harkonnen]));
                (Ending::Turns, s)
            }
            "SDV" => {
                let mut s = vec![seat(
                    p,
                    SpacingGuild,
                    None,
                    Some(SoloDefault),
                    [1, 1, 5, 5, 2, 3],
                )];
                s.extend(fillers(r, t, &[Atreides, BeneGesserit, Emperor, Harkonnen]));
                (Ending::Turns, s)
            }
            "ADV" => {
                let mut s = vec![
                    seat(
                        p,
                        SpacingGuild,
                        Some(Atreides),
                        Some(AlliedDefault),
                        [1, 1, 5, 5, 2, 3],
                    ),
                    seat(
                        &format!("r{r}t{t}-ally"),
                        Atreides,
                        Some(SpacingGuild),
                        Some(AlliedDefault),
                        [0, 0, 1, 0, 0, 1],
                    ),
                ];
                s.extend(fillers(r, t, &[BeneGesserit, Emperor, Harkonnen]));
                (Ending::Turns, s)
            }
            _ => {
                // No win for the player: a filler wins solo.
                let mut s = vec![seat(p, Atreides, None, None, [0, 0, 5, 5, 2, 3])];
                s.push(seat(
                    &format!("r{r}t{t}-winner"),
                    Harkonnen,
                    None,
                    Some(SoloStronghold),
                    [1, 3, 5, 0, 0, 1],
                ));
                s.extend(fillers(r, t, &[BeneGesserit, Emperor, Fremen]));
                (Ending::Win, s)
            }
        };
        games.push(game(r, t, ended, seats));
    };
    let plan = [
        ("P1", ["SSH", "-", "-"]),
        ("P2", ["BGP", "-", "-"]),
        ("P3", ["ASH", "ADJ", "ADJ"]),
        ("P4", ["ASH", "EG", "-"]),
        ("P5", ["ASH", "ADV", "-"]),
        ("P6", ["EG", "SDV", "ADV"]),
        ("P7", ["ASH", "ASH", "-"]),
    ];
    for (player, results) in plan {
        for (round, kind) in results.iter().enumerate() {
            add(round + 1, player, kind);
        }
    }
    let mut report = report(games);
    // End Game needs a table without Guild and Fremen: a 4-player table (ruling 1, ruling 7).
    report.options.table_fallback = TableFallback::FourPlayerTables;
    let valid = validate(&report).unwrap();
    let s = standings(&valid, 6);
    let order: Vec<&str> = ["P7", "P1", "P2", "P4", "P5", "P3", "P6"].to_vec();
    let positions: Vec<usize> = order.iter().map(|p| position(&s.rows, p)).collect();
    assert!(positions.windows(2).all(|w| w[0] < w[1]), "{positions:?}");
    assert_eq!(row(&s.rows, "P7").record.points, Points::from_halves(8));
    for p in &order[1..] {
        assert_eq!(row(&s.rows, p).record.points, Points::from_halves(6), "{p}");
    }
    // P4 over P5: the first difference is P4's End Game (rank 6) against nothing.
    let p4 = &s.rows[position(&s.rows, "P4")];
    let next = &s.rows[position(&s.rows, "P4") + 1];
    assert_eq!(next.record.player.as_str(), "P5");
    assert_eq!(p4.reason, Some(OrderReason::WinType(EndGame)));
}

/// During an event: a registered player without a counted game is listed last with 0 points,
/// and a dropped player keeps their place in the list but passes their finals seat on.
#[test]
fn entrants_without_games_are_listed_and_ineligible_players_pass_their_seat_on() {
    let mut t1 = vec![seat(
        "Winner",
        Atreides,
        None,
        Some(SoloStronghold),
        [3, 3, 10, 5, 2, 4],
    )];
    t1.extend(fillers(1, 1, &[BeneGesserit, Emperor, Fremen, Harkonnen]));
    let valid = validate(&report(vec![game(1, 1, Ending::Win, t1)])).expect("valid");
    let entrants = [name("Winner"), name("Late Larry")];
    let standings =
        tournament::standings::compute_for(&valid, &entrants, 1, |p| p.as_str() != "Winner");
    let last = standings.rows.last().unwrap();
    assert_eq!(last.record.player.as_str(), "Late Larry");
    assert_eq!(last.record.points, Points::ZERO);
    assert!(last.record.games.is_empty());
    assert_eq!(standings.rows.len(), 6);
    // The winner ranks first but has dropped: the one seat goes to the next eligible player,
    // and the four fillers tied on zeros share it (a cut tie).
    assert_eq!(standings.rows[0].record.player.as_str(), "Winner");
    assert_eq!(standings.rows[0].finalist, Some(false));
    assert!(standings.finals.finalists.is_empty());
    let tie = standings.finals.cut_tie.expect("the fillers are tied");
    assert_eq!(tie.open_seats, 1);
    assert!(!tie.players.iter().any(|p| p.as_str() == "Winner"));
}
