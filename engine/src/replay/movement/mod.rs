//! Shipment and Movement phase (1.06) with the Guild, Fremen and Bene Gesserit abilities, the
//! ally constraint (1.06.07, 4.01.17) and the Carthag and Shield Wall stronghold cards (4.03).
//!
//! This module runs the phase (storm order, the actions, where forces come from and go to, and
//! [`Replay::check_entry`], the one storm-and-occupancy check for every arrival from off the
//! board or across it); [`shipment`] holds shipping, the Fremen send, the Guild's cross-ship and
//! ship-home, and the Carthag card; [`moving`] the force movement; [`advisors`] the Bene
//! Gesserit's spiritual advisors and flips.

pub(crate) mod moving;
pub(crate) mod shipment;

use super::karama::Ability;
use super::{Losses, Replay};
use crate::board::{Card, Piece, Territory, board};
use crate::dgn::{Event, ForceCount, Payee, Payment, Place, Side, Stmt};
use crate::state::{Forces, Stack};
use dune::{Faction, FactionSet, Spice, Stronghold};
use dune::{Rule, rule};

/// The last off-planet shipment, for the Bene Gesserit's free response (2.02.05, 2.02.11).
pub(crate) struct ShipRecord {
    pub(crate) faction: Faction,
    pub(crate) piece: Piece,
    pub(crate) responded: bool,
    /// For the Guild's Karama (1.14.05): what to undo.
    pub(crate) forces: Forces,
    pub(crate) payer: Faction,
    pub(crate) payee: Payee,
    pub(crate) cost: Spice,
}

#[derive(Default)]
pub(crate) struct MoveData {
    pub(crate) acted: FactionSet,
    pub(crate) current: Option<Faction>,
    pub(crate) shipped: FactionSet,
    pub(crate) moves: u8,
    pub(crate) extra_moves: u8,
    pub(crate) started: bool,
    pub(crate) sg_delayed: bool,
    pub(crate) carthag_used: bool,
    pub(crate) peeked: bool,
    pub(crate) any_shipment: bool,
    pub(crate) last_ship: Option<ShipRecord>,
    pub(crate) last_entry: Option<(Faction, Territory)>,
    /// Territory the BG just moved advisors into, if they had no advisors there before.
    pub(crate) take_up_arms: Option<Territory>,
    /// Forces the Fremen sent to the Shield Wall with its card this turn, per piece: they cannot
    /// move this turn (4.03.03.05).
    pub(crate) shield_wall_sent: Vec<(Faction, Piece, Forces)>,
    /// Loss assertions written on the current action's clauses, and what the action destroyed
    /// (storm migration 2.04.17, the ally constraint 1.06.07), checked when the action ends.
    pub(crate) action_asserts: Vec<crate::dgn::Assertion>,
    pub(crate) action_losses: Losses,
    pub(crate) migration: Option<Territory>,
}

/// How forces arrive in a territory from off the board or across it: each is checked by
/// [`Replay::check_entry`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Entry {
    /// A shipment from reserves or a Guild cross-ship (1.06.03, 2.06.05.01).
    Shipment,
    /// The Fremen send (2.04.05): the storm is storm migration (2.04.17), handled by the send.
    FremenSend,
    /// The Carthag card's force (4.03.03.02): nothing arrives in the storm.
    CarthagCard,
}

pub(crate) fn faction_of(stmt: &Stmt) -> Option<Faction> {
    Some(match stmt {
        Stmt::Ship { faction, .. }
        | Stmt::NoShip { faction }
        | Stmt::Send { faction, .. }
        | Stmt::CrossShip { faction, .. }
        | Stmt::ShipHome { faction, .. }
        | Stmt::Move { faction, .. }
        | Stmt::NoMove { faction }
        | Stmt::Hajr { faction }
        | Stmt::Pass { faction } => *faction,
        _ => return None,
    })
}

/// Shipping cost (1.06.03.01): 1 per force into a stronghold, 2 elsewhere; the Shield Wall at
/// stronghold rate for the holder of its card (4.03.03.05); half, rounded up, at Guild rates.
pub(crate) fn shipping_cost(t: Territory, n: u8, half: bool, shield_wall_card: bool) -> Spice {
    let per = if t.is_stronghold() || (t == Territory::ShieldWall && shield_wall_card) {
        1
    } else {
        2
    };
    let base = Spice::new(per * u32::from(n));
    if half { base.half_up() } else { base }
}

