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
use crate::replay::karama::Block;
use crate::state::{Forces, LeaderState};
use dune::{Faction, Spice, Stronghold, rule};

/// The battle as it would be without the Karamas that took effect in it.
pub(crate) struct Without {
    pub plans: [Plan; 2],
    pub conditions: Conditions,
}

/// A result line as logged: `= winner [a:b] ; items…`.
#[derive(Clone, Copy)]
pub(crate) struct Logged<'a> {
    pub winner: Option<Faction>,
    pub totals: Option<&'a (String, String)>,
    pub items: &'a [ResultItem],
}

/// The card of the First Expansion that decides this battle's outcome in its own way, for
/// citing a result the log gets wrong: the Artillery Strike (no leaders in the totals, 000
/// 3.02.02), the Shield Snooper exploding with a Lasgun (3.02.10).
fn battle_card_rule(plans: &[Plan; 2], o: &Outcome) -> Option<dune::Rule> {
    let played = |c: Card| {
        plans
            .iter()
            .any(|p| p.weapon == Some(c) || p.defense == Some(c))
    };
    if o.decision == Decision::Explosion && played(Card::ShieldSnooper) && !played(Card::Shield) {
        Some(rule!("3.02.10"))
    } else if played(Card::ArtilleryStrike) && o.decision != Decision::Explosion {
        Some(rule!("3.02.02"))
    } else {
        None
    }
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
        let mut plans = [pa, pd];
        let mut c = self.conditions();
        c.betrayed = [b.betrayed[0].is_some(), b.betrayed[1].is_some()];
        // The Second Expansion's cards (000 3.03.07, 3.03.10): the Portable Snooper, the Stone
        // Burner's choice and what it counts, the forces not dialled.
        let t = b.place.territory;
        for (i, p) in plans.iter().enumerate() {
            let f = b.sides[i];
            c.portable_snooper[i] = self.t.cards.portable.contains(&f);
            c.burn[i] = self.t.cards.burn.contains(&f);
            let here = self.st.in_territory(f, t).fighting();
            c.undialed[i] = here.saturating_sub(p.dial.total);
        }
        self.t.cards.portable.clear();
        self.t.cards.burn.clear();
        c.withheld = b.withheld;
        // The factions' effects in force on the wheel (CHOAM's flipped Elite Mercenaries) and
        // what each side adds to its dial (Reinforcements, Battling Co-Occupied).
        for (i, p) in plans.iter().enumerate() {
            crate::factions::rules(p.faction).wheel_conditions(self, t, p, &mut c, i);
            c.bonus[i] = self.dial_bonus(p, t);
        }
        // What the battle would be without the Karamas, to name a result that ignores them.
        let without = Without {
            plans,
            conditions: c,
        };
        // Karamas against the sides' battle abilities (3.01.11.01) take effect here: the
        // Sardaukar, the Fedaykin, Battle Hardened, the Kwisatz Haderach.
        let mut stopped = Vec::new();
        for (i, p) in plans.iter_mut().enumerate() {
            for block in self.karama_in_battle(b.pos, p, &mut c, i, true) {
                stopped.push(block);
            }
        }
        // Revealing wheels: the cards that act then (000 3.04.01, 3.04.03).
        self.battle_cards_revealed(&plans, &c, t);
        let o = battle::resolve([&plans[0], &plans[1]], &c);
        let items: &[ResultItem] = logged.map_or(&[], |l| l.items);
        if let Some(l) = logged {
            self.check_result(&b, &plans, &o, &c, l, (&without, &stopped));
        }
        self.apply_result(&b, &plans, &o, items, c.withheld);
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
            Decision::StoneBurner => format!(
                "the Stone Burner: {} undialed forces against {}",
                o.totals[0], o.totals[1]
            ),
            Decision::Amtal => {
                format!("the Amtal: leaders {} against {}", o.totals[0], o.totals[1])
            }
            Decision::Totals | Decision::Tie => {
                let side = |i: usize| {
                    let p = &plans[i];
                    let leader = match p.leader {
                        PlanLeader::Leader(l) if o.leader_killed[i] => format!("{l} killed"),
                        PlanLeader::Leader(l) => {
                            format!("{l} {}", p.leader_strength(&plans[1 - i]))
                        }
                        PlanLeader::CheapHero => "Cheap Hero 0".into(),
                        PlanLeader::Levenbrech => "Levenbrech 0".into(),
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
        (without, stopped): (&Without, &[Block]),
    ) {
        let c_cond = *c;
        let t = b.place.territory;
        let winner = o.winner.map(|i| b.sides[i.min(1)]);
        // How the battle went, in words: built only for a message.
        macro_rules! why {
            () => {
                self.explain(b, plans, o)
            };
        }
        // The outcome a log that ignores the Karamas of this battle would show.
        let ignored = (!stopped.is_empty())
            .then(|| battle::resolve([&without.plans[0], &without.plans[1]], &without.conditions));
        let karama_note = stopped
            .iter()
            .map(|k| k.describe())
            .collect::<Vec<_>>()
            .join("; ");
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
            let by_karama = ignored
                .as_ref()
                .is_some_and(|alt| alt.winner.map(|i| b.sides[i.min(1)]) == l.winner);
            if by_karama && let Some(k) = stopped.first() {
                self.v_also(
                    k.rule(),
                    &[k.info.rule],
                    format!("{is}: {}, since {karama_note} in this battle; the log says {said}, as if the ability counted", why!()),
                );
            } else {
                let rule = match o.decision {
                    _ if let Some(r) = battle_card_rule(plans, o) => r,
                    Decision::Totals | Decision::Tie => {
                        slip(&|alt: &Outcome| alt.winner.map(|i| b.sides[i.min(1)]) == l.winner)
                            .map_or(o.decision.rule(), |s| s.rule([&plans[0], &plans[1]]))
                    }
                    _ => o.decision.rule(),
                };
                self.v(rule, format!("{is}: {}; the log says {said}", why!()));
            }
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
                let matches_read = |alt: &Outcome| {
                    alt.winner.is_some_and(|aw| {
                        let aw = aw.min(1);
                        let alt_due = [alt.totals[aw], alt.totals[1 - aw]];
                        (0..2).any(|i| read[i] == Some(alt_due[i]) && alt_due[i] != due[i])
                    })
                };
                if let Some(k) = stopped.first()
                    && ignored.as_ref().is_some_and(matches_read)
                {
                    self.v_also(
                        k.rule(),
                        &[k.info.rule],
                        format!(
                            "the totals are {}:{} ({}), since {karama_note} in this battle; not {a}:{d}, as if the ability counted",
                            due[0], due[1], why!()
                        ),
                    );
                } else {
                    let rule = slip(&matches_read).map_or(
                        battle_card_rule(plans, o).unwrap_or(rule!("1.07.06")),
                        |s| s.rule([&plans[0], &plans[1]]),
                    );
                    self.v(
                        rule,
                        format!(
                            "the totals are {}:{} ({}), not {a}:{d}",
                            due[0],
                            due[1],
                            why!()
                        ),
                    );
                }
            }
        }
        let death_rule = match o.decision {
            Decision::Explosion => rule!("3.01.14"),
            Decision::Traitor => rule!("1.07.06.06.00"),
            Decision::TwoTraitors => rule!("1.07.06.06.02"),
            Decision::Totals | Decision::Tie => rule!("1.07.06.01"),
            Decision::StoneBurner => rule!("3.03.10"),
            Decision::Amtal => rule!("3.03.11"),
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
                // So is one decided by an expansion's card, weapon or defence (000 3.02).
                let card_rule = disputed
                    .filter_map(|&l| {
                        let i = plans
                            .iter()
                            .position(|p| p.leader == PlanLeader::Leader(l))?;
                        let cards = [plans[1 - i].weapon, plans[i].weapon, plans[i].defense];
                        cards.into_iter().flatten().find(|&w| {
                            matches!(w, Card::Lasgun | Card::EllacaDrug)
                                || w.set() != crate::board::CardSet::Classic
                        })
                    })
                    .next()
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
                        "the leaders killed are {} ({}), not {}",
                        names(&c),
                        why!(),
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
                        // Nobody is paid after an Artillery Strike (000 3.02.02); Zoal is worth
                        // his opponent's leader (2.08.14).
                        let artillery = plans
                            .iter()
                            .any(|p| p.weapon == Some(Card::ArtilleryStrike));
                        let zoal = o.killed.contains(&Leader::Zoal);
                        let rule = if artillery {
                            rule!("3.02.02")
                        } else if zoal {
                            rule!("2.08.14")
                        } else if o.decision == Decision::Traitor {
                            rule!("1.07.06.06.00")
                        } else {
                            rule!("1.07.06.02")
                        };
                        self.v(
                            rule,
                            format!(
                                "{f} receives {due} spice for the leaders killed ({}), not {n}",
                                why!()
                            ),
                        );
                    }
                }
                ResultItem::Loss(f, c) => {
                    let here = self.st.in_territory(*f, t);
                    // A faction's rules may decide this faction's losses here (Battling
                    // Co-Occupied and the Ecaz alliance's partner, 000 2.11.19 original).
                    if let Some((due, rule)) = self
                        .st
                        .in_play
                        .iter()
                        .find_map(|g| crate::factions::rules(g).battle_loss(self, b, o, *f))
                    {
                        if due != c.total {
                            self.v(
                                rule,
                                format!("{f} loses {due} in {} ({}), not {c}", t.name(), why!()),
                            );
                        }
                        continue;
                    }
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
                    // The losses a log that ignores this battle's Karamas would show.
                    let as_if = ignored.as_ref().map(|alt| {
                        let loss = if i < 2 { alt.losses[i] } else { Loss::All };
                        self.computed_loss(*f, t, loss, alt.explosion)
                    });
                    if (due.total != c.total || due.starred != c.starred)
                        && let Some(k) = stopped.first()
                        && as_if.is_some_and(|a| a.total == c.total && a.starred == c.starred)
                    {
                        self.v_also(
                            k.rule(),
                            &[k.info.rule],
                            format!(
                                "{f} loses {due} in {} ({}), since {karama_note} in this battle; not {c}, as if the ability counted",
                                t.name(),
                                why!()
                            ),
                        );
                    } else if due.total != c.total || due.starred != c.starred {
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
                            format!("{f} loses {due} in {} ({}), not {c}", t.name(), why!()),
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
                        } else if keep && battle::spent(&plans[i], c_cond.withheld[i]).contains(c) {
                            self.v(c.rule(), format!("{c} is discarded after use"));
                        } else if keep && *c == Card::MirrorWeapon && plans[1 - i].weapon.is_some()
                        {
                            self.v(
                                c.rule(),
                                "the Mirror Weapon is kept only when the opponent played no weapon",
                            );
                        } else if keep && o.discards_all[i] {
                            let rule = match o.decision {
                                Decision::Explosion => rule!("3.01.14"),
                                Decision::Traitor => rule!("1.07.06.06.01"),
                                Decision::TwoTraitors => rule!("1.07.06.06.02"),
                                _ => rule!("1.07.06.04"),
                            };
                            self.v(rule, format!("{f} must discard every card it played ({}) and cannot keep {c}", why!()));
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
        withheld: [bool; 2],
    ) {
        let t = b.place.territory;
        let winner = o.winner.map(|i| b.sides[i.min(1)]);
        // Forces (1.07.06.04, 1.07.06.05; 3.01.14 takes everyone's, advisors too).
        let victims: Vec<(Faction, Loss)> = if o.explosion {
            self.st.in_play.iter().map(|f| (f, Loss::All)).collect()
        } else {
            // Forces dialled from another faction's (Battling Co-Occupied, 000 2.11.19
            // original) are lost from it.
            let pool = |r: &Self, f: Faction| {
                r.st.in_play
                    .iter()
                    .find_map(|g| crate::factions::rules(g).dial_pool(r, f, t))
                    .unwrap_or(f)
            };
            (0..2)
                .map(|i| match o.losses[i] {
                    Loss::Dialed(d) => (pool(self, b.sides[i]), Loss::Dialed(d)),
                    l => (b.sides[i], l),
                })
                .collect()
        };
        let mut to_tanks = 0u32;
        let mut side_lost = [
            (b.sides[0], Forces::default()),
            (b.sides[1], Forces::default()),
        ];
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
            if let Some(x) = side_lost.iter_mut().find(|(g, _)| *g == f) {
                x.1 = lost;
            }
            // The loser of an Amtal returns its forces to reserves (000 3.03.11).
            let home = b.side_of(f).is_some_and(|i| o.to_reserves[i]);
            let st = self.st.faction_mut(f);
            st.reserves.add(Forces::new(to_reserves, 0));
            if home {
                st.reserves.add(lost);
            } else {
                to_tanks += u32::from(lost.total());
                st.tanks.add(lost);
            }
            st.battle_losses = st
                .battle_losses
                .saturating_add(u32::from(lost.total()) + u32::from(to_reserves));
        }
        if o.explosion {
            for &p in t.pieces() {
                let sp = std::mem::take(&mut self.st.spice[p.index()]);
                self.map_spice_from_bank(sp, -1);
            }
            self.hit_board(t, None, crate::factions::Hit::Explosion);
        }
        // Dialled spice (1.13.04.04; the traitor's winner keeps it, 1.13.05).
        for (i, p) in plans.iter().enumerate() {
            if !o.keeps_wheel_spice[i] {
                self.pay_wheel_spice(p);
            }
        }
        // Cards: the loser discards all, the winner keeps what it does not discard, the Cheap
        // Hero goes (1.07.06.04, 1.07.06.05, 3.01.04).
        let mut discarded: Vec<(Faction, Card)> = Vec::new();
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
            let mut spent = battle::spent(p, withheld[i]);
            // A Mirror Weapon that copied a weapon is discarded (000 3.03.04).
            if p.weapon == Some(Card::MirrorWeapon) && plans[1 - i].weapon.is_some() {
                spent.push(Card::MirrorWeapon);
            }
            for c in battle::cards_played(p) {
                let keep = Some(i) == o.winner
                    && !o.discards_all[i]
                    && !spent.contains(&c)
                    && !discards.contains(&c);
                if !keep {
                    discarded.push((f, c));
                }
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
            self.bank_pays(w, o.leader_spice);
        }
        self.st.last_wheels = Some(b.sides);
        // What a faction's rules do once a battle is resolved (the Ecaz alliance's partner,
        // 000 2.11.19 original; Moritani's tokens and bounties, 2.12).
        for f in self.st.in_play.iter() {
            crate::factions::rules(f).after_battle_result(self, b, o);
        }
        self.battle_done_in(t);
        let loser = o.winner.map(|i| b.sides[1 - i.min(1)]);
        // What the winner was paid for each leader killed (nothing at all when nobody is paid).
        let paid_for = plans
            .iter()
            .enumerate()
            .filter_map(|(i, p)| match p.leader {
                PlanLeader::Leader(l) if o.killed.contains(&l) => {
                    let paid = if o.leader_spice.is_zero() {
                        Spice::ZERO
                    } else {
                        Spice::new(p.leader_strength(&plans[1 - i]))
                    };
                    Some((l, paid))
                }
                _ => None,
            })
            .collect();
        let resolved = Resolved {
            territory: t,
            winner,
            loser,
            captured: false,
            lost: side_lost,
            leaders: [plans[0].leader, plans[1].leader],
            paid_for,
            sides: b.sides,
            explosion: o.explosion,
            discarded,
            killed: o.leader_killed,
            to_tanks,
            pos: b.pos,
            capture: None,
        };
        self.t.battle.last = Some(resolved.clone());
        for g in self.st.in_play.iter() {
            crate::factions::rules(g).after_battle(self, &resolved);
        }
    }

    /// The spice a plan put on the wheel (1.13.04.04): the part an ally paid (CHOAM for its ally,
    /// 000 2.09.15) from the ally's spice to the bank, the rest to the bank, except the share a
    /// faction at the table takes of another's (CHOAM's half, 000 2.09.20).
    pub(crate) fn pay_wheel_spice(&mut self, p: &Plan) {
        let mut own = p.spice;
        if let Some((a, share)) = p.ally_spice {
            let share = share.min(own);
            self.pay(a, Payee::Bank, share);
            own = own.saturating_sub(share);
        }
        let cut = self.st.in_play.iter().find_map(|g| {
            crate::factions::rules(g)
                .battle_spice_share(self, p.faction, own)
                .map(|(n, _)| (g, n))
        });
        if let Some((g, n)) = cut
            && g != p.faction
        {
            let n = n.min(own);
            self.pay(p.faction, Payee::Faction(g), n);
            own = own.saturating_sub(n);
            if g == Faction::Choam {
                self.st.choam.last_cut += n;
            }
        }
        self.pay(p.faction, Payee::Bank, own);
    }
}
