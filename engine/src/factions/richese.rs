//! Richese (000 2.10): its own cache of treachery cards and the auctions that sell them
//! (declared first or last, once around or silent), the No-Field tokens (forces hidden under a
//! numbered token: the log records what the table saw, the audit reveals the rest), the black
//! market (the original text) or the disrupted supply chain (the revised one), Blind Prescience,
//! its place in the Fremen's special victory, and its alliance abilities.
//!
//! Where the rulebook runs two texts together (2.10.03, 2.10.07, 2.10.10, 2.10.15, 2.10.19,
//! 2.10.21) the game's edition picks one (rulings.md 28; revised by default); both are numbered
//! alike. The rulebook prints no Karama marks for the expansion factions, so no ability of
//! Richese's is in the table a Karama can cancel or prevent.

use dune::{Faction, FactionSet, Rule, Spice, WinType, rule};

use super::{FactionRules, Fee, PayeeRule, Sheet, SheetRules, StartRules};
use crate::board::{Card, Piece, Territory};
use crate::dgn::{
    AuctionKind, Bid, Event, ForceCount, KaramaUse, NoFieldValue, Payee, Payment, Place,
    SaleResult, Sealed, TradeStmt,
};
use crate::replay::karama::{Ability, AbilityInfo, PREVENT};
use crate::replay::{Replay, WinResult};
use crate::state::{Edition, Phase, RuleOptions};

pub(crate) struct Richese;

/// Alternate Income (2.10.06), as a Karama names it: the payment for Richese's cards, prevented
/// as the Emperor's for cards is (docs/notation.md, Decisions 64).
const ALTERNATE_INCOME: Ability = Ability(rule!("2.10.06"));

static KARAMA: [AbilityInfo; 1] = [AbilityInfo::new(
    ALTERNATE_INCOME,
    Faction::Richese,
    PREVENT,
    Some(Phase::Bidding),
    false,
    true,
    "payment for its cards",
)];

const RI: Faction = Faction::Richese;

/// 2.10.01 5 spice, 2.10.02 twenty forces in reserve, 2.10.04 free revival 2.
pub(crate) const SHEET: Sheet = Sheet {
    spice: Spice::new(5),
    free_revival: 2,
    hand_limit: 4,
    starting_cards: 1,
    traitors: 1,
    kinds: super::ForceKinds::PLAIN,
    start: None,
    rules: SheetRules::GENERAL,
};

/// The cache (2.10.03): ten cards in the original text, fifteen in the revised one (Stone
/// Burner gives way to the Artillery Strike; Amtal, Axolotl Tank, Levenbrech, Poison Dart and
/// Desert Seeded Water join), one of each; the Karama is a copy beside the deck's two (3.03.03).
pub(crate) fn cache(e: Edition) -> &'static [Card] {
    const ORIGINAL: [Card; 10] = [
        Card::Distrans,
        Card::JuiceOfSapho,
        Card::Karama,
        Card::MirrorWeapon,
        Card::NullentropyBox,
        Card::Ornithopter,
        Card::PortableSnooper,
        Card::ResidualPoison,
        Card::SemutaDrug,
        Card::StoneBurner,
    ];
    const REVISED: [Card; 15] = [
        Card::Distrans,
        Card::JuiceOfSapho,
        Card::Karama,
        Card::MirrorWeapon,
        Card::NullentropyBox,
        Card::Ornithopter,
        Card::PortableSnooper,
        Card::ResidualPoison,
        Card::SemutaDrug,
        Card::ArtilleryStrike,
        Card::Amtal,
        Card::AxolotlTank,
        Card::Levenbrech,
        Card::PoisonDart,
        Card::DesertSeededWater,
    ];
    match e {
        Edition::Original => &ORIGINAL,
        Edition::Revised => &REVISED,
    }
}

/// The No-Field tokens (2.10.03): three in the original text (0, 3, 5), four in the revised
/// (0, 2, 3, 5).
pub(crate) fn no_fields(e: Edition) -> &'static [u8] {
    match e {
        Edition::Original => &[0, 3, 5],
        Edition::Revised => &[0, 2, 3, 5],
    }
}

/// What caught a face-down No-Field token and reveals it (2.10.14).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Caught {
    Storm,
    Worm,
    Explosion,
}

impl Caught {
    fn name(self) -> &'static str {
        match self {
            Caught::Storm => "the storm",
            Caught::Worm => "a worm",
            Caught::Explosion => "the explosion",
        }
    }
}

/// A No-Field token face down on the map.
#[derive(Clone, Copy, Debug)]
pub(crate) struct NoField {
    pub(crate) piece: Piece,
    /// Its number, when the replay knows it (sealed in audit mode).
    pub(crate) value: Option<u8>,
    /// A storm, worm or explosion reveals it (2.10.14); the reveal line applies what follows.
    pub(crate) caught: Option<Caught>,
}

/// What Richese's sheet keeps track of.
#[derive(Clone, Debug, Default)]
pub struct RicheseState {
    /// Cards still in the cache, and every card it held at the start.
    pub(crate) cache: Vec<Card>,
    pub(crate) cache_all: Vec<Card>,
    /// No-Field numbers in Richese's supply (known to Richese; the replay removes a number when
    /// it learns which token left), and how many tokens left the supply unseen.
    pub(crate) supply: Vec<u8>,
    pub(crate) unseen_out: u8,
    /// The token face up in front of the shield (2.10.13).
    pub(crate) front: Option<u8>,
    /// Tokens face down on the map.
    pub(crate) tokens: Vec<NoField>,
    /// The setup token was placed (2.10.02).
    pub(crate) placed_at_setup: bool,
    /// The turn of the last voluntary reveal (Not As It Seems, 2.10.12).
    pub(crate) revealed: u32,
    /// This turn's declaration: the turn and whether the cache card goes first (2.10.05).
    pub(crate) declared: Option<(u32, bool)>,
    /// The turn of the last cache auction (2.10.08).
    pub(crate) auctioned: u32,
    /// The turn of the last black market offer (2.10.21 original), and of the supply chain
    /// (2.10.21 revised).
    pub(crate) black: u32,
    pub(crate) supplied: u32,
    /// A shipment under way carries a No-Field token, for this faction (2.10.10, 2.10.19).
    pub(crate) shipping: Option<Faction>,
}