impl Replay {
    /// The one entry check for forces that arrive from off the board or across it: not into the
    /// storm (1.06.03.04; 1.01.04 for the Carthag card; the Fremen send's storm is migration,
    /// 2.04.17, handled by the send) and not into a stronghold that already holds two other
    /// factions (1.06.03.05; not the Shield Wall, 4.02.03; advisors do not count, 2.02.12).
    /// Returns `false` when nothing can arrive at all (the Carthag card into the storm).
    pub(crate) fn check_entry(&mut self, f: Faction, dest: Piece, count: u8, how: Entry) -> bool {
        let t = dest.territory();
        let verb = match how {
            Entry::Shipment => "ship",
            Entry::FremenSend | Entry::CarthagCard => "send",
        };
        if !self.st.on_map(t) {
            self.v(
                rule!("2.07.17"),
                format!(
                    "{f} cannot {verb} forces into the {}: it is not on the map",
                    t.name()
                ),
            );
            return false;
        }
        if self.st.in_storm(dest) {
            match how {
                Entry::Shipment => self.v(
                    rule!("1.06.03.04"),
                    format!(
                        "{f} cannot ship into {}: sector {} is in the storm",
                        t.name(),
                        dest.sector().map_or(0, |s| s.notation())
                    ),
                ),
                Entry::CarthagCard => {
                    self.v(
                        rule!("1.01.04"),
                        format!("{f} cannot send a force into Carthag: it is in the storm"),
                    );
                    return false;
                }
                Entry::FremenSend => {}
            }
        }
        // What a faction's rules forbid there (no one but the Ixians ships into the Hidden
        // Mobile Stronghold, 000 2.07.20).
        for g in self.st.in_play.iter() {
            crate::factions::rules(g).entry_check(self, f, t, how);
        }
        if let Some((rule, why)) = self
            .st
            .in_play
            .iter()
            .find_map(|g| crate::factions::rules(g).entry_forbidden(self, f, t, how))
        {
            self.v(rule, why);
        }
        let exempt = self.st.in_play.iter().any(|g| {
            crate::factions::rules(g)
                .occupancy_exempt(self, f, t)
                .is_some()
        });
        if self.st.stronghold_full_for(t, f) && !exempt {
            let others = self.st.occupants(t);
            self.v(
                rule!("1.06.03.05"),
                format!(
                    "{f} cannot {verb} {count} forces into {}: {} are already there",
                    t.name(),
                    Self::list(&others)
                ),
            );
        }
        true
    }

    pub(crate) fn movement_event(&mut self, ev: &Event) {
        if let Stmt::StrongholdCard {
            faction,
            stronghold,
            ..
        } = &ev.stmt
        {
            return self.stronghold_card_in_movement(*faction, *stronghold);
        }
        let Some(f) = faction_of(&ev.stmt) else {
            crate::factions::ability_statement(self, ev);
            return;
        };
        if !self.in_play_or_report(f) {
            return;
        }
        self.t.mv.last_entry = None;
        self.t.mv.take_up_arms = None;
        self.begin_action(f);
        self.t.mv.action_asserts.extend(
            ev.asserts
                .iter()
                .filter(|a| matches!(a, crate::dgn::Assertion::Losses { .. }))
                .cloned(),
        );
        match &ev.stmt {
            Stmt::Ship {
                forces,
                to,
                payment,
                karama,
                ..
            } => self.ship(f, *forces, *to, *payment, *karama),
            Stmt::NoShip { .. } => {
                self.t.mv.shipped.insert(f);
            }
            Stmt::Send { forces, to, .. } => self.send(f, *forces, *to),
            Stmt::CrossShip {
                from,
                to,
                forces,
                payment,
                ..
            } => self.cross_ship(f, *from, *to, *forces, *payment),
            Stmt::ShipHome {
                from,
                forces,
                payment,
                ..
            } => self.ship_home(f, *from, *forces, *payment),
            Stmt::Move {
                from,
                via,
                to,
                forces,
                ..
            } => self.move_forces(f, *from, via, *to, *forces),
            Stmt::NoMove { .. } => self.t.mv.moves = 1 + self.t.mv.extra_moves,
            Stmt::Hajr { .. } => self.hajr(f),
            Stmt::Pass { .. } => {
                self.t.mv.shipped.insert(f);
                self.end_action(f);
            }
            _ => {}
        }
    }

