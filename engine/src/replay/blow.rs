//! Spice Blow and Nexus phase (1.02, 1.13.02, 1.10.01), with the Fremen worm rules.

use super::karama::Ability;
use super::{Losses, Replay};
use crate::board::Territory;
use crate::dgn::{Assertion, Event, Pile, SpiceCard, Stmt};
use crate::state::SpiceDraw;
use dune::Spice;
use dune::{Faction, FactionSet};
use dune::{Rule, rule};

#[derive(Default)]
pub(super) struct BlowData {
    done: [bool; 2],
    worms_in_pile: [u8; 2],
    first_draw: bool,
    nexus: bool,
    worm_territories: Vec<Territory>,
    noprotect: bool,
    /// The Fremen's protection of their ally was cancelled by a Karama (3.01.11.01), not
    /// declined by the Fremen (`B FR noprotect`).
    noprotect_karama: bool,
    allied: FactionSet,
}

fn pile_index(p: Pile) -> usize {
    match p {
        Pile::A => 0,
        Pile::B => 1,
    }
}

impl Replay {
    pub(super) fn blow_event(&mut self, ev: &Event) {
        match &ev.stmt {
            Stmt::Blow { pile, card } => self.blow(ev, *pile, *card),
            Stmt::Ride {
                faction,
                from,
                to,
                forces,
            } => {
                if *faction != Faction::Fremen {
                    self.v(
                        rule!("2.04.08"),
                        format!("only the Fremen ride the worm, not {faction}"),
                    );
                    return;
                }
                if !self.t.blow.worm_territories.contains(&from.territory) {
                    self.v(rule!("2.04.08"), format!("no worm appeared in {} this phase: the Fremen can ride only from a worm's territory", from.territory.name()));
                    return;
                }
                let Some(dest) = self.dest_piece(*to, rule!("2.04.08")) else {
                    return;
                };
                let mut ok = true;
                if dest.in_storm(self.st.storm) {
                    self.v(
                        rule!("1.01.04"),
                        format!("the Fremen cannot ride into {}: it is in the storm", to),
                    );
                    ok = false;
                }
                if let Some(a) = self.st.ally(Faction::Fremen)
                    && self.st.in_territory(a, to.territory).total() > 0
                {
                    self.v(
                        rule!("2.04.08"),
                        format!(
                            "the Fremen ride to a territory without allied forces; {a} is in {}",
                            to.territory.name()
                        ),
                    );
                    ok = false;
                }
                if self.st.stronghold_full_for(to.territory, Faction::Fremen) {
                    let others = self.st.occupants(to.territory);
                    self.v(
                        rule!("1.06.05.09"),
                        format!(
                            "the Fremen cannot ride into {}: {} are already there",
                            to.territory.name(),
                            Self::list(&others)
                        ),
                    );
                    ok = false;
                }
                if ok
                    && let Some(taken) =
                        self.take_forces(Faction::Fremen, *from, *forces, rule!("2.04.08"))
                {
                    self.st.stack_mut(Faction::Fremen, dest).add(taken);
                }
            }
            Stmt::NoProtect { faction } => {
                if *faction != Faction::Fremen {
                    self.v(
                        rule!("2.04.10"),
                        "only the Fremen decide whether worms spare their ally",
                    );
                }
                self.t.blow.noprotect = true;
            }
            Stmt::Ally(a, b) => {
                if !self.nexus_open() {
                    return;
                }
                if !self.in_play_or_report(*a) || !self.in_play_or_report(*b) {
                    return;
                }
                if a == b {
                    self.v(rule!("1.10.01.03"), format!("{a} cannot ally with itself"));
                    return;
                }
                for f in [*a, *b] {
                    if self.t.blow.allied.contains(f) {
                        self.v(rule!("1.10.01.01"), format!("{f} has already allied in this Nexus (a player may ally once per Nexus)"));
                    }
                    if let Some(x) = self.st.ally(f) {
                        self.v(
                            rule!("1.10.01.04"),
                            format!(
                                "{f} is already allied with {x}; it must break that alliance first"
                            ),
                        );
                        return;
                    }
                }
                self.t.blow.allied.insert(*a);
                self.t.blow.allied.insert(*b);
                self.st.faction_mut(*a).ally = Some(*b);
                self.st.faction_mut(*b).ally = Some(*a);
            }
            Stmt::Unally(a) => {
                if !self.nexus_open() {
                    return;
                }
                match self.st.ally(*a) {
                    Some(b) => {
                        self.st.faction_mut(*a).ally = None;
                        self.st.faction_mut(b).ally = None;
                    }
                    None => self.v(rule!("1.10.01.05"), format!("{a} is not in an alliance")),
                }
            }
            Stmt::NexusPass => {
                self.nexus_open();
            }
            _ => {}
        }
    }

