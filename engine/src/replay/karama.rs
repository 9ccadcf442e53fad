//! Karama against faction abilities (3.01.11.01 cancel, 3.01.11.02 prevent).
//!
//! The rulebook marks the abilities a Karama can stop: `*` ones are *cancelled* as they are
//! attempted (the faction then retakes the action without the ability, 1.00.04), `★` ones are
//! *prevented* beforehand. DGN names the ability by its rule number (`K EM prevent 2.04.06`).
//!
//! A Karama leaves a *block* in the turn's data; the check that would let the ability work takes
//! the block (one use) and either withholds the effect (the payment goes to the bank, the free
//! card is not drawn, the Fremen move one territory, …) or reports a use that the Karama rules
//! out, under the Karama's rule number. Scopes (docs/notation.md, Decisions):
//! - a cancel covers the use being attempted: it is logged in place of that use, in the phase of
//!   the ability, and lapses at the end of that phase (sooner for per-card or per-shipment
//!   abilities: the Atreides' look at one card, the spiritual advisor of one shipment);
//! - a prevention covers the ability's next use in the same turn and lapses at the end of the
//!   turn.
//!
//! Battle abilities are recorded (the card is spent) and left to "Rules engine II".

use super::Replay;
use crate::dgn::{AbilityRef, Pos};
use crate::state::Phase;
use Ability as A;
use Faction::{
    Atreides as AT, BeneGesserit as BG, Emperor as EM, Fremen as FR, SpacingGuild as SG,
};
use Phase::{Battle, Bidding, Charity, Movement, Revival, SpiceBlow, Storm};
use dune::Faction;
use dune::{Rule, rule};

/// A faction ability a Karama can cancel or prevent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Ability {
    AtPeek,
    AtWormsign,
    AtPrescience,
    AtAllyPrescience,
    AtKwisatz,
    BgSpirit,
    BgVoice,
    BgAllyVoice,
    BgCharity,
    BgTakeUpArms,
    BgWartime,
    BgKarama,
    EmPayment,
    EmAllyRevival,
    EmSardaukar,
    FrMove,
    FrWormproof,
    FrProtectAlly,
    FrAllyRevival,
    FrStormPeek,
    FrStormLosses,
    FrMigration,
    FrFedaykin,
    FrBattleHardened,
    HkTopCard,
    HkCapture,
    SgPayment,
    SgCross,
    SgHome,
    SgHalfPrice,
    SgAllyHalfPrice,
    SgAllyCross,
    SgTiming,
}

/// One row of the table of stoppable abilities (GC 2.13.3, the six classic factions).
pub(super) struct AbilityInfo {
    pub ability: Ability,
    pub rule: Rule,
    pub owner: Faction,
    /// `★`: prevented beforehand; otherwise `*`: cancelled as used.
    pub prevent: bool,
    /// The phase the ability is used in (`None`: any phase).
    pub phase: Option<Phase>,
    /// An alliance ability: there is nothing to stop while the owner has no ally.
    pub ally: bool,
    /// The replay applies the Karama's effect (battle abilities are left to Rules engine II).
    pub modelled: bool,
    pub name: &'static str,
}

#[allow(clippy::too_many_arguments)]
const fn row(
    ability: Ability,
    rule: Rule,
    owner: Faction,
    prevent: bool,
    phase: Option<Phase>,
    ally: bool,
    modelled: bool,
    name: &'static str,
) -> AbilityInfo {
    AbilityInfo {
        ability,
        rule,
        owner,
        prevent,
        phase,
        ally,
        modelled,
        name,
    }
}

const CANCEL: bool = false;
const PREVENT: bool = true;

