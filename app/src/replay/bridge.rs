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

use super::json::{KindNames, ReportJson, Tokens, TurnJson};
use super::map::{self, Area, AreaKind, BoardMap};
use super::suggest::{Vocabulary, Word, WordKind};
use super::{BoardTurn, HmsPlace, Holding, Marker, PlaceState, Problem, Replayed, Verification};

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
    let kinds = kinds_of(&report);
    replayed.phases = phase_json
        .into_iter()
        .filter_map(|v| serde_json::from_value::<TurnJson>(v).ok())
        .map(|t| board_turn(&t, &kinds))
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
                    see_also: v.see_also.clone(),
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
                see_also: Vec::new(),
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
            not_checked: report
                .not_checked
                .iter()
                .map(|n| (n.line, n.text.clone()))
                .collect(),
        },
        turns: report
            .turns
            .iter()
            .map(|t| board_turn(t, &kinds_of(report)))
            .collect(),
        phases: Vec::new(),
        audit: false,
    }
}

fn faction(code: &str) -> Option<Faction> {
    Faction::from_code(code)
}

/// The names of the factions' kinds of force the report gives.
fn kinds_of(report: &ReportJson) -> Vec<(Faction, KindNames)> {
    report
        .kinds
        .iter()
        .filter_map(|(code, k)| Some((faction(code)?, k.clone())))
        .collect()
}

