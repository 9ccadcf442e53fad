//! Battle plans (1.07.04) and what comes before them: Voice (2.02.06, 2.02.07), Prescience
//! (2.01.08, 2.01.09) and traitor calls (1.07.06.06, 2.05.09, 2.01.12), each checked against the
//! plans where the plan reveals it.

use super::{Battle, Replay};
use crate::battle::{self, Conditions, Plan};
use crate::board::{Card, CardKind, Leader};
use crate::dgn::{Assertion, PlanLeader, Pos};
use crate::replay::karama::Ability;
use crate::state::LeaderState;
use dune::{Faction, Rule, Spice, rule};

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

    /// Does this card answer the command (in the slot where it is played)? A card of two kinds
    /// answers both (the Poison Blade 3.02.07, the Shield Snooper 3.02.10), and one of two uses
    /// answers as what its slot makes it (Chemistry 3.02.04, the Weirding Way 3.02.13).
    fn card_matches(self, c: Card, weapon_slot: bool) -> bool {
        let poison_weapon =
            matches!(c, Card::PoisonBlade | Card::Chemistry) || c.kind() == CardKind::WeaponPoison;
        let projectile_weapon = c == Card::PoisonBlade || c.kind() == CardKind::WeaponProjectile;
        let poison_defense = c.kind() == CardKind::DefensePoison || c == Card::ShieldSnooper;
        let projectile_defense = matches!(c, Card::ShieldSnooper | Card::WeirdingWay)
            || c.kind() == CardKind::DefenseProjectile;
        match self {
            VoiceCmd::PoisonWeapon => weapon_slot && poison_weapon,
            VoiceCmd::ProjectileWeapon => weapon_slot && projectile_weapon,
            VoiceCmd::PoisonDefense => !weapon_slot && poison_defense,
            VoiceCmd::ProjectileDefense => !weapon_slot && projectile_defense,
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
                LeaderState::Tanks { .. } | LeaderState::SetAside => false,
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
        let b_pos = b.pos;
        let opponent = b.sides[1 - side];
        // What a faction reveals with its plan (Richese's No-Field tokens, 000 2.10.16).
        for g in self.st.in_play.iter() {
            crate::factions::rules(g).before_plan(self, f, t);
        }
        let Some(b) = self.t.battle.current.as_ref() else {
            return;
        };
        let available = self.available_leaders(f, b);
        // The leader slot (1.07.04.02-1.07.04.05, 4.01.16).
        let fought_elsewhere = match plan.leader {
            PlanLeader::Leader(l) => self.t.battle.fought_in[l.index()].filter(|&x| x != t),
            _ => None,
        };
        let not_in_play = match plan.leader {
            PlanLeader::Leader(l) => crate::factions::rules(l.faction()).leader_in_play(self, l),
            _ => None,
        };
        match plan.leader {
            PlanLeader::Leader(l) if let Some(rule) = not_in_play => {
                self.v(
                    rule,
                    format!("{l} is not in this game (an Advanced game leader)"),
                );
            }
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
            // 000 3.03.13: played in place of a leader, or with none available.
            PlanLeader::Levenbrech => {
                self.take_card(f, Card::Levenbrech, rule!("3.03.13"));
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
        // Forces and spice (1.07.04.01, 1.13.04). A faction's rules may have it dial another's
        // forces (Battling Co-Occupied, 000 2.11.19 original).
        let pool = self
            .st
            .in_play
            .iter()
            .find_map(|g| crate::factions::rules(g).dial_pool(self, f, t))
            .unwrap_or(f);
        let here = self.st.in_territory(pool, t);
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
        if let Some((a, share)) = plan.ally_spice {
            // An ally that pays for the forces by its own ability (CHOAM, 000 2.09.15).
            match crate::factions::rules(a).pays_ally_battle_spice(self, f) {
                Some((rule, false)) => {
                    self.v(
                        rule,
                        format!(
                            "{a} pays only for its ally's forces in battle, and {f} is not its ally"
                        ),
                    );
                    plan.ally_spice = None;
                }
                None => {
                    self.v(
                        rule!("1.13.04"),
                        format!("{a} cannot pay for {f}'s forces in battle (only CHOAM pays for its ally's, 000 2.09.15)"),
                    );
                    plan.ally_spice = None;
                }
                Some((rule, _)) if share > plan.spice || share > self.spice(a) => {
                    self.v(
                        rule,
                        format!(
                            "{a} pays {share} of {f}'s {} spice in battle but has {}",
                            plan.spice,
                            self.spice(a)
                        ),
                    );
                }
                Some(_) => {}
            }
        }
        let own_share = plan
            .spice
            .saturating_sub(plan.ally_spice.map_or(Spice::ZERO, |(_, s)| s));
        if !plan.spice.is_zero() {
            if !self.st.options.advanced {
                self.v(
                    rule!("1.13.04"),
                    format!("{f} puts spice on its wheel, but spice dialing is an Advanced rule"),
                );
            } else if own_share > self.spice(f) {
                self.v(
                    rule!("1.13.04"),
                    format!(
                        "{f} puts {} spice on its wheel but has {}{}",
                        own_share,
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
            let fits = match c {
                // Chemistry is a weapon only beside another defence (3.02.04), the Weirding Way
                // a defence only beside another weapon (3.02.13).
                Card::Chemistry if weapon_slot => plan.defense.is_some(),
                Card::WeirdingWay if !weapon_slot => plan.weapon.is_some(),
                _ => match c.kind() {
                    CardKind::WeaponSpecial
                    | CardKind::WeaponProjectile
                    | CardKind::WeaponPoison => weapon_slot,
                    CardKind::DefenseProjectile
                    | CardKind::DefensePoison
                    | CardKind::DefenseSpecial => !weapon_slot,
                    // In place of a weapon or a defence (000 3.04.01, 3.04.03).
                    CardKind::Worthless | CardKind::SpecialBattle => true,
                    CardKind::Leader | CardKind::Special => false,
                },
            };
            if !fits {
                let slot = if weapon_slot { "weapon" } else { "defense" };
                // A card that is neither weapon nor defence is played as its own text says
                // (the Cheap Hero as a leader, 3.01.04; the others not in battle at all), and
                // so is a card with two uses (Chemistry, the Weirding Way).
                let rule = match c.kind() {
                    CardKind::Leader | CardKind::Special => c.rule(),
                    // An expansion's card states where it is played (000 3.02).
                    _ if c.set() != crate::board::CardSet::Classic => c.rule(),
                    _ => rule!("1.07.04.06"),
                };
                let why = match c {
                    Card::Chemistry => {
                        " (Chemistry is a poison weapon only when played with another defense)"
                    }
                    Card::WeirdingWay => {
                        " (the Weirding Way is a projectile defense only when played with another weapon)"
                    }
                    _ => "",
                };
                self.v(rule, format!("{c} cannot be played as {f}'s {slot}{why}"));
            }
            self.take_card(f, c, c.rule());
        }
        // Reinforcements needs 3 forces in reserve to send to the tanks (000 3.04.03).
        if plan.weapon == Some(Card::Reinforcements) || plan.defense == Some(Card::Reinforcements) {
            let reserves = self.st.faction(f).reserves;
            if reserves.total() < 3 {
                self.v_full(
                    rule!("3.04.03"),
                    format!("{f} plays Reinforcements but has {reserves} forces in reserve: it must put 3 in the tanks"),
                );
            }
        }
        // The strength of the forces dialled, when the log asserts it: by the kinds of force, with
        // the bonus, the faction's effects in force and the Karamas already played against its
        // battle abilities (3.01.11.01).
        let mut conditions = self.conditions();
        conditions.bonus[side] = self.dial_bonus(&plan, t);
        crate::factions::rules(f).wheel_conditions(self, t, &plan, &mut conditions, side);
        for a in asserts {
            if let Assertion::Wheel { pos, value } = a {
                let without = conditions;
                let mut c = conditions;
                let mut p = plan;
                let stopped = self.karama_in_battle(b_pos, &mut p, &mut c, side, false);
                let computed = battle::wheel(&p, opponent, side, &c);
                if computed != *value {
                    let karama = stopped
                        .first()
                        .filter(|_| battle::wheel(&plan, opponent, side, &without) == *value);
                    // The bonus left out: the rule that adds it (Reinforcements, 000 3.04.03; a
                    // faction's, such as Battling Co-Occupied, 000 2.11.19 original).
                    let bonus = c.bonus[side];
                    let bonus_rule =
                        (bonus.0 > 0 && value.0 < computed.0 && computed.0 - value.0 <= bonus.0)
                            .then(|| self.dial_bonus_rule(&plan, t))
                            .flatten();
                    let (rule, note) = if let Some(r) = bonus_rule {
                        (r, String::new())
                    } else if !self.st.options.advanced {
                        (rule!("1.07.04.01"), String::new())
                    } else if let Some(k) = karama {
                        (k.rule(), format!(" ({})", k.describe()))
                    } else if let Some(r) = crate::factions::rules(f).wheel_rule(&plan, opponent) {
                        (r, String::new())
                    } else {
                        // The misreading that gives the log's number, by the rule it breaks.
                        let slip = battle::Slip::ALL
                            .into_iter()
                            .find(|&s| battle::wheel_slip(&p, opponent, side, &c, s) == *value);
                        (
                            slip.map_or(rule!("1.13.04.01"), |s| s.rule_for(&p, opponent)),
                            String::new(),
                        )
                    };
                    self.v_at(
                        *pos,
                        rule,
                        format!(
                            "{f}'s {} forces with {} spice are worth {computed} on the wheel, not {value}{note}",
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

    /// What a side adds to the number it dials: Reinforcements' 2 (000 3.04.03), and what a
    /// faction's rules add (half of Ecaz's forces in Battling Co-Occupied, 000 2.11.19
    /// original).
    pub(crate) fn dial_bonus(&self, plan: &Plan, t: crate::board::Territory) -> battle::Halves {
        let mut h = 0;
        if plan.weapon == Some(Card::Reinforcements) || plan.defense == Some(Card::Reinforcements) {
            h += battle::Halves::whole(2).0;
        }
        for g in self.st.in_play.iter() {
            if let Some((x, _)) = crate::factions::rules(g).dial_bonus(self, plan, t) {
                h += x.0;
            }
        }
        battle::Halves(h)
    }

    /// The rule behind a side's dial bonus (see [`Replay::dial_bonus`]).
    pub(crate) fn dial_bonus_rule(&self, plan: &Plan, t: crate::board::Territory) -> Option<Rule> {
        if plan.weapon == Some(Card::Reinforcements) || plan.defense == Some(Card::Reinforcements) {
            return Some(rule!("3.04.03"));
        }
        self.st
            .in_play
            .iter()
            .find_map(|g| crate::factions::rules(g).dial_bonus(self, plan, t))
            .map(|(_, r)| r)
    }

    /// At Revealing Wheels: Harass and Withdraw sends the player's undialed forces back to
    /// reserves unless a traitor is called on them (000 3.04.01); Reinforcements puts 3 forces
    /// from reserves in the tanks (000 3.04.03).
    pub(crate) fn battle_cards_revealed(
        &mut self,
        plans: &[Plan; 2],
        c: &Conditions,
        t: crate::board::Territory,
    ) {
        for (i, p) in plans.iter().enumerate() {
            let f = p.faction;
            let plays = |card: Card| p.weapon == Some(card) || p.defense == Some(card);
            if plays(Card::HarassAndWithdraw) && !c.betrayed[i] {
                let mut undialed = crate::state::Forces::new(
                    self.st
                        .in_territory(f, t)
                        .normal
                        .saturating_sub(p.dial.normal()),
                    self.st
                        .in_territory(f, t)
                        .starred
                        .saturating_sub(p.dial.starred),
                );
                for &piece in t.pieces() {
                    if undialed.is_empty() {
                        break;
                    }
                    let got =
                        self.st
                            .take_from_piece(f, piece, undialed, crate::dgn::Side::Fighter);
                    undialed.normal -= got.normal.min(undialed.normal);
                    undialed.starred -= got.starred.min(undialed.starred);
                    self.st.faction_mut(f).reserves.add(got.forces());
                }
            }
            if plays(Card::Reinforcements) {
                let got = self
                    .st
                    .faction_mut(f)
                    .reserves
                    .take(crate::state::Forces::new(3, 0));
                let left = 3 - got.total();
                let more = self
                    .st
                    .faction_mut(f)
                    .reserves
                    .take(crate::state::Forces::new(0, left));
                let st = self.st.faction_mut(f);
                st.tanks.add(got);
                st.tanks.add(more);
            }
        }
    }

    /// The strength conditions of this battle as far as the plans go (Karama effects are taken
    /// when the battle is resolved).
    pub(crate) fn conditions(&self) -> Conditions {
        Conditions {
            advanced: self.st.options.advanced,
            ..Conditions::default()
        }
    }

    /// `F withhold PoisonTooth` (000 3.02.08): its player chooses, as the wheels are revealed,
    /// not to use the Poison Tooth; the battle is resolved without it, and the card is kept if
    /// its player wins.
    pub(crate) fn withhold(&mut self, f: Faction, card: Card) {
        if !self.battle_or_report(rule!("3.02.08"), "Withholding a weapon") {
            return;
        }
        if card != Card::PoisonTooth {
            self.v(
                rule!("3.02.08"),
                format!(
                    "{card} is used as revealed; only the Poison Tooth may be withheld (3.02.08)"
                ),
            );
            return;
        }
        let Some(b) = self.t.battle.current.as_mut() else {
            return;
        };
        let Some(side) = b.side_of(f) else {
            self.v(rule!("3.02.08"), format!("{f} is not in this battle"));
            return;
        };
        match b.plans[side] {
            Some(p) if p.weapon == Some(Card::PoisonTooth) => b.withheld[side] = true,
            Some(_) => self.v(
                rule!("3.02.08"),
                format!("{f} did not play the Poison Tooth in this battle"),
            ),
            None => self.v(
                rule!("3.02.08"),
                format!("{f} chooses not to use the Poison Tooth once its plan is revealed"),
            ),
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
