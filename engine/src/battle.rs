//! Battle arithmetic (1.07.04-1.07.06, 1.13.04-1.13.05, the factions' battle abilities and the
//! battle cards of 3.01): two revealed battle plans in, the outcome out. Pure and total: no game
//! state, no IO, no panics, so the replay, the property tests and a page's battle calculator share
//! one implementation.
//!
//! What a side's forces are worth comes from its faction's kinds of force
//! (`crate::factions::kinds`); a Karama that stops an ability in this battle
//! (`FactionRules::battle_karama`) sets the side's [`Conditions`] (its starred forces counted
//! plain, its forces needing spice) or takes the Kwisatz Haderach off the plan ([`Plan::kwisatz`]).
//!
//! Strengths are counted in half points ([`Halves`]): an unspiced force is worth one half of its
//! strength in the Advanced game (1.13.04.01), so totals such as 8.5 are exact.

use std::fmt;

use dune::{Faction, Rule, Spice, rule};

use crate::board::{Card, CardKind, Leader};
use crate::dgn::{ForceCount, PlanLeader};
use crate::factions::{ForceKind, KindRules};

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
    /// Part of `spice` an ally pays (`d5$4 by CH$2`: CHOAM for its ally, 000 2.09.15).
    pub ally_spice: Option<(Faction, Spice)>,
    pub weapon: Option<Card>,
    pub defense: Option<Card>,
}

impl Plan {
    fn cards(&self) -> impl Iterator<Item = Card> {
        let hero = match self.leader {
            PlanLeader::CheapHero => Some(Card::CheapHero),
            PlanLeader::Levenbrech => Some(Card::Levenbrech),
            _ => None,
        };
        hero.into_iter().chain(self.weapon).chain(self.defense)
    }

    /// The leader's fighting strength against `opponent`'s plan: Zoal's is his opponent's
    /// leader's, none against a Cheap Hero, before any bonus (000 2.08.14).
    pub fn leader_strength(&self, opponent: &Plan) -> u32 {
        match self.leader {
            PlanLeader::Leader(Leader::Zoal) => match opponent.leader {
                PlanLeader::Leader(Leader::Zoal) => 0,
                PlanLeader::Leader(l) => u32::from(l.strength()),
                PlanLeader::CheapHero | PlanLeader::Levenbrech | PlanLeader::None => 0,
            },
            PlanLeader::Leader(l) => u32::from(l.strength()),
            PlanLeader::CheapHero | PlanLeader::Levenbrech | PlanLeader::None => 0,
        }
    }
}

/// What a plan's weapon does in its battle (3.01; 000 3.02).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strike {
    /// A projectile weapon: a projectile defence stops it (1.07.06.01).
    Projectile,
    /// A poison weapon: a poison defence stops it.
    Poison,
    /// The Ellaca Drug: a poison that a projectile defence stops (3.01.06, rulings.md 17).
    EllacaDrug,
    /// Projectile and poison at once: only a defence against both stops it (Poison Blade
    /// 3.02.07).
    Both,
    /// Nothing stops it (Lasgun 3.01.14).
    Lasgun,
    /// Kills both leaders; a Shield or Shield Snooper protects each (Artillery Strike 3.02.02).
    Artillery,
    /// Kills both leaders; a poison defence other than the Snooper protects each (Poison Tooth
    /// 3.02.08).
    Tooth,
    /// Any defence stops it (Poison Dart, 000 3.03.14).
    Dart,
    /// Copies the opponent's weapon, if it plays one (Mirror Weapon, 000 3.03.04).
    Mirror,
    /// The side with more undialed forces wins; its player may kill both leaders (Stone Burner,
    /// 000 3.03.10 original).
    StoneBurner,
    /// The stronger leader wins, forces do not count (Amtal, 000 3.03.11).
    Amtal,
}