    pub(crate) fn begin_action(&mut self, f: Faction) {
        if self.t.mv.current == Some(f) {
            return;
        }
        if let Some(g) = self.t.mv.current {
            self.end_action(g);
        }
        // The Bene Gesserit answer (and the Guild's Karama cancels) a shipment during the
        // shipper's own action.
        self.t.mv.last_ship = None;
        self.t.mv.started = true;
        if self.t.mv.acted.contains(f) {
            self.v(
                rule!("1.06.02"),
                format!("{f} has already taken its shipment and movement action this turn"),
            );
        } else {
            // A faction whose ability lets it act out of storm order judges the order (the
            // Guild, 2.06.12); otherwise storm order (1.06.01).
            let judged = self
                .st
                .in_play
                .iter()
                .any(|g| crate::factions::rules(g).check_action_order(self, f));
            let idx = self.st.order_index(f);
            // The Juice of Sapho: its player goes first or last this phase (000 3.03.02.02,
            // 3.03.02.03), ahead of or after everyone, the Guild included.
            let first = self.sapho(crate::dgn::SaphoEffect::First);
            let last = self.sapho(crate::dgn::SaphoEffect::Last);
            let later = || {
                self.t
                    .mv
                    .acted
                    .iter()
                    .find(|&g| self.st.order_index(g) > idx && Some(g) != first)
            };
            if let Some(s) = last
                && s != f
                && self.t.mv.acted.contains(s)
            {
                self.v(
                    rule!("3.03.02.03"),
                    format!("{s} played the Juice of Sapho to go last; {f} acts after it"),
                );
            } else if let Some(s) = first
                && s != f
                && !self.t.mv.acted.contains(s)
            {
                self.v(
                    rule!("3.03.02.02"),
                    format!("{s} played the Juice of Sapho to go first; {f} acts before it"),
                );
            } else if !judged
                && Some(f) != last
                && let Some(g) = later()
            {
                self.v(
                    rule!("1.06.01"),
                    format!(
                        "{f} acts out of storm order: {g}, later in storm order, has already acted"
                    ),
                );
            }
        }
        self.t.mv.current = Some(f);
        self.t.mv.moves = 0;
        self.t.mv.extra_moves = 0;
    }

    /// End of a faction's shipment and movement action: the ally constraint (1.06.07, 4.01.17).
    pub(crate) fn end_action(&mut self, f: Faction) {
        self.t.mv.acted.insert(f);
        self.t.mv.current = None;
        for g in self.st.in_play.iter() {
            crate::factions::rules(g).action_ended(self, f);
        }
        // A faction's rule may keep the allies together (Ecaz's Occupy, 000 2.11.17 original).
        let exempt = self.st.ally(f).is_some_and(|a| {
            self.st.in_play.iter().any(|g| {
                crate::factions::rules(g)
                    .ally_constraint_exempt(self, f, a)
                    .is_some()
            })
        });
        if let Some(a) = self.st.ally(f).filter(|_| !exempt) {
            for t in Territory::all() {
                if t == Territory::PolarSink {
                    continue;
                }
                let rows = &self.st.board[t.piece_range()];
                let mine = rows.iter().any(|r| r[f.index()].fighting() > 0);
                if !mine || !rows.iter().any(|r| r[a.index()].fighting() > 0) {
                    continue;
                }
                for p in t.piece_range() {
                    let st = &mut self.st.board[p][f.index()];
                    let gone = Stack {
                        normal: st.normal,
                        starred: st.starred,
                        advisors: 0,
                    };
                    st.normal = 0;
                    st.starred = 0;
                    self.st.faction_mut(f).tanks.add(gone.forces());
                    self.t.mv.action_losses.add_forces(t, f, gone);
                }
            }
        }
        let asserts = std::mem::take(&mut self.t.mv.action_asserts);
        let losses = std::mem::take(&mut self.t.mv.action_losses);
        let migration = self.t.mv.migration.take();
        if !asserts.is_empty() {
            let (storm, rest): (Vec<_>, Vec<_>) = asserts.into_iter().partition(|a| matches!(a, crate::dgn::Assertion::Losses { territory, .. } if Some(*territory) == migration));
            self.check_losses(&storm, &losses, rule!("2.04.17"));
            // Advisors stay with the ally (4.01.17, the tournament's wording of 2.02.12).
            let mut advisors: Vec<(Faction, Territory)> = Vec::new();
            for g in self.st.in_play.iter() {
                for t in Territory::all() {
                    if self.st.in_territory(g, t).advisors > 0 {
                        advisors.push((g, t));
                    }
                }
            }
            self.check_losses_by(&rest, &losses, rule!("1.06.07"), |f, t| {
                advisors.contains(&(f, t)).then_some(rule!("4.01.17"))
            });
        }
    }

    pub(crate) fn finish_movement(&mut self) {
        if let Some(f) = self.t.mv.current {
            self.end_action(f);
        }
    }

