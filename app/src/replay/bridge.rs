//! The engine on the server: a log in, the page's view of it out. Everything goes through the
//! engine's report JSON (`engine::report`), the same the command line prints for scripts.

use std::sync::OnceLock;
use std::time::Instant;

use dune::{Faction, Rule, WinType};
use engine::board::data::{CARDS, LEADERS, TERRITORIES, TerritoryKind};
use engine::game_report::derive_game_report;
use engine::replay::ReplayOptions;
use engine::report::{Outcome, replay_text_with, turn_json};
use engine::state::LeaderState;
use tournament::report::GameReport;

use super::json::{ReportJson, Tokens, TurnJson};
use super::map::{self, Area, AreaKind, BoardMap};
use super::suggest::{Vocabulary, Word, WordKind};
use super::{BoardTurn, Holding, PlaceState, Problem, Replayed, Verification};

/// Everything one replay gives the pages.
pub struct Analysis {
    pub replayed: Replayed,
    /// The leaders still alive where the log stops (in a pool, or back from a battle), by their
    /// short names: the editor suggests only these. `None` when the text is not DGN.
    pub alive: Option<Vec<String>>,
    /// The game report the engine derives from a finished game, or why it cannot.
    pub derived: Option<Result<GameReport, String>>,
}

/// Replays a log once for everything a page needs. `audit`: use sealed entries and show hidden
/// information (judges); otherwise public mode, as a player sees it. `phases`: keep the board at
/// the end of every phase too, for stepping through a turn.
pub fn analyse(text: &str, audit: bool, phases: bool) -> Analysis {
    let started = Instant::now();
    let options = ReplayOptions {
        audit,
        snapshots: phases,
    };
    let (json, phase_json, alive, derived) = match engine::dgn::parse(text) {
        Err(errors) => (
            Outcome::Unreadable(errors).to_json(),
            Vec::new(),
            None,
            None,
        ),
        Ok(game) => {
            let r = engine::replay::replay(&game, &options);
            let phase_json: Vec<serde_json::Value> = r.phases.iter().map(turn_json).collect();
            let alive = LEADERS
                .iter()
                .filter(|row| !matches!(r.state.leader(row.leader), LeaderState::Tanks { .. }))
                .map(|row| row.code.to_owned())
                .collect();
            let derived = derive_game_report(&game, &r).map_err(|e| e.to_string());
            (
                Outcome::Replayed(Box::new(r)).to_json(),
                phase_json,
                Some(alive),
                Some(derived),
            )
        }
    };
    let report: ReportJson = serde_json::from_str(&json).unwrap_or_default();
    let mut replayed = from_report(&report);
    replayed.phases = phase_json
        .into_iter()
        .filter_map(|v| serde_json::from_value::<TurnJson>(v).ok())
        .map(|t| board_turn(&t))
        .collect();
    replayed.audit = audit;
    replayed.verification.micros = u64::try_from(started.elapsed().as_micros()).unwrap_or(u64::MAX);
    Analysis {
        replayed,
        alive,
        derived,
    }
}

/// The replay alone (verification and the board after each turn).
pub fn replay(text: &str, audit: bool) -> Replayed {
    analyse(text, audit, false).replayed
}

/// The engine's report JSON for scripts (`mentat replay --json`), audit mode.
pub fn report_json(text: &str) -> String {
    replay_text_with(text, &ReplayOptions::default()).to_json()
}

pub fn from_report(report: &ReportJson) -> Replayed {
    let problems = if report.readable {
        report
            .violations
            .iter()
            .map(|v| {
                let cited = Rule::parse(&v.rule)
                    .ok()
                    .map(|r| dune::BookRule::new(v.book, r, v.edition));
                Problem {
                    line: v.line,
                    col: v.col,
                    heading: cited.and_then(rulebook::at).map(|e| e.heading.to_owned()),
                    rule: Some(cited.map_or_else(|| v.rule.clone(), |c| c.to_string())),
                    page: cited.map(|c| c.href()),
                    message: v.message.clone(),
                    context: Some(format!("turn {}, {}", v.turn, v.phase)),
                }
            })
            .collect()
    } else {
        report
            .errors
            .iter()
            .map(|e| Problem {
                line: e.line,
                col: e.col,
                rule: None,
                page: None,
                heading: None,
                message: format!("Expected {}, found {}.", e.expected, e.found),
                context: None,
            })
            .collect()
    };
    let winner = report.winner.as_ref().map(|w| {
        let kind = w.kind.as_str().unwrap_or_default();
        let name = WinType::from_code(kind).map_or(kind.to_owned(), |t| t.name().to_owned());
        format!("{} ({name}) in turn {}", w.factions.join(" + "), w.turn)
    });
    Replayed {
        verification: Verification {
            readable: report.readable,
            legal: report.readable && report.violations.is_empty(),
            problems,
            turns: report.turns.iter().map(|t| t.turn).max().unwrap_or(0),
            winner,
            micros: 0,
        },
        turns: report.turns.iter().map(board_turn).collect(),
        phases: Vec::new(),
        audit: false,
    }
}

