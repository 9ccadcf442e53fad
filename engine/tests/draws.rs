//! The full format's faction draw (0.08; 000 0.09) against the engine: every faction an
//! alliance-card pair can offer is one the replay seats, or refuses at the `[Factions]` tag
//! saying why; and the factions the engine now checks (Ecaz and Moritani among them) are
//! offered like the others.

use std::collections::BTreeSet;

use dune::Faction;
use tournament::draw::{Deal, DrawRequest, draw_round};
use tournament::history::History;
use tournament::options::RulingOptions;
use tournament::player::PlayerName;
use tournament::ruleset::Ruleset;

fn players(n: usize) -> Vec<PlayerName> {
    (1..=n)
        .map(|i| PlayerName::parse(&format!("Player {i:02}")).unwrap_or_else(|e| panic!("{e}")))
        .collect()
}

/// A setup line the engine reads for a table seated with `factions`.
fn header(factions: &[Faction]) -> String {
    let seats: Vec<String> = factions
        .iter()
        .enumerate()
        .map(|(i, f)| format!("{}={}", i + 1, f.code()))
        .collect();
    format!(
        "[Ruleset \"full\"] [Factions \"{}\"]\nT0\n",
        seats.join(" ")
    )
}

#[test]
fn every_faction_a_full_draw_offers_sits_down_or_is_refused_by_name() {
    let names = players(24);
    let mut offered: BTreeSet<Faction> = BTreeSet::new();
    let mut seated: BTreeSet<Faction> = BTreeSet::new();
    for seed in 1..=12u64 {
        let round = draw_round(&DrawRequest {
            seed,
            ruleset: Ruleset::Full,
            players: &names,
            byes: &[],
            history: &History::default(),
            options: &RulingOptions::default(),
        })
        .unwrap_or_else(|e| panic!("{e}"));
        for table in &round.tables {
            // Each player keeps the expansion card when the engine plays that faction.
            let mut picks = Vec::new();
            for seat in &table.seats {
                let Deal::Offered { classic, expansion } = seat.deal else {
                    panic!("the full format offers two cards");
                };
                offered.insert(classic);
                offered.insert(expansion);
                let playable = engine::factions::sheet(expansion).is_some();
                picks.push(if playable { expansion } else { classic });
            }
            let outcome = engine::report::replay_text(&header(&picks));
            assert_eq!(outcome.exit_code(), 0, "{picks:?}: {}", outcome.to_human());
            seated.extend(picks);
            // The expansion cards the engine cannot check yet are refused at the tag, by name.
            for seat in &table.seats {
                let Deal::Offered { expansion, .. } = seat.deal else {
                    continue;
                };
                if engine::factions::sheet(expansion).is_none() {
                    let text =
                        engine::report::replay_text(&header(&[Faction::Atreides, expansion]))
                            .to_human();
                    assert!(text.contains(expansion.code()), "{text}");
                }
            }
        }
    }
    assert_eq!(offered.len(), 13, "every faction is offered: {offered:?}");
    for f in [Faction::Ecaz, Faction::Moritani] {
        assert!(seated.contains(&f), "{f} never sat down");
    }
}
