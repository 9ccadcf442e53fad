//! Spice Collection (1.08, 1.13.01) and the Mentat Pause (1.09, 4.02, 4.03).

use super::Replay;
use crate::board::Territory;
use crate::dgn::{Event, Stmt, WinClaim};
use dune::{Faction, Spice, Stronghold, WinType};
use dune::{Rule, rule};

/// Who won, how, and when.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WinResult {
    pub factions: Vec<Faction>,
    pub kind: WinType,
    pub turn: u32,
}

impl WinResult {
    /// The rule that decides this kind of victory: the faction ability that gives it (a
    /// special victory, the prediction), else the phase's.
    pub fn rule(&self) -> Rule {
        if let Some(r) = Faction::ALL
            .into_iter()
            .find_map(|f| crate::factions::rules(f).victory_rule(self.kind, &self.factions))
        {
            return r;
        }
        match self.kind {
            WinType::SoloStronghold => rule!("1.09.02.01"),
            WinType::AlliedStronghold => rule!("1.09.02.02"),
            _ => rule!("1.09.05"),
        }
    }
}

/// The rule a claimed win of this kind rests on, when nobody meets any victory condition.
fn claim_rule(kind: WinType, factions: &[Faction]) -> Rule {
    WinResult {
        factions: factions.to_vec(),
        kind,
        turn: 0,
    }
    .rule()
}

pub(crate) struct Collection {
    pub(crate) faction: Faction,
    pub(crate) territory: Territory,
    pub(crate) amount: Spice,
    pub(crate) logged: bool,
    /// How it was counted, for a message.
    pub(crate) note: Note,
    /// The rule of the rate (1.08.02; a kind's own, 000 2.07.13).
    pub(crate) rule: Rule,
    /// Collected together with a partner and split (Ecaz's Occupy, 000 2.11.17 original): the
    /// partner, the joint amount and the rule. The two may agree any split of it.
    pub(crate) shared: Option<(Faction, Spice, Rule)>,
}

/// How a collection was counted: tokens of each kind and their rates (words only when a message
/// needs them).
#[derive(Clone, Copy, Default)]
pub(crate) struct Note {
    normal: u8,
    starred: u8,
    plain_rate: u32,
    star_rate: u32,
    star_name: &'static str,
    city: bool,
    /// Collected together with a partner and split (Ecaz's Occupy): the joint amount.
    shared: Option<Spice>,
}

impl Note {
    fn words(&self) -> String {
        if let Some(joint) = self.shared {
            return format!("{joint} collected together, split");
        }
        let n = u32::from(self.normal) + u32::from(self.starred);
        let each = if self.star_rate != self.plain_rate && self.starred > 0 {
            format!(
                "{} at {} and {} {} at {} each",
                self.normal, self.plain_rate, self.starred, self.star_name, self.star_rate
            )
        } else {
            format!("{} each", self.plain_rate)
        };
        format!(
            "{n} forces, {each}{}",
            if self.city {
                " (it occupies Arrakeen or Carthag)"
            } else {
                ""
            }
        )
    }
}

/// Marks a computed collection as logged; its amount and how it was counted.
fn tick(list: &mut [Collection], f: Faction, t: Territory) -> Option<(Spice, Note, Rule)> {
    let c = list
        .iter_mut()
        .find(|c| c.faction == f && c.territory == t)?;
    c.logged = true;
    Some((c.amount, c.note, c.rule))
}

#[derive(Default)]
pub(crate) struct CollectData {
    pub(crate) collected: Vec<Collection>,
    pub(crate) bonus: Vec<Collection>,
    pub(crate) logged: bool,
}

pub(crate) struct MentatData {
    pub(crate) control: Vec<(Stronghold, Faction)>,
    pub(crate) gains: Vec<(Stronghold, Faction)>,
    pub(crate) winner: Option<WinResult>,
}