/// What a plan's defence stops.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Guard {
    pub projectile: bool,
    pub poison: bool,
    /// The defence is a Snooper, which does not stop the Poison Tooth (3.02.08).
    pub snooper: bool,
    /// A Shield (or Shield Snooper): it explodes with a Lasgun (3.01.14, 3.02.10) and stops the
    /// Artillery Strike (3.02.02).
    pub shield: bool,
}

impl Strike {
    /// The weapon of a plan as played (`withheld`: its player chose not to use it, as the
    /// Poison Tooth allows, 3.02.08). Chemistry is a poison weapon only beside another defence
    /// (3.02.04); a card in the wrong slot does nothing (the plan's check reports it).
    pub fn of(plan: &Plan, withheld: bool) -> Option<Strike> {
        let w = plan.weapon?;
        if withheld {
            return None;
        }
        Some(match w {
            Card::Lasgun => Strike::Lasgun,
            Card::EllacaDrug => Strike::EllacaDrug,
            Card::PoisonBlade => Strike::Both,
            Card::ArtilleryStrike => Strike::Artillery,
            Card::PoisonTooth => Strike::Tooth,
            Card::PoisonDart => Strike::Dart,
            Card::MirrorWeapon => Strike::Mirror,
            Card::StoneBurner => Strike::StoneBurner,
            Card::Amtal => Strike::Amtal,
            Card::Chemistry if plan.defense.is_some() => Strike::Poison,
            c => match c.kind() {
                CardKind::WeaponProjectile => Strike::Projectile,
                CardKind::WeaponPoison => Strike::Poison,
                _ => return None,
            },
        })
    }

    /// Does this defence stop it?
    pub fn stopped_by(self, g: Guard) -> bool {
        match self {
            Strike::Projectile | Strike::EllacaDrug => g.projectile,
            Strike::Poison => g.poison,
            Strike::Both => g.projectile && g.poison,
            Strike::Lasgun => false,
            Strike::Artillery => g.shield,
            Strike::Tooth => g.poison && !g.snooper,
            Strike::Dart => g.projectile || g.poison,
            // These kill no leader by themselves (a Mirror has become its original first).
            Strike::Mirror | Strike::StoneBurner | Strike::Amtal => true,
        }
    }

    /// It kills its own player's leader too (1.07.06.01's second case): the Artillery Strike and
    /// the Poison Tooth kill both leaders.
    pub fn kills_both(self) -> bool {
        matches!(self, Strike::Artillery | Strike::Tooth)
    }
}

impl Guard {
    /// The defence of a plan as played: the Weirding Way is a projectile defence only beside
    /// another weapon (3.02.13, and no Shield: it does not explode with a Lasgun).
    pub fn of(plan: &Plan) -> Guard {
        match plan.defense {
            Some(Card::Shield) => Guard {
                projectile: true,
                shield: true,
                ..Guard::default()
            },
            Some(Card::Snooper) => Guard {
                poison: true,
                snooper: true,
                ..Guard::default()
            },
            Some(Card::ShieldSnooper) => Guard {
                projectile: true,
                poison: true,
                shield: true,
                snooper: false,
            },
            Some(Card::Chemistry) => Guard {
                poison: true,
                ..Guard::default()
            },
            Some(Card::WeirdingWay) if plan.weapon.is_some() => Guard {
                projectile: true,
                ..Guard::default()
            },
            Some(c) => match c.kind() {
                CardKind::DefenseProjectile => Guard {
                    projectile: true,
                    ..Guard::default()
                },
                CardKind::DefensePoison => Guard {
                    poison: true,
                    ..Guard::default()
                },
                _ => Guard::default(),
            },
            None => Guard::default(),
        }
    }
}

