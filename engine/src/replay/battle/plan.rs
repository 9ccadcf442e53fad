//! Battle plans (1.07.04) and what comes before them: Voice (2.02.06, 2.02.07), Prescience
//! (2.01.08, 2.01.09) and traitor calls (1.07.06.06, 2.05.09, 2.01.12), each checked against the
//! plans where the plan reveals it.

use super::{Battle, Replay};
use crate::battle::{self, Conditions, Plan};
use crate::board::{Card, CardKind, Leader};
use crate::dgn::{Assertion, PlanLeader, Pos};
use crate::replay::karama::Ability;
use crate::state::LeaderState;
use dune::{Faction, Rule, rule};

/// What a Voice command names (2.02.06).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum VoiceCmd {
    PoisonWeapon,
    ProjectileWeapon,
    PoisonDefense,
    ProjectileDefense,
    Worthless,
    CheapHero,
    Card(Card),
}

impl VoiceCmd {
    pub(crate) fn read(text: &str) -> Option<VoiceCmd> {
        Some(match text {
            "poison" => VoiceCmd::PoisonWeapon,
            "proj" | "projectile" => VoiceCmd::ProjectileWeapon,
            "poisondef" => VoiceCmd::PoisonDefense,
            "projdef" => VoiceCmd::ProjectileDefense,
            "worthless" => VoiceCmd::Worthless,
            "CH" | "CheapHero" => VoiceCmd::CheapHero,
            name => VoiceCmd::Card(Card::from_code(name)?),
        })
    }

    /// Does this card answer the command (in the slot where it is played)?
    fn card_matches(self, c: Card, weapon_slot: bool) -> bool {
        match self {
            VoiceCmd::PoisonWeapon => weapon_slot && c.kind() == CardKind::WeaponPoison,
            VoiceCmd::ProjectileWeapon => weapon_slot && c.kind() == CardKind::WeaponProjectile,
            VoiceCmd::PoisonDefense => !weapon_slot && c.kind() == CardKind::DefensePoison,
            VoiceCmd::ProjectileDefense => !weapon_slot && c.kind() == CardKind::DefenseProjectile,
            VoiceCmd::Worthless => c.kind() == CardKind::Worthless,
            VoiceCmd::CheapHero => false,
            VoiceCmd::Card(x) => x == c,
        }
    }

    pub(crate) fn in_plan(self, p: &Plan) -> bool {
        if self == VoiceCmd::CheapHero {
            return p.leader == PlanLeader::CheapHero;
        }
        p.weapon.is_some_and(|c| self.card_matches(c, true))
            || p.defense.is_some_and(|c| self.card_matches(c, false))
    }

    /// Could a hand holding `c` have answered the command? Weapons and defences need a leader
    /// or Cheap Hero on the wheel (1.07.04.05).
    pub(crate) fn in_hand(self, c: Card, has_leader: bool) -> bool {
        match self {
            VoiceCmd::CheapHero => c == Card::CheapHero,
            _ => has_leader && (self.card_matches(c, true) || self.card_matches(c, false)),
        }
    }
}

impl Replay {
    pub(crate) fn battle_or_report(&mut self, rule: Rule, what: &str) -> bool {
        if self.t.battle.current.is_some() {
            return true;
        }
        self.v(
            rule,
            format!("{what} belongs to a battle (`X territory: F v F` first)"),
        );
        false
    }

    /// The side a helper acts for: its own, or its ally's (the alliance abilities 2.01.09,
    /// 2.02.07, 2.05.09). `None` when neither is in this battle.
    pub(crate) fn acting_side(&self, f: Faction) -> Option<(usize, bool)> {
        let b = self.t.battle.current.as_ref()?;
        if let Some(i) = b.side_of(f) {
            return Some((i, false));
        }
        let a = self.st.ally(f)?;
        b.side_of(a).map(|i| (i, true))
    }

    /// The checks every battle ability of one faction shares (the Voice, Prescience): a battle
    /// is on, the right faction uses it, in its own battle or its ally's (`rules` and `abilities`:
    /// own, ally's), and no Karama stops it. Returns the side it acts for and whether for the ally.
    pub(crate) fn battle_ability(
        &mut self,
        f: Faction,
        owner: Faction,
        what: &str,
        rules: [Rule; 2],
        abilities: [Ability; 2],
    ) -> Option<(usize, bool)> {
        if !self.battle_or_report(rules[0], what) {
            return None;
        }
        if f != owner {
            self.v(rules[0], format!("only {owner} use {what}, not {f}"));
            return None;
        }
        let Some((side, for_ally)) = self.acting_side(f) else {
            self.v(
                rules[1],
                format!("{owner} use {what} in their own battle or their ally's; neither is in this battle"),
            );
            return None;
        };
        let ability = abilities[usize::from(for_ally)];
        if self.karama_forbids(ability, &format!("{owner} use {what}")) {
            return None;
        }
        Some((side, for_ally))
    }

