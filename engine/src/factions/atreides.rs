//! The Atreides (001 2.01): the look at the card up for auction, Wormsign, Prescience (in their
//! own battle and their ally's) and the Kwisatz Haderach.

use crate::dgn::KaramaUse;
use dune::{Faction, Rule, Spice, rule};

use super::Fee;
use super::{FactionRules, Sheet, SheetRules};
use crate::battle::{Conditions, Plan};
use crate::board::{Card, Leader, Territory};
use crate::dgn::PlanLeader;
use crate::dgn::{Payment, Pos, Sealed, SpiceCard};
use crate::replay::Replay;
use crate::replay::battle::Prescience;
use crate::replay::karama::{Ability, AbilityInfo, CANCEL, PREVENT};
use crate::state::{LeaderState, Phase};

pub(crate) struct Atreides;

/// 2.01.01 10 spice, 2.01.02 10 forces in Arrakeen and 10 in reserve, 2.01.04 free revival 2.
pub(crate) const SHEET: Sheet = Sheet {
    spice: Spice::new(10),
    free_revival: 2,
    hand_limit: 4,
    starting_cards: 1,
    traitors: 1,
    kinds: super::ForceKinds::PLAIN,
    start: Some((Territory::Arrakeen, 10)),
    rules: SheetRules::GENERAL,
};

pub(crate) const PEEK: Ability = Ability(rule!("2.01.05"));
pub(crate) const WORMSIGN: Ability = Ability(rule!("2.01.07"));
pub(crate) const PRESCIENCE: Ability = Ability(rule!("2.01.08"));
pub(crate) const ALLY_PRESCIENCE: Ability = Ability(rule!("2.01.09"));
pub(crate) const KWISATZ: Ability = Ability(rule!("2.01.11"));

const AT: Faction = Faction::Atreides;

static KARAMA: [AbilityInfo; 5] = [
    AbilityInfo::new(
        PEEK,
        AT,
        CANCEL,
        Some(Phase::Bidding),
        false,
        true,
        "look at the card up for auction",
    ),
    AbilityInfo::new(
        WORMSIGN,
        AT,
        CANCEL,
        Some(Phase::Movement),
        false,
        true,
        "Wormsign",
    ),
    AbilityInfo::new(
        PRESCIENCE,
        AT,
        CANCEL,
        Some(Phase::Battle),
        false,
        true,
        "Prescience",
    ),
    AbilityInfo::new(
        ALLY_PRESCIENCE,
        AT,
        PREVENT,
        Some(Phase::Battle),
        true,
        true,
        "Prescience in the ally's battle",
    ),
    AbilityInfo::new(
        KWISATZ,
        AT,
        CANCEL,
        Some(Phase::Battle),
        false,
        true,
        "Kwisatz Haderach",
    ),
];

impl FactionRules for Atreides {
    fn faction(&self) -> Faction {
        AT
    }

    fn sheet(&self) -> &'static Sheet {
        &SHEET
    }

    fn karama(&self) -> &'static [AbilityInfo] {
        &KARAMA
    }

    /// 2.01.05: a cancelled look was about the card just auctioned.
    fn after_auction(&self, r: &mut Replay) {
        r.karama_lapse(PEEK);
    }

    /// A Karama cancelling the Kwisatz Haderach (2.01.11) in this battle: it adds nothing and
    /// does not accompany the leader (so it neither protects it from a traitor, 2.01.12, nor
    /// counts as used this turn).
    fn battle_karama(
        &self,
        ability: Ability,
        plan: &mut Plan,
        _c: &mut Conditions,
        _side: usize,
    ) -> bool {
        if ability != KWISATZ {
            return false;
        }
        plan.kwisatz = false;
        true
    }

    /// A Karama cancelling Prescience after the question was asked (2.01.08): the answer binds
    /// nobody, so it is not checked against the plan.
    fn karama_now(&self, r: &mut Replay, rule: Rule) {
        if rule == PRESCIENCE.0
            && let Some(b) = r.t.battle.current.as_mut()
        {
            b.prescience.retain(|p| p.by != AT || p.for_ally);
        }
    }

    /// 1.14.01: see the opponent's whole battle plan.
    fn karama_power(&self, usage: &KaramaUse) -> Option<(Phase, Rule)> {
        matches!(usage, KaramaUse::SeePlan(_)).then_some((Phase::Battle, rule!("1.14.01")))
    }
}

impl Replay {
    /// `A peek AT` (2.01.05): the Atreides look at the card up for auction.
    pub(crate) fn atreides_peek(&mut self, f: Faction) {
        if f != AT {
            self.v(
                rule!("2.01.05"),
                format!("only the Atreides look at cards up for auction, not {f}"),
            );
            return;
        }
        self.karama_forbids(PEEK, "the Atreides look at the card up for auction");
    }

