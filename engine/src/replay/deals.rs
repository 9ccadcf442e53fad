//! Deals and bribes as terms the engine holds a log to (1.12).
//!
//! A deal's or bribe's promises bind its parties (1.12.00: they "must be honored", nobody may
//! renege). Written as terms (`DEAL AT,BG: AT noattack ARK until T5`, `$ SG>BG 2: BG nobid #2`),
//! each is kept open until its deadline and every later action is checked against it:
//! - `pay G n`: the bribes the faction pays G by the deadline add up to n (checked when the
//!   deadline's turn ends);
//! - `noattack T|G`: the faction is not the aggressor of a battle in T, or against G (checked at
//!   the battle line);
//! - `nobid [#k]` (`pass`): the faction does not bid on card k of an auction, or on any card
//!   (checked at the bid, or at the purchase when the trace leaves the bids out);
//! - `ally G` / `noally [G]`: the faction's choice in the next Nexus (checked at the alliance
//!   line, and when that Nexus ends).
//!
//! A broken term is reported under 1.12.00 at the action that breaks it, naming the deal's line.
//! The deal itself is checked when it is made: not during setup (1.12.04), between its parties,
//! a payment only between players who are not allies (1.12.01: that is a bribe), no transfer of
//! cards, leaders, forces or abilities (1.12.03). Terms the engine cannot check (a quoted text,
//! and the free-text form `DEAL F,G "…"`) are recorded and listed as not checked
//! ([`NotChecked`]): the judge rules on them.

use super::Replay;
use crate::dgn::{Pos, Promise, Target, Term};
use crate::state::Phase;
use dune::{Faction, Spice, rule};

/// A promise the engine could not check: a deal's or bribe's free text, for the judge.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct NotChecked {
    pub pos: Pos,
    pub turn: u32,
    pub phase: Phase,
    /// The parties and their words.
    pub text: String,
}

/// A term of a deal, open until its deadline.
#[derive(Clone, Debug)]
pub(crate) struct OpenTerm {
    pub(crate) faction: Faction,
    pub(crate) promise: Promise,
    /// The deal's (or bribe's) line.
    pub(crate) deal: Pos,
    pub(crate) bribe: bool,
    pub(crate) made: (u32, Phase),
    /// The last turn the term covers (it is judged when that turn ends).
    pub(crate) last_turn: u32,
    /// Lasts until the end of the next Nexus (an alliance promise without `until`).
    pub(crate) next_nexus: bool,
    /// Spice paid so far toward a `pay` term.
    pub(crate) paid: Spice,
}

impl OpenTerm {
    /// "the deal at line 12 (AT does not attack in Arrakeen until the end of turn 5)".
    fn describe(&self) -> String {
        let what = match &self.promise {
            Promise::Pay { to, amount } => format!("{} pays {to} {amount} spice", self.faction),
            Promise::NoAttack(Target::Territory(t)) => {
                format!("{} does not attack in {}", self.faction, t.name())
            }
            Promise::NoAttack(Target::Faction(g)) => {
                format!("{} does not attack {g}", self.faction)
            }
            Promise::NoBid(Some(k)) => format!("{} does not bid on card {k}", self.faction),
            Promise::NoBid(None) => format!("{} does not bid", self.faction),
            Promise::Ally(g) => format!("{} allies with {g}", self.faction),
            Promise::NoAlly(Some(g)) => format!("{} does not ally with {g}", self.faction),
            Promise::NoAlly(None) => format!("{} does not ally", self.faction),
            Promise::Transfer { .. } | Promise::Text(_) => String::new(),
        };
        let until = match self.promise {
            _ if self.next_nexus => "in the next Nexus".to_string(),
            Promise::Pay { .. } | Promise::Ally(_) => {
                format!("by the end of turn {}", self.last_turn)
            }
            _ => format!("until the end of turn {}", self.last_turn),
        };
        let kind = if self.bribe { "bribe" } else { "deal" };
        format!("the {kind} at line {} ({what} {until})", self.deal.line)
    }
}

impl Replay {
    /// `DEAL F,G "text"`: a deal whose terms the engine cannot check. Its time is checked
    /// (1.12.04) and its words recorded as not checked.
    pub(crate) fn free_deal(&mut self, factions: &[Faction], terms: &str) {
        if !self.deal_time_and_parties(factions, false) {
            return;
        }
        self.not_checked(format!(
            "deal between {}: \"{terms}\"",
            Replay::list(factions)
        ));
    }

    /// Records a text the engine cannot check.
    pub(crate) fn not_checked(&mut self, text: String) {
        self.not_checked.push(NotChecked {
            pos: self.pos,
            turn: self.st.turn,
            phase: self.st.phase,
            text,
        });
    }