    /// Leaders a faction could put on the wheel in this territory now: in its pool, or having
    /// fought here already this phase (1.07.04.03).
    pub(crate) fn available_leaders(&self, f: Faction, b: &Battle) -> Vec<Leader> {
        let t = b.place.territory;
        Leader::all()
            .filter(|l| match self.st.leaders[l.index()] {
                LeaderState::Pool(h) => h == f,
                LeaderState::Fought(h, x) => h == f && x == t,
                LeaderState::Tanks { .. } => false,
            })
            .collect()
    }

    pub(crate) fn plan(&mut self, plan: Plan, asserts: &[Assertion]) {
        if !self.battle_or_report(rule!("1.07.04"), "A battle plan") {
            return;
        }
        let f = plan.faction;
        let Some(b) = self.t.battle.current.as_ref() else {
            return;
        };
        let Some(side) = b.side_of(f) else {
            self.v(rule!("1.07.04"), format!("{f} is not in this battle"));
            return;
        };
        if b.plans[side].is_some() {
            self.v(
                rule!("1.07.04"),
                format!("{f} already has a battle plan in this battle"),
            );
            return;
        }
        let t = b.place.territory;
        let opponent = b.sides[1 - side];
        let available = self.available_leaders(f, b);
        // The leader slot (1.07.04.02-1.07.04.05, 4.01.16).
        let fought_elsewhere = match plan.leader {
            PlanLeader::Leader(l) => self.t.battle.fought_in[l.index()].filter(|&x| x != t),
            _ => None,
        };
        match plan.leader {
            PlanLeader::Leader(l) if let Some(x) = fought_elsewhere => {
                self.v(
                    rule!("1.07.04.03"),
                    format!(
                        "{l} fought in {} this phase and cannot fight in {} too",
                        x.name(),
                        t.name()
                    ),
                );
            }
            PlanLeader::Leader(l) => match self.st.leaders[l.index()] {
                LeaderState::Fought(h, x) if h == f && x != t => self.v(
                    rule!("1.07.04.03"),
                    format!(
                        "{l} fought in {} this phase and cannot fight in {} too",
                        x.name(),
                        t.name()
                    ),
                ),
                LeaderState::Tanks { .. } => self.v(
                    rule!("1.07.04.02"),
                    format!("{l} is in the tanks and cannot fight"),
                ),
                _ if l.faction() != f
                    && self.st.freed[l.index()]
                    && !available.contains(&l) =>
                {
                    self.v(
                        rule!("2.05.11"),
                        format!(
                            "{l} went back to {} when the last Harkonnen leader of their own died (prison break); the Harkonnen cannot play {l}",
                            l.faction()
                        ),
                    )
                }
                _ if !available.contains(&l) => self.v(
                    rule!("1.07.04.03"),
                    format!("{l} is not one of {f}'s active leaders (held by another faction)"),
                ),
                _ => {}
            },
            PlanLeader::CheapHero => {
                self.take_card(f, Card::CheapHero, rule!("3.01.04"));
            }
            PlanLeader::None => {
                if !available.is_empty() {
                    let names: Vec<&str> = available.iter().map(|l| l.code()).collect();
                    self.v(
                        rule!("1.07.04.04"),
                        format!(
                            "{f} must play a leader or a Cheap Hero: {} can fight",
                            names.join(", ")
                        ),
                    );
                }
                if plan.weapon.is_some() || plan.defense.is_some() {
                    self.v(
                        rule!("1.07.04.05"),
                        format!("{f} has no leader or Cheap Hero on its wheel and cannot play treachery cards"),
                    );
                }
            }
        }
        // The Kwisatz Haderach (2.01.10-2.01.14).
        let mut plan = plan;
        if plan.kwisatz && !self.check_kwisatz(&plan, t) {
            // Not usable: the plan is resolved without it.
            plan.kwisatz = false;
        }
        // Forces and spice (1.07.04.01, 1.13.04).
        let here = self.st.in_territory(f, t);
        if plan.dial.total > here.fighting() || plan.dial.starred > here.starred {
            self.v(
                rule!("1.07.04.01"),
                format!(
                    "{f} dials {} but has {} forces ({} starred) in {}",
                    plan.dial,
                    here.fighting(),
                    here.starred,
                    t.name()
                ),
            );
        }
        if !plan.spice.is_zero() {
            if !self.st.options.advanced {
                self.v(
                    rule!("1.13.04"),
                    format!("{f} puts spice on its wheel, but spice dialing is an Advanced rule"),
                );
            } else if plan.spice > self.spice(f) {
                self.v(
                    rule!("1.13.04"),
                    format!(
                        "{f} puts {} spice on its wheel but has {}{}",
                        plan.spice,
                        self.spice(f),
                        self.bribe_note(f)
                    ),
                );
            }
        }
        // Cards (1.07.04.06): the slots take what they are for, worthless cards in either.
        let hand_before = self.st.faction(f).hand.clone();
        for (card, weapon_slot) in [(plan.weapon, true), (plan.defense, false)] {
            let Some(c) = card else { continue };
            let fits = match c.kind() {
                CardKind::WeaponSpecial | CardKind::WeaponProjectile | CardKind::WeaponPoison => {
                    weapon_slot
                }
                CardKind::DefenseProjectile | CardKind::DefensePoison => !weapon_slot,
                CardKind::Worthless => true,
                CardKind::Leader | CardKind::Special => false,
            };
            if !fits {
                let slot = if weapon_slot { "weapon" } else { "defense" };
                // A card that is neither weapon nor defence is played as its own text says
                // (the Cheap Hero as a leader, 3.01.04; the others not in battle at all).
                let rule = match c.kind() {
                    CardKind::Leader | CardKind::Special => c.rule(),
                    _ => rule!("1.07.04.06"),
                };
                self.v(rule, format!("{c} cannot be played as {f}'s {slot}"));
            }
            self.take_card(f, c, c.rule());
        }
        // The strength of the forces dialled, when the log asserts it.
        for a in asserts {
            if let Assertion::Wheel { pos, value } = a {
                let computed = battle::wheel(&plan, opponent, side, &self.conditions());
                if computed != *value {
                    let rule = if !self.st.options.advanced {
                        rule!("1.07.04.01")
                    } else if let Some(r) = crate::factions::rules(f).wheel_rule(&plan, opponent) {
                        r
                    } else {
                        rule!("1.13.04.01")
                    };
                    self.v_at(
                        *pos,
                        rule,
                        format!(
                            "{f}'s {} forces with {} spice are worth {computed} on the wheel, not {value}",
                            plan.dial, plan.spice
                        ),
                    );
                }
            }
        }
        self.check_voice(&plan, &hand_before, plan.leader != PlanLeader::None);
        if let Some(b) = self.t.battle.current.as_mut() {
            b.plans[side] = Some(plan);
        }
        self.check_prescience(&plan);
    }

