//! Revival phase (1.05, in storm order per 4.01.15).

use super::Replay;
use crate::board::{Card, Leader};
use crate::dgn::{Event, ForceCount, Payment, Stmt};
use crate::factions::Fee;
use crate::state::{Forces, LeaderState};
use dune::Spice;
use dune::{Faction, FactionSet, Stronghold};
use dune::{Rule, rule};

/// Forces revived per turn without special help (1.05.01).
const REVIVAL_LIMIT: u8 = 3;

#[derive(Default)]
pub(crate) struct RevivalData {
    pub(crate) forces: FactionSet,
    pub(crate) leader: FactionSet,
    pub(crate) last_index: Option<usize>,
    /// `R FR grant` this turn: the Fremen's ally revives 3 free (2.04.11).
    pub(crate) granted: bool,
    /// The Atreides' leader revival of this turn went to the Kwisatz Haderach (2.01.14).
    pub(crate) kwisatz: bool,
}

impl Replay {
    pub(crate) fn revival_event(&mut self, ev: &Event) {
        let faction = match &ev.stmt {
            Stmt::Revive { faction, .. }
            | Stmt::ReviveLeader { faction, .. }
            | Stmt::ReviveKwisatz { faction, .. } => *faction,
            Stmt::Ghola {
                faction,
                forces,
                leader,
            } => {
                // 3.01.20: played at any time, so outside the storm order of revivals.
                if self.in_play_or_report(*faction) {
                    self.ghola(*faction, *forces, *leader);
                }
                return;
            }
            _ => {
                crate::factions::ability_statement(self, ev);
                return;
            }
        };
        if !self.in_play_or_report(faction) {
            return;
        }
        // 4.01.15: storm order.
        let idx = self.st.order_index(faction);
        if let Some(last) = self.t.revival.last_index
            && idx < last
        {
            let before = self.st.order.get(last).copied().unwrap_or(faction);
            self.v(
                rule!("4.01.15"),
                format!("revival follows storm order: {faction} comes before {before}"),
            );
        }
        self.t.revival.last_index = Some(idx.max(self.t.revival.last_index.unwrap_or(0)));
        match &ev.stmt {
            Stmt::Revive {
                forces,
                paid,
                extra,
                ..
            } => self.revive_forces(faction, *forces, paid.as_ref(), extra.as_ref()),
            Stmt::ReviveLeader { leader, paid, .. } => {
                self.revive_leader(faction, *leader, paid.as_ref())
            }
            Stmt::ReviveKwisatz { paid, .. } => self.revive_kwisatz(faction, paid.as_ref()),
            _ => {}
        }
    }

    /// Tleilaxu Ghola (3.01.20): one leader, or up to 5 forces, free, on top of normal revival.
    pub(crate) fn ghola(
        &mut self,
        faction: Faction,
        forces: Option<ForceCount>,
        leader: Option<Leader>,
    ) {
        self.play_card(faction, Card::TleilaxuGhola, rule!("3.01.20"), false);
        if let Some(l) = leader {
            if l.faction() != faction {
                self.v(
                    rule!("3.01.20"),
                    format!("the Tleilaxu Ghola revives one of {faction}'s own leaders, not {l}"),
                );
            } else if !matches!(self.st.leaders[l.index()], LeaderState::Tanks { .. }) {
                self.v(rule!("3.01.20"), format!("{l} is not in the tanks"));
            } else {
                self.st.leaders[l.index()] = LeaderState::Pool(faction);
            }
        }
        if let Some(c) = forces {
            if c.total > 5 {
                self.v(
                    rule!("3.01.20"),
                    format!("the Tleilaxu Ghola revives up to 5 forces, not {}", c.total),
                );
            }
            self.revive_from_tanks(faction, c, rule!("3.01.20"));
        }
    }

    /// Moves forces from the tanks to reserves, reporting a shortfall.
    pub(crate) fn revive_from_tanks(&mut self, f: Faction, c: ForceCount, rule: Rule) {
        let want = Forces::from_count(c);
        let tanks = self.st.faction(f).tanks;
        if !tanks.covers(want) {
            self.v(
                rule,
                format!("{f} revives {c} but has only {tanks} in the tanks"),
            );
        }
        let got = self.st.faction_mut(f).tanks.take(want);
        self.st.faction_mut(f).reserves.add(got);
    }

    /// Free revivals this turn: the faction's own, 3 for the Fremen's ally when the Fremen grant
    /// it (2.04.11, `R FR grant`), +1 with the Sietch Tabr card (4.03.03.06).
    pub(crate) fn free_revival(&self, f: Faction) -> u8 {
        let mut free = self.st.faction(f).sheet.free_revival;
        // An ally's ability may raise it (the Fremen's grant, 2.04.11).
        if let Some(a) = self.st.ally(f) {
            free = crate::factions::rules(a).free_revival(self, f, free);
        }
        if self.st.stronghold_card_holder(Stronghold::SietchTabr) == Some(f) {
            free += 1;
        }
        free
    }

