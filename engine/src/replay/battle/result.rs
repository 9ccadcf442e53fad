//! Resolving a battle (1.07.06): the engine computes the outcome from the two plans and the
//! traitor calls ([`crate::battle::resolve`]), checks the log's result line against it as an
//! assertion (what the line lists is checked, what it leaves out is derived), and applies the
//! computed outcome: losses (with the Tuek's Sietch card, 4.03.03.07), leader deaths and the spice
//! paid for them, dialled spice (1.13.04.04, 1.13.05), cards kept and discarded, the Kwisatz
//! Haderach's losses and use. Then the Harkonnen capture (2.05.10).

use super::{Battle, Replay, Resolved};
use crate::battle::{self, Conditions, Decision, Halves, Loss, Outcome, Plan, Slip};
use crate::board::{Card, Leader, Territory};
use crate::dgn::{ForceCount, Payee, PlanLeader, ResultItem, Side};
use crate::state::{Forces, LeaderState};
use dune::{Faction, Spice, Stronghold, rule};

/// A result line as logged: `= winner [a:b] ; items…`.
#[derive(Clone, Copy)]
pub(crate) struct Logged<'a> {
    pub winner: Option<Faction>,
    pub totals: Option<&'a (String, String)>,
    pub items: &'a [ResultItem],
}

impl Replay {
    /// Resolves the current battle; `logged` is its result line, `None` when the log has none.
    pub(crate) fn battle_result(&mut self, logged: Option<Logged<'_>>) {
        let Some(b) = self.t.battle.current.take() else {
            self.v(
                rule!("1.07.06"),
                "a battle result needs a battle (`X territory: F v F`)",
            );
            return;
        };
        let (Some(pa), Some(pd)) = (b.plans[0], b.plans[1]) else {
            self.v(
                rule!("1.07.05"),
                "the battle is resolved before both battle plans are revealed",
            );
            return;
        };
        let plans = [pa, pd];
        let mut c = self.conditions();
        c.betrayed = [b.betrayed[0].is_some(), b.betrayed[1].is_some()];
        // Karama against the battle abilities (3.01.11.01): Sardaukar, Fedaykin, Battle Hardened.
        for (i, p) in plans.iter().enumerate() {
            crate::factions::rules(p.faction).battle_karama(self, p, &mut c, i);
        }
        let o = battle::resolve([&plans[0], &plans[1]], &c);
        let items: &[ResultItem] = logged.map_or(&[], |l| l.items);
        if let Some(l) = logged {
            self.check_result(&b, &plans, &o, &c, l);
        }
        self.apply_result(&b, &plans, &o, items);
    }

    /// A judge's account of how the battle went, for messages.
    pub(crate) fn explain(&self, b: &Battle, plans: &[Plan; 2], o: &Outcome) -> String {
        match o.decision {
            Decision::Traitor => {
                let w = o.winner.unwrap_or_default();
                let l = 1 - w.min(1);
                let leader = match plans[l].leader {
                    PlanLeader::Leader(x) => x.to_string(),
                    _ => "the leader".into(),
                };
                format!("{} revealed {leader} as a traitor", b.sides[w.min(1)])
            }
            Decision::TwoTraitors => "both leaders are traitors".into(),
            Decision::Explosion => "a Lasgun and a Shield exploded".into(),
            Decision::Totals | Decision::Tie => {
                let side = |i: usize| {
                    let p = &plans[i];
                    let leader = match p.leader {
                        PlanLeader::Leader(l) if o.leader_killed[i] => format!("{l} killed"),
                        PlanLeader::Leader(l) => format!("{l} {}", l.strength()),
                        PlanLeader::CheapHero => "Cheap Hero 0".into(),
                        PlanLeader::None => "no leader".into(),
                    };
                    let kh = if p.kwisatz && !o.leader_killed[i] {
                        " + KH 2"
                    } else {
                        ""
                    };
                    format!(
                        "{} {} (forces {} worth {}, {leader}{kh})",
                        p.faction, o.totals[i], p.dial, o.wheel[i]
                    )
                };
                let tie = if o.decision == Decision::Tie {
                    "; a tie goes to the aggressor"
                } else {
                    ""
                };
                format!("{} against {}{tie}", side(0), side(1))
            }
        }
    }

