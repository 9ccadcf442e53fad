//! The Spacing Guild (001 2.06): payment for shipment, the three types of shipment (cross-ship,
//! ship back to reserves), half-price shipping (for them and their ally), Ship As It Pleases You
//! (acting early, Delay) and the special victory.

use crate::dgn::{Event, KaramaUse};
use dune::{Faction, Rule, Spice, WinType, rule};

use super::{FactionRules, Fee, PayeeRule, Sheet, SheetRules};
use crate::board::Territory;
use crate::dgn::{ForceCount, Payee, Payment, Place, Side};
use crate::replay::karama::{Ability, AbilityInfo, CANCEL, PREVENT};
use crate::replay::movement::{Entry, shipping_cost};
use crate::replay::victory::{ClaimCheck, ClaimFailure};
use crate::replay::{Replay, WinResult};
use crate::state::Phase;
use dune::Stronghold;

pub(crate) struct SpacingGuild;

const SG: Faction = Faction::SpacingGuild;

/// 2.06.01 5 spice, 2.06.02 5 forces in Tuek's Sietch and 15 in reserve, 2.06.03 free revival 1.
pub(crate) const SHEET: Sheet = Sheet {
    spice: Spice::new(5),
    free_revival: 1,
    hand_limit: 4,
    starting_cards: 1,
    traitors: 1,
    kinds: super::ForceKinds::PLAIN,
    start: Some((Territory::TueksSietch, 5)),
    rules: SheetRules::GENERAL,
};

pub(crate) const PAYMENT: Ability = Ability(rule!("2.06.04"));
pub(crate) const CROSS: Ability = Ability(rule!("2.06.05.01"));
pub(crate) const HOME: Ability = Ability(rule!("2.06.05.02"));
pub(crate) const HALF_PRICE: Ability = Ability(rule!("2.06.06"));
pub(crate) const ALLY_HALF_PRICE: Ability = Ability(rule!("2.06.09"));
pub(crate) const ALLY_CROSS: Ability = Ability(rule!("2.06.10"));
pub(crate) const TIMING: Ability = Ability(rule!("2.06.12"));

static KARAMA: [AbilityInfo; 7] = [
    AbilityInfo::new(
        PAYMENT,
        SG,
        CANCEL,
        Some(Phase::Movement),
        false,
        true,
        "payment for shipment",
    ),
    AbilityInfo::new(
        CROSS,
        SG,
        PREVENT,
        Some(Phase::Movement),
        false,
        true,
        "cross-ship",
    ),
    AbilityInfo::new(
        HOME,
        SG,
        PREVENT,
        Some(Phase::Movement),
        false,
        true,
        "shipping back to reserves",
    ),
    AbilityInfo::new(
        HALF_PRICE,
        SG,
        PREVENT,
        Some(Phase::Movement),
        false,
        true,
        "half-price shipping",
    ),
    AbilityInfo::new(
        ALLY_HALF_PRICE,
        SG,
        CANCEL,
        Some(Phase::Movement),
        true,
        true,
        "half-price shipping for the ally",
    ),
    AbilityInfo::new(
        ALLY_CROSS,
        SG,
        CANCEL,
        Some(Phase::Movement),
        true,
        true,
        "cross-ship for the ally",
    ),
    AbilityInfo::new(
        TIMING,
        SG,
        CANCEL,
        Some(Phase::Movement),
        false,
        true,
        "Ship As It Pleases You (acting early or Delay)",
    )
    .whole(),
];

impl FactionRules for SpacingGuild {
    fn faction(&self) -> Faction {
        SG
    }

