//! Shipment and Movement phase (1.06) with the Guild, Fremen and Bene Gesserit abilities, the
//! ally constraint (1.06.07, 4.01.17) and the Carthag and Shield Wall stronghold cards (4.03).

use super::karama::Ability;
use super::{Losses, Replay};
use crate::board::{Card, Piece, Territory, board};
use crate::dgn::{Event, ForceCount, Payee, Payment, Place, Sealed, Side, SpiceCard, Stmt};
use crate::state::{Forces, Stack};
use dune::{Faction, FactionSet, Spice, Stronghold};
use dune::{Rule, rule};

/// The last off-planet shipment, for the Bene Gesserit's free response (2.02.05, 2.02.11).
struct ShipRecord {
    faction: Faction,
    piece: Piece,
    responded: bool,
    /// For the Guild's Karama (1.14.05): what to undo.
    forces: Forces,
    payer: Faction,
    payee: Payee,
    cost: Spice,
}

#[derive(Default)]
pub(super) struct MoveData {
    acted: FactionSet,
    current: Option<Faction>,
    shipped: FactionSet,
    moves: u8,
    extra_moves: u8,
    started: bool,
    sg_delayed: bool,
    carthag_used: bool,
    peeked: bool,
    any_shipment: bool,
    last_ship: Option<ShipRecord>,
    last_entry: Option<(Faction, Territory)>,
    /// Territory the BG just moved advisors into, if they had no advisors there before.
    take_up_arms: Option<Territory>,
    /// Forces the Fremen sent to the Shield Wall with its card this turn, per piece: they cannot
    /// move this turn (4.03.03.05).
    shield_wall_sent: Vec<(Piece, Forces)>,
    /// Loss assertions written on the current action's clauses, and what the action destroyed
    /// (storm migration 2.04.17, the ally constraint 1.06.07), checked when the action ends.
    action_asserts: Vec<crate::dgn::Assertion>,
    action_losses: Losses,
    migration: Option<Territory>,
}