    /// The strength conditions of this battle as far as the plans go (Karama effects are taken
    /// when the battle is resolved).
    pub(crate) fn conditions(&self) -> Conditions {
        Conditions {
            advanced: self.st.options.advanced,
            ..Conditions::default()
        }
    }

    pub(crate) fn traitor_call(
        &mut self,
        pos: Pos,
        f: Faction,
        leader: Leader,
        for_ally: Option<Faction>,
    ) {
        if !self.battle_or_report(rule!("1.07.06.06"), "A traitor call") {
            return;
        }
        let beneficiary = match for_ally {
            Some(a) => {
                if !crate::factions::rules(f).traitors_for_ally() || self.st.ally(f) != Some(a) {
                    self.v(rule!("2.05.09"), format!("only the Harkonnen call a traitor in their ally's battle; {f} is not {a}'s Harkonnen ally"));
                    return;
                }
                a
            }
            None => f,
        };
        let Some(b) = self.t.battle.current.as_ref() else {
            return;
        };
        let Some(side) = b.side_of(beneficiary) else {
            self.v(
                rule!("1.07.06.06"),
                format!("{beneficiary} is not in this battle"),
            );
            return;
        };
        let opponent = b.sides[1 - side];
        let plan = b.plans[1 - side];
        match plan {
            Some(p) if p.leader == PlanLeader::Leader(leader) => {
                if p.kwisatz {
                    self.v(
                        rule!("2.01.12"),
                        format!(
                            "{leader} fights with the Kwisatz Haderach and cannot turn traitor"
                        ),
                    );
                    return;
                }
            }
            Some(_) => {
                self.v(
                    rule!("1.07.06.06"),
                    format!("{leader} is not {opponent}'s leader in this battle"),
                );
                return;
            }
            None => {
                self.v(
                    rule!("1.07.06.06"),
                    format!("a traitor is called once {opponent}'s battle plan is revealed"),
                );
                return;
            }
        }
        if self.opts.audit
            && let Some(list) = &self.st.faction(f).traitors
            && !list.contains(&Some(leader))
            && !list.contains(&None)
        {
            self.v(rule!("1.07.06.06"), format!("{f} calls {leader} a traitor, but {f}'s sealed traitor cards do not include {leader}"));
            return;
        }
        if let Some(b) = self.t.battle.current.as_mut() {
            b.betrayed[1 - side] = Some(pos);
        }
    }
}
