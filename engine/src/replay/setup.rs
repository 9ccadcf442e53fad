//! The header (rule options, seats) and setup, 0.01-0.16.

use super::{Replay, names};
use crate::board::Sector;
use crate::dgn::{Event, Game, Pos, Stmt};
use crate::state::RuleOptions;
use dune::{Faction, FactionSet};
use dune::{Rule, rule};
use tournament::ruleset::Ruleset;

/// Setup bookkeeping (kept for the whole game: the prediction is checked at every Mentat Pause).
#[derive(Default)]
pub(crate) struct SetupData {
    pub(crate) seen_t0: bool,
    /// Factions whose alliance-card choice is recorded (0.08, full format), and every alliance
    /// card seen dealt.
    pub(crate) alliance_cards: FactionSet,
    pub(crate) cards_dealt: FactionSet,
    pub(crate) traitors: FactionSet,
    pub(crate) cards: FactionSet,
    pub(crate) fremen_placed: u8,
    pub(crate) fremen_place_seen: bool,
    pub(crate) bg_placed: bool,
    pub(crate) storm_done: bool,
    /// BG prediction (audit mode): faction and turn.
    pub(crate) prediction: Option<(Faction, u32)>,
    /// The Ixians' pocket cards and their stronghold's placement (000 2.07.03, 2.07.04).
    pub(crate) ixians: crate::factions::ixians::Setup,
    /// The Tleilaxu's Face Dancers, drawn at setup and again (000 2.08.03, 2.08.06).
    pub(crate) dancers: crate::factions::tleilaxu::Dancers,
}

type HeaderViolation = (Pos, Rule, String);