pub(super) const ABILITIES: &[AbilityInfo; Ability::SgTiming as usize + 1] = &[
    row(
        A::AtPeek,
        rule!("2.01.05"),
        AT,
        CANCEL,
        Some(Bidding),
        false,
        true,
        "look at the card up for auction",
    ),
    row(
        A::AtWormsign,
        rule!("2.01.07"),
        AT,
        CANCEL,
        Some(Movement),
        false,
        true,
        "Wormsign",
    ),
    row(
        A::AtPrescience,
        rule!("2.01.08"),
        AT,
        CANCEL,
        Some(Battle),
        false,
        false,
        "Prescience",
    ),
    row(
        A::AtAllyPrescience,
        rule!("2.01.09"),
        AT,
        PREVENT,
        Some(Battle),
        true,
        false,
        "Prescience in the ally's battle",
    ),
    row(
        A::AtKwisatz,
        rule!("2.01.11"),
        AT,
        CANCEL,
        Some(Battle),
        false,
        false,
        "Kwisatz Haderach",
    ),
    row(
        A::BgSpirit,
        rule!("2.02.05"),
        BG,
        CANCEL,
        Some(Movement),
        false,
        true,
        "spiritual advisor",
    ),
    row(
        A::BgVoice,
        rule!("2.02.06"),
        BG,
        CANCEL,
        Some(Battle),
        false,
        false,
        "Voice",
    ),
    row(
        A::BgAllyVoice,
        rule!("2.02.07"),
        BG,
        CANCEL,
        Some(Battle),
        true,
        false,
        "Voice in the ally's battle",
    ),
    row(
        A::BgCharity,
        rule!("2.02.09"),
        BG,
        PREVENT,
        Some(Charity),
        false,
        true,
        "CHOAM Charity of at least 2",
    ),
    row(
        A::BgTakeUpArms,
        rule!("2.02.16"),
        BG,
        PREVENT,
        Some(Movement),
        false,
        true,
        "Take Up Arms",
    ),
    row(
        A::BgWartime,
        rule!("2.02.17"),
        BG,
        CANCEL,
        Some(Movement),
        false,
        true,
        "Wartime",
    ),
    row(
        A::BgKarama,
        rule!("2.02.22"),
        BG,
        CANCEL,
        None,
        false,
        false,
        "worthless card as a Karama",
    ),
    row(
        A::EmPayment,
        rule!("2.03.04"),
        EM,
        PREVENT,
        Some(Bidding),
        false,
        true,
        "payment for treachery cards",
    ),
    row(
        A::EmAllyRevival,
        rule!("2.03.07"),
        EM,
        PREVENT,
        Some(Revival),
        true,
        true,
        "paying for the ally's extra revivals",
    ),
    row(
        A::EmSardaukar,
        rule!("2.03.08"),
        EM,
        CANCEL,
        Some(Battle),
        false,
        false,
        "Sardaukar",
    ),
    row(
        A::FrMove,
        rule!("2.04.06"),
        FR,
        PREVENT,
        Some(Movement),
        false,
        true,
        "two-territory movement",
    ),
    row(
        A::FrWormproof,
        rule!("2.04.07"),
        FR,
        PREVENT,
        Some(SpiceBlow),
        false,
        true,
        "not being devoured by worms",
    ),
    row(
        A::FrProtectAlly,
        rule!("2.04.10"),
        FR,
        CANCEL,
        Some(SpiceBlow),
        true,
        true,
        "protecting the ally from worms",
    ),
    row(
        A::FrAllyRevival,
        rule!("2.04.11"),
        FR,
        CANCEL,
        Some(Revival),
        true,
        true,
        "3 free revivals for the ally",
    ),
    row(
        A::FrStormPeek,
        rule!("2.04.14"),
        FR,
        CANCEL,
        Some(Storm),
        false,
        false,
        "looking at the storm card",
    ),
    row(
        A::FrStormLosses,
        rule!("2.04.16"),
        FR,
        CANCEL,
        Some(Storm),
        false,
        true,
        "half storm losses",
    ),
    row(
        A::FrMigration,
        rule!("2.04.17"),
        FR,
        CANCEL,
        Some(Movement),
        false,
        true,
        "Storm Migration",
    ),
    row(
        A::FrFedaykin,
        rule!("2.04.18"),
        FR,
        CANCEL,
        Some(Battle),
        false,
        false,
        "Fedaykin",
    ),
    row(
        A::FrBattleHardened,
        rule!("2.04.21"),
        FR,
        CANCEL,
        Some(Battle),
        false,
        false,
        "Battle Hardened",
    ),
    row(
        A::HkTopCard,
        rule!("2.05.08"),
        Faction::Harkonnen,
        PREVENT,
        Some(Bidding),
        false,
        true,
        "free top card",
    ),
    row(
        A::HkCapture,
        rule!("2.05.10"),
        Faction::Harkonnen,
        CANCEL,
        Some(Battle),
        false,
        false,
        "capturing a leader",
    ),
    row(
        A::SgPayment,
        rule!("2.06.04"),
        SG,
        CANCEL,
        Some(Movement),
        false,
        true,
        "payment for shipment",
    ),
    row(
        A::SgCross,
        rule!("2.06.05.01"),
        SG,
        PREVENT,
        Some(Movement),
        false,
        true,
        "cross-ship",
    ),
    row(
        A::SgHome,
        rule!("2.06.05.02"),
        SG,
        PREVENT,
        Some(Movement),
        false,
        true,
        "shipping back to reserves",
    ),
    row(
        A::SgHalfPrice,
        rule!("2.06.06"),
        SG,
        PREVENT,
        Some(Movement),
        false,
        true,
        "half-price shipping",
    ),
    row(
        A::SgAllyHalfPrice,
        rule!("2.06.09"),
        SG,
        CANCEL,
        Some(Movement),
        true,
        true,
        "half-price shipping for the ally",
    ),
    row(
        A::SgAllyCross,
        rule!("2.06.10"),
        SG,
        CANCEL,
        Some(Movement),
        true,
        true,
        "cross-ship for the ally",
    ),
    row(
        A::SgTiming,
        rule!("2.06.12"),
        SG,
        CANCEL,
        Some(Movement),
        false,
        true,
        "Ship As It Pleases You (acting early or Delay)",
    ),
];

