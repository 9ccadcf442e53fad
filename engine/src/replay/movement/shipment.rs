//! Shipment (1.06.03), the Fremen send (2.04.05, 2.04.17), the Guild's cross-ship and ship-home
//! (2.06.05), the Carthag card (4.03.03.02) and the Guild's Karama against a shipment (1.14.05).

use super::*;
use crate::factions::{Fee, PayeeRule};

impl Replay {
    /// One shipment per player per turn (1.06.02): the Guild's cross-ship and ship-home and the
    /// Fremen send are that shipment too. `lands` is false for the Fremen send, which is not a
    /// shipment that lands from off-planet (for Wormsign, 2.01.07). Returns `false` (after
    /// reporting) when the shipment has been used already.
    pub(crate) fn use_shipment(&mut self, f: Faction, lands: bool) -> bool {
        if self.t.mv.shipped.contains(f) {
            self.v(
                rule!("1.06.02"),
                format!("{f} has already used its shipment this turn (shipment, send, cross-ship or ship-home)"),
            );
            return false;
        }
        self.t.mv.shipped.insert(f);
        self.t.mv.any_shipment |= lands;
        true
    }

    pub(crate) fn ship(
        &mut self,
        f: Faction,
        c: ForceCount,
        to: Place,
        payment: Option<Payment>,
        karama: bool,
    ) {
        if let Some((rule, why)) = crate::factions::rules(f).cannot_ship() {
            self.v(rule, why);
            return;
        }
        if !self.use_shipment(f, true) {
            return;
        }
        for g in self.st.in_play.iter() {
            crate::factions::rules(g).before_shipment(self);
        }
        if self.t.mv.moves > 0 {
            self.v(
                rule!("1.06.01"),
                format!("{f} ships after moving: a player ships first, then moves"),
            );
        }
        let Some(dest) = self.dest_piece(to, rule!("1.06.03.03")) else {
            return;
        };
        let t = to.territory;
        // The second side of a faction's tokens that ships and shares territories peacefully
        // (the Free Traders' Smugglers, 000 2.13.05): no occupancy limit, never into the
        // Hidden Mobile Stronghold.
        let second_side = if c.side == Side::Advisor {
            crate::factions::rules(f).ships_second_side()
        } else {
            None
        };
        if let Some(rule) = second_side {
            if t == Territory::HiddenMobileStronghold {
                self.v(
                    rule,
                    format!("{f} cannot ship Smugglers into the Hidden Mobile Stronghold"),
                );
            } else if self.st.in_storm(dest) {
                self.v(
                    rule!("1.06.03.04"),
                    format!("{f} cannot ship into {}: it is in the storm", t.name()),
                );
            }
        } else {
            self.check_entry(f, dest, c.total, Entry::Shipment);
        }
        crate::factions::rules(f).shipment_check(self, t, c);
        let reserves = self.st.faction(f).reserves;
        if !reserves.covers(Forces::from_count(c)) {
            self.v(
                rule!("1.06.03"),
                format!("{f} ships {c} but has only {reserves} in reserve"),
            );
        }
        let (rate, rate_block) = self.guild_rate(f, karama);
        let guild_rate = karama || rate.is_some();
        let wall_card = self.st.stronghold_card_holder(Stronghold::ShieldWall) == Some(f);
        // A faction's rules may charge fewer forces (000 2.11.16.10 revised).
        let charge = self
            .st
            .in_play
            .iter()
            .find_map(|g| crate::factions::rules(g).shipping_charge(self, f, t, c.total));
        // What the tokens are paid for (CHOAM's Elite Mercenaries count twice, 000 2.09.16).
        let counted = self
            .st
            .in_play
            .iter()
            .find_map(|g| crate::factions::rules(g).shipped_count(self, f, c));
        // A faction's own price (the Free Traders' Smugglers, 000 2.13.05).
        let own_cost = self
            .st
            .in_play
            .iter()
            .find_map(|g| crate::factions::rules(g).shipment_cost(self, f, t, c, guild_rate));
        let cost = own_cost.map_or_else(
            || {
                shipping_cost(
                    t,
                    counted.or(charge).map_or(c.total, |(n, _)| n),
                    guild_rate,
                    wall_card,
                )
            },
            |(n, _)| n,
        );
        // A Karama shipment is paid to the bank (3.01.11.03).
        let fee = if karama {
            Fee::KaramaShipment
        } else {
            Fee::Shipment
        };
        let claim = self.payee_of(fee, f);
        let rule = if karama {
            rule!("3.01.11.03")
        } else if let Some((_, r)) = charge {
            r
        } else if wall_card && t == Territory::ShieldWall {
            // The Shield Wall card's stronghold rate (4.03.03.05; a variant, 1.00.03).
            rule!("4.03.03.05")
        } else if let Some(b) = rate_block {
            b.rule()
        } else if let Some(a) = rate {
            a.0
        } else if t.moves() {
            // The Hidden Mobile Stronghold is a stronghold, at the stronghold rate (000 2.07.17).
            rule!("2.07.17")
        } else if let Some(r) = own_cost.map(|x| x.1).or(counted.map(|x| x.1)) {
            r
        } else {
            rule!("1.06.03.01")
        };
        let (payer, payee) = self.check_payment(f, payment, cost, (fee, claim), rule, &|| {
            format!("shipping {} forces to {}", c.total, t.name())
        });
        if karama {
            self.play_card(f, Card::Karama, rule!("3.01.11.03"), false);
        }
        self.pay(payer, payee, cost);
        let placed = self.st.place_from_reserves(
            f,
            dest,
            ForceCount {
                side: if second_side.is_some() {
                    Side::Advisor
                } else {
                    Side::Fighter
                },
                ..c
            },
            false,
        );
        self.t.mv.last_ship = Some(ShipRecord {
            faction: f,
            piece: dest,
            responded: false,
            forces: placed,
            payer,
            payee,
            cost,
        });
        self.entered(f, t, false);
    }