fn board_turn(t: &TurnJson, kinds: &[(Faction, KindNames)]) -> BoardTurn {
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
        let no_fields: Vec<Option<u8>> = t
            .no_fields
            .iter()
            .filter(|n| n.territory == row.code)
            .map(|n| n.value)
            .collect();
        let markers: Vec<Marker> = t
            .tokens
            .iter()
            .filter(|k| k.territory == row.code)
            .filter_map(|k| {
                Some(Marker {
                    owner: faction(&k.owner)?,
                    terror: k.kind == "terror",
                    of: k.of.clone(),
                    face_up: k.face_up,
                })
            })
            .collect();
        if !tokens.is_empty()
            || spice > 0
            || controller.is_some()
            || !no_fields.is_empty()
            || !markers.is_empty()
        {
            places.push(PlaceState {
                code: row.code.to_owned(),
                name: row.name.to_owned(),
                tokens,
                spice,
                controller,
                no_fields,
                markers,
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
        no_field_front: t.no_field_front,
        hms: t.hms.as_ref().and_then(|h| {
            let row = TERRITORIES.iter().find(|r| r.code == h.territory)?;
            Some(HmsPlace {
                code: row.code.to_owned(),
                name: row.name.to_owned(),
                sector: h.sector,
            })
        }),
        kinds: kinds.to_vec(),
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
        // Every faction the engine checks: the classic six and the expansion factions it plays.
        for f in Faction::ALL
            .iter()
            .filter(|f| engine::factions::sheet(**f).is_some())
        {
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
        // Every printed territory; the Hidden Mobile Stronghold has no sectors of its own and is
        // drawn where it stands each turn (`hms_point`).
        let printed = TERRITORIES.iter().filter(|r| r.code != "HMS").count();
        assert_eq!(map.areas.len(), printed);
        assert!(map.areas.iter().all(|a| a.code != "HMS"));
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
    fn the_hidden_mobile_stronghold_is_drawn_in_the_sector_of_the_territory_it_stands_in() {
        for row in TERRITORIES.iter().filter(|r| !r.sectors.is_empty()) {
            let place = map::place_of(row.code).unwrap();
            for &s in row.sectors {
                // DGN numbers sectors 1-18; the board data 0-17.
                let (x, y) = map::hms_point(row.code, s + 1).unwrap();
                let drawn = place.sectors();
                // The point's sector, from its angle (sector 1's middle at the bottom).
                let deg = y.atan2(x).to_degrees();
                let u = ((90.0 - deg) / 20.0 + 0.5).rem_euclid(18.0);
                let at = u.floor() as u8;
                assert!(
                    at == s || !drawn.contains(&s),
                    "{} sector {}: the marker is drawn in sector index {at}",
                    row.code,
                    s + 1
                );
                assert!(row.sectors.contains(&at), "{} marker outside it", row.code);
            }
        }
        assert_eq!(map::hms_point("HMS", 3), None);
    }

    #[test]
    fn a_full_format_report_gives_the_hidden_mobile_stronghold_and_the_ixians_kinds() {
        let log = include_str!(
            "../../../engine/tests/games/legal-full-game-allied-victory-won-in-battle.dgn"
        );
        let r = replay(log, true);
        assert!(r.verification.legal, "{:?}", r.verification.problems);
        let last = r.turns.last().unwrap();
        let hms = last.hms.as_ref().expect("the HMS is on the map");
        assert!((1..=18).contains(&hms.sector));
        let ix = last
            .kinds_of(Faction::Ixians)
            .expect("the Ixians' kinds are named");
        assert_eq!(
            (ix.plain.as_str(), ix.starred.as_deref()),
            ("Suboid", Some("Cyborg"))
        );
        assert!(last.kinds_of(Faction::Tleilaxu).is_none());
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
    fn a_violation_brings_the_rules_that_say_the_same_and_the_list_links_them() {
        // An alliance announced after its Nexus: cited under 1.10.01.06, 1.10.00 beside it.
        let log = "[Factions \"1=AT 2=HK\"] [Mode \"Basic\"]\nT0\nSTORM0 HK 1 AT 2 -> 4\nT1\nT2\nS HK 1 AT 1 -> 6\nB SH ; CN 8\nM AT -\nN AT+HK\n";
        let r = replay(log, true);
        let p = r
            .verification
            .problems
            .iter()
            .find(|p| p.rule.as_deref() == Some("1.10.01.06"))
            .unwrap_or_else(|| panic!("{:?}", r.verification.problems));
        assert_eq!(p.see_also, vec!["1.10.00".to_string()]);
        use leptos::prelude::RenderHtml;
        let html = leptos::prelude::view! {
            <crate::components::log_editor::VerificationList verification=r.verification.clone()/>
        }
        .to_html();
        assert!(html.contains("See also"), "{html}");
        assert!(html.contains("href=\"/rules/1.10.00\""), "{html}");

        // Terms the engine cannot check are listed apart, not as broken rules.
        let deal = format!("{log}DEAL AT,HK \"share what we learn\"\n");
        let r = replay(&deal, true);
        assert_eq!(r.verification.not_checked.len(), 1, "{:?}", r.verification);
        let html = leptos::prelude::view! {
            <crate::components::log_editor::VerificationList verification=r.verification.clone()/>
        }
        .to_html();
        assert!(html.contains("Not checked by Mentat"), "{html}");
        assert!(html.contains("share what we learn"), "{html}");
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
    fn ambassadors_and_terror_tokens_stand_where_they_lie_face_down_unless_audited() {
        let log = include_str!(
            "../../../engine/tests/games/legal-game-moritani-terror-decides-a-battle.dgn"
        );
        // After turn 1 the Sneak Attack token lies face down in Carthag.
        for (audit, of) in [(true, Some("SneakAttack")), (false, None)] {
            let r = replay(log, audit);
            let t1 = r.turns.iter().find(|t| t.turn == 1).unwrap();
            let car = t1.places.iter().find(|p| p.code == "CAR").unwrap();
            assert_eq!(
                car.markers,
                [Marker {
                    owner: Faction::Moritani,
                    terror: true,
                    of: of.map(str::to_owned),
                    face_up: false
                }]
            );
        }
        let log = include_str!("../../../engine/tests/games/legal-game-ecaz-special-victory.dgn");
        let r = replay(log, false);
        assert!(r.verification.legal, "{:?}", r.verification.problems);
        let log = include_str!(
            "../../../engine/tests/games/legal-ecaz-ambassadors-placed-and-triggered.dgn"
        );
        let r = replay(log, false);
        let t1 = r.turns.iter().find(|t| t.turn == 1).unwrap();
        let ark = t1.places.iter().find(|p| p.code == "ARK");
        assert!(
            ark.is_none_or(|p| p.markers.is_empty()),
            "the Emperor ambassador was used up"
        );
        let hab = t1.places.iter().find(|p| p.code == "HAB").unwrap();
        assert_eq!(hab.tokens[0].0, Faction::Ecaz);
    }

    #[test]
    fn a_full_rulebook_rule_is_named_with_its_book_and_its_own_heading() {
        let bad =
            "[Ruleset \"full\"] [Factions \"1=AT 2=EC\"] [Mode \"Basic\"]\nT0\nLOYAL EC Sanya\n";
        let r = replay(bad, true);
        let p = &r.verification.problems[0];
        assert_eq!(p.rule.as_deref(), Some("000 2.11.00"));
        // The full rulebook's own row, never GenCon's rule of the same number.
        assert_eq!(p.heading.as_deref(), Some("Basic and advanced"));
        assert_eq!(p.rule_href().as_deref(), Some("/rules/full/2.11.00"));
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
        // The expansion factions the engine plays, and their leaders.
        assert!(
            v.words
                .iter()
                .any(|w| w.code == "IX" && w.kind == WordKind::Faction)
        );
        assert!(
            v.words
                .iter()
                .any(|w| w.code == "TL" && w.kind == WordKind::Faction)
        );
        assert!(
            v.words
                .iter()
                .any(|w| w.code == "EC" && w.kind == WordKind::Faction)
        );
        let alive = analyse(TINY, true, false).alive.unwrap();
        assert!(alive.len() >= 10, "{alive:?}");
    }
}
