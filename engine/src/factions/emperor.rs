//! The Emperor (001 2.03): payment for treachery cards, gifts and extra revivals for the ally,
//! the Sardaukar.

use crate::dgn::{Event, KaramaUse};
use dune::{Faction, Rule, Spice, rule};

use super::{FactionRules, Fee, PayeeRule, Sheet, SheetRules};
use crate::battle::{Conditions, Plan};
use crate::board::Leader;
use crate::dgn::{ForceCount, Payee, Payment};
use crate::replay::Replay;
use crate::replay::karama::{Ability, AbilityInfo, CANCEL, PREVENT};
use crate::state::{LeaderState, Phase};

pub(crate) struct Emperor;

const EM: Faction = Faction::Emperor;

/// 2.03.01 10 spice, 2.03.02 20 forces in reserve, 2.03.03 free revival 1, 2.03.08 five
/// Sardaukar.
pub(crate) const SHEET: Sheet = Sheet {
    spice: Spice::new(10),
    free_revival: 1,
    hand_limit: 4,
    starting_cards: 1,
    traitors: 1,
    kinds: super::ForceKinds {
        plain: super::KindRules::FORCE,
        starred: Some((5, SARDAUKAR_KIND)),
        flipped: None,
    },
    start: None,
    rules: SheetRules::GENERAL,
};

/// 2.03.08 Sardaukar: worth two forces in battle (Advanced), one against the Fremen (2.03.09).
const SARDAUKAR_KIND: super::KindRules = super::KindRules {
    name: "Sardaukar",
    worth: 4,
    versus: Some((Faction::Fremen, 2, rule!("2.03.09"))),
    advanced_only: true,
    rule: rule!("2.03.08"),
    ..super::KindRules::FORCE
};

pub(crate) const PAYMENT: Ability = Ability(rule!("2.03.04"));
pub(crate) const ALLY_REVIVAL: Ability = Ability(rule!("2.03.07"));
pub(crate) const SARDAUKAR: Ability = Ability(rule!("2.03.08"));

static KARAMA: [AbilityInfo; 3] = [
    AbilityInfo::new(
        PAYMENT,
        EM,
        PREVENT,
        Some(Phase::Bidding),
        false,
        true,
        "payment for treachery cards",
    ),
    AbilityInfo::new(
        ALLY_REVIVAL,
        EM,
        PREVENT,
        Some(Phase::Revival),
        true,
        true,
        "paying for the ally's extra revivals",
    ),
    AbilityInfo::new(
        SARDAUKAR,
        EM,
        CANCEL,
        Some(Phase::Battle),
        false,
        true,
        "Sardaukar",
    ),
];

impl FactionRules for Emperor {
    fn faction(&self) -> Faction {
        EM
    }

    fn sheet(&self) -> &'static Sheet {
        &SHEET
    }

    fn karama(&self) -> &'static [AbilityInfo] {
        &KARAMA
    }

    /// 2.03.04: the other factions pay for treachery cards to the Emperor (rulings.md 22: the
    /// Emperor's own payment goes to the bank); a Karama preventing it sends the next purchase's
    /// payment to the bank.
    fn payee(&self, r: &mut Replay, fee: Fee, buyer: Faction) -> Option<PayeeRule> {
        if fee != Fee::Card {
            return None;
        }
        let block = if buyer == EM {
            None
        } else {
            r.karama_take(PAYMENT)
        };
        Some(PayeeRule {
            payee: if block.is_none() {
                Payee::Faction(EM)
            } else {
                Payee::Bank
            },
            rule: rule!("2.03.04"),
            block,
        })
    }

    fn starred_revival_rule(&self) -> Option<Rule> {
        Some(rule!("2.03.11"))
    }

    /// A Karama cancelling the Sardaukar (2.03.08): they count as normal forces in this battle.
    fn battle_karama(
        &self,
        ability: Ability,
        _plan: &mut Plan,
        c: &mut Conditions,
        side: usize,
    ) -> bool {
        if ability != SARDAUKAR {
            return false;
        }
        c.plain_starred[side] = true;
        true
    }

    /// 1.14.02: revive up to three forces or one leader for free.
    fn karama_power(&self, usage: &KaramaUse) -> Option<(Phase, Rule)> {
        matches!(
            usage,
            KaramaUse::ReviveForces(_) | KaramaUse::ReviveLeader(_)
        )
        .then_some((Phase::Revival, rule!("1.14.02")))
    }

    fn use_karama_power(&self, r: &mut Replay, _ev: &Event, usage: &KaramaUse) {
        match usage {
            KaramaUse::ReviveForces(c) => r.emperor_karama_revival(Some(*c), None),
            KaramaUse::ReviveLeader(l) => r.emperor_karama_revival(None, Some(*l)),
            _ => {}
        }
    }
}

