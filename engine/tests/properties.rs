//! Properties of the replay over the legal fixtures and of the battle arithmetic.

use std::path::{Path, PathBuf};

use dune::{Faction, Spice};
use engine::battle::{self, Conditions, Loss, Plan};
use engine::board::{Card, Leader};
use engine::dgn::{ForceCount, PlanLeader, Side};
use engine::factions::ForceKind;
use engine::report::{Outcome, replay_text};
use proptest::prelude::*;

fn legal_logs() -> Vec<(PathBuf, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/games");
    let mut out: Vec<(PathBuf, String)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("legal-") && n.ends_with(".dgn"))
        })
        .map(|p| {
            let text = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{e}"));
            (p, text)
        })
        .collect();
    out.sort();
    out
}

/// The first `lines` lines of a log.
fn prefix(text: &str, lines: usize) -> String {
    text.split_inclusive('\n').take(lines).collect()
}

fn check_prefix(name: &Path, text: &str) -> Result<(), TestCaseError> {
    let outcome = replay_text(text);
    let Outcome::Replayed(r) = &outcome else {
        return Err(TestCaseError::fail(format!(
            "{}: a prefix is not readable:\n{}",
            name.display(),
            outcome.to_human()
        )));
    };
    prop_assert!(
        r.is_legal(),
        "{}: a prefix of a legal log reports violations:\n{}\n--- prefix ---\n{text}",
        name.display(),
        outcome.to_human()
    );
    let advanced = r.state.options().advanced;
    for f in r.state.in_play().iter() {
        prop_assert_eq!(
            r.state.token_total(f),
            20,
            "{}: {} has {} tokens (board + reserves + tanks) after:\n{}",
            name.display(),
            f,
            r.state.token_total(f),
            text
        );
        // Each kind keeps its count: the starred tokens are the sheet's, the plain ones the rest.
        let starred = u32::from(r.state.faction(f).sheet().kinds.starred_count(advanced));
        for (kind, want) in [
            (ForceKind::Starred, starred),
            (ForceKind::Plain, 20 - starred),
        ] {
            prop_assert_eq!(
                r.state.kind_total(f, kind),
                want,
                "{}: {} has {} {:?} tokens after:\n{}",
                name.display(),
                f,
                r.state.kind_total(f, kind),
                kind,
                text
            );
        }
    }
    // Spice is conserved: what is behind the shields, in front of them and on the map is what
    // the bank paid out, less what was paid back to it (every payment names its payee).
    prop_assert_eq!(
        r.state.spice_in_game(),
        r.state.bank_out(),
        "{}: the spice in the game is not what the bank paid out, after:\n{}",
        name.display(),
        text
    );
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 384, failure_persistence: None, ..ProptestConfig::default() })]

    /// Any prefix of a legal log replays with no violation (a log that stops anywhere is a game
    /// in progress), and every faction's twenty tokens are on the board, in reserve or in the
    /// tanks, each kind keeping its count.
    #[test]
    fn any_prefix_of_a_legal_log_is_legal(pick in any::<prop::sample::Index>(), cut in any::<prop::sample::Index>()) {
        let logs = legal_logs();
        let (name, text) = &logs[pick.index(logs.len())];
        // From the turn-0 line on: before it a log has no statement and is not DGN.
        let all: Vec<&str> = text.split_inclusive('\n').collect();
        let first = all.iter().position(|l| l.starts_with("T0")).unwrap_or(0) + 1;
        let n = first + cut.index(all.len() + 1 - first);
        check_prefix(name, &prefix(text, n))?;
    }
}

/// Every battle of every legal log, checked right after its result line: tokens are conserved.
#[test]
fn tokens_stay_at_twenty_through_every_battle() {
    let mut battles = 0;
    for (name, text) in legal_logs() {
        let lines: Vec<&str> = text.split_inclusive('\n').collect();
        for (i, line) in lines.iter().enumerate() {
            if line.trim_start().starts_with('=') {
                battles += 1;
                check_prefix(&name, &lines[..=i].concat()).unwrap_or_else(|e| panic!("{e}"));
            }
        }
    }
    assert!(battles >= 30, "only {battles} battles in the legal logs");
}