    /// The piece a place names. A territory in several sectors needs its sector (`rule`); when
    /// missing, the first sector outside the storm is used after reporting.
    pub(crate) fn dest_piece(&mut self, place: Place, rule: Rule) -> Option<Piece> {
        let t = place.territory;
        if let Some(s) = place.sector {
            return t.piece(Some(s));
        }
        if let Some(p) = t.piece(t.single_sector()).or_else(|| t.piece(None)) {
            return Some(p);
        }
        let first = t.sectors().next().map_or(1, |s| s.notation());
        self.v(
            rule,
            format!(
                "{} lies in several sectors: say which one, e.g. {}/{first}",
                t.name(),
                t.code()
            ),
        );
        t.pieces()
            .iter()
            .copied()
            .find(|&p| !self.st.in_storm(p))
            .or_else(|| t.pieces().first().copied())
    }

    /// The pieces a group leaves from: the named sector, or every sector of the territory outside
    /// the storm.
    pub(crate) fn source_pieces(
        &mut self,
        f: Faction,
        from: Place,
        side: Side,
        storm_rule: Rule,
    ) -> Vec<Piece> {
        let t = from.territory;
        if let Some(s) = from.sector {
            let Some(p) = t.piece(Some(s)) else {
                return Vec::new();
            };
            if self.st.in_storm(p) {
                self.v(
                    storm_rule,
                    format!("{f}'s forces in {from} are in the storm and cannot leave it"),
                );
            }
            return vec![p];
        }
        let _ = side;
        t.pieces()
            .iter()
            .copied()
            .filter(|&p| !self.st.in_storm(p))
            .collect()
    }

    pub(crate) fn available(&self, f: Faction, pieces: &[Piece], side: Side) -> Forces {
        let mut total = Forces::default();
        for &p in pieces {
            let s = self.st.stack(f, p);
            let two_sided = self.st.faction(f).sheet.kinds.two_sided();
            total.add(match side {
                Side::Advisor if two_sided => Forces::new(s.advisors, 0),
                _ if two_sided => Forces::new(s.normal, 0),
                // A faction without advisors may still hold tokens that do not fight (the
                // revised Ecaz's co-occupied forces, 000 2.11.06): they move like the others.
                _ => Forces::new(s.normal + s.advisors, s.starred),
            });
        }
        total
    }

    /// Removes a group from a territory (named sector, or any sectors outside the storm),
    /// reporting a shortfall under `rule`. Returns what was removed.
    pub(crate) fn take_forces(
        &mut self,
        f: Faction,
        from: Place,
        c: ForceCount,
        rule: Rule,
    ) -> Option<Stack> {
        let pieces = self.source_pieces(f, from, c.side, rule!("1.06.05.06"));
        self.take_from(f, from, &pieces, c, rule)
    }

    pub(crate) fn take_from(
        &mut self,
        f: Faction,
        from: Place,
        pieces: &[Piece],
        c: ForceCount,
        rule: Rule,
    ) -> Option<Stack> {
        let want = Forces::from_count(c);
        let avail = self.available(f, pieces, c.side);
        if !avail.covers(want) {
            let in_storm = from
                .territory
                .pieces()
                .iter()
                .any(|&p| self.st.in_storm(p) && !self.st.stack(f, p).is_empty());
            let note = if in_storm {
                " (forces in the storm sector cannot leave it)"
            } else {
                ""
            };
            self.v(
                rule,
                format!(
                    "{f} has only {avail} forces able to leave {}, not {c}{note}",
                    from.territory.name()
                ),
            );
        }
        let side = if self.st.faction(f).sheet.kinds.two_sided() && c.side != Side::Advisor {
            Side::Fighter
        } else {
            c.side
        };
        let mut left = want;
        let mut out = Stack::default();
        for &p in pieces {
            if left.is_empty() {
                break;
            }
            let got = self.st.take_from_piece(f, p, left, side);
            left.normal -= got.normal + got.advisors;
            left.starred -= got.starred;
            out.add(got);
        }
        if out.is_empty() { None } else { Some(out) }
    }

    /// Hajr (3.01.09): one more force movement, during the player's own action.
    pub(crate) fn hajr(&mut self, f: Faction) {
        self.play_card(f, Card::Hajr, rule!("3.01.09"), false);
        if self.t.mv.current != Some(f) {
            self.v(
                rule!("3.01.09"),
                format!("{f} plays Hajr outside its own shipment and movement action: the extra move belongs to that action"),
            );
            return;
        }
        self.t.mv.extra_moves += 1;
    }
}
