//! Spice Blow and Nexus phase (1.02, 1.13.02, 1.10.01), with the Fremen worm rules.

use super::{Losses, Replay};
use crate::board::{Card, Territory};
use crate::dgn::{Assertion, Event, Pile, SpiceCard, Stmt};
use crate::state::SpiceDraw;
use dune::Spice;
use dune::{Faction, FactionSet};
use dune::{Rule, rule};

#[derive(Default)]
pub(crate) struct BlowData {
    pub(crate) done: [bool; 2],
    pub(crate) worms_in_pile: [u8; 2],
    pub(crate) first_draw: bool,
    pub(crate) nexus: bool,
    pub(crate) worm_territories: Vec<Territory>,
    pub(crate) noprotect: bool,
    /// The Fremen's protection of their ally was cancelled by a Karama (3.01.11.01), not
    /// declined by the Fremen (`B FR noprotect`).
    pub(crate) noprotect_karama: bool,
    pub(crate) allied: FactionSet,
    /// The territory card just revealed and the spice it placed, for a Harvester played right
    /// after it (000 3.02.05).
    pub(crate) just_blown: Option<(Territory, Spice)>,
}

fn pile_index(p: Pile) -> usize {
    match p {
        Pile::A => 0,
        Pile::B => 1,
    }
}