fn faction(code: &str) -> Option<Faction> {
    Faction::from_code(code)
}

fn board_turn(t: &TurnJson) -> BoardTurn {
    let mut places: Vec<PlaceState> = Vec::new();
    for row in TERRITORIES.iter() {
        let tokens: Vec<(Faction, Tokens)> = t
            .forces
            .get(row.code)
            .map(|m| {
                m.iter()
                    .filter_map(|(f, s)| Some((faction(f)?, Tokens::parse(s)?)))
                    .filter(|(_, s)| s.total() > 0)
                    .collect()
            })
            .unwrap_or_default();
        let spice = t.spice_on_map.get(row.code).copied().unwrap_or(0);
        let controller = dune::Stronghold::ALL
            .iter()
            .find(|s| territory_of(**s) == Some(row.code))
            .and_then(|s| t.control.get(s.code()))
            .and_then(|f| faction(f));
        if !tokens.is_empty() || spice > 0 || controller.is_some() {
            places.push(PlaceState {
                code: row.code.to_owned(),
                name: row.name.to_owned(),
                tokens,
                spice,
                controller,
            });
        }
    }
    let mut codes: Vec<&String> = t.spice.keys().chain(t.reserves.keys()).collect();
    codes.sort();
    codes.dedup();
    let holdings = codes
        .into_iter()
        .filter_map(|code| {
            let f = faction(code)?;
            Some(Holding {
                faction: f,
                spice: t.spice.get(code).copied().unwrap_or(0),
                cards: t.hands.get(code).copied().unwrap_or(0),
                card_names: t.cards.as_ref().and_then(|c| c.get(code).cloned()),
                reserves: t
                    .reserves
                    .get(code)
                    .and_then(|s| Tokens::parse(s))
                    .unwrap_or_default(),
                tanks: t
                    .tanks
                    .get(code)
                    .and_then(|s| Tokens::parse(s))
                    .unwrap_or_default(),
                leaders: t.leaders.as_ref().and_then(|l| l.get(code).cloned()),
                strongholds: t
                    .control
                    .iter()
                    .filter(|(_, c)| *c == code)
                    .map(|(s, _)| s.clone())
                    .collect(),
            })
        })
        .collect();
    BoardTurn {
        turn: t.turn,
        phase: t.phase.clone(),
        storm: t.storm,
        places,
        holdings,
        alliances: t
            .alliances
            .iter()
            .filter_map(|(a, b)| Some((faction(a)?, faction(b)?)))
            .collect(),
        worms: t.worms,
        shield_wall_counts: t.shield_wall_counts,
        win_attempts: t
            .win_attempts
            .iter()
            .filter_map(|w| Some((faction(&w.faction)?, w.strongholds.clone())))
            .collect(),
        knows_control: t.shield_wall_counts.is_some(),
    }
}

/// The territory code of a stronghold (the Shield Wall is a territory of its own).
fn territory_of(s: dune::Stronghold) -> Option<&'static str> {
    let name = s.name();
    TERRITORIES
        .iter()
        .find(|r| r.name == name || r.code == s.code())
        .map(|r| r.code)
}

/// The map, computed once from the engine's territory table and [`map::LAYOUT`].
pub fn board_map() -> &'static BoardMap {
    static MAP: OnceLock<BoardMap> = OnceLock::new();
    MAP.get_or_init(|| {
        let areas = TERRITORIES
            .iter()
            .filter_map(|row| {
                let kind = match row.kind {
                    TerritoryKind::Sand => AreaKind::Sand,
                    TerritoryKind::Rock => AreaKind::Rock,
                    TerritoryKind::Stronghold => AreaKind::Stronghold,
                    TerritoryKind::PolarSink => AreaKind::PolarSink,
                };
                let (path, x, y) = if kind == AreaKind::PolarSink {
                    let r = map::POLAR;
                    (
                        format!("M{r} 0A{r} {r} 0 1 0 -{r} 0A{r} {r} 0 1 0 {r} 0Z"),
                        0.0,
                        0.0,
                    )
                } else {
                    let place = map::place_of(row.code)?;
                    let (x, y) = place.centre();
                    (place.path(), x, y)
                };
                Some(Area {
                    code: row.code.to_owned(),
                    name: row.name.to_owned(),
                    kind,
                    path,
                    x,
                    y,
                })
            })
            .collect();
        BoardMap {
            areas,
            sectors: map::sector_marks(),
        }
    })
}