    /// Half-price shipping for this faction now, by a faction's ability (the Guild's, 2.06.06,
    /// and its ally's, 2.06.09; `None` for a Karama shipment, 3.01.11.03, which is half price by
    /// the card), and the Karama block that took it away, if any.
    pub(crate) fn guild_rate(
        &mut self,
        f: Faction,
        karama: bool,
    ) -> (Option<Ability>, Option<crate::replay::karama::Block>) {
        if karama {
            return (None, None);
        }
        let Some(ability) = self
            .st
            .in_play
            .iter()
            .find_map(|g| crate::factions::rules(g).half_price(self, f))
        else {
            return (None, None);
        };
        match self.karama_take(ability) {
            Some(b) => (None, Some(b)),
            None => (Some(ability), None),
        }
    }

    /// The faction that receives `fee` from `payer` by its rules, if any (see
    /// [`crate::factions::Fee`]).
    pub(crate) fn payee_of(&mut self, fee: Fee, payer: Faction) -> Option<PayeeRule> {
        let mut found = None;
        for g in self.st.in_play.iter() {
            if let Some(p) = crate::factions::rules(g).payee(self, fee, payer) {
                found = Some(p);
                break;
            }
        }
        found
    }

    /// Checks a logged payment against the computed cost and payee of this kind of payment
    /// (`claim`: the faction whose rules claim it, [`Replay::payee_of`]; the payee through
    /// [`Replay::check_payee`]); returns who pays and who receives.
    pub(crate) fn check_payment(
        &mut self,
        f: Faction,
        payment: Option<Payment>,
        cost: Spice,
        (fee, claim): (Fee, Option<crate::factions::PayeeRule>),
        rule: Rule,
        what: &dyn Fn() -> String,
    ) -> (Faction, Payee) {
        let logged = payment.and_then(|p| p.payee.map(|g| (g, p.pos)));
        let payee = self.check_payee(fee, f, claim, logged, || {
            format!("{f}'s payment for {}", what())
        });
        let mut payer = f;
        if let Some(p) = payment {
            if p.amount != cost {
                let why = if rule.is_within(rule!("3.01.11")) && rule != rule!("3.01.11.03") {
                    " (a Karama took away half-price shipping)"
                } else {
                    ""
                };
                self.v_at(
                    p.pos,
                    rule,
                    format!("{} costs {f} {cost} spice, not {}{why}", what(), p.amount),
                );
            }
            if let Some(by) = p.payer
                && by != f
            {
                if self.st.ally(f) == Some(by) {
                    payer = by;
                } else {
                    self.v_at(
                        p.pos,
                        rule!("1.10.02.05"),
                        format!("{by} is not {f}'s ally and cannot pay for its shipment"),
                    );
                }
            }
        }
        if cost > self.spice(payer) {
            self.v(
                rule!("1.06.03.01"),
                format!(
                    "{payer} must pay {cost} spice for {} but has {}{}",
                    what(),
                    self.spice(payer),
                    self.bribe_note(payer)
                ),
            );
        }
        (payer, payee)
    }

    pub(crate) fn stronghold_card_in_movement(&mut self, f: Faction, s: Stronghold) {
        let t = Territory::of(s);
        if s != Stronghold::Carthag {
            self.v(
                rule!("4.03.03"),
                format!(
                    "the {} card acts by itself; only the Carthag card is logged in this phase",
                    t.name()
                ),
            );
            return;
        }
        if self.st.stronghold_card_holder(s) != Some(f) {
            self.v(
                rule!("4.03.03.02"),
                format!("{f} does not hold the Carthag stronghold card"),
            );
            return;
        }
        if self.t.mv.started {
            self.v(
                rule!("4.03.03.02"),
                "the Carthag card sends a force before anyone's shipment and movement action",
            );
        }
        if self.t.mv.carthag_used {
            self.v(
                rule!("4.03.03.02"),
                "the Carthag card sends one force per turn",
            );
            return;
        }
        self.t.mv.carthag_used = true;
        let Some(p) = t.piece(t.single_sector()) else {
            return;
        };
        if !self.check_entry(f, p, 1, Entry::CarthagCard) {
            return;
        }
        if self.st.faction(f).reserves.is_empty() {
            self.v(rule!("4.03.03.02"), format!("{f} has no forces in reserve"));
            return;
        }
        self.st
            .place_from_reserves(f, p, ForceCount::plain(1), false);
        self.entered(f, t, false);
    }
}
