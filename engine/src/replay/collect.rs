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
    pub(crate) note: String,
}

/// Marks a computed collection as logged; its amount and how it was counted.
fn tick(list: &mut [Collection], f: Faction, t: Territory) -> Option<(Spice, String)> {
    let c = list
        .iter_mut()
        .find(|c| c.faction == f && c.territory == t)?;
    c.logged = true;
    Some((c.amount, c.note.clone()))
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
                let n = u32::from(self.st.in_territory(f, t).fighting());
                if n == 0 || left == 0 {
                    continue;
                }
                let city = [Territory::Arrakeen, Territory::Carthag]
                    .iter()
                    .any(|&c| self.st.in_territory(f, c).fighting() > 0);
                let rate = if city { 3 } else { 2 };
                let amount = left.take(Spice::new(rate * n));
                let mut owed = amount;
                for &p in t.pieces() {
                    let k = self.st.spice[p.index()].take(owed);
                    owed = owed.saturating_sub(k);
                }
                self.st.faction_mut(f).gain(amount);
                let note = format!(
                    "{n} forces at {rate} each{}",
                    if city {
                        " (it occupies Arrakeen or Carthag)"
                    } else {
                        ""
                    }
                );
                collected.push(Collection {
                    faction: f,
                    territory: t,
                    amount,
                    logged: false,
                    note,
                });
            }
        }
        let mut bonus = Vec::new();
        if self.st.options.advanced {
            for (t, amount) in [
                (Territory::Arrakeen, Spice::new(2)),
                (Territory::Carthag, Spice::new(2)),
                (Territory::TueksSietch, Spice::new(1)),
            ] {
                for f in self.st.occupants(t) {
                    self.st.faction_mut(f).gain(amount);
                    bonus.push(Collection {
                        faction: f,
                        territory: t,
                        amount,
                        logged: false,
                        note: String::new(),
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
                Some((a, note)) => {
                    if a != *amount {
                        self.v(
                            rule!("1.08.02"),
                            format!(
                                "{faction} collects {a} spice in {} ({note}), not {amount}",
                                territory.name()
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
                    // Advisors never collect (2.02.12).
                    let rule = if here.fighting() == 0 && here.advisors > 0 {
                        rule!("2.02.12")
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
                    Some((a, _)) => {
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
            for t in Stronghold::ALL {
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

    /// Every player or alliance meeting the stronghold requirement, first in storm order first
    /// (1.09.02.01, 1.09.02.02; an alliance takes its earlier member's place, ruling 23).
    pub(crate) fn stronghold_qualifiers(
        &self,
        control: &[(Stronghold, Faction)],
    ) -> Vec<WinResult> {
        let turn = self.st.turn;
        let count = |f: Faction| control.iter().filter(|(_, c)| *c == f).count();
        let mut out: Vec<WinResult> = Vec::new();
        for &f in &self.st.order {
            let w = match self.st.ally(f) {
                Some(a) if count(f) + count(a) >= 4 => WinResult {
                    factions: sorted(vec![f, a]),
                    kind: WinType::AlliedStronghold,
                    turn,
                },
                None if count(f) >= 3 => WinResult {
                    factions: vec![f],
                    kind: WinType::SoloStronghold,
                    turn,
                },
                _ => continue,
            };
            if !out.contains(&w) {
                out.push(w);
            }
        }
        out
    }

    pub(crate) fn compute_winner(&self, control: &[(Stronghold, Faction)]) -> Option<WinResult> {
        let turn = self.st.turn;
        let count = |f: Faction| control.iter().filter(|(_, c)| *c == f).count();
        let qualifies = |f: Faction| -> bool {
            match self.st.ally(f) {
                Some(a) => count(f) + count(a) >= 4,
                None => count(f) >= 3,
            }
        };
        // A faction's victory that comes before the stronghold victory (the Bene Gesserit
        // prediction, 2.02.03; rulings.md 7: the predicted faction only has to qualify).
        for f in self.st.in_play.iter() {
            if let Some(w) = crate::factions::rules(f).victory_first(self, &qualifies) {
                return Some(w);
            }
        }
        if let Some(first) = self.stronghold_qualifiers(control).into_iter().next() {
            return Some(first);
        }
        if turn < self.st.options.max_turns {
            return None;
        }
        // End of the last turn (1.09.05): the factions' special victories, in the order of
        // rulings.md 7 (the Fremen's before the Guild's: the order of the factions' chapters).
        for f in self.st.in_play.iter() {
            if let Some(w) = crate::factions::rules(f).victory_at_end(self) {
                return Some(w);
            }
        }
        let occupied = |f: Faction| {
            Stronghold::ALL
                .iter()
                .filter(|&&s| s != Stronghold::ShieldWall && self.st.occupies(f, s))
                .count()
        };
        let best = self.st.in_play.iter().map(&occupied).max().unwrap_or(0);
        let factions: Vec<Faction> = self
            .st
            .in_play
            .iter()
            .filter(|&f| occupied(f) == best)
            .collect();
        // The ruleset names the End Game: one type in the GenCon rulebook, Solo and Allied in the
        // full format (rulings.md 7).
        let allied = factions
            .iter()
            .any(|&f| self.st.ally(f).is_some_and(|a| factions.contains(&a)));
        Some(WinResult {
            factions,
            kind: self.st.options.ruleset.end_game(allied),
            turn,
        })
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
                match (claim, computed) {
                    (WinClaim::None, None) => {}
                    (WinClaim::None, Some(w)) => {
                        let rule = self.win_rule(None, Some(&w));
                        self.v(
                            rule,
                            format!(
                                "{} win ({}) this turn",
                                super::names(w.factions.iter().copied()),
                                w.kind
                            ),
                        );
                    }
                    (WinClaim::Win { factions, kind }, None) => self.v(
                        self.win_rule(Some((factions, *kind)), None),
                        format!(
                            "{} do not win ({kind}): nobody meets a victory condition this turn",
                            super::names(factions.iter().copied())
                        ),
                    ),
                    (WinClaim::Win { factions, kind }, Some(w)) => {
                        if sorted(factions.clone()) != w.factions || *kind != w.kind {
                            // Another qualifier, later in storm order (1.09.03; with the Shield
                            // Wall a sixth stronghold, 4.01.13).
                            let later = self
                                .stronghold_qualifiers(&control)
                                .iter()
                                .skip(1)
                                .any(|q| q.factions == sorted(factions.clone()) && q.kind == *kind);
                            let rule = if later && self.st.shield_wall_counts() {
                                rule!("4.01.13")
                            } else if later {
                                rule!("1.09.03")
                            } else {
                                self.win_rule(Some((factions, *kind)), Some(&w))
                            };
                            let why = if later {
                                format!(
                                    "; both meet the stronghold requirement and storm order puts {} first",
                                    super::names(w.factions.iter().copied())
                                )
                            } else {
                                String::new()
                            };
                            self.v(
                                rule,
                                format!(
                                    "the winner is {} ({}), not {} ({kind}){why}",
                                    super::names(w.factions.iter().copied()),
                                    w.kind,
                                    super::names(factions.iter().copied())
                                ),
                            );
                        }
                    }
                }
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
            _ => {}
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
        let advisors = self
            .st
            .in_play
            .iter()
            .find(|&f| self.st.in_territory(f, t).advisors > 0);
        if let Some(a) = advisors
            && claimed.is_none_or(|f| f == a)
        {
            return rule!("2.02.12");
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
