//! Battle arithmetic (1.07.04-1.07.06, 1.13.04-1.13.05, the battle cards of 3.01): two revealed
//! battle plans in, the outcome out. Pure and total: no game state, no IO, no panics, so the
//! replay, the property tests and a page's battle calculator share one implementation.
//!
//! It names no faction: what a side's forces are worth (elite starred forces, forces that need no
//! spice) comes in [`Conditions::strength`], set by the factions' own modules
//! (`crate::factions`, `battle_strength`) after the Karamas that stop an ability in this battle
//! (`battle_karama`); the Kwisatz Haderach is a token of the plan ([`Plan::kwisatz`]).
//!
//! Strengths are counted in half points ([`Halves`]): an unspiced force is worth one half of its
//! strength in the Advanced game (1.13.04.01), so totals such as 8.5 are exact.

use std::fmt;

use dune::{Faction, Rule, Spice, rule};

use crate::board::{Card, CardKind, Leader};
use crate::dgn::{ForceCount, PlanLeader};

/// A battle total in half points (`17` is 8.5).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Halves(pub u32);

impl Halves {
    pub const fn whole(n: u32) -> Halves {
        Halves(n.saturating_mul(2))
    }

    /// Reads `8`, `8.5` or `8,5` as a judge writes a total; `None` for anything else.
    pub fn parse(text: &str) -> Option<Halves> {
        let text = text.trim();
        let (whole, half) = match text.split_once(['.', ',']) {
            Some((w, "5")) => (w, 1),
            Some((w, "0")) => (w, 0),
            Some(_) => return None,
            None => (text, 0),
        };
        let n: u32 = whole.parse().ok()?;
        n.checked_mul(2)?.checked_add(half).map(Halves)
    }
}

impl fmt::Display for Halves {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_multiple_of(2) {
            write!(f, "{}", self.0 / 2)
        } else {
            write!(f, "{}.5", self.0 / 2)
        }
    }
}

/// One side's revealed battle plan.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plan {
    pub faction: Faction,
    pub leader: PlanLeader,
    /// The Kwisatz Haderach accompanies the leader or Cheap Hero (2.01.11).
    pub kwisatz: bool,
    pub dial: ForceCount,
    pub spice: Spice,
    pub weapon: Option<Card>,
    pub defense: Option<Card>,
}

impl Plan {
    fn cards(&self) -> impl Iterator<Item = Card> {
        let hero = (self.leader == PlanLeader::CheapHero).then_some(Card::CheapHero);
        hero.into_iter().chain(self.weapon).chain(self.defense)
    }

    fn plays(&self, c: Card) -> bool {
        self.weapon == Some(c) || self.defense == Some(c)
    }

    fn leader_strength(&self) -> u32 {
        match self.leader {
            PlanLeader::Leader(l) => u32::from(l.strength()),
            PlanLeader::CheapHero | PlanLeader::None => 0,
        }
    }
}

/// What one side's forces are worth in this battle, as its faction's rules set it (the
/// replay asks each faction, `FactionRules::battle_strength`, and applies the Karamas that stop
/// an ability, `FactionRules::battle_karama`): the arithmetic here names no faction. The rules
/// are kept so that a misread can be cited by the rule it breaks ([`Slip`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Strength {
    /// What one starred force dialled is worth, in forces (two for elite forces; one for a
    /// faction without starred forces, or when a Karama cancels the ability).
    pub star_worth: u8,
    /// The rule that gives the starred forces that worth (the Sardaukar 2.03.08, the Fedaykin
    /// 2.04.18).
    pub star_rule: Option<Rule>,
    /// A rule that lowers the starred forces' worth against this opponent, with the worth it
    /// would be otherwise (the Sardaukar against the Fremen, 2.03.09).
    pub weakened: Option<(u8, Rule)>,
    /// The rule by which the forces count in full without spice (Battle Hardened, 2.04.21).
    pub unspiced_full: Option<Rule>,
}

impl Default for Strength {
    fn default() -> Self {
        Strength {
            star_worth: 1,
            star_rule: None,
            weakened: None,
            unspiced_full: None,
        }
    }
}

