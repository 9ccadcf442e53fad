//! Force movement (1.06.05): paths, range, ornithopters, the storm, the Shield Wall card's sent
//! forces (4.03.03.05).

use super::*;

impl Replay {
    pub(crate) fn move_forces(
        &mut self,
        f: Faction,
        from: Place,
        via: &[Place],
        to: Place,
        c: ForceCount,
    ) {
        if self.t.mv.moves > self.t.mv.extra_moves {
            // With a Hajr played, the card sets the number of moves (3.01.09).
            let rule = if self.t.mv.extra_moves > 0 {
                rule!("3.01.09")
            } else {
                rule!("1.06.05.01")
            };
            self.v(
                rule,
                format!("{f} has already moved this turn (one move; Hajr adds one)"),
            );
            return;
        }
        self.t.mv.moves += 1;
        let advisors = self.st.faction(f).sheet.advisors && c.side == Side::Advisor;
        let storm = self.st.storm;
        let pieces = self.source_pieces(f, from, c.side, rule!("1.06.05.06"));
        let Some(dest) = self.dest_piece(to, rule!("1.06.05.08")) else {
            return;
        };
        let t = to.territory;
        // Range (1.06.05.03-.04, 2.04.06, 4.03.03.03). Advisors neither grant nor use
        // ornithopters (2.02.12).
        let ornithopters = !advisors
            && [Territory::Arrakeen, Territory::Carthag]
                .iter()
                .any(|&x| self.st.in_territory(f, x).fighting() > 0);
        let mut range: u8 = if ornithopters { 3 } else { 1 };
        // A faction's own range (the Fremen's two territories, 2.04.06).
        let own = crate::factions::rules(f).move_range(self);
        let prevented = own.and_then(|m| m.prevented);
        if let Some(m) = own {
            range = range.max(m.range);
        }
        let habbanya_card = from.territory == Territory::HabbanyaSietch
            && self.st.stronghold_card_holder(Stronghold::HabbanyaSietch) == Some(f);
        if habbanya_card {
            range += 2;
        }
        // Advisors have no ornithopters even beside the Bene Gesserit's fighters in Arrakeen or
        // Carthag (2.02.12).
        let advisors_grounded = advisors
            && [Territory::Arrakeen, Territory::Carthag]
                .iter()
                .any(|&x| self.st.in_territory(f, x).fighting() > 0);
        let full = |r: &Self, x: Territory| !advisors && r.st.stronghold_full_for(x, f);
        let mut legal = true;
        if dest.in_storm(storm) {
            self.v(
                rule!("1.06.05.06"),
                format!("{f} cannot move into {to}: it is in the storm"),
            );
            legal = false;
        } else if t != from.territory && full(self, t) {
            let others = self.st.occupants(t);
            self.v(
                rule!("1.06.05.09"),
                format!(
                    "{f} cannot move into {}: {} are already there",
                    t.name(),
                    Self::list(&others)
                ),
            );
            legal = false;
        }
        let b = board();
        if legal && !pieces.is_empty() {
            let cost = b.path_cost(&pieces, dest, storm, |x| full(self, x));
            let range_rule = if habbanya_card {
                rule!("4.03.03.03")
            } else if advisors_grounded {
                rule!("2.02.12")
            } else if let Some(b) = prevented.filter(|_| !ornithopters) {
                b.rule()
            } else if let Some(m) = own.filter(|_| !ornithopters) {
                m.rule
            } else if ornithopters {
                rule!("1.06.05.04")
            } else {
                rule!("1.06.05.03")
            };
            let why = if habbanya_card {
                format!(
                    "from Habbanya Sietch with its card ({} + 2)",
                    range.saturating_sub(2)
                )
            } else if advisors_grounded {
                "as advisors, which cannot use ornithopters".to_string()
            } else if ornithopters {
                "with ornithopters".to_string()
            } else if let Some(b) = prevented {
                format!("without ornithopters, since {}", b.describe())
            } else if let Some(m) = own {
                m.why.to_string()
            } else {
                "without ornithopters (no forces in Arrakeen or Carthag)".to_string()
            };
            match cost {
                None if b
                    .path_cost(&pieces, dest, None, |x| full(self, x))
                    .is_some() =>
                {
                    self.v(
                        rule!("1.06.05.06"),
                        format!(
                            "{f} cannot move from {} to {}: every path crosses the storm",
                            from.territory.name(),
                            t.name()
                        ),
                    );
                }
                None => {
                    self.v(rule!("1.06.05.09"), format!("{f} cannot move from {} to {}: every path passes through a stronghold holding two other factions", from.territory.name(), t.name()));
                }
                Some(d)
                    if d > range
                        && b.path_cost(&pieces, dest, None, |x| full(self, x))
                            .is_some_and(|clear| clear <= range) =>
                {
                    self.v(
                        rule!("1.06.05.06"),
                        format!(
                            "{f} cannot move from {} to {}: the short way crosses the storm and the way around takes {d} territories",
                            from.territory.name(),
                            t.name()
                        ),
                    );
                }
                Some(d) if d > range => {
                    self.v(
                        range_rule,
                        format!(
                            "{f} can move {range} territor{} {why}; {} to {} takes {d}",
                            if range == 1 { "y" } else { "ies" },
                            from.territory.name(),
                            t.name()
                        ),
                    );
                }
                Some(_) => {}
            }
            if !via.is_empty() {
                self.check_via(f, from.territory, via, t, range, range_rule);
            }
        }
        let had_advisors = self.st.in_territory(f, t).advisors > 0;
        let hidden = self.hide_shield_wall_sent(f, from, &pieces, c);
        let taken = self.take_from(f, from, &pieces, c, rule!("1.06.05"));
        for &(p, forces) in &hidden {
            let s = self.st.stack_mut(f, p);
            s.normal = s.normal.saturating_add(forces.normal);
            s.starred = s.starred.saturating_add(forces.starred);
        }
        let Some(mut moved) = taken else {
            return;
        };
        crate::factions::rules(f).arrive(self, t, &mut moved, advisors, had_advisors);
        self.st.stack_mut(f, dest).add(moved);
        if t != from.territory {
            self.t.mv.last_entry = Some((f, t));
        }
    }