    /// A deal is made after setup (1.12.04), between players at the table, two or more.
    fn deal_time_and_parties(&mut self, factions: &[Faction], bribe: bool) -> bool {
        if bribe {
            // The bribe line itself was checked (and refused when out of time).
            return self.st.turn > 0 && self.st.phase != Phase::Mentat;
        }
        if self.st.turn == 0 {
            self.v(
                rule!("1.12.04"),
                "no deal or bribe can be made during setup (before 0.16 ends)",
            );
            return false;
        }
        if !factions.iter().all(|&f| self.in_play_or_report(f)) {
            return false;
        }
        let mut distinct = factions.to_vec();
        distinct.sort();
        distinct.dedup();
        if distinct.len() < 2 {
            self.v(
                rule!("1.12.00"),
                "a deal is made between two or more players",
            );
            return false;
        }
        true
    }

    /// `DEAL F,G: term ; …` or a bribe's terms: each term is checked as made, then kept open.
    pub(crate) fn deal_terms(&mut self, factions: &[Faction], bribe: bool, terms: &[Term]) {
        if !self.deal_time_and_parties(factions, bribe) {
            return;
        }
        let deal = self.pos;
        let (turn, phase) = (self.st.turn, self.st.phase);
        for term in terms {
            let Some(f) = term.faction else {
                if let Promise::Text(text) = &term.promise {
                    self.not_checked(format!(
                        "{} between {}: \"{text}\"",
                        if bribe { "bribe" } else { "deal" },
                        Replay::list(factions)
                    ));
                }
                continue;
            };
            if !factions.contains(&f) {
                self.v_at(
                    term.pos,
                    rule!("1.12.00"),
                    format!(
                        "{f} is not a party to this deal ({}): a deal binds the players who make it",
                        Replay::list(factions)
                    ),
                );
                continue;
            }
            match &term.promise {
                Promise::Transfer { to, what } => {
                    self.v_at(
                        term.pos,
                        rule!("1.12.03"),
                        format!(
                            "a deal or bribe cannot transfer treachery or traitor cards, leaders, forces or faction abilities: {f} cannot promise {to} \"{what}\" (only secret information, future actions and spice)"
                        ),
                    );
                    continue;
                }
                Promise::Pay { to, .. } if !factions.contains(to) || to == &f => {
                    self.v_at(
                        term.pos,
                        rule!("1.12.00"),
                        format!("{f} promises a payment to {to}, who is not the other party to this deal"),
                    );
                    continue;
                }
                Promise::Pay { to, .. } if self.allies(f, *to) => {
                    self.v_at(
                        term.pos,
                        rule!("1.12.01"),
                        format!(
                            "{f} and {to} are allies: allies may make deals, but spice paid as part of a deal is a bribe, which allies cannot make"
                        ),
                    );
                    continue;
                }
                Promise::Ally(g) if *g == f => {
                    self.v_at(
                        term.pos,
                        rule!("1.10.01.03"),
                        format!("{f} cannot ally with itself"),
                    );
                    continue;
                }
                _ => {}
            }
            let after_mentat = phase == Phase::Mentat;
            let default_last = match &term.promise {
                // Card k of this turn's auction if it is still to come, else the next turn's.
                Promise::NoBid(Some(_)) if phase > Phase::Bidding => turn + 1,
                _ if after_mentat => turn + 1,
                _ => turn,
            };
            let next_nexus = term.until.is_none()
                && matches!(term.promise, Promise::Ally(_) | Promise::NoAlly(_));
            let last_turn = match term.until {
                Some(n) if n < turn => {
                    self.v_at(
                        term.pos,
                        rule!("1.12.00"),
                        format!(
                            "the term lasts until turn {n}, which is over (this is turn {turn})"
                        ),
                    );
                    continue;
                }
                Some(n) => n,
                None if next_nexus => self.st.options.max_turns,
                None => default_last,
            };
            self.deals.push(OpenTerm {
                faction: f,
                promise: term.promise.clone(),
                deal,
                bribe,
                made: (turn, phase),
                last_turn,
                next_nexus,
                paid: Spice::ZERO,
            });
        }
    }

    /// Terms of `f` still open now.
    fn open_terms(&self, f: Faction) -> impl Iterator<Item = &OpenTerm> {
        let turn = self.st.turn;
        self.deals
            .iter()
            .filter(move |t| t.faction == f && t.last_turn >= turn)
    }

