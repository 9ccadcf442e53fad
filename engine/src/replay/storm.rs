//! Storm phase (1.01): movement, destruction, storm order; Weather Control, Family Atomics and
//! the Fremen storm deck.

use super::karama::Ability;
use super::{Losses, Replay, names};
use crate::board::data::STORM_DECK;
use crate::board::{Card, Piece, Sector, Territory};
use crate::dgn::{Assertion, Event, Pos, Stmt};
use crate::state::Stack;
use dune::{Faction, FactionSet};
use dune::{Rule, rule};

/// A storm movement decided but not yet made (Family Atomics is played in between, 3.01.07).
struct Pending {
    steps: u32,
    pos: Pos,
    asserts: Vec<Assertion>,
    to: Option<Sector>,
    rule: Rule,
}

#[derive(Default)]
pub(super) struct StormData {
    pending: Option<Pending>,
    moved: bool,
    weather: bool,
    drawn: bool,
}

impl Replay {
    pub(super) fn storm_event(&mut self, ev: &Event) {
        let turn = self.st.turn;
        let fremen_deck = self.st.options.advanced && self.st.plays(Faction::Fremen);
        match &ev.stmt {
            Stmt::StormAt { sector, order } => {
                self.flush_storm();
                if let Some(s) = sector
                    && self.st.storm != Some(*s)
                {
                    let rule = self.storm_rule();
                    let actual = self
                        .st
                        .storm
                        .map_or("not placed".to_string(), |x| format!("in sector {x}"));
                    self.v(
                        rule,
                        format!("the log puts the storm in sector {s}; the replay has it {actual}"),
                    );
                }
                if let Some(order) = order
                    && *order != self.st.order
                {
                    self.v(rule!("1.01.01"), format!("storm order is {} (the first player is the one whose marker the storm approaches next), not {}", names(self.st.order.clone()), names(order.clone())));
                }
            }
            Stmt::StormDial { dials, to } => {
                if turn <= 1 {
                    self.v(
                        rule!("1.01.02"),
                        "turn 1's storm is the first storm (STORM0 in T0); it is not dialed again",
                    );
                    return;
                }
                if fremen_deck {
                    self.v(rule!("2.04.13"), "with the Fremen in an Advanced game the storm moves by the Fremen storm card (S FR card n), not by dials");
                }
                if self.t.storm.weather {
                    self.v(
                        rule!("3.01.23"),
                        "Weather Control decides this storm; the dials do not move it",
                    );
                    return;
                }
                if self.t.storm.moved || self.t.storm.pending.is_some() {
                    self.v(rule!("1.01.02"), "the storm moves once per Storm phase");
                    return;
                }
                if let Some(last) = self.st.last_wheels {
                    let expected: FactionSet = last.into_iter().collect();
                    let given: FactionSet = dials.iter().map(|d| d.0).collect();
                    if expected != given {
                        self.v(rule!("1.01.02"), format!("the storm is dialed by the two players who last used battle wheels ({}), not {}", names(expected.iter()), names(given.iter())));
                    }
                }
                for &(f, d, pos) in dials {
                    if !(1..=3).contains(&d) {
                        self.v_at(
                            pos,
                            rule!("1.01.02"),
                            format!("{f} dialed {d}; storm dials are 1-3"),
                        );
                    }
                }
                let steps = dials.iter().map(|d| d.1.min(1000)).sum();
                self.t.storm.pending = Some(Pending {
                    steps,
                    pos: ev.pos,
                    asserts: ev.asserts.clone(),
                    to: *to,
                    rule: rule!("1.01.02"),
                });
            }
            Stmt::StormCard { faction, value, to } => {
                if *faction != Faction::Fremen || !fremen_deck {
                    self.v(rule!("2.04.13"), "only the Fremen's storm card moves the storm, and only in an Advanced game with the Fremen");
                    return;
                }
                if turn <= 1 {
                    self.v(
                        rule!("2.04.13"),
                        "the storm card is used from turn 2 on; turn 1's storm is the first storm",
                    );
                    return;
                }
                if self.t.storm.weather {
                    self.v(
                        rule!("3.01.23"),
                        "Weather Control decides this storm; the storm card does not move it",
                    );
                    return;
                }
                if self.t.storm.moved || self.t.storm.pending.is_some() {
                    self.v(rule!("1.01.02"), "the storm moves once per Storm phase");
                    return;
                }
                if !STORM_DECK.iter().any(|&c| u32::from(c) == *value) {
                    self.v(
                        rule!("2.04.13"),
                        format!("the storm deck holds cards 1-6, not {value}"),
                    );
                }
                if let Some((pos, sealed)) = self.sealed_storm_card.take()
                    && sealed != *value
                {
                    self.v(rule!("2.04.13"), format!("the Fremen revealed storm card {value}, but the card sealed at line {} was {sealed}", pos.line));
                }
                let steps = (*value).min(1000);
                self.t.storm.pending = Some(Pending {
                    steps,
                    pos: ev.pos,
                    asserts: ev.asserts.clone(),
                    to: *to,
                    rule: rule!("2.04.13"),
                });
            }
            Stmt::StormDraw { faction, value } => {
                if *faction != Faction::Fremen || !fremen_deck {
                    self.v(
                        rule!("2.04.13"),
                        "only the Fremen draw storm cards, in an Advanced game",
                    );
                    return;
                }
                if self.t.storm.drawn {
                    self.v(rule!("2.04.13"), "the Fremen draw one storm card per turn");
                }
                self.t.storm.drawn = true;
                self.sealed_storm_card = match self.sealed(value) {
                    Some(Some(n)) => {
                        if !STORM_DECK.iter().any(|&c| u32::from(c) == *n) {
                            self.v(
                                rule!("2.04.13"),
                                format!("the storm deck holds cards 1-6, not {n}"),
                            );
                        }
                        Some((ev.pos, *n))
                    }
                    _ => None,
                };
            }
            Stmt::WeatherControl { faction, sectors } => {
                if turn <= 1 {
                    self.v(
                        rule!("3.01.23"),
                        "Weather Control can be played only after the first turn",
                    );
                    return;
                }
                if self.t.storm.moved {
                    self.v(
                        rule!("3.01.23"),
                        "Weather Control is played before the storm moves",
                    );
                    return;
                }
                if *sectors > 10 {
                    self.v(
                        rule!("3.01.23"),
                        format!("Weather Control moves the storm 0-10 sectors, not {sectors}"),
                    );
                }
                self.play_card(*faction, Card::WeatherControl, rule!("3.01.23"), false);
                self.t.storm.weather = true;
                self.t.storm.pending = Some(Pending {
                    steps: (*sectors).min(10),
                    pos: ev.pos,
                    asserts: ev.asserts.clone(),
                    to: None,
                    rule: rule!("3.01.23"),
                });
            }
            Stmt::FamilyAtomics { faction } => self.family_atomics(ev, *faction),
            _ => {}
        }
    }