    /// 4.03.03.05: forces the Fremen sent to the Shield Wall with its card this turn cannot move;
    /// other Fremen forces there can. Takes the sent forces off the source pieces while the move
    /// is made (the caller puts them back) and returns them; reports a move that needs them.
    pub(crate) fn hide_shield_wall_sent(
        &mut self,
        f: Faction,
        from: Place,
        pieces: &[Piece],
        c: ForceCount,
    ) -> Vec<(Piece, Forces)> {
        if from.territory != Territory::ShieldWall || self.t.mv.shield_wall_sent.is_empty() {
            return Vec::new();
        }
        let mut sent_here = Forces::default();
        let mut hidden = Vec::new();
        for &(g, p, forces) in &self.t.mv.shield_wall_sent {
            if g == f && pieces.contains(&p) {
                let s = self.st.stack(f, p);
                let h = Forces::new(forces.normal.min(s.normal), forces.starred.min(s.starred));
                sent_here.add(h);
                hidden.push((p, h));
            }
        }
        if sent_here.is_empty() {
            return Vec::new();
        }
        let avail = self.available(f, pieces, c.side);
        let free = Forces::new(
            avail.normal.saturating_sub(sent_here.normal),
            avail.starred.saturating_sub(sent_here.starred),
        );
        let want = Forces::from_count(c);
        if !free.covers(want) && avail.covers(want) {
            self.v(
                rule!("4.03.03.05"),
                format!(
                    "the Fremen move {c} from the Shield Wall, but {sent_here} of their {avail} forces there were sent this turn with the Shield Wall card and cannot move until next turn ({free} can move)"
                ),
            );
            // Reported: the move is replayed as logged.
            return Vec::new();
        }
        for &(p, h) in &hidden {
            let s = self.st.stack_mut(f, p);
            s.normal -= h.normal;
            s.starred -= h.starred;
        }
        hidden
    }

    /// A path written out (`A>B>C`): each step crosses a border, no step is a full stronghold or
    /// wholly in the storm, and the steps fit the range.
    pub(crate) fn check_via(
        &mut self,
        f: Faction,
        from: Territory,
        via: &[Place],
        to: Territory,
        range: u8,
        range_rule: Rule,
    ) {
        let mut prev = from;
        let storm = self.st.storm;
        for step in via.iter().map(|p| p.territory).chain(std::iter::once(to)) {
            if !prev.neighbours().contains(&step) {
                self.v(
                    rule!("1.06.05"),
                    format!("{} does not border {}", prev.name(), step.name()),
                );
                return;
            }
            if step != to {
                if self.st.stronghold_full_for(step, f) {
                    self.v(
                        rule!("1.06.05.09"),
                        format!(
                            "{f} cannot pass through {}: two other factions are there",
                            step.name()
                        ),
                    );
                }
                if step.pieces().iter().all(|p| p.in_storm(storm)) {
                    self.v(
                        rule!("1.06.05.06"),
                        format!(
                            "{f} cannot pass through {}: it is in the storm",
                            step.name()
                        ),
                    );
                }
            }
            prev = step;
        }
        if via.len() + 1 > usize::from(range) {
            self.v(
                range_rule,
                format!(
                    "the path written crosses {} borders; {f} can move {range}",
                    via.len() + 1
                ),
            );
        }
    }
}
