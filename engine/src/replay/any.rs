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
            _ => {
                crate::factions::ability_statement(self, ev);
            }
        }
    }

    pub(crate) fn karama(&mut self, ev: &Event, f: Faction, card: Option<Card>, usage: &KaramaUse) {
        if !self.in_play_or_report(f) {
            return;
        }
        let card = self.karama_card(f, card);
        self.play_card(f, card, rule!("3.01.11"), false);
        let power: Option<(Faction, Phase, Rule)> = match usage {
            KaramaUse::Cancel(r) => return self.karama_against(f, r, false),
            KaramaUse::Prevent(r) => return self.karama_against(f, r, true),
            // A faction's own Karama power (1.14.01-1.14.05).
            _ => Faction::ALL.into_iter().find_map(|g| {
                crate::factions::rules(g)
                    .karama_power(usage)
                    .map(|(phase, rule)| (g, phase, rule))
            }),
        };
        let Some((owner, phase, rule)) = power else {
            return;
        };
        if f != owner {
            // A faction with no power of its own says so by its rule (BG, 1.14.06).
            let rule = crate::factions::rules(f).no_karama_power().unwrap_or(rule);
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
        crate::factions::rules(f).use_karama_power(self, ev, usage);
    }
}
