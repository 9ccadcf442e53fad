//! Battle phase (1.07), computed: which battles must be fought and which may not (1.07.01,
//! storm separation 1.07.01.00, the Polar Sink 1.07.01.02, advisors 2.02.12), aggressor order
//! (1.07.02, 1.07.03), the battle plans ([`plan`]), their resolution and the result line as an
//! assertion ([`result`], arithmetic in [`crate::battle`]), the Harkonnen capture, Leader Return
//! (1.07.07), win attempts (4.01.04, ruling 6) and the Arrakeen card (4.03.03.01).

pub(crate) mod plan;
pub(crate) mod result;

use super::Replay;
use crate::battle::Plan;
use crate::board::{Card, Leader, Territory, board};
use crate::dgn::{Event, Place, Pos, Stmt};
use crate::state::LeaderState;
use dune::{Faction, FactionSet, Spice, Stronghold, rule};

/// A Voice command waiting for the target's plan (2.02.06).
#[derive(Clone, Debug)]
pub(crate) struct Voice {
    pub(crate) by: Faction,
    pub(crate) target: Faction,
    pub(crate) positive: bool,
    pub(crate) command: String,
    pub(crate) pos: Pos,
}

/// A Prescience answer waiting for the plan it describes (2.01.08).
#[derive(Clone, Debug)]
pub(crate) struct Prescience {
    pub(crate) by: Faction,
    /// Asked in the ally's battle (2.01.09).
    pub(crate) for_ally: bool,
    pub(crate) target: Faction,
    pub(crate) element: String,
    pub(crate) answer: String,
    pub(crate) pos: Pos,
}

/// The battle being fought.
pub(crate) struct Battle {
    pub(crate) place: Place,
    pub(crate) pos: Pos,
    /// Aggressor, defender.
    pub(crate) sides: [Faction; 2],
    pub(crate) plans: [Option<Plan>; 2],
    /// Traitor calls: the side whose leader is revealed as a traitor, with the call's position.
    pub(crate) betrayed: [Option<Pos>; 2],
    pub(crate) voice: Option<Voice>,
    pub(crate) prescience: Vec<Prescience>,
    /// The side chose not to use its weapon (the Poison Tooth, 000 3.02.08).
    pub(crate) withheld: [bool; 2],
    /// The battle cannot be fought (reported when it was announced): its details are not checked
    /// again and nothing of it is applied.
    pub(crate) void: bool,
}

impl Battle {
    pub(crate) fn side_of(&self, f: Faction) -> Option<usize> {
        self.sides.iter().position(|&s| s == f)
    }
}

/// The battle just resolved, for what follows it: the Harkonnen capture (2.05.10), CHOAM's
/// audit (000 2.09.17), the Free Traders' Secret Tunnels (000 2.13.09).
#[derive(Clone, Debug)]
pub(crate) struct Resolved {
    pub(crate) territory: Territory,
    pub(crate) winner: Option<Faction>,
    pub(crate) loser: Option<Faction>,
    pub(crate) captured: bool,
    /// The two sides (aggressor, defender) and the forces each lost in the battle.
    pub(crate) lost: [(Faction, crate::state::Forces); 2],
    /// The leader each side played (a Face Dancer is revealed among the winner's, 000 2.08.05).
    pub(crate) leaders: [crate::dgn::PlanLeader; 2],
    /// The spice the winner received for each leader killed, by leader.
    pub(crate) paid_for: Vec<(Leader, Spice)>,
    /// Aggressor, defender.
    pub(crate) sides: [Faction; 2],
    /// A Lasgun-Shield explosion (3.01.14).
    pub(crate) explosion: bool,
    /// The cards each side discarded (the Free Traders' Scrap Heap, 000 2.13.13).
    pub(crate) discarded: Vec<(Faction, Card)>,
    /// Each side's leader (or Cheap Hero) died.
    pub(crate) killed: [bool; 2],
    /// Forces sent to the tanks in the battle, both sides and any third faction (the Free
    /// Traders' Secret Tunnels, 000 2.13.09).
    pub(crate) to_tanks: u32,
    /// Its line: the Karamas played for this battle lapse with it.
    pub(crate) pos: Pos,
    /// What the capture changed, for a Karama that cancels it afterwards (2.05.10).
    pub(crate) capture: Option<CaptureUndo>,
}