impl Replay {
    pub(crate) fn blow_event(&mut self, ev: &Event) {
        // A Harvester doubles the blow revealed just before it, nothing later (3.02.05).
        let just = self.t.blow.just_blown.take();
        match &ev.stmt {
            Stmt::Blow { pile, card } => self.blow(ev, *pile, *card),
            Stmt::PlayCard {
                faction,
                card: Card::Harvester,
            } => self.harvester(*faction, just),
            Stmt::PlayCard {
                faction,
                card: Card::Thumper,
            } => self.thumper(ev, *faction),
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
                if !self.deals.is_empty() {
                    self.deals_ally(*a, *b);
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
            _ => {
                crate::factions::ability_statement(self, ev);
            }
        }
    }

    /// A Nexus needs a worm this phase, after turn 1 (1.02.03, 1.02.06, 1.10.01).
    pub(crate) fn nexus_open(&mut self) -> bool {
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

    pub(crate) fn blow(&mut self, ev: &Event, pile: Pile, card: SpiceCard) {
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
            let (rule, also) = self.pile_rule(pile);
            self.v_also(rule, also, format!("pile {name}'s blow ended with its territory card; no more cards are turned for it"));
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
                let mut placed = Spice::ZERO;
                if self.st.storm != Some(sector)
                    && let Some(p) = t.piece(Some(sector))
                {
                    placed = Spice::new(u32::from(printed));
                    self.st.spice[p.index()] += placed;
                    self.map_spice_from_bank(placed, 1);
                }
                self.t.blow.just_blown = Some((t, placed));
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
                        let cite = self.pile_rule(pile);
                        self.devour_cited(t, &ev.asserts, cite);
                    }
                } else if let Some(pl) = placed {
                    let placer = self
                        .st
                        .in_play
                        .iter()
                        .find_map(|f| crate::factions::rules(f).places_worms(self));
                    if placer.is_none() {
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

    /// Harvester (000 3.02.05): played just after a spice blow is revealed, it doubles that
    /// blow (nothing to double when the blow fell in the storm).
    pub(crate) fn harvester(&mut self, f: Faction, just: Option<(Territory, Spice)>) {
        if !self.in_play_or_report(f) {
            return;
        }
        self.play_card(f, Card::Harvester, rule!("3.02.05"), false);
        let Some((t, placed)) = just else {
            self.v(
                rule!("3.02.05"),
                "the Harvester is played just after a spice blow is revealed (right after its territory card)",
            );
            return;
        };
        if let Some((sector, _)) = t.spice_blow()
            && let Some(p) = t.piece(Some(sector))
        {
            self.st.spice[p.index()] += placed;
            self.map_spice_from_bank(placed, 1);
        }
    }

    /// Thumper (000 3.02.12): after the first turn, at the beginning of the Spice Blow, instead
    /// of revealing a card, a worm as though a Shai-Hulud had been revealed on pile A: it strikes
    /// the territory of the pile's top card and brings a Nexus; the blow then goes on with the
    /// next card. It counts as a worm for the Shield Wall (docs/notation.md, Decisions).
    pub(crate) fn thumper(&mut self, ev: &Event, f: Faction) {
        if !self.in_play_or_report(f) {
            return;
        }
        self.play_card(f, Card::Thumper, rule!("3.02.12"), false);
        if self.st.turn <= 1 {
            self.v(
                rule!("3.02.12"),
                "the Thumper is played after the first turn",
            );
            return;
        }
        if self.t.blow.first_draw || self.t.blow.worms_in_pile[0] > 0 {
            self.v(
                rule!("3.02.12"),
                "the Thumper is played at the beginning of the Spice Blow, before a card is revealed",
            );
            return;
        }
        self.t.blow.first_draw = true;
        self.st.worms += 1;
        self.t.blow.nexus = true;
        self.t.blow.worms_in_pile[0] = 1;
        let top = match self.st.spice_deck.pile_a.last() {
            Some(SpiceDraw::Territory(t)) => Some(*t),
            _ => None,
        };
        if let Some(t) = top {
            self.devour(t, &ev.asserts, rule!("3.02.12"));
        }
    }

    /// The rule of a worm in this pile, with the rules that say the same: the Shai-Hulud rule
    /// (1.02.05) in the Basic game; in the Advanced game's double blow the pile's own rule
    /// (1.13.02.01 for pile A, 1.13.02.02 for pile B, which repeats pile A's procedure).
    pub(crate) fn pile_rule(&self, pile: Pile) -> (Rule, &'static [Rule]) {
        const A: &[Rule] = &[rule!("1.02.05")];
        const B: &[Rule] = &[rule!("1.13.02.01"), rule!("1.02.05")];
        match pile {
            _ if !self.st.options.advanced => (rule!("1.02.05"), &[]),
            Pile::A => (rule!("1.13.02.01"), A),
            Pile::B => (rule!("1.13.02.02"), B),
        }
    }

    /// A worm in a territory: every force there goes to the tanks and its spice to the bank
    /// (1.02.05), except the Fremen (2.04.07) and, unless they say otherwise, their ally (2.04.10).
    pub(crate) fn devour(&mut self, t: Territory, asserts: &[Assertion], rule: Rule) {
        self.devour_cited(t, asserts, (rule, &[]));
    }

    /// [`Replay::devour`], its losses checked under `cite` (a rule and its see-also list).
    pub(crate) fn devour_cited(
        &mut self,
        t: Territory,
        asserts: &[Assertion],
        cite: (Rule, &[Rule]),
    ) {
        let mut losses = Losses::default();
        // Factions an ability keeps from being devoured (the Fremen and their ally, 2.04.07,
        // 2.04.10), each with the rule its losses are checked under.
        let mut shelter = crate::factions::WormShelter::default();
        for f in self.st.in_play.iter() {
            crate::factions::rules(f).worm_shelter(self, t, &mut shelter);
        }
        for &p in t.pieces() {
            for f in self.st.in_play.iter() {
                if shelter.spared.contains(f) {
                    continue;
                }
                let s = self.st.wipe_piece(f, p);
                losses.add_forces(t, f, s);
            }
            let sp = std::mem::take(&mut self.st.spice[p.index()]);
            self.map_spice_from_bank(sp, -1);
            losses.add_spice(t, sp);
        }
        if !self.t.blow.worm_territories.contains(&t) {
            self.t.blow.worm_territories.push(t);
        }
        self.hit_board(t, None, crate::factions::Hit::Worm);
        self.check_losses_cited(asserts, &losses, cite, |f, _| {
            shelter.rules.iter().find(|(g, _)| *g == f).map(|(_, r)| *r)
        });
    }

    pub(crate) fn finish_blow(&mut self) {
        if self.t.blow.nexus && !self.deals.is_empty() {
            self.deals_after_nexus();
        }
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
