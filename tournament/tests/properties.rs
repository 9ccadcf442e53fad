//! Property tests: table sizes, order independence of standings, adjudication and allies,
//! reproducible draws, and no panics on any input.

mod common;

use std::collections::BTreeSet;

use common::*;
use proptest::prelude::*;
use tournament::adjudication::{AdjudicationSeat, adjudicate};
use tournament::report::Ending;
use tournament::tables::{NoSplit, split};
use tournament::{
    AdjudicationDeadlock, DrawRequest, Faction, GameReport, History, PastRound, PlayerName, Report,
    Ruleset, RulingOptions, SeatReport, TableFallback, WinType, cli, draw_round, standings,
    validate,
};

/// A small deterministic generator so that one proptest seed describes a whole tournament.
struct Gen(u64);

impl Gen {
    fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            let j = self.below(i + 1);
            v.swap(i, j);
        }
    }
}

#[test]
fn table_sizes_for_every_count_up_to_1000() {
    let impossible = [1, 2, 3, 4, 7, 8, 9, 13, 14, 19];
    for n in 0..=1000usize {
        match split(n) {
            Some(sizes) => {
                assert!(!impossible.contains(&n), "{n}");
                assert_eq!(sizes.iter().map(|&s| usize::from(s)).sum::<usize>(), n);
                assert!(sizes.iter().all(|&s| s == 5 || s == 6), "{n}: {sizes:?}");
                assert!(sizes.windows(2).all(|w| w[0] >= w[1]), "sixes first");
                let sixes = sizes.iter().filter(|&&s| s == 6).count();
                let most = (0..=n / 6).rev().find(|a| (n - 6 * a) % 5 == 0).unwrap();
                assert_eq!(sixes, most, "{n}: as many sixes as possible");
            }
            None => {
                assert!(impossible.contains(&n), "{n} has a split");
                let options = NoSplit::new(n, TableFallback::Ask);
                let (add, sizes) = &options.alternates;
                assert!(*add > 0);
                assert_eq!(split(n + add).as_ref(), Some(sizes));
            }
        }
    }
}

/// A valid tournament: rounds of randomly seated tables, each game a solo or allied stronghold
/// win or a clock-ended game. Tiebreakers come from a tiny range so that ties happen.
fn tournament(seed: u64) -> Report {
    let mut g = Gen(seed | 1);
    let pool = 10 + g.below(25);
    let names: Vec<String> = (0..pool).map(|i| format!("P{i:02}")).collect();
    let rounds = 1 + g.below(4);
    let mut games = Vec::new();
    for round in 1..=rounds {
        let mut present: Vec<&String> = names.iter().collect();
        g.shuffle(&mut present);
        while split(present.len()).is_none() {
            present.pop();
        }
        let sizes = split(present.len()).unwrap_or_default();
        let mut rest = present.as_slice();
        for (t, &size) in sizes.iter().enumerate() {
            let (players, tail) = rest.split_at(usize::from(size));
            rest = tail;
            let mut factions = Faction::CLASSIC.to_vec();
            g.shuffle(&mut factions);
            let mut seats: Vec<SeatReport> = players
                .iter()
                .zip(&factions)
                .map(|(p, &f)| {
                    let mut t = [0; 6].map(|_| g.below(3) as u32);
                    // At most one stronghold each: a table of six controls no more than six.
                    t[1] = t[1].min(1);
                    seat(p, f, None, None, t)
                })
                .collect();
            if g.below(2) == 0 {
                let (a, b) = (0, 1 + g.below(seats.len() - 1));
                let (fa, fb) = (seats[a].faction, seats[b].faction);
                seats[a].ally = Some(fb);
                seats[b].ally = Some(fa);
            }
            let ended = match g.below(3) {
                0 => Ending::Time,
                _ => Ending::Win,
            };
            if ended == Ending::Win {
                // The winners hold what a stronghold victory takes (1.09.02); nobody else holds
                // a stronghold.
                for s in seats.iter_mut() {
                    s.tiebreakers.end.strongholds = 0;
                }
                let w = g.below(seats.len());
                match seats[w].ally {
                    None => {
                        seats[w].result = Some(WinType::SoloStronghold);
                        seats[w].tiebreakers.end.strongholds = 3;
                    }
                    Some(ally) => {
                        for s in seats.iter_mut() {
                            if s.faction == ally || s.ally == Some(ally) {
                                s.result = Some(WinType::AlliedStronghold);
                                s.tiebreakers.end.strongholds = 2;
                            }
                        }
                    }
                }
            }
            g.shuffle(&mut seats);
            games.push(game(round as u32, t as u32 + 1, ended, seats));
        }
    }
    report(games)
}

