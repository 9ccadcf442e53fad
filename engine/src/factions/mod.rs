//! Every faction's rules in one place: one module per faction, read top to bottom against its
//! chapter of the rulebook (001 chapter 2 for the six classic factions, 000 chapters 2.07-2.13
//! for the expansion ones).
//!
//! A faction module holds
//! - its **sheet** ([`Sheet`]): starting spice and forces, free revival, the kinds of its forces
//!   and what each is worth ([`kinds`]), hand limit, traitors kept, starting cards, the rules
//!   that state them;
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
//!    chapter needs. Cite its rules by their number in its book (`rule!("2.07.01")`: 000's
//!    numbering for the expansion factions, reported with `Replay::v_full`; 001's for the classic
//!    ones, with `Replay::v`).
//! 2. In this file, its line in [`rules`] (`&<name>::<Struct>`) and its `mod <name>;` under its
//!    chapter's comment among the `mod` declarations. Each faction has its own lines here, apart
//!    from the others' (so are its places in `board::data`'s `Leader` and `LEADERS`, and each
//!    card set's in `Card` and `CardSet`), so that several factions can be added at the same
//!    time without touching each other's lines. Every faction of both rulebooks has its module
//!    now; a faction the engine could not check would say so with `checked` and `not_checked`,
//!    and be refused at the setup line.
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
//! 7. A victory of its own: one line at its place in [`victory::ORDER`] (ruling 7's order) and
//!    `special_victory` (with `has_special_victory`); a change to what the stronghold victory
//!    counts: `controls_shared`, `stronghold_requirement`; a faction that counts against another's
//!    special victory where that one's chapter names others (Richese in Tuek's Sietch, 000
//!    2.10.18): `bars_special_victory`.
//! 8. A chapter 000 prints in two texts: read `RuleOptions::edition_of(faction)` and keep both in
//!    the module (Ecaz, Moritani; docs/notation.md, Decisions 72).

use dune::{Faction, FactionSet, Rule, Spice, WinType, rule};

use crate::battle::{Conditions, Plan};
use crate::board::{Card, Leader, Piece, Territory};
use crate::dgn::{Event, ForceCount, KaramaUse, Stmt};
use crate::replay::karama::{Ability, AbilityInfo};
use crate::replay::victory::ClaimCheck;
use crate::replay::{Replay, WinResult};
use crate::state::{GameState, Phase, Stack};

mod atreides;
mod bene_gesserit;
mod emperor;
mod fremen;
mod harkonnen;
pub mod kinds;
mod spacing_guild;
mod trade;
pub mod victory;
// 000 2.07 Ixians.
pub(crate) mod ixians;
// 000 2.08 Tleilaxu.
pub(crate) mod tleilaxu;
// 000 2.09 CHOAM.
pub(crate) mod choam;
// 000 2.10 Richese.
pub(crate) mod richese;
// 000 2.11 Ecaz.
pub(crate) mod ecaz;
// 000 2.12 Moritani.
pub(crate) mod moritani;
// 000 2.13 Free Traders.
pub(crate) mod free_traders;

pub use kinds::{Aspect, ForceKind, ForceKinds, KindRules};

pub(crate) use atreides::Atreides;
pub(crate) use bene_gesserit::BeneGesserit;
pub(crate) use choam::Choam;
pub(crate) use emperor::Emperor;
pub(crate) use free_traders::FreeTraders;
pub(crate) use fremen::Fremen;
pub(crate) use harkonnen::Harkonnen;
pub(crate) use richese::Richese;
pub(crate) use spacing_guild::SpacingGuild;

/// A faction's sheet: starting values and limits, each with the rule that states it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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
    /// The kinds of its forces and what each is worth (plain, starred, a second side): see
    /// [`kinds`].
    pub kinds: ForceKinds,
    /// Fixed starting placement on the map (2.xx.02), if any.
    pub start: Option<(Territory, u8)>,
    /// The rules the values come from where a faction's own rule states them rather than the
    /// general one: hand limit, starting cards, traitors kept.
    pub rules: SheetRules,
}

impl Sheet {
    /// No sheet: a faction that does not sit down.
    pub const EMPTY: Sheet = Sheet {
        spice: Spice::ZERO,
        free_revival: 0,
        hand_limit: 0,
        starting_cards: 0,
        traitors: 0,
        kinds: ForceKinds::PLAIN,
        start: None,
        rules: SheetRules::GENERAL,
    };
}

impl Default for Sheet {
    fn default() -> Self {
        Sheet::EMPTY
    }
}