/// A leader's state before the Harkonnen took it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CaptureUndo {
    pub(crate) leader: Leader,
    pub(crate) state: LeaderState,
    pub(crate) died_once: bool,
    pub(crate) freed: bool,
    pub(crate) kill: bool,
}

/// Win attempts of this turn with their evidence (ruling 6).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct WinAttempt {
    pub faction: Faction,
    /// The strongholds the faction occupies with a fighting force.
    pub own: Vec<Stronghold>,
    /// Those of the faction and its ally together.
    pub counted: Vec<Stronghold>,
    pub ally: Option<Faction>,
}

pub(crate) struct BattleData {
    pub(crate) current: Option<Battle>,
    pub(crate) last: Option<Resolved>,
    pub(crate) win_attempts: Vec<WinAttempt>,
    /// The territory the Kwisatz Haderach fought in this turn (2.01.11: one per turn).
    pub(crate) kwisatz_territory: Option<Territory>,
    /// Battles due this phase (see [`Replay::due`]).
    pub(crate) due: Option<Vec<(Territory, Faction, Faction)>>,
    /// Where each leader fought this phase, whoever holds it now (1.07.04.03: a leader captured
    /// or sent home after fighting stays bound to that territory), by [`Leader::index`].
    pub(crate) fought_in: [Option<Territory>; Leader::COUNT],
}

// By hand: the leader table is longer than the arrays `derive(Default)` knows.
impl Default for BattleData {
    fn default() -> Self {
        BattleData {
            current: None,
            last: None,
            win_attempts: Vec::new(),
            kwisatz_territory: None,
            due: None,
            fought_in: [None; Leader::COUNT],
        }
    }
}

impl Replay {
    pub(crate) fn begin_battle(&mut self) {
        // 4.03.03.01: the Arrakeen card pays 2 at the start of the Battle phase.
        if let Some(f) = self.st.stronghold_card_holder(Stronghold::Arrakeen) {
            self.bank_pays(f, Spice::new(2));
        }
        // What a faction's rules do at the end of Shipment and Movement, once the battles are
        // known (Duke Vidal joins Moritani, 000 2.12.16 revised).
        for f in self.st.in_play.iter() {
            crate::factions::rules(f).begin_battle_phase(self);
        }
        self.t.battle.win_attempts = self.win_attempts();
        let turn = self.st.turn;
        self.win_attempts
            .push((turn, self.t.battle.win_attempts.clone()));
    }

    /// Win attempts under ruling 6 (4.01.04): a fighting force in a stronghold, and strongholds
    /// occupied with the ally numbering at least 3 (4 when allied); the Shield Wall's left side
    /// counts once it is a stronghold (4.02.01, ruling 8).
    pub(crate) fn win_attempts(&self) -> Vec<WinAttempt> {
        let strongholds: Vec<Stronghold> = self.st.victory_strongholds().collect();
        let occupied = |f: Faction| -> Vec<Stronghold> {
            strongholds
                .iter()
                .copied()
                .filter(|&s| self.st.occupies(f, s))
                .collect()
        };
        let mut out = Vec::new();
        for f in self.st.in_play.iter() {
            let own = occupied(f);
            if own.is_empty() {
                continue;
            }
            let ally = self.st.ally(f);
            let mut counted = own.clone();
            if let Some(a) = ally {
                for s in occupied(a) {
                    if !counted.contains(&s) {
                        counted.push(s);
                    }
                }
                counted.sort();
            }
            // 3 alone, 4 allied, or what a faction's rules make it (the Ecaz alliance, 000
            // 2.11.21 original).
            let need = self.stronghold_need(f).0;
            if counted.len() >= need {
                out.push(WinAttempt {
                    faction: f,
                    own,
                    counted,
                    ally,
                });
            }
        }
        out
    }