/// What changes the arithmetic beyond the two plans.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Conditions {
    /// The Advanced game: spice dialing (1.13.04), the Advanced kinds of force (the Sardaukar
    /// 2.03.08, the Fedaykin 2.04.18), Battle Hardened (2.04.21).
    pub advanced: bool,
    /// A Karama stopped the side's starred forces' ability this battle (the Sardaukar 2.03.08,
    /// the Fedaykin 2.04.18): they count as plain forces. Per side (aggressor, defender).
    pub plain_starred: [bool; 2],
    /// A Karama stopped the side's freedom from spice (Battle Hardened 2.04.21): its forces
    /// need spice like anyone's.
    pub needs_spice: [bool; 2],
    /// The side whose leader a traitor card revealed (1.07.06.06), per side.
    pub betrayed: [bool; 2],
    /// The side chose not to use its weapon (the Poison Tooth, 000 3.02.08), per side.
    pub withheld: [bool; 2],
    /// The side played a Portable Snooper when wheels were revealed (000 3.03.07): its leader
    /// is protected from poison.
    pub portable_snooper: [bool; 2],
    /// Each side's forces in the territory that it did not dial (the Stone Burner, 000 3.03.10).
    pub undialed: [u8; 2],
    /// The side chose to kill both leaders with its Stone Burner (000 3.03.10).
    pub burn: [bool; 2],
    /// Added to the number a side dials, per side: Reinforcements (000 3.04.03), half of Ecaz's
    /// forces in Battling Co-Occupied (000 2.11.19 original).
    pub bonus: [Halves; 2],
}

/// A common misreading of the battle rules, for explaining a logged result that differs from
/// the computed one by the rule it breaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slip {
    /// Unspiced forces counted at full strength (1.13.04.01).
    UnspicedAtFull,
    /// A kind's worth against one opponent forgotten (the Sardaukar counted double against the
    /// Fremen, 2.03.09).
    VersusIgnored,
    /// A kind's freedom from spice forgotten (the Fremen counted half without spice, 2.04.21;
    /// the Suboids' fixed worth, 000 2.07.23).
    SpiceFreedomIgnored,
    /// A killed leader's strength added to its side's total (1.07.06.02).
    DeadLeaderCounted,
    /// A leader whose strength is another's counted at the printed one (Zoal, 000 2.08.14).
    PrintedStrength,
    /// The Kwisatz Haderach's +2 added although its leader or Cheap Hero was killed (2.01.11).
    KwisatzWithoutLeader,
    /// Starred forces counted as plain ones (the Sardaukar 2.03.08, the Fedaykin 2.04.18).
    StarredAsPlain,
}

impl Slip {
    pub const ALL: [Slip; 7] = [
        Slip::UnspicedAtFull,
        Slip::VersusIgnored,
        Slip::SpiceFreedomIgnored,
        Slip::DeadLeaderCounted,
        Slip::PrintedStrength,
        Slip::KwisatzWithoutLeader,
        Slip::StarredAsPlain,
    ];

    /// The rule the slip breaks in this battle: a kind's own rule where the slip is about one
    /// (the faction's chapter states it), else the general rule.
    pub fn rule(self, plans: [&Plan; 2]) -> Rule {
        let kind_rule = |pick: &dyn Fn(&KindRules, Faction) -> Option<Rule>| {
            (0..2).find_map(|i| {
                let p = plans[i];
                let kinds = crate::factions::kinds(p.faction);
                let opponent = plans[1 - i].faction;
                [
                    (p.dial.starred > 0).then_some(kinds.of(ForceKind::Starred)),
                    (p.dial.total > p.dial.starred).then_some(&kinds.plain),
                ]
                .into_iter()
                .flatten()
                .find_map(|k| pick(k, opponent))
            })
        };
        match self {
            Slip::UnspicedAtFull => rule!("1.13.04.01"),
            Slip::VersusIgnored => kind_rule(&|k, o| match k.versus {
                Some((g, _, r)) if g == o => Some(r),
                _ => None,
            })
            .unwrap_or(rule!("1.13.04.01")),
            Slip::SpiceFreedomIgnored => {
                kind_rule(&|k, _| (!k.spiced).then_some(k.rule)).unwrap_or(rule!("1.13.04.01"))
            }
            Slip::DeadLeaderCounted => rule!("1.07.06.02"),
            Slip::PrintedStrength => rule!("2.08.14"),
            Slip::KwisatzWithoutLeader => rule!("2.01.11"),
            Slip::StarredAsPlain => (0..2)
                .find_map(|i| {
                    let p = plans[i];
                    let kinds = crate::factions::kinds(p.faction);
                    let star = kinds.of(ForceKind::Starred);
                    (p.dial.starred > 0 && star.worth != kinds.plain.worth).then_some(star.rule)
                })
                .unwrap_or(rule!("1.07.04.01")),
        }
    }

