//! Battle phase (1.07). Battles are *applied as logged* (losses, dead leaders, spice, cards) so
//! the state stays right for the later phases; their resolution is checked by "Rules engine II".
//! Checked here: win attempts (4.01.04), the Arrakeen card (4.03.03.01), basic plan sanity, sealed
//! traitor calls (audit), and that every battle the board requires is logged (1.07.01).

use super::Replay;
use crate::board::{Card, Leader, Territory, board};
use crate::dgn::{Event, ForceCount, Payee, Place, PlanLeader, ResultItem, Side, Stmt};
use crate::state::{Forces, LeaderState};
use dune::rule;
use dune::{Faction, FactionSet, Spice, Stronghold};

struct Plan {
    faction: Faction,
    leader: PlanLeader,
    spice: Spice,
    weapon: Option<Card>,
    defense: Option<Card>,
}

struct Battle {
    place: Place,
    aggressor: Faction,
    defender: Faction,
    plans: Vec<Plan>,
    traitor: bool,
}

#[derive(Default)]
pub(super) struct BattleData {
    current: Option<Battle>,
    win_attempts: FactionSet,
}

impl Replay {
    pub(super) fn begin_battle(&mut self) {
        // 4.03.03.01: the Arrakeen card pays 2 at the start of the Battle phase.
        if let Some(f) = self.st.stronghold_card_holder(Stronghold::Arrakeen) {
            self.st.faction_mut(f).gain(Spice::new(2));
        }
        self.t.battle.win_attempts = self.win_attempts();
    }

    /// Win attempts under rulings.md 6 (W1): a non-advisor force in a stronghold, and
    /// strongholds held with the ally number at least 3 (4 when allied).
    fn win_attempts(&self) -> FactionSet {
        let mut out = FactionSet::EMPTY;
        let strongholds: Vec<Stronghold> = self.st.victory_strongholds().collect();
        let occupied = |f: Faction| -> Vec<Stronghold> {
            strongholds
                .iter()
                .copied()
                .filter(|&s| self.st.occupies(f, s))
                .collect()
        };
        for f in self.st.in_play.iter() {
            let own = occupied(f);
            if own.is_empty() {
                continue;
            }
            let mut all = own.clone();
            let need = match self.st.ally(f) {
                Some(a) => {
                    for t in occupied(a) {
                        if !all.contains(&t) {
                            all.push(t);
                        }
                    }
                    4
                }
                None => 3,
            };
            if all.len() >= need {
                out.insert(f);
            }
        }
        out
    }

    pub(super) fn battle_event(&mut self, ev: &Event) {
        match &ev.stmt {
            Stmt::WinAttempts(list) => {
                let given: FactionSet = list.iter().copied().collect();
                let computed = self.t.battle.win_attempts;
                if given != computed {
                    self.v(
                        rule!("4.01.04"),
                        format!("win attempts this turn are {} (rulings.md 6: a force in a stronghold and 3 strongholds, 4 with an ally), not {}", super::names(computed.iter()), super::names(given.iter())),
                    );
                }
            }
            Stmt::StrongholdCard {
                faction,
                stronghold,
                ..
            } => {
                if *stronghold != Stronghold::Arrakeen {
                    self.v(rule!("4.03.03"), format!("the {} card is not logged in the Battle phase (the Tuek's Sietch card goes in the battle result)", stronghold.name()));
                } else if self.st.stronghold_card_holder(Stronghold::Arrakeen) != Some(*faction) {
                    self.v(
                        rule!("4.03.03.01"),
                        format!("{faction} does not hold the Arrakeen stronghold card"),
                    );
                }
            }
            Stmt::Battle {
                place,
                aggressor,
                defender,
            } => self.start_battle(*place, *aggressor, *defender),
            Stmt::Plan {
                faction,
                leader,
                dial,
                spice,
                weapon,
                defense,
                ..
            } => self.plan(*faction, *leader, *dial, *spice, *weapon, *defense),
            Stmt::TraitorCall {
                faction,
                leader,
                for_ally,
            } => self.traitor_call(*faction, *leader, *for_ally),
            Stmt::BattleResult { winner, items, .. } => self.battle_result(*winner, items),
            Stmt::Capture {
                faction,
                leader,
                kill,
            } => {
                if *faction != Faction::Harkonnen || !self.st.options.advanced {
                    self.v(
                        rule!("2.05.10"),
                        "only the Harkonnen capture leaders, in an Advanced game",
                    );
                    return;
                }
                if *kill {
                    self.kill_leader(*leader, false);
                    self.st.faction_mut(Faction::Harkonnen).gain(Spice::new(2));
                } else {
                    self.st.leaders[leader.index()] = LeaderState::Pool(Faction::Harkonnen);
                }
            }
            _ => {}
        }
    }

