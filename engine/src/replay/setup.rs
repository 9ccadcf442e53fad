//! The header (rule options, seats) and setup, 0.01-0.16.

use super::{Replay, names};
use crate::board::data::{FREMEN_START, FREMEN_START_FORCES};
use crate::board::{Sector, Territory};
use crate::dgn::{Event, Game, Pos, Side, Stmt};
use crate::state::{Forces, RuleOptions};
use dune::{Faction, FactionSet};
use dune::{Rule, rule};

/// Setup bookkeeping (kept for the whole game: the prediction is checked at every Mentat Pause).
#[derive(Default)]
pub(super) struct SetupData {
    pub(super) seen_t0: bool,
    traitors: FactionSet,
    cards: FactionSet,
    fremen_placed: u8,
    fremen_place_seen: bool,
    bg_placed: bool,
    storm_done: bool,
    /// BG prediction (audit mode): faction and turn.
    pub(super) prediction: Option<(Faction, u32)>,
}

type HeaderViolation = (Pos, Rule, String);

/// Reads the rule options and the seats from the tags. Unknown tags are kept but ignored.
pub(super) fn read_header(
    game: &Game,
) -> (
    RuleOptions,
    Vec<Faction>,
    [Option<u8>; Faction::COUNT],
    Vec<HeaderViolation>,
) {
    let mut o = RuleOptions::default();
    let mut v: Vec<HeaderViolation> = Vec::new();
    if let Some(t) = game.tag("Ruleset") {
        let norm = t.value.trim().to_ascii_lowercase().replace(' ', "-");
        if norm != "gc-2.13.3" {
            v.push((t.pos, rule!("0.03"), format!("ruleset \"{}\" is not supported: this engine knows gc-2.13.3 (replayed as gc-2.13.3)", t.value)));
        }
    }
    if let Some(t) = game.tag("Mode") {
        match t.value.trim().to_ascii_lowercase().as_str() {
            "advanced" => o.advanced = true,
            "basic" => o.advanced = false,
            _ => v.push((
                t.pos,
                rule!("1.13.00"),
                format!(
                    "Mode must be \"Advanced\" or \"Basic\", not \"{}\"",
                    t.value
                ),
            )),
        }
    }
    if let Some(t) = game.tag("Variants") {
        o.shield_wall = false;
        o.stronghold_cards = false;
        for w in t.value.split_whitespace() {
            match w {
                "ShieldWall" => o.shield_wall = true,
                "StrongholdCards" => o.stronghold_cards = true,
                "Tournament" | "-" => {}
                other => v.push((
                    t.pos,
                    rule!("0.03"),
                    format!(
                        "unknown variant \"{other}\" (GenCon has ShieldWall and StrongholdCards)"
                    ),
                )),
            }
        }
    }
    if let Some(t) = game.tag("MaxTurns") {
        match t.value.trim().parse::<u32>() {
            Ok(n) if (1..=10).contains(&n) => o.max_turns = n,
            _ => v.push((
                t.pos,
                rule!("0.02"),
                format!(
                    "MaxTurns must be 1-10 in tournament play, not \"{}\"",
                    t.value
                ),
            )),
        }
    }
    let mut seats: Vec<(u32, Faction)> = Vec::new();
    match game.tag("Factions") {
        Some(t) => {
            for item in t.value.split_whitespace() {
                let parsed = item.split_once('=').and_then(|(s, f)| {
                    Some((s.parse::<u32>().ok()?, crate::dgn::faction_code(f)?))
                });
                match parsed {
                    Some((seat, f)) if seats.iter().any(|(s, g)| *s == seat || *g == f) => {
                        v.push((
                            t.pos,
                            rule!("0.08"),
                            format!("seat {seat} or faction {f} appears twice in the Factions tag"),
                        ))
                    }
                    Some(p) => seats.push(p),
                    None => v.push((
                        t.pos,
                        rule!("0.08"),
                        format!(
                            "\"{item}\" in the Factions tag should read seat=faction, e.g. 1=SG"
                        ),
                    )),
                }
            }
        }
        None => {
            let pos = game
                .events
                .first()
                .map_or(Pos { line: 1, col: 1 }, |e| e.pos);
            v.push((pos, rule!("0.08"), "the Factions tag (seat=faction …) is missing; seats 1-6 are taken to be AT BG EM FR HK SG".to_string()));
            seats = Faction::CLASSIC
                .iter()
                .enumerate()
                .map(|(i, &f)| (i as u32 + 1, f))
                .collect();
        }
    }
    seats.sort();
    let n = seats.len();
    if let Some(t) = game.tag("Factions")
        && (n < 2
            || seats
                .iter()
                .enumerate()
                .any(|(i, (s, _))| *s != i as u32 + 1))
    {
        v.push((
            t.pos,
            rule!("0.07"),
            "seats must be numbered 1 to the number of players".to_string(),
        ));
    }
    // Circles: seat 1 at circle 1 (nearest Tuek's Sietch), each next seat at the next occupied
    // circle counterclockwise (rulings.md 2). Default empty circles for fewer than six players:
    // the last ones in that sequence (circle 0 at five players).
    let sequence = [1u8, 2, 3, 4, 5, 0];
    let mut empty: Vec<u8> = sequence
        .iter()
        .rev()
        .take(6usize.saturating_sub(n))
        .copied()
        .collect();
    if let Some(t) = game.tag("EmptyCircles") {
        let parsed: Option<Vec<u8>> = t
            .value
            .split_whitespace()
            .map(|w| w.parse::<u8>().ok().filter(|c| *c < 6))
            .collect();
        match parsed {
            Some(list) if list.len() + n == 6 => empty = list,
            _ => v.push((
                t.pos,
                rule!("0.10"),
                format!(
                    "EmptyCircles must list {} circle numbers 0-5",
                    6usize.saturating_sub(n)
                ),
            )),
        }
    }
    let free: Vec<u8> = sequence
        .iter()
        .copied()
        .filter(|c| !empty.contains(c))
        .collect();
    let mut circles = [None; Faction::COUNT];
    for (i, (_, f)) in seats.iter().enumerate() {
        circles[f.index()] = free.get(i).copied();
    }
    let factions = seats.into_iter().map(|(_, f)| f).collect();
    (o, factions, circles, v)
}

