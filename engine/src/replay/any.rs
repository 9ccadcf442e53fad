//! Statements allowed in any phase: bribes (1.12), the Emperor's gifts (2.03.06), Karama
//! (3.01.11, 1.14), Truthtrance (3.01.22), deals, rulings and the end of the game.

use super::Replay;
use crate::board::Card;
use crate::dgn::{Event, KaramaUse, Stmt};
use crate::faction::Faction;
use crate::state::Phase;

impl Replay {
    pub(super) fn any_event(&mut self, ev: &Event) {
        match &ev.stmt {
            Stmt::Bribe {
                from, to, amount, ..
            } => {
                if !self.in_play_or_report(*from) || !self.in_play_or_report(*to) {
                    return;
                }
                if self.st.turn == 0 {
                    self.v(
                        "1.12.04",
                        "no deal or bribe can be made during setup (before 0.16 ends)",
                    );
                    return;
                }
                if self.st.phase == Phase::Mentat {
                    self.v(
                        "1.12.05",
                        "bribes cannot be made during or after the Mentat Pause (rulings.md 21)",
                    );
                    return;
                }
                if from == to {
                    self.v("1.12.00", "a bribe is between two players");
                    return;
                }
                if self.allies(*from, *to) {
                    self.v(
                        "1.12.01",
                        format!(
                            "{from} and {to} are allies: allies may make deals, but not bribes"
                        ),
                    );
                    return;
                }
                if *amount > self.spice(*from) {
                    self.v(
                        "1.12.02",
                        format!(
                            "{from} pays a bribe of {amount} but has only {} spice",
                            self.spice(*from)
                        ),
                    );
                }
                let paid = (*amount).min(self.spice(*from));
                self.st.faction_mut(*from).spice -= paid;
                self.st.faction_mut(*to).bribes += paid;
            }
            Stmt::Gift { from, to, amount } => {
                if *from != Faction::Emperor || self.st.ally(*from) != Some(*to) {
                    self.v("1.10.02.03", format!("allies may not give each other spice; only the Emperor gives to its ally (2.03.06), and {from} is not the Emperor allied with {to}"));
                    return;
                }
                if *amount > self.spice(*from) {
                    self.v(
                        "2.03.06",
                        format!(
                            "the Emperor gives {amount} but has only {} spice",
                            self.spice(*from)
                        ),
                    );
                }
                let paid = (*amount).min(self.spice(*from));
                self.st.faction_mut(*from).spice -= paid;
                self.st.faction_mut(*to).gain(paid);
            }
            Stmt::Karama {
                faction,
                card,
                usage,
            } => self.karama(ev, *faction, *card, usage),
            Stmt::Truthtrance { from, to, .. } => {
                if from == to {
                    self.v("3.01.22", "Truthtrance asks another player");
                }
                self.play_card(*from, Card::Truthtrance, "3.01.22", false);
            }
            Stmt::End { turn, .. } => {
                if *turn != self.st.turn {
                    self.v(
                        "0.02",
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
        self.play_card(f, card, "3.01.11", false);
        let power: Option<(Faction, Phase, &'static str)> = match usage {
            KaramaUse::Cancel(_) | KaramaUse::Prevent(_) => None,
            KaramaUse::SeePlan(_) => Some((Faction::Atreides, Phase::Battle, "1.14.01")),
            KaramaUse::ReviveForces(_) | KaramaUse::ReviveLeader(_) => {
                Some((Faction::Emperor, Phase::Revival, "1.14.02"))
            }
            KaramaUse::Worm(_) => Some((Faction::Fremen, Phase::SpiceBlow, "1.14.03")),
            KaramaUse::TakeHand(_) => Some((Faction::Harkonnen, Phase::Bidding, "1.14.04")),
            KaramaUse::CancelShipment(_) => Some((Faction::Guild, Phase::Movement, "1.14.05")),
        };
        let Some((owner, phase, rule)) = power else {
            return;
        };
        if f != owner {
            let rule = if f == Faction::BeneGesserit {
                "1.14.06"
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
            self.v("1.13.06", "faction Karama powers are Advanced rules");
            return;
        }
        if self.st.faction(f).karama_power_used {
            self.v(
                "1.13.06",
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
                        "1.14.03",
                        "the Fremen Karama worm can be placed only after turn 1",
                    );
                } else if !place.territory.is_sand() {
                    self.v(
                        "1.14.03",
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
            KaramaUse::TakeHand(target) => {
                let n = self.st.faction(*target).hand.len();
                if n == 0 {
                    self.v("1.14.04", format!("{target} holds no cards"));
                }
                // The Harkonnen take the hand and give back as many cards: identities are lost.
                for c in self.st.faction_mut(*target).hand.iter_mut() {
                    *c = None;
                }
                for c in self.st.faction_mut(f).hand.iter_mut() {
                    *c = None;
                }
            }
            KaramaUse::CancelShipment(target) => self.cancel_shipment(*target),
            _ => {}
        }
    }
}