// The table lists every ability once, in declaration order (the last is `SgTiming`), so that
// `info` is a plain index; checked when the program is compiled.
const _: () = {
    let mut i = 0;
    while i < ABILITIES.len() {
        assert!(
            ABILITIES[i].ability as usize == i,
            "ABILITIES is out of order"
        );
        i += 1;
    }
};

impl Ability {
    pub(super) fn info(self) -> &'static AbilityInfo {
        &ABILITIES[self as usize]
    }
}

/// The ability a rule number names; `2.06.05.00` etc. are not abilities of their own, and
/// `2.05.10.00` names the capture.
fn lookup(rule: Rule) -> Option<&'static AbilityInfo> {
    // A trailing `.00` names the rule itself; the Delay's sub-rules name the Delay.
    let rule = if rule == rule!("2.05.10.00") {
        rule!("2.05.10")
    } else if rule.is_within(rule!("2.06.12")) {
        rule!("2.06.12")
    } else {
        rule
    };
    ABILITIES.iter().find(|i| i.rule == rule)
}

/// A Karama waiting for the use it stops.
#[derive(Clone, Copy, Debug)]
pub(super) struct Block {
    pub ability: Ability,
    pub by: Faction,
    pub pos: Pos,
    /// The phase the Karama was played in (a cancel lapses with it).
    pub phase: Phase,
}

impl Block {
    fn prevent(&self) -> bool {
        self.ability.info().prevent
    }

    /// The Karama rule this block enforces.
    pub(super) fn rule(&self) -> Rule {
        if self.prevent() {
            rule!("3.01.11.02")
        } else {
            rule!("3.01.11.01")
        }
    }

    /// "the Fremen's two-territory movement (2.04.06) was prevented by EM's Karama at line 12".
    pub(super) fn describe(&self) -> String {
        let i = self.ability.info();
        format!(
            "{}'s {} ({}) was {} by {}'s Karama at line {}",
            i.owner,
            i.name,
            i.rule,
            if self.prevent() {
                "prevented"
            } else {
                "cancelled"
            },
            self.by,
            self.pos.line
        )
    }
}

#[derive(Default)]
pub(super) struct KaramaData {
    blocks: Vec<Block>,
}

