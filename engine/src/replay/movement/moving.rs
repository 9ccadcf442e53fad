//! Force movement (1.06.05): paths, range, ornithopters, the storm, the Shield Wall card's sent
//! forces (4.03.03.05).

use super::*;
use crate::factions::ForceKind;

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
        let advisors = self.st.faction(f).sheet.kinds.two_sided() && c.side == Side::Advisor;
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
        // Without ornithopters a group moves as far as its slowest kind (1.06.05.03: one
        // territory; the Ixians' Cyborgs two, 000 2.07.12).
        let kinds = self.st.faction(f).sheet.kinds;
        let slowest = [
            (c.total > c.starred, ForceKind::Plain),
            (c.starred > 0, ForceKind::Starred),
        ]
        .into_iter()
        .filter(|(moved, _)| *moved)
        .map(|(_, k)| (k, *kinds.of(k)))
        .min_by_key(|(_, k)| k.moves);
        let kind_range = slowest.filter(|(_, k)| k.moves > 1).map(|(kind, k)| {
            (
                k,
                crate::factions::kind_rule(f, kind, crate::factions::Aspect::Moves),
            )
        });
        let mut range: u8 = if ornithopters {
            3
        } else {
            kind_range.map_or(1, |(k, _)| k.moves)
        };
        // A faction's own range (the Fremen's two territories, 2.04.06).
        let own = crate::factions::rules(f).move_range(self, c).or_else(|| {
            self.st
                .in_play
                .iter()
                .find_map(|g| crate::factions::rules(g).move_range_from(self, f, from.territory))
        });
        let prevented = own.and_then(|m| m.prevented);
        if let Some(m) = own {
            range = range.max(m.range);
        }
        let habbanya_card = from.territory == Territory::HabbanyaSietch
            && self.st.stronghold_card_holder(Stronghold::HabbanyaSietch) == Some(f);
        if habbanya_card {
            range += 2;
        }
        // Abilities of the factions at the table that lengthen this move or let it through the
        // storm, used up by it (CHOAM's Kulon and Jubba Cloak, 000 2.09.07.04, 2.09.10.02).
        let seated: Vec<Faction> = self.st.in_play.iter().collect();
        let bonus = seated
            .iter()
            .find_map(|&g| crate::factions::rules(g).move_bonus(self, f));
        if let Some((k, _)) = bonus {
            range += k;
        }
        let through_storm = seated
            .iter()
            .find_map(|&g| crate::factions::rules(g).move_through_storm(self, f));
        let path_storm = if through_storm.is_some() { None } else { storm };
        // The Ornithopter card: one move of up to three territories (000 3.03.06.01).
        let card_range = self.t.cards.ornithopter.filter(|&g| g == f);
        if card_range.is_some() {
            self.t.cards.ornithopter = None;
            range = range.max(3);
        }
        // Its second move uses other forces than the first (000 3.03.06.02).
        if let Some((g, Some(first))) = self.t.cards.second_move
            && g == f
            && self.t.mv.moves >= 2
            && from.territory == first
        {
            self.v(
                rule!("3.03.06.02"),
                format!("{f}'s second move with the Ornithopter uses other forces than its first, which went to {}", first.name()),
            );
        }
        // Advisors have no ornithopters even beside the Bene Gesserit's fighters in Arrakeen or
        // Carthag (2.02.12).
        let advisors_grounded = advisors
            && [Territory::Arrakeen, Territory::Carthag]
                .iter()
                .any(|&x| self.st.in_territory(f, x).fighting() > 0);
        let full = |r: &Self, x: Territory| {
            !advisors
                && r.st.stronghold_full_for(x, f)
                && !r.st.in_play.iter().any(|g| {
                    crate::factions::rules(g)
                        .occupancy_exempt(r, f, x)
                        .is_some()
                })
        };
        let mut legal = true;
        let blocked = (t != from.territory)
            .then(|| {
                seated
                    .iter()
                    .find_map(|&g| crate::factions::rules(g).move_blocked(self, f, t))
            })
            .flatten();
        if let Some((rule, why)) = blocked {
            self.v(rule, why);
            legal = false;
        } else if !self.st.on_map(t) || !self.st.on_map(from.territory) {
            let off = if self.st.on_map(t) { from.territory } else { t };
            self.v(
                rule!("2.07.17"),
                format!("{f} cannot move: the {} is not on the map", off.name()),
            );
            legal = false;
        } else if self.st.in_storm(dest) {
            // An ability that lets the move through the storm still never lets it stop there
            // (CHOAM's Jubba Cloak, 000 2.09.10.02).
            self.v(
                through_storm.unwrap_or(rule!("1.06.05.06")),
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
        let link = self.st.link();
        if legal && !pieces.is_empty() {
            let cost = b.path_cost_linked(&pieces, dest, path_storm, |x| full(self, x), link);
            let range_rule = if let Some((_, r)) = bonus {
                r
            } else if card_range.is_some() {
                rule!("3.03.06.01")
            } else if habbanya_card {
                rule!("4.03.03.03")
            } else if advisors_grounded {
                // The second side's own rule (advisors 2.02.12; Smugglers, 000 2.13.05).
                kinds.of(ForceKind::Flipped).rule
            } else if let Some(b) = prevented.filter(|_| !ornithopters) {
                b.rule()
            } else if let Some(m) = own.filter(|_| !ornithopters) {
                m.rule
            } else if let Some((_, rule)) = kind_range.filter(|_| !ornithopters) {
                rule
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
            } else if let Some((k, _)) = kind_range {
                format!("as {}s without ornithopters", k.name)
            } else {
                "without ornithopters (no forces in Arrakeen or Carthag)".to_string()
            };
            match cost {
                None if b
                    .path_cost_linked(&pieces, dest, None, |x| full(self, x), link)
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
                        && b.path_cost_linked(&pieces, dest, None, |x| full(self, x), link)
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
            self.entered_from(f, Some(from.territory), t, advisors);
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
        for step in via.iter().map(|p| p.territory).chain(std::iter::once(to)) {
            if !self.st.borders(prev, step) {
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
                if step.pieces().iter().all(|&p| self.st.in_storm(p)) {
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