impl RicheseState {
    pub(crate) fn new(o: &RuleOptions, plays: bool) -> RicheseState {
        if !plays {
            return RicheseState::default();
        }
        RicheseState {
            cache: cache(o.edition).to_vec(),
            cache_all: cache(o.edition).to_vec(),
            supply: no_fields(o.edition).to_vec(),
            ..RicheseState::default()
        }
    }

    /// Face-down tokens in a territory: each counts as one force for movement, collection and
    /// occupancy limits (2.10.11).
    pub(crate) fn tokens_in(&self, t: Territory) -> u8 {
        self.tokens
            .iter()
            .filter(|n| n.piece.territory() == t)
            .count() as u8
    }

    /// Copies of a card the cache adds to the game (3.03; the cache's Karama and Artillery
    /// Strike beside the deck's).
    pub(crate) fn copies(&self, c: Card) -> u8 {
        self.cache_all.iter().filter(|&&x| x == c).count() as u8
    }
}

impl FactionRules for Richese {
    fn faction(&self) -> Faction {
        RI
    }

    /// Its rules are numbered in the full rulebook (000).
    fn book(&self) -> dune::Book {
        dune::Book::Full
    }

    fn sheet(&self) -> &'static Sheet {
        &SHEET
    }

    fn start_rules(&self, _o: &RuleOptions) -> Option<StartRules> {
        Some(StartRules {
            spice: rule!("2.10.01"),
            forces: rule!("2.10.02"),
            starred: rule!("2.10.02"),
            free_revival: rule!("2.10.04"),
        })
    }

    /// 2.10.02: a No-Field token goes face down in the Polar Sink at setup.
    fn finish_setup(&self, r: &mut Replay) {
        if !r.st.richese.placed_at_setup {
            r.v(
                rule!("2.10.02"),
                "Richese places a No-Field token face down in the Polar Sink at setup (PLACE RI PS nofield{n})",
            );
        }
    }

    /// 2.10.06: another faction pays Richese for a card Richese sells at its own auction or on
    /// the black market; Richese's own purchase at its auction goes to the bank or the Emperor
    /// (2.10.07).
    fn payee(&self, r: &mut Replay, fee: Fee, buyer: Faction) -> Option<PayeeRule> {
        if fee != Fee::RicheseCard || buyer == RI {
            return None;
        }
        // A Karama preventing Alternate Income: the payment goes where a card's goes, to the
        // Emperor (unless he buys), else the bank.
        let block = r.karama_take(ALTERNATE_INCOME);
        let payee = match block {
            None => Payee::Faction(RI),
            Some(_) if r.st.plays(Faction::Emperor) && buyer != Faction::Emperor => {
                Payee::Faction(Faction::Emperor)
            }
            Some(_) => Payee::Bank,
        };
        Some(PayeeRule {
            payee,
            rule: rule!("2.10.06"),
            block,
        })
    }

    fn karama(&self) -> &'static [AbilityInfo] {
        &KARAMA
    }

    fn receives(&self, fee: Fee) -> Option<Rule> {
        (fee == Fee::RicheseCard).then_some(rule!("2.10.06"))
    }

    /// A shipment with a No-Field token is paid as one force more (2.10.10), or, when Richese's
    /// ally ships with one, as one force (2.10.19).
    fn shipped_count(&self, r: &Replay, shipper: Faction, c: ForceCount) -> Option<(u8, Rule)> {
        if r.st.richese.shipping != Some(shipper) {
            return None;
        }
        Some(if shipper == RI {
            (c.total.saturating_add(1), rule!("2.10.10"))
        } else {
            (1, rule!("2.10.19"))
        })
    }

    /// 2.10.11: a face-down No-Field token collects as one force.
    fn extra_collectors(&self, r: &Replay, f: Faction, t: Territory) -> u32 {
        if f == RI {
            u32::from(r.st.richese.tokens_in(t))
        } else {
            0
        }
    }

    /// 2.10.14: the storm reveals a token it passes over or stops on.
    fn storm_swept(&self, r: &mut Replay, hit: &[bool; 18]) {
        let atomics = r.st.atomics_used;
        for n in r.st.richese.tokens.iter_mut() {
            let t = n.piece.territory();
            if let Some(s) = n.piece.sector()
                && hit[s.index() as usize]
                && t.storm_hits(atomics)
            {
                n.caught = Some(Caught::Storm);
            }
        }
    }

    /// 2.10.14: a worm that appears in a token's territory reveals it.
    fn worm_shelter(&self, r: &mut Replay, t: Territory, _shelter: &mut super::WormShelter) {
        for n in r.st.richese.tokens.iter_mut() {
            if n.piece.territory() == t {
                n.caught = Some(Caught::Worm);
            }
        }
    }

    /// 2.10.14: an explosion in a token's territory reveals it.
    fn after_battle(&self, r: &mut Replay, b: &crate::replay::battle::Resolved) {
        if b.explosion {
            for n in r.st.richese.tokens.iter_mut() {
                if n.piece.territory() == b.territory {
                    n.caught = Some(Caught::Explosion);
                }
            }
        }
    }

    /// A token caught by the storm, a worm or an explosion is revealed in the same phase
    /// (2.10.14): without the reveal line the replay reports it and, in audit mode, reveals it by
    /// its sealed number. A declared cache auction that never happened (2.10.08).
    fn end_of_phase(&self, r: &mut Replay, phase: Phase) {
        let caught: Vec<NoField> =
            r.st.richese
                .tokens
                .iter()
                .copied()
                .filter(|n| n.caught.is_some())
                .collect();
        for n in caught {
            let what = n.caught.map_or("", Caught::name);
            r.v(
                rule!("2.10.14"),
                format!(
                    "the No-Field token in {} was caught by {what} and is revealed (NF RI {} n): its forces suffer the effect",
                    n.piece.territory().name(),
                    n.piece.territory().code()
                ),
            );
            r.reveal_token(n.piece, n.value.unwrap_or(0));
        }
        if phase == Phase::Bidding
            && let Some((turn, _)) = r.st.richese.declared
            && turn == r.st.turn
            && r.st.richese.auctioned != turn
        {
            r.v(
                rule!("2.10.08"),
                "Richese declared its cache card (A RI cache first|last) but sold none this Bidding phase (A RI sell card …)",
            );
        }
    }

    /// 2.10.16: in a battle Richese reveals its No-Field tokens in the territory when it reveals
    /// its plan.
    fn before_plan(&self, r: &mut Replay, f: Faction, t: Territory) {
        if f != RI {
            return;
        }
        let hidden: Vec<NoField> =
            r.st.richese
                .tokens
                .iter()
                .copied()
                .filter(|n| n.piece.territory() == t)
                .collect();
        for n in hidden {
            r.v(
                rule!("2.10.16"),
                format!(
                    "Richese reveals its No-Field token in {} with its battle plan (  RI nofield n, before the plan)",
                    t.name()
                ),
            );
            r.reveal_token(n.piece, n.value.unwrap_or(0));
        }
    }

    /// 2.10.17: with a No-Field token present, Prescience cannot ask Richese for the number
    /// dialed.
    fn prescience_denied(&self, r: &Replay, element: &str, t: Territory) -> Option<Rule> {
        (matches!(element, "dial" | "number") && r.st.richese.tokens_in(t) > 0)
            .then_some(rule!("2.10.17"))
    }

    /// 2.10.18: Richese's forces in Tuek's Sietch spoil the Fremen's special victory, as the
    /// Harkonnen's, the Atreides' and the Emperor's do.
    fn bars_special_victory(&self, of: Faction) -> Option<Rule> {
        (of == Faction::Fremen).then_some(rule!("2.10.18"))
    }

    fn victory_claim_rule(
        &self,
        r: &Replay,
        claimed: Option<(&[Faction], WinType)>,
        computed: Option<&WinResult>,
    ) -> Option<Rule> {
        let special =
            |k: WinType| matches!(k, WinType::SoloFremenSpecial | WinType::AlliedFremenSpecial);
        (claimed.is_some_and(|c| special(c.1))
            && !computed.is_some_and(|w| special(w.kind))
            && r.st.ally(Faction::Fremen) != Some(RI)
            && r.st.in_territory(RI, Territory::TueksSietch).fighting() > 0)
            .then_some(rule!("2.10.18"))
    }

    /// 1.14.10: at any time, pay 3 spice and take a cache card into the hand.
    fn karama_power(&self, usage: &KaramaUse) -> Option<(Phase, Rule)> {
        matches!(usage, KaramaUse::TakeCache { .. }).then_some((Phase::Setup, rule!("1.14.10")))
    }

    fn karama_any_phase(&self, usage: &KaramaUse) -> bool {
        matches!(usage, KaramaUse::TakeCache { .. })
    }

    fn use_karama_power(&self, r: &mut Replay, _ev: &Event, usage: &KaramaUse) {
        if let KaramaUse::TakeCache { card, paid } = usage {
            r.richese_karama(card, paid.as_ref());
        }
    }
}