/// Spice is conserved across every payment of every legal log: after each line that moves
/// spice (a price, a collection, charity, a blow), the spice behind the shields, in front of
/// them and on the map equals what the bank paid out less what was paid back to it.
#[test]
fn spice_is_conserved_across_every_payment() {
    let mut payments = 0;
    for (name, text) in legal_logs() {
        let lines: Vec<&str> = text.split_inclusive('\n').collect();
        let first = lines.iter().position(|l| l.starts_with("T0")).unwrap_or(0);
        for (i, line) in lines.iter().enumerate().skip(first) {
            let body = line.split(';').next().unwrap_or("");
            if body.contains('$') || body.starts_with("C ") || body.starts_with("S ") {
                payments += 1;
                check_prefix(&name, &lines[..=i].concat()).unwrap_or_else(|e| panic!("{e}"));
            }
        }
    }
    assert!(
        payments >= 300,
        "only {payments} payments in the legal logs"
    );
}

fn leader() -> impl Strategy<Value = PlanLeader> {
    prop_oneof![
        Just(PlanLeader::None),
        Just(PlanLeader::CheapHero),
        (0usize..30)
            .prop_map(|i| PlanLeader::Leader(Leader::all().nth(i).unwrap_or(Leader::Thufir))),
    ]
}

fn card() -> impl Strategy<Value = Option<Card>> {
    prop_oneof![Just(None), (0usize..23).prop_map(|i| Card::all().nth(i)),]
}

fn plan(f: Faction) -> impl Strategy<Value = Plan> {
    (
        leader(),
        any::<bool>(),
        0u8..=20,
        0u8..=5,
        0u32..=25,
        card(),
        card(),
    )
        .prop_map(
            move |(leader, kwisatz, total, starred, spice, weapon, defense)| Plan {
                faction: f,
                leader,
                kwisatz,
                dial: ForceCount {
                    total,
                    starred: starred.min(total),
                    side: Side::Unspecified,
                },
                spice: Spice::new(spice),
                ally_spice: None,
                weapon,
                defense,
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig { failure_persistence: None, ..ProptestConfig::default() })]

    /// The battle arithmetic: a winner exactly when neither two traitors nor an explosion
    /// decide it; the winner loses at most its dial; a traitor's winner loses nothing and keeps
    /// its spice; the loser discards everything.
    #[test]
    fn battle_outcomes_are_consistent(
        a in plan(Faction::Atreides),
        d in plan(Faction::Harkonnen),
        advanced in any::<bool>(),
        betrayed in any::<[bool; 2]>(),
    ) {
        let c = Conditions { advanced, betrayed, ..Conditions::default() };
        let o = battle::resolve([&a, &d], &c);
        match o.winner {
            None => prop_assert!(o.explosion || betrayed == [true, true]),
            Some(w) => {
                prop_assert!(w < 2);
                prop_assert!(o.discards_all[1 - w]);
                prop_assert_eq!(o.losses[1 - w], Loss::All);
                if betrayed[1 - w] && !betrayed[w] {
                    prop_assert_eq!(o.losses[w], Loss::Nothing);
                    prop_assert!(o.keeps_wheel_spice[w]);
                } else {
                    prop_assert_eq!(o.losses[w], Loss::Dialed([a, d][w].dial));
                    prop_assert!(o.totals[w] >= o.totals[1 - w]);
                }
            }
        }
        prop_assert!(o.killed.len() <= 2);
    }
}

/// The same property, exhaustively: every prefix of every legal log (about two seconds).
#[test]
fn every_prefix_of_every_legal_log_is_legal() {
    for (name, text) in legal_logs() {
        let lines: Vec<&str> = text.split_inclusive('\n').collect();
        let first = lines.iter().position(|l| l.starts_with("T0")).unwrap_or(0) + 1;
        for k in first..=lines.len() {
            check_prefix(&name, &lines[..k].concat()).unwrap_or_else(|e| panic!("{e}"));
        }
    }
}