fn shuffled(report: &Report, seed: u64) -> Report {
    let mut g = Gen(seed | 1);
    let mut games: Vec<GameReport> = report.games.clone();
    g.shuffle(&mut games);
    for game in &mut games {
        g.shuffle(&mut game.seats);
    }
    Report {
        games,
        ..report.clone()
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn standings_do_not_depend_on_input_order(seed in any::<u64>(), order in any::<u64>(), finals in 0usize..12) {
        let report = tournament(seed);
        let valid = validate(&report).expect("generated reports are valid");
        let a = standings(&valid, finals);
        let b = standings(&validate(&shuffled(&report, order)).expect("still valid"), finals);
        prop_assert_eq!(a, b);
    }

    #[test]
    fn standings_rows_are_ordered_and_ranked(seed in any::<u64>()) {
        let valid = validate(&tournament(seed)).expect("generated reports are valid");
        let s = standings(&valid, 6);
        for pair in s.rows.windows(2) {
            let (ord, _) = tournament::standings::compare(Ruleset::Gc2133, &pair[0].record, &pair[1].record);
            prop_assert_ne!(ord, std::cmp::Ordering::Less);
            prop_assert!(pair[0].rank <= pair[1].rank);
            prop_assert_eq!(pair[0].rank == pair[1].rank, ord == std::cmp::Ordering::Equal);
        }
        let finalists = s.rows.iter().filter(|r| r.finalist == Some(true)).count();
        prop_assert!(finalists <= 6);
        if s.finals.cut_tie.is_none() {
            prop_assert_eq!(finalists, s.rows.len().min(6));
        }
    }

    #[test]
    fn adjudication_winners_include_their_allies(
        size in 4usize..=6,
        values in proptest::collection::vec([0u32..4, 0..3, 0..4, 0..3, 0..2, 0..2], 6),
        pairs in proptest::collection::vec((0usize..6, 0usize..6), 0..3),
        judge in any::<bool>(),
        drawn in 0usize..6,
    ) {
        let mut allies: Vec<Option<usize>> = vec![None; size];
        for (a, b) in pairs {
            let (a, b) = (a % size, b % size);
            if a != b && allies[a].is_none() && allies[b].is_none() {
                allies[a] = Some(b);
                allies[b] = Some(a);
            }
        }
        let seats: Vec<AdjudicationSeat> = (0..size)
            .map(|i| AdjudicationSeat { ally: allies[i], tiebreakers: tb(values[i]) })
            .collect();
        let policy = if judge { AdjudicationDeadlock::JudgeDraw } else { AdjudicationDeadlock::AllSurvivors };
        if let Ok(adj) = adjudicate(&seats, policy, Some(drawn % size)) {
            prop_assert!(!adj.winners.is_empty());
            for &w in &adj.winners {
                if let Some(ally) = allies[w] {
                    prop_assert!(adj.winners.contains(&ally), "winner {} without ally {}", w, ally);
                }
            }
            let most = seats.iter().map(|s| s.tiebreakers.win_attempts).max().unwrap_or(0);
            for &w in &adj.winners {
                let top = seats[w].tiebreakers.win_attempts == most;
                let ally_top = allies[w].is_some_and(|a| seats[a].tiebreakers.win_attempts == most);
                prop_assert!(top || ally_top, "winner {} had neither the most attempts nor an ally who had", w);
            }
        }
    }

    #[test]
    fn draws_are_reproducible(seed in any::<u64>(), n in 5usize..80, rounds in 0usize..3, full in any::<bool>()) {
        prop_assume!(split(n).is_some());
        let players: Vec<PlayerName> = (0..n).map(|i| name(&format!("Player {i}"))).collect();
        let ruleset = if full { Ruleset::Full } else { Ruleset::Gc2133 };
        let options = RulingOptions::default();
        let mut history = History::default();
        for r in 0..rounds {
            let earlier = draw_round(&DrawRequest {
                seed: seed.wrapping_add(r as u64 + 1), ruleset: Ruleset::Gc2133, players: &players,
                byes: &[], history: &history, options: &options,
            }).expect("splittable");
            history.push(PastRound::from(&earlier));
        }
        let request = DrawRequest { seed, ruleset, players: &players, byes: &[], history: &history, options: &options };
        let a = draw_round(&request).expect("splittable");
        let b = draw_round(&request).expect("splittable");
        prop_assert_eq!(&a, &b);
        let mut reversed = players.clone();
        reversed.reverse();
        let c = draw_round(&DrawRequest { players: &reversed, ..request }).expect("splittable");
        prop_assert_eq!(&a, &c);

        let mut seen = BTreeSet::new();
        for table in &a.tables {
            let mut factions = BTreeSet::new();
            for seat in &table.seats {
                prop_assert!(seen.insert(seat.player.clone()), "{} seated twice", seat.player);
                match seat.deal {
                    tournament::Deal::Assigned(f) => prop_assert!(factions.insert(f)),
                    tournament::Deal::Offered { classic, expansion } => {
                        prop_assert!(factions.insert(classic) && factions.insert(expansion));
                    }
                    tournament::Deal::Chosen => prop_assert!(false, "a round deals every seat"),
                }
            }
        }
        prop_assert_eq!(seen.len(), n);
        prop_assert!(a.quality.pairing.cost >= a.quality.pairing.lower_bound);
    }

    #[test]
    fn nothing_panics_on_arbitrary_text(text in ".{0,200}", seed in any::<u64>()) {
        let _ = cli::tables(&text);
        let _ = cli::draw(seed, &text, &text, Some(&text));
        let _ = cli::draw(seed, "full", &text, None);
        let _ = cli::standings(&text, Some(seed as usize));
    }

    #[test]
    fn nothing_panics_on_mutated_reports(edits in proptest::collection::vec((any::<prop::sample::Index>(), ".{0,3}", 0usize..4), 1..6)) {
        let mut text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/report.json")).unwrap();
        for (at, insert, delete) in edits {
            let mut i = at.index(text.len() + 1);
            while !text.is_char_boundary(i) { i -= 1; }
            let mut end = (i + delete).min(text.len());
            while !text.is_char_boundary(end) { end += 1; }
            text.replace_range(i..end, &insert);
        }
        let _ = cli::standings(&text, None);
        let history = format!("[{}]", cli::draw(1, "gc-2.13.3", "a\nb\nc\nd\ne\n", None).unwrap());
        let _ = cli::draw(2, "gc-2.13.3", "a\nb\nc\nd\ne\n", Some(&text));
        let _ = cli::draw(2, "gc-2.13.3", "a\nb\nc\nd\ne\n", Some(&history));
    }

    #[test]
    fn nothing_panics_on_odd_values(value in odd_json(), field in prop::sample::select(vec![
        "\"win_attempts\":2", "\"ally\":\"HK\"", "\"result\":\"ASH\"", "\"round\":1", "\"ended\":\"win\"",
        "\"player\":\"Alice\"", "\"faction\":\"AT\"", "\"games\":[", "\"ruleset\":\"gc-2.13.3\"",
    ])) {
        let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/report.json")).unwrap();
        let key = field.split(':').next().unwrap_or_default();
        let broken = text.replacen(field, &format!("{key}:{value}{}", if field.ends_with('[') { "[" } else { "" }), 1);
        let result = cli::standings(&broken, None);
        if let Err(e) = result {
            prop_assert!(!e.to_string().is_empty());
        }
    }
}

fn odd_json() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("null".to_owned()),
        Just("-1".to_owned()),
        Just("1e999".to_owned()),
        Just("4294967296".to_owned()),
        Just("2.5".to_owned()),
        Just("true".to_owned()),
        Just("[]".to_owned()),
        Just("{}".to_owned()),
        Just("\"\"".to_owned()),
        Just("\"\\u0000\"".to_owned()),
        any::<i64>().prop_map(|n| n.to_string()),
        "[a-zA-Z]{0,4}".prop_map(|s| format!("{s:?}")),
    ]
}

#[test]
fn full_ruleset_accepts_expansion_factions_and_split_end_game() {
    let seats = vec![
        seat(
            "a",
            Faction::Ixians,
            None,
            Some(WinType::SoloEndGame),
            [1, 2, 5, 5, 2, 3],
        ),
        seat("b", Faction::Tleilaxu, None, None, [0, 1, 5, 5, 2, 3]),
        seat("c", Faction::Choam, None, None, [0, 1, 5, 5, 2, 3]),
        seat("d", Faction::Atreides, None, None, [0, 1, 5, 5, 2, 3]),
        seat("e", Faction::Ecaz, None, None, [0, 1, 5, 5, 2, 3]),
    ];
    let mut full = report(vec![game(1, 1, Ending::Turns, seats)]);
    full.ruleset = Ruleset::Full;
    assert!(validate(&full).is_ok());
    let mut gc = full.clone();
    gc.ruleset = Ruleset::Gc2133;
    let errors = validate(&gc).unwrap_err().to_string();
    assert!(
        errors.contains("not a faction of ruleset gc-2.13.3"),
        "{errors}"
    );
    assert!(
        errors.contains("SEG is not on the points list of gc-2.13.3 (4.01.10); use EG"),
        "{errors}"
    );
}