impl Replay {
    pub(crate) fn richese_statement(&mut self, ev: &Event, s: &TradeStmt) {
        match s {
            TradeStmt::SetupNoField {
                faction,
                place,
                value,
            } => self.setup_no_field(*faction, *place, value),
            TradeStmt::Declared { faction, first } => self.declare_cache(*faction, *first),
            TradeStmt::CacheAuction {
                faction,
                card,
                kind,
                trace,
                result,
            } => self.cache_auction(*faction, *card, *kind, trace, result),
            TradeStmt::BlackMarket {
                faction,
                card,
                kind,
                trace,
                result,
            } => self.black_market(*faction, card, *kind, trace, result),
            TradeStmt::Supply { faction, number } => self.supply_chain_card(*faction, *number),
            TradeStmt::NoFieldShip {
                faction,
                forces,
                value,
                to,
                paid,
            } => self.no_field_ship(ev, *faction, *forces, value, *to, *paid),
            TradeStmt::NoFieldMove {
                faction,
                from,
                to,
                forces,
            } => self.no_field_move(*faction, *from, *to, *forces),
            TradeStmt::Reveal {
                faction,
                place,
                value,
            } => self.reveal_line(*faction, *place, *value),
            TradeStmt::Give { from, to, card } => self.give_cache_card(*from, *to, card),
            _ => {}
        }
    }

    fn richese_or_report(&mut self, f: Faction, rule: Rule, what: &str) -> bool {
        if !self.in_play_or_report(f) {
            return false;
        }
        if f != RI {
            self.v(rule, format!("only Richese {what}, not {f}"));
            return false;
        }
        true
    }

    /// Takes a No-Field token out of the supply: the sealed number (audit mode), which must be
    /// there; or an unseen one. Returns the number when known; `None` and a report when the
    /// supply is empty.
    fn token_from_supply(&mut self, value: Option<u8>, rule: Rule) -> Result<Option<u8>, ()> {
        let st = &self.st.richese;
        let left = st.supply.len() as u8 - st.unseen_out.min(st.supply.len() as u8);
        if left == 0 {
            self.v(
                rule,
                "Richese has no No-Field token left in its supply (the others are on the map or face up in front of its shield)",
            );
            return Err(());
        }
        match value {
            Some(v) => match self.st.richese.supply.iter().position(|&x| x == v) {
                Some(i) => {
                    self.st.richese.supply.remove(i);
                    Ok(Some(v))
                }
                None => {
                    let have: Vec<String> = self
                        .st
                        .richese
                        .supply
                        .iter()
                        .map(|x| x.to_string())
                        .collect();
                    self.v(
                        rule,
                        format!(
                            "No-Field token {v} is not in Richese's supply (it holds {})",
                            if have.is_empty() {
                                "none".to_string()
                            } else {
                                have.join(", ")
                            }
                        ),
                    );
                    Err(())
                }
            },
            None => {
                self.st.richese.unseen_out += 1;
                Ok(None)
            }
        }
    }

