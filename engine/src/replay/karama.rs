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
//!
//! Battle abilities are stopped in the battle (docs/notation.md 4.13): a Karama written inside a
//! battle block (an indented `K …` line) acts in that battle, one written between battles acts in
//! its owner's next battle of the phase, and either lapses when that battle is over. Those of the
//! battle's arithmetic (the Sardaukar, the Fedaykin, Battle Hardened, the Kwisatz Haderach) are
//! applied when the battle is resolved ([`Replay::karama_in_battle`]); the Voice, Prescience and
//! the capture are stopped where they are used, or undone when the Karama follows the use.

use super::Replay;
use crate::dgn::{AbilityRef, Pos};
use crate::state::Phase;
use dune::Faction;
use dune::{Rule, rule};

/// A faction ability a Karama can cancel or prevent, named by its rule number. Each faction's
/// module lists its own (`crate::factions`, `FactionRules::karama`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Ability(pub Rule);

/// One row of a faction's table of stoppable abilities.
#[derive(Debug)]
pub(crate) struct AbilityInfo {
    pub rule: Rule,
    pub owner: Faction,
    /// `★`: prevented beforehand; otherwise `*`: cancelled as used.
    pub prevent: bool,
    /// The phase the ability is used in (`None`: any phase).
    pub phase: Option<Phase>,
    /// An alliance ability: there is nothing to stop while the owner has no ally.
    pub ally: bool,
    /// The replay applies the Karama's effect (those it only records: the Fremen's look at the
    /// storm card, the Bene Gesserit's worthless Karama, with nothing logged to act on).
    pub modelled: bool,
    /// Its sub-rules name it too (`2.06.12.02` names Ship As It Pleases You, 2.06.12).
    pub whole: bool,
    pub name: &'static str,
}

pub(crate) const CANCEL: bool = false;
pub(crate) const PREVENT: bool = true;

impl AbilityInfo {
    /// A row of a faction's Karama table.
    #[allow(clippy::too_many_arguments)]
    pub(crate) const fn new(
        ability: Ability,
        owner: Faction,
        prevent: bool,
        phase: Option<Phase>,
        ally: bool,
        modelled: bool,
        name: &'static str,
    ) -> AbilityInfo {
        AbilityInfo {
            rule: ability.0,
            owner,
            prevent,
            phase,
            ally,
            modelled,
            whole: false,
            name,
        }
    }

    /// Its sub-rules name it too.
    pub(crate) const fn whole(self) -> AbilityInfo {
        AbilityInfo {
            whole: true,
            ..self
        }
    }

    pub(crate) fn ability(&self) -> Ability {
        Ability(self.rule)
    }
}

impl Ability {
    /// The ability's row in its faction's table; `None` for a number no table lists.
    pub(crate) fn info(self) -> Option<&'static AbilityInfo> {
        lookup_exact(self.0)
    }
}

fn lookup_exact(rule: Rule) -> Option<&'static AbilityInfo> {
    crate::factions::karama_abilities().find(|i| i.rule == rule)
}

/// The ability a rule number names: the ability's own number, the number with a trailing `.00`
/// (`2.05.10.00` names 2.05.10), or a sub-rule of an ability that covers its sub-rules.
fn lookup(rule: Rule) -> Option<&'static AbilityInfo> {
    if let Some(i) = lookup_exact(rule) {
        return Some(i);
    }
    if rule.parts().last() == Some(&0)
        && let Some(i) = rule.parent().and_then(lookup_exact)
    {
        return Some(i);
    }
    crate::factions::karama_abilities().find(|i| i.whole && rule.is_within(i.rule))
}

/// A Karama waiting for the use it stops.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Block {
    pub ability: Ability,
    pub info: &'static AbilityInfo,
    pub by: Faction,
    pub pos: Pos,
    /// The phase the Karama was played in (a cancel lapses with it).
    pub phase: Phase,
    /// The battle it was played in (its line), when written inside a battle block.
    pub battle: Option<Pos>,
}

impl Block {
    fn prevent(&self) -> bool {
        self.info.prevent
    }

    /// The Karama rule this block enforces.
    pub(crate) fn rule(&self) -> Rule {
        if self.prevent() {
            rule!("3.01.11.02")
        } else {
            rule!("3.01.11.01")
        }
    }