/// What the editor suggests: factions, territories (code and name), leaders, cards.
pub fn vocabulary() -> &'static Vocabulary {
    static WORDS: OnceLock<Vocabulary> = OnceLock::new();
    WORDS.get_or_init(|| {
        let mut words: Vec<Word> = Vec::new();
        for f in Faction::CLASSIC.iter() {
            words.push(Word::new(f.code(), f.name(), WordKind::Faction, None));
        }
        for row in TERRITORIES.iter() {
            words.push(Word::new(row.code, row.name, WordKind::Territory, None));
        }
        for row in LEADERS.iter() {
            words.push(Word::new(
                row.code,
                &format!("{} ({}, {})", row.name, row.faction.code(), row.strength),
                WordKind::Leader,
                Some(row.faction.code()),
            ));
        }
        for row in CARDS.iter() {
            words.push(Word::new(row.code, row.name, WordKind::Card, None));
        }
        Vocabulary { words }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const TINY: &str = "[Factions \"1=AT 2=HK\"] [Mode \"Basic\"]\nT0\nSTORM0 HK 1 AT 2 -> 4\nT1\n";

    #[test]
    fn every_territory_of_the_engine_is_on_the_map_inside_its_sectors() {
        let map = board_map();
        assert_eq!(map.areas.len(), TERRITORIES.len());
        for row in TERRITORIES.iter().filter(|r| !r.sectors.is_empty()) {
            let place =
                map::place_of(row.code).unwrap_or_else(|| panic!("{} has no place", row.code));
            for s in place.sectors() {
                assert!(
                    row.sectors.contains(&s),
                    "{} drawn in sector index {s}, lies in {:?}",
                    row.code,
                    row.sectors
                );
            }
        }
    }

    #[test]
    fn a_broken_rule_is_shown_with_its_heading_and_a_syntax_error_with_what_was_expected() {
        let bad = TINY.replace("-> 4", "-> 5");
        let r = replay(&bad, true);
        assert!(r.verification.readable && !r.verification.legal);
        let p = &r.verification.problems[0];
        assert_eq!((p.line, p.rule.as_deref()), (3, Some("0.16")));
        assert_eq!(p.heading.as_deref(), Some("First storm"));
        assert_eq!(p.rule_href().as_deref(), Some("/rules/gencon/0.16"));

        // A full-rulebook game's violation links to the full rulebook's rule: its 1.06.02.05 is
        // GenCon's occupancy limit 1.06.03.05 (000's own 1.06.03.05 is another rule).
        let full = include_str!(
            "../../../engine/tests/games/illegal-1.06.03.05-full-format-ship-into-full-stronghold.dgn"
        );
        let p = replay(full, true).verification.problems[0].clone();
        assert_eq!(p.rule.as_deref(), Some("000 1.06.02.05"));
        assert_eq!(p.rule_href().as_deref(), Some("/rules/full/1.06.02.05"));
        let heading = rulebook::get_in(
            dune::Book::Full,
            dune::rule!("1.06.02.05"),
            dune::Edition::default(),
        );
        assert_eq!(p.heading.as_deref(), heading.map(|e| e.heading));
        assert!(p.heading.is_some());

        let r = replay("T0\nQ\n", true);
        assert!(!r.verification.readable);
        assert_eq!(r.verification.problems[0].line, 2);
        assert!(r.verification.problems[0].message.starts_with("Expected"));
    }

    #[test]
    fn the_board_after_turn_zero_has_the_storm_and_the_starting_forces() {
        let r = replay(TINY, true);
        assert!(r.verification.legal, "{:?}", r.verification.problems);
        let t0 = &r.turns[0];
        assert_eq!(t0.storm, Some(4));
        let ark = t0.places.iter().find(|p| p.code == "ARK").unwrap();
        assert_eq!(
            ark.tokens,
            [(
                Faction::Atreides,
                Tokens {
                    fighting: 10,
                    starred: 0,
                    advisors: 0
                }
            )]
        );
        let at = t0
            .holdings
            .iter()
            .find(|h| h.faction == Faction::Atreides)
            .unwrap();
        assert_eq!(at.spice, 10);
        assert_eq!(at.reserves.fighting, 10);
    }

    #[test]
    fn suggestions_know_territories_and_leaders() {
        let v = vocabulary();
        assert!(
            v.words
                .iter()
                .any(|w| w.code == "ARK" && w.label.contains("Arrakeen"))
        );
        assert!(v.words.iter().any(|w| w.kind == WordKind::Leader));
        let alive = analyse(TINY, true, false).alive.unwrap();
        assert!(alive.len() >= 10, "{alive:?}");
    }
}