/// What changes the arithmetic beyond the two plans.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Conditions {
    /// The Advanced game: spice dialing (1.13.04) and the factions' battle strengths (2.xx).
    pub advanced: bool,
    /// What each side's forces are worth (aggressor, defender); see [`Strength`].
    pub strength: [Strength; 2],
    /// The side whose leader a traitor card revealed (1.07.06.06), per side.
    pub betrayed: [bool; 2],
}

/// A common misreading of the battle rules, for explaining a logged result that differs from
/// the computed one by the rule it breaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slip {
    /// Unspiced forces counted at full strength (1.13.04.01).
    UnspicedAtFull,
    /// Starred forces counted at their usual worth against an opponent that lowers it (the
    /// Sardaukar against the Fremen, 2.03.09).
    WeaknessIgnored,
    /// Forces that need no spice counted half without it (Battle Hardened, 2.04.21).
    SpiceRequired,
    /// Elite starred forces counted as one force each (2.03.08, 2.04.18).
    StarredAsOne,
    /// A killed leader's strength added to its side's total (1.07.06.02).
    DeadLeaderCounted,
    /// The Kwisatz Haderach's +2 added although its leader or Cheap Hero was killed (2.01.11).
    KwisatzWithoutLeader,
}

impl Slip {
    pub const ALL: [Slip; 6] = [
        Slip::UnspicedAtFull,
        Slip::WeaknessIgnored,
        Slip::SpiceRequired,
        Slip::StarredAsOne,
        Slip::DeadLeaderCounted,
        Slip::KwisatzWithoutLeader,
    ];

    /// The rule the slip breaks in a battle fought under `c` (a faction's rule comes from its
    /// [`Strength`]).
    pub fn rule(self, c: &Conditions) -> Rule {
        let side_rule = |f: fn(&Strength) -> Option<Rule>| c.strength.iter().find_map(f);
        match self {
            Slip::UnspicedAtFull => Some(rule!("1.13.04.01")),
            Slip::WeaknessIgnored => side_rule(|s| s.weakened.map(|(_, r)| r)),
            Slip::SpiceRequired => side_rule(|s| s.unspiced_full),
            Slip::StarredAsOne => side_rule(|s| s.star_rule.filter(|_| s.star_worth > 1)),
            Slip::DeadLeaderCounted => Some(rule!("1.07.06.02")),
            Slip::KwisatzWithoutLeader => Some(rule!("2.01.11")),
        }
        .unwrap_or(rule!("1.07.06"))
    }

    /// The conditions a judge making this slip would count with.
    fn conditions(self, c: &Conditions) -> Conditions {
        let mut c = *c;
        for s in c.strength.iter_mut() {
            match self {
                Slip::WeaknessIgnored => {
                    if let Some((w, _)) = s.weakened.take() {
                        s.star_worth = w;
                    }
                }
                Slip::SpiceRequired => s.unspiced_full = None,
                Slip::StarredAsOne => s.star_worth = 1,
                _ => {}
            }
        }
        c
    }
}

/// What a side loses in the territory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Loss {
    /// Nothing (the winner of a traitor call, 1.07.06.06.00).
    Nothing,
    /// The forces dialled (the winner, 1.07.06.05; ruling 26: tokens, whatever their strength).
    Dialed(ForceCount),
    /// Every force it has there (the loser, 1.07.06.04; both after two traitors, 1.07.06.06.02).
    All,
}

/// How the battle was decided, for messages and citations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Higher total (1.07.06).
    Totals,
    /// Equal totals: the aggressor wins (1.07.06.00).
    Tie,
    /// One traitor revealed (1.07.06.06.00).
    Traitor,
    /// Both leaders traitors (1.07.06.06.02): nobody wins.
    TwoTraitors,
    /// Lasgun and Shield in one battle (3.01.14): nobody wins.
    Explosion,
}

impl Decision {
    pub fn rule(self) -> Rule {
        match self {
            Decision::Totals => rule!("1.07.06"),
            Decision::Tie => rule!("1.07.06.00"),
            Decision::Traitor => rule!("1.07.06.06.00"),
            Decision::TwoTraitors => rule!("1.07.06.06.02"),
            Decision::Explosion => rule!("3.01.14"),
        }
    }
}