impl Replay {
    /// Fixed starting forces (2.xx.02) before the log's own setup lines.
    pub(super) fn begin_setup(&mut self) {
        let seated = self.st.in_play;
        for f in seated.iter() {
            if let Some(c) = self.circles[f.index()] {
                self.st.faction_mut(f).circle = c;
            }
        }
        for f in seated.iter() {
            if let Some((t, n)) = self.st.faction(f).sheet.start {
                let p = t
                    .piece(t.single_sector())
                    .or_else(|| t.pieces().first().copied());
                if let Some(p) = p {
                    self.st
                        .place_from_reserves(f, p, crate::dgn::ForceCount::plain(n), false);
                }
            }
            if f == Faction::BeneGesserit && !self.st.options.advanced {
                if let Some(p) = Territory::PolarSink.piece(None) {
                    self.st
                        .place_from_reserves(f, p, crate::dgn::ForceCount::plain(1), false);
                }
                self.setup.bg_placed = true;
            }
        }
    }

    pub(super) fn setup_event(&mut self, ev: &Event) {
        match &ev.stmt {
            Stmt::Traitors { faction, leaders } => {
                let f = *faction;
                if !self.in_play_or_report(f) {
                    return;
                }
                if self.setup.traitors.contains(f) {
                    self.v(rule!("0.11"), format!("{f}'s traitors are recorded twice"));
                }
                self.setup.traitors.insert(f);
                let Some(list) = self.sealed(leaders).cloned() else {
                    return;
                };
                let want = if f == Faction::Harkonnen { 4 } else { 1 };
                if list.len() != want {
                    let rule = if f == Faction::Harkonnen {
                        rule!("2.05.03")
                    } else {
                        rule!("0.11")
                    };
                    self.v(
                        rule,
                        format!(
                            "{f} keeps {want} traitor card(s), the sealed record holds {}",
                            list.len()
                        ),
                    );
                }
                for l in list.iter().flatten() {
                    if !self.st.plays(l.faction()) {
                        self.v(rule!("0.11"), format!("{l} is a {} leader; traitor cards of factions not in play are removed", l.faction()));
                    }
                    let elsewhere = self.st.in_play.iter().any(|g| {
                        g != f
                            && self
                                .st
                                .faction(g)
                                .traitors
                                .as_ref()
                                .is_some_and(|t| t.contains(&Some(*l)))
                    });
                    if elsewhere {
                        self.v(rule!("0.11"), format!("the traitor card {l} is recorded for two factions; each card exists once"));
                    }
                }
                self.st.faction_mut(f).traitors = Some(list);
            }
            Stmt::Prediction {
                faction,
                prediction,
            } => {
                if *faction != Faction::BeneGesserit {
                    self.v(
                        rule!("2.02.03"),
                        format!("only the Bene Gesserit predict; {faction} cannot"),
                    );
                    return;
                }
                if !self.in_play_or_report(*faction) {
                    return;
                }
                if let Some(Some((f, turn))) = self.sealed(prediction).cloned() {
                    if f == Faction::BeneGesserit || !self.st.plays(f) {
                        self.v(
                            rule!("2.02.03"),
                            format!(
                                "the Bene Gesserit must predict another faction in play, not {f}"
                            ),
                        );
                    }
                    if turn < 1 || turn > self.st.options.max_turns {
                        self.v(
                            rule!("2.02.03"),
                            format!(
                                "the predicted turn {turn} is outside 1-{}",
                                self.st.options.max_turns
                            ),
                        );
                    }
                    self.setup.prediction = Some((f, turn));
                }
            }
            Stmt::StartingCards {
                faction,
                count,
                cards,
            } => {
                let f = *faction;
                if !self.in_play_or_report(f) {
                    return;
                }
                if self.setup.cards.contains(f) {
                    self.v(
                        rule!("0.14"),
                        format!("{f}'s starting cards are recorded twice"),
                    );
                    return;
                }
                self.setup.cards.insert(f);
                let want = self.st.faction(f).sheet.starting_cards;
                if *count != want {
                    let rule = if f == Faction::Harkonnen {
                        rule!("2.05.04")
                    } else {
                        rule!("0.14")
                    };
                    self.v(
                        rule,
                        format!("{f} starts with {want} treachery card(s), not {count}"),
                    );
                }
                let ids = self.sealed(cards).cloned().unwrap_or_default();
                if !ids.is_empty() && ids.len() != usize::from(*count) {
                    self.v(
                        rule!("0.14"),
                        format!(
                            "{f}'s sealed starting cards list {} cards for a count of {count}",
                            ids.len()
                        ),
                    );
                }
                self.deal_cards(f, u32::from(*count), &ids);
            }
            Stmt::Place {
                faction,
                place,
                forces,
            } => self.place(ev, *faction, *place, *forces),
            Stmt::FirstStorm { dials, to } => self.first_storm(ev, dials, *to),
            _ => {}
        }
    }