    /// What a side loses in forces, as the engine computes it.
    pub(crate) fn computed_loss(
        &self,
        f: Faction,
        t: Territory,
        loss: Loss,
        explosion: bool,
    ) -> ForceCount {
        let here = self.st.in_territory(f, t);
        let (total, starred) = match loss {
            _ if explosion => (here.total(), here.starred),
            Loss::Nothing => (0, 0),
            Loss::Dialed(c) => (c.total.min(here.fighting()), c.starred.min(here.starred)),
            Loss::All => (here.fighting(), here.starred),
        };
        ForceCount {
            total,
            starred,
            side: Side::Unspecified,
        }
    }

    pub(crate) fn check_result(
        &mut self,
        b: &Battle,
        plans: &[Plan; 2],
        o: &Outcome,
        c: &Conditions,
        l: Logged<'_>,
    ) {
        let t = b.place.territory;
        let winner = o.winner.map(|i| b.sides[i.min(1)]);
        let why = self.explain(b, plans, o);
        // The misreading that would give what the log says, for the rule it breaks.
        let slip = |matches: &dyn Fn(&Outcome) -> bool| {
            Slip::ALL.into_iter().find(|&s| {
                let alt = battle::resolve_with([&plans[0], &plans[1]], c, Some(s));
                alt != *o && matches(&alt)
            })
        };
        if l.winner != winner {
            let said = l.winner.map_or("nobody".to_string(), |f| f.to_string());
            let is = winner.map_or("nobody wins".to_string(), |f| format!("{f} wins"));
            let rule = match o.decision {
                Decision::Totals | Decision::Tie => {
                    slip(&|alt: &Outcome| alt.winner.map(|i| b.sides[i.min(1)]) == l.winner)
                        .map_or(o.decision.rule(), Slip::rule)
                }
                _ => o.decision.rule(),
            };
            self.v(rule, format!("{is}: {why}; the log says {said}"));
        }
        // Totals are written winner first (`= AT 8.5:8`).
        if let Some((a, d)) = l.totals
            && matches!(o.decision, Decision::Totals | Decision::Tie)
            && let Some(w) = o.winner
        {
            let w = w.min(1);
            let due = [o.totals[w], o.totals[1 - w]];
            let wheel = [o.wheel[w], o.wheel[1 - w]];
            let read = [Halves::parse(a), Halves::parse(d)];
            if read != [Some(due[0]), Some(due[1])] {
                let _ = wheel;
                let rule = slip(&|alt: &Outcome| {
                    alt.winner.is_some_and(|aw| {
                        let aw = aw.min(1);
                        let alt_due = [alt.totals[aw], alt.totals[1 - aw]];
                        (0..2).any(|i| read[i] == Some(alt_due[i]) && alt_due[i] != due[i])
                    })
                })
                .map_or(rule!("1.07.06"), Slip::rule);
                self.v(
                    rule,
                    format!("the totals are {}:{} ({why}), not {a}:{d}", due[0], due[1]),
                );
            }
        }
        let death_rule = match o.decision {
            Decision::Explosion => rule!("3.01.14"),
            Decision::Traitor => rule!("1.07.06.06.00"),
            Decision::TwoTraitors => rule!("1.07.06.06.02"),
            Decision::Totals | Decision::Tie => rule!("1.07.06.01"),
        };
        let logged_dead: Vec<Leader> = l
            .items
            .iter()
            .filter_map(|i| match i {
                ResultItem::Dead(ls) => Some(ls.iter().copied()),
                _ => None,
            })
            .flatten()
            .collect();
        if l.items.iter().any(|i| matches!(i, ResultItem::Dead(_))) {
            let mut a = logged_dead.clone();
            let mut c = o.killed.clone();
            a.sort();
            c.sort();
            if a != c {
                // A death that turns on a card's own text is decided by that card: the Lasgun,
                // which no defence stops (3.01.14), and the Ellaca Drug, a poison stopped by a
                // projectile defence (3.01.06, rulings.md 17).
                let disputed = a
                    .iter()
                    .chain(&c)
                    .filter(|l| a.contains(l) != c.contains(l));
                let card_rule = disputed
                    .filter_map(|&l| {
                        let i = plans
                            .iter()
                            .position(|p| p.leader == PlanLeader::Leader(l))?;
                        plans[1 - i].weapon
                    })
                    .find(|&w| matches!(w, Card::Lasgun | Card::EllacaDrug))
                    .map(Card::rule);
                let death_rule = match o.decision {
                    Decision::Totals | Decision::Tie => card_rule.unwrap_or(death_rule),
                    _ => death_rule,
                };
                let names = |v: &[Leader]| {
                    if v.is_empty() {
                        "nobody".to_string()
                    } else {
                        v.iter()
                            .map(|l| l.to_string())
                            .collect::<Vec<_>>()
                            .join(", ")
                    }
                };
                self.v(
                    death_rule,
                    format!(
                        "the leaders killed are {} ({why}), not {}",
                        names(&c),
                        names(&a)
                    ),
                );
            }
        }
        for item in l.items {
            match item {
                ResultItem::Gain(f, n) => {
                    let due = if Some(*f) == winner {
                        o.leader_spice
                    } else {
                        Spice::ZERO
                    };
                    if due != *n {
                        let rule = if o.decision == Decision::Traitor {
                            rule!("1.07.06.06.00")
                        } else {
                            rule!("1.07.06.02")
                        };
                        self.v(
                            rule,
                            format!(
                                "{f} receives {due} spice for the leaders killed ({why}), not {n}"
                            ),
                        );
                    }
                }
                ResultItem::Loss(f, c) => {
                    let here = self.st.in_territory(*f, t);
                    let side = b.side_of(*f);
                    if c.total > here.total() {
                        self.v(
                            rule!("1.07.06.04"),
                            format!(
                                "{f} loses {c} in {} but has only {} forces there",
                                t.name(),
                                here.total()
                            ),
                        );
                        continue;
                    }
                    let Some(i) = side.or(if o.explosion { Some(2) } else { None }) else {
                        self.v(
                            rule!("1.07.06.04"),
                            format!("{f} is not in this battle and loses nothing in it"),
                        );
                        continue;
                    };
                    let loss = if i < 2 { o.losses[i] } else { Loss::All };
                    let due = self.computed_loss(*f, t, loss, o.explosion);
                    if due.total != c.total || due.starred != c.starred {
                        let rule = match (o.decision, Some(i) == o.winner) {
                            (Decision::Explosion, _) => rule!("3.01.14"),
                            (Decision::Traitor, true) => rule!("1.07.06.06.00"),
                            (Decision::Traitor, false) => rule!("1.07.06.06.01"),
                            (Decision::TwoTraitors, _) => rule!("1.07.06.06.02"),
                            (_, true) => rule!("1.07.06.05"),
                            (_, false) => rule!("1.07.06.04"),
                        };
                        self.v(
                            rule,
                            format!("{f} loses {due} in {} ({why}), not {c}", t.name()),
                        );
                    }
                }
                ResultItem::Keep(f, cards) | ResultItem::Discard(f, cards) => {
                    let keep = matches!(item, ResultItem::Keep(..));
                    let Some(i) = b.side_of(*f) else {
                        self.v(rule!("1.07.06.05"), format!("{f} is not in this battle"));
                        continue;
                    };
                    let played = battle::cards_played(&plans[i]);
                    for c in cards {
                        if !played.contains(c) {
                            self.v(
                                rule!("1.07.06.05"),
                                format!("{f} did not play {c} in this battle"),
                            );
                        } else if keep && *c == Card::CheapHero {
                            self.v(rule!("3.01.04"), "the Cheap Hero is discarded after use");
                        } else if keep && o.discards_all[i] {
                            let rule = match o.decision {
                                Decision::Explosion => rule!("3.01.14"),
                                Decision::Traitor => rule!("1.07.06.06.01"),
                                Decision::TwoTraitors => rule!("1.07.06.06.02"),
                                _ => rule!("1.07.06.04"),
                            };
                            self.v(rule, format!("{f} must discard every card it played ({why}) and cannot keep {c}"));
                        }
                    }
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
                ResultItem::Dead(_) => {}
            }
        }
    }

    pub(crate) fn apply_result(
        &mut self,
        b: &Battle,
        plans: &[Plan; 2],
        o: &Outcome,
        items: &[ResultItem],
    ) {
        let t = b.place.territory;
        let winner = o.winner.map(|i| b.sides[i.min(1)]);
        // Forces (1.07.06.04, 1.07.06.05; 3.01.14 takes everyone's, advisors too).
        let victims: Vec<(Faction, Loss)> = if o.explosion {
            self.st.in_play.iter().map(|f| (f, Loss::All)).collect()
        } else {
            vec![(b.sides[0], o.losses[0]), (b.sides[1], o.losses[1])]
        };
        for (f, loss) in victims {
            let want = self.computed_loss(f, t, loss, o.explosion);
            let mut lost = Forces::default();
            if o.explosion {
                for &p in t.pieces() {
                    let s = std::mem::take(self.st.stack_mut(f, p));
                    lost.add(s.forces());
                }
            } else {
                let mut left = Forces::from_count(want);
                for &p in t.pieces() {
                    let got = self.st.take_from_piece(f, p, left, Side::Fighter);
                    left.normal -= got.normal.min(left.normal);
                    left.starred -= got.starred.min(left.starred);
                    lost.add(got.forces());
                }
            }
            let saved = items
                .iter()
                .find_map(|i| match i {
                    ResultItem::TuksCard(g, k) if *g == f => Some(*k),
                    _ => None,
                })
                .filter(|_| {
                    t == Territory::TueksSietch
                        && self.st.stronghold_card_holder(Stronghold::TueksSietch) == Some(f)
                })
                .unwrap_or(0);
            let to_reserves = saved.min(2).min(lost.normal);
            lost.normal -= to_reserves;
            let st = self.st.faction_mut(f);
            st.reserves.add(Forces::new(to_reserves, 0));
            st.tanks.add(lost);
            st.battle_losses = st
                .battle_losses
                .saturating_add(u32::from(lost.total()) + u32::from(to_reserves));
        }
        if o.explosion {
            for &p in t.pieces() {
                self.st.spice[p.index()] = Spice::ZERO;
            }
        }
        // Dialled spice (1.13.04.04; the traitor's winner keeps it, 1.13.05).
        for (i, p) in plans.iter().enumerate() {
            if !o.keeps_wheel_spice[i] {
                self.pay(p.faction, Payee::Bank, p.spice);
            }
        }
        // Cards: the loser discards all, the winner keeps what it does not discard, the Cheap
        // Hero goes (1.07.06.04, 1.07.06.05, 3.01.04).
        for (i, p) in plans.iter().enumerate() {
            let f = p.faction;
            let discards: Vec<Card> = items
                .iter()
                .filter_map(|it| match it {
                    ResultItem::Discard(g, cs) if *g == f => Some(cs.iter().copied()),
                    _ => None,
                })
                .flatten()
                .collect();
            for c in battle::cards_played(p) {
                let keep = Some(i) == o.winner
                    && !o.discards_all[i]
                    && c != Card::CheapHero
                    && !discards.contains(&c);
                self.place_card(f, c, keep);
            }
        }
        // The traitor's winner takes its leader back, free to fight elsewhere this phase
        // (1.07.06.06.00, which 1.07.04.03 gives way to).
        for (i, p) in plans.iter().enumerate() {
            if let PlanLeader::Leader(l) = p.leader
                && !(o.decision == Decision::Traitor && Some(i) == o.winner)
            {
                self.t.battle.fought_in[l.index()] = Some(t);
            }
        }
        // Leaders (1.07.06.02, 1.07.06.03; the traitor's winner takes its leader back at once,
        // 1.07.06.06.00).
        for l in &o.killed {
            self.kill_leader(*l);
        }
        for (i, p) in plans.iter().enumerate() {
            if let PlanLeader::Leader(l) = p.leader
                && !o.killed.contains(&l)
            {
                let back = o.decision == Decision::Traitor && Some(i) == o.winner;
                self.st.leaders[l.index()] = if back {
                    LeaderState::Pool(p.faction)
                } else {
                    LeaderState::Fought(p.faction, t)
                };
            }
        }
        if o.kwisatz_killed {
            self.st.kwisatz_dead = true;
        }
        if o.kwisatz_used.iter().any(|&u| u) {
            self.t.battle.kwisatz_territory = Some(t);
        }
        if let Some(w) = winner {
            self.st.faction_mut(w).gain(o.leader_spice);
        }
        self.st.last_wheels = Some(b.sides);
        self.battle_done_in(t);
        let loser = o.winner.map(|i| b.sides[1 - i.min(1)]);
        self.t.battle.last = Some(Resolved {
            territory: t,
            winner,
            loser,
            captured: false,
        });
    }
}