/// The outcome of a battle; index 0 is the aggressor, 1 the defender.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub decision: Decision,
    /// `None` when nobody wins (two traitors, an explosion).
    pub winner: Option<usize>,
    /// Strength of the forces dialled, per side (1.13.04).
    pub wheel: [Halves; 2],
    /// Totals per side (1.07.06); only meaningful when decided by totals.
    pub totals: [Halves; 2],
    /// Leaders killed (to the tanks), in plan order.
    pub killed: Vec<Leader>,
    /// The side whose leader was killed, per side (Cheap Heroes count: the Kwisatz Haderach then
    /// adds nothing, 2.01.11).
    pub leader_killed: [bool; 2],
    /// The Kwisatz Haderach dies (only in an explosion, 2.01.13).
    pub kwisatz_killed: bool,
    /// Spice the winner receives for killed leaders (1.07.06.02) or for the traitor
    /// (1.07.06.06.00).
    pub leader_spice: Spice,
    pub losses: [Loss; 2],
    /// Every force and the spice of the territory is lost, third factions' included (3.01.14).
    pub explosion: bool,
    /// The side keeps the spice it dialled (1.13.05).
    pub keeps_wheel_spice: [bool; 2],
    /// The side must discard every card it played (the loser 1.07.06.04, 1.07.06.06.01; an
    /// explosion 3.01.14).
    pub discards_all: [bool; 2],
    /// The side's Kwisatz Haderach counts as used this turn (not for a traitor's winner,
    /// 1.07.06.06.00).
    pub kwisatz_used: [bool; 2],
}

/// The strength of a plan's forces on the wheel (1.07.04.01, 1.13.04; what a starred force is
/// worth and whether the forces need spice come from the side's [`Strength`]). Spice supports the
/// starred forces first, the way a player would place it.
pub fn wheel(plan: &Plan, side: usize, c: &Conditions) -> Halves {
    wheel_with(plan, side, c, None)
}

fn wheel_with(plan: &Plan, side: usize, c: &Conditions, slip: Option<Slip>) -> Halves {
    let total = u32::from(plan.dial.total);
    let starred = u32::from(plan.dial.starred.min(plan.dial.total));
    let normal = total - starred;
    if !c.advanced {
        return Halves::whole(total);
    }
    let c = slip.map_or(*c, |s| s.conditions(c));
    let s = c.strength[side.min(1)];
    // Worth of one starred force, in forces.
    let star_worth = u32::from(s.star_worth.max(1));
    let spiced = if s.unspiced_full.is_some() || slip == Some(Slip::UnspicedAtFull) {
        total
    } else {
        plan.spice.amount().min(total)
    };
    let spiced_starred = spiced.min(starred);
    let spiced_normal = (spiced - spiced_starred).min(normal);
    // Half points: a spiced force counts in full (2 halves a force), an unspiced one half.
    let halves = spiced_starred * star_worth * 2
        + (starred - spiced_starred) * star_worth
        + spiced_normal * 2
        + (normal - spiced_normal);
    Halves(halves)
}

/// The wheel a judge making `slip` would read for this plan (to name the rule a logged wheel
/// breaks).
pub fn wheel_slip(plan: &Plan, side: usize, c: &Conditions, slip: Slip) -> Halves {
    wheel_with(plan, side, c, Some(slip))
}

/// Does this weapon kill the leader behind this defence (1.07.06.01, 3.01.02-3.01.19; Ellaca
/// Drug is stopped by a projectile defence, ruling 17)?
pub fn kills(weapon: Option<Card>, defense: Option<Card>) -> bool {
    let Some(w) = weapon else {
        return false;
    };
    let d = defense.map(Card::kind);
    match w.kind() {
        CardKind::WeaponSpecial => true,
        CardKind::WeaponProjectile => d != Some(CardKind::DefenseProjectile),
        CardKind::WeaponPoison if w == Card::EllacaDrug => d != Some(CardKind::DefenseProjectile),
        CardKind::WeaponPoison => d != Some(CardKind::DefensePoison),
        _ => false,
    }
}