/// A value of a faction's sheet, for [`FactionRules::sheet_rule`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SheetItem {
    Spice,
    Forces,
    FreeRevival,
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

    /// The sheet for the game's rule options: a faction whose two printed editions differ in
    /// their starting values (CHOAM, 000 2.09) answers by the edition played.
    fn sheet_for(&self, _o: &crate::state::RuleOptions) -> &'static Sheet {
        self.sheet()
    }

    /// Its abilities that a Karama can cancel or prevent (3.01.11.01, 3.01.11.02).
    fn karama(&self) -> &'static [AbilityInfo] {
        &[]
    }

    /// The rule that states one aspect of a kind of the faction's forces, when it is not the
    /// kind's own rule ([`KindRules::rule`]).
    fn cite(&self, _kind: ForceKind, _aspect: Aspect) -> Option<Rule> {
        None
    }

    /// The rule of the faction's own that states one value of its sheet, where its chapter
    /// numbers it (the expansion factions': 000 2.07.01 starting spice, …); cited when a log gets
    /// that value wrong.
    fn sheet_rule(&self, _item: SheetItem) -> Option<Rule> {
        None
    }

    /// The log says the faction has `said` spice behind its shield and the replay `actual`: the
    /// rule of the faction's that explains the difference, if one does (its starting spice, the
    /// Tleilaxu's subsidy, 000 2.08.12).
    fn spice_rule(&self, _r: &Replay, _said: Spice, _actual: Spice) -> Option<Rule> {
        None
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

    /// The rules that state the faction's starting spice, forces and starred forces (2.xx.01,
    /// 2.xx.02), cited when a setup assertion disagrees; `None`: the general ones (0.12, 0.13).
    fn start_rules(&self, _o: &crate::state::RuleOptions) -> Option<StartRules> {
        None
    }

    /// Before the log's setup lines, after the fixed starting forces of the sheet are placed.
    fn begin_setup(&self, _r: &mut Replay) {}

    /// `PLACE F …`: the faction places starting forces of its choice (0.13). `false`: its
    /// starting forces are fixed, so there is nothing to place (the phase reports it).
    fn place(&self, _r: &mut Replay, _t: Territory, _piece: Piece, _forces: ForceCount) -> bool {
        false
    }

    /// `f`'s starting cards are recorded (`TC`, 0.14), with the identities known: what this
    /// faction's rules say of them (the Ixians' pocket cards, 000 2.07.03).
    fn starting_cards(&self, _r: &mut Replay, _f: Faction, _ids: &[Option<Card>]) {}

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

    /// The storm passed over or stopped on the sectors marked in `hit` (0-17), after its losses
    /// (Richese's No-Field tokens are revealed, 000 2.10.14).
    fn storm_swept(&self, _r: &mut Replay, _hit: &[bool; 18]) {}

    /// At the end of every phase (any faction's).
    fn end_of_phase(&self, _r: &mut Replay, _phase: Phase) {}

    // ---- spice blow and Nexus (1.02, 1.10) ----

    /// A worm appears in `t`: the factions this faction's ability keeps from being devoured, and
    /// the rule each one's losses are checked under.
    fn worm_shelter(&self, _r: &mut Replay, _t: Territory, _shelter: &mut WormShelter) {}

    /// The faction places the further worms of a blow (the rule that lets it).
    fn places_worms(&self, _r: &Replay) -> Option<Rule> {
        None
    }

    // ---- CHOAM Charity (1.03) ----

    /// At the start of CHOAM Charity (CHOAM's income, 000 2.09.04).
    fn begin_charity(&self, _r: &mut Replay) {}

    /// Another faction's charity claim, due `due` by its own rules: a faction at the table that
    /// pays it and may change its amount (CHOAM, 000 2.09.04). `None`: the bank pays it as due.
    fn charity_source(
        &self,
        _r: &mut Replay,
        _claimant: Faction,
        _due: Spice,
    ) -> Option<CharitySource> {
        None
    }

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

    /// The faction's own terms for force revival, when its sheet replaces the general ones
    /// (1.05.01, 1.05.01.02): CHOAM's 1 spice a force (000 2.09.08, 2.09.12).
    fn revival_terms(&self, _r: &Replay) -> Option<RevivalTerms> {
        None
    }

    /// This faction's ability takes `f`'s free revival away this turn: the rule (La La La,
    /// 000 2.09.07.05).
    fn free_revival_removed(&self, _r: &Replay, _f: Faction) -> Option<Rule> {
        None
    }

    /// The faction may revive this leader of its own while it has active leaders: the rule
    /// (CHOAM's Auditor, 000 2.09.18).
    fn leader_revival_anytime(&self, _r: &Replay, _l: Leader) -> Option<Rule> {
        None
    }

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

    /// `f`'s force revival limit this turn when this faction's rules set it (the Tleilaxu's
    /// own none, 000 2.08.08; another's raised to 5, 2.08.11), with the rule.
    fn revival_limit(&self, _r: &Replay, _f: Faction) -> Option<(u8, Rule)> {
        None
    }

    /// The prices `f`'s force revival may cost, as this faction's rules change them (the
    /// Tleilaxu's half price, 000 2.08.09, 2.08.15): changes `prices` and returns the rule.
    fn revival_prices(
        &self,
        _r: &mut Replay,
        _f: Faction,
        _prices: &mut Vec<Spice>,
    ) -> Option<Rule> {
        None
    }

    /// `f` revived forces with its free revival (`free_used`) or played a Tleilaxu Ghola: what
    /// this faction receives for it (the Tleilaxu's subsidy, 000 2.08.12).
    fn revived(&self, _r: &mut Replay, _f: Faction, _free_used: bool, _ghola: bool) {}

    /// `f` revives leader `l`: what this faction's rules change (the Tleilaxu's own revival,
    /// their gholas and their ally's price, 000 2.08.08-2.08.16; Duke Vidal, revived whatever
    /// the faction's other leaders and set aside, 000 2.11.22 original, 2.11.17 revised, 2.12.15
    /// original). `None`: the general rules.
    fn leader_revival(&self, _r: &mut Replay, _f: Faction, _l: Leader) -> Option<LeaderRevival> {
        None
    }

    /// `f` may not revive this turn by this faction's power (the Tleilaxu's Karama, 000
    /// 1.14.08): the rule.
    fn revival_blocked(&self, _r: &Replay, _f: Faction) -> Option<Rule> {
        None
    }

    /// After `f`'s force revival of `c` (any faction's; the Free Traders' Way In, 000 2.13.07).
    fn after_revival(&self, _r: &mut Replay, _f: Faction, _c: ForceCount) {}

    /// The rule limiting the revival of the faction's starred forces to one per turn.
    fn starred_revival_rule(&self) -> Option<Rule> {
        None
    }

    /// Whether `f` may revive a leader while it has active leaders, when this faction's rule
    /// decides it (Ecaz, once five of its leaders are in the tanks, 000 2.11.23 original), and
    /// the rule with words for the message.
    fn leader_revival_allowed(&self, _r: &Replay, _f: Faction) -> Option<(bool, Rule, String)> {
        None
    }

    // ---- shipment and movement (1.06) ----

    /// `f`'s shipment and movement action has ended (before the ally constraint).
    fn action_ended(&self, _r: &mut Replay, _f: Faction) {}

    /// `f` and its ally `ally` keep their forces together at the end of `f`'s action (the ally
    /// constraint, 4.01.17, does not apply), by this faction's rule (Ecaz's Occupy, 000 2.11.17
    /// original).
    fn ally_constraint_exempt(&self, _r: &Replay, _f: Faction, _ally: Faction) -> Option<Rule> {
        None
    }

    /// Forces arriving in `t` by `how`: what this faction's rules forbid there (the Atomics
    /// Aftermath token, 000 2.12.13.02). Asked of every faction in play.
    fn entry_forbidden(
        &self,
        _r: &Replay,
        _f: Faction,
        _t: Territory,
        _how: crate::replay::movement::Entry,
    ) -> Option<(Rule, String)> {
        None
    }

    /// The faction cannot ship from off-planet: the rule and the reason.
    fn cannot_ship(&self) -> Option<(Rule, &'static str)> {
        None
    }

    /// Before any shipment (a per-shipment ability's Karama lapses).
    fn before_shipment(&self, _r: &mut Replay) {}

    /// Forces of `f` (any faction) arrive in `t` from off the board or across it (a shipment, a
    /// cross-ship, a send): what this faction's rules forbid there (the Ixians' Home Field
    /// Advantage, 000 2.07.20).
    fn entry_check(
        &self,
        _r: &mut Replay,
        _f: Faction,
        _t: Territory,
        _how: crate::replay::movement::Entry,
    ) {
    }

    /// The faction ships forces into `t`: what its own rules forbid.
    fn shipment_check(&self, _r: &mut Replay, _t: Territory, _c: ForceCount) {}

    /// The number of forces `shipper`'s shipment of `c` is paid for, when this faction's rules
    /// make it other than one a token (CHOAM's Elite Mercenaries at twice the rate, 000 2.09.16;
    /// a Richese No-Field token as one force, 2.10.10), and the rule.
    fn shipped_count(&self, _r: &Replay, _shipper: Faction, _c: ForceCount) -> Option<(u8, Rule)> {
        None
    }

    /// The faction ships the second side of its tokens (the Free Traders' Smugglers, 000
    /// 2.13.05): the rule.
    fn ships_second_side(&self) -> Option<Rule> {
        None
    }

    /// What `shipper`'s shipment of `c` into `t` costs when this faction's rules set its price
    /// (the Free Traders' Smugglers at 1 a force, 000 2.13.05); `half`: at Guild rates.
    fn shipment_cost(
        &self,
        _r: &Replay,
        _shipper: Faction,
        _t: Territory,
        _c: ForceCount,
        _half: bool,
    ) -> Option<(Spice, Rule)> {
        None
    }

    /// Tokens of `f` in `t` that collect beside its fighting forces, at its plain rate (a
    /// Richese No-Field token, 000 2.10.11; the Free Traders' Smugglers where nobody contests,
    /// 2.13.05). Asked of `f`'s own rules.
    fn extra_collectors(&self, _r: &Replay, _f: Faction, _t: Territory) -> u32 {
        0
    }

    /// Half-price shipping for `shipper` (this faction, or its ally): the ability (its Karama key).
    fn half_price(&self, _r: &Replay, _shipper: Faction) -> Option<Ability> {
        None
    }

    /// This faction's ability keeps `mover` from moving into `to` (Baliset, 000 2.09.07.01).
    fn move_blocked(&self, _r: &Replay, _mover: Faction, _to: Territory) -> Option<(Rule, String)> {
        None
    }

    /// Extra territories for `mover`'s move by this faction's ability, used up by the move
    /// (Kulon, 000 2.09.07.04).
    fn move_bonus(&self, _r: &mut Replay, _mover: Faction) -> Option<(u8, Rule)> {
        None
    }

    /// `mover`'s move may pass through the storm (not stop in it) by this faction's ability,
    /// used up by the move (Jubba Cloak, 000 2.09.10.02).
    fn move_through_storm(&self, _r: &mut Replay, _mover: Faction) -> Option<Rule> {
        None
    }

    /// Movement range without ornithopters when the faction's ability changes it, for the group
    /// `moved` (the kinds' own ranges are in the sheet, [`KindRules::moves`]).
    fn move_range(&self, _r: &mut Replay, _moved: ForceCount) -> Option<MoveRange> {
        None
    }

    /// Movement range for `f`'s forces leaving `from`, when this faction's rules change it there
    /// (the revised Ixian ambassador, 000 2.11.16.07). Asked of every faction in play.
    fn move_range_from(&self, _r: &Replay, _f: Faction, _from: Territory) -> Option<MoveRange> {
        None
    }

    /// The forces `f` pays for when it ships `n` into `t`, when this faction's rules charge
    /// fewer (the revised Richese ambassador: three as one, 000 2.11.16.10), and the rule.
    fn shipping_charge(
        &self,
        _r: &Replay,
        _f: Faction,
        _t: Territory,
        _n: u8,
    ) -> Option<(u8, Rule)> {
        None
    }

    /// `f` may bring forces into `t` although two other factions are there (its forces there do
    /// not count, the revised Ecaz's co-occupation, 000 2.11.06): the rule.
    fn occupancy_exempt(&self, _r: &Replay, _f: Faction, _t: Territory) -> Option<Rule> {
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

    /// At the start of the Battle phase, the battles of the turn known (the end of Shipment and
    /// Movement: Duke Vidal joins Moritani, 000 2.12.16 revised).
    fn begin_battle_phase(&self, _r: &mut Replay) {}

    /// Whose forces `f` dials in `t` when this faction's rules say so (Battling Co-Occupied:
    /// the Ecaz ally's, 000 2.11.19 original). Asked of every faction in play.
    fn dial_pool(&self, _r: &Replay, _f: Faction, _t: Territory) -> Option<Faction> {
        None
    }

    /// What this faction's rules add to the number `plan` dials in `t` (half of Ecaz's forces in
    /// Battling Co-Occupied, 000 2.11.19 original), and the rule. Asked of every faction in
    /// play.
    fn dial_bonus(
        &self,
        _r: &Replay,
        _plan: &Plan,
        _t: Territory,
    ) -> Option<(crate::battle::Halves, Rule)> {
        None
    }

    /// A Karama stops `ability`, one of the faction's battle abilities, in this battle (3.01.11.01):
    /// the plan and the battle's conditions (its side's) without it. `true` when the ability is part of the battle's
    /// arithmetic (the Sardaukar, the Fedaykin, Battle Hardened, the Kwisatz Haderach); the
    /// others (the Voice, Prescience, the capture) are stopped where they are used.
    fn battle_karama(
        &self,
        _ability: Ability,
        _plan: &mut Plan,
        _c: &mut Conditions,
        _side: usize,
    ) -> bool {
        false
    }

    /// What the faction's own effects in force change on its wheel in this territory (CHOAM's
    /// flipped Elite Mercenaries, 000 1.14.09). Unlike [`FactionRules::battle_karama`] it uses
    /// nothing up: the plan's wheel assertion asks it too.
    fn wheel_conditions(
        &self,
        _r: &Replay,
        _t: Territory,
        _plan: &Plan,
        _c: &mut Conditions,
        _side: usize,
    ) {
    }

    /// Before `f` reveals its battle plan in `t` (any faction's; Richese's No-Field tokens are
    /// revealed with it, 000 2.10.16).
    fn before_plan(&self, _r: &mut Replay, _f: Faction, _t: Territory) {}

    /// Prescience may not ask this faction for `element` in `t`: the rule (Blind Prescience,
    /// 000 2.10.17).
    fn prescience_denied(&self, _r: &Replay, _element: &str, _t: Territory) -> Option<Rule> {
        None
    }

    /// A battle of `f`'s in `t`, due and not fought, that this faction's ability made due: the
    /// rule (the Free Traders' Infiltration, 000 2.13.06).
    fn battle_due_rule(&self, _r: &Replay, _f: Faction, _t: Territory) -> Option<Rule> {
        None
    }

    /// The faction's traitors work in its ally's battle (2.05.09).
    fn traitors_for_ally(&self) -> bool {
        false
    }

    /// Part of the spice `payer` puts on its wheel that goes to this faction rather than the
    /// bank (1.13.04.04; CHOAM's half, 000 2.09.20), and the rule.
    fn battle_spice_share(
        &self,
        _r: &Replay,
        _payer: Faction,
        _amount: Spice,
    ) -> Option<(Spice, Rule)> {
        None
    }

    /// The faction's ability to pay spice for another's forces in battle (CHOAM for its ally,
    /// 000 2.09.15): its rule, and whether it may pay for `f`'s. `None`: it has no such ability.
    fn pays_ally_battle_spice(&self, _r: &Replay, _f: Faction) -> Option<(Rule, bool)> {
        None
    }

    /// This leader of the faction cannot be captured (CHOAM's Auditor, 000 2.09.19).
    fn protected_leader(&self, _r: &Replay, _l: Leader) -> Option<Rule> {
        None
    }

    /// This leader of the faction is not in the game under these options: the rule (the
    /// Auditor, an Advanced leader, 000 2.09.16).
    fn leader_in_play(&self, _r: &Replay, _l: Leader) -> Option<Rule> {
        None
    }

    /// At Leader Return, where this faction's own leader goes when another faction held it
    /// (CHOAM's lent Auditor, 000 2.09.20); `None`: the holder's rules decide.
    fn leader_home(&self, _r: &mut Replay, _l: Leader) -> Option<Faction> {
        None
    }

    /// After each battle is resolved (any faction's).
    fn after_battle(&self, _r: &mut Replay, _b: &crate::replay::battle::Resolved) {}

    /// A leader died (any faction's).
    fn leader_died(&self, _r: &mut Replay) {}

    /// At Leader Return, the faction that gets back leader `l`, which fought for this faction.
    fn leader_returns(&self, _l: Leader) -> Faction {
        self.faction()
    }

    /// A battle has been resolved and its result applied: what this faction's rules add (the
    /// Ecaz alliance's partner, 000 2.11.19 original; Moritani's Hostage and Robbery, 2.12.13).
    fn after_battle_result(
        &self,
        _r: &mut Replay,
        _b: &crate::replay::battle::Battle,
        _o: &crate::battle::Outcome,
    ) {
    }

    /// At the start of the Mentat Pause (CHOAM's Inflation token turns, 000 2.09.12).
    fn begin_mentat(&self, _r: &mut Replay) {}

    /// This faction's ability forbids bribes now (Corrupt Officials, 000 2.09.13).
    fn bribe_forbidden(&self, _r: &Replay) -> Option<(Rule, String)> {
        None
    }

    /// The forces `f` loses in this battle when this faction's rules decide it (Battling
    /// Co-Occupied and the Ecaz alliance's partner, 000 2.11.19 original), and the rule: for
    /// checking a result line. Asked of every faction in play.
    fn battle_loss(
        &self,
        _r: &Replay,
        _b: &crate::replay::battle::Battle,
        _o: &crate::battle::Outcome,
        _f: Faction,
    ) -> Option<(u8, Rule)> {
        None
    }

    /// After Leader Return (1.07.07): a leader this faction's rules set aside once it has fought
    /// (Duke Vidal).
    fn after_leader_return(&self, _r: &mut Replay) {}

    // ---- collection (1.08) ----

    /// Factions `a` and `b` collect together in `t` and split the spice between them, by this
    /// faction's rule (Ecaz and its ally, 000 2.11.17 original): the rule, and which of them
    /// takes the odd spice of an even split.
    fn collection_shared(
        &self,
        _r: &Replay,
        _t: Territory,
        _a: Faction,
        _b: Faction,
    ) -> Option<(Rule, Faction)> {
        None
    }

    // ---- Mentat Pause (1.09) ----

    /// At the end of the turn (after the Mentat Pause's victory check).
    fn end_of_turn(&self, _r: &mut Replay) {}

    /// The faction has a victory of its own, checked at its place in [`victory::ORDER`].
    fn has_special_victory(&self) -> bool {
        false
    }

    /// The faction's own victory, asked at its place in ruling 7's order ([`victory::ORDER`]):
    /// before the stronghold victory (the Bene Gesserit prediction) or at the end of the last
    /// turn when nobody has won (the Fremen's, the Guild's). `check.qualifies` tells whether a
    /// faction meets the stronghold requirement now.
    fn special_victory(&self, _r: &Replay, _check: &victory::VictoryCheck) -> Option<WinResult> {
        None
    }

    /// The number of strongholds `f` (with its ally) needs for a stronghold victory when this
    /// faction's rules lower it, and the rule (the Ecaz alliance's three co-occupied
    /// strongholds, 000 2.11.21 original). Asked of every faction in play.
    fn stronghold_requirement(&self, _r: &Replay, _f: Faction) -> Option<(usize, Rule)> {
        None
    }

    /// Who controls stronghold `s` when `occupants` (two or more factions) occupy it and this
    /// faction's rules give it to one of them (a stronghold Ecaz and its ally share, 000 2.11.20
    /// original). Asked of every faction in play.
    fn controls_shared(
        &self,
        _st: &GameState,
        _s: dune::Stronghold,
        _occupants: FactionSet,
    ) -> Option<(Faction, Rule)> {
        None
    }

    /// The faction's forces where `of`'s special victory forbids the factions its own chapter
    /// names count against it as well, by this faction's rule (Richese in Tuek's Sietch against
    /// the Fremen's, 000 2.10.18).
    fn bars_special_victory(&self, _of: Faction) -> Option<Rule> {
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

    /// A victory the log claims, of a kind this faction's rules give (its special victory, the
    /// prediction): whether the board meets every criterion, or the first it fails, by the rule
    /// that states it (`crate::replay::victory`). `control`: who controls each stronghold now.
    fn victory_claim(
        &self,
        _r: &Replay,
        _claim: (&[Faction], WinType),
        _control: &[(dune::Stronghold, Faction)],
        _computed: Option<&WinResult>,
    ) -> ClaimCheck {
        ClaimCheck::NotMine
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

    // ---- any time ----

    /// The storm, a worm, an explosion or an atomic blast hits territory `t` (one sector piece,
    /// or all of it): tokens of this faction there answer (ambassadors go back to the supply,
    /// 000 2.11.09 original; terror tokens do not care, 2.12.10).
    fn board_hit(&self, _r: &mut Replay, _t: Territory, _piece: Option<Piece>, _cause: Hit) {}

    /// After every statement of the log (state that follows the board, such as the revised
    /// Ecaz's co-occupation, 000 2.11.06).
    fn after_event(&self, _r: &mut Replay, _ev: &Event) {}

    /// The rule by which `f`'s tokens that are not fighting (BG advisors have their own, 2.02.12)
    /// share a territory peacefully, when this faction's rules say so (the revised Ecaz's
    /// co-occupied forces, 000 2.11.06): for citing what they cannot do.
    fn coexist_rule(&self, _r: &Replay, _f: Faction) -> Option<Rule> {
        None
    }

    /// `holder` holds `l` as a traitor card: what this faction's rules say of it (Ecaz's loyal
    /// leader and Duke Vidal are never traitors, 000 2.11.25).
    fn traitor_forbidden(&self, _r: &mut Replay, _holder: Faction, _l: Leader) {}

    /// `f`'s hand limit when this faction's rules change it, and the rule (Moritani's Atomics,
    /// 000 2.12.13.02).
    fn hand_limit(&self, _r: &Replay, _f: Faction, _limit: u8) -> Option<(u8, Rule)> {
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

    /// This faction's ability stops `f` from playing a Karama card now (Kull Wahad, 000
    /// 2.09.07.03).
    fn karama_blocked(&self, _r: &Replay, _f: Faction) -> Option<(Rule, String)> {
        None
    }

    /// The faction's Karama power may be used in any phase (CHOAM's original, 000 1.14.09).
    fn karama_any_phase(&self, _usage: &KaramaUse) -> bool {
        false
    }

    /// Applies the faction's own Karama power.
    fn use_karama_power(&self, _r: &mut Replay, _ev: &Event, _usage: &KaramaUse) {}

    /// The faction has no once-a-game power of its own: the rule that says so.
    fn no_karama_power(&self) -> Option<Rule> {
        None
    }

    /// The rulebook the faction's own numbers are read in: 001 for the GenCon factions, 000 for
    /// an expansion faction only the full rulebook prints. A number the books give different
    /// rules (1.14.07: the Free Traders' Karama power in 001, the Ixians' in 000) is cited in
    /// the book of the faction whose rule it is.
    fn book(&self) -> dune::Book {
        dune::Book::GenCon
    }
}

/// A payment of spice whose payee a rule decides. Each is paid by one faction to its default
/// payee ([`Fee::default_payee`]: the bank, except a bribe's recipient and an auctioneer) unless a
/// faction's rules send it elsewhere ([`FactionRules::payee`]); a new kind of payment (an auction
/// of a faction's own, a fee) is a new variant here. `Replay::settle_payee` is the one door: it
/// asks the factions, checks the payee a log names at the payment, and says where it goes.
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
    /// A card Richese sells at its own auction or on the black market (000 2.10.06).
    RicheseCard,
    /// Secret Tunnels (000 2.13.09): to the Guild, or the bank.
    Tunnels,
    /// The auctioneer's cut of a Black Market Auction (000 2.13.04.03): to the Free Traders.
    BlackMarketCut,
    /// The Emperor's payment for its ally's extra revivals (2.03.07; to the bank by 1.05.01.03).
    AllyRevival,
    /// An Ecaz ambassador placed after Revival (000 2.11.06 original).
    Ambassador,
    /// A shipment bought with a Karama at Guild rates, paid to the bank (3.01.11.03).
    KaramaShipment,
    /// A bribe to this faction: its spice lies in front of the recipient's shield until the
    /// Mentat Pause (1.12.02).
    Bribe(Faction),
    /// A card a player auctions itself and another buys: paid to the auctioneer unless a rule
    /// says otherwise (000's Richese and Black Market auctions; the auctioneer's module claims it
    /// with its own rule in `payee` and `receives`).
    #[allow(dead_code)]
    Sale(Faction),
}

impl Fee {
    /// Where this payment goes when no faction's rule says otherwise: the bank, a bribe's
    /// recipient, the auctioneer of a sale.
    pub(crate) fn default_payee(self) -> crate::dgn::Payee {
        match self {
            Fee::Bribe(to) | Fee::Sale(to) => crate::dgn::Payee::Faction(to),
            _ => crate::dgn::Payee::Bank,
        }
    }

    /// The rule that sends this payment to its default payee.
    pub(crate) fn bank_rule(self) -> Rule {
        match self {
            Fee::Card | Fee::RicheseCard | Fee::Sale(_) => rule!("1.04.06.02"),
            Fee::Tunnels => rule!("2.13.09"),
            Fee::BlackMarketCut => rule!("2.13.04.03"),
            Fee::Shipment | Fee::CrossShip | Fee::ShipHome => rule!("1.06.03.02"),
            Fee::Revival | Fee::AllyRevival => rule!("1.05.01.03"),
            Fee::LeaderRevival => rule!("1.05.03.02"),
            Fee::Ambassador => rule!("2.11.06"),
            Fee::KaramaShipment => rule!("3.01.11.03"),
            Fee::Bribe(_) => rule!("1.12.02"),
        }
    }
}

/// What hits a territory (see [`FactionRules::board_hit`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Hit {
    Storm,
    Worm,
    /// A Lasgun-Shield explosion (3.01.14).
    Explosion,
    /// Family Atomics (3.01.07) or Moritani's Atomics (000 2.12.13.02).
    Atomics,
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
    /// The line states CHOAM's own income (000 2.09.04), taken at the start of the phase.
    Income,
}

/// The rules of a faction's starting values (2.xx.01, 2.xx.02).
#[derive(Clone, Copy, Debug)]
pub(crate) struct StartRules {
    pub spice: Rule,
    pub forces: Rule,
    /// How many of its forces are starred (CHOAM's Elite Mercenaries, 000 2.09.11).
    pub starred: Rule,
    /// Its free revival (2.xx: 000 2.10.04).
    pub free_revival: Rule,
}

/// Who pays another faction's charity, and how much is due (CHOAM, 000 2.09.04).
pub(crate) struct CharitySource {
    pub due: Spice,
    /// The rule that changed the amount, if it did (Welfare State, Market Crash, Dividends).
    pub rule: Option<Rule>,
    pub payer: crate::dgn::Payee,
    /// The rule that makes `payer` pay it.
    pub payer_rule: Rule,
}

/// A faction's own force revival terms (CHOAM, 000 2.09.08, 2.09.12-2.09.15).
#[derive(Clone, Copy, Debug)]
pub(crate) struct RevivalTerms {
    /// Forces revived per turn; `None`: no limit.
    pub limit: Option<u8>,
    /// Starred forces revived per turn.
    pub starred_limit: u8,
    /// The rule of a starred force's price (000 2.09.14).
    pub starred_price_rule: Rule,
    /// The rule of the limit and the price.
    pub rule: Rule,
    pub starred_rule: Rule,
    /// The rule that the faction has no (or little) free revival, for a price that counts
    /// free forces it does not have.
    pub free_rule: Rule,
}

/// Who receives a payment and why: the faction, the rule that sends the spice to it, and the
/// Karama block that sent it to the bank instead.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PayeeRule {
    pub payee: crate::dgn::Payee,
    pub rule: Rule,
    pub block: Option<crate::replay::karama::Block>,
}

/// A leader revival as a faction's rules make it (000 2.08.08-2.08.16).
#[derive(Clone, Debug)]
pub(crate) struct LeaderRevival {
    /// The prices it may cost (one, or two where the rule leaves a choice).
    pub prices: Vec<Spice>,
    /// The rule that sets them.
    pub rule: Rule,
    /// Not limited to one a turn nor to a faction with no active leader, nor by the order of
    /// face-down leaders (1.05.04): up to this many active leaders (the rule).
    pub unlimited: Option<(usize, Rule)>,
    /// Another faction's leader, revived into this one's pool (a ghola, 2.08.16).
    pub ghola: bool,
    /// Allowed whatever the faction's other leaders (no need for them all in the tanks).
    pub any_time: bool,
    /// The revived leader is set aside, not put in the pool (Duke Vidal).
    pub set_aside: bool,
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
        Faction::Ixians => &ixians::Ixians,
        // 000 2.08
        Faction::Tleilaxu => &tleilaxu::Tleilaxu,
        // 000 2.09
        Faction::Choam => &Choam,
        // 000 2.10
        Faction::Richese => &Richese,
        // 000 2.11
        Faction::Ecaz => &ecaz::Ecaz,
        // 000 2.12
        Faction::Moritani => &moritani::Moritani,
        // 000 2.13
        Faction::FreeTraders => &FreeTraders,
    }
}