impl Replay {
    /// 1.08.01-.03: occupants collect 2 per force (3 when they occupy Arrakeen or Carthag), in
    /// storm order up to what is there (rulings.md 20); advisors collect nothing (2.02.12). Then
    /// the Advanced bonus (1.13.01).
    pub(crate) fn begin_collection(&mut self) {
        let mut collected = Vec::new();
        for t in Territory::all() {
            let mut left: Spice = t.pieces().iter().map(|p| self.st.spice[p.index()]).sum();
            if left == 0 {
                continue;
            }
            for f in self.st.order.clone() {
                let here = self.st.in_territory(f, t);
                // Tokens that collect beside the fighting forces (a Richese No-Field token,
                // 000 2.10.11; the Free Traders' Smugglers where nobody contests, 2.13.05).
                let hidden = crate::factions::rules(f).extra_collectors(self, f, t);
                let n = u32::from(here.fighting()) + hidden;
                if n == 0 || left == 0 {
                    continue;
                }
                let city = [Territory::Arrakeen, Territory::Carthag]
                    .iter()
                    .any(|&c| self.st.in_territory(f, c).fighting() > 0);
                // Each kind at its own rate (the Ixians' Cyborgs collect 3, 000 2.07.13), 3 for
                // anyone occupying Arrakeen or Carthag (1.08.03).
                let kinds = self.st.faction(f).sheet.kinds;
                let rate_of = |k: crate::factions::ForceKind| {
                    let own = u32::from(kinds.of(k).collects);
                    if city { own.max(3) } else { own }
                };
                let (plain_rate, star_rate) = (
                    rate_of(crate::factions::ForceKind::Plain),
                    rate_of(crate::factions::ForceKind::Starred),
                );
                let due = (u32::from(here.normal) + hidden) * plain_rate
                    + u32::from(here.starred) * star_rate;
                let amount = left.take(Spice::new(due));
                let mut owed = amount;
                for &p in t.pieces() {
                    let k = self.st.spice[p.index()].take(owed);
                    owed = owed.saturating_sub(k);
                }
                self.st.faction_mut(f).gain(amount);
                let note = Note {
                    normal: here
                        .normal
                        .saturating_add(u8::try_from(hidden).unwrap_or(u8::MAX)),
                    starred: here.starred,
                    plain_rate,
                    star_rate,
                    star_name: kinds.of(crate::factions::ForceKind::Starred).name,
                    city,
                    shared: None,
                };
                let rule = if star_rate != plain_rate && here.starred > 0 {
                    crate::factions::kind_rule(
                        f,
                        crate::factions::ForceKind::Starred,
                        crate::factions::Aspect::Collects,
                    )
                } else if !city && plain_rate != 2 {
                    // A plain kind of its own rate (the Free Traders' 3, 000 2.13.10).
                    crate::factions::kind_rule(
                        f,
                        crate::factions::ForceKind::Plain,
                        crate::factions::Aspect::Collects,
                    )
                } else {
                    rule!("1.08.02")
                };
                collected.push(Collection {
                    faction: f,
                    territory: t,
                    amount,
                    logged: false,
                    note,
                    rule,
                    shared: None,
                });
            }
            self.share_collection(t, &mut collected);
        }
        let mut bonus = Vec::new();
        if self.st.options.advanced {
            for (t, amount) in [
                (Territory::Arrakeen, Spice::new(2)),
                (Territory::Carthag, Spice::new(2)),
                (Territory::TueksSietch, Spice::new(1)),
            ] {
                for f in self.st.occupants(t) {
                    self.bank_pays(f, amount);
                    bonus.push(Collection {
                        faction: f,
                        territory: t,
                        amount,
                        logged: false,
                        note: Note::default(),
                        rule: rule!("1.13.01"),
                        shared: None,
                    });
                }
            }
        }
        self.t.collect = CollectData {
            collected,
            bonus,
            logged: false,
        };
    }

