//! The Bene Gesserit's spiritual advisors (2.02.05, 2.02.11) and flips between advisors and
//! fighters (2.02.15-2.02.19).

use super::*;

impl Replay {
    pub(in crate::replay) fn spirit(&mut self, f: Faction, to: Place, c: ForceCount) {
        if f != Faction::BeneGesserit {
            self.v(
                rule!("2.02.05"),
                format!("only the Bene Gesserit send spiritual advisors, not {f}"),
            );
            return;
        }
        if self.karama_forbids(
            Ability::BgSpirit,
            &format!("the Bene Gesserit send a spiritual advisor to {to}"),
        ) {
            return;
        }
        let Some(rec) = self
            .t
            .mv
            .last_ship
            .as_mut()
            .filter(|r| r.faction != f && !r.responded)
        else {
            self.v(rule!("2.02.05"), "the Bene Gesserit send a spiritual advisor only right after another faction's shipment from off-planet, once per shipment");
            return;
        };
        rec.responded = true;
        let ship_piece = rec.piece;
        if c.total != 1 {
            self.v(
                rule!("2.02.05"),
                format!(
                    "the Bene Gesserit send 1 force per shipment, not {}",
                    c.total
                ),
            );
        }
        if self.st.faction(f).reserves.is_empty() {
            self.v(
                rule!("2.02.05"),
                "the Bene Gesserit have no forces in reserve",
            );
            return;
        }
        let one = ForceCount {
            total: 1,
            starred: 0,
            side: Side::Fighter,
        };
        if to.territory == Territory::PolarSink {
            if let Some(p) = Territory::PolarSink.piece(None) {
                self.st.place_from_reserves(f, p, one, false);
            }
            return;
        }
        if !self.st.options.advanced {
            self.v(rule!("2.02.11"), "sending an advisor with the shipment is an Advanced ability; in the Basic game the spiritual advisor goes to the Polar Sink");
            return;
        }
        let same = to.territory == ship_piece.territory()
            && to.sector.is_none_or(|s| Some(s) == ship_piece.sector());
        if !same {
            self.v(rule!("2.02.11"), format!("the advisor goes to the same territory and sector as the shipment ({ship_piece}), not {to}"));
            return;
        }
        if self.st.in_territory(f, to.territory).fighting() > 0 {
            self.v(
                rule!("2.02.11"),
                format!(
                    "the Bene Gesserit have fighters in {}, so they cannot send an advisor there",
                    to.territory.name()
                ),
            );
            return;
        }
        self.st.place_from_reserves(
            f,
            ship_piece,
            ForceCount {
                side: Side::Advisor,
                ..one
            },
            true,
        );
    }

    pub(in crate::replay) fn flip(&mut self, f: Faction, place: Place, to: Side) {
        if f != Faction::BeneGesserit || !self.st.options.advanced {
            self.v(
                rule!("2.02.10"),
                "only the Bene Gesserit flip advisors and fighters, in an Advanced game",
            );
            return;
        }
        let t = place.territory;
        let storm = self.st.storm;
        match to {
            Side::Fighter => {
                let take_up_arms = self.t.mv.take_up_arms == Some(t);
                let wartime = !self.t.mv.started;
                if !take_up_arms && !wartime {
                    self.v(rule!("2.02.17"), "advisors flip to fighters before anyone's shipment and movement (Wartime) or right after moving into an occupied territory (Take Up Arms)");
                    return;
                }
                if let Some(a) = self.st.ally(f)
                    && self.st.in_territory(a, t).total() > 0
                {
                    self.v(
                        rule!("2.02.18"),
                        format!("advisors cannot flip to fighters with an ally ({a}) present"),
                    );
                    return;
                }
                let stopped = if take_up_arms {
                    self.karama_forbids(
                        Ability::BgTakeUpArms,
                        &format!("the Bene Gesserit take up arms in {}", t.name()),
                    )
                } else {
                    self.karama_forbids(
                        Ability::BgWartime,
                        &format!(
                            "the Bene Gesserit flip their advisors in {} (Wartime)",
                            t.name()
                        ),
                    )
                };
                if stopped {
                    return;
                }
                if take_up_arms && self.st.stronghold_full_for(t, f) {
                    self.v(
                        rule!("2.02.16"),
                        format!(
                            "advisors cannot take up arms in {}: two other factions are there",
                            t.name()
                        ),
                    );
                    return;
                }
                let mut flipped = false;
                for &p in t.pieces() {
                    if place.sector.is_some_and(|s| Some(s) != p.sector()) {
                        continue;
                    }
                    let s = self.st.stack(f, p);
                    if s.advisors == 0 {
                        continue;
                    }
                    if p.in_storm(storm) {
                        self.v(
                            rule!("2.02.19"),
                            format!("advisors in {p} are under the storm and cannot flip"),
                        );
                        continue;
                    }
                    let st = self.st.stack_mut(f, p);
                    st.normal = st.normal.saturating_add(st.advisors);
                    st.advisors = 0;
                    flipped = true;
                }
                if !flipped && self.st.in_territory(f, t).advisors == 0 {
                    self.v(
                        rule!("2.02.17"),
                        format!("the Bene Gesserit have no advisors in {}", t.name()),
                    );
                }
            }
            _ => {
                let intrusion = self
                    .t
                    .mv
                    .last_entry
                    .is_some_and(|(g, x)| x == t && g != f && self.st.ally(f) != Some(g));
                if !intrusion {
                    self.v(rule!("2.02.15"), "fighters flip to advisors only when a non-allied faction's forces have just entered their territory (Intrusion)");
                    return;
                }
                for &p in t.pieces() {
                    let st = self.st.stack_mut(f, p);
                    st.advisors = st.advisors.saturating_add(st.normal);
                    st.normal = 0;
                }
            }
        }
    }
}