    fn sheet(&self) -> &'static Sheet {
        &SHEET
    }

    fn karama(&self) -> &'static [AbilityInfo] {
        &KARAMA
    }

    /// 2.06.04: the other factions pay for shipments onto Dune to the Guild (a Karama cancelling
    /// it sends this one to the bank); the Guild's own go to the bank.
    fn payee(&self, r: &mut Replay, fee: Fee, shipper: Faction) -> Option<PayeeRule> {
        if !matches!(fee, Fee::Shipment | Fee::CrossShip) || shipper == SG {
            return None;
        }
        let block = r.karama_take(PAYMENT);
        Some(PayeeRule {
            payee: if block.is_none() {
                Payee::Faction(SG)
            } else {
                Payee::Bank
            },
            rule: rule!("2.06.04"),
            block,
        })
    }

    fn receives(&self, fee: Fee) -> Option<Rule> {
        matches!(fee, Fee::Shipment | Fee::CrossShip).then_some(rule!("2.06.04"))
    }

    /// Half price for the Guild (2.06.06) and its ally (2.06.09).
    fn half_price(&self, r: &Replay, shipper: Faction) -> Option<Ability> {
        if shipper == SG {
            Some(HALF_PRICE)
        } else if r.st.ally(shipper) == Some(SG) {
            Some(ALLY_HALF_PRICE)
        } else {
            None
        }
    }

    /// 2.06.12 (Advanced): the Guild acts whenever it pleases: ahead of its turn, or after a
    /// Delay; a Karama cancelling it puts the Guild back in storm order.
    fn check_action_order(&self, r: &mut Replay, f: Faction) -> bool {
        let timing_block = r.karama_block(TIMING);
        let guild_timing = r.st.options.advanced && r.st.plays(SG) && timing_block.is_none();
        let idx = r.st.order_index(f);
        let later =
            r.t.mv
                .acted
                .iter()
                .find(|&g| r.st.order_index(g) > idx && !(guild_timing && g == SG));
        if f == SG && guild_timing {
            if let Some(g) = later
                && !r.t.mv.sg_delayed
            {
                r.v(
                    rule!("2.06.12.02"),
                    format!(
                        "the Guild acts after {g} without having announced Delay when its turn came"
                    ),
                );
            }
        } else if let Some(g) = later {
            match timing_block.filter(|_| f == SG || g == SG) {
            Some(b) if f == SG => r.v(
                b.rule(),
                format!(
                    "the Guild acts after {g}, later in storm order: {}, so the Guild acts in storm order this phase",
                    b.describe()
                ),
            ),
            Some(b) => r.v(
                b.rule(),
                format!(
                    "{f} acts after the Guild, which went ahead of its turn: {}, so the Guild acts in storm order this phase",
                    b.describe()
                ),
            ),
            None => r.v(
                rule!("1.06.01"),
                format!(
                    "{f} acts out of storm order: {g}, later in storm order, has already acted"
                ),
            ),
        }
        }

        true
    }

    /// 2.06.08: nobody has won by the end of the last turn; the ally shares it (2.06.11).
    fn has_special_victory(&self) -> bool {
        true
    }

    fn special_victory(
        &self,
        r: &Replay,
        _check: &super::victory::VictoryCheck,
    ) -> Option<WinResult> {
        Some(r.with_ally(SG, WinType::SoloDefault, WinType::AlliedDefault, r.st.turn))
    }

    fn victory_rule(&self, kind: WinType, winners: &[Faction]) -> Option<Rule> {
        (matches!(kind, WinType::SoloDefault | WinType::AlliedDefault) && winners.contains(&SG))
            .then_some(rule!("2.06.08"))
    }

    /// A claimed Guild victory (a Default Victory naming the Guild) against its criteria: the end
    /// of play with nobody having won (2.06.08), the ally winning with the Guild (2.06.11).
    fn victory_claim(
        &self,
        r: &Replay,
        claim: (&[Faction], WinType),
        _control: &[(dune::Stronghold, Faction)],
        computed: Option<&WinResult>,
    ) -> ClaimCheck {
        let (factions, kind) = claim;
        if !matches!(kind, WinType::SoloDefault | WinType::AlliedDefault) || !factions.contains(&SG)
        {
            return ClaimCheck::NotMine;
        }
        let last = r.st.options.max_turns;
        if r.st.turn < last {
            return ClaimCheck::Fails(
                ClaimFailure::new(
                    rule!("2.06.08"),
                    format!(
                        "the Guild wins when nobody has won by the end of play, and turn {} is not the last (the game lasts {last})",
                        r.st.turn
                    ),
                )
                .also(&[rule!("1.09.05")]),
            );
        }
        if let Some(w) = computed.filter(|w| crate::replay::victory::won_in_play(w)) {
            return ClaimCheck::Fails(ClaimFailure::new(
                rule!("2.06.08"),
                format!(
                    "the Guild wins only when no faction has been able to win, and {} {} at this Mentat Pause",
                    Replay::list(&w.factions),
                    crate::replay::victory::wins(&w.factions)
                ),
            ));
        }
        let due = r.with_ally(SG, WinType::SoloDefault, WinType::AlliedDefault, r.st.turn);
        if due.factions != factions || due.kind != kind {
            let why = match r.st.ally(SG) {
                Some(a) => format!(
                    "the Guild's ally {a} wins with it: {} ({})",
                    Replay::list(&due.factions),
                    due.kind.name()
                ),
                None => "the Guild has no ally: the victory is its alone (SDV)".to_string(),
            };
            return ClaimCheck::Fails(ClaimFailure::new(rule!("2.06.11"), why));
        }
        ClaimCheck::Holds
    }

    /// The ally's share of the Guild's victory (2.06.11).
    fn victory_claim_rule(
        &self,
        _r: &Replay,
        claimed: Option<(&[Faction], WinType)>,
        computed: Option<&WinResult>,
    ) -> Option<Rule> {
        (computed.is_some_and(|w| w.factions.contains(&SG))
            && crate::replay::collect::ally_share(
                claimed,
                computed,
                WinType::SoloDefault,
                WinType::AlliedDefault,
            ))
        .then_some(rule!("2.06.11"))
    }

    fn karama_now(&self, r: &mut Replay, rule: Rule) {
        if rule == TIMING.0 {
            r.karama_guild_timing();
        }
    }

    /// 1.14.05: stop one off-planet shipment.
    fn karama_power(&self, usage: &KaramaUse) -> Option<(Phase, Rule)> {
        matches!(usage, KaramaUse::CancelShipment(_)).then_some((Phase::Movement, rule!("1.14.05")))
    }

    fn use_karama_power(&self, r: &mut Replay, _ev: &Event, usage: &KaramaUse) {
        if let KaramaUse::CancelShipment(target) = usage {
            r.cancel_shipment(*target);
        }
    }
}