    pub(crate) fn collect_event(&mut self, ev: &Event) {
        self.t.collect.logged = true;
        match &ev.stmt {
            Stmt::Collect {
                faction,
                amount,
                territory,
            } => match tick(&mut self.t.collect.collected, *faction, *territory) {
                Some(_)
                    if let Some(rule) = self.shared_collection(*faction, *territory, *amount) =>
                {
                    if let Some(rule) = rule {
                        let joint = self
                            .t
                            .collect
                            .collected
                            .iter()
                            .find(|c| c.faction == *faction && c.territory == *territory)
                            .and_then(|c| c.shared)
                            .map_or(Spice::ZERO, |s| s.1);
                        self.v(
                            rule,
                            format!(
                                "{faction} and its partner collect {joint} spice together in {}; {faction}'s share cannot be {amount}",
                                territory.name()
                            ),
                        );
                    }
                }
                Some((a, note, rule)) => {
                    if a != *amount {
                        self.v(
                            rule,
                            format!(
                                "{faction} collects {a} spice in {} ({}), not {amount}",
                                territory.name(),
                                note.words()
                            ),
                        );
                    }
                }
                None => {
                    let here = self.st.in_territory(*faction, *territory);
                    let why = if here.fighting() == 0 {
                        "it has no fighting forces there"
                    } else {
                        "there is no spice there"
                    };
                    // Advisors never collect (2.02.12), nor the revised Ecaz's co-occupied
                    // forces (000 2.11.06).
                    let rule = if here.fighting() == 0 && here.advisors > 0 {
                        self.coexist_rule(*faction)
                    } else {
                        rule!("1.08.01")
                    };
                    self.v(
                        rule,
                        format!("{faction} collects nothing in {}: {why}", territory.name()),
                    );
                }
            },
            Stmt::Bonus {
                faction,
                amount,
                territory,
            } => {
                if !self.st.options.advanced {
                    self.v(
                        rule!("1.13.01"),
                        "the Arrakeen, Carthag and Tuek's Sietch bonus is an Advanced rule",
                    );
                    return;
                }
                match tick(&mut self.t.collect.bonus, *faction, *territory) {
                    Some((a, _, _)) => {
                        if a != *amount {
                            self.v(
                                rule!("1.13.01"),
                                format!(
                                    "{faction}'s bonus for occupying {} is {a}, not {amount}",
                                    territory.name()
                                ),
                            );
                        }
                    }
                    None => self.v(
                        rule!("1.13.01"),
                        format!(
                            "{faction} does not occupy {} at collection and gets no bonus",
                            territory.name()
                        ),
                    ),
                }
            }
            Stmt::CollectNone => {
                if let Some(c) = self.t.collect.collected.first() {
                    let msg = format!(
                        "{} collects {} spice in {}: the log says nobody collects",
                        c.faction,
                        c.amount,
                        c.territory.name()
                    );
                    self.v(rule!("1.08.01"), msg);
                }
                for c in self.t.collect.collected.iter_mut() {
                    c.logged = true;
                }
            }
            _ => {}
        }
    }

    /// Two factions collecting together in `t` whose rules make them split the spice (Ecaz's
    /// Occupy, 000 2.11.17 original): the joint amount, split evenly with the odd spice to the
    /// one the rule names, unless the log shows another split.
    fn share_collection(&mut self, t: Territory, collected: &mut [Collection]) {
        let here: Vec<usize> = collected
            .iter()
            .enumerate()
            .filter(|(_, c)| c.territory == t)
            .map(|(i, _)| i)
            .collect();
        for (k, &i) in here.iter().enumerate() {
            for &j in &here[k + 1..] {
                let (a, b) = (collected[i].faction, collected[j].faction);
                let Some((rule, odd)) = self
                    .st
                    .in_play
                    .iter()
                    .find_map(|g| crate::factions::rules(g).collection_shared(self, t, a, b))
                else {
                    continue;
                };
                let joint = collected[i].amount + collected[j].amount;
                let half = Spice::new(joint.amount() / 2);
                let rest = joint.saturating_sub(half);
                let (share_a, share_b) = if odd == a { (rest, half) } else { (half, rest) };
                for (x, share) in [(i, share_a), (j, share_b)] {
                    let c = &mut collected[x];
                    let f = c.faction;
                    let was = c.amount;
                    c.amount = share;
                    c.shared = Some((if x == i { b } else { a }, joint, rule));
                    c.note.shared = Some(joint);
                    let st = self.st.faction_mut(f);
                    st.spice = st.spice.saturating_sub(was);
                    st.gain(share);
                }
            }
        }
    }

    /// An `H` line for a shared collection: `None` when the collection is not shared; `Some(None)`
    /// when the logged share is possible (the partner's is then the rest of the joint amount),
    /// `Some(Some(rule))` when it is not.
    fn shared_collection(
        &mut self,
        f: Faction,
        t: Territory,
        amount: Spice,
    ) -> Option<Option<Rule>> {
        let c = self
            .t
            .collect
            .collected
            .iter()
            .find(|c| c.faction == f && c.territory == t)?;
        let (partner, joint, rule) = c.shared?;
        let before = c.amount;
        if amount > joint {
            return Some(Some(rule));
        }
        // The partner's share follows (a split the two agree, 2.11.17).
        let rest = joint.saturating_sub(amount);
        let partner_logged = self
            .t
            .collect
            .collected
            .iter()
            .find(|c| c.faction == partner && c.territory == t)
            .map(|c| (c.logged, c.amount));
        if let Some((true, p)) = partner_logged
            && p != rest
        {
            return Some(Some(rule));
        }
        for c in self.t.collect.collected.iter_mut() {
            if c.territory == t && c.faction == f {
                c.amount = amount;
            }
            if c.territory == t && c.faction == partner {
                c.amount = rest;
            }
        }
        let st = self.st.faction_mut(f);
        st.spice = st.spice.saturating_sub(before);
        st.gain(amount);
        let pb = joint.saturating_sub(before);
        let st = self.st.faction_mut(partner);
        st.spice = st.spice.saturating_sub(pb);
        st.gain(rest);
        Some(None)
    }

