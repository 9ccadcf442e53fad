//! Every faction's rules in one place: one module per faction, read top to bottom against its
//! chapter of the rulebook (001 chapter 2 for the six classic factions, 000 chapters 2.07-2.13
//! for the expansion ones).
//!
//! A faction module holds
//! - its **sheet** ([`Sheet`]): starting spice and forces, free revival, starred forces, hand
//!   limit, traitors kept, starting cards, the rules that state them;
//! - the **Karama table** of its abilities a Karama can cancel (`*`) or prevent (`★`)
//!   ([`crate::replay::karama::AbilityInfo`]), keyed by the ability's rule number;
//! - its **abilities as hooks**: an `impl FactionRules for …` whose methods the phases call at
//!   the points the rulebook names (setup, storm, blow, charity, bidding, revival, shipment,
//!   movement, battle, collection, Mentat Pause, alliance, Karama). Every hook has a default
//!   that does nothing (the faction has no ability there), so a faction overrides only the
//!   hooks of its own chapter;
//! - the statements of DGN that only it writes (`B FR ride`, `M SG home`, …), as `impl Replay`
//!   blocks beside its hooks, routed by [`ability_statement`].
//!
//! The phases (`crate::replay`) name no faction: they ask [`rules`] for the faction at hand, or
//! every faction in play, what its ability changes. Where a rule is about a pair (an alliance
//! ability, one faction's ability against another), the faction whose chapter states it names
//! the other one in its own module.
//!
//! # Adding a faction
//! 1. Write `engine/src/factions/<name>.rs`: a unit struct, its [`Sheet`] (`const SHEET`), its
//!    Karama table, and `impl FactionRules` with `faction`, `sheet`, `karama` and the hooks its
//!    chapter needs. Cite its rules by their number in its book (`rule!("2.07.02")`: 000's
//!    numbering for the expansion factions, 001's for the classic ones) and report them with
//!    `Replay::v`, which reads a number only 000 has in 000 whatever the game. Where 000's number
//!    means another rule at GenCon (its 1.14.07, the Ixians' Karama power), cite
//!    `dune::full_rule!("1.14.07")` and report it with `Replay::v_full`.
//! 2. In this file, replace the faction's line in [`rules`] (today `&expansion::NotYet(…)`, which
//!    refuses the faction at the setup line) with `&<name>::<Struct>`, and its comment line among
//!    the `mod` declarations with `mod <name>;`. Each faction has its own lines here, apart from
//!    the others' (so are its places in `board::data`'s `Leader` and `LEADERS`, and each card
//!    set's in `Card` and `CARDS`), so that several factions can be added at the same time
//!    without touching each other's lines.
//! 3. A rule that happens at a point no hook covers yet: add a method with a default that does
//!    nothing to [`FactionRules`] (the other factions do not change) and call it from the phase,
//!    for the faction at hand or for every faction in play.
//! 4. A statement of its own: add it to `crate::dgn` (the AST and a reader in `dgn/parse/`), an
//!    arm in [`ability_statement`] and its handler in the faction's module.
//! 5. Its leaders: the `Leader` table in `crate::board::data` has a marked place for each
//!    expansion faction's leaders. A payment its rules send elsewhere than the bank: claim it
//!    in `payee` (and `receives`), with a new [`Fee`] if the kind of payment is new;
//!    `Replay::settle_payee` then pays it and checks the payee a log names.
//! 6. Fixtures `engine/tests/games/legal-…` and `illegal-<rule>-…` name the rule they break.

use dune::{Faction, Rule, Spice, WinType, rule};

use crate::battle::{Conditions, Plan};
use crate::board::{Card, Leader, Piece, Territory};
use crate::dgn::{Event, ForceCount, KaramaUse, Stmt};
use crate::replay::karama::{Ability, AbilityInfo};
use crate::replay::{Replay, WinResult};
use crate::state::{Phase, Stack};

mod atreides;
mod bene_gesserit;
mod emperor;
mod expansion;
mod fremen;
mod harkonnen;
mod spacing_guild;
// 000 2.07 Ixians: `mod ixians;` here.
//
// 000 2.08 Tleilaxu: `mod tleilaxu;` here.
//
// 000 2.09 CHOAM: `mod choam;` here.
//
// 000 2.10 Richese: `mod richese;` here.
//
// 000 2.11 Ecaz: `mod ecaz;` here.
//
// 000 2.12 Moritani: `mod moritani;` here.
//
// 000 2.13 Free Traders: `mod free_traders;` here.