    /// Draws `n` cards into a hand; `ids` are the identities known from sealed data.
    pub(super) fn deal_cards(&mut self, f: Faction, n: u32, ids: &[Option<crate::board::Card>]) {
        let drawn = self.st.draw_treachery(n);
        if drawn < n {
            self.v(
                rule!("0.06"),
                format!("the treachery deck and discard pile hold no more cards for {f}"),
            );
        }
        for i in 0..drawn as usize {
            let id = ids.get(i).copied().flatten();
            self.st.faction_mut(f).hand.push(id);
            if let Some(c) = id {
                self.check_copies(c);
            }
        }
    }

    fn place(
        &mut self,
        ev: &Event,
        f: Faction,
        place: crate::dgn::Place,
        forces: crate::dgn::ForceCount,
    ) {
        if !self.in_play_or_report(f) {
            return;
        }
        if self.setup.storm_done {
            self.v(
                rule!("0.16"),
                "forces are placed (0.13) before the first storm (0.16)",
            );
        }
        let t = place.territory;
        let piece = match place.sector {
            Some(s) => t.piece(Some(s)),
            None => {
                let p = t.piece(t.single_sector()).or_else(|| t.piece(None));
                if p.is_none() {
                    self.v(
                        rule!("0.13"),
                        format!(
                            "{} lies in several sectors: name the sector, e.g. {}/{}",
                            t.name(),
                            t.code(),
                            t.sectors().next().map_or(1, |s| s.notation())
                        ),
                    );
                }
                p.or_else(|| t.pieces().first().copied())
            }
        };
        let Some(piece) = piece else { return };
        match f {
            Faction::Fremen => {
                if !FREMEN_START.contains(&t) {
                    self.v(rule!("2.04.02"), format!("the Fremen start in Sietch Tabr, False Wall South and False Wall West, not {}", t.name()));
                }
                if u32::from(self.setup.fremen_placed) + u32::from(forces.total)
                    > u32::from(FREMEN_START_FORCES)
                {
                    self.v(rule!("2.04.02"), format!("the Fremen place {FREMEN_START_FORCES} forces at setup; this placement makes {}", u32::from(self.setup.fremen_placed) + u32::from(forces.total)));
                }
                if !self
                    .st
                    .faction(f)
                    .reserves
                    .covers(Forces::from_count(forces))
                {
                    self.v(
                        rule!("2.04.18"),
                        format!(
                            "the Fremen have only {} Fedaykin",
                            self.st.faction(f).reserves.starred
                        ),
                    );
                }
                self.setup.fremen_place_seen = true;
                let got = self.st.place_from_reserves(f, piece, forces, false);
                self.setup.fremen_placed = self.setup.fremen_placed.saturating_add(got.total());
            }
            Faction::BeneGesserit if self.st.options.advanced => {
                if self.setup.bg_placed {
                    self.v(
                        rule!("2.02.08"),
                        "the Bene Gesserit place one advisor at setup, once",
                    );
                    return;
                }
                if self.st.plays(Faction::Fremen) && !self.setup.fremen_place_seen {
                    self.v(rule!("2.02.08"), "the Bene Gesserit advisor is placed after the Fremen have placed their forces");
                }
                if forces.total != 1 {
                    self.v(
                        rule!("2.02.08"),
                        format!(
                            "the Bene Gesserit place 1 advisor at setup, not {}",
                            forces.total
                        ),
                    );
                }
                let alone = self.st.present(t).iter().all(|&g| g == f);
                let side = if alone { Side::Fighter } else { Side::Advisor };
                if forces.side != Side::Unspecified && forces.side != side {
                    let why = if alone {
                        "it is alone there, so it flips to a fighter"
                    } else {
                        "it shares the territory, so it stays an advisor"
                    };
                    self.v(
                        rule!("2.02.08"),
                        format!(
                            "the Bene Gesserit token in {} is logged as {forces}, but {why}",
                            t.name()
                        ),
                    );
                }
                self.st.place_from_reserves(
                    f,
                    piece,
                    crate::dgn::ForceCount {
                        total: 1,
                        starred: 0,
                        side,
                    },
                    false,
                );
                self.setup.bg_placed = true;
            }
            Faction::BeneGesserit => {
                // Basic: the Polar Sink token is placed automatically (2.02.02).
                if t != Territory::PolarSink || forces.total != 1 {
                    self.v(
                        rule!("2.02.02"),
                        "in the Basic game the Bene Gesserit start with 1 force in the Polar Sink",
                    );
                }
            }
            _ => {
                let start = self
                    .st
                    .faction(f)
                    .sheet
                    .start
                    .map_or("none".to_string(), |(t, n)| format!("{n} in {}", t.name()));
                self.v(rule!("0.13"), format!("{f}'s starting forces are fixed ({start}) and placed automatically; PLACE is for the Fremen and the Bene Gesserit"));
            }
        }
        let _ = ev;
    }