    /// A token now known to carry `v` comes out of the supply's unseen count.
    fn token_seen(&mut self, v: u8) {
        let st = &mut self.st.richese;
        if st.unseen_out > 0
            && let Some(i) = st.supply.iter().position(|&x| x == v)
        {
            st.supply.remove(i);
            st.unseen_out -= 1;
        }
    }

    /// `PLACE RI PS nofield{n}` (2.10.02).
    fn setup_no_field(&mut self, f: Faction, place: Place, value: &NoFieldValue) {
        let rule = rule!("2.10.02");
        if !self.richese_or_report(f, rule, "places a No-Field token at setup") {
            return;
        }
        if self.st.richese.placed_at_setup {
            self.v(rule, "Richese places one No-Field token at setup");
            return;
        }
        if place.territory != Territory::PolarSink {
            self.v(
                rule,
                format!(
                    "Richese's setup No-Field token goes in the Polar Sink, not {}",
                    place.territory.name()
                ),
            );
            return;
        }
        let v = self.sealed(value).copied().flatten();
        let Ok(v) = self.token_from_supply(v, rule) else {
            return;
        };
        self.st.richese.placed_at_setup = true;
        if let Some(p) = Territory::PolarSink.piece(None) {
            self.st.richese.tokens.push(NoField {
                piece: p,
                value: v,
                caught: None,
            });
        }
    }

    /// Reveals the token on `piece` as number `v` (2.10.13): the token in front of the shield
    /// goes back to the supply, this one takes its place, and Richese places as many forces from
    /// reserves (all it has, if fewer) in its territory and sector; a storm, worm or explosion
    /// that caught it (2.10.14) then sends them to the tanks.
    pub(crate) fn reveal_token(&mut self, piece: Piece, v: u8) {
        let Some(i) = self.st.richese.tokens.iter().position(|n| n.piece == piece) else {
            return;
        };
        let n = self.st.richese.tokens.remove(i);
        if n.value.is_none() {
            self.token_seen(v);
        }
        if let Some(old) = self.st.richese.front.replace(v) {
            self.st.richese.supply.push(old);
        }
        let k = v.min(self.st.faction(RI).reserves.total());
        let placed = self
            .st
            .place_from_reserves(RI, piece, ForceCount::plain(k), false);
        if n.caught.is_some() {
            let s = self.st.stack_mut(RI, piece);
            s.normal = s.normal.saturating_sub(placed.normal);
            self.st.faction_mut(RI).tanks.add(placed);
        }
    }

    /// `NF RI terr n` / `  RI nofield n`: a No-Field token revealed, by Richese's choice once per
    /// turn outside a battle (2.10.12), with its battle plan (2.10.16), or because the storm, a
    /// worm or an explosion caught it (2.10.14).
    fn reveal_line(&mut self, f: Faction, place: Option<Place>, v: u8) {
        if !self.richese_or_report(f, rule!("2.10.12"), "reveals No-Field tokens") {
            return;
        }
        // A reveal written after the storm line follows its movement (2.10.14).
        if self.st.phase == Phase::Storm {
            self.flush_storm();
        }
        let in_battle = self.t.battle.current.as_ref().map(|b| b.place.territory);
        let t = match (place, in_battle) {
            (Some(p), _) => p.territory,
            (None, Some(t)) => t,
            (None, None) => {
                self.v(
                    rule!("2.10.16"),
                    "`  RI nofield n` reveals a token in the battle being fought; outside one write NF RI terr n",
                );
                return;
            }
        };
        let Some(n) = self.st.richese.tokens.iter().copied().find(|n| {
            n.piece.territory() == t
                && place
                    .and_then(|p| p.sector)
                    .is_none_or(|s| n.piece.sector() == Some(s))
        }) else {
            self.v(
                rule!("2.10.13"),
                format!("Richese has no face-down No-Field token in {}", t.name()),
            );
            return;
        };
        if !no_fields(self.st.options.edition).contains(&v) {
            self.v(
                rule!("2.10.03"),
                format!(
                    "the No-Field tokens are numbered {}; none shows {v}",
                    names(no_fields(self.st.options.edition))
                ),
            );
        }
        if let Some(sealed) = n.value
            && sealed != v
        {
            self.v(
                rule!("2.10.13"),
                format!(
                    "the No-Field token in {} was sealed as {sealed}, not {v}",
                    t.name()
                ),
            );
        }
        let battle_reveal = place.is_none() || in_battle == Some(t);
        if n.caught.is_none() && !battle_reveal {
            // Not As It Seems (2.10.12): by choice, once per turn, not during a battle.
            if in_battle.is_some() {
                self.v(
                    rule!("2.10.12"),
                    "Richese reveals a No-Field token by choice at any time other than during a battle",
                );
            } else if self.st.richese.revealed == self.st.turn {
                self.v(
                    rule!("2.10.12"),
                    "Richese reveals a No-Field token by choice once per turn",
                );
            }
            self.st.richese.revealed = self.st.turn;
        }
        self.reveal_token(n.piece, v);
    }

    /// `M F ship [forces+]nofield{n} terr [$n]` (2.10.10; Richese's ally, 2.10.19).
    fn no_field_ship(
        &mut self,
        _ev: &Event,
        f: Faction,
        c: ForceCount,
        value: &NoFieldValue,
        to: Place,
        paid: Option<Payment>,
    ) {
        let e = self.st.options.edition;
        if !self.in_play_or_report(f) {
            return;
        }
        // The shipment is the shipper's action, in storm order (1.06.01).
        self.begin_action(f);
        if f != RI {
            return self.ally_no_field_ship(f, c, value, to, paid);
        }
        let rule = rule!("2.10.10");
        if e == Edition::Original && c.total > 0 {
            self.v(
                rule,
                "with the original text a No-Field token is shipped instead of forces, alone (2.10.10)",
            );
        }
        if e == Edition::Original && !self.st.richese.tokens.is_empty() {
            self.v(
                rule!("2.10.15"),
                "there may never be two No-Field tokens on the map at once (original text)",
            );
        }
        let v = self.sealed(value).copied().flatten();
        let Ok(v) = self.token_from_supply(v, rule) else {
            return;
        };
        // Shipping returns the token in front of the shield to the supply (2.10.10).
        if let Some(old) = self.st.richese.front.take() {
            self.st.richese.supply.push(old);
        }
        self.st.richese.shipping = Some(RI);
        self.ship(f, c, to, paid, false);
        self.st.richese.shipping = None;
        let Some(piece) = self.t.mv.last_ship.as_ref().map(|s| s.piece) else {
            return;
        };
        self.st.richese.tokens.push(NoField {
            piece,
            value: v,
            caught: None,
        });
    }