    /// [`Slip::rule`] for one side's wheel, against `opponent`.
    pub fn rule_for(self, plan: &Plan, opponent: Faction) -> Rule {
        let other = Plan {
            faction: opponent,
            dial: ForceCount {
                total: 0,
                starred: 0,
                side: plan.dial.side,
            },
            ..*plan
        };
        self.rule([plan, &other])
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
    /// The Stone Burner: more undialed forces win (000 3.03.10).
    StoneBurner,
    /// The Amtal: the stronger leader wins (000 3.03.11).
    Amtal,
}

impl Decision {
    pub fn rule(self) -> Rule {
        match self {
            Decision::Totals => rule!("1.07.06"),
            Decision::Tie => rule!("1.07.06.00"),
            Decision::Traitor => rule!("1.07.06.06.00"),
            Decision::TwoTraitors => rule!("1.07.06.06.02"),
            Decision::Explosion => rule!("3.01.14"),
            Decision::StoneBurner => rule!("3.03.10"),
            Decision::Amtal => rule!("3.03.11"),
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
    /// The side's forces there go back to reserves rather than to the tanks (the loser of an
    /// Amtal, 000 3.03.11).
    pub to_reserves: [bool; 2],
}

/// The strength of a plan's forces on the wheel (1.07.04.01, 1.13.04): each token at its kind's
/// worth ([`crate::factions::kinds`]: the Sardaukar 2.03.08 and 2.03.09, the Fedaykin 2.04.18,
/// Battle Hardened 2.04.21, the Ixians' Cyborgs and Suboids 000 2.07.09, 2.07.14, 2.07.23), in
/// the Advanced game halved when no spice supports it. Spice supports the starred forces first,
/// the way a player would place it, and only tokens that spice changes.
pub fn wheel(plan: &Plan, opponent: Faction, side: usize, c: &Conditions) -> Halves {
    wheel_with(plan, opponent, side, c, None)
}

fn wheel_with(
    plan: &Plan,
    opponent: Faction,
    side: usize,
    c: &Conditions,
    slip: Option<Slip>,
) -> Halves {
    let total = u32::from(plan.dial.total);
    let starred = u32::from(plan.dial.starred.min(plan.dial.total));
    let normal = total - starred;
    let i = side.min(1);
    let kinds = crate::factions::kinds(plan.faction);
    let plain = &kinds.plain;
    // Starred tokens whose kind does not exist here (the Basic game) or whose ability a Karama
    // stopped count as plain forces.
    let star = match kinds.starred_in(c.advanced) {
        Some(k) if !c.plain_starred[i] && slip != Some(Slip::StarredAsPlain) => k,
        _ => plain,
    };
    let worth = |k: &KindRules| {
        u32::from(if slip == Some(Slip::VersusIgnored) {
            k.worth
        } else {
            k.worth_against(opponent)
        })
    };
    let (star_worth, plain_worth) = (worth(star), worth(plain));
    if !c.advanced {
        return Halves(starred * star_worth + normal * plain_worth + c.bonus[i].0);
    }
    let needs_spice =
        |k: &KindRules| k.spiced || c.needs_spice[i] || slip == Some(Slip::SpiceFreedomIgnored);
    let (star_spiced, plain_spiced) = (needs_spice(star), needs_spice(plain));
    let mut spice = if slip == Some(Slip::UnspicedAtFull) {
        total
    } else {
        plan.spice.amount().min(total)
    };
    let mut supported = |spiced: bool, n: u32| {
        if !spiced {
            return n;
        }
        let s = spice.min(n);
        spice -= s;
        s
    };
    let star_full = supported(star_spiced, starred);
    let plain_full = supported(plain_spiced, normal);
    // Half points: a supported token counts its worth, an unsupported one half of it.
    Halves(
        star_full * star_worth
            + (starred - star_full) * star_worth / 2
            + plain_full * plain_worth
            + (normal - plain_full) * plain_worth / 2
            + c.bonus[i].0,
    )
}

/// The wheel a judge making `slip` would read for this plan (to name the rule a logged wheel
/// breaks).
pub fn wheel_slip(
    plan: &Plan,
    opponent: Faction,
    side: usize,
    c: &Conditions,
    slip: Slip,
) -> Halves {
    wheel_with(plan, opponent, side, c, Some(slip))
}

/// Does this weapon kill the leader behind this defence (1.07.06.01, 3.01.02-3.01.19; Ellaca
/// Drug is stopped by a projectile defence, ruling 17)? The cards alone, each in its own slot;
/// [`Strike`] and [`Guard`] read a whole plan.
pub fn kills(weapon: Option<Card>, defense: Option<Card>) -> bool {
    let attacker = Plan {
        faction: Faction::Atreides,
        leader: PlanLeader::None,
        kwisatz: false,
        dial: ForceCount::plain(0),
        spice: Spice::ZERO,
        ally_spice: None,
        weapon,
        defense: None,
    };
    let defender = Plan {
        weapon: None,
        defense,
        ..attacker
    };
    Strike::of(&attacker, false).is_some_and(|s| !s.stopped_by(Guard::of(&defender)))
}

/// The cards a plan's player discards whoever wins (those that say "Discard after use"): the
/// Cheap Hero (3.01.04), the Artillery Strike (3.02.02), a Poison Tooth that was used (3.02.08).
pub fn spent(plan: &Plan, withheld: bool) -> Vec<Card> {
    cards_played(plan)
        .into_iter()
        .filter(|&c| match c {
            // The Second Expansion's "discard after use" cards (000 3.03.07-3.03.11); the
            // Mirror Weapon's and Poison Dart's fates depend on the battle (the replay's).
            Card::CheapHero
            | Card::ArtilleryStrike
            | Card::StoneBurner
            | Card::Amtal
            | Card::PortableSnooper => true,
            Card::PoisonTooth => plan.weapon == Some(c) && !withheld,
            // Played in place of a weapon or a defence and discarded (000 3.04.01, 3.04.03).
            _ => c.kind() == CardKind::SpecialBattle,
        })
        .collect()
}

/// Resolves a battle between the aggressor's plan (`plans[0]`) and the defender's (`plans[1]`).
pub fn resolve(plans: [&Plan; 2], c: &Conditions) -> Outcome {
    resolve_with(plans, c, None)
}

/// The outcome a judge would reach by making `slip`, to name the rule a logged result breaks.
pub fn resolve_with(plans: [&Plan; 2], c: &Conditions, slip: Option<Slip>) -> Outcome {
    let wheel = [
        wheel_with(plans[0], plans[1].faction, 0, c, slip),
        wheel_with(plans[1], plans[0].faction, 1, c, slip),
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
        to_reserves: [false; 2],
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
            out.leader_spice = Spice::new(plans[l].leader_strength(plans[w]));
            out.losses = [Loss::All; 2];
            out.losses[w] = Loss::Nothing;
            out.keeps_wheel_spice[w] = true;
            out.discards_all[l] = true;
            out.kwisatz_used[w] = false;
            return out;
        }
        _ => {}
    }
    let mut strikes = [
        Strike::of(plans[0], c.withheld[0]),
        Strike::of(plans[1], c.withheld[1]),
    ];
    // A Mirror Weapon copies the opponent's weapon, if it plays one (000 3.03.04).
    for i in 0..2 {
        if strikes[i] == Some(Strike::Mirror) {
            strikes[i] = strikes[1 - i].filter(|s| *s != Strike::Mirror);
        }
    }
    let mut guards = [Guard::of(plans[0]), Guard::of(plans[1])];
    // The Portable Snooper protects from poison (000 3.03.07).
    for (g, &p) in guards.iter_mut().zip(c.portable_snooper.iter()) {
        if p {
            g.poison = true;
        }
    }
    // The Amtal and the Stone Burner change how the battle is won; against each other, or the
    // Artillery Strike, storm order decides: the aggressor's applies (000 3.03.11).
    let decider = [0usize, 1].into_iter().find_map(|i| match strikes[i] {
        Some(s @ (Strike::Amtal | Strike::StoneBurner | Strike::Artillery)) => Some((i, s)),
        _ => None,
    });
    // Lasgun and Shield (or Shield Snooper): an explosion, nobody wins (3.01.14, 3.02.10; 2.01.13
    // the Kwisatz Haderach too).
    let lasgun = strikes.contains(&Some(Strike::Lasgun));
    let shield = guards.iter().any(|g| g.shield);
    if lasgun && shield {
        out.decision = Decision::Explosion;
        out.explosion = true;
        out.killed = plans.iter().filter_map(|p| leader_of(p)).collect();
        out.leader_killed = [true, true];
        out.kwisatz_killed = plans.iter().any(|p| p.kwisatz);
        out.discards_all = [true, true];
        return out;
    }
    // The Artillery Strike: no spice for any leader killed, and surviving leaders do not count
    // (3.02.02).
    let artillery = matches!(decider, Some((_, Strike::Artillery)));
    let amtal = matches!(decider, Some((_, Strike::Amtal)));
    let burner = matches!(decider, Some((_, Strike::StoneBurner)));
    // The Stone Burner's player may kill both leaders, whatever their defences (3.03.10).
    let burned = burner && decider.is_some_and(|(i, _)| c.burn[i]);
    for i in 0..2 {
        let me = plans[i];
        let hit = |s: Option<Strike>| s.is_some_and(|s| !s.stopped_by(guards[i]));
        let dies = burned
            || hit(strikes[1 - i])
            || (strikes[i].is_some_and(Strike::kills_both) && hit(strikes[i]));
        if dies && me.leader != PlanLeader::None {
            out.leader_killed[i] = true;
            if let Some(l) = leader_of(me) {
                out.killed.push(l);
                if !artillery {
                    out.leader_spice += Spice::new(me.leader_strength(plans[1 - i]));
                }
            }
        }
    }
    for i in 0..2 {
        let p = plans[i];
        if artillery {
            continue;
        }
        if burner {
            // The higher number of undialed forces wins (3.03.10).
            out.totals[i] = Halves::whole(u32::from(c.undialed[i]));
            continue;
        }
        if amtal {
            // Forces do not count: the stronger leader, a dead one counting nothing (3.03.11).
            out.totals[i] = if out.leader_killed[i] {
                Halves(0)
            } else {
                Halves::whole(p.leader_strength(plans[1 - i]))
            };
            continue;
        }
        let kh = if p.kwisatz { 2 } else { 0 };
        if !out.leader_killed[i] || slip == Some(Slip::DeadLeaderCounted) {
            let strength = match p.leader {
                PlanLeader::Leader(l) if slip == Some(Slip::PrintedStrength) => {
                    u32::from(l.strength())
                }
                _ => p.leader_strength(plans[1 - i]),
            };
            out.totals[i] = Halves(wheel[i].0 + Halves::whole(strength + kh).0);
        } else if slip == Some(Slip::KwisatzWithoutLeader) {
            out.totals[i] = Halves(wheel[i].0 + Halves::whole(kh).0);
        }
    }
    let w = if out.totals[1] > out.totals[0] { 1 } else { 0 };
    if out.totals[0] == out.totals[1] {
        out.decision = Decision::Tie;
    }
    if burner {
        out.decision = Decision::StoneBurner;
    } else if amtal {
        out.decision = Decision::Amtal;
    }
    out.winner = Some(w);
    out.losses[w] = Loss::Dialed(plans[w].dial);
    out.losses[1 - w] = Loss::All;
    out.discards_all[1 - w] = true;
    if amtal {
        // The loser's forces go back to reserves and its leader dies; the winner loses nothing
        // and every dialled spice goes back behind the shields (3.03.11).
        out.losses[w] = Loss::Nothing;
        out.to_reserves[1 - w] = true;
        out.keeps_wheel_spice = [true, true];
        let l = 1 - w;
        if !out.leader_killed[l]
            && let PlanLeader::Leader(x) = plans[l].leader
        {
            out.leader_killed[l] = true;
            out.killed.push(x);
            out.leader_spice += Spice::new(plans[l].leader_strength(plans[w]));
        }
    }
    out
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
            ally_spice: None,
            weapon: None,
            defense: None,
        }
    }