/// Resolves a battle between the aggressor's plan (`plans[0]`) and the defender's (`plans[1]`).
pub fn resolve(plans: [&Plan; 2], c: &Conditions) -> Outcome {
    resolve_with(plans, c, None)
}

/// The outcome a judge would reach by making `slip`, to name the rule a logged result breaks.
pub fn resolve_with(plans: [&Plan; 2], c: &Conditions, slip: Option<Slip>) -> Outcome {
    let wheel = [
        wheel_with(plans[0], 0, c, slip),
        wheel_with(plans[1], 1, c, slip),
    ];
    let mut out = Outcome {
        decision: Decision::Totals,
        winner: None,
        wheel,
        totals: wheel,
        killed: Vec::new(),
        leader_killed: [false; 2],
        kwisatz_killed: false,
        leader_spice: Spice::ZERO,
        losses: [Loss::All; 2],
        explosion: false,
        keeps_wheel_spice: [false; 2],
        discards_all: [false; 2],
        kwisatz_used: [plans[0].kwisatz, plans[1].kwisatz],
    };
    let leader_of = |p: &Plan| match p.leader {
        PlanLeader::Leader(l) => Some(l),
        _ => None,
    };
    // Traitors first: a revealed traitor wins whatever the plans say, lasgun and shield included
    // (1.07.06.06.00).
    match c.betrayed {
        [true, true] => {
            out.decision = Decision::TwoTraitors;
            out.killed = plans.iter().filter_map(|p| leader_of(p)).collect();
            out.leader_killed = [true, true];
            out.discards_all = [true, true];
            return out;
        }
        [a, b] if a || b => {
            let w = usize::from(a);
            let l = 1 - w;
            out.decision = Decision::Traitor;
            out.winner = Some(w);
            out.killed = leader_of(plans[l]).into_iter().collect();
            out.leader_killed[l] = true;
            out.leader_spice = Spice::new(plans[l].leader_strength());
            out.losses = [Loss::All; 2];
            out.losses[w] = Loss::Nothing;
            out.keeps_wheel_spice[w] = true;
            out.discards_all[l] = true;
            out.kwisatz_used[w] = false;
            return out;
        }
        _ => {}
    }
    // Lasgun and Shield: an explosion, nobody wins (3.01.14; 2.01.13 the Kwisatz Haderach too).
    let lasgun = plans.iter().any(|p| p.plays(Card::Lasgun));
    let shield = plans.iter().any(|p| p.plays(Card::Shield));
    if lasgun && shield {
        out.decision = Decision::Explosion;
        out.explosion = true;
        out.killed = plans.iter().filter_map(|p| leader_of(p)).collect();
        out.leader_killed = [true, true];
        out.kwisatz_killed = plans.iter().any(|p| p.kwisatz);
        out.discards_all = [true, true];
        return out;
    }
    for i in 0..2 {
        let me = plans[i];
        let them = plans[1 - i];
        let dies = kills(them.weapon, me.defense) || own_weapon_kills(me);
        if dies && me.leader != PlanLeader::None {
            out.leader_killed[i] = true;
            if let Some(l) = leader_of(me) {
                out.killed.push(l);
                out.leader_spice += Spice::new(u32::from(l.strength()));
            }
        }
    }
    for i in 0..2 {
        let p = plans[i];
        let kh = if p.kwisatz { 2 } else { 0 };
        if !out.leader_killed[i] || slip == Some(Slip::DeadLeaderCounted) {
            out.totals[i] = Halves(wheel[i].0 + Halves::whole(p.leader_strength() + kh).0);
        } else if slip == Some(Slip::KwisatzWithoutLeader) {
            out.totals[i] = Halves(wheel[i].0 + Halves::whole(kh).0);
        }
    }
    let w = if out.totals[1] > out.totals[0] { 1 } else { 0 };
    if out.totals[0] == out.totals[1] {
        out.decision = Decision::Tie;
    }
    out.winner = Some(w);
    out.losses[w] = Loss::Dialed(plans[w].dial);
    out.losses[1 - w] = Loss::All;
    out.discards_all[1 - w] = true;
    out
}