    /// 2.10.19: Richese's ally ships with one of Richese's No-Field tokens as its only
    /// shipment from reserves, paying for one force; the token is revealed at once and the
    /// ally's forces it shows (all it has in reserve, if fewer) are placed.
    fn ally_no_field_ship(
        &mut self,
        f: Faction,
        c: ForceCount,
        value: &NoFieldValue,
        to: Place,
        paid: Option<Payment>,
    ) {
        let rule = rule!("2.10.19");
        if !self.st.plays(RI) || self.st.ally(RI) != Some(f) {
            self.v(
                rule,
                format!("only Richese and its ally ship with a No-Field token, and {f} is not Richese's ally"),
            );
            return;
        }
        if c.total > 0 {
            self.v(
                rule,
                "Richese's ally ships a No-Field token as its only shipment, without other forces",
            );
        }
        // The token is revealed at once: its number is public.
        let Some(v) = value.open().copied().flatten() else {
            self.v(
                rule,
                "the ally's No-Field token is revealed on landing: write its number (nofield{n})",
            );
            return;
        };
        let Ok(_) = self.token_from_supply(Some(v), rule) else {
            return;
        };
        if let Some(old) = self.st.richese.front.replace(v) {
            self.st.richese.supply.push(old);
        }
        let k = v.min(self.st.faction(f).reserves.total());
        self.st.richese.shipping = Some(f);
        self.ship(f, ForceCount::plain(k), to, paid, false);
        self.st.richese.shipping = None;
    }

    /// `M RI move from>to [forces+]nofield` (2.10.11): the token moves as one force, with the
    /// forces of the move or alone.
    fn no_field_move(&mut self, f: Faction, from: Place, to: Place, c: ForceCount) {
        let rule = rule!("2.10.11");
        if !self.richese_or_report(f, rule, "moves No-Field tokens") {
            return;
        }
        let Some(i) = self.st.richese.tokens.iter().position(|n| {
            n.piece.territory() == from.territory
                && from.sector.is_none_or(|s| n.piece.sector() == Some(s))
        }) else {
            self.v(
                rule,
                format!(
                    "Richese has no face-down No-Field token in {}",
                    from.territory.name()
                ),
            );
            return;
        };
        let Some(dest) = to.territory.piece(to.sector).or_else(|| {
            to.territory
                .piece(to.territory.single_sector())
                .or_else(|| to.territory.pieces().first().copied())
        }) else {
            return;
        };
        if c.total > 0 {
            // The forces move as usual; the token goes with them.
            self.begin_action(f);
            self.move_forces(f, from, &[], to, c);
        } else {
            // A token alone moves as one force (1.06.05).
            self.begin_action(f);
            if self.t.mv.moves > self.t.mv.extra_moves {
                self.v(
                    rule!("1.06.05.01"),
                    format!("{f} has already moved this turn"),
                );
            }
            self.t.mv.moves += 1;
            if self.st.in_storm(dest) {
                self.v(
                    rule!("1.06.05.06"),
                    format!("{f} cannot move into {to}: it is in the storm"),
                );
            }
            let ornithopters = [Territory::Arrakeen, Territory::Carthag]
                .iter()
                .any(|&x| self.st.in_territory(f, x).fighting() > 0);
            let range = if ornithopters { 3 } else { 1 };
            let from_piece = self.st.richese.tokens[i].piece;
            if let Some(d) =
                crate::board::board().path_cost(&[from_piece], dest, self.st.storm, |x| {
                    self.st.stronghold_full_for(x, f)
                })
                && d > range
            {
                self.v(
                    rule,
                    format!(
                        "a No-Field token moves as one force: {range} territor{} here, and {} to {} takes {d}",
                        if range == 1 { "y" } else { "ies" },
                        from.territory.name(),
                        to.territory.name()
                    ),
                );
            }
        }
        if let Some(n) = self.st.richese.tokens.get_mut(i) {
            n.piece = dest;
        }
        if to.territory != from.territory {
            self.t.mv.last_entry = Some((f, to.territory));
        }
    }

    /// `A RI cache first|last` (2.10.05): Richese declares its cache card; one card fewer is
    /// dealt for the normal auction (2.10.08).
    fn declare_cache(&mut self, f: Faction, first: bool) {
        let rule = rule!("2.10.05");
        if !self.richese_or_report(f, rule, "declares a cache card") {
            return;
        }
        let turn = self.st.turn;
        if self.st.richese.declared.is_some_and(|(t, _)| t == turn) {
            self.v(
                rule,
                "Richese declares its cache card once per Bidding phase",
            );
            return;
        }
        if self.t.bid.auctions > 0 {
            self.v(
                rule,
                "Richese declares its cache card at Declaration, before the first card is auctioned",
            );
        }
        if self.st.richese.cache.is_empty() {
            self.v(rule!("2.10.08"), "Richese's cache is empty");
            return;
        }
        self.st.richese.declared = Some((turn, first));
        // 2.10.08: one card fewer is put up for the normal auction.
        if self.t.bid.dealt > 0 {
            self.t.bid.dealt -= 1;
            self.st.treachery_deck += 1;
        }
    }