pub(crate) use atreides::Atreides;
pub(crate) use bene_gesserit::BeneGesserit;
pub(crate) use emperor::Emperor;
pub(crate) use fremen::Fremen;
pub(crate) use harkonnen::Harkonnen;
pub(crate) use spacing_guild::SpacingGuild;

/// A faction's sheet: starting values and limits, each with the rule that states it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Sheet {
    /// Starting spice (2.xx.01).
    pub spice: Spice,
    /// Free force revival per turn.
    pub free_revival: u8,
    /// Maximum treachery cards in hand (1.04.02, HK 2.05.07).
    pub hand_limit: u8,
    /// Starting treachery cards (0.14, HK 2.05.04).
    pub starting_cards: u8,
    /// Traitor cards kept at setup (0.11; HK 2.05.03).
    pub traitors: u8,
    /// Starred forces among the 20 in the Advanced game (Sardaukar 2.03.08, Fedaykin 2.04.18).
    pub starred: u8,
    /// The faction's tokens have a second side, advisors (BG 2.02.10).
    pub advisors: bool,
    /// Fixed starting placement on the map (2.xx.02), if any.
    pub start: Option<(Territory, u8)>,
    /// The rules the values come from where a faction's own rule states them rather than the
    /// general one: hand limit, starting cards, traitors kept.
    pub rules: SheetRules,
}

/// Where a sheet's values differ from the general rule, the faction's rule that says so.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SheetRules {
    pub hand_limit: Rule,
    pub starting_cards: Rule,
    pub traitors: Rule,
}

impl Default for SheetRules {
    fn default() -> Self {
        SheetRules::GENERAL
    }
}

impl SheetRules {
    /// The general rules: a hand of 4 (1.04.03), one starting card (0.14), one traitor (0.11).
    pub const GENERAL: SheetRules = SheetRules {
        hand_limit: rule!("1.04.03"),
        starting_cards: rule!("0.14"),
        traitors: rule!("0.11"),
    };
}

/// What a faction's chapter changes in the rules, at the points the rulebook names. Every hook's
/// default is "no ability here"; a faction module overrides those of its chapter. Hooks take the
/// replay (`r`) to read the state, report violations and apply effects.
pub(crate) trait FactionRules: Sync {
    fn faction(&self) -> Faction;

    /// The faction's sheet.
    fn sheet(&self) -> &'static Sheet;