/// The sheet of a faction the engine plays; `None` for one it does not check yet.
pub fn sheet(f: Faction) -> Option<&'static Sheet> {
    let r = rules(f);
    r.checked().then(|| r.sheet())
}

/// The sheet of a faction the engine plays, for the game's rule options (its edition).
pub fn sheet_for(f: Faction, o: &crate::state::RuleOptions) -> Option<&'static Sheet> {
    let r = rules(f);
    r.checked().then(|| r.sheet_for(o))
}

/// The kinds of a faction's forces (plain forces for a faction the engine does not check).
pub fn kinds(f: Faction) -> &'static ForceKinds {
    &rules(f).sheet().kinds
}

/// The rule that states one aspect of a kind of `f`'s forces: the faction's own citation, else
/// the kind's rule; for a plain force the general rule of that aspect.
pub(crate) fn kind_rule(f: Faction, kind: ForceKind, aspect: Aspect) -> Rule {
    let k = kinds(f).of(kind);
    rules(f)
        .cite(kind, aspect)
        .unwrap_or(if *k == KindRules::FORCE {
            match aspect {
                Aspect::Worth => rule!("1.07.04.01"),
                Aspect::Revival => rule!("1.05.01.02"),
                Aspect::Moves => rule!("1.06.05.03"),
                Aspect::Collects => rule!("1.08.02"),
            }
        } else {
            k.rule
        })
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
        // 000 2.09 CHOAM, 2.10 Richese, 2.13 the Free Traders, 3.03 the Second Expansion's cards
        Stmt::Trade(t) => r.trade_statement(ev, t),
        // 000 2.07 Ixians
        Stmt::Pocket { faction, cards } => r.pocket(*faction, cards),
        Stmt::HmsMove {
            faction,
            path,
            harvest,
        } => r.hms_statement(ev, *faction, path, *harvest),
        Stmt::Supply { faction, card, .. } => r.supply_chain(*faction, card),
        Stmt::Technology { faction, card } => r.technology(*faction, card),
        Stmt::Redraw { faction, card } => r.redraw(*faction, card),
        Stmt::Shenanigans { faction, count } => r.shenanigans(*faction, *count),
        // 000 2.08 Tleilaxu
        Stmt::FaceDancers { faction, leaders } => r.face_dancers(*faction, leaders),
        Stmt::FaceDancer {
            faction,
            leader,
            replace,
        } => r.face_dancer(*faction, *leader, replace.as_ref()),
        Stmt::ReplaceDancer {
            faction,
            leader,
            new,
        } => r.replace_dancer(*faction, *leader, new),
        Stmt::AllowRevival { faction, target } => r.allow_revival(*faction, *target),
        Stmt::SellLeader {
            faction,
            leader,
            paid,
        } => r.sell_leader(*faction, *leader, paid.as_ref()),
        // 000 2.11 Ecaz
        Stmt::Ambassador { faction, action } => r.ambassador_statement(ev, *faction, action),
        Stmt::Loyalty { faction, leader } => r.loyalty(*faction, *leader),
        // 000 2.12 Moritani
        Stmt::Terror { faction, action } => r.terror_statement(ev, *faction, action),
        Stmt::Bounty { faction, action } => r.bounty_statement(*faction, action),
        _ => return false,
    }
    true
}

