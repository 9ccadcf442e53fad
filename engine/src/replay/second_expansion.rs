//! The Second Expansion's treachery cards (000 3.03): Richese's cache (2.10.03), played from a
//! hand once bought. The battle cards' arithmetic is in [`crate::battle`] (the Mirror Weapon,
//! the Stone Burner, the Amtal, the Poison Dart, the Portable Snooper, the Levenbrech); this
//! module replays the statements that play the others and keeps what a card leaves in force.

use super::Replay;
use crate::board::{Card, Leader, Territory};
use crate::dgn::{Event, Payee, Payment, SaphoEffect, Sealed, TradeStmt};
use crate::state::{LeaderState, Phase};
use dune::{Faction, Spice, rule};

/// What a card leaves in force for the turn.
#[derive(Default)]
pub(crate) struct CardData {
    /// Juice of Sapho: who goes first or last, or is the aggressor, in this phase (3.03.02).
    pub(crate) sapho: Option<(Phase, Faction, SaphoEffect)>,
    /// Ornithopter: the faction whose next move goes up to three territories (3.03.06.01).
    pub(crate) ornithopter: Option<Faction>,
    /// Ornithopter: the faction with a second move, and the territory its first move reached
    /// (3.03.06.02).
    pub(crate) second_move: Option<(Faction, Option<Territory>)>,
    /// Portable Snooper (3.03.07) and the Stone Burner's choice (3.03.10), in the battle being
    /// fought.
    pub(crate) portable: Vec<Faction>,
    pub(crate) burn: Vec<Faction>,
}

impl Replay {
    pub(crate) fn second_expansion_statement(&mut self, _ev: &Event, s: &TradeStmt) {
        match s {
            TradeStmt::Distrans { from, to, card } => self.distrans(*from, *to, card),
            TradeStmt::Sapho { faction, effect } if self.in_play_or_report(*faction) => {
                self.play_card(*faction, Card::JuiceOfSapho, rule!("3.03.02"), false);
                // The storm order it changes: this turn's Shipment and Movement (first,
                // last) or its battles (the aggressor) (docs/notation.md, Decisions).
                let phase = match effect {
                    SaphoEffect::Aggressor => Phase::Battle,
                    _ => Phase::Movement,
                };
                if self.st.phase > phase {
                    self.v(
                        rule!("3.03.02"),
                        format!("the {phase} phase is over this turn: the Juice of Sapho has nothing left to change"),
                    );
                }
                self.t.cards.sapho = Some((phase, *faction, *effect));
            }
            TradeStmt::Nullentropy {
                faction,
                card,
                paid,
            } => self.nullentropy(*faction, card, paid.as_ref()),
            TradeStmt::Ornithopter { faction, again } => self.ornithopter(*faction, *again),
            TradeStmt::PortableSnooper { faction } => self.portable_snooper(*faction),
            TradeStmt::ResidualPoison { faction, leader } => {
                self.residual_poison(*faction, *leader)
            }
            TradeStmt::Semuta { faction, card } => self.semuta(*faction, *card),
            TradeStmt::Burn { faction } => {
                let rule = rule!("3.03.10");
                match self.t.battle.current.as_ref().and_then(|b| {
                    b.side_of(*faction)
                        .and_then(|i| b.plans[i])
                        .map(|p| p.weapon == Some(Card::StoneBurner))
                }) {
                    Some(true) => self.t.cards.burn.push(*faction),
                    _ => self.v(
                        rule,
                        format!("{faction} kills both leaders only with the Stone Burner on its wheel in this battle"),
                    ),
                }
            }
            TradeStmt::Axolotl {
                faction,
                leader,
                paid,
            } => self.axolotl(*faction, *leader, paid.as_ref()),
            TradeStmt::SeededWater { faction } => {
                let rule = rule!("3.03.15");
                if !self.in_play_or_report(*faction) {
                    return;
                }
                if !matches!(
                    self.st.phase,
                    Phase::Charity | Phase::Bidding | Phase::Revival
                ) {
                    self.v(
                        rule,
                        format!("Desert Seeded Water is played after the Spice Blow and Nexus and before Shipment and Movement, not in the {} phase", self.st.phase),
                    );
                }
                self.play_card(*faction, Card::DesertSeededWater, rule, false);
            }
            _ => {}
        }
    }