    fn start_battle(&mut self, place: Place, aggressor: Faction, defender: Faction) {
        self.close_battle();
        let t = place.territory;
        if t == Territory::PolarSink {
            self.v(
                rule!("1.07.01.02"),
                "no battles are fought in the Polar Sink",
            );
        }
        for f in [aggressor, defender] {
            if self.st.plays(f) && self.st.in_territory(f, t).fighting() == 0 {
                self.v(
                    rule!("1.07.01"),
                    format!("{f} has no fighting forces in {}", t.name()),
                );
            }
        }
        if self.st.order_index(aggressor) > self.st.order_index(defender) {
            self.v(rule!("1.07.02"), format!("the aggressor is the player earlier in storm order: {defender}, not {aggressor}"));
        }
        self.t.battle.current = Some(Battle {
            place,
            aggressor,
            defender,
            plans: Vec::new(),
            traitor: false,
        });
    }

    fn plan(
        &mut self,
        f: Faction,
        leader: PlanLeader,
        dial: ForceCount,
        spice: Spice,
        weapon: Option<Card>,
        defense: Option<Card>,
    ) {
        let Some(b) = self.t.battle.current.as_ref() else {
            self.v(
                rule!("1.07.04"),
                "a battle plan belongs to a battle (`X territory: F v F`)",
            );
            return;
        };
        let t = b.place.territory;
        if f != b.aggressor && f != b.defender {
            self.v(rule!("1.07.04"), format!("{f} is not in this battle"));
            return;
        }
        if let PlanLeader::Leader(l) = leader {
            let ok = match self.st.leaders[l.index()] {
                LeaderState::Pool(h) => h == f,
                LeaderState::Fought(h, x) => h == f && x == t,
                LeaderState::Tanks { .. } => false,
            };
            if !ok {
                self.v(rule!("1.07.04.03"), format!("{l} is not available to {f} in this battle (in the tanks, held by another faction, or used in another territory)"));
            }
        }
        let forces = self.st.in_territory(f, t).fighting();
        if dial.total > forces {
            self.v(
                rule!("1.07.04.01"),
                format!(
                    "{f} dials {} but has {forces} forces in {}",
                    dial.total,
                    t.name()
                ),
            );
        }
        if spice > self.spice(f) {
            self.v(
                rule!("1.13.04"),
                format!(
                    "{f} puts {spice} spice on its wheel but has {}",
                    self.spice(f)
                ),
            );
        }
        if let Some(b) = self.t.battle.current.as_mut() {
            b.plans.push(Plan {
                faction: f,
                leader,
                spice,
                weapon,
                defense,
            });
        }
    }

    fn traitor_call(&mut self, f: Faction, leader: Leader, for_ally: Option<Faction>) {
        if let Some(b) = self.t.battle.current.as_mut() {
            b.traitor = true;
        }
        if let Some(a) = for_ally
            && (f != Faction::Harkonnen || self.st.ally(f) != Some(a))
        {
            self.v(rule!("2.05.09"), format!("only the Harkonnen call a traitor in their ally's battle; {f} is not {a}'s Harkonnen ally"));
        }
        if !self.opts.audit {
            return;
        }
        if let Some(list) = &self.st.faction(f).traitors
            && !list.contains(&Some(leader))
            && !list.contains(&None)
        {
            self.v(rule!("1.07.06.06"), format!("{f} calls {leader} a traitor, but {f}'s sealed traitor cards do not include {leader}"));
        }
    }

    fn close_battle(&mut self) {
        if self.t.battle.current.take().is_some() {
            self.v(
                rule!("1.07.06"),
                "the previous battle has no result line (`= winner …`)",
            );
        }
    }

    fn kill_leader(&mut self, l: Leader, _explosion: bool) {
        let face_up = !self.st.died_once[l.index()];
        self.st.died_once[l.index()] = true;
        self.st.leaders[l.index()] = LeaderState::Tanks { face_up };
    }