    pub(crate) fn finish_collection(&mut self) {
        if !self.t.collect.logged {
            return;
        }
        let missing: Vec<String> = self
            .t
            .collect
            .collected
            .iter()
            .filter(|c| !c.logged)
            .map(|c| {
                format!(
                    "{} collects {} spice in {}",
                    c.faction,
                    c.amount,
                    c.territory.name()
                )
            })
            .collect();
        for m in missing {
            self.v(
                rule!("1.08.01"),
                format!("{m}, which the log does not show"),
            );
        }
    }

    /// 1.09.01-1.09.05, 4.02, 4.03.01-.02.
    pub(crate) fn begin_mentat(&mut self) {
        for f in self.st.in_play.iter() {
            crate::factions::rules(f).begin_mentat(self);
        }
        for f in self.st.in_play.iter() {
            let b = std::mem::take(&mut self.st.faction_mut(f).bribes);
            self.st.faction_mut(f).gain(b);
        }
        let control: Vec<(Stronghold, Faction)> = self
            .st
            .victory_strongholds()
            .filter_map(|t| self.st.controller(t).map(|f| (t, f)))
            .collect();
        let winner = self.compute_winner(&control);
        let mut gains = Vec::new();
        if self.st.options.stronghold_cards {
            // The GenCon cards (4.03.03): the five strongholds of the map and the Shield Wall.
            for t in Stronghold::ALL
                .into_iter()
                .filter(|&s| s != Stronghold::HiddenMobileStronghold)
            {
                let i = t.index();
                let holder = self.st.stronghold_cards[i];
                let now = control.iter().find(|(c, _)| *c == t).map(|(_, f)| *f);
                if holder.is_some() && holder != now {
                    self.st.stronghold_cards[i] = None;
                }
                if winner.is_none()
                    && let Some(f) = now
                    && self.st.stronghold_cards[i] != Some(f)
                {
                    self.st.stronghold_cards[i] = Some(f);
                    gains.push((t, f));
                }
            }
        }
        self.t.mentat = Some(MentatData {
            control,
            gains,
            winner,
        });
    }

    /// The strongholds `f` (with its ally) needs for a stronghold victory: 3 alone, 4 allied
    /// (1.09.02.01, 1.09.02.02), unless a faction's rules lower it (the Ecaz alliance, 000
    /// 2.11.21 original); and the rule that says so.
    pub(crate) fn stronghold_need(&self, f: Faction) -> (usize, Rule) {
        let general = match self.st.ally(f) {
            Some(_) => (4, rule!("1.09.02.02")),
            None => (3, rule!("1.09.02.01")),
        };
        self.st
            .in_play
            .iter()
            .filter_map(|g| crate::factions::rules(g).stronghold_requirement(self, f))
            .fold(general, |best, r| if r.0 < best.0 { r } else { best })
    }

    /// Does `f` (with its ally) control enough strongholds for a stronghold victory now?
    pub(crate) fn meets_stronghold_requirement(
        &self,
        f: Faction,
        control: &[(Stronghold, Faction)],
    ) -> bool {
        let count = |g: Faction| control.iter().filter(|(_, c)| *c == g).count();
        let have = count(f) + self.st.ally(f).map_or(0, count);
        have >= self.stronghold_need(f).0
    }

    /// Every player or alliance meeting the stronghold requirement, first in storm order first
    /// (1.09.02.01, 1.09.02.02; an alliance takes its earlier member's place, ruling 23).
    pub(crate) fn stronghold_qualifiers(
        &self,
        control: &[(Stronghold, Faction)],
    ) -> Vec<WinResult> {
        let turn = self.st.turn;
        let mut out: Vec<WinResult> = Vec::new();
        for &f in &self.st.order {
            if !self.meets_stronghold_requirement(f, control) {
                continue;
            }
            let w = match self.st.ally(f) {
                Some(a) => WinResult {
                    factions: sorted(vec![f, a]),
                    kind: WinType::AlliedStronghold,
                    turn,
                },
                None => WinResult {
                    factions: vec![f],
                    kind: WinType::SoloStronghold,
                    turn,
                },
            };
            if !out.contains(&w) {
                out.push(w);
            }
        }
        out
    }