    /// `A RI sell card once F|silent trace = result` (2.10.08).
    fn cache_auction(
        &mut self,
        f: Faction,
        card: Card,
        kind: AuctionKind,
        trace: &[Bid],
        result: &SaleResult,
    ) {
        let rule = rule!("2.10.08");
        if !self.richese_or_report(f, rule, "sells cards of its cache") {
            return;
        }
        let turn = self.st.turn;
        match self.st.richese.declared {
            Some((t, first)) if t == turn => {
                if self.st.richese.auctioned == turn {
                    self.v(rule, "Richese sells one cache card per Bidding phase");
                    return;
                }
                if first && self.t.bid.auctions > 0 {
                    self.v(
                        rule!("2.10.05"),
                        "Richese declared its cache card first: it is auctioned before the first normal card",
                    );
                } else if !first && !self.t.bid.over {
                    self.v(
                        rule!("2.10.05"),
                        "Richese declared its cache card last: it is auctioned after the normal cards",
                    );
                }
            }
            _ => {
                self.v(
                    rule,
                    "Richese auctions a cache card only when it declared one at Declaration (A RI cache first|last, 2.10.05)",
                );
                return;
            }
        }
        self.st.richese.auctioned = turn;
        match self.st.richese.cache.iter().position(|&c| c == card) {
            Some(i) => {
                self.st.richese.cache.remove(i);
            }
            None => {
                self.v(
                    rule!("2.10.03"),
                    format!("{card} is not in Richese's cache"),
                );
            }
        }
        if kind == AuctionKind::Normal {
            self.v(
                rule,
                "Richese's cache card is sold once around (once F) or by a silent auction (silent)",
            );
        }
        let sale = Sale {
            seller: RI,
            kind,
            rule: match kind {
                AuctionKind::OnceAround(_) => rule!("2.10.08.01"),
                AuctionKind::Silent => rule!("2.10.08.02"),
                AuctionKind::Normal => rule,
            },
            excluded: if matches!(kind, AuctionKind::OnceAround(_)) {
                [RI].into_iter().collect()
            } else {
                FactionSet::EMPTY
            },
            karama_rule: Some(rule!("2.10.07")),
            opener: None,
        };
        let top = self.check_sale(&sale, trace, result);
        // A card sold first goes to a hand before the normal cards are dealt, for the players
        // then eligible (1.04.02).
        let before = (self.t.bid.auctions == 0 && !self.t.bid.over).then(|| self.eligible_count());
        match result {
            SaleResult::Bought {
                faction,
                price,
                payee,
                pos,
                ..
            } => {
                if top.is_none() {
                    return;
                }
                // Richese's own purchase pays as any card does (2.10.07).
                let fee = if *faction == RI {
                    Fee::Card
                } else {
                    Fee::RicheseCard
                };
                let logged = Payment {
                    amount: *price,
                    payee: *payee,
                    payer: None,
                    pos: *pos,
                };
                let to = self.settle_payee(fee, *faction, Some(&logged), || {
                    format!("{faction}'s payment for Richese's {card}")
                });
                self.pay(*faction, to, *price);
                self.st.faction_mut(*faction).hand.push(Some(card));
                self.check_copies(card);
                if let Some(before) = before {
                    self.redeal(before);
                }
            }
            SaleResult::Kept => {
                if !self.eligible(RI) {
                    self.v(
                        rule!("2.10.08.01"),
                        "Richese's hand is full: the unsold cache card is set aside face up (= aside)",
                    );
                    return;
                }
                self.st.faction_mut(RI).hand.push(Some(card));
                if let Some(before) = before {
                    self.redeal(before);
                }
            }
            SaleResult::Aside => {
                self.st.treachery_removed.push(card);
            }
            SaleResult::NoSale => {
                self.v(
                    rule!("2.10.08.01"),
                    "when nobody bids Richese takes the card free (= RI) or sets it aside face up (= aside)",
                );
                self.st.treachery_removed.push(card);
            }
        }
    }

    /// `A RI black{card} normal|once F|silent trace = result` (2.10.21-2.10.23, original text):
    /// before Declaration Richese offers a card from its hand; if it sells, one card fewer is
    /// auctioned normally.
    fn black_market(
        &mut self,
        f: Faction,
        card: &Sealed<Option<Card>>,
        kind: AuctionKind,
        trace: &[Bid],
        result: &SaleResult,
    ) {
        let rule = rule!("2.10.21");
        if !self.richese_or_report(f, rule, "sells on the black market") {
            return;
        }
        let e = self.st.options.edition;
        if e != Edition::Original || !self.st.options.advanced {
            self.v(
                rule,
                "the black market is Richese's Advanced ability in the original text ([Edition \"original\"]); the revised text has the disrupted supply chain (A RI supply #k)",
            );
            return;
        }
        let turn = self.st.turn;
        if self.st.richese.black == turn {
            self.v(rule, "Richese offers one card on the black market per turn");
            return;
        }
        self.st.richese.black = turn;
        if self.t.bid.auctions > 0 || self.st.richese.declared.is_some_and(|(t, _)| t == turn) {
            self.v(
                rule,
                "the black market comes before Declaration, before any card is auctioned",
            );
        }
        if self.st.faction(RI).hand.is_empty() {
            self.v(rule, "Richese has no card in its hand to offer");
            return;
        }
        let id = self.sealed(card).copied().flatten();
        let sale = Sale {
            seller: RI,
            kind,
            rule: match kind {
                AuctionKind::OnceAround(_) => rule!("2.10.08.01"),
                AuctionKind::Silent => rule!("2.10.08.02"),
                AuctionKind::Normal => rule!("2.10.23"),
            },
            excluded: [RI].into_iter().collect(),
            karama_rule: Some(rule!("2.10.07")),
            opener: None,
        };
        let top = self.check_sale(&sale, trace, result);
        match result {
            SaleResult::Bought {
                faction,
                price,
                payee,
                pos,
                ..
            } => {
                if top.is_none() {
                    return;
                }
                let before = self.eligible_count();
                match id {
                    Some(c) => {
                        self.take_card(RI, c, rule);
                    }
                    None => {
                        self.st.faction_mut(RI).hand.pop();
                    }
                }
                let logged = Payment {
                    amount: *price,
                    payee: *payee,
                    payer: None,
                    pos: *pos,
                };
                let to = self.settle_payee(Fee::RicheseCard, *faction, Some(&logged), || {
                    format!("{faction}'s payment for Richese's black-market card")
                });
                self.pay(*faction, to, *price);
                self.st.faction_mut(*faction).hand.push(id);
                self.redeal(before);
                // 2.10.22: one card fewer is put up in the normal bidding.
                if self.t.bid.dealt > 0 {
                    self.t.bid.dealt -= 1;
                    self.st.treachery_deck += 1;
                }
            }
            SaleResult::NoSale => {}
            _ => self.v(
                rule!("2.10.22"),
                "a black-market card nobody buys stays in Richese's hand (= -)",
            ),
        }
    }