impl Replay {
    /// `M SG delay` (2.06.12.02, Holding Pattern).
    pub(crate) fn delay(&mut self, faction: Faction) {
        if faction != SG || !self.st.options.advanced {
            self.v(
                rule!("2.06.12.02"),
                "only the Guild announces Delay, in an Advanced game",
            );
        } else if let Some(b) = self.karama_block(TIMING) {
            self.v(
                b.rule(),
                format!(
                    "the Guild cannot announce Delay: {}; the Guild acts in storm order this phase",
                    b.describe()
                ),
            );
            return;
        }
        self.t.mv.sg_delayed = true;
    }

    /// A Karama cancels the Guild's timing (2.06.12): a Delay announced goes.
    pub(crate) fn karama_guild_timing(&mut self) {
        self.t.mv.sg_delayed = false;
    }

    pub(crate) fn cross_ship(
        &mut self,
        f: Faction,
        from: Place,
        to: Place,
        c: ForceCount,
        payment: Option<Payment>,
    ) {
        let ally = self.st.ally(f) == Some(SG);
        if f != SG && !ally {
            self.v(
                rule!("2.06.05.01"),
                format!("only the Guild and its ally cross-ship; {f} cannot"),
            );
            return;
        }
        let ability = if ally { ALLY_CROSS } else { CROSS };
        if self.karama_forbids(ability, &format!("{f} cross-ships from {from} to {to}")) {
            return;
        }
        if !self.use_shipment(f, true) {
            return;
        }
        let pieces = self.source_pieces(f, from, c.side, rule!("1.06.03.04"));
        let Some(dest) = self.dest_piece(to, rule!("1.06.03.03")) else {
            return;
        };
        let t = to.territory;
        self.check_entry(f, dest, c.total, Entry::Shipment);
        let (half, rate_block) = self.guild_rate(f, false);
        let half = half.is_some();
        let wall_card = self.st.stronghold_card_holder(Stronghold::ShieldWall) == Some(f);
        let cost = shipping_cost(t, c.total, half, wall_card);
        let claim = self.payee_of(Fee::CrossShip, f);
        let rule = match rate_block {
            _ if wall_card && t == Territory::ShieldWall => rule!("4.03.03.05"),
            Some(b) => b.rule(),
            None if ally => rule!("2.06.09"),
            None => rule!("2.06.06"),
        };
        let (payer, payee) =
            self.check_payment(f, payment, cost, (Fee::CrossShip, claim), rule, &|| {
                format!("cross-shipping {} forces to {}", c.total, t.name())
            });
        self.pay(payer, payee, cost);
        if let Some(s) = self.take_from(f, from, &pieces, c, rule!("2.06.05.01")) {
            self.st.stack_mut(f, dest).add(s);
        }
        self.entered(f, t, false);
    }

    pub(crate) fn ship_home(
        &mut self,
        f: Faction,
        from: Place,
        c: ForceCount,
        payment: Option<Payment>,
    ) {
        if f != SG {
            self.v(rule!("2.06.05.02"), format!("only the Guild ships forces from the board back to reserves; {f} cannot (1.06.04)"));
            return;
        }
        if self.karama_forbids(
            HOME,
            &format!(
                "the Guild ships {} forces from {from} back to reserves",
                c.total
            ),
        ) {
            return;
        }
        if !self.use_shipment(f, true) {
            return;
        }
        let pieces = self.source_pieces(f, from, c.side, rule!("1.06.03.04"));
        let cost = Spice::new(u32::from(c.total)).half_up();
        let claim = self.payee_of(Fee::ShipHome, f);
        let (_, payee) = self.check_payment(
            f,
            payment,
            cost,
            (Fee::ShipHome, claim),
            rule!("2.06.07"),
            &|| format!("shipping {} forces back to reserves", c.total),
        );
        self.pay(f, payee, cost);
        if let Some(s) = self.take_from(f, from, &pieces, c, rule!("2.06.05.02")) {
            self.st.faction_mut(f).reserves.add(s.forces());
        }
    }

    /// Guild Karama (1.14.05): the target's shipment this phase is undone.
    pub(crate) fn cancel_shipment(&mut self, target: Faction) {
        let Some(rec) = self.t.mv.last_ship.take().filter(|r| r.faction == target) else {
            self.v(
                rule!("1.14.05"),
                format!("{target} has no off-planet shipment to cancel right now"),
            );
            return;
        };
        let got = self
            .st
            .take_from_piece(target, rec.piece, rec.forces, Side::Unspecified);
        self.st.faction_mut(target).reserves.add(got.forces());
        if let Payee::Faction(g) = rec.payee {
            let back = self.st.faction_mut(g).spice.take(rec.cost);
            self.st.faction_mut(rec.payer).gain(back);
        } else {
            self.bank_pays(rec.payer, rec.cost);
        }
    }
}