    /// `DISTRANS F>G{card}` (3.03.01): give another player a card, if its hand is not full.
    fn distrans(&mut self, from: Faction, to: Faction, card: &Sealed<Option<Card>>) {
        let rule = rule!("3.03.01");
        if !self.in_play_or_report(from) || !self.in_play_or_report(to) {
            return;
        }
        if from == to {
            self.v(rule, "Distrans gives a card to another player");
            return;
        }
        self.play_card(from, Card::Distrans, rule, false);
        if !self.eligible(to) {
            self.v(
                rule,
                format!("{to}'s hand is full: Distrans gives a card only to a player with room"),
            );
            return;
        }
        let given = match self.sealed(card).copied().flatten() {
            Some(c) => {
                self.take_card(from, c, rule);
                Some(c)
            }
            None => {
                if self.st.faction(from).hand.is_empty() {
                    self.v(rule, format!("{from} has no card left to give"));
                    return;
                }
                self.st.faction_mut(from).hand.pop().flatten()
            }
        };
        self.st.faction_mut(to).hand.push(given);
    }

    /// `NULLENTROPY F{card} [$2]` (3.03.05): pay 2 spice to the bank and take any card but a
    /// Nullentropy Box from the discard pile; the box goes on top of it.
    fn nullentropy(&mut self, f: Faction, card: &Sealed<Option<Card>>, paid: Option<&Payment>) {
        let rule = rule!("3.03.05");
        if !self.in_play_or_report(f) {
            return;
        }
        let due = Spice::new(2);
        if let Some(p) = paid {
            if p.amount != due {
                self.v_at(
                    p.pos,
                    rule,
                    format!("the Nullentropy Box costs 2 spice, not {}", p.amount),
                );
            }
            if let Some(x) = p.payee
                && x != Payee::Bank
            {
                self.v_at(
                    p.pos,
                    rule,
                    format!("the Nullentropy Box's 2 spice go to the bank, not {x}"),
                );
            }
        }
        if due > self.spice(f) {
            self.v(
                rule,
                format!("{f} must pay 2 spice but has {}", self.spice(f)),
            );
        }
        self.pay(f, Payee::Bank, due);
        self.take_card(f, Card::NullentropyBox, rule);
        let taken = self.sealed(card).copied().flatten();
        match taken {
            Some(Card::NullentropyBox) => {
                self.v(rule, "the Nullentropy Box takes any card from the discard pile but another Nullentropy Box");
            }
            Some(c) => match self.st.treachery_discard.iter().rposition(|&x| x == c) {
                Some(i) => {
                    self.st.treachery_discard.remove(i);
                    self.st.faction_mut(f).hand.push(Some(c));
                }
                None => self.v(rule, format!("{c} is not in the treachery discard pile")),
            },
            None => {
                if self.st.treachery_discard.pop().is_none() {
                    self.v(rule, "the treachery discard pile is empty");
                } else {
                    self.st.faction_mut(f).hand.push(None);
                }
            }
        }
        self.st.treachery_discard.push(Card::NullentropyBox);
    }

    /// `M F Ornithopter range|again` (3.03.06): during the faction's force movement, one move
    /// of up to three territories, or a second move with other forces.
    fn ornithopter(&mut self, f: Faction, again: bool) {
        let rule = rule!("3.03.06");
        if self.st.phase != Phase::Movement || self.t.mv.current != Some(f) {
            self.v(
                rule,
                format!("{f} plays the Ornithopter during its own force movement"),
            );
        }
        self.play_card(f, Card::Ornithopter, rule, false);
        if again {
            self.t.mv.extra_moves += 1;
            let first = self
                .t
                .mv
                .last_entry
                .filter(|(g, _)| *g == f)
                .map(|(_, t)| t);
            self.t.cards.second_move = Some((f, first));
        } else {
            self.t.cards.ornithopter = Some(f);
        }
    }

    /// `  F PortableSnooper` (3.03.07): when wheels are revealed, only by a player who played no
    /// defence and not a weapon beside a worthless card.
    fn portable_snooper(&mut self, f: Faction) {
        let rule = rule!("3.03.07");
        let Some(plan) = self
            .t
            .battle
            .current
            .as_ref()
            .and_then(|b| b.side_of(f).and_then(|i| b.plans[i]))
        else {
            self.v(
                rule,
                format!("{f} plays the Portable Snooper when its battle plan is revealed"),
            );
            return;
        };
        let worthless =
            |c: Option<Card>| c.is_some_and(|c| c.kind() == crate::board::CardKind::Worthless);
        if plan
            .defense
            .is_some_and(|c| c.kind() != crate::board::CardKind::Worthless)
        {
            self.v(
                rule,
                format!("{f} played a defence: the Portable Snooper is played only without one"),
            );
        } else if plan.weapon.is_some() && (worthless(plan.defense) || worthless(plan.weapon)) {
            self.v(rule, format!("{f} played a weapon and a worthless card: the Portable Snooper cannot be played"));
        }
        self.play_card(f, Card::PortableSnooper, rule, false);
        self.t.cards.portable.push(f);
    }