    /// A Nexus needs a worm this phase, after turn 1 (1.02.03, 1.02.06, 1.10.01).
    fn nexus_open(&mut self) -> bool {
        if self.st.turn <= 1 {
            self.v(
                rule!("1.02.03"),
                "there is no Nexus on turn 1: alliances can be made only in a later Nexus",
            );
            false
        } else if !self.t.blow.nexus {
            self.v(rule!("1.02.06"), "no worm has appeared this phase, so there is no Nexus: alliances cannot be made or broken");
            false
        } else {
            true
        }
    }

    fn blow(&mut self, ev: &Event, pile: Pile, card: SpiceCard) {
        let i = pile_index(pile);
        if pile == Pile::B && !self.st.options.advanced {
            self.v(
                rule!("1.13.02"),
                "pile B exists only with the Advanced double spice blow",
            );
            return;
        }
        if pile == Pile::B && !self.t.blow.done[0] {
            self.v(
                rule!("1.13.02.02"),
                "pile B is blown after pile A's blow has ended with a territory card",
            );
        }
        if self.t.blow.done[i] {
            let name = if pile == Pile::A { "A" } else { "B" };
            self.v(rule!("1.02.05"), format!("pile {name}'s blow ended with its territory card; no more cards are turned for it"));
            return;
        }
        let draw = match card {
            SpiceCard::Territory(t, _) => SpiceDraw::Territory(t),
            SpiceCard::Worm(_) => SpiceDraw::Worm,
        };
        let reshuffled = self.st.spice_deck.remaining() == 0;
        if reshuffled {
            self.st.spice_deck.reshuffle();
        }
        if !self.st.spice_deck.draw(draw) {
            let what = match card {
                SpiceCard::Territory(t, _) => format!("the {} card", t.name()),
                SpiceCard::Worm(_) => "a Shai-Hulud card".to_string(),
            };
            self.v(
                rule!("1.02.01"),
                format!(
                    "{what} is not in the spice deck: it has been drawn since the last reshuffle"
                ),
            );
        }
        if !self.t.blow.first_draw {
            self.t.blow.first_draw = true;
            if let Some((pos, peeked)) = self.pending_peek.take() {
                let same = match (peeked, card) {
                    (SpiceCard::Territory(a, _), SpiceCard::Territory(b, _)) => a == b,
                    (SpiceCard::Worm(_), SpiceCard::Worm(_)) => true,
                    _ => false,
                };
                if !same && !reshuffled {
                    self.v(rule!("2.01.07"), format!("the Atreides' Wormsign peek (line {}) saw a different top card than the one revealed now", pos.line));
                }
            }
        }
        match card {
            SpiceCard::Territory(t, amount) => {
                let Some((sector, printed)) = t.spice_blow() else {
                    return;
                };
                if let Some(a) = amount
                    && a != printed
                {
                    self.v(
                        rule!("1.02.04"),
                        format!("the {} spice card shows {printed} spice, not {a}", t.name()),
                    );
                }
                if self.st.storm != Some(sector)
                    && let Some(p) = t.piece(Some(sector))
                {
                    self.st.spice[p.index()] += Spice::new(u32::from(printed));
                }
                let deck_pile = if pile == Pile::A {
                    &mut self.st.spice_deck.pile_a
                } else {
                    &mut self.st.spice_deck.pile_b
                };
                deck_pile.push(draw);
                self.t.blow.done[i] = true;
            }
            SpiceCard::Worm(placed) => {
                if self.st.turn <= 1 {
                    if placed.is_some() {
                        self.v(
                            rule!("1.02.02"),
                            "Shai-Hulud cards are ignored on turn 1: no worm is placed",
                        );
                    }
                    self.st.spice_deck.set_aside += 1;
                    return;
                }
                self.st.worms += 1;
                self.t.blow.nexus = true;
                let k = self.t.blow.worms_in_pile[i];
                self.t.blow.worms_in_pile[i] = k.saturating_add(1);
                let top = {
                    let p = if pile == Pile::A {
                        &self.st.spice_deck.pile_a
                    } else {
                        &self.st.spice_deck.pile_b
                    };
                    match p.last() {
                        Some(SpiceDraw::Territory(t)) => Some(*t),
                        _ => None,
                    }
                };
                if k == 0 {
                    if placed.is_some() {
                        self.v(rule!("2.04.15"), "the first worm of a blow strikes the territory of the pile's top card; only later worms are placed by the Fremen");
                    }
                    if let Some(t) = top {
                        self.devour(t, &ev.asserts, rule!("1.02.05"));
                    }
                } else if let Some(pl) = placed {
                    if !(self.st.options.advanced && self.st.plays(Faction::Fremen)) {
                        self.v(
                            rule!("2.04.15"),
                            "only the Fremen (Advanced) place further worms of a blow",
                        );
                    } else if !pl.territory.is_sand() {
                        self.v(
                            rule!("2.04.15"),
                            format!(
                                "worms are placed in sand territories; {} is not",
                                pl.territory.name()
                            ),
                        );
                    } else {
                        self.devour(pl.territory, &ev.asserts, rule!("2.04.15"));
                    }
                }
                let deck_pile = if pile == Pile::A {
                    &mut self.st.spice_deck.pile_a
                } else {
                    &mut self.st.spice_deck.pile_b
                };
                deck_pile.push(SpiceDraw::Worm);
            }
        }
    }