    const ADV: Conditions = Conditions {
        advanced: true,
        plain_starred: [false; 2],
        needs_spice: [false; 2],
        betrayed: [false; 2],
        withheld: [false; 2],
        portable_snooper: [false; 2],
        undialed: [0; 2],
        burn: [false; 2],
        bonus: [Halves(0); 2],
    };

    #[test]
    fn halves_read_and_print_as_judges_write_them() {
        assert_eq!(Halves::parse("8.5"), Some(Halves(17)));
        assert_eq!(Halves::parse("8"), Some(Halves(16)));
        assert_eq!(Halves::parse("8.3"), None);
        assert_eq!(Halves(17).to_string(), "8.5");
    }

    #[test]
    fn spice_dialing_and_elite_forces() {
        // 4 Sardaukar-mixed forces, 2 starred, no spice: 2 x 0.5 + 2 x 1 = 3.
        let em = plan(Faction::Emperor, PlanLeader::CheapHero, 4, 2, 0);
        assert_eq!(wheel(&em, Faction::Atreides, 0, &ADV), Halves::whole(3));
        // Against the Fremen the Sardaukar are worth one force (2.03.09).
        let em = plan(Faction::Emperor, PlanLeader::CheapHero, 4, 2, 4);
        assert_eq!(wheel(&em, Faction::Fremen, 0, &ADV), Halves::whole(4));
        assert_eq!(wheel(&em, Faction::Atreides, 0, &ADV), Halves::whole(6));
        // A Karama against the Sardaukar: they count as plain forces.
        let mut stopped = ADV;
        stopped.plain_starred[0] = true;
        assert_eq!(wheel(&em, Faction::Atreides, 0, &stopped), Halves::whole(4));
        // The Fremen need no spice (2.04.21); Fedaykin count double (2.04.18).
        let fr = plan(Faction::Fremen, PlanLeader::CheapHero, 3, 1, 0);
        assert_eq!(wheel(&fr, Faction::Emperor, 1, &ADV), Halves::whole(4));
        // Basic game: every force counts one.
        let at = plan(Faction::Atreides, PlanLeader::CheapHero, 5, 0, 0);
        assert_eq!(
            wheel(&at, Faction::Harkonnen, 0, &Conditions::default()),
            Halves::whole(5)
        );
        assert_eq!(wheel(&at, Faction::Harkonnen, 0, &ADV), Halves(5));
    }

    #[test]
    fn the_kwisatz_haderach_without_its_leader_is_a_named_misreading() {
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
        assert_eq!(Slip::KwisatzWithoutLeader.rule([&a, &h]), rule!("2.01.11"));
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