/// Reads the rule options and the seats from the tags. Unknown tags are kept but ignored.
pub(crate) fn read_header(
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
        // `000`, the full rulebook's file number, names its tournament format too.
        let norm = if norm == "000" {
            "full".to_string()
        } else {
            norm
        };
        match norm.parse::<Ruleset>() {
            Ok(r) => o.ruleset = r,
            Err(_) => v.push((t.pos, rule!("0.03"), format!("ruleset \"{}\" is not supported: this engine knows gc-2.13.3 and full (replayed as gc-2.13.3)", t.value))),
        }
    }
    // Which of the full rulebook's two printed texts applies (docs/notation.md, Decisions 72;
    // rulings.md 28): the revised one unless the event chose the original.
    if let Some(t) = game.tag("Edition") {
        match t.value.trim().to_ascii_lowercase().as_str() {
            "original" => o.edition = crate::state::Edition::Original,
            "revised" => o.edition = crate::state::Edition::Revised,
            _ => v.push((
                t.pos,
                rule!("0.03"),
                format!(
                    "Edition must be \"revised\" (the default) or \"original\", not \"{}\" (replayed as revised)",
                    t.value
                ),
            )),
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
    // Who may sit down: the ruleset's factions (0.08: the GenCon rulebook's six classic ones;
    // the full format's thirteen, Classic and Expansion in any seats), and of those only the
    // factions whose rules the engine checks. The others are refused here, at the setup line.
    if let Some(t) = game.tag("Factions") {
        for &(seat, f) in &seats {
            if !o.ruleset.has_faction(f) {
                v.push((t.pos, rule!("0.08"), format!("seat {seat}: {f} ({}) is an expansion faction of the full rulebook; the {} ruleset seats the six classic factions only (write [Ruleset \"full\"] for the full rulebook's tournament format)", f.name(), o.ruleset)));
            } else if let Some(why) = crate::factions::rules(f).not_checked() {
                v.push((t.pos, rule!("0.08"), format!("seat {seat}: {why}")));
            }
        }
    }
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
    pub(crate) fn begin_setup(&mut self) {
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
            crate::factions::rules(f).begin_setup(self);
        }
    }

    pub(crate) fn setup_event(&mut self, ev: &Event) {
        match &ev.stmt {
            Stmt::AllianceCards { faction, dealt } => self.alliance_cards(*faction, dealt),
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
                let sheet = self.st.faction(f).sheet;
                let want = usize::from(sheet.traitors);
                if list.len() != want {
                    let rule = sheet.rules.traitors;
                    self.v(
                        rule,
                        format!(
                            "{f} keeps {want} traitor card(s), the sealed record holds {}",
                            list.len()
                        ),
                    );
                }
                for l in list.iter().flatten() {
                    for g in self.st.in_play.iter() {
                        crate::factions::rules(g).traitor_forbidden(self, f, *l);
                    }
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
                    let rule = self.st.faction(f).sheet.rules.starting_cards;
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
                for g in self.st.in_play.iter() {
                    crate::factions::rules(g).starting_cards(self, f, &ids);
                }
                self.deal_cards(f, u32::from(*count), &ids);
            }
            Stmt::Place {
                faction,
                place,
                forces,
            } => self.place(ev, *faction, *place, *forces),
            Stmt::FirstStorm { dials, to } => self.first_storm(ev, dials, *to),
            _ => {
                crate::factions::ability_statement(self, ev);
            }
        }
    }

    /// `AC F{F,F}` (0.08 in the full format): each player is dealt one Classic and one Expansion
    /// alliance card and keeps one, the faction they play. The cards are sealed (the one returned
    /// goes back to the box unseen): audit mode checks them.
    fn alliance_cards(&mut self, f: Faction, dealt: &crate::dgn::Sealed<Vec<Option<Faction>>>) {
        if self.st.options.ruleset != Ruleset::Full {
            self.v(rule!("0.08"), format!("alliance cards are dealt in the full rulebook's tournament format ([Ruleset \"full\"]); under {} each seat's faction is drawn (the Factions tag)", self.st.options.ruleset));
            return;
        }
        if !self.in_play_or_report(f) {
            return;
        }
        if self.setup.alliance_cards.contains(f) {
            self.v(
                rule!("0.08"),
                format!("{f}'s alliance-card choice is recorded twice"),
            );
            return;
        }
        self.setup.alliance_cards.insert(f);
        let Some(cards) = self.sealed(dealt).cloned() else {
            return;
        };
        if cards.len() != 2 {
            self.v(
                rule!("0.08"),
                format!(
                    "each player is dealt two alliance cards; {f}'s record lists {}",
                    cards.len()
                ),
            );
        }
        let known: Vec<Faction> = cards.iter().flatten().copied().collect();
        if cards.iter().all(Option::is_some) && !known.contains(&f) {
            self.v(
                rule!("0.08"),
                format!(
                    "{f} plays the faction of an alliance card it kept, but its cards were {}",
                    names(known.iter().copied())
                ),
            );
        }
        if let [a, b] = known[..]
            && a.is_classic() == b.is_classic()
        {
            self.v(rule!("0.08"), format!("the two alliance cards dealt to {f} are one Classic and one Expansion faction, not {a} and {b}"));
        }
        for g in known {
            if self.setup.cards_dealt.contains(g) {
                self.v(
                    rule!("0.08"),
                    format!("the {g} alliance card is dealt twice; each card exists once"),
                );
            }
            self.setup.cards_dealt.insert(g);
        }
    }

    /// Draws `n` cards into a hand; `ids` are the identities known from sealed data.
    pub(crate) fn deal_cards(&mut self, f: Faction, n: u32, ids: &[Option<crate::board::Card>]) {
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

    pub(crate) fn place(
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
        if !crate::factions::rules(f).place(self, t, piece, forces) {
            let start = self
                .st
                .faction(f)
                .sheet
                .start
                .map_or("none".to_string(), |(t, n)| format!("{n} in {}", t.name()));
            let rule = crate::factions::rules(f)
                .sheet_rule(crate::factions::SheetItem::Forces)
                .unwrap_or(rule!("0.13"));
            self.v(rule, format!("{f}'s starting forces are fixed ({start}) and placed automatically; PLACE is for the Fremen and the Bene Gesserit"));
        }
        let _ = ev;
    }

    pub(crate) fn first_storm(
        &mut self,
        ev: &Event,
        dials: &[(Faction, u32, Pos); 2],
        to: Option<Sector>,
    ) {
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

    pub(crate) fn finish_setup(&mut self) {
        for f in self.st.in_play.iter() {
            crate::factions::rules(f).finish_setup(self);
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