    /// `A RI supply #k` (2.10.21 revised, Disrupted Supply Chain): after Declaration Richese sets
    /// a card aside from the bottom of the deck and it is auctioned as card k of the row.
    fn supply_chain_card(&mut self, f: Faction, k: u32) {
        let rule = rule!("2.10.21");
        if !self.richese_or_report(f, rule, "disrupts the supply chain") {
            return;
        }
        if self.st.options.edition != Edition::Revised || !self.st.options.advanced {
            self.v(
                rule,
                "the disrupted supply chain is Richese's Advanced ability in the revised text; the original text has the black market (A RI black{card} …)",
            );
            return;
        }
        let turn = self.st.turn;
        if self.st.richese.supplied == turn {
            self.v(
                rule,
                "Richese disrupts the supply chain once per Bidding phase",
            );
            return;
        }
        self.st.richese.supplied = turn;
        if self.t.bid.auctions >= k {
            self.v(
                rule,
                format!("card #{k} has been auctioned already: the set-aside card is placed in the row before its turn"),
            );
        }
        if k == 0 || k > self.t.bid.dealt {
            self.v(
                rule,
                format!(
                    "the row holds {} cards: the set-aside card takes a place among them, not #{k}",
                    self.t.bid.dealt
                ),
            );
        }
    }

    /// `GIVE RI>F{card}` (2.10.20): at any time but during a bid, Richese gives its ally a card
    /// of its cache from its hand, if the ally's hand is not full.
    fn give_cache_card(&mut self, from: Faction, to: Faction, card: &Sealed<Option<Card>>) {
        let rule = rule!("2.10.20");
        if !self.richese_or_report(from, rule, "gives its ally a cache card") {
            return;
        }
        if !self.in_play_or_report(to) {
            return;
        }
        if self.st.ally(RI) != Some(to) {
            self.v(
                rule,
                format!("Richese gives a cache card to its ally only, and {to} is not"),
            );
            return;
        }
        if !self.eligible(to) {
            self.v(rule, format!("{to}'s hand is full"));
            return;
        }
        let id = self.sealed(card).copied().flatten();
        if let Some(c) = id
            && self.st.richese.copies(c) == 0
        {
            self.v(
                rule,
                format!(
                    "{c} is not a card of Richese's cache; Richese gives its ally cache cards only"
                ),
            );
        }
        let given = match id {
            Some(c) => {
                self.take_card(RI, c, rule);
                Some(c)
            }
            None => {
                if self.st.faction(RI).hand.is_empty() {
                    self.v(rule, "Richese holds no card to give");
                    return;
                }
                self.st.faction_mut(RI).hand.pop().flatten()
            }
        };
        self.st.faction_mut(to).hand.push(given);
    }

    /// Richese's Karama power (1.14.10): pay 3 spice to the bank and take a cache card into the
    /// hand, in secret.
    fn richese_karama(&mut self, card: &Sealed<Option<Card>>, paid: Option<&Payment>) {
        let rule = rule!("1.14.10");
        if self.st.richese.cache.is_empty() {
            self.v(rule, "Richese's cache is empty");
            return;
        }
        let due = Spice::new(3);
        if let Some(p) = paid {
            if p.amount != due {
                self.v_at(
                    p.pos,
                    rule,
                    format!("Richese pays 3 spice for a cache card, not {}", p.amount),
                );
            }
            if let Some(x) = p.payee
                && x != Payee::Bank
            {
                self.v_at(
                    p.pos,
                    rule,
                    format!("Richese pays the 3 spice to the bank, not {x}"),
                );
            }
        }
        if due > self.spice(RI) {
            self.v(
                rule,
                format!("Richese must pay 3 spice but has {}", self.spice(RI)),
            );
        }
        self.pay(RI, Payee::Bank, due);
        let id = self.sealed(card).copied().flatten();
        let taken = match id {
            Some(c) => match self.st.richese.cache.iter().position(|&x| x == c) {
                Some(i) => Some(self.st.richese.cache.remove(i)),
                None => {
                    self.v(rule, format!("{c} is not in Richese's cache"));
                    None
                }
            },
            None => {
                self.st.richese.cache.pop();
                None
            }
        };
        self.st.faction_mut(RI).hand.push(taken);
    }
}

/// An auction of one card outside the normal bidding: Richese's cache (2.10.08), its black
/// market (2.10.21-2.10.23), the Free Traders' Black Market Auction (2.13.04).
pub(crate) struct Sale {
    pub(crate) seller: Faction,
    pub(crate) kind: AuctionKind,
    /// The rule the bids follow.
    pub(crate) rule: Rule,
    /// Players who may not bid.
    pub(crate) excluded: FactionSet,
    /// The rule a Karama purchase breaks, if the sale refuses one.
    pub(crate) karama_rule: Option<Rule>,
    /// Who bids first in a sale by normal bidding (the player to the auctioneer's right,
    /// 2.13.04.01); `None`: the first player in storm order.
    pub(crate) opener: Option<Faction>,
}