    /// Its abilities that a Karama can cancel or prevent (3.01.11.01, 3.01.11.02).
    fn karama(&self) -> &'static [AbilityInfo] {
        &[]
    }

    /// Whether the engine checks this faction's rules. A faction without its module yet is
    /// refused at the setup line with [`FactionRules::not_checked`]'s words.
    fn checked(&self) -> bool {
        true
    }

    /// Why the engine cannot replay a game with this faction (for those not `checked`): the
    /// message of the refusal at the `[Factions]` tag.
    fn not_checked(&self) -> Option<String> {
        None
    }

    // ---- setup (0.xx) ----

    /// Before the log's setup lines, after the fixed starting forces of the sheet are placed.
    fn begin_setup(&self, _r: &mut Replay) {}

    /// `PLACE F …`: the faction places starting forces of its choice (0.13). `false`: its
    /// starting forces are fixed, so there is nothing to place (the phase reports it).
    fn place(&self, _r: &mut Replay, _t: Territory, _piece: Piece, _forces: ForceCount) -> bool {
        false
    }

    /// After the last setup line (`T1` or `END`): what setup still lacks.
    fn finish_setup(&self, _r: &mut Replay) {}

    // ---- storm (1.01) ----

    /// The faction moves the storm by its own deck from turn 2 on: the rule that says so.
    fn storm_deck(&self, _r: &Replay) -> Option<Rule> {
        None
    }

    /// The storm passes over or stops on one of the faction's pieces (`start`: the sector it
    /// starts from). `None`: it loses everything there, as 1.01.03 says; `Some(lost)`: the
    /// faction's ability decided what it lost (already sent to the tanks).
    fn storm_losses(&self, _r: &mut Replay, _piece: Piece, _start: bool) -> Option<Stack> {
        None
    }

    /// The rule that decides this faction's storm losses when it is not 1.01.03.
    fn storm_loss_rule(&self, _r: &Replay) -> Option<Rule> {
        None
    }

    // ---- spice blow and Nexus (1.02, 1.10) ----

    /// A worm appears in `t`: the factions this faction's ability keeps from being devoured, and
    /// the rule each one's losses are checked under.
    fn worm_shelter(&self, _r: &mut Replay, _t: Territory, _shelter: &mut WormShelter) {}

    /// The faction places the further worms of a blow (the rule that lets it).
    fn places_worms(&self, _r: &Replay) -> Option<Rule> {
        None
    }

    // ---- CHOAM Charity (1.03) ----

    /// The faction claims CHOAM Charity with `spice` behind its shield: `Some` when its ability
    /// decides the claim, `None` for the general rule (1.03.01). May report.
    fn charity(&self, _r: &mut Replay, _spice: Spice) -> Option<Charity> {
        None
    }

    // ---- bidding (1.04) ----

    /// After each auction (a per-card ability's Karama lapses).
    fn after_auction(&self, _r: &mut Replay) {}

    // ---- payments (every phase) ----

    /// The faction receives `fee` paid by `payer`: to whom it goes now (the faction, or the bank
    /// when a Karama stopped the ability) and the rule. `None`: this faction's rules do not touch
    /// this payment. See [`Fee`].
    fn payee(&self, _r: &mut Replay, _fee: Fee, _payer: Faction) -> Option<PayeeRule> {
        None
    }

    /// The rule by which the faction receives this kind of payment at all (to cite when a log
    /// names it as the payee wrongly).
    fn receives(&self, _fee: Fee) -> Option<Rule> {
        None
    }

    // ---- revival (1.05) ----

    /// Free force revival this turn for `f`, this faction's ally, starting from `free`.
    fn free_revival(&self, _r: &Replay, _f: Faction, free: u8) -> u8 {
        free
    }

    /// A logged revival price of this faction's ally that the faction's ability would explain:
    /// the rule to cite and the message.
    fn revival_price_rule(
        &self,
        _r: &Replay,
        _f: Faction,
        _n: u8,
        _free: u8,
        _paid: Spice,
    ) -> Option<(Rule, String)> {
        None
    }

    /// The rule limiting the revival of the faction's starred forces to one per turn.
    fn starred_revival_rule(&self) -> Option<Rule> {
        None
    }

    // ---- shipment and movement (1.06) ----

    /// The faction cannot ship from off-planet: the rule and the reason.
    fn cannot_ship(&self) -> Option<(Rule, &'static str)> {
        None
    }

    /// Before any shipment (a per-shipment ability's Karama lapses).
    fn before_shipment(&self, _r: &mut Replay) {}

    /// The faction ships forces into `t`: what its own rules forbid.
    fn shipment_check(&self, _r: &mut Replay, _t: Territory, _c: ForceCount) {}

    /// Half-price shipping for `shipper` (this faction, or its ally): the ability (its Karama key).
    fn half_price(&self, _r: &Replay, _shipper: Faction) -> Option<Ability> {
        None
    }

    /// Movement range without ornithopters when the faction's ability changes it.
    fn move_range(&self, _r: &mut Replay) -> Option<MoveRange> {
        None
    }

    /// The faction's forces arrive in `t` by a move: what its ability does to them (`advisors`:
    /// the group moved as advisors; `had_advisors`: advisors were there before).
    fn arrive(
        &self,
        _r: &mut Replay,
        _t: Territory,
        _moved: &mut Stack,
        _advisors: bool,
        _had_advisors: bool,
    ) {
    }

    /// `f` begins its shipment and movement action: a faction whose ability lets it act out of
    /// storm order judges the order (and returns `true`).
    fn check_action_order(&self, _r: &mut Replay, _f: Faction) -> bool {
        false
    }

    // ---- battle (1.07) ----

    /// The rule that decides what this faction's dialled forces are worth against `opponent`,
    /// when it is the faction's own (a misread of it is cited there).
    fn wheel_rule(&self, _plan: &Plan, _opponent: Faction) -> Option<Rule> {
        None
    }

    /// A Karama against the faction's battle abilities takes effect in this battle.
    fn battle_karama(&self, _r: &mut Replay, _plan: &Plan, _c: &mut Conditions, _side: usize) {}

    /// The faction's traitors work in its ally's battle (2.05.09).
    fn traitors_for_ally(&self) -> bool {
        false
    }

    /// A leader died (any faction's).
    fn leader_died(&self, _r: &mut Replay) {}

    /// At Leader Return, the faction that gets back leader `l`, which fought for this faction.
    fn leader_returns(&self, _l: Leader) -> Faction {
        self.faction()
    }

    // ---- Mentat Pause (1.09) ----

    /// A victory that comes before the stronghold victory (the Bene Gesserit prediction).
    /// `qualifies`: a faction meets the stronghold requirement, alone or allied.
    fn victory_first(
        &self,
        _r: &Replay,
        _qualifies: &dyn Fn(Faction) -> bool,
    ) -> Option<WinResult> {
        None
    }

    /// A victory at the end of the last turn when nobody won (1.09.05): the special victories.
    /// Asked in chapter order (rulings.md 7).
    fn victory_at_end(&self, _r: &Replay) -> Option<WinResult> {
        None
    }

    /// A claimed victory the replay could not know until it was claimed (a sealed prediction).
    fn revealed_victory(
        &self,
        _r: &Replay,
        _claim: (&[Faction], WinType),
        _computed: Option<&WinResult>,
    ) -> Option<WinResult> {
        None
    }

    /// The faction's rule for a victory of this kind by `winners`.
    fn victory_rule(&self, _kind: WinType, _winners: &[Faction]) -> Option<Rule> {
        None
    }

    /// When the log's winner differs from the replay's: the faction's rule that decides it.
    fn victory_claim_rule(
        &self,
        _r: &Replay,
        _claimed: Option<(&[Faction], WinType)>,
        _computed: Option<&WinResult>,
    ) -> Option<Rule> {
        None
    }

    // ---- Karama (3.01.11, 1.14) ----

    /// A Karama against one of the faction's abilities takes hold at once (before the use it
    /// stops): the effect, if any.
    fn karama_now(&self, _r: &mut Replay, _rule: Rule) {}

    /// The faction may use this card as a Karama (besides the Karama card itself).
    fn karama_card(&self, _r: &mut Replay, _card: Card) -> bool {
        false
    }

    /// This use of a Karama is the faction's own power (1.14): its phase and rule.
    fn karama_power(&self, _usage: &KaramaUse) -> Option<(Phase, Rule)> {
        None
    }

    /// Applies the faction's own Karama power.
    fn use_karama_power(&self, _r: &mut Replay, _ev: &Event, _usage: &KaramaUse) {}

    /// The faction has no once-a-game power of its own: the rule that says so.
    fn no_karama_power(&self) -> Option<Rule> {
        None
    }
}