    /// A bribe paid: it counts toward the payer's `pay` terms to the recipient.
    pub(crate) fn deal_payment(&mut self, from: Faction, to: Faction, amount: Spice) {
        let turn = self.st.turn;
        for t in self.deals.iter_mut() {
            if t.faction == from
                && t.last_turn >= turn
                && matches!(t.promise, Promise::Pay { to: g, .. } if g == to)
            {
                t.paid += amount;
            }
        }
    }

    /// `aggressor` attacks `defender` in `t`: the no-attack terms it breaks.
    pub(crate) fn deals_attack(
        &mut self,
        aggressor: Faction,
        defender: Faction,
        t: crate::board::Territory,
    ) {
        let broken: Vec<String> = self
            .open_terms(aggressor)
            .filter(|o| match o.promise {
                Promise::NoAttack(Target::Territory(x)) => x == t,
                Promise::NoAttack(Target::Faction(g)) => g == defender,
                _ => false,
            })
            .map(OpenTerm::describe)
            .collect();
        for d in broken {
            self.v(
                rule!("1.12.00"),
                format!(
                    "{aggressor} attacks {defender} in {}, breaking {d}: a deal must be honored",
                    t.name()
                ),
            );
        }
    }

    /// `f` bids on card `k` of this turn's auction (at `pos`): the no-bid terms it breaks.
    pub(crate) fn deals_bid(&mut self, f: Faction, k: u32, pos: Pos, what: &str) {
        let broken: Vec<String> = self
            .open_terms(f)
            .filter(|o| matches!(o.promise, Promise::NoBid(n) if n.is_none_or(|n| n == k)))
            .map(OpenTerm::describe)
            .collect();
        for d in broken {
            self.v_at(
                pos,
                rule!("1.12.00"),
                format!("{f} {what} card {k}, breaking {d}: a deal must be honored"),
            );
        }
    }

    /// `a` and `b` ally in a Nexus: the no-ally terms broken, the ally terms kept.
    pub(crate) fn deals_ally(&mut self, a: Faction, b: Faction) {
        for (f, g) in [(a, b), (b, a)] {
            let broken: Vec<String> = self
                .open_terms(f)
                .filter(|o| matches!(o.promise, Promise::NoAlly(x) if x.is_none_or(|x| x == g)))
                .map(OpenTerm::describe)
                .collect();
            for d in broken {
                self.v(
                    rule!("1.12.00"),
                    format!("{f} allies with {g}, breaking {d}: a deal must be honored"),
                );
            }
        }
    }

    /// The end of a Nexus: the alliance promises made for it are judged and close.
    pub(crate) fn deals_after_nexus(&mut self) {
        let turn = self.st.turn;
        let due: Vec<OpenTerm> = self
            .deals
            .iter()
            .filter(|o| o.next_nexus && (o.made.0 < turn || o.made.1 <= Phase::SpiceBlow))
            .cloned()
            .collect();
        for o in &due {
            if let Promise::Ally(g) = o.promise
                && self.st.ally(o.faction) != Some(g)
            {
                self.v(
                    rule!("1.12.00"),
                    format!(
                        "the Nexus ends without {} allying with {g}, breaking {}: a deal must be honored",
                        o.faction,
                        o.describe()
                    ),
                );
            }
        }
        self.deals
            .retain(|o| !(o.next_nexus && (o.made.0 < turn || o.made.1 <= Phase::SpiceBlow)));
    }

    /// The end of a turn: the terms it ends are judged (a payment or an alliance not made) and
    /// close.
    pub(crate) fn deals_at_turn_end(&mut self) {
        let turn = self.st.turn;
        let due: Vec<OpenTerm> = self
            .deals
            .iter()
            .filter(|o| o.last_turn <= turn)
            .cloned()
            .collect();
        for o in &due {
            match o.promise {
                Promise::Pay { to, amount } if o.paid < amount => self.v(
                    rule!("1.12.00"),
                    format!(
                        "{} has paid {to} {} of the {amount} spice promised by the end of turn {}, breaking {}: a deal must be honored",
                        o.faction,
                        o.paid,
                        o.last_turn,
                        o.describe()
                    ),
                ),
                // A promise for the next Nexus is judged when a Nexus ends; none came.
                Promise::Ally(g) if !o.next_nexus && self.st.ally(o.faction) != Some(g) => self.v(
                    rule!("1.12.00"),
                    format!(
                        "{} is not allied with {g} by the end of turn {}, breaking {}: a deal must be honored",
                        o.faction,
                        o.last_turn,
                        o.describe()
                    ),
                ),
                _ => {}
            }
        }
        self.deals.retain(|o| o.last_turn > turn);
    }
}