    pub(crate) fn revive_forces(
        &mut self,
        f: Faction,
        c: ForceCount,
        payment: Option<&Payment>,
        extra: Option<&(ForceCount, Faction, Option<Payment>)>,
    ) {
        let paid = payment.map(|p| p.amount);
        if self.t.revival.forces.contains(f) {
            self.v(
                rule!("1.05.01"),
                format!("{f} revives forces once per Revival phase"),
            );
            return;
        }
        self.t.revival.forces.insert(f);
        let free = self.free_revival(f);
        let n = c.total;
        let max_paid = REVIVAL_LIMIT.saturating_sub(free);
        let paid_count = n.saturating_sub(free);
        let tabr_card = self.st.stronghold_card_holder(Stronghold::SietchTabr) == Some(f);
        if n > free.max(REVIVAL_LIMIT) || paid_count > max_paid {
            // With the Sietch Tabr card the card's own limits decide (4.03.03.06).
            let rule = if tabr_card {
                rule!("4.03.03.06")
            } else {
                rule!("1.05.01")
            };
            self.v(
                rule,
                format!(
                    "{f} may revive up to {} forces this turn ({free} free), not {n}",
                    free.max(REVIVAL_LIMIT)
                ),
            );
        }
        let star_total = c.starred + extra.map_or(0, |e| e.0.starred);
        if star_total > 1 {
            let rule = crate::factions::rules(f)
                .starred_revival_rule()
                .unwrap_or(rule!("1.05.01"));
            self.v(
                rule,
                format!("only one starred force of {f} is revived per turn"),
            );
        }
        let cost = Spice::new(2 * u32::from(paid_count));
        if let Some(p) = paid
            && p != cost
        {
            // The price the log shows would be right with an ally's ability (the Fremen's grant).
            let ally_rule = self
                .st
                .ally(f)
                .and_then(|a| crate::factions::rules(a).revival_price_rule(self, f, n, free, p));
            // The price the log shows would be right without the Sietch Tabr card's free one.
            let tabr_missed =
                tabr_card && p == 2 * u32::from(n.saturating_sub(free.saturating_sub(1)));
            if let Some((rule, msg)) = ally_rule {
                self.v(rule, msg);
            } else if tabr_missed {
                self.v(
                    rule!("4.03.03.06"),
                    format!(
                        "{f} revives {n} forces with {free} free, one of them from the Sietch Tabr card: that costs {cost} spice, not {p}"
                    ),
                );
            } else {
                self.v(
                    rule!("1.05.01.02"),
                    format!(
                        "{f} revives {n} forces with {free} free: that costs {cost} spice, not {p}"
                    ),
                );
            }
        }
        if cost > self.spice(f) {
            self.v(
                rule!("1.05.01.02"),
                format!(
                    "{f} must pay {cost} spice for revival but has {}{}",
                    self.spice(f),
                    self.bribe_note(f)
                ),
            );
        }
        let payee = self.settle_payee(Fee::Revival, f, payment, || {
            format!("{f}'s revival of {n} forces")
        });
        self.pay(f, payee, cost);
        self.revive_from_tanks(f, c, rule!("1.05.01"));
        if let Some((m, payer, paid)) = extra {
            self.extra_revival(f, *m, *payer, paid.as_ref());
        }
    }

    pub(crate) fn revive_leader(&mut self, f: Faction, l: Leader, payment: Option<&Payment>) {
        let paid = payment.map(|p| p.amount);
        if l.faction() != f {
            self.v(
                rule!("1.05.03"),
                format!("{f} can revive only its own leaders, not {l}"),
            );
            return;
        }
        if self.t.revival.leader.contains(f) {
            if self.t.revival.kwisatz {
                self.v(
                    rule!("2.01.14"),
                    format!("the Kwisatz Haderach took the Atreides' one leader revival of this turn; {l} cannot be revived too"),
                );
            } else {
                self.v(rule!("1.05.03"), format!("{f} revives one leader per turn"));
            }
            return;
        }
        self.t.revival.leader.insert(f);
        let active = self.st.active_leaders(f);
        if !active.is_empty() {
            let names: Vec<String> = active.iter().map(|l| l.to_string()).collect();
            self.v(
                rule!("1.05.03"),
                format!(
                    "{f} has active leaders ({}) and cannot revive a leader",
                    names.join(", ")
                ),
            );
        }
        match self.st.leaders[l.index()] {
            LeaderState::Tanks { face_up: true } => {}
            LeaderState::Tanks { face_up: false } => {
                let face_up_other = Leader::of(f).any(|o| {
                    o != l && self.st.leaders[o.index()] == LeaderState::Tanks { face_up: true }
                });
                if face_up_other {
                    self.v(rule!("1.05.04"), format!("{l} died a second time (face down); {f} must revive its face-up leaders first"));
                }
            }
            _ => {
                self.v(rule!("1.05.03"), format!("{l} is not in the tanks"));
                return;
            }
        }
        let cost = Spice::new(u32::from(l.strength()));
        if let Some(p) = paid
            && p != cost
        {
            self.v(
                rule!("1.05.03.01"),
                format!("reviving {l} costs {cost} spice (the leader's strength), not {p}"),
            );
        }
        if cost > self.spice(f) {
            self.v(
                rule!("1.05.03.01"),
                format!(
                    "{f} must pay {cost} spice to revive {l} but has {}",
                    self.spice(f)
                ),
            );
        }
        let payee = self.settle_payee(Fee::LeaderRevival, f, payment, || {
            format!("{f}'s revival of {l}")
        });
        self.pay(f, payee, cost);
        self.st.leaders[l.index()] = LeaderState::Pool(f);
    }
}
