//! Statements allowed in any phase: bribes (1.12), the Emperor's gifts (2.03.06), Karama
//! (3.01.11, 1.14), Truthtrance (3.01.22), deals, rulings and the end of the game.

use super::Replay;
use crate::board::Card;
use crate::dgn::{Event, KaramaUse, Stmt};
use crate::state::Phase;
use dune::Faction;
use dune::{Rule, rule};

impl Replay {
    pub(crate) fn any_event(&mut self, ev: &Event) {
        match &ev.stmt {
            // What the replay enforces of a bribe is its spice, as the rules fix it: it leaves
            // the payer's spice behind the shield now, lies in front of the recipient's shield
            // (where it cannot be spent) and goes behind it at the Mentat Pause (1.12.02,
            // 1.09.01). The terms are recorded as written: a bribe's or deal's promise binds the
            // players (1.12.00) but is a matter for the judge; nothing in it changes what the
            // rules allow, and the replay neither checks nor enforces it.
            Stmt::Bribe {
                from,
                to,
                amount,
                terms,
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
                if let Some((rule, why)) = self
                    .st
                    .in_play
                    .iter()
                    .find_map(|g| crate::factions::rules(g).bribe_forbidden(self))
                {
                    self.v(rule, why);
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
                // Through the payments' one door: a bribe goes in front of its recipient's shield
                // unless a faction's rule sends it elsewhere.
                let payee =
                    self.settle_payee(crate::factions::Fee::Bribe(*to), *from, None, || {
                        format!("{from}'s bribe to {to}")
                    });
                let paid = (*amount).min(self.spice(*from));
                self.st.faction_mut(*from).spice.take(paid);
                if let crate::dgn::Payee::Faction(g) = payee {
                    self.st.faction_mut(g).bribes += paid;
                }
                if !self.deals.is_empty() {
                    self.deal_payment(*from, *to, paid);
                }
                if let Some(text) = terms {
                    self.not_checked(format!("bribe from {from} to {to}: \"{text}\""));
                }
            }
            Stmt::Deal { factions, terms } => self.free_deal(factions, terms),
            Stmt::Terms {
                factions,
                bribe,
                terms,
            } => self.deal_terms(factions, *bribe, terms),
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
            Stmt::Amal { faction, phase } => self.amal(*faction, *phase),
            Stmt::ButlerianJihad {
                faction,
                touching,
                discard,
            } => self.butlerian_jihad(*faction, touching, *discard),
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
            _ => {
                crate::factions::ability_statement(self, ev);
            }
        }
    }

    /// Amal (000 3.02.01): at the beginning of a phase, every player discards half the spice
    /// behind its shield, rounded up, to the bank.
    pub(crate) fn amal(&mut self, f: Faction, phase: Phase) {
        if !self.in_play_or_report(f) {
            return;
        }
        if self.st.turn == 0 {
            self.v(
                rule!("3.02.01"),
                "Amal is played at the beginning of a phase of a turn",
            );
            return;
        }
        self.enter(phase);
        if self.st.phase != phase {
            return;
        }
        if self.phase_statements > 0 {
            self.v(
                rule!("3.02.01"),
                format!(
                    "Amal is played at the beginning of a phase: the {phase} phase is under way (write AMAL before its first line)"
                ),
            );
        }
        self.play_card(f, Card::Amal, rule!("3.02.01"), false);
        for g in self.st.in_play.iter() {
            let half = self.spice(g).half_up();
            self.pay(g, crate::dgn::Payee::Bank, half);
        }
    }

    pub(crate) fn karama(&mut self, ev: &Event, f: Faction, card: Option<Card>, usage: &KaramaUse) {
        if !self.in_play_or_report(f) {
            return;
        }
        let card = self.karama_card(f, card);
        if let Some((rule, why)) = self
            .st
            .in_play
            .iter()
            .find_map(|g| crate::factions::rules(g).karama_blocked(self, f))
        {
            // The card is not played: its player keeps it.
            self.v(rule, why);
            return;
        }
        self.play_card(f, card, rule!("3.01.11"), false);
        let power: Option<(Faction, Phase, Rule)> = match usage {
            KaramaUse::Cancel(r) => return self.karama_against(f, r, false),
            KaramaUse::Prevent(r) => return self.karama_against(f, r, true),
            // A faction's own Karama power (1.14.01-1.14.05; 000 1.14.07-1.14.13): the player's own
            // when it has one by that name (CHOAM's and the Free Traders' flips), else whose it is.
            _ => crate::factions::rules(f)
                .karama_power(usage)
                .map(|(phase, rule)| (f, phase, rule))
                .or_else(|| {
                    Faction::ALL.into_iter().find_map(|g| {
                        crate::factions::rules(g)
                            .karama_power(usage)
                            .map(|(phase, rule)| (g, phase, rule))
                    })
                }),
        };
        let Some((owner, phase, rule)) = power else {
            return;
        };
        // The power's number is read in its owner's book (1.14.07 is a different rule in each).
        let book = crate::factions::rules(owner).book();
        let pos = self.pos;
        if f != owner {
            // A faction with no power of its own says so by its rule (BG, 1.14.06).
            let (book, rule) = match crate::factions::rules(f).no_karama_power() {
                Some(own) => (crate::factions::rules(f).book(), own),
                None => (book, rule),
            };
            self.v_book(
                book,
                pos,
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
        if self.st.phase != phase && !crate::factions::rules(f).karama_any_phase(usage) {
            self.v_book(
                book,
                pos,
                rule,
                format!(
                    "this power is used during the {phase} phase, not the {} phase",
                    self.st.phase
                ),
            );
            return;
        }
        crate::factions::rules(f).use_karama_power(self, ev, usage);
    }

    /// `JIHAD F G H … [discard card]` (000 3.05.01): every player touching or looking at a
    /// thinking machine loses half its spice, rounded up; the one who lost most (storm order
    /// breaks ties) takes the card, discarding first when its hand is full.
    pub(crate) fn butlerian_jihad(
        &mut self,
        f: Faction,
        touching: &[Faction],
        discard: Option<Card>,
    ) {
        if !self.in_play_or_report(f) {
            return;
        }
        self.take_card(f, Card::ButlerianJihad, rule!("3.05.01"));
        let mut lost: Vec<(Faction, dune::Spice)> = Vec::new();
        for &g in touching {
            if !self.in_play_or_report(g) || lost.iter().any(|(x, _)| *x == g) {
                continue;
            }
            let half = dune::Spice::new(self.spice(g).amount().div_ceil(2));
            self.pay(g, crate::dgn::Payee::Bank, half);
            lost.push((g, half));
        }
        let most = lost.iter().map(|(_, n)| *n).max();
        let taker = most.and_then(|m| {
            self.st
                .order
                .iter()
                .copied()
                .find(|g| lost.iter().any(|(x, n)| x == g && *n == m))
        });
        let Some(t) = taker else {
            self.place_card(f, Card::ButlerianJihad, false);
            return;
        };
        let full = self.st.faction(t).hand.len() >= usize::from(self.hand_limit(t));
        match (full, discard) {
            (true, Some(c)) => {
                self.play_card(t, c, rule!("3.05.01"), false);
            }
            (true, None) => self.v_full(
                rule!("3.05.01"),
                format!("{t}'s hand is full: it discards a card before it takes Butlerian Jihad (`discard card`)"),
            ),
            (false, Some(c)) => self.v_full(
                rule!("3.05.01"),
                format!("{t}'s hand is not full: it takes Butlerian Jihad without discarding {c}"),
            ),
            (false, None) => {}
        }
        self.st.faction_mut(t).hand.push(Some(Card::ButlerianJihad));
        self.check_copies(Card::ButlerianJihad);
    }
}
