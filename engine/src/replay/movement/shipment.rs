//! Shipment (1.06.03), the Fremen send (2.04.05, 2.04.17), the Guild's cross-ship and ship-home
//! (2.06.05), the Carthag card (4.03.03.02) and the Guild's Karama against a shipment (1.14.05).

use super::*;

impl Replay {
    /// One shipment per player per turn (1.06.02): the Guild's cross-ship and ship-home and the
    /// Fremen send are that shipment too. `lands` is false for the Fremen send, which is not a
    /// shipment that lands from off-planet (for Wormsign, 2.01.07). Returns `false` (after
    /// reporting) when the shipment has been used already.
    fn use_shipment(&mut self, f: Faction, lands: bool) -> bool {
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

    pub(in crate::replay) fn ship(
        &mut self,
        f: Faction,
        c: ForceCount,
        to: Place,
        payment: Option<Payment>,
        karama: bool,
    ) {
        if f == Faction::Fremen {
            self.v(
                rule!("2.04.03"),
                "the Fremen have no off-planet reserves and cannot ship; they send (M FR send …)",
            );
            return;
        }
        if !self.use_shipment(f, true) {
            return;
        }
        // A cancelled spiritual advisor was about the previous shipment.
        self.karama_lapse(Ability::BgSpirit);
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
        self.check_entry(f, dest, c.total, Entry::Shipment);
        if f == Faction::BeneGesserit {
            if c.side == Side::Advisor {
                self.v(rule!("2.02.13"), "the Bene Gesserit ship fighters, not advisors (advisors come only as spiritual advisors)");
            }
            if self.st.options.advanced && self.st.in_territory(f, t).advisors > 0 {
                self.v(
                    rule!("2.02.13"),
                    format!(
                        "the Bene Gesserit cannot ship fighters into {}, where their advisors are",
                        t.name()
                    ),
                );
            }
        }
        let reserves = self.st.faction(f).reserves;
        if !reserves.covers(Forces::from_count(c)) {
            self.v(
                rule!("1.06.03"),
                format!("{f} ships {c} but has only {reserves} in reserve"),
            );
        }
        let (guild_rate, rate_block) = self.guild_rate(f, karama);
        let wall_card = self.st.stronghold_card_holder(Stronghold::ShieldWall) == Some(f);
        let cost = shipping_cost(t, c.total, guild_rate, wall_card);
        let guild = self.st.plays(Faction::SpacingGuild);
        let (payee, payee_block) = if karama || f == Faction::SpacingGuild || !guild {
            (Payee::Bank, None)
        } else {
            match self.karama_take(Ability::SgPayment) {
                Some(b) => (Payee::Bank, Some(b)),
                None => (Payee::Faction(Faction::SpacingGuild), None),
            }
        };
        let rule = if karama {
            rule!("3.01.11.03")
        } else if wall_card && t == Territory::ShieldWall {
            // The Shield Wall card's stronghold rate (4.03.03.05; a variant, 1.00.03).
            rule!("4.03.03.05")
        } else if let Some(b) = rate_block {
            b.rule()
        } else if f != Faction::SpacingGuild && guild_rate {
            rule!("2.06.09")
        } else if guild_rate {
            rule!("2.06.06")
        } else {
            rule!("1.06.03.01")
        };
        let payer = self.check_payment(
            f,
            payment,
            cost,
            (payee, payee_block),
            rule,
            &format!("shipping {} forces to {}", c.total, t.name()),
        );
        if karama {
            self.play_card(f, Card::Karama, rule!("3.01.11.03"), false);
        }
        self.pay(payer, payee, cost);
        let placed = self.st.place_from_reserves(
            f,
            dest,
            ForceCount {
                side: Side::Fighter,
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
        self.t.mv.last_entry = Some((f, t));
    }

    /// Half-price shipping (2.06.06, 2.06.09, 3.01.11.03) for this faction now, and the Karama
    /// block that took it away, if any.
    pub(in crate::replay) fn guild_rate(
        &mut self,
        f: Faction,
        karama: bool,
    ) -> (bool, Option<crate::replay::karama::Block>) {
        if karama {
            return (true, None);
        }
        let ability = if f == Faction::SpacingGuild {
            Ability::SgHalfPrice
        } else if self.st.ally(f) == Some(Faction::SpacingGuild) {
            Ability::SgAllyHalfPrice
        } else {
            return (false, None);
        };
        match self.karama_take(ability) {
            Some(b) => (false, Some(b)),
            None => (true, None),
        }
    }

    /// Checks a logged payment against the computed cost and payee (with the Karama block that
    /// sent it to the bank, if any); returns who pays.
    pub(in crate::replay) fn check_payment(
        &mut self,
        f: Faction,
        payment: Option<Payment>,
        cost: Spice,
        (payee, payee_block): (Payee, Option<crate::replay::karama::Block>),
        rule: Rule,
        what: &str,
    ) -> Faction {
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
                    format!("{what} costs {f} {cost} spice, not {}{why}", p.amount),
                );
            }
            if let Some(given) = p.payee
                && given != payee
            {
                if let Some(b) = payee_block {
                    self.v_at(
                        p.pos,
                        b.rule(),
                        format!(
                            "this payment goes to the bank, not {given}: {}",
                            b.describe()
                        ),
                    );
                } else {
                    let rule = if payee == Payee::Faction(Faction::SpacingGuild)
                        || given == Payee::Faction(Faction::SpacingGuild)
                    {
                        rule!("2.06.04")
                    } else {
                        rule!("1.06.03.02")
                    };
                    self.v_at(
                        p.pos,
                        rule,
                        format!("this payment goes to {payee}, not {given}"),
                    );
                }
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
                    "{payer} must pay {cost} spice for {what} but has {}{}",
                    self.spice(payer),
                    self.bribe_note(payer)
                ),
            );
        }
        payer
    }

    pub(in crate::replay) fn send(&mut self, f: Faction, c: ForceCount, to: Place) {
        if f != Faction::Fremen {
            self.v(
                rule!("2.04.05"),
                format!("only the Fremen send reserves to the map; {f} ships"),
            );
            return;
        }
        if !self.use_shipment(f, false) {
            return;
        }
        let Some(dest) = self.dest_piece(to, rule!("1.06.03.03")) else {
            return;
        };
        let t = to.territory;
        let wall_card = t == Territory::ShieldWall
            && self.st.stronghold_card_holder(Stronghold::ShieldWall) == Some(f);
        if !wall_card {
            let d = crate::board::data::FREMEN_SEND_CENTRE.distance(t);
            if d > crate::board::data::FREMEN_SEND_RANGE {
                self.v(rule!("2.04.05"), format!("the Fremen send to the Great Flat or a territory within two of it; {} is {d} territories away", t.name()));
            }
        }
        self.check_entry(f, dest, c.total, Entry::FremenSend);
        let reserves = self.st.faction(f).reserves;
        if !reserves.covers(Forces::from_count(c)) {
            self.v(
                rule!("2.04.05"),
                format!("the Fremen send {c} but have only {reserves} in reserve"),
            );
        }
        let placed = self.st.place_from_reserves(f, dest, c, false);
        let mut kept = placed;
        if dest.in_storm(self.st.storm) {
            if self.st.options.advanced {
                self.karama_forbids(
                    Ability::FrMigration,
                    &format!("the Fremen send {c} into the storm in {}", t.name()),
                );
                // 2.04.17 (rulings.md 25): half, rounded up, are lost.
                let lose = placed.total().div_ceil(2);
                let normal = lose.min(placed.normal);
                let gone = self.st.take_from_piece(
                    f,
                    dest,
                    Forces::new(normal, lose - normal),
                    Side::Unspecified,
                );
                self.st.faction_mut(f).tanks.add(gone.forces());
                kept.take(gone.forces());
                self.t.mv.action_losses.add_forces(t, f, gone);
                self.t.mv.migration = Some(t);
            } else {
                self.v(rule!("1.01.04"), format!("the Fremen cannot send into {}: it is in the storm (storm migration is Advanced)", t.name()));
            }
        }
        if wall_card && !kept.is_empty() {
            self.t.mv.shield_wall_sent.push((dest, kept));
        }
        self.t.mv.last_entry = Some((f, t));
    }

    pub(in crate::replay) fn cross_ship(
        &mut self,
        f: Faction,
        from: Place,
        to: Place,
        c: ForceCount,
        payment: Option<Payment>,
    ) {
        let ally = self.st.ally(f) == Some(Faction::SpacingGuild);
        if f != Faction::SpacingGuild && !ally {
            self.v(
                rule!("2.06.05.01"),
                format!("only the Guild and its ally cross-ship; {f} cannot"),
            );
            return;
        }
        let ability = if ally {
            Ability::SgAllyCross
        } else {
            Ability::SgCross
        };
        if self.karama_forbids(ability, &format!("{f} cross-ships from {from} to {to}")) {
            return;
        }
        if !self.use_shipment(f, true) {
            return;
        }
        let pieces = self.source_pieces(f, from, c.side, rule!("1.06.03.04"));
        let Some(dest) = self.dest_piece(to, rule!("1.06.03.03")) else {
            return;
        };
        let t = to.territory;
        self.check_entry(f, dest, c.total, Entry::Shipment);
        let (half, rate_block) = self.guild_rate(f, false);
        let wall_card = self.st.stronghold_card_holder(Stronghold::ShieldWall) == Some(f);
        let cost = shipping_cost(t, c.total, half, wall_card);
        let (payee, payee_block) = if f == Faction::SpacingGuild {
            (Payee::Bank, None)
        } else {
            match self.karama_take(Ability::SgPayment) {
                Some(b) => (Payee::Bank, Some(b)),
                None => (Payee::Faction(Faction::SpacingGuild), None),
            }
        };
        let rule = match rate_block {
            _ if wall_card && t == Territory::ShieldWall => rule!("4.03.03.05"),
            Some(b) => b.rule(),
            None if ally => rule!("2.06.09"),
            None => rule!("2.06.06"),
        };
        let payer = self.check_payment(
            f,
            payment,
            cost,
            (payee, payee_block),
            rule,
            &format!("cross-shipping {} forces to {}", c.total, t.name()),
        );
        self.pay(payer, payee, cost);
        if let Some(s) = self.take_from(f, from, &pieces, c, rule!("2.06.05.01")) {
            self.st.stack_mut(f, dest).add(s);
        }
        self.t.mv.last_entry = Some((f, t));
    }

    pub(in crate::replay) fn ship_home(
        &mut self,
        f: Faction,
        from: Place,
        c: ForceCount,
        payment: Option<Payment>,
    ) {
        if f != Faction::SpacingGuild {
            self.v(rule!("2.06.05.02"), format!("only the Guild ships forces from the board back to reserves; {f} cannot (1.06.04)"));
            return;
        }
        if self.karama_forbids(
            Ability::SgHome,
            &format!(
                "the Guild ships {} forces from {from} back to reserves",
                c.total
            ),
        ) {
            return;
        }
        if !self.use_shipment(f, true) {
            return;
        }
        let pieces = self.source_pieces(f, from, c.side, rule!("1.06.03.04"));
        let cost = Spice::new(u32::from(c.total)).half_up();
        self.check_payment(
            f,
            payment,
            cost,
            (Payee::Bank, None),
            rule!("2.06.07"),
            &format!("shipping {} forces back to reserves", c.total),
        );
        self.pay(f, Payee::Bank, cost);
        if let Some(s) = self.take_from(f, from, &pieces, c, rule!("2.06.05.02")) {
            self.st.faction_mut(f).reserves.add(s.forces());
        }
    }

    pub(in crate::replay) fn stronghold_card_in_movement(&mut self, f: Faction, s: Stronghold) {
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
        self.t.mv.last_entry = Some((f, t));
    }

    /// Guild Karama (1.14.05): the target's shipment this phase is undone.
    pub(in crate::replay) fn cancel_shipment(&mut self, target: Faction) {
        let Some(rec) = self.t.mv.last_ship.take().filter(|r| r.faction == target) else {
            self.v(
                rule!("1.14.05"),
                format!("{target} has no off-planet shipment to cancel right now"),
            );
            return;
        };
        let got = self
            .st
            .take_from_piece(target, rec.piece, rec.forces, Side::Unspecified);
        self.st.faction_mut(target).reserves.add(got.forces());
        if let Payee::Faction(g) = rec.payee {
            let back = self.st.faction_mut(g).spice.take(rec.cost);
            self.st.faction_mut(rec.payer).gain(back);
        } else {
            self.st.faction_mut(rec.payer).gain(rec.cost);
        }
    }
}