    fn family_atomics(&mut self, ev: &Event, f: Faction) {
        if self.st.turn <= 1 {
            self.v(
                rule!("3.01.07"),
                "Family Atomics can be played only after the first turn",
            );
            return;
        }
        if self.t.storm.moved {
            self.v(rule!("3.01.07"), "Family Atomics is played after the storm movement is known but before the storm moves");
            return;
        }
        if self.st.atomics_used {
            self.v(
                rule!("3.01.07"),
                "Family Atomics has already been played (the card is set aside for good)",
            );
            return;
        }
        if !self.atomics_position(f) {
            self.v(rule!("3.01.07"), format!("{f} needs fighters on the Shield Wall, or in a territory next to it with no storm in between, to play Family Atomics"));
        }
        self.play_card(f, Card::FamilyAtomics, rule!("3.01.07"), false);
        let mut losses = Losses::default();
        for &p in Territory::ShieldWall.pieces() {
            for g in self.st.in_play.iter() {
                let s = self.st.wipe_piece(g, p);
                losses.add_forces(Territory::ShieldWall, g, s);
            }
        }
        self.st.atomics_used = true;
        self.check_losses(&ev.asserts, &losses, rule!("3.01.07"));
    }

    /// 3.01.07: fighters (not advisors, 2.02.12) on the Shield Wall, or on a piece next to it
    /// reachable without crossing the storm.
    fn atomics_position(&self, f: Faction) -> bool {
        let storm = self.st.storm;
        let wall = Territory::ShieldWall;
        if wall
            .pieces()
            .iter()
            .any(|&p| self.st.stack(f, p).fighting() > 0)
        {
            return true;
        }
        for &t in wall.neighbours() {
            for &p in t.pieces() {
                if self.st.stack(f, p).fighting() == 0 || p.in_storm(storm) {
                    continue;
                }
                // Walk inside the territory to a piece touching an open Shield Wall piece.
                let reaches = t.pieces().iter().any(|&q| {
                    crate::board::board().connected_within(p, q, storm)
                        && q.neighbours()
                            .iter()
                            .any(|n| n.territory() == wall && !n.in_storm(storm))
                });
                if reaches {
                    return true;
                }
            }
        }
        false
    }

    /// Makes the pending storm movement.
    pub(super) fn flush_storm(&mut self) {
        let Some(p) = self.t.storm.pending.take() else {
            return;
        };
        let from = self.st.storm.unwrap_or(Sector::START);
        let dest = from.advance(p.steps);
        if let Some(to) = p.to
            && to != dest
        {
            self.v_at(p.pos, p.rule, format!("moving {} sectors from sector {from} takes the storm to sector {dest}, not {to}", p.steps));
        }
        let losses = self.move_storm(from, p.steps);
        let specific = self.storm_loss_rules();
        self.check_losses_by(&p.asserts, &losses, rule!("1.01.03"), specific);
        self.t.storm.moved = true;
        self.compute_order();
    }