    pub(crate) fn battle_event(&mut self, ev: &Event) {
        match &ev.stmt {
            Stmt::WinAttempts(list) => {
                let given: FactionSet = list.iter().copied().collect();
                let computed: FactionSet = self
                    .t
                    .battle
                    .win_attempts
                    .iter()
                    .map(|w| w.faction)
                    .collect();
                if given != computed {
                    let evidence: Vec<String> = self
                        .t
                        .battle
                        .win_attempts
                        .iter()
                        .map(|w| {
                            let sh: Vec<&str> = w.counted.iter().map(|s| s.code()).collect();
                            format!("{} ({})", w.faction, sh.join(" "))
                        })
                        .collect();
                    let evidence = if evidence.is_empty() {
                        "nobody".to_string()
                    } else {
                        evidence.join(", ")
                    };
                    self.v(
                        rule!("4.01.04"),
                        format!("win attempts this turn are {evidence} (ruling 6: a force in a stronghold and 3 strongholds, 4 with an ally), not {}", super::names(given.iter())),
                    );
                }
            }
            Stmt::StrongholdCard {
                faction,
                stronghold,
                ..
            } => {
                if *stronghold != Stronghold::Arrakeen {
                    self.v(rule!("4.03.03"), format!("the {} card is not logged in the Battle phase (the Tuek's Sietch card goes in the battle result)", stronghold.name()));
                } else if self.st.stronghold_card_holder(Stronghold::Arrakeen) != Some(*faction) {
                    self.v(
                        rule!("4.03.03.01"),
                        format!("{faction} does not hold the Arrakeen stronghold card"),
                    );
                }
            }
            Stmt::Battle {
                place,
                aggressor,
                defender,
            } => self.start_battle(ev.pos, *place, *aggressor, *defender),
            _ if self.t.battle.current.as_ref().is_some_and(|b| b.void) => {
                // The battle was reported as one that cannot be fought; its details are void,
                // and a result line closes it.
                if matches!(ev.stmt, Stmt::BattleResult { .. }) {
                    self.t.battle.current = None;
                }
            }
            Stmt::Voice {
                faction,
                target,
                positive,
                command,
            } => self.voice(ev.pos, *faction, *target, *positive, command),
            Stmt::Prescience {
                faction,
                element,
                answer,
            } => self.prescience(ev.pos, *faction, element, answer),
            Stmt::Plan(plan) => self.plan(*plan, &ev.asserts),
            Stmt::TraitorCall {
                faction,
                leader,
                for_ally,
            } => self.traitor_call(ev.pos, *faction, *leader, *for_ally),
            Stmt::BattleResult {
                winner,
                totals,
                items,
            } => self.battle_result(Some(result::Logged {
                winner: *winner,
                totals: totals.as_ref(),
                items,
            })),
            Stmt::Capture {
                faction,
                leader,
                kill,
            } => self.capture(*faction, *leader, *kill),
            Stmt::Withhold { faction, card } => self.withhold(*faction, *card),
            _ => {
                // A faction's own battle statement (the Ixians' Suboid exchange, 000 2.07.15;
                // the Tleilaxu's Face Dancer, 2.08.05).
                crate::factions::ability_statement(self, ev);
            }
        }
    }

    /// Pairs of factions whose fighting forces meet in a territory, not separated by the storm
    /// (1.07.01, 1.07.01.00; never in the Polar Sink, 1.07.01.02; advisors do not fight,
    /// 2.02.12), in board order.
    pub(crate) fn battles_due(&self) -> Vec<(Territory, Faction, Faction)> {
        let mut out = Vec::new();
        let sets = self.st.occupant_sets();
        for t in Territory::all() {
            self.battles_among(t, sets[t.index()], &mut out);
        }
        out
    }

    /// The battles due in one territory (see [`Replay::battles_due`]).
    pub(crate) fn battles_in(&self, t: Territory, out: &mut Vec<(Territory, Faction, Faction)>) {
        self.battles_among(t, self.st.occupant_set(t), out);
    }