    /// A worm in a territory: every force there goes to the tanks and its spice to the bank
    /// (1.02.05), except the Fremen (2.04.07) and, unless they say otherwise, their ally (2.04.10).
    pub(super) fn devour(&mut self, t: Territory, asserts: &[Assertion], rule: Rule) {
        let mut losses = Losses::default();
        let fremen_ally = if self.st.plays(Faction::Fremen) && !self.t.blow.noprotect {
            self.st.ally(Faction::Fremen)
        } else {
            None
        };
        // A Karama preventing 2.04.07 lets this worm take the Fremen too.
        let wormproof_block = if self.st.in_territory(Faction::Fremen, t).total() > 0 {
            self.karama_take(Ability::FrWormproof)
        } else {
            None
        };
        let fremen_spared = wormproof_block.is_none();
        for &p in t.pieces() {
            for f in self.st.in_play.iter() {
                if (f == Faction::Fremen && fremen_spared) || Some(f) == fremen_ally {
                    continue;
                }
                let s = self.st.wipe_piece(f, p);
                losses.add_forces(t, f, s);
            }
            let sp = std::mem::take(&mut self.st.spice[p.index()]);
            losses.add_spice(t, sp);
        }
        if !self.t.blow.worm_territories.contains(&t) {
            self.t.blow.worm_territories.push(t);
        }
        // What decides a Fremen's or their ally's losses is the Fremen ability (2.04.07, 2.04.10)
        // or the Karama that stopped it (3.01.11).
        let fremen = Some(wormproof_block.map_or(rule!("2.04.07"), |b| b.rule()));
        let ally = if self.st.plays(Faction::Fremen) {
            self.st.ally(Faction::Fremen)
        } else {
            None
        };
        let ally_rule = Some(if self.t.blow.noprotect_karama {
            rule!("3.01.11.01")
        } else {
            rule!("2.04.10")
        });
        self.check_losses_by(asserts, &losses, rule, |f, _| {
            if f == Faction::Fremen {
                fremen
            } else if Some(f) == ally {
                ally_rule
            } else {
                None
            }
        });
    }

    /// A Karama cancels the Fremen's protection of their ally (2.04.10) for this phase.
    pub(super) fn karama_unprotect(&mut self) {
        self.t.blow.noprotect = true;
        self.t.blow.noprotect_karama = true;
    }

    /// A worm from the Fremen Karama power (1.14.03): counts as a worm and opens a Nexus.
    pub(super) fn karama_worm(&mut self, t: Territory, asserts: &[Assertion]) {
        self.st.worms += 1;
        self.t.blow.nexus = true;
        self.devour(t, asserts, rule!("1.14.03"));
    }

    pub(super) fn finish_blow(&mut self) {
        if !self.t.blow.done[0] {
            self.v(
                rule!("1.02.01"),
                "the spice blow is not logged (or pile A never reached a territory card)",
            );
        }
        if self.st.options.advanced && !self.t.blow.done[1] {
            self.v(
                rule!("1.13.02.02"),
                "the second spice blow (pile B) is not logged (or never reached a territory card)",
            );
        }
        if self.st.turn <= 1 {
            // 1.02.02: turn-1 Shai-Hulud cards go back into the deck after the phase.
            let n = std::mem::take(&mut self.st.spice_deck.set_aside);
            self.st.spice_deck.worms += n;
        }
    }
}