    pub(super) fn finish_storm(&mut self) {
        self.flush_storm();
        if self.st.turn >= 2 && !self.t.storm.moved {
            let rule = if self.st.options.advanced && self.st.plays(Faction::Fremen) {
                rule!("2.04.13")
            } else {
                rule!("1.01.02")
            };
            self.v(rule, "the storm's movement is not logged for this turn");
        }
        self.compute_order();
    }

    /// The rule that decides where the storm is this turn: the first storm (0.16), Weather
    /// Control (3.01.23), the Fremen storm card (2.04.13), or the dials (1.01.02).
    pub(super) fn storm_rule(&self) -> Rule {
        if self.st.turn <= 1 {
            rule!("0.16")
        } else if self.t.storm.weather {
            rule!("3.01.23")
        } else if self.st.options.advanced && self.st.plays(Faction::Fremen) {
            rule!("2.04.13")
        } else {
            rule!("1.01.02")
        }
    }

    /// The rules more specific than 1.01.03 for the storm's losses: the Fremen's half losses
    /// (2.04.16, Advanced) or the Karama that cancelled them, and the Imperial Basin, Arrakeen and
    /// Carthag, which the storm reaches only after Family Atomics (3.01.07).
    pub(super) fn storm_loss_rules(&self) -> impl Fn(Faction, Territory) -> Option<Rule> + use<> {
        let fremen = self.st.options.advanced.then(|| {
            self.karama_block(Ability::FrStormLosses)
                .map_or(rule!("2.04.16"), |b| b.rule())
        });
        let atomics = self.st.atomics_used;
        move |f, t| {
            if f == Faction::Fremen && fremen.is_some() {
                fremen
            } else if atomics
                && matches!(
                    t,
                    Territory::ImperialBasin | Territory::Arrakeen | Territory::Carthag
                )
            {
                Some(rule!("3.01.07"))
            } else {
                None
            }
        }
    }

    /// Moves the storm `steps` sectors counterclockwise from `from`, destroying forces in sand
    /// sectors it starts on, passes or ends on and spice it passes or stops on (1.01.03; the
    /// Fremen lose half, rounded up, and nothing where it starts, 2.04.16).
    pub(super) fn move_storm(&mut self, from: Sector, steps: u32) -> Losses {
        let mut losses = Losses::default();
        self.st.storm = Some(from.advance(steps));
        if steps == 0 {
            return losses;
        }
        let mut hit = [false; 18];
        for k in 0..=steps.min(17) {
            hit[from.advance(k).index() as usize] = true;
        }
        // A Karama cancelling 2.04.16 makes this storm take the Fremen like everyone else.
        let fremen_half =
            self.st.options.advanced && self.karama_block(Ability::FrStormLosses).is_none();
        for p in Piece::all() {
            let Some(s) = p.sector() else { continue };
            if !hit[s.index() as usize] {
                continue;
            }
            let t = p.territory();
            if s != from {
                let sp = std::mem::take(&mut self.st.spice[p.index()]);
                losses.add_spice(t, sp);
            }
            if !t.storm_hits(self.st.atomics_used) {
                continue;
            }
            for f in self.st.in_play.iter() {
                if f == Faction::Fremen && fremen_half {
                    if s == from {
                        continue;
                    }
                    let stack = self.st.stack(f, p);
                    let lose = stack.total().div_ceil(2);
                    let taken = self.st.take_from_piece(
                        f,
                        p,
                        crate::state::Forces::new(lose, 0),
                        crate::dgn::Side::Unspecified,
                    );
                    let rest = lose - taken.total();
                    let taken2 = self.st.take_from_piece(
                        f,
                        p,
                        crate::state::Forces::new(0, rest),
                        crate::dgn::Side::Unspecified,
                    );
                    let mut all = taken;
                    all.add(taken2);
                    self.st.faction_mut(f).tanks.add(all.forces());
                    losses.add_forces(t, f, all);
                } else {
                    let s: Stack = self.st.wipe_piece(f, p);
                    losses.add_forces(t, f, s);
                }
            }
        }
        losses
    }

    /// Storm order (1.01.01): the first player is the one whose circle the storm approaches next;
    /// circle c sits at sector 3c+1 (0-17), so that is circle ceil(s/3) mod 6, then onwards.
    pub(super) fn compute_order(&mut self) {
        let Some(s) = self.st.storm else { return };
        let first = u32::from(s.index()).div_ceil(3) % 6;
        let mut order = Vec::new();
        for k in 0..6 {
            let c = ((first + k) % 6) as u8;
            if let Some(f) = self
                .st
                .in_play
                .iter()
                .find(|&f| self.circles[f.index()] == Some(c))
            {
                order.push(f);
            }
        }
        self.st.order = order;
    }
}
