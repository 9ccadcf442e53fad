//! Storm phase (1.01): movement, destruction, storm order; Weather Control, Family Atomics and
//! the Fremen storm deck.

use super::{Losses, Replay, names};
use crate::board::{Card, Piece, Sector, Territory};
use crate::dgn::{Assertion, Event, Pos, Stmt};
use dune::{Faction, FactionSet};
use dune::{Rule, rule};

/// A storm movement decided but not yet made (Family Atomics is played in between, 3.01.07).
pub(crate) struct Pending {
    pub(crate) steps: u32,
    pub(crate) pos: Pos,
    pub(crate) asserts: Vec<Assertion>,
    pub(crate) to: Option<Sector>,
    pub(crate) rule: Rule,
}

#[derive(Default)]
pub(crate) struct StormData {
    pub(crate) pending: Option<Pending>,
    pub(crate) moved: bool,
    pub(crate) weather: bool,
    pub(crate) drawn: bool,
}

impl Replay {
    pub(crate) fn storm_event(&mut self, ev: &Event) {
        let turn = self.st.turn;
        let storm_deck = self.storm_deck();
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
                if let Some((owner, rule)) = storm_deck {
                    self.v(rule, format!("with the {} in an Advanced game the storm moves by their storm card (S {owner} card n), not by dials", owner.name()));
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
            _ => {
                crate::factions::ability_statement(self, ev);
            }
        }
    }

    pub(crate) fn family_atomics(&mut self, ev: &Event, f: Faction) {
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
    pub(crate) fn atomics_position(&self, f: Faction) -> bool {
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
    pub(crate) fn flush_storm(&mut self) {
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

    pub(crate) fn finish_storm(&mut self) {
        self.flush_storm();
        if self.st.turn >= 2 && !self.t.storm.moved {
            let rule = self.storm_deck().map_or(rule!("1.01.02"), |d| d.1);
            self.v(rule, "the storm's movement is not logged for this turn");
        }
        self.compute_order();
    }

    /// The rule that decides where the storm is this turn: the first storm (0.16), Weather
    /// Control (3.01.23), the Fremen storm card (2.04.13), or the dials (1.01.02).
    pub(crate) fn storm_rule(&self) -> Rule {
        if self.st.turn <= 1 {
            rule!("0.16")
        } else if self.t.storm.weather {
            rule!("3.01.23")
        } else if let Some((_, rule)) = self.storm_deck() {
            rule
        } else {
            rule!("1.01.02")
        }
    }

    /// The faction whose storm deck moves the storm (2.04.13), with the rule that says so.
    pub(crate) fn storm_deck(&self) -> Option<(Faction, Rule)> {
        self.st
            .in_play
            .iter()
            .find_map(|f| crate::factions::rules(f).storm_deck(self).map(|r| (f, r)))
    }

    /// The rules more specific than 1.01.03 for the storm's losses: a faction's own (the Fremen's
    /// half losses, 2.04.16, Advanced, or the Karama that cancelled them), and the Imperial Basin,
    /// Arrakeen and Carthag, which the storm reaches only after Family Atomics (3.01.07).
    pub(crate) fn storm_loss_rules(&self) -> impl Fn(Faction, Territory) -> Option<Rule> + use<> {
        let own: Vec<(Faction, Rule)> = self
            .st
            .in_play
            .iter()
            .filter_map(|f| {
                crate::factions::rules(f)
                    .storm_loss_rule(self)
                    .map(|r| (f, r))
            })
            .collect();
        let atomics = self.st.atomics_used;
        move |f, t| {
            if let Some((_, r)) = own.iter().find(|(g, _)| *g == f) {
                Some(*r)
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
    pub(crate) fn move_storm(&mut self, from: Sector, steps: u32) -> Losses {
        let mut losses = Losses::default();
        self.st.storm = Some(from.advance(steps));
        if steps == 0 {
            return losses;
        }
        let mut hit = [false; 18];
        for k in 0..=steps.min(17) {
            hit[from.advance(k).index() as usize] = true;
        }
        for p in Piece::all() {
            let Some(s) = p.sector() else { continue };
            if !hit[s.index() as usize] {
                continue;
            }
            let t = p.territory();
            if s != from {
                let sp = std::mem::take(&mut self.st.spice[p.index()]);
                self.map_spice_from_bank(sp, -1);
                losses.add_spice(t, sp);
            }
            if !t.storm_hits(self.st.atomics_used) {
                continue;
            }
            for f in self.st.in_play.iter() {
                if self.st.stack(f, p).is_empty() {
                    continue;
                }
                let s = match crate::factions::rules(f).storm_losses(self, p, s == from) {
                    Some(lost) => lost,
                    None => self.st.wipe_piece(f, p),
                };
                losses.add_forces(t, f, s);
            }
            if self
                .st
                .tokens
                .iter()
                .any(|k| k.place == crate::tokens::TokenPlace::Board(p))
            {
                self.hit_board(t, Some(p), crate::factions::Hit::Storm);
            }
        }
        for f in self.st.in_play.iter() {
            crate::factions::rules(f).storm_swept(self, &hit);
        }
        losses
    }

    /// Storm order (1.01.01): the first player is the one whose circle the storm approaches next;
    /// circle c sits at sector 3c+1 (0-17), so that is circle ceil(s/3) mod 6, then onwards.
    pub(crate) fn compute_order(&mut self) {
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