fn faction_of(stmt: &Stmt) -> Option<Faction> {
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
fn shipping_cost(t: Territory, n: u8, half: bool, shield_wall_card: bool) -> Spice {
    let per = if t.is_stronghold() || (t == Territory::ShieldWall && shield_wall_card) {
        1
    } else {
        2
    };
    let base = Spice::new(per * u32::from(n));
    if half { base.half_up() } else { base }
}

impl Replay {
    pub(super) fn movement_event(&mut self, ev: &Event) {
        match &ev.stmt {
            Stmt::Spirit {
                faction,
                to,
                forces,
            } => return self.spirit(*faction, *to, *forces),
            Stmt::Flip { faction, place, to } => return self.flip(*faction, *place, *to),
            Stmt::Wormsign { faction, card } => return self.wormsign(ev, *faction, card),
            Stmt::StrongholdCard {
                faction,
                stronghold,
                ..
            } => return self.stronghold_card_in_movement(*faction, *stronghold),
            Stmt::Delay { faction } => {
                if *faction != Faction::SpacingGuild || !self.st.options.advanced {
                    self.v(
                        rule!("2.06.12.02"),
                        "only the Guild announces Delay, in an Advanced game",
                    );
                } else if let Some(b) = self.karama_block(Ability::SgTiming) {
                    self.v(
                        b.rule(),
                        format!(
                            "the Guild cannot announce Delay: {}; the Guild acts in storm order this phase",
                            b.describe()
                        ),
                    );
                    return;
                }
                self.t.mv.sg_delayed = true;
                return;
            }
            _ => {}
        }
        let Some(f) = faction_of(&ev.stmt) else {
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

    fn begin_action(&mut self, f: Faction) {
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
            let timing_block = self.karama_block(Ability::SgTiming);
            let guild_timing = self.st.options.advanced
                && self.st.plays(Faction::SpacingGuild)
                && timing_block.is_none();
            let idx = self.st.order_index(f);
            let later = self.t.mv.acted.iter().find(|&g| {
                self.st.order_index(g) > idx && !(guild_timing && g == Faction::SpacingGuild)
            });
            if f == Faction::SpacingGuild && guild_timing {
                if let Some(g) = later
                    && !self.t.mv.sg_delayed
                {
                    self.v(rule!("2.06.12.02"), format!("the Guild acts after {g} without having announced Delay when its turn came"));
                }
            } else if let Some(g) = later {
                match timing_block.filter(|_| f == Faction::SpacingGuild || g == Faction::SpacingGuild) {
                    Some(b) if f == Faction::SpacingGuild => self.v(
                        b.rule(),
                        format!(
                            "the Guild acts after {g}, later in storm order: {}, so the Guild acts in storm order this phase",
                            b.describe()
                        ),
                    ),
                    Some(b) => self.v(
                        b.rule(),
                        format!(
                            "{f} acts after the Guild, which went ahead of its turn: {}, so the Guild acts in storm order this phase",
                            b.describe()
                        ),
                    ),
                    None => self.v(
                        rule!("1.06.01"),
                        format!(
                            "{f} acts out of storm order: {g}, later in storm order, has already acted"
                        ),
                    ),
                }
            }
        }
        self.t.mv.current = Some(f);
        self.t.mv.moves = 0;
        self.t.mv.extra_moves = 0;
    }

    /// End of a faction's shipment and movement action: the ally constraint (1.06.07, 4.01.17).
    fn end_action(&mut self, f: Faction) {
        self.t.mv.acted.insert(f);
        self.t.mv.current = None;
        if let Some(a) = self.st.ally(f) {
            for t in Territory::all() {
                if t == Territory::PolarSink {
                    continue;
                }
                let rows = &self.st.board[t.piece_range()];
                let mine = rows.iter().any(|r| r[f.index()].fighting() > 0);
                let allied = rows.iter().any(|r| r[a.index()].fighting() > 0);
                if !(mine && allied) {
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
            self.check_losses(&rest, &losses, rule!("1.06.07"));
        }
    }

    pub(super) fn finish_movement(&mut self) {
        if let Some(f) = self.t.mv.current {
            self.end_action(f);
        }
    }

    /// The piece a place names. A territory in several sectors needs its sector (`rule`); when
    /// missing, the first sector outside the storm is used after reporting.
    pub(super) fn dest_piece(&mut self, place: Place, rule: Rule) -> Option<Piece> {
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
        let storm = self.st.storm;
        t.pieces()
            .iter()
            .copied()
            .find(|p| !p.in_storm(storm))
            .or_else(|| t.pieces().first().copied())
    }

    /// The pieces a group leaves from: the named sector, or every sector of the territory outside
    /// the storm.
    fn source_pieces(
        &mut self,
        f: Faction,
        from: Place,
        side: Side,
        storm_rule: Rule,
    ) -> Vec<Piece> {
        let storm = self.st.storm;
        let t = from.territory;
        if let Some(s) = from.sector {
            let Some(p) = t.piece(Some(s)) else {
                return Vec::new();
            };
            if p.in_storm(storm) {
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
            .filter(|p| !p.in_storm(storm))
            .collect()
    }

    fn available(&self, f: Faction, pieces: &[Piece], side: Side) -> Forces {
        let mut total = Forces::default();
        for &p in pieces {
            let s = self.st.stack(f, p);
            total.add(match (f, side) {
                (Faction::BeneGesserit, Side::Advisor) => Forces::new(s.advisors, 0),
                (Faction::BeneGesserit, _) => Forces::new(s.normal, 0),
                _ => Forces::new(s.normal, s.starred),
            });
        }
        total
    }

    /// Removes a group from a territory (named sector, or any sectors outside the storm),
    /// reporting a shortfall under `rule`. Returns what was removed.
    pub(super) fn take_forces(
        &mut self,
        f: Faction,
        from: Place,
        c: ForceCount,
        rule: Rule,
    ) -> Option<Stack> {
        let pieces = self.source_pieces(f, from, c.side, rule!("1.06.05.06"));
        self.take_from(f, from, &pieces, c, rule)
    }

    fn take_from(
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
                .any(|p| p.in_storm(self.st.storm) && !self.st.stack(f, *p).is_empty());
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
        let side = if f == Faction::BeneGesserit && c.side != Side::Advisor {
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

    fn ship(
        &mut self,
        f: Faction,
        c: ForceCount,
        to: Place,
        payment: Option<Payment>,
        karama: bool,
    ) {
        if f == Faction::Fremen {
            self.v(
                rule!("2.04.03"),
                "the Fremen have no off-planet reserves and cannot ship; they send (M FR send …)",
            );
            return;
        }
        if self.t.mv.shipped.contains(f) {
            self.v(
                rule!("1.06.02"),
                format!("{f} has already used its shipment this turn"),
            );
            return;
        }
        self.t.mv.shipped.insert(f);
        self.t.mv.any_shipment = true;
        // A cancelled spiritual advisor was about the previous shipment.
        self.karama_lapse(Ability::BgSpirit);
        if self.t.mv.moves > 0 {
            self.v(
                rule!("1.06.01"),
                format!("{f} ships after moving: a player ships first, then moves"),
            );
        }
        let Some(dest) = self.dest_piece(to, rule!("1.06.03.03")) else {
            return;
        };
        let t = to.territory;
        if dest.in_storm(self.st.storm) {
            self.v(
                rule!("1.06.03.04"),
                format!(
                    "{f} cannot ship into {}: sector {} is in the storm",
                    t.name(),
                    dest.sector().map_or(0, |s| s.notation())
                ),
            );
        }
        if self.st.stronghold_full_for(t, f) {
            let others = self.st.occupants(t);
            self.v(
                rule!("1.06.03.05"),
                format!(
                    "{f} cannot ship {} forces into {}: {} are already there",
                    c.total,
                    t.name(),
                    Self::list(&others)
                ),
            );
        }
        if f == Faction::BeneGesserit {
            if c.side == Side::Advisor {
                self.v(rule!("2.02.13"), "the Bene Gesserit ship fighters, not advisors (advisors come only as spiritual advisors)");
            }
            if self.st.options.advanced && self.st.in_territory(f, t).advisors > 0 {
                self.v(
                    rule!("2.02.13"),
                    format!(
                        "the Bene Gesserit cannot ship fighters into {}, where their advisors are",
                        t.name()
                    ),
                );
            }
        }
        let reserves = self.st.faction(f).reserves;
        if !reserves.covers(Forces::from_count(c)) {
            self.v(
                rule!("1.06.03"),
                format!("{f} ships {c} but has only {reserves} in reserve"),
            );
        }
        let (guild_rate, rate_block) = self.guild_rate(f, karama);
        let cost = shipping_cost(
            t,
            c.total,
            guild_rate,
            self.st.stronghold_card_holder(Stronghold::ShieldWall) == Some(f),
        );
        let guild = self.st.plays(Faction::SpacingGuild);
        let (payee, payee_block) = if karama || f == Faction::SpacingGuild || !guild {
            (Payee::Bank, None)
        } else {
            match self.karama_take(Ability::SgPayment) {
                Some(b) => (Payee::Bank, Some(b)),
                None => (Payee::Faction(Faction::SpacingGuild), None),
            }
        };
        let rule = if karama {
            rule!("3.01.11.03")
        } else if let Some(b) = rate_block {
            b.rule()
        } else if f != Faction::SpacingGuild && guild_rate {
            rule!("2.06.09")
        } else if guild_rate {
            rule!("2.06.06")
        } else {
            rule!("1.06.03.01")
        };
        let payer = self.check_payment(
            f,
            payment,
            cost,
            (payee, payee_block),
            rule,
            &format!("shipping {} forces to {}", c.total, t.name()),
        );
        if karama {
            self.play_card(f, Card::Karama, rule!("3.01.11.03"), false);
        }
        self.pay(payer, payee, cost);
        let placed = self.st.place_from_reserves(
            f,
            dest,
            ForceCount {
                side: Side::Fighter,
                ..c
            },
            false,
        );
        self.t.mv.last_ship = Some(ShipRecord {
            faction: f,
            piece: dest,
            responded: false,
            forces: placed,
            payer,
            payee,
            cost,
        });
        self.t.mv.last_entry = Some((f, t));
    }

    /// Half-price shipping (2.06.06, 2.06.09, 3.01.11.03) for this faction now, and the Karama
    /// block that took it away, if any.
    fn guild_rate(&mut self, f: Faction, karama: bool) -> (bool, Option<super::karama::Block>) {
        if karama {
            return (true, None);
        }
        let ability = if f == Faction::SpacingGuild {
            Ability::SgHalfPrice
        } else if self.st.ally(f) == Some(Faction::SpacingGuild) {
            Ability::SgAllyHalfPrice
        } else {
            return (false, None);
        };
        match self.karama_take(ability) {
            Some(b) => (false, Some(b)),
            None => (true, None),
        }
    }

    /// Checks a logged payment against the computed cost and payee (with the Karama block that
    /// sent it to the bank, if any); returns who pays.
    fn check_payment(
        &mut self,
        f: Faction,
        payment: Option<Payment>,
        cost: Spice,
        (payee, payee_block): (Payee, Option<super::karama::Block>),
        rule: Rule,
        what: &str,
    ) -> Faction {
        let mut payer = f;
        if let Some(p) = payment {
            if p.amount != cost {
                let why = if rule.is_within(rule!("3.01.11")) && rule != rule!("3.01.11.03") {
                    " (a Karama took away half-price shipping)"
                } else {
                    ""
                };
                self.v_at(
                    p.pos,
                    rule,
                    format!("{what} costs {f} {cost} spice, not {}{why}", p.amount),
                );
            }
            if let Some(given) = p.payee
                && given != payee
            {
                if let Some(b) = payee_block {
                    self.v_at(
                        p.pos,
                        b.rule(),
                        format!(
                            "this payment goes to the bank, not {given}: {}",
                            b.describe()
                        ),
                    );
                } else {
                    let rule = if payee == Payee::Faction(Faction::SpacingGuild)
                        || given == Payee::Faction(Faction::SpacingGuild)
                    {
                        rule!("2.06.04")
                    } else {
                        rule!("1.06.03.02")
                    };
                    self.v_at(
                        p.pos,
                        rule,
                        format!("this payment goes to {payee}, not {given}"),
                    );
                }
            }
            if let Some(by) = p.payer
                && by != f
            {
                if self.st.ally(f) == Some(by) {
                    payer = by;
                } else {
                    self.v_at(
                        p.pos,
                        rule!("1.10.02.05"),
                        format!("{by} is not {f}'s ally and cannot pay for its shipment"),
                    );
                }
            }
        }
        if cost > self.spice(payer) {
            self.v(
                rule!("1.06.03.01"),
                format!(
                    "{payer} must pay {cost} spice for {what} but has {}{}",
                    self.spice(payer),
                    self.bribe_note(payer)
                ),
            );
        }
        payer
    }

    fn send(&mut self, f: Faction, c: ForceCount, to: Place) {
        if f != Faction::Fremen {
            self.v(
                rule!("2.04.05"),
                format!("only the Fremen send reserves to the map; {f} ships"),
            );
            return;
        }
        if self.t.mv.shipped.contains(f) {
            self.v(
                rule!("1.06.02"),
                "the Fremen have already used their shipment this turn (a send is their shipment)",
            );
            return;
        }
        self.t.mv.shipped.insert(f);
        let Some(dest) = self.dest_piece(to, rule!("1.06.03.03")) else {
            return;
        };
        let t = to.territory;
        let wall_card = t == Territory::ShieldWall
            && self.st.stronghold_card_holder(Stronghold::ShieldWall) == Some(f);
        if !wall_card {
            let d = crate::board::data::FREMEN_SEND_CENTRE.distance(t);
            if d > crate::board::data::FREMEN_SEND_RANGE {
                self.v(rule!("2.04.05"), format!("the Fremen send to the Great Flat or a territory within two of it; {} is {d} territories away", t.name()));
            }
        }
        if self.st.stronghold_full_for(t, f) {
            let others = self.st.occupants(t);
            self.v(
                rule!("1.06.03.05"),
                format!(
                    "the Fremen cannot send {} forces into {}: {} are already there",
                    c.total,
                    t.name(),
                    Self::list(&others)
                ),
            );
        }
        let reserves = self.st.faction(f).reserves;
        if !reserves.covers(Forces::from_count(c)) {
            self.v(
                rule!("2.04.05"),
                format!("the Fremen send {c} but have only {reserves} in reserve"),
            );
        }
        let placed = self.st.place_from_reserves(f, dest, c, false);
        let mut kept = placed;
        if dest.in_storm(self.st.storm) {
            if self.st.options.advanced {
                self.karama_forbids(
                    Ability::FrMigration,
                    &format!("the Fremen send {c} into the storm in {}", t.name()),
                );
                // 2.04.17 (rulings.md 25): half, rounded up, are lost.
                let lose = placed.total().div_ceil(2);
                let normal = lose.min(placed.normal);
                let gone = self.st.take_from_piece(
                    f,
                    dest,
                    Forces::new(normal, lose - normal),
                    Side::Unspecified,
                );
                self.st.faction_mut(f).tanks.add(gone.forces());
                kept.take(gone.forces());
                self.t.mv.action_losses.add_forces(t, f, gone);
                self.t.mv.migration = Some(t);
            } else {
                self.v(rule!("1.01.04"), format!("the Fremen cannot send into {}: it is in the storm (storm migration is Advanced)", t.name()));
            }
        }
        if wall_card && !kept.is_empty() {
            self.t.mv.shield_wall_sent.push((dest, kept));
        }
        self.t.mv.last_entry = Some((f, t));
    }

    fn cross_ship(
        &mut self,
        f: Faction,
        from: Place,
        to: Place,
        c: ForceCount,
        payment: Option<Payment>,
    ) {
        let ally = self.st.ally(f) == Some(Faction::SpacingGuild);
        if f != Faction::SpacingGuild && !ally {
            self.v(
                rule!("2.06.05.01"),
                format!("only the Guild and its ally cross-ship; {f} cannot"),
            );
            return;
        }
        let ability = if ally {
            Ability::SgAllyCross
        } else {
            Ability::SgCross
        };
        if self.karama_forbids(ability, &format!("{f} cross-ships from {from} to {to}")) {
            return;
        }
        if self.t.mv.shipped.contains(f) {
            self.v(
                rule!("1.06.02"),
                format!("{f} has already used its shipment this turn"),
            );
            return;
        }
        self.t.mv.shipped.insert(f);
        self.t.mv.any_shipment = true;
        let pieces = self.source_pieces(f, from, c.side, rule!("1.06.03.04"));
        let Some(dest) = self.dest_piece(to, rule!("1.06.03.03")) else {
            return;
        };
        let t = to.territory;
        if dest.in_storm(self.st.storm) {
            self.v(
                rule!("1.06.03.04"),
                format!("{f} cannot ship into {}: it is in the storm", t.name()),
            );
        }
        if self.st.stronghold_full_for(t, f) {
            let others = self.st.occupants(t);
            self.v(
                rule!("1.06.03.05"),
                format!(
                    "{f} cannot ship {} forces into {}: {} are already there",
                    c.total,
                    t.name(),
                    Self::list(&others)
                ),
            );
        }
        let (half, rate_block) = self.guild_rate(f, false);
        let cost = shipping_cost(
            t,
            c.total,
            half,
            self.st.stronghold_card_holder(Stronghold::ShieldWall) == Some(f),
        );
        let (payee, payee_block) = if f == Faction::SpacingGuild {
            (Payee::Bank, None)
        } else {
            match self.karama_take(Ability::SgPayment) {
                Some(b) => (Payee::Bank, Some(b)),
                None => (Payee::Faction(Faction::SpacingGuild), None),
            }
        };
        let rule = match rate_block {
            Some(b) => b.rule(),
            None if ally => rule!("2.06.09"),
            None => rule!("2.06.06"),
        };
        let payer = self.check_payment(
            f,
            payment,
            cost,
            (payee, payee_block),
            rule,
            &format!("cross-shipping {} forces to {}", c.total, t.name()),
        );
        self.pay(payer, payee, cost);
        if let Some(s) = self.take_from(f, from, &pieces, c, rule!("2.06.05.01")) {
            self.st.stack_mut(f, dest).add(s);
        }
        self.t.mv.last_entry = Some((f, t));
    }

    fn ship_home(&mut self, f: Faction, from: Place, c: ForceCount, payment: Option<Payment>) {
        if f != Faction::SpacingGuild {
            self.v(rule!("2.06.05.02"), format!("only the Guild ships forces from the board back to reserves; {f} cannot (1.06.04)"));
            return;
        }
        if self.karama_forbids(
            Ability::SgHome,
            &format!(
                "the Guild ships {} forces from {from} back to reserves",
                c.total
            ),
        ) {
            return;
        }
        if self.t.mv.shipped.contains(f) {
            self.v(
                rule!("1.06.02"),
                "the Guild has already used its shipment this turn",
            );
            return;
        }
        self.t.mv.shipped.insert(f);
        self.t.mv.any_shipment = true;
        let pieces = self.source_pieces(f, from, c.side, rule!("1.06.03.04"));
        let cost = Spice::new(u32::from(c.total)).half_up();
        self.check_payment(
            f,
            payment,
            cost,
            (Payee::Bank, None),
            rule!("2.06.07"),
            &format!("shipping {} forces back to reserves", c.total),
        );
        self.pay(f, Payee::Bank, cost);
        if let Some(s) = self.take_from(f, from, &pieces, c, rule!("2.06.05.02")) {
            self.st.faction_mut(f).reserves.add(s.forces());
        }
    }

    fn move_forces(&mut self, f: Faction, from: Place, via: &[Place], to: Place, c: ForceCount) {
        if self.t.mv.moves > self.t.mv.extra_moves {
            self.v(
                rule!("1.06.05.01"),
                format!("{f} has already moved this turn (one move; Hajr adds one)"),
            );
            return;
        }
        self.t.mv.moves += 1;
        let advisors = f == Faction::BeneGesserit && c.side == Side::Advisor;
        let storm = self.st.storm;
        let pieces = self.source_pieces(f, from, c.side, rule!("1.06.05.06"));
        let Some(dest) = self.dest_piece(to, rule!("1.06.05.08")) else {
            return;
        };
        let t = to.territory;
        // Range (1.06.05.03-.04, 2.04.06, 4.03.03.03). Advisors neither grant nor use
        // ornithopters (2.02.12).
        let ornithopters = !advisors
            && [Territory::Arrakeen, Territory::Carthag]
                .iter()
                .any(|&x| self.st.in_territory(f, x).fighting() > 0);
        let mut range: u8 = if ornithopters { 3 } else { 1 };
        let mut prevented = None;
        if f == Faction::Fremen {
            prevented = self.karama_take(Ability::FrMove);
            if prevented.is_none() {
                range = range.max(2);
            }
        }
        if from.territory == Territory::HabbanyaSietch
            && self.st.stronghold_card_holder(Stronghold::HabbanyaSietch) == Some(f)
        {
            range += 2;
        }
        let full = |r: &Self, x: Territory| !advisors && r.st.stronghold_full_for(x, f);
        let mut legal = true;
        if dest.in_storm(storm) {
            self.v(
                rule!("1.06.05.06"),
                format!("{f} cannot move into {to}: it is in the storm"),
            );
            legal = false;
        } else if t != from.territory && full(self, t) {
            let others = self.st.occupants(t);
            self.v(
                rule!("1.06.05.09"),
                format!(
                    "{f} cannot move into {}: {} are already there",
                    t.name(),
                    Self::list(&others)
                ),
            );
            legal = false;
        }
        let b = board();
        if legal && !pieces.is_empty() {
            let cost = b.path_cost(&pieces, dest, storm, |x| full(self, x));
            let range_rule = if let Some(b) = prevented.filter(|_| !ornithopters) {
                b.rule()
            } else if f == Faction::Fremen && !ornithopters {
                rule!("2.04.06")
            } else if ornithopters {
                rule!("1.06.05.04")
            } else {
                rule!("1.06.05.03")
            };
            let why = if ornithopters {
                "with ornithopters".to_string()
            } else if let Some(b) = prevented {
                format!("without ornithopters, since {}", b.describe())
            } else if f == Faction::Fremen {
                "as Fremen".to_string()
            } else {
                "without ornithopters (no forces in Arrakeen or Carthag)".to_string()
            };
            match cost {
                None if b
                    .path_cost(&pieces, dest, None, |x| full(self, x))
                    .is_some() =>
                {
                    self.v(
                        rule!("1.06.05.06"),
                        format!(
                            "{f} cannot move from {} to {}: every path crosses the storm",
                            from.territory.name(),
                            t.name()
                        ),
                    );
                }
                None => {
                    self.v(rule!("1.06.05.09"), format!("{f} cannot move from {} to {}: every path passes through a stronghold holding two other factions", from.territory.name(), t.name()));
                }
                Some(d)
                    if d > range
                        && b.path_cost(&pieces, dest, None, |x| full(self, x))
                            .is_some_and(|clear| clear <= range) =>
                {
                    self.v(
                        rule!("1.06.05.06"),
                        format!(
                            "{f} cannot move from {} to {}: the short way crosses the storm and the way around takes {d} territories",
                            from.territory.name(),
                            t.name()
                        ),
                    );
                }
                Some(d) if d > range => {
                    self.v(
                        range_rule,
                        format!(
                            "{f} can move {range} territor{} {why}; {} to {} takes {d}",
                            if range == 1 { "y" } else { "ies" },
                            from.territory.name(),
                            t.name()
                        ),
                    );
                }
                Some(_) => {}
            }
            if !via.is_empty() {
                self.check_via(f, from.territory, via, t, range, range_rule);
            }
        }
        let had_advisors = self.st.in_territory(f, t).advisors > 0;
        let hidden = self.hide_shield_wall_sent(f, from, &pieces, c);
        let taken = self.take_from(f, from, &pieces, c, rule!("1.06.05"));
        for &(p, forces) in &hidden {
            let s = self.st.stack_mut(f, p);
            s.normal = s.normal.saturating_add(forces.normal);
            s.starred = s.starred.saturating_add(forces.starred);
        }
        let Some(mut moved) = taken else {
            return;
        };
        if f == Faction::BeneGesserit && self.st.options.advanced {
            let others_there = self.st.present(t).iter().any(|&g| g != f);
            let here = self.st.in_territory(f, t);
            let to_fighters = if advisors {
                !others_there || here.fighting() > 0
            } else {
                false
            };
            let to_advisors = !advisors && here.advisors > 0 && here.fighting() == 0;
            if to_fighters {
                // Enlistment (2.02.14) or Adaptive Force (2.02.20).
                moved.normal = moved.normal.saturating_add(moved.advisors);
                moved.advisors = 0;
            } else if to_advisors {
                // Adaptive Force (2.02.20).
                moved.advisors = moved.advisors.saturating_add(moved.normal);
                moved.normal = 0;
            }
            if advisors && moved.advisors > 0 && !had_advisors {
                self.t.mv.take_up_arms = Some(t);
            }
        }
        self.st.stack_mut(f, dest).add(moved);
        if t != from.territory {
            self.t.mv.last_entry = Some((f, t));
        }
    }

    /// 4.03.03.05: forces the Fremen sent to the Shield Wall with its card this turn cannot move;
    /// other Fremen forces there can. Takes the sent forces off the source pieces while the move
    /// is made (the caller puts them back) and returns them; reports a move that needs them.
    fn hide_shield_wall_sent(
        &mut self,
        f: Faction,
        from: Place,
        pieces: &[Piece],
        c: ForceCount,
    ) -> Vec<(Piece, Forces)> {
        if f != Faction::Fremen
            || from.territory != Territory::ShieldWall
            || self.t.mv.shield_wall_sent.is_empty()
        {
            return Vec::new();
        }
        let mut sent_here = Forces::default();
        let mut hidden = Vec::new();
        for &(p, forces) in &self.t.mv.shield_wall_sent {
            if pieces.contains(&p) {
                let s = self.st.stack(f, p);
                let h = Forces::new(forces.normal.min(s.normal), forces.starred.min(s.starred));
                sent_here.add(h);
                hidden.push((p, h));
            }
        }
        if sent_here.is_empty() {
            return Vec::new();
        }
        let avail = self.available(f, pieces, c.side);
        let free = Forces::new(
            avail.normal.saturating_sub(sent_here.normal),
            avail.starred.saturating_sub(sent_here.starred),
        );
        let want = Forces::from_count(c);
        if !free.covers(want) && avail.covers(want) {
            self.v(
                rule!("4.03.03.05"),
                format!(
                    "the Fremen move {c} from the Shield Wall, but {sent_here} of their {avail} forces there were sent this turn with the Shield Wall card and cannot move until next turn ({free} can move)"
                ),
            );
            // Reported: the move is replayed as logged.
            return Vec::new();
        }
        for &(p, h) in &hidden {
            let s = self.st.stack_mut(f, p);
            s.normal -= h.normal;
            s.starred -= h.starred;
        }
        hidden
    }

    /// A path written out (`A>B>C`): each step crosses a border, no step is a full stronghold or
    /// wholly in the storm, and the steps fit the range.
    fn check_via(
        &mut self,
        f: Faction,
        from: Territory,
        via: &[Place],
        to: Territory,
        range: u8,
        range_rule: Rule,
    ) {
        let mut prev = from;
        let storm = self.st.storm;
        for step in via.iter().map(|p| p.territory).chain(std::iter::once(to)) {
            if !prev.neighbours().contains(&step) {
                self.v(
                    rule!("1.06.05"),
                    format!("{} does not border {}", prev.name(), step.name()),
                );
                return;
            }
            if step != to {
                if self.st.stronghold_full_for(step, f) {
                    self.v(
                        rule!("1.06.05.09"),
                        format!(
                            "{f} cannot pass through {}: two other factions are there",
                            step.name()
                        ),
                    );
                }
                if step.pieces().iter().all(|p| p.in_storm(storm)) {
                    self.v(
                        rule!("1.06.05.06"),
                        format!(
                            "{f} cannot pass through {}: it is in the storm",
                            step.name()
                        ),
                    );
                }
            }
            prev = step;
        }
        if via.len() + 1 > usize::from(range) {
            self.v(
                range_rule,
                format!(
                    "the path written crosses {} borders; {f} can move {range}",
                    via.len() + 1
                ),
            );
        }
    }

    fn spirit(&mut self, f: Faction, to: Place, c: ForceCount) {
        if f != Faction::BeneGesserit {
            self.v(
                rule!("2.02.05"),
                format!("only the Bene Gesserit send spiritual advisors, not {f}"),
            );
            return;
        }
        if self.karama_forbids(
            Ability::BgSpirit,
            &format!("the Bene Gesserit send a spiritual advisor to {to}"),
        ) {
            return;
        }
        let Some(rec) = self
            .t
            .mv
            .last_ship
            .as_mut()
            .filter(|r| r.faction != f && !r.responded)
        else {
            self.v(rule!("2.02.05"), "the Bene Gesserit send a spiritual advisor only right after another faction's shipment from off-planet, once per shipment");
            return;
        };
        rec.responded = true;
        let ship_piece = rec.piece;
        if c.total != 1 {
            self.v(
                rule!("2.02.05"),
                format!(
                    "the Bene Gesserit send 1 force per shipment, not {}",
                    c.total
                ),
            );
        }
        if self.st.faction(f).reserves.is_empty() {
            self.v(
                rule!("2.02.05"),
                "the Bene Gesserit have no forces in reserve",
            );
            return;
        }
        let one = ForceCount {
            total: 1,
            starred: 0,
            side: Side::Fighter,
        };
        if to.territory == Territory::PolarSink {
            if let Some(p) = Territory::PolarSink.piece(None) {
                self.st.place_from_reserves(f, p, one, false);
            }
            return;
        }
        if !self.st.options.advanced {
            self.v(rule!("2.02.11"), "sending an advisor with the shipment is an Advanced ability; in the Basic game the spiritual advisor goes to the Polar Sink");
            return;
        }
        let same = to.territory == ship_piece.territory()
            && to.sector.is_none_or(|s| Some(s) == ship_piece.sector());
        if !same {
            self.v(rule!("2.02.11"), format!("the advisor goes to the same territory and sector as the shipment ({ship_piece}), not {to}"));
            return;
        }
        if self.st.in_territory(f, to.territory).fighting() > 0 {
            self.v(
                rule!("2.02.11"),
                format!(
                    "the Bene Gesserit have fighters in {}, so they cannot send an advisor there",
                    to.territory.name()
                ),
            );
            return;
        }
        self.st.place_from_reserves(
            f,
            ship_piece,
            ForceCount {
                side: Side::Advisor,
                ..one
            },
            true,
        );
    }

    fn flip(&mut self, f: Faction, place: Place, to: Side) {
        if f != Faction::BeneGesserit || !self.st.options.advanced {
            self.v(
                rule!("2.02.10"),
                "only the Bene Gesserit flip advisors and fighters, in an Advanced game",
            );
            return;
        }
        let t = place.territory;
        let storm = self.st.storm;
        match to {
            Side::Fighter => {
                let take_up_arms = self.t.mv.take_up_arms == Some(t);
                let wartime = !self.t.mv.started;
                if !take_up_arms && !wartime {
                    self.v(rule!("2.02.17"), "advisors flip to fighters before anyone's shipment and movement (Wartime) or right after moving into an occupied territory (Take Up Arms)");
                    return;
                }
                if let Some(a) = self.st.ally(f)
                    && self.st.in_territory(a, t).total() > 0
                {
                    self.v(
                        rule!("2.02.18"),
                        format!("advisors cannot flip to fighters with an ally ({a}) present"),
                    );
                    return;
                }
                let stopped = if take_up_arms {
                    self.karama_forbids(
                        Ability::BgTakeUpArms,
                        &format!("the Bene Gesserit take up arms in {}", t.name()),
                    )
                } else {
                    self.karama_forbids(
                        Ability::BgWartime,
                        &format!(
                            "the Bene Gesserit flip their advisors in {} (Wartime)",
                            t.name()
                        ),
                    )
                };
                if stopped {
                    return;
                }
                if take_up_arms && self.st.stronghold_full_for(t, f) {
                    self.v(
                        rule!("2.02.16"),
                        format!(
                            "advisors cannot take up arms in {}: two other factions are there",
                            t.name()
                        ),
                    );
                    return;
                }
                let mut flipped = false;
                for &p in t.pieces() {
                    if place.sector.is_some_and(|s| Some(s) != p.sector()) {
                        continue;
                    }
                    let s = self.st.stack(f, p);
                    if s.advisors == 0 {
                        continue;
                    }
                    if p.in_storm(storm) {
                        self.v(
                            rule!("2.02.19"),
                            format!("advisors in {p} are under the storm and cannot flip"),
                        );
                        continue;
                    }
                    let st = self.st.stack_mut(f, p);
                    st.normal = st.normal.saturating_add(st.advisors);
                    st.advisors = 0;
                    flipped = true;
                }
                if !flipped && self.st.in_territory(f, t).advisors == 0 {
                    self.v(
                        rule!("2.02.17"),
                        format!("the Bene Gesserit have no advisors in {}", t.name()),
                    );
                }
            }
            _ => {
                let intrusion = self
                    .t
                    .mv
                    .last_entry
                    .is_some_and(|(g, x)| x == t && g != f && self.st.ally(f) != Some(g));
                if !intrusion {
                    self.v(rule!("2.02.15"), "fighters flip to advisors only when a non-allied faction's forces have just entered their territory (Intrusion)");
                    return;
                }
                for &p in t.pieces() {
                    let st = self.st.stack_mut(f, p);
                    st.advisors = st.advisors.saturating_add(st.normal);
                    st.normal = 0;
                }
            }
        }
    }

    fn wormsign(&mut self, ev: &crate::dgn::Event, f: Faction, card: &Sealed<Option<SpiceCard>>) {
        if f != Faction::Atreides {
            self.v(
                rule!("2.01.07"),
                format!("only the Atreides look at the top spice card (Wormsign), not {f}"),
            );
            return;
        }
        if self.t.mv.any_shipment {
            self.v(
                rule!("2.01.07"),
                "the Atreides look at the top spice card before anyone ships",
            );
        }
        if self.t.mv.peeked {
            self.v(
                rule!("2.01.07"),
                "the Atreides look at the top spice card once per turn",
            );
        }
        if self.karama_forbids(
            Ability::AtWormsign,
            "the Atreides look at the top spice card",
        ) {
            return;
        }
        self.t.mv.peeked = true;
        if let Some(Some(c)) = self.sealed(card) {
            self.pending_peek = Some((ev.pos, *c));
        }
    }

    /// Hajr (3.01.09): one more force movement, during the player's own action.
    pub(super) fn hajr(&mut self, f: Faction) {
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

    /// A Karama cancels the Guild's timing (2.06.12): a Delay announced goes.
    pub(super) fn karama_guild_timing(&mut self) {
        self.t.mv.sg_delayed = false;
    }

    fn stronghold_card_in_movement(&mut self, f: Faction, s: Stronghold) {
        let t = Territory::of(s);
        if s != Stronghold::Carthag {
            self.v(
                rule!("4.03.03"),
                format!(
                    "the {} card acts by itself; only the Carthag card is logged in this phase",
                    t.name()
                ),
            );
            return;
        }
        if self.st.stronghold_card_holder(s) != Some(f) {
            self.v(
                rule!("4.03.03.02"),
                format!("{f} does not hold the Carthag stronghold card"),
            );
            return;
        }
        if self.t.mv.started {
            self.v(
                rule!("4.03.03.02"),
                "the Carthag card sends a force before anyone's shipment and movement action",
            );
        }
        if self.t.mv.carthag_used {
            self.v(
                rule!("4.03.03.02"),
                "the Carthag card sends one force per turn",
            );
            return;
        }
        self.t.mv.carthag_used = true;
        let Some(p) = t.piece(t.single_sector()) else {
            return;
        };
        if p.in_storm(self.st.storm) {
            self.v(
                rule!("1.01.04"),
                "Carthag is in the storm: no force can be sent there",
            );
            return;
        }
        if self.st.stronghold_full_for(t, f) {
            let others = self.st.occupants(t);
            self.v(
                rule!("1.06.03.05"),
                format!(
                    "{f} cannot send a force into Carthag: {} are already there",
                    Self::list(&others)
                ),
            );
        }
        if self.st.faction(f).reserves.is_empty() {
            self.v(rule!("4.03.03.02"), format!("{f} has no forces in reserve"));
            return;
        }
        self.st
            .place_from_reserves(f, p, ForceCount::plain(1), false);
        self.t.mv.last_entry = Some((f, t));
    }

    /// Guild Karama (1.14.05): the target's shipment this phase is undone.
    pub(super) fn cancel_shipment(&mut self, target: Faction) {
        let Some(rec) = self.t.mv.last_ship.take().filter(|r| r.faction == target) else {
            self.v(
                rule!("1.14.05"),
                format!("{target} has no off-planet shipment to cancel right now"),
            );
            return;
        };
        let got = self
            .st
            .take_from_piece(target, rec.piece, rec.forces, Side::Unspecified);
        self.st.faction_mut(target).reserves.add(got.forces());
        if let Payee::Faction(g) = rec.payee {
            let back = self.st.faction_mut(g).spice.take(rec.cost);
            self.st.faction_mut(rec.payer).gain(back);
        } else {
            self.st.faction_mut(rec.payer).gain(rec.cost);
        }
    }
}