/// A payment of spice whose payee a rule decides. Each is paid by one faction to the bank
/// unless a faction's rules send it elsewhere ([`FactionRules::payee`]); a new kind of payment
/// (an auction of a faction's own, a fee) is a new variant here.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Fee {
    /// A treachery card bought at auction (1.04.06.02; the Emperor, 2.03.04).
    Card,
    /// A shipment from reserves (1.06.03.02; the Guild, 2.06.04).
    Shipment,
    /// A cross-ship by the Guild's ally (2.06.05.01, 2.06.10; the Guild, 2.06.04).
    CrossShip,
    /// The Guild's shipment back to reserves (2.06.05.02, 2.06.07).
    ShipHome,
    /// Force revival (1.05.01.03).
    Revival,
    /// Leader revival, the Kwisatz Haderach's too (1.05.03.02).
    LeaderRevival,
    /// The Emperor's payment for its ally's extra revivals (2.03.07; to the bank by 1.05.01.03).
    AllyRevival,
}

impl Fee {
    /// The rule that sends this payment to the bank when no faction's rule says otherwise.
    pub(crate) fn bank_rule(self) -> Rule {
        match self {
            Fee::Card => rule!("1.04.06.02"),
            Fee::Shipment | Fee::CrossShip | Fee::ShipHome => rule!("1.06.03.02"),
            Fee::Revival | Fee::AllyRevival => rule!("1.05.01.03"),
            Fee::LeaderRevival => rule!("1.05.03.02"),
        }
    }
}

/// Factions a worm spares in one territory, with the rule behind each one's loss check.
#[derive(Default)]
pub(crate) struct WormShelter {
    pub spared: dune::FactionSet,
    /// The rule that decides the faction's losses to this worm (its ability, or the Karama that
    /// stopped it).
    pub rules: Vec<(Faction, Rule)>,
}

/// CHOAM Charity decided by a faction ability.
pub(crate) enum Charity {
    /// The amount due and the rule that gives it.
    Due(Spice, Rule),
    /// No charity (reported by the hook).
    Refused,
}

/// Who receives a payment and why: the faction, the rule that sends the spice to it, and the
/// Karama block that sent it to the bank instead.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PayeeRule {
    pub payee: crate::dgn::Payee,
    pub rule: Rule,
    pub block: Option<crate::replay::karama::Block>,
}

/// A movement range set by a faction ability.
#[derive(Clone, Copy, Debug)]
pub(crate) struct MoveRange {
    pub range: u8,
    pub rule: Rule,
    /// Words for the message ("as Fremen").
    pub why: &'static str,
    /// The Karama that prevented the ability (the range is then the general one).
    pub prevented: Option<crate::replay::karama::Block>,
}