    /// "the Fremen's two-territory movement (2.04.06) was prevented by EM's Karama at line 12".
    pub(crate) fn describe(&self) -> String {
        let i = self.info;
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
pub(crate) struct KaramaData {
    pub(crate) blocks: Vec<Block>,
}

impl Replay {
    /// `K F cancel rule` / `K F prevent rule`: checks that the ability can be stopped this way
    /// now, applies what takes effect at once, and leaves a block for the use it stops.
    pub(crate) fn karama_against(&mut self, f: Faction, r: &AbilityRef, prevent: bool) {
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
        // A battle ability stopped inside a battle block: its owner (or, for an alliance
        // ability, the owner's ally) must be fighting this battle.
        let mut battle = None;
        if info.phase == Some(Phase::Battle)
            && let Some(b) = self.t.battle.current.as_ref().filter(|b| !b.void)
        {
            let user = if info.ally {
                self.st.ally(owner)
            } else {
                Some(owner)
            };
            if user.is_none_or(|u| b.side_of(u).is_none()) {
                let sides = b.sides;
                self.v_at(
                    r.pos,
                    rule,
                    format!(
                        "{} ({}) is used in {}'s battles, and this battle is {} against {}: a Karama written in a battle acts in that battle",
                        info.rule,
                        info.name,
                        user.unwrap_or(owner),
                        sides[0],
                        sides[1]
                    ),
                );
                return;
            }
            battle = Some(b.pos);
        }
        // Effects that take hold at once.
        crate::factions::rules(owner).karama_now(self, info.rule);
        if !info.modelled {
            // Recorded: the card is spent; there is nothing logged for it to act on.
            return;
        }
        self.t.karama.blocks.push(Block {
            ability: info.ability(),
            info,
            by: f,
            pos: r.pos,
            phase: now,
            battle,
        });
    }

    /// The Karamas against `plan`'s faction's battle abilities that act in the battle at
    /// `battle` (its line): those written in it, and those written between battles, waiting for
    /// the faction's next battle. Each is applied to the plan and its side's conditions by the faction's
    /// rules ([`crate::factions::FactionRules::battle_karama`]); `take`: they are used up (the
    /// battle is being resolved), else only looked at (a wheel assertion). Returns those applied.
    pub(crate) fn karama_in_battle(
        &mut self,
        battle: Pos,
        plan: &mut crate::battle::Plan,
        c: &mut crate::battle::Conditions,
        side: usize,
        take: bool,
    ) -> Vec<Block> {
        if self.t.karama.blocks.is_empty() {
            return Vec::new();
        }
        let f = plan.faction;
        let rules = crate::factions::rules(f);
        let mut applied = Vec::new();
        let mut i = 0;
        while i < self.t.karama.blocks.len() {
            let b = self.t.karama.blocks[i];
            let here = b.info.owner == f
                && b.info.phase == Some(Phase::Battle)
                && b.phase == Phase::Battle
                && b.battle.is_none_or(|p| p == battle);
            if here && rules.battle_karama(b.ability, plan, c, side) {
                applied.push(b);
                if take {
                    self.t.karama.blocks.remove(i);
                    continue;
                }
            }
            i += 1;
        }
        applied
    }

    /// After a battle: the cancels played for it lapse (written in it, or written before it for
    /// one of its sides' abilities); a prevention waits for its ability's next use this turn.
    pub(crate) fn lapse_battle_karama(&mut self, battle: Pos, sides: [Faction; 2]) {
        if self.t.karama.blocks.is_empty() {
            return;
        }
        let allies = sides.map(|s| self.st.ally(s));
        self.t.karama.blocks.retain(|b| {
            if b.prevent() || b.info.phase != Some(Phase::Battle) {
                return true;
            }
            let owner = b.info.owner;
            let involved = sides.contains(&owner) || (b.info.ally && allies.contains(&Some(owner)));
            match b.battle {
                Some(p) => p != battle,
                None => !involved,
            }
        });
    }

    pub(crate) fn block_index(&self, a: Ability) -> Option<usize> {
        let now = self.st.phase;
        self.t
            .karama
            .blocks
            .iter()
            .position(|b| b.ability == a && (b.prevent() || b.phase == now))
    }

    /// The block on this ability, if any, left in place (abilities stopped for a whole phase).
    pub(crate) fn karama_block(&self, a: Ability) -> Option<Block> {
        self.block_index(a).map(|i| self.t.karama.blocks[i])
    }

    /// Takes the block on this ability (one use).
    pub(crate) fn karama_take(&mut self, a: Ability) -> Option<Block> {
        if self.t.karama.blocks.is_empty() {
            return None;
        }
        self.block_index(a).map(|i| self.t.karama.blocks.remove(i))
    }

    /// Reports a use of an ability that a Karama stopped; `true` when it did. A prevention is
    /// used up; a cancel stays until its scope ends (the faction retakes the action without the
    /// ability, so a second try is just as illegal).
    pub(crate) fn karama_forbids(&mut self, a: Ability, what: &str) -> bool {
        if self.t.karama.blocks.is_empty() {
            return false;
        }
        let block = if a.info().is_some_and(|i| i.prevent) {
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
    pub(crate) fn karama_lapse(&mut self, a: Ability) {
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
    fn abilities_are_found_by_their_numbers() {
        assert_eq!(
            lookup(rule!("2.06.12.02")).map(|i| i.rule),
            Some(rule!("2.06.12"))
        );
        assert_eq!(
            lookup(rule!("2.05.10.00")).map(|i| i.rule),
            Some(rule!("2.05.10"))
        );
        assert_eq!(
            lookup(rule!("2.06.05.01")).map(|i| i.rule),
            Some(rule!("2.06.05.01"))
        );
        assert!(lookup(rule!("2.01.04")).is_none());
        assert!(lookup(rule!("2.05.10.01")).is_none());
        assert!(lookup(rule!("2.06.05.00")).is_none());
    }
}