/// 1.07.06.01's second case: a weapon that kills its own player's leader. None of the classic
/// cards does; kept so the rule has its place.
fn own_weapon_kills(_plan: &Plan) -> bool {
    false
}

/// The cards a plan puts on the wheel (Cheap Hero, weapon, defence).
pub fn cards_played(plan: &Plan) -> Vec<Card> {
    plan.cards().collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dgn::Side;

    fn plan(f: Faction, leader: PlanLeader, total: u8, starred: u8, spice: u32) -> Plan {
        Plan {
            faction: f,
            leader,
            kwisatz: false,
            dial: ForceCount {
                total,
                starred,
                side: Side::Unspecified,
            },
            spice: Spice::new(spice),
            weapon: None,
            defense: None,
        }
    }

    const ADV: Conditions = Conditions {
        advanced: true,
        strength: [ELITE_NONE; 2],
        betrayed: [false; 2],
    };

    const ELITE_NONE: Strength = Strength {
        star_worth: 1,
        star_rule: None,
        weakened: None,
        unspiced_full: None,
    };

    /// Elite forces worth two (as the Sardaukar against most opponents, 2.03.08).
    const ELITE: Strength = Strength {
        star_worth: 2,
        star_rule: Some(rule!("2.03.08")),
        ..ELITE_NONE
    };

    fn with(side: usize, s: Strength) -> Conditions {
        let mut c = ADV;
        c.strength[side] = s;
        c
    }

    #[test]
    fn halves_read_and_print_as_judges_write_them() {
        assert_eq!(Halves::parse("8.5"), Some(Halves(17)));
        assert_eq!(Halves::parse("8"), Some(Halves(16)));
        assert_eq!(Halves::parse("8.3"), None);
        assert_eq!(Halves(17).to_string(), "8.5");
    }

    #[test]
    fn spice_dialing_and_elite_forces() {
        // 4 forces, 2 starred worth two, no spice: 2 x 0.5 + 2 x 1 = 3.
        let em = plan(Faction::Emperor, PlanLeader::CheapHero, 4, 2, 0);
        assert_eq!(wheel(&em, 0, &with(0, ELITE)), Halves::whole(3));
        // Spiced: 2 + 4.
        let em = plan(Faction::Emperor, PlanLeader::CheapHero, 4, 2, 4);
        assert_eq!(wheel(&em, 0, &with(0, ELITE)), Halves::whole(6));
        // Starred worth one (against the Fremen, 2.03.09, or a Karama): 4.
        assert_eq!(wheel(&em, 0, &ADV), Halves::whole(4));
        // Forces that need no spice (2.04.21) count in full; elite ones double.
        let hardened = Strength {
            unspiced_full: Some(rule!("2.04.21")),
            ..ELITE
        };
        let fr = plan(Faction::Fremen, PlanLeader::CheapHero, 3, 1, 0);
        assert_eq!(wheel(&fr, 1, &with(1, hardened)), Halves::whole(4));
        // Basic game: every force counts one.
        let at = plan(Faction::Atreides, PlanLeader::CheapHero, 5, 0, 0);
        assert_eq!(wheel(&at, 0, &Conditions::default()), Halves::whole(5));
        assert_eq!(wheel(&at, 0, &ADV), Halves(5));
    }

    #[test]
    fn misreadings_are_named_by_the_rule_they_break() {
        let weak = Strength {
            star_worth: 1,
            star_rule: Some(rule!("2.03.08")),
            weakened: Some((2, rule!("2.03.09"))),
            unspiced_full: None,
        };
        let c = with(0, weak);
        let em = plan(Faction::Emperor, PlanLeader::CheapHero, 4, 2, 4);
        assert_eq!(wheel(&em, 0, &c), Halves::whole(4));
        assert_eq!(
            wheel_slip(&em, 0, &c, Slip::WeaknessIgnored),
            Halves::whole(6)
        );
        assert_eq!(Slip::WeaknessIgnored.rule(&c), rule!("2.03.09"));
        let c = with(0, ELITE);
        assert_eq!(wheel_slip(&em, 0, &c, Slip::StarredAsOne), Halves::whole(4));
        assert_eq!(Slip::StarredAsOne.rule(&c), rule!("2.03.08"));
        // A slip with nothing to misread changes nothing.
        assert_eq!(
            wheel_slip(&em, 0, &ADV, Slip::StarredAsOne),
            wheel(&em, 0, &ADV)
        );
        // The Kwisatz Haderach's +2 with its leader killed (2.01.11).
        let mut a = plan(
            Faction::Atreides,
            PlanLeader::Leader(Leader::Duncan),
            3,
            0,
            3,
        );
        a.kwisatz = true;
        let mut h = plan(Faction::Harkonnen, PlanLeader::CheapHero, 4, 0, 4);
        h.weapon = Some(Card::Lasgun);
        let o = resolve([&a, &h], &ADV);
        assert_eq!((o.totals[0], o.winner), (Halves::whole(3), Some(1)));
        let slip = resolve_with([&a, &h], &ADV, Some(Slip::KwisatzWithoutLeader));
        assert_eq!((slip.totals[0], slip.winner), (Halves::whole(5), Some(0)));
        assert_eq!(Slip::KwisatzWithoutLeader.rule(&ADV), rule!("2.01.11"));
    }

    #[test]
    fn weapons_defences_ties_and_explosions() {
        let mut a = plan(
            Faction::Atreides,
            PlanLeader::Leader(Leader::Duncan),
            3,
            0,
            3,
        );
        let mut h = plan(
            Faction::Harkonnen,
            PlanLeader::Leader(Leader::Feyd),
            1,
            0,
            0,
        );
        h.weapon = Some(Card::Chaumas);
        let o = resolve([&a, &h], &ADV);
        // Duncan dies; AT 3, HK 0.5 + 6.
        assert_eq!(o.killed, vec![Leader::Duncan]);
        assert_eq!(o.totals, [Halves::whole(3), Halves(13)]);
        assert_eq!(o.winner, Some(1));
        assert_eq!(o.leader_spice, Spice::new(2));
        a.defense = Some(Card::Snooper);
        let o = resolve([&a, &h], &ADV);
        assert!(o.killed.is_empty());
        // Ellaca Drug is stopped by a projectile defence (ruling 17).
        h.weapon = Some(Card::EllacaDrug);
        assert!(!resolve([&a, &h], &ADV).killed.is_empty());
        a.defense = Some(Card::Shield);
        assert!(resolve([&a, &h], &ADV).killed.is_empty());
        h.weapon = Some(Card::Lasgun);
        let o = resolve([&a, &h], &ADV);
        assert!(o.explosion && o.winner.is_none());
        assert_eq!(o.decision, Decision::Explosion);
        // Ties go to the aggressor (1.07.06.00).
        let x = plan(Faction::Emperor, PlanLeader::CheapHero, 2, 0, 2);
        let y = plan(Faction::SpacingGuild, PlanLeader::CheapHero, 2, 0, 2);
        let o = resolve([&x, &y], &ADV);
        assert_eq!((o.winner, o.decision), (Some(0), Decision::Tie));
    }

    #[test]
    fn traitors_decide_before_anything_else() {
        let mut a = plan(
            Faction::Atreides,
            PlanLeader::Leader(Leader::Thufir),
            2,
            0,
            2,
        );
        a.weapon = Some(Card::Lasgun);
        let mut h = plan(
            Faction::Harkonnen,
            PlanLeader::Leader(Leader::Feyd),
            1,
            0,
            1,
        );
        h.defense = Some(Card::Shield);
        let c = Conditions {
            betrayed: [true, false],
            ..ADV
        };
        let o = resolve([&a, &h], &c);
        assert_eq!(o.winner, Some(1));
        assert_eq!(o.killed, vec![Leader::Thufir]);
        assert_eq!(o.leader_spice, Spice::new(5));
        assert_eq!(o.losses, [Loss::All, Loss::Nothing]);
        assert!(o.keeps_wheel_spice[1] && !o.explosion);
        let c = Conditions {
            betrayed: [true, true],
            ..ADV
        };
        let o = resolve([&a, &h], &c);
        assert_eq!(o.winner, None);
        assert_eq!(o.killed.len(), 2);
        assert_eq!(o.leader_spice, Spice::ZERO);
    }
}