    /// The winner of this Mentat Pause: every victory checked in ruling 7's order, kept in one
    /// place (`factions::victory::ORDER`).
    pub(crate) fn compute_winner(&self, control: &[(Stronghold, Faction)]) -> Option<WinResult> {
        self.victory_in_order(control)
    }

    pub(crate) fn mentat_event(&mut self, ev: &Event) {
        let Some((control, gains, winner)) = self
            .t
            .mentat
            .as_ref()
            .map(|m| (m.control.clone(), m.gains.clone(), m.winner.clone()))
        else {
            return;
        };
        match &ev.stmt {
            Stmt::Control(list) => {
                let computed = control;
                for &(t, f, pos) in list {
                    if t == Stronghold::ShieldWall && !self.st.shield_wall_counts() {
                        self.v_at(pos, rule!("4.02.00"), "the Shield Wall counts as a stronghold only after the fourth worm (with the ShieldWall variant)");
                        continue;
                    }
                    match computed.iter().find(|(c, _)| *c == t) {
                        Some((_, g)) if *g == f => {}
                        Some((_, g)) => {
                            let rule = self.control_rule(t, Some(f));
                            let why = control_note(rule);
                            self.v_at(
                                pos,
                                rule,
                                format!("{g} controls {}, not {f}{why}", t.name()),
                            );
                        }
                        None => {
                            let rule = self.control_rule(t, Some(f));
                            let why = match control_note(rule) {
                                "" => " (control needs forces there and no other faction's)",
                                note => note,
                            };
                            self.v_at(pos, rule, format!("nobody controls {}{why}", t.name()));
                        }
                    }
                }
                for (t, f) in computed {
                    if !list.iter().any(|(x, _, _)| *x == t) {
                        let rule = self.control_rule(t, None);
                        self.v(
                            rule,
                            format!(
                                "{f} controls {}, which the control line does not list{}",
                                t.name(),
                                control_note(rule)
                            ),
                        );
                    }
                }
            }
            Stmt::Win(claim) => {
                let mut computed = winner;
                // A faction's victory revealed only now (the Bene Gesserit prediction in a
                // published log, 2.02.03).
                if let WinClaim::Win { factions, kind } = claim
                    && let Some(w) = self.st.in_play.iter().find_map(|f| {
                        crate::factions::rules(f).revealed_victory(
                            self,
                            (factions, *kind),
                            computed.as_ref(),
                        )
                    })
                {
                    computed = Some(w);
                    if let Some(m) = self.t.mentat.as_mut() {
                        m.winner = computed.clone();
                    }
                }
                self.check_win_claim(claim, &control, computed.as_ref());
            }
            Stmt::StrongholdCards(list) => {
                if !self.st.options.stronghold_cards {
                    self.v(
                        rule!("4.03.00"),
                        "stronghold cards are a variant not used in this game",
                    );
                    return;
                }
                for &(t, f, pos) in list {
                    if !gains.contains(&(t, f)) {
                        self.v_at(pos, rule!("4.03.02"), format!("{f} does not take the {} card now (cards go to new controllers at War Continues)", t.name()));
                    }
                }
                for (t, f) in gains {
                    if !list.iter().any(|(x, g, _)| *x == t && *g == f) {
                        self.v(
                            rule!("4.03.02"),
                            format!(
                                "{f} takes the {} card, which the log does not show",
                                t.name()
                            ),
                        );
                    }
                }
            }
            _ => {
                // A faction's own statement at the Mentat Pause (the Tleilaxu's Face Dancer
                // replacement, 000 2.08.07; the Hidden Mobile Stronghold's move under that
                // edition, 2.07.18).
                crate::factions::ability_statement(self, ev);
            }
        }
    }

    /// The rule that decides a victory the log gets wrong (`claimed`, `computed`: what the log
    /// and the replay say): the BG prediction (2.02.03) when either is one; the Fremen's ally in
    /// Tuek's Sietch (4.01.19) when a Fremen special victory was missed with it there; the ally's share of the
    /// Guild's or the Fremen's special victory (2.06.11, 2.04.12) when only the ally is in
    /// question; otherwise the rule of the victory's kind.
    pub(crate) fn win_rule(
        &self,
        claimed: Option<(&[Faction], WinType)>,
        computed: Option<&WinResult>,
    ) -> Rule {
        if let Some(r) = Faction::ALL
            .into_iter()
            .find_map(|f| crate::factions::rules(f).victory_claim_rule(self, claimed, computed))
        {
            return r;
        }
        match (computed, claimed) {
            (Some(w), _) => w.rule(),
            (None, Some((factions, kind))) => claim_rule(kind, factions),
            (None, None) => rule!("1.09.00"),
        }
    }