/// Every faction has its rules and its sheet, and the engine checks every one: the classic six
/// and the seven of the full rulebook.
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_faction_has_its_module_and_sits_down() {
        for f in Faction::ALL {
            assert_eq!(rules(f).faction(), f);
            assert!(sheet(f).is_some(), "{f}");
            assert!(rules(f).checked(), "{f}");
            assert!(rules(f).not_checked().is_none(), "{f}");
        }
        assert_eq!(sheet(Faction::Harkonnen).map(|s| s.hand_limit), Some(8));
        assert_eq!(sheet(Faction::Choam).map(|s| s.hand_limit), Some(5));
    }

    #[test]
    fn factions_start_with_twenty_forces_and_known_spice() {
        for f in Faction::ALL {
            let Some(r) = sheet(f) else { continue };
            if let Some((t, n)) = r.start {
                assert!(n <= crate::board::data::FORCES_PER_FACTION);
                assert!(t.is_stronghold() || !f.is_classic(), "{f}");
            }
        }
        let spice = |fs: &[Faction]| -> u32 {
            fs.iter()
                .filter_map(|&f| sheet(f))
                .map(|r| r.spice.amount())
                .sum()
        };
        assert_eq!(spice(&Faction::CLASSIC), 10 + 5 + 10 + 3 + 10 + 5);
        // 000 2.07.01, 2.08.01.
        assert_eq!(spice(&[Faction::Ixians, Faction::Tleilaxu]), 10 + 5);
        // Every faction's kinds add up to twenty tokens.
        for f in Faction::ALL.into_iter().filter(|&f| rules(f).checked()) {
            let k = kinds(f);
            assert!(k.starred_count(true) <= crate::board::data::FORCES_PER_FACTION);
        }
        // 000 2.11.01, 2.12.01.
        assert_eq!(sheet(Faction::Ecaz).map(|s| s.spice), Some(Spice::new(12)));
        assert_eq!(
            sheet(Faction::Moritani).map(|s| s.spice),
            Some(Spice::new(12))
        );
    }

    #[test]
    fn every_payment_has_a_default_payee_and_the_rule_that_sends_it_there() {
        use crate::dgn::Payee;
        assert_eq!(Fee::Card.default_payee(), Payee::Bank);
        assert_eq!(Fee::KaramaShipment.bank_rule(), rule!("3.01.11.03"));
        // A bribe lies in front of its recipient's shield (1.12.02); an auctioneer is paid for
        // the card it sells.
        assert_eq!(
            Fee::Bribe(Faction::Atreides).default_payee(),
            Payee::Faction(Faction::Atreides)
        );
        assert_eq!(Fee::Bribe(Faction::Atreides).bank_rule(), rule!("1.12.02"));
        assert_eq!(
            Fee::Sale(Faction::Richese).default_payee(),
            Payee::Faction(Faction::Richese)
        );
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