    pub(crate) fn wormsign(
        &mut self,
        ev: &crate::dgn::Event,
        f: Faction,
        card: &Sealed<Option<SpiceCard>>,
    ) {
        if f != AT {
            self.v(
                rule!("2.01.07"),
                format!("only the Atreides look at the top spice card (Wormsign), not {f}"),
            );
            return;
        }
        if self.t.mv.any_shipment {
            self.v(
                rule!("2.01.07"),
                "the Atreides look at the top spice card before anyone ships",
            );
        }
        if self.t.mv.peeked {
            self.v(
                rule!("2.01.07"),
                "the Atreides look at the top spice card once per turn",
            );
        }
        if self.karama_forbids(WORMSIGN, "the Atreides look at the top spice card") {
            return;
        }
        self.t.mv.peeked = true;
        if let Some(Some(c)) = self.sealed(card) {
            self.pending_peek = Some((ev.pos, *c));
        }
    }

    /// 2.01.14: the Kwisatz Haderach is revived with the faction's one leader revival, once every
    /// other leader has died once or is unavailable; like a leader it costs its strength, 2
    /// (the rulebook gives no other price; notation Decisions).
    pub(crate) fn revive_kwisatz(&mut self, f: Faction, payment: Option<&Payment>) {
        let paid = payment.map(|p| p.amount);
        if f != AT {
            self.v(
                rule!("2.01.14"),
                format!("only the Atreides have the Kwisatz Haderach, not {f}"),
            );
            return;
        }
        if !self.st.kwisatz_dead {
            self.v(rule!("2.01.14"), "the Kwisatz Haderach is not in the tanks");
            return;
        }
        if self.t.revival.leader.contains(f) {
            self.v(
                rule!("2.01.14"),
                "the Kwisatz Haderach is revived with the Atreides' one leader revival, and a leader was revived this turn",
            );
            return;
        }
        let waiting: Vec<Leader> = Leader::of(f)
            .filter(|l| {
                !self.st.died_once[l.index()] && self.st.leaders[l.index()] == LeaderState::Pool(f)
            })
            .collect();
        if !waiting.is_empty() {
            let names: Vec<&str> = waiting.iter().map(|l| l.code()).collect();
            self.v(
                rule!("2.01.14"),
                format!(
                    "the Kwisatz Haderach is revived only when every other Atreides leader has died once or is unavailable; {} never died",
                    names.join(", ")
                ),
            );
        }
        self.t.revival.leader.insert(f);
        let cost = Spice::new(2);
        if let Some(p) = paid
            && p != cost
        {
            self.v(
                rule!("2.01.14"),
                format!("reviving the Kwisatz Haderach costs {cost} spice, not {p}"),
            );
        }
        if cost > self.spice(f) {
            self.v(
                rule!("1.05.03.01"),
                format!(
                    "{f} must pay {cost} spice to revive the Kwisatz Haderach but has {}",
                    self.spice(f)
                ),
            );
        }
        let payee = self.settle_payee(Fee::LeaderRevival, f, payment, || {
            "the Kwisatz Haderach's revival".to_string()
        });
        self.pay(f, payee, cost);
        self.st.kwisatz_dead = false;
        self.t.revival.kwisatz = true;
    }

    /// Whether the Kwisatz Haderach may join this plan; reports why not.
    pub(crate) fn check_kwisatz(&mut self, plan: &Plan, t: crate::board::Territory) -> bool {
        let f = plan.faction;
        if f != AT {
            self.v(
                rule!("2.01.11"),
                format!("only the Atreides have the Kwisatz Haderach, not {f}"),
            );
            return false;
        }
        if !self.st.options.advanced {
            self.v(
                rule!("2.01.10"),
                "the Kwisatz Haderach is an Advanced ability",
            );
            return false;
        }
        let before = self.violations.len();
        let lost = self.st.faction(f).battle_losses;
        if lost < 7 {
            self.v(
                rule!("2.01.10"),
                format!("the Kwisatz Haderach is not active yet: the Atreides have lost {lost} forces in battles, it wakes at 7"),
            );
        }
        if self.st.kwisatz_dead {
            self.v(
                rule!("2.01.14"),
                "the Kwisatz Haderach is in the tanks and must be revived before it fights again",
            );
        }
        if plan.leader == PlanLeader::None {
            self.v(
                rule!("2.01.11"),
                "the Kwisatz Haderach accompanies a leader or a Cheap Hero",
            );
        }
        if let Some(x) = self.t.battle.kwisatz_territory
            && x != t
        {
            self.v(
                rule!("2.01.11"),
                format!(
                    "the Kwisatz Haderach fought in {} this turn: one territory per turn",
                    x.name()
                ),
            );
        }
        // A Karama cancelling it (2.01.11) takes effect when the battle is resolved.
        self.violations.len() == before
    }