/// The rules of a faction. One line per faction, each apart from the others (see "Adding a
/// faction" above).
pub(crate) fn rules(f: Faction) -> &'static dyn FactionRules {
    match f {
        // 2.01
        Faction::Atreides => &Atreides,
        // 2.02
        Faction::BeneGesserit => &BeneGesserit,
        // 2.03
        Faction::Emperor => &Emperor,
        // 2.04
        Faction::Fremen => &Fremen,
        // 2.05
        Faction::Harkonnen => &Harkonnen,
        // 2.06
        Faction::SpacingGuild => &SpacingGuild,
        // 000 2.07
        Faction::Ixians => &expansion::NotYet(Faction::Ixians),
        // 000 2.08
        Faction::Tleilaxu => &expansion::NotYet(Faction::Tleilaxu),
        // 000 2.09
        Faction::Choam => &expansion::NotYet(Faction::Choam),
        // 000 2.10
        Faction::Richese => &expansion::NotYet(Faction::Richese),
        // 000 2.11
        Faction::Ecaz => &expansion::NotYet(Faction::Ecaz),
        // 000 2.12
        Faction::Moritani => &expansion::NotYet(Faction::Moritani),
        // 000 2.13
        Faction::FreeTraders => &expansion::NotYet(Faction::FreeTraders),
    }
}

/// The sheet of a faction the engine plays; `None` for one it does not check yet.
pub fn sheet(f: Faction) -> Option<&'static Sheet> {
    let r = rules(f);
    r.checked().then(|| r.sheet())
}

/// The Karama table of every faction, for looking an ability up by its rule number.
pub(crate) fn karama_abilities() -> impl Iterator<Item = &'static AbilityInfo> {
    Faction::ALL.into_iter().flat_map(|f| rules(f).karama())
}

/// A statement only one faction writes (its own ability), routed to that faction's module.
/// `false`: not such a statement.
pub(crate) fn ability_statement(r: &mut Replay, ev: &Event) -> bool {
    match &ev.stmt {
        // 2.01 Atreides
        Stmt::Peek { faction } => r.atreides_peek(*faction),
        Stmt::Wormsign { faction, card } => r.wormsign(ev, *faction, card),
        // 2.02 Bene Gesserit
        Stmt::Prediction {
            faction,
            prediction,
        } => r.prediction(*faction, prediction),
        Stmt::Spirit {
            faction,
            to,
            forces,
        } => r.spirit(*faction, *to, *forces),
        Stmt::Flip { faction, place, to } => r.flip(*faction, *place, *to),
        // 2.03 Emperor
        Stmt::Gift { from, to, amount } => r.gift(*from, *to, *amount),
        // 2.04 Fremen
        Stmt::StormCard { faction, value, to } => r.storm_card(ev, *faction, *value, *to),
        Stmt::StormDraw { faction, value } => r.storm_draw(ev, *faction, value),
        Stmt::Ride {
            faction,
            from,
            to,
            forces,
        } => r.ride(*faction, *from, *to, *forces),
        Stmt::NoProtect { faction } => r.no_protect(*faction),
        Stmt::Grant { faction } => r.grant(*faction),
        // 2.06 Spacing Guild
        Stmt::Delay { faction } => r.delay(*faction),
        _ => return false,
    }
    true
}

/// Every faction has its rules and its sheet; only the classic six are checked today.
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_faction_has_its_module_and_only_the_classic_are_checked() {
        for f in Faction::ALL {
            assert_eq!(rules(f).faction(), f);
            assert_eq!(sheet(f).is_some(), f.is_classic(), "{f}");
            assert_eq!(rules(f).not_checked().is_none(), f.is_classic(), "{f}");
        }
        assert_eq!(sheet(Faction::Harkonnen).map(|s| s.hand_limit), Some(8));
    }

    #[test]
    fn factions_start_with_twenty_forces_and_known_spice() {
        let classic: Vec<&Sheet> = Faction::ALL.into_iter().filter_map(sheet).collect();
        for r in &classic {
            if let Some((t, n)) = r.start {
                assert!(n <= crate::board::data::FORCES_PER_FACTION);
                assert!(t.is_stronghold());
            }
        }
        let spice: u32 = classic.iter().map(|r| r.spice.amount()).sum();
        assert_eq!(spice, 10 + 5 + 10 + 3 + 10 + 5);
    }

    #[test]
    fn every_karama_ability_is_listed_once_by_its_own_faction() {
        let all: Vec<&AbilityInfo> = karama_abilities().collect();
        for (i, a) in all.iter().enumerate() {
            assert!(all[i + 1..].iter().all(|b| b.rule != a.rule), "{}", a.rule);
            assert!(rules(a.owner).karama().iter().any(|b| b.rule == a.rule));
        }
        assert!(all.len() >= 33);
    }
}