    fn first_storm(&mut self, ev: &Event, dials: &[(Faction, u32, Pos); 2], to: Option<Sector>) {
        if self.setup.storm_done {
            self.v(rule!("0.16"), "the first storm is placed once");
            return;
        }
        self.setup.storm_done = true;
        // 0.16 / rulings.md 18: the occupied circles nearest the Storm Start sector on either side.
        let mut seated: Vec<(u8, Faction)> = self
            .st
            .in_play
            .iter()
            .filter_map(|f| self.circles[f.index()].map(|c| (c, f)))
            .collect();
        seated.sort();
        let expected: FactionSet = [seated.first().map(|x| x.1), seated.last().map(|x| x.1)]
            .into_iter()
            .flatten()
            .collect();
        let given: FactionSet = dials.iter().map(|d| d.0).collect();
        if given != expected {
            self.v(rule!("0.16"), format!("the first storm is dialed by {} (the markers nearest the Storm Start sector on either side), not {}", names(expected.iter()), names(given.iter())));
        }
        for &(f, d, pos) in dials {
            if d > 20 {
                self.v_at(
                    pos,
                    rule!("0.16"),
                    format!("{f} dialed {d}; the first storm dials are 0-20"),
                );
            }
        }
        let steps = dials.iter().map(|d| d.1.min(1000)).sum::<u32>();
        let dest = Sector::START.advance(steps);
        if let Some(s) = to
            && s != dest
        {
            self.v(
                rule!("0.16"),
                format!(
                    "{} + {} moves the storm from the Storm Start sector to sector {dest}, not {s}",
                    dials[0].1, dials[1].1
                ),
            );
        }
        let losses = self.move_storm(Sector::START, steps);
        let specific = self.storm_loss_rules();
        self.check_losses_by(&ev.asserts, &losses, rule!("1.01.03"), specific);
        self.st.last_wheels = Some([dials[0].0, dials[1].0]);
        self.compute_order();
    }

    pub(super) fn finish_setup(&mut self) {
        if self.st.plays(Faction::Fremen) && self.setup.fremen_placed < FREMEN_START_FORCES {
            self.v(
                rule!("2.04.02"),
                format!(
                    "the Fremen placed {} of their 10 starting forces (PLACE FR …)",
                    self.setup.fremen_placed
                ),
            );
        }
        if self.st.plays(Faction::BeneGesserit) && !self.setup.bg_placed {
            self.v(
                rule!("2.02.08"),
                "the Bene Gesserit starting advisor is not placed (PLACE BG …)",
            );
        }
        for f in self.st.in_play.iter() {
            if !self.setup.cards.contains(f) {
                self.setup.cards.insert(f);
                self.deal_cards(f, u32::from(self.st.faction(f).sheet.starting_cards), &[]);
            }
        }
        if !self.setup.storm_done {
            self.v(rule!("0.16"), "the first storm (STORM0) is not recorded");
        }
    }
}
