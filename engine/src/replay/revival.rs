//! Revival phase (1.05, in storm order per 4.01.15).

use super::Replay;
use super::karama::Ability;
use crate::board::{Card, Leader};
use crate::dgn::{Event, ForceCount, Payee, Stmt};
use crate::state::{Forces, LeaderState};
use dune::Spice;
use dune::{Faction, FactionSet, Stronghold};
use dune::{Rule, rule};

/// Forces revived per turn without special help (1.05.01).
const REVIVAL_LIMIT: u8 = 3;

#[derive(Default)]
pub(super) struct RevivalData {
    forces: FactionSet,
    leader: FactionSet,
    last_index: Option<usize>,
    /// `R FR grant` this turn: the Fremen's ally revives 3 free (2.04.11).
    granted: bool,
    /// The Atreides' leader revival of this turn went to the Kwisatz Haderach (2.01.14).
    kwisatz: bool,
}

impl Replay {
    pub(super) fn revival_event(&mut self, ev: &Event) {
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
            Stmt::Grant { faction } => return self.grant(*faction),
            _ => return,
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
            } => self.revive_forces(faction, *forces, *paid, *extra),
            Stmt::ReviveLeader { leader, paid, .. } => self.revive_leader(faction, *leader, *paid),
            Stmt::ReviveKwisatz { paid, .. } => self.revive_kwisatz(faction, *paid),
            _ => {}
        }
    }

    /// 2.01.14: the Kwisatz Haderach is revived with the faction's one leader revival, once every
    /// other leader has died once or is unavailable; like a leader it costs its strength, 2
    /// (the rulebook gives no other price; notation Decisions).
    fn revive_kwisatz(&mut self, f: Faction, paid: Option<Spice>) {
        if f != Faction::Atreides {
            self.v(
                rule!("2.01.14"),
                format!("only the Atreides have the Kwisatz Haderach, not {f}"),
            );
            return;
        }
        if !self.st.kwisatz_dead {
            self.v(rule!("2.01.14"), "the Kwisatz Haderach is not in the tanks");
            return;
        }
        if self.t.revival.leader.contains(f) {
            self.v(
                rule!("2.01.14"),
                "the Kwisatz Haderach is revived with the Atreides' one leader revival, and a leader was revived this turn",
            );
            return;
        }
        let waiting: Vec<Leader> = Leader::of(f)
            .filter(|l| {
                !self.st.died_once[l.index()] && self.st.leaders[l.index()] == LeaderState::Pool(f)
            })
            .collect();
        if !waiting.is_empty() {
            let names: Vec<&str> = waiting.iter().map(|l| l.code()).collect();
            self.v(
                rule!("2.01.14"),
                format!(
                    "the Kwisatz Haderach is revived only when every other Atreides leader has died once or is unavailable; {} never died",
                    names.join(", ")
                ),
            );
        }
        self.t.revival.leader.insert(f);
        let cost = Spice::new(2);
        if let Some(p) = paid
            && p != cost
        {
            self.v(
                rule!("2.01.14"),
                format!("reviving the Kwisatz Haderach costs {cost} spice, not {p}"),
            );
        }
        if cost > self.spice(f) {
            self.v(
                rule!("1.05.03.01"),
                format!(
                    "{f} must pay {cost} spice to revive the Kwisatz Haderach but has {}",
                    self.spice(f)
                ),
            );
        }
        self.pay(f, crate::dgn::Payee::Bank, cost);
        self.st.kwisatz_dead = false;
        self.t.revival.kwisatz = true;
    }

    /// `R FR grant` (2.04.11): the Fremen give their ally 3 free revivals this turn.
    fn grant(&mut self, f: Faction) {
        if f != Faction::Fremen {
            self.v(
                rule!("2.04.11"),
                format!("only the Fremen grant their ally 3 free revivals, not {f}"),
            );
            return;
        }
        if !self.in_play_or_report(f) {
            return;
        }
        let Some(a) = self.st.ally(f) else {
            self.v(
                rule!("2.04.11"),
                "the Fremen have no ally to grant 3 free revivals to",
            );
            return;
        };
        if self.t.revival.forces.contains(a) {
            self.v(rule!("2.04.11"), format!("{a} has already revived this turn: the Fremen grant comes before their ally's revival"));
        }
        if self.karama_forbids(
            Ability::FrAllyRevival,
            "the Fremen grant their ally 3 free revivals",
        ) {
            return;
        }
        self.t.revival.granted = true;
    }

    /// A Fremen Karama cancel of 2.04.11: the ally revives with its own free revival.
    pub(super) fn karama_revoke_grant(&mut self) {
        self.t.revival.granted = false;
    }

    /// Tleilaxu Ghola (3.01.20): one leader, or up to 5 forces, free, on top of normal revival.
    pub(super) fn ghola(
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
    fn revive_from_tanks(&mut self, f: Faction, c: ForceCount, rule: Rule) {
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
    fn free_revival(&self, f: Faction) -> u8 {
        let mut free = self.st.faction(f).sheet.free_revival;
        if self.fremen_grant_applies(f) {
            free = free.max(3);
        }
        if self.st.stronghold_card_holder(Stronghold::SietchTabr) == Some(f) {
            free += 1;
        }
        free
    }

    fn fremen_grant_applies(&self, f: Faction) -> bool {
        self.t.revival.granted && self.st.ally(f) == Some(Faction::Fremen)
    }

    fn revive_forces(
        &mut self,
        f: Faction,
        c: ForceCount,
        paid: Option<Spice>,
        extra: Option<(ForceCount, Faction, Option<Spice>)>,
    ) {
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
            let rule = if f == Faction::Fremen {
                rule!("2.04.20")
            } else {
                rule!("2.03.11")
            };
            self.v(
                rule,
                format!("only one starred force of {f} is revived per turn"),
            );
        }
        let cost = Spice::new(2 * u32::from(paid_count));
        if let Some(p) = paid
            && p != cost
        {
            // The price the log shows would be right if the Fremen had granted 3 free revivals.
            let ungranted = self.st.ally(f) == Some(Faction::Fremen)
                && !self.fremen_grant_applies(f)
                && free < 3
                && p == 2 * u32::from(n.saturating_sub(3));
            // The price the log shows would be right without the Sietch Tabr card's free one.
            let tabr_missed =
                tabr_card && p == 2 * u32::from(n.saturating_sub(free.saturating_sub(1)));
            if ungranted {
                self.v(
                    rule!("2.04.11"),
                    format!("{f} revives {n} forces paying {p} as if the Fremen had granted it 3 free revivals, but no grant is logged this turn (`R FR grant`, before the revival): with {free} free it costs {cost}"),
                );
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
        self.pay(f, Payee::Bank, cost);
        self.revive_from_tanks(f, c, rule!("1.05.01"));
        if let Some((m, payer, paid)) = extra {
            if payer != Faction::Emperor || self.st.ally(f) != Some(Faction::Emperor) {
                self.v(rule!("2.03.07"), if payer == Faction::Emperor { format!("the Emperor pays for its ally's extra revivals only, and {f} is not its ally") } else { format!("only the Emperor pays for an ally's extra revivals, not {payer}") });
                return;
            }
            if self.karama_forbids(
                Ability::EmAllyRevival,
                &format!("the Emperor pays for {} extra forces of {f}", m.total),
            ) {
                return;
            }
            if m.total > 3 {
                self.v(
                    rule!("2.03.07"),
                    format!(
                        "the Emperor pays for up to 3 extra forces of its ally, not {}",
                        m.total
                    ),
                );
            }
            let cost = Spice::new(2 * u32::from(m.total));
            if let Some(p) = paid
                && p != cost
            {
                self.v(
                    rule!("2.03.07"),
                    format!(
                        "{} extra forces cost the Emperor {cost} spice, not {p}",
                        m.total
                    ),
                );
            }
            if cost > self.spice(payer) {
                self.v(
                    rule!("2.03.07"),
                    format!(
                        "the Emperor must pay {cost} spice but has {}",
                        self.spice(payer)
                    ),
                );
            }
            self.pay(payer, Payee::Bank, cost);
            self.revive_from_tanks(f, m, rule!("2.03.07"));
        }
    }

    fn revive_leader(&mut self, f: Faction, l: Leader, paid: Option<Spice>) {
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
        self.pay(f, Payee::Bank, cost);
        self.st.leaders[l.index()] = LeaderState::Pool(f);
    }

    /// Emperor Karama (1.14.02): three forces or one leader, free.
    pub(super) fn emperor_karama_revival(
        &mut self,
        forces: Option<ForceCount>,
        leader: Option<Leader>,
    ) {
        let f = Faction::Emperor;
        if let Some(c) = forces {
            if c.total > 3 {
                self.v(
                    rule!("1.14.02"),
                    format!(
                        "the Emperor's Karama revives up to 3 forces, not {}",
                        c.total
                    ),
                );
            }
            self.revive_from_tanks(f, c, rule!("1.14.02"));
        }
        if let Some(l) = leader {
            if l.faction() != f || !matches!(self.st.leaders[l.index()], LeaderState::Tanks { .. })
            {
                self.v(
                    rule!("1.14.02"),
                    format!("{l} is not an Emperor leader in the tanks"),
                );
            } else {
                self.st.leaders[l.index()] = LeaderState::Pool(f);
            }
        }
    }
}