    /// The rule that decides who controls a stronghold when the log says otherwise (`claimed`:
    /// the faction it names, `None` when it leaves the stronghold out): advisors neither hold nor
    /// prevent control (2.02.12); on the Shield Wall only the left side counts (4.02.01), and with
    /// two factions there the one on the left controls it (4.02.06); otherwise 1.09.02.
    pub(crate) fn control_rule(&self, s: Stronghold, claimed: Option<Faction>) -> Rule {
        let t = Territory::of(s);
        // A stronghold a faction's rules give to one of its occupants (000 2.11.20 original).
        let occ: dune::FactionSet = self
            .st
            .in_play
            .iter()
            .filter(|&f| self.st.occupies(f, s))
            .collect();
        if occ.len() > 1
            && let Some((_, rule)) = self.st.shared_control(s, occ)
        {
            return rule;
        }
        let advisors = self
            .st
            .in_play
            .iter()
            .find(|&f| self.st.in_territory(f, t).advisors > 0);
        if let Some(a) = advisors
            && claimed.is_none_or(|f| f == a)
        {
            return self.coexist_rule(a);
        }
        if s == Stronghold::ShieldWall {
            let right_only =
                |f: Faction| self.st.in_territory(f, t).fighting() > 0 && !self.st.occupies(f, s);
            let others_right = self.st.in_play.iter().any(&right_only);
            match claimed {
                Some(f) if right_only(f) => {
                    let left = self.st.in_play.iter().any(|g| self.st.occupies(g, s));
                    return if left {
                        rule!("4.02.06")
                    } else {
                        rule!("4.02.01")
                    };
                }
                None if others_right => return rule!("4.02.06"),
                _ => {}
            }
        }
        rule!("1.09.02")
    }

    pub(crate) fn finish_mentat(&mut self) {
        for f in self.st.in_play.iter() {
            crate::factions::rules(f).end_of_turn(self);
        }
        if !self.deals.is_empty() {
            self.deals_at_turn_end();
        }
        let winner = self.t.mentat.take().and_then(|m| m.winner);
        let s = self.summary();
        self.turns.push(s);
        if let Some(w) = winner {
            self.winner = Some(w);
            self.st.finished = true;
        }
    }
}

/// Why control went as it did, for the specific rules of [`Replay::control_rule`].
fn control_note(rule: Rule) -> &'static str {
    if rule == rule!("2.02.12") {
        " (advisors neither control a stronghold nor prevent another faction's control)"
    } else if rule == rule!("4.02.01") {
        " (only the left side of the Shield Wall, sector 9, counts as a stronghold)"
    } else if rule == rule!("4.02.06") {
        " (of two factions on the Shield Wall, the one on its left side controls it)"
    } else {
        ""
    }
}

/// The claimed and the computed victory are the same one, with or without the ally: the ally's
/// share of a faction's victory (`solo` and `allied`, its two kinds) is what the log got wrong.
pub(crate) fn ally_share(
    claimed: Option<(&[Faction], WinType)>,
    computed: Option<&WinResult>,
    solo: WinType,
    allied: WinType,
) -> bool {
    let (Some((factions, kind)), Some(w)) = (claimed, computed) else {
        return false;
    };
    let nested = factions.iter().all(|f| w.factions.contains(f))
        || w.factions.iter().all(|f| factions.contains(f));
    let pair = [kind, w.kind];
    nested && kind != w.kind && pair.contains(&solo) && pair.contains(&allied)
}

impl Replay {
    /// A faction's victory shared with its ally, if it has one.
    pub(crate) fn with_ally(
        &self,
        f: Faction,
        solo: WinType,
        allied: WinType,
        turn: u32,
    ) -> WinResult {
        match self.st.ally(f) {
            Some(a) => WinResult {
                factions: sorted(vec![f, a]),
                kind: allied,
                turn,
            },
            None => WinResult {
                factions: vec![f],
                kind: solo,
                turn,
            },
        }
    }
}

fn sorted(mut v: Vec<Faction>) -> Vec<Faction> {
    v.sort();
    v
}