    pub(crate) fn prescience(&mut self, pos: Pos, f: Faction, element: &str, answer: &str) {
        let Some((side, for_ally)) = self.battle_ability(
            f,
            AT,
            "Prescience",
            [rule!("2.01.08"), rule!("2.01.09")],
            [PRESCIENCE, ALLY_PRESCIENCE],
        ) else {
            return;
        };
        if !matches!(
            element,
            "leader" | "W" | "D" | "dial" | "weapon" | "defense" | "number"
        ) {
            self.v(rule!("2.01.08"), format!("Prescience asks for the leader, the weapon (W), the defense (D) or the number dialed (dial), not `{element}`"));
            return;
        }
        let Some(b) = self.t.battle.current.as_mut() else {
            return;
        };
        if b.prescience.iter().any(|p| p.by == f) {
            self.v(
                rule!("2.01.08"),
                "Prescience asks about one element of the opponent's plan per battle",
            );
            return;
        }
        let target = b.sides[1 - side];
        let t = b.place.territory;
        if let Some(rule) = crate::factions::rules(target).prescience_denied(self, element, t) {
            self.v(
                rule,
                format!("Prescience cannot ask {target} for `{element}` here (Blind Prescience)"),
            );
            return;
        }
        let Some(b) = self.t.battle.current.as_mut() else {
            return;
        };
        b.prescience.push(Prescience {
            by: f,
            for_ally,
            target,
            element: element.to_string(),
            answer: answer.to_string(),
            pos,
        });
        if let Some(plan) = b.plans[1 - side] {
            self.check_prescience(&plan);
        }
    }

    /// The answers given to Prescience must be what the plan shows (2.01.08).
    pub(crate) fn check_prescience(&mut self, plan: &Plan) {
        let Some(b) = self.t.battle.current.as_ref() else {
            return;
        };
        let asked: Vec<Prescience> = b
            .prescience
            .iter()
            .filter(|p| p.target == plan.faction)
            .cloned()
            .collect();
        for p in asked {
            let card = |c: Option<Card>| c.map_or("none".to_string(), |c| c.code().to_string());
            let shown = match p.element.as_str() {
                "leader" => match plan.leader {
                    PlanLeader::Leader(l) => l.code().to_string(),
                    PlanLeader::CheapHero => "CH".to_string(),
                    PlanLeader::Levenbrech => "Levenbrech".to_string(),
                    PlanLeader::None => "none".to_string(),
                },
                "W" | "weapon" => card(plan.weapon),
                "D" | "defense" => card(plan.defense),
                _ => plan.dial.total.to_string(),
            };
            let same = shown == p.answer
                || (p.answer == "CheapHero" && shown == "CH")
                || (p.answer == "-" && shown == "none");
            if !same {
                let rule = if p.for_ally {
                    rule!("2.01.09")
                } else {
                    rule!("2.01.08")
                };
                self.v_at(
                    p.pos,
                    rule,
                    format!(
                        "{} answered Prescience ({}) with {}, but the plan shows {shown}",
                        plan.faction, p.element, p.answer
                    ),
                );
            }
        }
    }

    /// The Kwisatz Haderach's state for the board, when the Atreides play (2.01.10-2.01.14).
    pub(crate) fn kwisatz_summary(&self) -> Option<crate::replay::KwisatzSummary> {
        let st = &self.st;
        st.plays(AT).then(|| {
            let losses = st.faction(AT).battle_losses;
            crate::replay::KwisatzSummary {
                losses,
                active: losses >= 7 && !st.kwisatz_dead,
                dead: st.kwisatz_dead,
            }
        })
    }

    /// `(KH state [n])` (2.01.10).
    pub(crate) fn check_kwisatz_state(
        &mut self,
        pos: Pos,
        state: crate::dgn::KwisatzState,
        losses: Option<u32>,
    ) {
        let lost = self.st.faction(AT).battle_losses;
        let actual = if self.st.kwisatz_dead {
            crate::dgn::KwisatzState::Dead
        } else if lost >= 7 {
            crate::dgn::KwisatzState::Active
        } else {
            crate::dgn::KwisatzState::Inactive
        };
        if actual != state || losses.is_some_and(|n| n != lost) {
            let name = |k: crate::dgn::KwisatzState| match k {
                crate::dgn::KwisatzState::Inactive => "inactive",
                crate::dgn::KwisatzState::Active => "active",
                crate::dgn::KwisatzState::Dead => "dead",
            };
            self.v_at(pos, rule!("2.01.10"), format!("the Kwisatz Haderach is {} (the Atreides have lost {lost} forces in battles); the log says {}{}", name(actual), name(state), losses.map_or(String::new(), |n| format!(" {n}"))));
        }
    }
}
