//! Statements allowed in any phase: bribes (1.12), the Emperor's gifts (2.03.06), Karama
//! (3.01.11, 1.14), Truthtrance (3.01.22), deals, rulings and the end of the game.

use super::Replay;
use crate::board::Card;
use crate::dgn::{Event, KaramaUse, Sealed, Stmt};
use crate::state::Phase;
use dune::Faction;
use dune::{Rule, rule};

impl Replay {
    pub(super) fn any_event(&mut self, ev: &Event) {
        match &ev.stmt {
            // What the replay enforces of a bribe is its spice, as the rules fix it: it leaves
            // the payer's spice behind the shield now, lies in front of the recipient's shield
            // (where it cannot be spent) and goes behind it at the Mentat Pause (1.12.02,
            // 1.09.01). The terms are recorded as written: a bribe's or deal's promise binds the
            // players (1.12.00) but is a matter for the judge; nothing in it changes what the
            // rules allow, and the replay neither checks nor enforces it.
            Stmt::Bribe {
                from, to, amount, ..
            } => {
                if !self.in_play_or_report(*from) || !self.in_play_or_report(*to) {
                    return;
                }
                if self.st.turn == 0 {
                    self.v(
                        rule!("1.12.04"),
                        "no deal or bribe can be made during setup (before 0.16 ends)",
                    );
                    return;
                }
                if self.st.phase == Phase::Mentat {
                    self.v(
                        rule!("1.12.05"),
                        "bribes cannot be made during or after the Mentat Pause (rulings.md 21)",
                    );
                    return;
                }
                if from == to {
                    self.v(rule!("1.12.00"), "a bribe is between two players");
                    return;
                }
                if self.allies(*from, *to) {
                    self.v(
                        rule!("1.12.01"),
                        format!(
                            "{from} and {to} are allies: allies may make deals, but not bribes"
                        ),
                    );
                    return;
                }
                if *amount == 0 {
                    self.v(
                        rule!("1.12.01"),
                        format!("a bribe transfers spice; a promise between {from} and {to} without spice is a deal (DEAL {from},{to} \"terms\")"),
                    );
                    return;
                }
                if *amount > self.spice(*from) {
                    self.v(
                        rule!("1.12.02"),
                        format!(
                            "{from} pays a bribe of {amount} but has only {} spice behind its shield{}",
                            self.spice(*from),
                            self.bribe_note(*from)
                        ),
                    );
                }
                let paid = (*amount).min(self.spice(*from));
                self.st.faction_mut(*from).spice.take(paid);
                self.st.faction_mut(*to).bribes += paid;
            }
            Stmt::Gift { from, to, amount } => {
                if *from != Faction::Emperor {
                    self.v(rule!("1.10.02.03"), format!("allies may not give each other spice; only the Emperor gives to its ally (2.03.06), and {from} is not the Emperor"));
                    return;
                }
                if self.st.ally(*from) != Some(*to) {
                    self.v(
                        rule!("2.03.06"),
                        format!("the Emperor gives spice only to its ally, and {to} is not"),
                    );
                    return;
                }
                if *amount > self.spice(*from) {
                    self.v(
                        rule!("2.03.06"),
                        format!(
                            "the Emperor gives {amount} but has only {} spice",
                            self.spice(*from)
                        ),
                    );
                }
                let paid = (*amount).min(self.spice(*from));
                self.st.faction_mut(*from).spice.take(paid);
                self.st.faction_mut(*to).gain(paid);
            }
            Stmt::Karama {
                faction,
                card,
                usage,
            } => self.karama(ev, *faction, *card, usage),
            Stmt::Truthtrance { from, to, .. } => {
                if from == to {
                    self.v(rule!("3.01.22"), "Truthtrance asks another player");
                }
                self.play_card(*from, Card::Truthtrance, rule!("3.01.22"), false);
            }
            // 3.01.20: at any time, outside the Revival phase's storm order.
            Stmt::Ghola {
                faction,
                forces,
                leader,
            } if self.in_play_or_report(*faction) => self.ghola(*faction, *forces, *leader),
            Stmt::Hajr { faction } => {
                if self.st.phase != Phase::Movement {
                    self.v(
                        rule!("3.01.09"),
                        format!(
                            "Hajr is played during force movement (Shipment and Movement phase), not in the {} phase",
                            self.st.phase
                        ),
                    );
                    self.play_card(*faction, Card::Hajr, rule!("3.01.09"), false);
                } else if self.in_play_or_report(*faction) {
                    self.hajr(*faction);
                }
            }
            Stmt::End { turn, .. } => {
                if *turn != self.st.turn {
                    self.v(
                        rule!("0.02"),
                        format!("the game is at turn {}, not T{turn}", self.st.turn),
                    );
                }
                self.close_turn();
                self.ended = true;
            }
            _ => {}
        }
    }