impl Replay {
    /// `K F cancel rule` / `K F prevent rule`: checks that the ability can be stopped this way
    /// now, applies what takes effect at once, and leaves a block for the use it stops.
    pub(super) fn karama_against(&mut self, f: Faction, r: &AbilityRef, prevent: bool) {
        let (rule, how, other) = if prevent {
            (rule!("3.01.11.02"), "prevent", "cancel")
        } else {
            (rule!("3.01.11.01"), "cancel", "prevent")
        };
        let Some(info) = lookup(r.rule) else {
            self.v_at(
                r.pos,
                rule,
                format!(
                    "{} is not a faction ability a Karama can {how}: name an ability marked {} by its rule number (docs/notation.md lists them)",
                    r.rule,
                    if prevent { "★" } else { "*" }
                ),
            );
            return;
        };
        if info.prevent != prevent {
            self.v_at(
                r.pos,
                rule,
                format!(
                    "{} ({}) is marked {}: a Karama can only {other} it (K {f} {other} {})",
                    info.rule,
                    info.name,
                    if info.prevent { "★" } else { "*" },
                    info.rule
                ),
            );
            return;
        }
        let owner = info.owner;
        if !self.st.plays(owner) {
            self.v_at(
                r.pos,
                rule,
                format!("{} belongs to {owner}, who is not at this table", info.rule),
            );
            return;
        }
        if owner == f {
            self.v_at(
                r.pos,
                rule,
                format!(
                    "{f} cannot {how} its own ability ({}): a Karama stops another player's",
                    info.rule
                ),
            );
            return;
        }
        if info.ally && self.st.ally(owner).is_none() {
            self.v_at(
                r.pos,
                rule,
                format!(
                    "{owner} has no ally, so its alliance ability {} ({}) cannot be used and there is nothing to {how}",
                    info.rule, info.name
                ),
            );
            return;
        }
        let now = self.st.phase;
        if let Some(p) = info.phase {
            if !prevent && p != now {
                self.v_at(r.pos, rule, format!("{} ({}) is used in the {p} phase: a Karama cancels it as it is used, not in the {now} phase (log the Karama after the line that opens the {p} phase)", info.rule, info.name));
                return;
            }
            if prevent && p < now {
                self.v_at(r.pos, rule, format!("{} ({}) is used in the {p} phase, which is over this turn: the prevention would have no effect (it lasts until the end of the turn)", info.rule, info.name));
                return;
            }
        }
        // Effects that take hold at once.
        match info.ability {
            Ability::FrProtectAlly => self.karama_unprotect(),
            Ability::FrAllyRevival => self.karama_revoke_grant(),
            Ability::SgTiming => self.karama_guild_timing(),
            _ => {}
        }
        if !info.modelled {
            // Recorded: the card is spent; battles are checked by "Rules engine II".
            return;
        }
        self.t.karama.blocks.push(Block {
            ability: info.ability,
            by: f,
            pos: r.pos,
            phase: now,
        });
    }

    fn block_index(&self, a: Ability) -> Option<usize> {
        let now = self.st.phase;
        self.t
            .karama
            .blocks
            .iter()
            .position(|b| b.ability == a && (b.prevent() || b.phase == now))
    }

    /// The block on this ability, if any, left in place (abilities stopped for a whole phase).
    pub(super) fn karama_block(&self, a: Ability) -> Option<Block> {
        self.block_index(a).map(|i| self.t.karama.blocks[i])
    }

    /// Takes the block on this ability (one use).
    pub(super) fn karama_take(&mut self, a: Ability) -> Option<Block> {
        if self.t.karama.blocks.is_empty() {
            return None;
        }
        self.block_index(a).map(|i| self.t.karama.blocks.remove(i))
    }

    /// Reports a use of an ability that a Karama stopped; `true` when it did. A prevention is
    /// used up; a cancel stays until its scope ends (the faction retakes the action without the
    /// ability, so a second try is just as illegal).
    pub(super) fn karama_forbids(&mut self, a: Ability, what: &str) -> bool {
        let block = if a.info().prevent {
            self.karama_take(a)
        } else {
            self.karama_block(a)
        };
        match block {
            Some(b) => {
                self.v(
                    b.rule(),
                    format!(
                        "{what}: {}; the action is taken without the ability",
                        b.describe()
                    ),
                );
                true
            }
            None => false,
        }
    }

    /// Drops cancels whose scope ended (the card or the shipment they were about).
    pub(super) fn karama_lapse(&mut self, a: Ability) {
        if !self.t.karama.blocks.is_empty() {
            self.t
                .karama
                .blocks
                .retain(|b| b.ability != a || b.prevent());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_ability_is_listed_once() {
        for (i, a) in ABILITIES.iter().enumerate() {
            assert_eq!(a.ability.info().rule, a.rule);
            assert!(ABILITIES[i + 1..].iter().all(|b| b.rule != a.rule));
        }
        assert_eq!(
            lookup(rule!("2.06.12.02")).map(|i| i.ability),
            Some(Ability::SgTiming)
        );
        assert!(lookup(rule!("2.01.04")).is_none());
    }
}
