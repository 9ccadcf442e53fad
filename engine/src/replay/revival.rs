//! Revival phase (1.05, in storm order per 4.01.15).

use super::Replay;
use crate::board::{Card, Leader};
use crate::dgn::{Event, ForceCount, Payment, Stmt};
use crate::factions::{Aspect, Fee, ForceKind, KindRules};
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
    /// Recruits was played this phase (000 3.04.02): free revival doubled, the limit 7.
    pub(crate) recruits: bool,
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
            // 000 3.04.02: played in the Revival phase, outside the storm order of revivals.
            Stmt::Recruits { faction } => {
                if self.in_play_or_report(*faction) {
                    self.recruits(*faction);
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
        for g in self.st.in_play.iter() {
            crate::factions::rules(g).revived(self, faction, false, true);
        }
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
        // A faction's ability may take it away this turn (La La La, 000 2.09.07.05).
        if self.free_revival_removed(f).is_some() {
            return 0;
        }
        let mut free = self.st.faction(f).sheet.free_revival;
        // An ally's ability may raise it (the Fremen's grant, 2.04.11).
        if let Some(a) = self.st.ally(f) {
            free = crate::factions::rules(a).free_revival(self, f, free);
        }
        if self.st.stronghold_card_holder(Stronghold::SietchTabr) == Some(f) {
            free += 1;
        }
        // Recruits doubles every faction's free revival (000 3.04.02).
        if self.t.revival.recruits {
            free = free.saturating_mul(2);
        }
        free
    }

    /// The rule of an ability that took `f`'s free revival away this turn, if any.
    pub(crate) fn free_revival_removed(&self, f: Faction) -> Option<Rule> {
        self.st
            .in_play
            .iter()
            .find_map(|g| crate::factions::rules(g).free_revival_removed(self, f))
    }

    /// Force revival on a faction's own terms (CHOAM, 000 2.09.08, 2.09.12-2.09.15): its limit
    /// (or none), its price per force and per starred force. Free revivals go to starred forces
    /// first, as a player would use them.
    fn revive_on_terms(
        &mut self,
        f: Faction,
        c: ForceCount,
        payment: Option<&Payment>,
        extra: Option<&(ForceCount, Faction, Option<Payment>)>,
        t: crate::factions::RevivalTerms,
    ) {
        let free = self.free_revival(f);
        let n = c.total;
        if let Some(limit) = t.limit
            && n > limit.max(free)
        {
            self.v(
                t.rule,
                format!(
                    "{f} may revive up to {} forces this turn ({free} free), not {n}",
                    limit.max(free)
                ),
            );
        }
        if c.starred > t.starred_limit {
            self.v(
                t.starred_rule,
                format!(
                    "{f} revives at most {} starred forces per turn, not {}",
                    t.starred_limit, c.starred
                ),
            );
        }
        // The price by kind (the faction's sheet); any choice of which forces are free.
        let prices = self.revival_prices(f, c, free);
        let cost = match payment {
            Some(p) if prices.contains(&p.amount) => p.amount,
            _ => prices.first().copied().unwrap_or(Spice::ZERO),
        };
        if let Some(p) = payment
            && p.amount != cost
        {
            // A price that counts free forces the faction does not have (CHOAM has none,
            // 000 2.09.03), or that an ability took away (La La La).
            let counts_free =
                (1..=3).any(|k| self.revival_prices(f, c, free + k).contains(&p.amount));
            // A price that counts the starred forces at the plain price (000 2.09.14).
            let starred_as_plain = c.starred > 0
                && self
                    .revival_prices(f, ForceCount { starred: 0, ..c }, free)
                    .contains(&p.amount);
            let rule = self.free_revival_removed(f).unwrap_or(if starred_as_plain {
                t.starred_price_rule
            } else if counts_free {
                t.free_rule
            } else if c.starred > 0 {
                t.starred_price_rule
            } else {
                t.rule
            });
            self.v_at(
                p.pos,
                rule,
                format!(
                    "{f} revives {c} forces with {free} free: that costs {} spice, not {}",
                    Self::price_list(&prices),
                    p.amount
                ),
            );
        }
        if cost > self.spice(f) {
            self.v(
                t.rule,
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
        self.revive_from_tanks(f, c, t.rule);
        for g in self.st.in_play.iter() {
            crate::factions::rules(g).after_revival(self, f, c);
        }
        if let Some((m, payer, paid)) = extra {
            self.extra_revival(f, *m, *payer, paid.as_ref());
        }
    }

    /// Forces revived per turn without special help (1.05.01), 7 with Recruits (000 3.04.02).
    fn revival_limit(&self) -> u8 {
        if self.t.revival.recruits {
            7
        } else {
            REVIVAL_LIMIT
        }
    }

    /// `R F Recruits` (000 3.04.02).
    pub(crate) fn recruits(&mut self, f: Faction) {
        self.play_card(f, Card::Recruits, rule!("3.04.02"), false);
        if self.t.revival.recruits {
            self.v_full(
                rule!("3.04.02"),
                "Recruits is already in play this Revival phase",
            );
        }
        self.t.revival.recruits = true;
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
        if self.revival_blocked(f) {
            return;
        }
        if let Some(terms) = crate::factions::rules(f).revival_terms(self) {
            return self.revive_on_terms(f, c, payment, extra, terms);
        }
        let free = self.free_revival(f);
        let n = c.total;
        // The limit: 3 (1.05.01), or as a faction's rules set it (the Tleilaxu's own none,
        // 000 2.08.08; another's raised to 5, 2.08.11).
        let (mut limit, mut limit_rule) = self
            .st
            .in_play
            .iter()
            .find_map(|g| crate::factions::rules(g).revival_limit(self, f))
            .map_or((REVIVAL_LIMIT, None), |(l, r)| (l, Some(r)));
        // Recruits raises everyone's to 7 (000 3.04.02).
        if self.revival_limit() > limit {
            (limit, limit_rule) = (self.revival_limit(), None);
        }
        let max_paid = limit.saturating_sub(free);
        let paid_count = n.saturating_sub(free);
        let tabr_card = self.st.stronghold_card_holder(Stronghold::SietchTabr) == Some(f);
        if n > free.max(limit) || paid_count > max_paid {
            // With the Sietch Tabr card the card's own limits decide (4.03.03.06); with Recruits,
            // the card's (000 3.04.02).
            let rule = if tabr_card {
                rule!("4.03.03.06")
            } else if self.t.revival.recruits {
                rule!("3.04.02")
            } else {
                limit_rule.unwrap_or(rule!("1.05.01"))
            };
            let tleilaxu = if limit_rule.is_none() && self.st.plays(Faction::Tleilaxu) {
                " (the Tleilaxu may raise it to 5: R TL allow F, 000 2.08.11)"
            } else {
                ""
            };
            self.v(
                rule,
                format!(
                    "{f} may revive up to {} forces this turn ({free} free), not {n}{tleilaxu}",
                    free.max(limit)
                ),
            );
        }
        // One starred force a turn where the faction's rule says so (the Sardaukar 2.03.11, the
        // Fedaykin 2.04.19); the Ixians' Cyborgs have no such limit (000 2.07.11).
        let star_total = c.starred + extra.map_or(0, |e| e.0.starred);
        if star_total > 1
            && let Some(rule) = crate::factions::rules(f).starred_revival_rule()
        {
            self.v(
                rule,
                format!("only one starred force of {f} is revived per turn"),
            );
        }
        // The price by kind (1.05.01.02; the Ixians' Cyborgs cost 3, 000 2.07.10): the free
        // revivals may be any of the forces revived, so every choice of which are free gives a
        // price the log may show; without one the cheapest is paid.
        let mut prices = self.revival_prices(f, c, free);
        // A faction's rules may change the price (the Tleilaxu's half price, 000 2.08.09, and
        // their ally's, 2.08.15).
        let mut price_rule = None;
        for g in self.st.in_play.iter() {
            if let Some(r) = crate::factions::rules(g).revival_prices(self, f, &mut prices) {
                price_rule = Some(r);
            }
        }
        let cost = match paid {
            Some(p) if prices.contains(&p) => p,
            _ => prices.first().copied().unwrap_or(Spice::ZERO),
        };
        if let Some(p) = paid
            && !prices.contains(&p)
        {
            // The price the log shows would be right with an ally's ability (the Fremen's grant).
            let ally_rule = self
                .st
                .ally(f)
                .and_then(|a| crate::factions::rules(a).revival_price_rule(self, f, n, free, p));
            // The price the log shows would be right without the Sietch Tabr card's free one.
            let tabr_missed = tabr_card
                && self
                    .revival_prices(f, c, free.saturating_sub(1))
                    .contains(&p);
            let said = Self::price_list(&prices);
            // The price the log shows pays for every force, the free ones too.
            let free_missed = free > 0 && n > 0 && self.revival_prices(f, c, 0).contains(&p);
            // The price the log shows would be right with another number of free revivals: the
            // faction's own rule that states it (000 2.07.05, 2.08.04).
            let free_rule = crate::factions::rules(f)
                .sheet_rule(crate::factions::SheetItem::FreeRevival)
                .filter(|_| {
                    [free.saturating_sub(1), free.saturating_add(1)]
                        .iter()
                        .any(|&k| k != free && self.revival_prices(f, c, k).contains(&p))
                });
            // A price that misreads the faction's own free revival (000 2.10.04 for Richese).
            let own_free = crate::factions::rules(f)
                .start_rules(&self.st.options)
                .map(|s| s.free_revival)
                .filter(|_| {
                    (0..=3u8)
                        .filter(|&k| k != free)
                        .any(|k| self.revival_prices(f, c, k).contains(&p))
                });
            if let Some(rule) = self.free_revival_removed(f) {
                self.v(
                    rule,
                    format!("{f}'s free revival was taken away this turn: {n} forces cost {cost} spice, not {p}"),
                );
            } else if let Some((rule, msg)) = ally_rule {
                self.v(rule, msg);
            } else if let Some(rule) = own_free.filter(|_| !tabr_missed) {
                self.v(
                    rule,
                    format!(
                        "{f} revives {n} forces with {free} free: that costs {said} spice, not {p}"
                    ),
                );
            } else if tabr_missed {
                self.v(
                    rule!("4.03.03.06"),
                    format!(
                        "{f} revives {n} forces with {free} free, one of them from the Sietch Tabr card: that costs {said} spice, not {p}"
                    ),
                );
            } else if let Some(rule) = free_rule {
                self.v(
                    rule,
                    format!(
                        "{f} revives {c} forces with {free} free: that costs {said} spice, not {p}"
                    ),
                );
            } else if free_missed {
                self.v_also(
                    rule!("1.05.01.01"),
                    &[rule!("1.05.01.02")],
                    format!(
                        "{f} revives {} free (its player sheet): {n} forces cost {cost} spice, not {p}, which pays for every one",
                        match free.min(n) {
                            1 => "its first force".to_string(),
                            k => format!("its first {k} forces"),
                        }
                    ),
                );
            } else {
                let rule = price_rule.unwrap_or_else(|| self.revival_price_rule(f, c));
                self.v(
                    rule,
                    format!(
                        "{f} revives {c} forces with {free} free: that costs {said} spice, not {p}"
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
        for g in self.st.in_play.iter() {
            crate::factions::rules(g).after_revival(self, f, c);
        }
        // What a faction receives for a free revival (the Tleilaxu's subsidy, 000 2.08.12).
        let free_used = free > 0 && n > 0;
        for g in self.st.in_play.iter() {
            crate::factions::rules(g).revived(self, f, free_used, false);
        }
        if let Some((m, payer, paid)) = extra {
            self.extra_revival(f, *m, *payer, paid.as_ref());
        }
    }

    /// Every price a revival of `c` with `free` free forces may cost (1.05.01.02): each kind at
    /// its own price ([`crate::factions::KindRules::revival`]), the free ones chosen among any
    /// kind (000 2.07.06 says so for the Ixians). Cheapest first.
    pub(crate) fn revival_prices(&self, f: Faction, c: ForceCount, free: u8) -> Vec<Spice> {
        let kinds = self.st.faction(f).sheet.kinds;
        let star = u32::from(kinds.of(ForceKind::Starred).revival);
        let plain = u32::from(kinds.plain.revival);
        let starred = c.starred.min(c.total);
        let paid = c.total.saturating_sub(free);
        // Starred forces among the paid ones: at least those the free ones cannot cover.
        let low = starred.saturating_sub(free);
        let high = starred.min(paid);
        let mut out: Vec<Spice> = (low..=high.max(low))
            .map(|k| {
                let k = u32::from(k);
                Spice::new(k * star + (u32::from(paid) - k.min(u32::from(paid))) * plain)
            })
            .collect();
        out.sort();
        out.dedup();
        out
    }

    /// "4" or "4 or 5": the prices a revival may cost, for messages.
    pub(crate) fn price_list(prices: &[Spice]) -> String {
        prices
            .iter()
            .map(|p| p.to_string())
            .collect::<Vec<_>>()
            .join(" or ")
    }

    /// The rule of a revival's price: the kind's own where a kind revived costs other than 2
    /// (000 2.07.10), else 1.05.01.02.
    pub(crate) fn revival_price_rule(&self, f: Faction, c: ForceCount) -> Rule {
        let kinds = self.st.faction(f).sheet.kinds;
        let star = kinds.of(ForceKind::Starred);
        if c.starred > 0 && star.revival != KindRules::FORCE.revival {
            crate::factions::kind_rule(f, ForceKind::Starred, Aspect::Revival)
        } else {
            rule!("1.05.01.02")
        }
    }

    pub(crate) fn revive_leader(&mut self, f: Faction, l: Leader, payment: Option<&Payment>) {
        let paid = payment.map(|p| p.amount);
        // A faction's rules may change it (the Tleilaxu's own leaders, their gholas and their
        // ally's price, 000 2.08.08-2.08.16; Duke Vidal, 000 2.11.22, 2.12.15).
        let special = self
            .st
            .in_play
            .iter()
            .find_map(|g| crate::factions::rules(g).leader_revival(self, f, l));
        let ghola = special.as_ref().is_some_and(|s| s.ghola);
        // Duke Vidal joins the faction that revives him (set aside afterwards).
        let vidal = special.as_ref().is_some_and(|s| s.set_aside);
        if l.faction() != f && !ghola && !vidal {
            self.v(
                rule!("1.05.03"),
                format!("{f} can revive only its own leaders, not {l}"),
            );
            return;
        }
        if ghola && let Some(rule) = crate::factions::rules(l.faction()).protected_leader(self, l) {
            self.v(rule, format!("{l} cannot be revived as a Tleilaxu ghola"));
            return;
        }
        if ghola && !self.st.options.advanced {
            self.v(
                rule!("2.08.00"),
                format!(
                    "gholas are an Advanced ability: the Tleilaxu revive their own leaders, not {l}"
                ),
            );
            return;
        }
        if ghola
            && self.karama_forbids(
                crate::factions::tleilaxu::GHOLAS,
                &format!("the Tleilaxu revive {l} as a ghola"),
            )
        {
            return;
        }
        if self.revival_blocked(f) {
            return;
        }
        // 000 2.08.16: the Tleilaxu take their gholas after every other faction's leaders.
        self.after_ghola(f);
        let unlimited = special.as_ref().and_then(|s| s.unlimited);
        let active = self.st.active_leaders(f);
        match unlimited {
            Some((max, rule)) => {
                if active.len() >= max {
                    self.v(
                        rule,
                        format!(
                            "{f} has {} active leaders and revives leaders up to {max}",
                            active.len()
                        ),
                    );
                }
            }
            None => {
                let anytime = crate::factions::rules(f).leader_revival_anytime(self, l);
                if self.t.revival.leader.contains(f) {
                    if let Some(rule) = anytime {
                        self.v(
                            rule,
                            format!("{l} is revived as {f}'s one leader of the turn, and {f} has revived one already"),
                        );
                    } else if self.t.revival.kwisatz {
                        self.v(
                            rule!("2.01.14"),
                            format!("the Kwisatz Haderach took the Atreides' one leader revival of this turn; {l} cannot be revived too"),
                        );
                    } else {
                        self.v(rule!("1.05.03"), format!("{f} revives one leader per turn"));
                    }
                    return;
                }
                // A faction's own rule may allow it (Ecaz, 000 2.11.23 original) or forbid it by
                // its own words.
                let own_rule = self
                    .st
                    .in_play
                    .iter()
                    .find_map(|g| crate::factions::rules(g).leader_revival_allowed(self, f));
                let allowed = anytime.is_some()
                    || special.as_ref().is_some_and(|s| s.any_time)
                    || own_rule.as_ref().is_some_and(|(ok, _, _)| *ok);
                if let Some((false, rule, why)) = own_rule.clone()
                    && !active.is_empty()
                    && !allowed
                {
                    self.v(rule, why);
                } else if !active.is_empty() && !allowed {
                    let names: Vec<String> = active.iter().map(|l| l.to_string()).collect();
                    let tleilaxu = if self.st.plays(Faction::Tleilaxu) && f != Faction::Tleilaxu {
                        " (the Tleilaxu may sell it: R TL sell L:leader, 000 2.08.13)"
                    } else {
                        ""
                    };
                    self.v(
                        rule!("1.05.03"),
                        format!(
                            "{f} has active leaders ({}) and cannot revive a leader{tleilaxu}",
                            names.join(", ")
                        ),
                    );
                }
            }
        }
        self.t.revival.leader.insert(f);
        match self.st.leaders[l.index()] {
            LeaderState::Tanks { face_up: true } => {}
            LeaderState::Tanks { face_up: false } if unlimited.is_none() => {
                let face_up_other = Leader::of(f).any(|o| {
                    o != l && self.st.leaders[o.index()] == LeaderState::Tanks { face_up: true }
                });
                if face_up_other {
                    self.v(rule!("1.05.04"), format!("{l} died a second time (face down); {f} must revive its face-up leaders first"));
                }
            }
            LeaderState::Tanks { .. } => {}
            _ => {
                self.v(rule!("1.05.03"), format!("{l} is not in the tanks"));
                return;
            }
        }
        let (prices, price_rule) = match &special {
            Some(s) => (s.prices.clone(), s.rule),
            None => (
                vec![Spice::new(u32::from(l.strength()))],
                rule!("1.05.03.01"),
            ),
        };
        let cost = match paid {
            Some(p) if prices.contains(&p) => p,
            _ => prices.first().copied().unwrap_or(Spice::ZERO),
        };
        if let Some(p) = paid
            && !prices.contains(&p)
        {
            let why = match &special {
                Some(_) => Self::price_list(&prices),
                None => format!("{cost} (the leader's strength)"),
            };
            self.v(
                price_rule,
                format!("reviving {l} costs {why} spice, not {p}"),
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
        self.st.leaders[l.index()] = if vidal {
            LeaderState::SetAside
        } else {
            LeaderState::Pool(f)
        };
        if ghola {
            self.ghola_revived();
        }
    }

    /// A faction kept from its standard revival this turn (the Tleilaxu's Karama, 000 1.14.08):
    /// reported; `true` when it is.
    pub(crate) fn revival_blocked(&mut self, f: Faction) -> bool {
        let Some(rule) = self
            .st
            .in_play
            .iter()
            .find_map(|g| crate::factions::rules(g).revival_blocked(self, f))
        else {
            return false;
        };
        self.v(
            rule,
            format!("a Karama keeps {f} from its standard revival this turn"),
        );
        true
    }
}