    /// The battles due in one territory among its occupants `set`.
    fn battles_among(
        &self,
        t: Territory,
        set: FactionSet,
        out: &mut Vec<(Territory, Faction, Faction)>,
    ) {
        if t == Territory::PolarSink || set.len() < 2 {
            return;
        }
        let storm = self.st.storm;
        let b = board();
        let occ: Vec<Faction> = set.iter().collect();
        for (i, &f) in occ.iter().enumerate() {
            for &g in &occ[i + 1..] {
                // Allies never fight each other (where their rules let them share a territory:
                // Ecaz's Occupy, 000 2.11.17 original).
                if self.st.ally(f) == Some(g) {
                    continue;
                }
                let together = t.pieces().iter().any(|&p| {
                    self.st.stack(f, p).fighting() > 0
                        && t.pieces().iter().any(|&q| {
                            self.st.stack(g, q).fighting() > 0 && b.connected_within(p, q, storm)
                        })
                });
                if together {
                    out.push((t, f, g));
                }
            }
        }
    }

    /// The battles due now: computed once per phase, then kept up to date battle by battle
    /// (a battle changes only its own territory).
    pub(crate) fn due(&mut self) -> Vec<(Territory, Faction, Faction)> {
        if let Some(d) = &self.t.battle.due {
            return d.clone();
        }
        let d = self.battles_due();
        self.t.battle.due = Some(d.clone());
        d
    }

    /// After a battle in `t`: its territory's battles are computed again.
    pub(crate) fn battle_done_in(&mut self, t: Territory) {
        let Some(mut d) = self.t.battle.due.take() else {
            return;
        };
        d.retain(|(x, _, _)| *x != t);
        self.battles_in(t, &mut d);
        d.sort_by_key(|(x, _, _)| x.index());
        self.t.battle.due = Some(d);
    }

    pub(crate) fn start_battle(
        &mut self,
        pos: Pos,
        place: Place,
        aggressor: Faction,
        defender: Faction,
    ) {
        self.close_battle();
        self.end_of_battle();
        let t = place.territory;
        let mut ok = true;
        if t == Territory::PolarSink {
            self.v(
                rule!("1.07.01.02"),
                "no battles are fought in the Polar Sink: it is a neutral zone",
            );
            ok = false;
        }
        if aggressor == defender {
            self.v(rule!("1.07.01"), "a battle is fought between two players");
            ok = false;
        }
        for f in [aggressor, defender] {
            if !self.st.plays(f) {
                continue;
            }
            let here = self.st.in_territory(f, t);
            if here.fighting() == 0 {
                ok = false;
                if here.advisors > 0 {
                    // Ecaz's co-occupied forces (000 2.11.06 revised), or the second side's own
                    // rule (advisors 2.02.12; Smugglers, 000 2.13.05).
                    let rule = self.coexist_rule(f);
                    if rule != rule!("2.02.12") {
                        self.v(
                            rule,
                            format!(
                                "its forces there are co-occupied and in {}: they do not fight",
                                t.name()
                            ),
                        );
                    } else {
                        let kind =
                            crate::factions::kinds(f).of(crate::factions::ForceKind::Flipped);
                        self.v(
                            kind.rule,
                            format!(
                                "{f} has only {}s in {}: they do not fight",
                                kind.name,
                                t.name()
                            ),
                        );
                    }
                } else {
                    self.v(
                        rule!("1.07.01"),
                        format!("{f} has no fighting forces in {}", t.name()),
                    );
                }
            }
        }
        let due = self.due();
        let is_due = |a: Faction, b: Faction| {
            due.iter()
                .any(|&(x, f, g)| x == t && ((f, g) == (a, b) || (f, g) == (b, a)))
        };
        if ok && !is_due(aggressor, defender) {
            // 1.01.04 (obstruction) forbids it, whether a sector in storm lies between the
            // forces or one of them is in the storm and the other not; 1.07.01.00 repeats the
            // first case.
            self.v(
                rule!("1.01.04"),
                format!(
                    "{aggressor} and {defender} cannot battle in {}: the storm separates their forces (one side in the storm, or a sector in storm between them; 1.07.01.00)",
                    t.name()
                ),
            );
            ok = false;
        }
        if ok {
            // 1.07.02: the first player in storm order with a battle left is the aggressor.
            let first = self
                .st
                .order
                .iter()
                .copied()
                .find(|&f| due.iter().any(|&(_, a, b)| a == f || b == f));
            // The Juice of Sapho makes its player the aggressor (000 3.03.02.01).
            let sapho = self.sapho(crate::dgn::SaphoEffect::Aggressor);
            if sapho == Some(aggressor) {
                self.t.cards.sapho = None;
            } else if sapho == Some(defender) {
                self.t.cards.sapho = None;
                self.v(
                    rule!("3.03.02.01"),
                    format!("{defender} played the Juice of Sapho to be the aggressor in its battle, not {aggressor}"),
                );
            } else if let Some(first) = first
                && first != aggressor
            {
                self.v(rule!("1.07.02"), format!("{first} is the aggressor now (first in storm order with a battle to fight), not {aggressor}"));
            }
        }
        if ok && !self.deals.is_empty() {
            self.deals_attack(aggressor, defender, t);
        }
        self.t.battle.current = Some(Battle {
            place,
            pos,
            sides: [aggressor, defender],
            plans: [None, None],
            betrayed: [None, None],
            voice: None,
            prescience: Vec::new(),
            withheld: [false; 2],
            void: !ok,
        });
    }