    fn karama(&mut self, ev: &Event, f: Faction, card: Option<Card>, usage: &KaramaUse) {
        if !self.in_play_or_report(f) {
            return;
        }
        let card = self.karama_card(f, card);
        self.play_card(f, card, rule!("3.01.11"), false);
        let power: Option<(Faction, Phase, Rule)> = match usage {
            KaramaUse::Cancel(r) => return self.karama_against(f, r, false),
            KaramaUse::Prevent(r) => return self.karama_against(f, r, true),
            KaramaUse::SeePlan(_) => Some((Faction::Atreides, Phase::Battle, rule!("1.14.01"))),
            KaramaUse::ReviveForces(_) | KaramaUse::ReviveLeader(_) => {
                Some((Faction::Emperor, Phase::Revival, rule!("1.14.02")))
            }
            KaramaUse::Worm(_) => Some((Faction::Fremen, Phase::SpiceBlow, rule!("1.14.03"))),
            KaramaUse::TakeHand { .. } => {
                Some((Faction::Harkonnen, Phase::Bidding, rule!("1.14.04")))
            }
            KaramaUse::CancelShipment(_) => {
                Some((Faction::SpacingGuild, Phase::Movement, rule!("1.14.05")))
            }
        };
        let Some((owner, phase, rule)) = power else {
            return;
        };
        if f != owner {
            let rule = if f == Faction::BeneGesserit {
                rule!("1.14.06")
            } else {
                rule
            };
            self.v(
                rule,
                format!(
                    "this is the {} Karama power; {f} cannot use it",
                    owner.name()
                ),
            );
            return;
        }
        if !self.st.options.advanced {
            self.v(rule!("1.13.06"), "faction Karama powers are Advanced rules");
            return;
        }
        if self.st.faction(f).karama_power_used {
            self.v(
                rule!("1.13.06"),
                format!("{f} has already used its once-per-game Karama power"),
            );
            return;
        }
        self.st.faction_mut(f).karama_power_used = true;
        if self.st.phase != phase {
            self.v(
                rule,
                format!(
                    "this power is used during the {phase} phase, not the {} phase",
                    self.st.phase
                ),
            );
            return;
        }
        match usage {
            KaramaUse::Worm(place) => {
                if self.st.turn <= 1 {
                    self.v(
                        rule!("1.14.03"),
                        "the Fremen Karama worm can be placed only after turn 1",
                    );
                } else if !place.territory.is_sand() {
                    self.v(
                        rule!("1.14.03"),
                        format!(
                            "the worm goes to a sand territory; {} is not",
                            place.territory.name()
                        ),
                    );
                } else {
                    self.karama_worm(place.territory, &ev.asserts);
                }
            }
            KaramaUse::ReviveForces(c) => self.emperor_karama_revival(Some(*c), None),
            KaramaUse::ReviveLeader(l) => self.emperor_karama_revival(None, Some(*l)),
            KaramaUse::TakeHand { target, returned } => self.take_hand(f, *target, returned),
            KaramaUse::CancelShipment(target) => self.cancel_shipment(*target),
            _ => {}
        }
    }

    /// Harkonnen Karama (1.14.04): the Harkonnen take the target's whole hand, then give back as
    /// many cards. The identities known before stay known: the cards taken join the Harkonnen
    /// hand with what is known of them, and the cards given back (sealed, `hand AT{Shield,?}`)
    /// leave it. When the log does not say which cards went back, nobody can tell which of the
    /// pooled cards stayed, so both hands become unknown.
    fn take_hand(&mut self, f: Faction, target: Faction, returned: &Sealed<Vec<Option<Card>>>) {
        if target == f {
            self.v(rule!("1.14.04"), "the Harkonnen take another player's hand");
            return;
        }
        if !self.in_play_or_report(target) {
            return;
        }
        let taken = std::mem::take(&mut self.st.faction_mut(target).hand);
        let n = taken.len();
        if n == 0 {
            self.v(rule!("1.14.04"), format!("{target} holds no cards"));
        }
        let mut pool = std::mem::take(&mut self.st.faction_mut(f).hand);
        pool.extend(taken);
        let mut back: Vec<Option<Card>> = Vec::with_capacity(n);
        match self.sealed(returned).cloned() {
            Some(list) => {
                if list.len() != n {
                    self.v(rule!("1.14.04"), format!("the Harkonnen took {n} card(s) from {target} and must give back as many, but the log lists {}", list.len()));
                }
                let mut unknown_back = 0;
                for c in list.into_iter().take(n) {
                    match c {
                        Some(card) => {
                            let slot = pool
                                .iter()
                                .position(|x| *x == Some(card))
                                .or_else(|| pool.iter().position(Option::is_none));
                            match slot {
                                Some(i) => {
                                    pool.remove(i);
                                }
                                None => {
                                    let known: Vec<String> =
                                        pool.iter().flatten().map(|c| c.to_string()).collect();
                                    self.v(rule!("1.14.04"), format!("the Harkonnen give back {card}, but the cards they hold after taking {target}'s hand are {}", known.join(", ")));
                                    pool.pop();
                                }
                            }
                            back.push(Some(card));
                        }
                        None => {
                            unknown_back += 1;
                            back.push(None);
                        }
                    }
                }
                // Cards given back unseen: unknown ones first; past those, nobody can tell which
                // of the known cards left, so what stays becomes unknown.
                for _ in 0..unknown_back {
                    match pool.iter().position(Option::is_none) {
                        Some(i) => {
                            pool.remove(i);
                        }
                        None => {
                            pool.pop();
                            pool.iter_mut().for_each(|c| *c = None);
                        }
                    }
                }
            }
            None => {
                for _ in 0..n {
                    pool.pop();
                    back.push(None);
                }
                pool.iter_mut().for_each(|c| *c = None);
            }
        }
        while back.len() < n {
            back.push(None);
            pool.pop();
        }
        self.st.faction_mut(f).hand = pool;
        self.st.faction_mut(target).hand = back;
        for c in self.st.faction(target).hand.clone().into_iter().flatten() {
            self.check_copies(c);
        }
    }
}