    /// `  F ResidualPoison leader` (3.03.08): before the plans, a random active leader of the
    /// opponent goes to the tanks; nobody is paid for it.
    fn residual_poison(&mut self, f: Faction, l: Leader) {
        let rule = rule!("3.03.08");
        let Some(b) = self.t.battle.current.as_ref() else {
            self.v(
                rule,
                "Residual Poison is played on the opponent of a battle, before the plans",
            );
            return;
        };
        let Some(side) = b.side_of(f) else {
            self.v(rule, format!("{f} is not fighting this battle"));
            return;
        };
        let opponent = b.sides[1 - side];
        if b.plans.iter().any(Option::is_some) {
            self.v(rule, "Residual Poison is played before the battle plans");
        }
        self.play_card(f, Card::ResidualPoison, rule, false);
        if self.st.leader(l) != LeaderState::Pool(opponent) {
            self.v(
                rule,
                format!("{l} is not one of {opponent}'s active leaders"),
            );
            return;
        }
        self.kill_leader(l);
    }

    /// `SEMUTA F card` (3.03.09): when another player discards, take one of the cards before it
    /// reaches the pile: the top of the discard pile.
    fn semuta(&mut self, f: Faction, card: Card) {
        let rule = rule!("3.03.09");
        if !self.in_play_or_report(f) {
            return;
        }
        self.take_card(f, Card::SemutaDrug, rule);
        if self.st.treachery_discard.last() != Some(&card) {
            self.v(rule, format!("{card} is not the card just discarded"));
            self.st.treachery_discard.push(Card::SemutaDrug);
            return;
        }
        self.st.treachery_discard.pop();
        self.st.treachery_discard.push(Card::SemutaDrug);
        self.st.faction_mut(f).hand.push(Some(card));
    }

    /// `R F AxolotlTank L:leader [$n]` (3.03.12): in the Revival phase, revive a dead leader of
    /// one's own for its strength (3 spice for a face-down one), beside the normal revival; or
    /// the ally revives one of its own so.
    fn axolotl(&mut self, f: Faction, l: Leader, paid: Option<&Payment>) {
        let rule = rule!("3.03.12");
        if !self.in_play_or_report(f) {
            return;
        }
        if self.st.phase != Phase::Revival {
            self.v(rule, "the Axolotl Tank is played in the Revival phase");
        }
        let owner = l.faction();
        if owner != f && self.st.ally(f) != Some(owner) {
            self.v(
                rule,
                format!("the Axolotl Tank revives a leader of {f}'s or its ally's, not {l}"),
            );
            return;
        }
        self.play_card(f, Card::AxolotlTank, rule, false);
        let due = match self.st.leader(l) {
            LeaderState::Tanks { face_up: true } => Spice::new(u32::from(l.strength())),
            LeaderState::Tanks { face_up: false } => Spice::new(3),
            _ => {
                self.v(rule, format!("{l} is not in the tanks"));
                return;
            }
        };
        if let Some(p) = paid
            && p.amount != due
        {
            self.v_at(
                p.pos,
                rule,
                format!(
                    "reviving {l} with the Axolotl Tank costs {due}, not {}",
                    p.amount
                ),
            );
        }
        if due > self.spice(owner) {
            self.v(
                rule,
                format!("{owner} must pay {due} spice but has {}", self.spice(owner)),
            );
        }
        let payee = self.settle_payee(crate::factions::Fee::LeaderRevival, owner, paid, || {
            format!("{owner}'s Axolotl Tank revival of {l}")
        });
        self.pay(owner, payee, due);
        self.st.leaders[l.index()] = LeaderState::Pool(owner);
    }

    /// The Juice of Sapho's order this phase for the faction at hand: first, last, or aggressor
    /// (3.03.02).
    pub(crate) fn sapho(&self, effect: SaphoEffect) -> Option<Faction> {
        self.t
            .cards
            .sapho
            .filter(|(p, _, e)| *p == self.st.phase && *e == effect)
            .map(|(_, f, _)| f)
    }
}