    /// A battle left without a result line is resolved as the plans say (the log is silent, the
    /// engine derives); without both plans it cannot be, and that is reported.
    pub(crate) fn close_battle(&mut self) {
        let Some(b) = self.t.battle.current.as_ref() else {
            return;
        };
        if b.void {
            self.t.battle.current = None;
            return;
        }
        if b.plans.iter().all(Option::is_some) {
            self.battle_result(None);
            return;
        }
        let pos = b.pos;
        self.t.battle.current = None;
        self.v_at(
            pos,
            rule!("1.07.04"),
            "this battle has no battle plan for both players, so it cannot be resolved",
        );
    }

    /// The battle just resolved is over (the next one begins, or the phase ends): the Karamas
    /// played for it lapse, and nothing more (a capture) follows it.
    pub(crate) fn end_of_battle(&mut self) {
        if let Some(r) = self.t.battle.last.take() {
            self.lapse_battle_karama(r.pos, r.sides);
        }
    }

    pub(crate) fn kill_leader(&mut self, l: Leader) {
        let face_up = !self.st.died_once[l.index()];
        self.st.died_once[l.index()] = true;
        self.st.leaders[l.index()] = LeaderState::Tanks { face_up };
        for f in self.st.in_play.iter() {
            crate::factions::rules(f).leader_died(self);
        }
    }

    pub(crate) fn finish_battle(&mut self) {
        self.close_battle();
        self.end_of_battle();
        // Leader Return (1.07.07); a captured leader who survived goes back to the faction that
        // last had it (2.05.10.02).
        for l in Leader::all() {
            if let LeaderState::Fought(h, _) = self.st.leaders[l.index()] {
                let home = crate::factions::rules(l.faction())
                    .leader_home(self, l)
                    .unwrap_or_else(|| crate::factions::rules(h).leader_returns(l));
                self.st.leaders[l.index()] = LeaderState::Pool(home);
            } else if let LeaderState::Pool(h) = self.st.leaders[l.index()]
                && h != l.faction()
                && let Some(home) = crate::factions::rules(l.faction()).leader_home(self, l)
            {
                // A leader lent for the turn's battles (CHOAM's Auditor, 000 2.09.20).
                self.st.leaders[l.index()] = LeaderState::Pool(home);
            }
        }
        for f in self.st.in_play.iter() {
            crate::factions::rules(f).after_leader_return(self);
        }
        // 1.07.01: battles the board still requires (the battles due, kept up to date battle by
        // battle).
        let mut reported: Vec<Territory> = Vec::new();
        for (t, f, g) in self.due() {
            if reported.contains(&t) {
                continue;
            }
            reported.push(t);
            // A faction's ability that made the battle due (the Free Traders' Infiltration,
            // 000 2.13.06).
            let rule = [f, g]
                .into_iter()
                .find_map(|x| crate::factions::rules(x).battle_due_rule(self, x, t))
                .unwrap_or(rule!("1.07.01"));
            self.v(
                rule,
                format!(
                    "{f} and {g} both have forces in {}: a battle there is not logged",
                    t.name()
                ),
            );
        }
    }
}