    fn battle_result(&mut self, winner: Option<Faction>, items: &[ResultItem]) {
        let Some(b) = self.t.battle.current.take() else {
            self.v(
                rule!("1.07.06"),
                "a battle result needs a battle (`X territory: F v F`)",
            );
            return;
        };
        let t = b.place.territory;
        let mut dead: Vec<Leader> = Vec::new();
        for item in items {
            if let ResultItem::Dead(ls) = item {
                dead.extend(ls.iter().copied());
            }
        }
        for l in &dead {
            self.kill_leader(*l, false);
        }
        for p in &b.plans {
            let f = p.faction;
            // 1.13.04.04; 1.13.05: a traitor's winner keeps its wheel spice.
            if !(b.traitor && Some(f) == winner) {
                self.pay(f, Payee::Bank, p.spice);
            }
            let won = Some(f) == winner;
            let discards: Vec<Card> = items
                .iter()
                .filter_map(|i| match i {
                    ResultItem::Discard(g, cs) if *g == f => Some(cs.clone()),
                    _ => None,
                })
                .flatten()
                .collect();
            let mut played: Vec<Card> = Vec::new();
            if p.leader == PlanLeader::CheapHero {
                played.push(Card::CheapHero);
            }
            played.extend(p.weapon);
            played.extend(p.defense);
            for c in played {
                let keep = won && c != Card::CheapHero && !discards.contains(&c);
                self.play_card(f, c, c.rule(), keep);
            }
            if let PlanLeader::Leader(l) = p.leader
                && !dead.contains(&l)
            {
                self.st.leaders[l.index()] = LeaderState::Fought(f, t);
            }
        }
        for item in items {
            match item {
                ResultItem::Gain(f, n) => self.st.faction_mut(*f).gain(*n),
                ResultItem::Loss(f, c) => {
                    let saved = items
                        .iter()
                        .find_map(|i| match i {
                            ResultItem::TuksCard(g, k) if g == f => Some(*k),
                            _ => None,
                        })
                        .unwrap_or(0);
                    self.battle_loss(*f, t, *c, saved);
                }
                ResultItem::TuksCard(f, k) => {
                    if self.st.stronghold_card_holder(Stronghold::TueksSietch) != Some(*f)
                        || t != Territory::TueksSietch
                    {
                        self.v(rule!("4.03.03.07"), format!("{f} does not hold the Tuek's Sietch card, or the battle is not in Tuek's Sietch"));
                    } else if *k > 2 {
                        self.v(
                            rule!("4.03.03.07"),
                            format!("the Tuek's Sietch card saves up to 2 forces, not {k}"),
                        );
                    }
                }
                _ => {}
            }
        }
        self.st.last_wheels = Some([b.aggressor, b.defender]);
    }

    fn battle_loss(&mut self, f: Faction, t: Territory, c: ForceCount, saved: u8) {
        let mut want = Forces::from_count(c);
        let mut lost = Forces::default();
        for &p in t.pieces() {
            let got = self.st.take_from_piece(f, p, want, Side::Fighter);
            want.normal -= got.normal;
            want.starred -= got.starred;
            lost.add(got.forces());
        }
        if !want.is_empty() {
            self.v(
                rule!("1.07.06.04"),
                format!("{f} loses {c} in {} but had only {lost} there", t.name()),
            );
        }
        let to_reserves = saved.min(2).min(lost.normal);
        lost.normal -= to_reserves;
        self.st
            .faction_mut(f)
            .reserves
            .add(Forces::new(to_reserves, 0));
        self.st.faction_mut(f).tanks.add(lost);
        self.st.faction_mut(f).battle_losses += u32::from(lost.total());
    }

    pub(super) fn finish_battle(&mut self) {
        self.close_battle();
        // Leader Return (1.07.07).
        for l in Leader::all() {
            if let LeaderState::Fought(h, _) = self.st.leaders[l.index()] {
                self.st.leaders[l.index()] = LeaderState::Pool(h);
            }
        }
        // 1.07.01: forces of two factions left together, not separated by the storm.
        let storm = self.st.storm;
        let b = board();
        let stacks = self.st.territory_stacks();
        for t in Territory::all() {
            if t == Territory::PolarSink {
                continue;
            }
            let occ: Vec<Faction> = self
                .st
                .in_play
                .iter()
                .filter(|f| stacks[t.index()][f.index()].fighting() > 0)
                .collect();
            if occ.len() < 2 {
                continue;
            }
            'pairs: for (i, &f) in occ.iter().enumerate() {
                for &g in &occ[i + 1..] {
                    let together = t.pieces().iter().any(|&p| {
                        self.st.stack(f, p).fighting() > 0
                            && t.pieces().iter().any(|&q| {
                                self.st.stack(g, q).fighting() > 0
                                    && b.connected_within(p, q, storm)
                            })
                    });
                    if together {
                        self.v(
                            rule!("1.07.01"),
                            format!(
                                "{f} and {g} both have forces in {}: a battle there is not logged",
                                t.name()
                            ),
                        );
                        break 'pairs;
                    }
                }
            }
        }
    }
}