impl Replay {
    /// Checks a sale's bids and result: who may bid and in what order, that bids rise (or, in a
    /// silent auction, that each bids once), that bidders hold the spice, and that the result is
    /// the top bid. Returns the top bid, when the card sold.
    pub(crate) fn check_sale(
        &mut self,
        s: &Sale,
        trace: &[Bid],
        result: &SaleResult,
    ) -> Option<(Faction, Spice)> {
        let n = self.st.order.len();
        let ring = |r: &Self, f: Faction| r.st.order_index(f);
        // The direction of a once-around auction: from the seller's neighbour named.
        let step: Option<isize> = match s.kind {
            AuctionKind::OnceAround(start) => {
                let si = ring(self, s.seller);
                let st = ring(self, start);
                if si >= n || st >= n {
                    None
                } else if st == (si + 1) % n {
                    Some(1)
                } else if (st + 1) % n == si {
                    Some(-1)
                } else {
                    self.v(
                        s.rule,
                        format!(
                            "a once-around auction starts with a neighbour of {}, not {start}",
                            s.seller
                        ),
                    );
                    None
                }
            }
            _ => None,
        };
        let mut seen = FactionSet::EMPTY;
        let mut top: Option<(Faction, Spice)> = None;
        let mut prev: Option<Faction> = None;
        for b in trace {
            let f = b.faction;
            if !self.st.plays(f) {
                self.v_at(
                    b.pos,
                    rule!("0.08"),
                    format!("{f} is not playing at this table"),
                );
                continue;
            }
            if s.excluded.contains(f) {
                self.v_at(b.pos, s.rule, format!("{f} may not bid on this card"));
                continue;
            }
            let amount = b.amount;
            if amount.is_some() && !self.eligible(f) {
                let limit = self.st.faction(f).sheet.hand_limit;
                self.v_at(
                    b.pos,
                    self.full_hand_rule(f),
                    format!("{f} holds {limit} cards (a full hand) and cannot bid"),
                );
            }
            match s.kind {
                AuctionKind::OnceAround(start) => {
                    let expected = match (prev, step) {
                        (None, _) => Some(start),
                        (Some(p), Some(d)) => {
                            let mut i = ring(self, p) as isize;
                            let mut next = None;
                            for _ in 0..n {
                                i = (i + d).rem_euclid(n as isize);
                                let g = self.st.order[i as usize];
                                if !s.excluded.contains(g) && g != s.seller {
                                    next = Some(g);
                                    break;
                                }
                            }
                            next
                        }
                        _ => None,
                    };
                    if seen.contains(f) {
                        self.v_at(
                            b.pos,
                            s.rule,
                            format!(
                                "{f} has had its one chance to bid in this once-around auction"
                            ),
                        );
                    } else if let Some(x) = expected
                        && x != f
                        && self.eligible(x)
                    {
                        self.v_at(
                            b.pos,
                            s.rule,
                            format!("the once-around auction goes one way round: after {} it is {x}'s turn, not {f}", prev.map_or("the start".to_string(), |p| p.to_string())),
                        );
                    }
                }
                AuctionKind::Silent => {
                    if seen.contains(f) {
                        self.v_at(b.pos, s.rule, format!("{f} bids once in a silent auction"));
                    }
                }
                AuctionKind::Normal => {
                    // Bids go round in storm order from the first player who may bid (2.10.23,
                    // 2.13.04.01 from the auctioneer's right).
                    let may = |r: &Self, g: Faction| !s.excluded.contains(g) && r.eligible(g);
                    let expected = match prev {
                        None => s
                            .opener
                            .filter(|&o| may(self, o))
                            .or_else(|| self.st.order.iter().copied().find(|&g| may(self, g))),
                        Some(p) => {
                            let i = ring(self, p);
                            (1..=n)
                                .map(|k| self.st.order[(i + k) % n])
                                .find(|&g| may(self, g))
                        }
                    };
                    if let Some(x) = expected
                        && x != f
                        && may(self, f)
                    {
                        self.v_at(
                            b.pos,
                            s.rule,
                            format!("bidding goes round in storm order: {x} bids now, not {f}"),
                        );
                    }
                }
            }
            seen.insert(f);
            prev = Some(f);
            let Some(amount) = amount else { continue };
            let limit = if s.kind == AuctionKind::Silent {
                self.spice(f)
            } else {
                self.spice(f) + self.st.ally(f).map_or(Spice::ZERO, |a| self.spice(a))
            };
            if amount > limit {
                self.v_at(
                    b.pos,
                    s.rule,
                    format!("{f} bids {amount} but has only {limit} spice"),
                );
            }
            match (s.kind, top) {
                (AuctionKind::Silent, Some((_, t))) if amount <= t => {}
                (AuctionKind::Silent, _) => top = Some((f, amount)),
                (_, Some((_, t))) if amount <= t => {
                    self.v_at(
                        b.pos,
                        s.rule,
                        format!("{f} bids {amount}, which does not raise the bid of {t}"),
                    );
                }
                (_, None) if amount.is_zero() => {
                    self.v_at(b.pos, s.rule, "a bid is at least 1 spice");
                }
                _ => top = Some((f, amount)),
            }
        }
        // A silent auction's zero bids sell nothing (2.10.08.02).
        if s.kind == AuctionKind::Silent && top.is_some_and(|(_, t)| t.is_zero()) {
            top = None;
        }
        match result {
            SaleResult::Bought {
                faction,
                price,
                karama,
                ..
            } => {
                if *karama && let Some(r) = s.karama_rule {
                    self.v(
                        r,
                        "a card of Richese's own auction or black market cannot be bid on or bought with a Karama",
                    );
                }
                match top {
                    Some((f, p)) if f == *faction && p == *price => {}
                    Some((f, p)) => self.v(
                        s.rule,
                        format!("the card goes to the top bidder, {f} for {p}, not {faction} for {price}"),
                    ),
                    None => self.v(
                        s.rule,
                        format!("nobody bid spice on this card, so {faction} cannot buy it"),
                    ),
                }
                if *faction != s.seller && !self.eligible(*faction) {
                    self.v(
                        self.full_hand_rule(*faction),
                        format!("{faction} has a full hand and cannot buy a card"),
                    );
                }
                top
            }
            _ => {
                if let Some((f, p)) = top {
                    self.v(
                        s.rule,
                        format!("{f} bid {p}: the card is sold to the top bidder"),
                    );
                }
                None
            }
        }
    }
}

fn names(v: &[u8]) -> String {
    v.iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}