impl Replay {
    /// `$$ EM>F n` (2.03.06): the Emperor gives spice to its ally.
    pub(crate) fn gift(&mut self, from: Faction, to: Faction, amount: Spice) {
        if from != EM {
            self.v(rule!("1.10.02.03"), format!("allies may not give each other spice; only the Emperor gives to its ally (2.03.06), and {from} is not the Emperor"));
            return;
        }
        if self.st.ally(from) != Some(to) {
            self.v(
                rule!("2.03.06"),
                format!("the Emperor gives spice only to its ally, and {to} is not"),
            );
            return;
        }
        if amount > self.spice(from) {
            self.v(
                rule!("2.03.06"),
                format!(
                    "the Emperor gives {amount} but has only {} spice",
                    self.spice(from)
                ),
            );
        }
        let paid = (amount).min(self.spice(from));
        self.st.faction_mut(from).spice.take(paid);
        self.st.faction_mut(to).gain(paid);
    }

    /// `+m by EM $n` (2.03.07): the Emperor pays for up to 3 extra revivals of its ally.
    pub(crate) fn extra_revival(
        &mut self,
        f: Faction,
        m: ForceCount,
        payer: Faction,
        payment: Option<&Payment>,
    ) {
        let paid = payment.map(|p| p.amount);
        if payer != EM || self.st.ally(f) != Some(EM) {
            self.v(rule!("2.03.07"), if payer == EM { format!("the Emperor pays for its ally's extra revivals only, and {f} is not its ally") } else { format!("only the Emperor pays for an ally's extra revivals, not {payer}") });
            return;
        }
        if self.karama_forbids(
            ALLY_REVIVAL,
            &format!("the Emperor pays for {} extra forces of {f}", m.total),
        ) {
            return;
        }
        if m.total > 3 {
            self.v(
                rule!("2.03.07"),
                format!(
                    "the Emperor pays for up to 3 extra forces of its ally, not {}",
                    m.total
                ),
            );
        }
        let cost = Spice::new(2 * u32::from(m.total));
        if let Some(p) = paid
            && p != cost
        {
            self.v(
                rule!("2.03.07"),
                format!(
                    "{} extra forces cost the Emperor {cost} spice, not {p}",
                    m.total
                ),
            );
        }
        if cost > self.spice(payer) {
            self.v(
                rule!("2.03.07"),
                format!(
                    "the Emperor must pay {cost} spice but has {}",
                    self.spice(payer)
                ),
            );
        }
        let payee = self.settle_payee(Fee::AllyRevival, payer, payment, || {
            format!("the Emperor's payment for {f}'s extra revivals")
        });
        self.pay(payer, payee, cost);
        self.revive_from_tanks(f, m, rule!("2.03.07"));
    }

    /// Emperor Karama (1.14.02): three forces or one leader, free.
    pub(crate) fn emperor_karama_revival(
        &mut self,
        forces: Option<ForceCount>,
        leader: Option<Leader>,
    ) {
        let f = EM;
        if let Some(c) = forces {
            if c.total > 3 {
                self.v(
                    rule!("1.14.02"),
                    format!(
                        "the Emperor's Karama revives up to 3 forces, not {}",
                        c.total
                    ),
                );
            }
            self.revive_from_tanks(f, c, rule!("1.14.02"));
        }
        if let Some(l) = leader {
            if l.faction() != f || !matches!(self.st.leaders[l.index()], LeaderState::Tanks { .. })
            {
                self.v(
                    rule!("1.14.02"),
                    format!("{l} is not an Emperor leader in the tanks"),
                );
            } else {
                self.st.leaders[l.index()] = LeaderState::Pool(f);
            }
        }
    }
}
