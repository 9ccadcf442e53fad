//! The Free Traders (000 2.13): two-sided forces (Smugglers, which share territories peacefully,
//! and fighters), Infiltration, the Black Market Auction every player may hold with its
//! payments, Smugglers' Way In and Way Out, Secret Tunnels, Secret Harvesters, the Scrap Heap,
//! their alliance abilities and their Karama power.
//!
//! Smugglers are the second side of the Free Traders' tokens ([`super::kinds`], the slot the Bene
//! Gesserit's advisors use): they do not fight, occupy or control; the storm, worms and
//! explosions take them like any force. The rulebook prints no Karama marks for the expansion
//! factions, and no leader discs for the Free Traders (docs/notation.md, Decisions).

use dune::{Faction, Rule, Spice, rule};

use super::{FactionRules, Fee, ForceKinds, KindRules, PayeeRule, Sheet, SheetRules, StartRules};
use crate::board::{Card, Piece, Territory};
use crate::dgn::{
    AuctionKind, Bid, Event, ForceCount, KaramaUse, Payee, Payment, Place, SaleResult, Side,
    TradeStmt,
};
use crate::replay::Replay;
use crate::replay::karama::{Ability, AbilityInfo, PREVENT};
use crate::state::{Forces, Phase, RuleOptions};

pub(crate) struct FreeTraders;

/// The auctioneer's quarter to the Free Traders (2.13.04.03), as a Karama names it: a payment to
/// the faction for a card sold, prevented as the Emperor's for cards is (docs/notation.md,
/// Decisions 64).
const CUT: Ability = Ability(rule!("2.13.04.03"));

static KARAMA: [AbilityInfo; 1] = [AbilityInfo::new(
    CUT,
    Faction::FreeTraders,
    PREVENT,
    Some(Phase::Bidding),
    false,
    true,
    "the Black Market Auction's quarter",
)];

const FT: Faction = Faction::FreeTraders;

/// 2.13.01 5 spice; 2.13.02 twenty forces in reserve (five placed at the end of the first Spice
/// Blow); 2.13.03 free revival 2. Fighters are plain forces that collect 3 (Secret Harvesters,
/// 2.13.10); Smugglers are their second side (2.13.05).
pub(crate) const SHEET: Sheet = Sheet {
    spice: Spice::new(5),
    free_revival: 2,
    hand_limit: 4,
    starting_cards: 1,
    traitors: 1,
    kinds: ForceKinds {
        plain: KindRules {
            name: "fighter",
            collects: 3,
            rule: rule!("2.13.10"),
            ..KindRules::FORCE
        },
        starred: None,
        flipped: Some(SMUGGLER),
    },
    start: None,
    rules: SheetRules::GENERAL,
};

/// 2.13.05: a Smuggler does not fight, occupy or control; it collects 3 (2.13.10) from a blow
/// nobody contests.
const SMUGGLER: KindRules = KindRules {
    name: "Smuggler",
    worth: 0,
    collects: 3,
    fights: false,
    rule: rule!("2.13.05"),
    ..KindRules::FORCE
};

/// What the Free Traders' sheet keeps track of.
#[derive(Clone, Debug, Default)]
pub struct FreeTradersState {
    /// The five starting forces are on the map (2.13.02).
    pub(crate) placed: bool,
    /// Forces revived this turn and not yet shipped in (2.13.07): the turn and how many.
    pub(crate) revived: (u32, u8),
    /// Players who have held a Black Market Auction this turn (2.13.04.00), and the turn.
    pub(crate) auctioneers: (u32, dune::FactionSet),
    /// Secret Tunnels used after the last battle (2.13.09).
    pub(crate) tunnelled: bool,
    /// Territories where Infiltration flipped Smugglers to fighters, and the turn (2.13.06).
    pub(crate) infiltrated: (u32, Vec<Territory>),
    /// The Scrap Heap: cards in front of the Free Traders' shield (2.13.13), and the turn of the
    /// swap.
    pub(crate) heap: Vec<Card>,
    pub(crate) swapped: u32,
}

impl FactionRules for FreeTraders {
    fn faction(&self) -> Faction {
        FT
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
            spice: rule!("2.13.01"),
            forces: rule!("2.13.02"),
            starred: rule!("2.13.02"),
            free_revival: rule!("2.13.03"),
        })
    }

    /// 2.13.05: the Free Traders ship Smugglers as well as fighters.
    fn ships_second_side(&self) -> Option<Rule> {
        Some(rule!("2.13.05"))
    }

    /// 2.13.05: Smugglers ship into any territory for 1 spice a force (halved at Guild rates,
    /// rounded up).
    fn shipment_cost(
        &self,
        _r: &Replay,
        shipper: Faction,
        _t: Territory,
        c: ForceCount,
        half: bool,
    ) -> Option<(Spice, Rule)> {
        (shipper == FT && c.side == Side::Advisor).then(|| {
            let base = Spice::new(u32::from(c.total));
            (if half { base.half_up() } else { base }, rule!("2.13.05"))
        })
    }

    /// Smugglers collect from a blow nobody contests (2.13.05): those in a territory where no
    /// other faction has forces.
    fn extra_collectors(&self, r: &Replay, f: Faction, t: Territory) -> u32 {
        if f != FT {
            return 0;
        }
        let smugglers = r.st.in_territory(FT, t).advisors;
        let mut others = r.st.occupant_set(t);
        others.remove(FT);
        if others.is_empty() {
            u32::from(smugglers)
        } else {
            0
        }
    }

    /// 2.13.09: Secret Tunnels are paid to the Guild, or the bank when the Guild is not in the
    /// game.
    fn payee(&self, r: &mut Replay, fee: Fee, _payer: Faction) -> Option<PayeeRule> {
        (fee == Fee::Tunnels).then(|| PayeeRule {
            payee: if r.st.plays(Faction::SpacingGuild) {
                Payee::Faction(Faction::SpacingGuild)
            } else {
                Payee::Bank
            },
            rule: rule!("2.13.09"),
            block: None,
        })
    }

    fn receives(&self, fee: Fee) -> Option<Rule> {
        (fee == Fee::BlackMarketCut).then_some(rule!("2.13.04.03"))
    }

    fn karama(&self) -> &'static [AbilityInfo] {
        &KARAMA
    }

    /// At the end of the first Spice Blow and Nexus the five starting forces are on the map
    /// (2.13.02); at the end of every Spice Blow and Nexus, Smugglers in territories without
    /// allied forces flip to fighters (Infiltration, 2.13.06). After the Battle phase the Scrap
    /// Heap is discarded (2.13.13).
    fn end_of_phase(&self, r: &mut Replay, phase: Phase) {
        match phase {
            Phase::SpiceBlow => {
                if r.st.turn == 1 && !r.st.free_traders.placed {
                    r.v(
                        rule!("2.13.02"),
                        "the Free Traders place five forces in a territory that is not a stronghold at the end of the first Spice Blow and Nexus (B FT place terr 5)",
                    );
                }
                let ally = r.st.ally(FT);
                let mut flipped = Vec::new();
                for t in Territory::all() {
                    if ally.is_some_and(|a| r.st.in_territory(a, t).total() > 0)
                        || r.st.in_territory(FT, t).advisors == 0
                    {
                        continue;
                    }
                    flipped.push(t);
                    for &p in t.pieces() {
                        let s = r.st.stack_mut(FT, p);
                        s.normal = s.normal.saturating_add(s.advisors);
                        s.advisors = 0;
                    }
                }
                r.st.free_traders.infiltrated = (r.st.turn, flipped);
            }
            Phase::Battle => {
                let heap = std::mem::take(&mut r.st.free_traders.heap);
                r.st.treachery_discard.extend(heap);
            }
            _ => {}
        }
    }

    /// 2.13.06: a battle the Smugglers' Infiltration made due.
    fn battle_due_rule(&self, r: &Replay, f: Faction, t: Territory) -> Option<Rule> {
        let (turn, flipped) = &r.st.free_traders.infiltrated;
        (f == FT && *turn == r.st.turn && flipped.contains(&t)).then_some(rule!("2.13.06"))
    }

    /// 2.13.13: the weapons and defences a player losing a battle to the Free Traders discards go
    /// in front of the Free Traders' shield (Advanced).
    fn after_battle(&self, r: &mut Replay, b: &crate::replay::battle::Resolved) {
        r.st.free_traders.tunnelled = false;
        if b.winner != Some(FT) || !r.st.options.advanced {
            return;
        }
        for &(g, c) in &b.discarded {
            if g == FT || !(c.is_weapon() || c.is_defense()) {
                continue;
            }
            if let Some(i) = r.st.treachery_discard.iter().rposition(|&x| x == c) {
                r.st.treachery_discard.remove(i);
                r.st.free_traders.heap.push(c);
            }
        }
    }

    /// The revived forces may be shipped in (2.13.07): remember how many.
    fn after_revival(&self, r: &mut Replay, f: Faction, c: ForceCount) {
        if f == FT {
            let turn = r.st.turn;
            let st = &mut r.st.free_traders;
            let before = if st.revived.0 == turn {
                st.revived.1
            } else {
                0
            };
            st.revived = (turn, before.saturating_add(c.total));
        }
    }

    /// 1.14.13: in the Battle phase, flip every Smuggler in one territory to fighters.
    fn karama_power(&self, usage: &KaramaUse) -> Option<(Phase, Rule)> {
        matches!(usage, KaramaUse::Flip(_)).then_some((Phase::Battle, rule!("1.14.13")))
    }

    fn use_karama_power(&self, r: &mut Replay, _ev: &Event, usage: &KaramaUse) {
        if let KaramaUse::Flip(place) = usage {
            let t = place.territory;
            if r.st.in_territory(FT, t).advisors == 0 {
                r.v(
                    rule!("1.14.13"),
                    format!("the Free Traders have no Smugglers in {} to flip", t.name()),
                );
                return;
            }
            for &p in t.pieces() {
                let s = r.st.stack_mut(FT, p);
                s.normal = s.normal.saturating_add(s.advisors);
                s.advisors = 0;
            }
        }
    }
}

impl Replay {
    pub(crate) fn free_traders_statement(&mut self, _ev: &Event, s: &TradeStmt) {
        match s {
            TradeStmt::FtPlace {
                faction,
                place,
                forces,
            } => self.ft_place(*faction, *place, *forces),
            TradeStmt::BlackMarketAuction {
                auctioneer,
                card,
                trace,
                result,
            } => self.black_market_auction(*auctioneer, *card, trace, result),
            TradeStmt::WayIn {
                faction,
                place,
                forces,
            } => self.way_in(*faction, *place, *forces),
            TradeStmt::WayOut {
                faction,
                place,
                forces,
            } => self.way_out(*faction, *place, *forces),
            TradeStmt::Tunnels {
                faction,
                forces,
                paid,
            } => self.tunnels(*faction, *forces, paid.as_ref()),
            TradeStmt::Scrap { faction, swap } => self.scrap(*faction, *swap),
            _ => {}
        }
    }

    fn free_traders_or_report(&mut self, f: Faction, rule: Rule, what: &str) -> bool {
        if !self.in_play_or_report(f) {
            return false;
        }
        if f != FT {
            self.v(rule, format!("only the Free Traders {what}, not {f}"));
            return false;
        }
        true
    }

    /// The piece a place names, or the territory's one piece, or the first piece where `f` has
    /// tokens of `side`.
    fn place_piece(&self, f: Faction, place: Place, side: Side) -> Option<Piece> {
        let t = place.territory;
        place
            .sector
            .and_then(|s| t.piece(Some(s)))
            .or_else(|| t.piece(t.single_sector()))
            .or_else(|| {
                t.pieces().iter().copied().find(|&p| {
                    let s = self.st.stack(f, p);
                    match side {
                        Side::Advisor => s.advisors > 0,
                        _ => s.fighting() > 0,
                    }
                })
            })
            .or_else(|| t.pieces().first().copied())
    }

    /// `B FT place terr forces` (2.13.02): five forces, in one territory that is not a
    /// stronghold, not in the storm, at the end of the first Spice Blow and Nexus.
    fn ft_place(&mut self, f: Faction, place: Place, c: ForceCount) {
        let rule = rule!("2.13.02");
        if !self.free_traders_or_report(f, rule, "place forces at the end of the first Spice Blow")
        {
            return;
        }
        if self.st.turn != 1 || self.st.free_traders.placed {
            self.v(
                rule,
                "the Free Traders place their five starting forces once, at the end of the first Spice Blow and Nexus",
            );
            return;
        }
        self.st.free_traders.placed = true;
        let t = place.territory;
        if t.is_stronghold() {
            self.v(
                rule,
                format!("the Free Traders' starting forces go in a territory that is not a stronghold, not {}", t.name()),
            );
        }
        if c.total != 5 {
            self.v(
                rule,
                format!(
                    "the Free Traders place five forces at the start, not {}",
                    c.total
                ),
            );
        }
        let Some(p) = self.place_piece(FT, place, c.side) else {
            return;
        };
        if self.st.in_storm(p) {
            self.v(
                rule,
                format!(
                    "the Free Traders' starting forces cannot go into the storm ({})",
                    t.name()
                ),
            );
            return;
        }
        self.st.place_from_reserves(FT, p, c, false);
    }

    /// `R FT wayin terr forces` (2.13.07): forces revived this turn shipped free into one
    /// territory and sector where the Free Traders already have forces of the same side, or into
    /// the Polar Sink.
    fn way_in(&mut self, f: Faction, place: Place, c: ForceCount) {
        let rule = rule!("2.13.07");
        if !self.free_traders_or_report(f, rule, "ship revived forces in this way") {
            return;
        }
        let turn = self.st.turn;
        let revived = match self.st.free_traders.revived {
            (t, n) if t == turn => n,
            _ => 0,
        };
        if c.total > revived {
            self.v(
                rule,
                format!("the Free Traders revived {revived} forces this turn and can ship in only those, not {}", c.total),
            );
            return;
        }
        let t = place.territory;
        let Some(p) = self.place_piece(FT, place, c.side) else {
            return;
        };
        let here = self.st.stack(FT, p);
        let smugglers = c.side == Side::Advisor;
        let matches = if smugglers {
            here.advisors > 0
        } else {
            here.fighting() > 0
        };
        if t != Territory::PolarSink && !matches {
            self.v(
                rule,
                format!(
                    "the Free Traders ship revived forces only where they already have {} ({} in {}), or into the Polar Sink",
                    if smugglers { "Smugglers" } else { "fighters" },
                    if smugglers { "Smugglers" } else { "fighters" },
                    t.name()
                ),
            );
            return;
        }
        if self.st.in_storm(p) {
            self.v(
                rule!("1.06.03.04"),
                format!(
                    "the Free Traders cannot ship into {}: it is in the storm",
                    t.name()
                ),
            );
            return;
        }
        self.st.free_traders.revived = (turn, revived - c.total);
        self.st.place_from_reserves(FT, p, c, false);
    }

    /// `M FT wayout terr forces` (2.13.08): when another faction has just entered a territory
    /// where the Free Traders have fighters, they may send them back to reserves free.
    fn way_out(&mut self, f: Faction, place: Place, c: ForceCount) {
        let rule = rule!("2.13.08");
        if !self.free_traders_or_report(f, rule, "send fighters home this way") {
            return;
        }
        let t = place.territory;
        match self.t.mv.last_entry {
            Some((g, x)) if g != FT && x == t => {}
            _ => {
                self.v(
                    rule,
                    format!("the Free Traders send fighters home when another faction has just entered their territory, and nobody has just entered {}", t.name()),
                );
                return;
            }
        }
        let here = self.st.in_territory(FT, t);
        if c.total > here.normal {
            self.v(
                rule,
                format!(
                    "the Free Traders have {} fighters in {}, not {}",
                    here.normal,
                    t.name(),
                    c.total
                ),
            );
        }
        let mut left = c.total;
        for &p in t.pieces() {
            let got = self
                .st
                .take_from_piece(FT, p, Forces::new(left, 0), Side::Fighter);
            left = left.saturating_sub(got.normal);
            self.st.faction_mut(FT).reserves.add(got.forces());
        }
    }

    /// `  F tunnels forces [$n[>payee]]` (2.13.09; the ally, 2.13.12): after winning a battle in
    /// which at least one of its forces stays in the territory, ship up to as many forces from
    /// reserves there as went to the tanks in the battle, at 1 spice each, to the Guild.
    fn tunnels(&mut self, f: Faction, c: ForceCount, paid: Option<&Payment>) {
        let rule = rule!("2.13.09");
        if !self.in_play_or_report(f) {
            return;
        }
        let ally_use = self.st.plays(FT) && self.st.ally(FT) == Some(f);
        if f != FT && !ally_use {
            self.v(
                rule!("2.13.12"),
                format!("only the Free Traders and their ally use Secret Tunnels, not {f}"),
            );
            return;
        }
        let Some(b) = self.t.battle.last.clone() else {
            self.v(rule, "Secret Tunnels follow a battle won");
            return;
        };
        if b.winner != Some(f) {
            self.v(
                rule,
                format!(
                    "{f} did not win the battle just fought: Secret Tunnels follow a battle won"
                ),
            );
            return;
        }
        if self.st.free_traders.tunnelled {
            self.v(rule, "Secret Tunnels are used once after a battle");
            return;
        }
        self.st.free_traders.tunnelled = true;
        let t = b.territory;
        if self.st.in_territory(f, t).fighting() == 0 {
            self.v(
                rule,
                format!("no force of {f}'s stayed in {} after the battle, so Secret Tunnels cannot be used", t.name()),
            );
            return;
        }
        if u32::from(c.total) > b.to_tanks {
            self.v(
                rule,
                format!(
                    "{} forces went to the tanks in the battle: {f} ships up to that many, not {}",
                    b.to_tanks, c.total
                ),
            );
        }
        let cost = Spice::new(u32::from(c.total));
        if let Some(p) = paid
            && p.amount != cost
        {
            self.v_at(
                p.pos,
                rule,
                format!(
                    "Secret Tunnels cost 1 spice a force: {cost}, not {}",
                    p.amount
                ),
            );
        }
        if cost > self.spice(f) {
            self.v(
                rule,
                format!("{f} must pay {cost} spice but has {}", self.spice(f)),
            );
        }
        let payee = self.settle_payee(Fee::Tunnels, f, paid, || format!("{f}'s Secret Tunnels"));
        self.pay(f, payee, cost);
        let reserves = self.st.faction(f).reserves;
        if reserves.total() < c.total {
            self.v(
                rule,
                format!("{f} has {reserves} forces in reserve, not {}", c.total),
            );
        }
        if let Some(p) = t
            .pieces()
            .iter()
            .copied()
            .find(|&p| self.st.stack(f, p).fighting() > 0)
        {
            self.st.place_from_reserves(
                f,
                p,
                ForceCount {
                    side: Side::Fighter,
                    ..c
                },
                false,
            );
        }
    }

    /// `X FT scrap card>card` (2.13.13): after the battles the Free Traders swap one weapon or
    /// defence of theirs for one of the same colour in front of their shield.
    fn scrap(&mut self, f: Faction, swap: Option<(Card, Card)>) {
        let rule = rule!("2.13.13");
        if !self.free_traders_or_report(f, rule, "keep a Scrap Heap") {
            return;
        }
        if !self.st.options.advanced {
            self.v(
                rule!("2.13.00"),
                "the Scrap Heap is an Advanced ability of the Free Traders",
            );
            return;
        }
        if self.t.battle.current.is_some() {
            self.v(rule, "the Scrap Heap swap comes after the battles");
            return;
        }
        let turn = self.st.turn;
        if self.st.free_traders.swapped == turn {
            self.v(
                rule,
                "the Free Traders swap one card from the Scrap Heap per turn",
            );
            return;
        }
        self.st.free_traders.swapped = turn;
        let Some((give, take)) = swap else {
            return;
        };
        let colour = |c: Card| (c.is_weapon(), c.is_defense());
        if !(give.is_weapon() || give.is_defense()) || colour(give) != colour(take) {
            self.v(
                rule,
                format!("the Free Traders swap a weapon for a weapon or a defence for a defence, not {give} for {take}"),
            );
            return;
        }
        let Some(i) = self.st.free_traders.heap.iter().position(|&c| c == take) else {
            self.v(
                rule,
                format!("{take} is not in front of the Free Traders' shield"),
            );
            return;
        };
        self.st.free_traders.heap.remove(i);
        self.take_card(FT, give, rule);
        self.st.free_traders.heap.push(give);
        self.st.faction_mut(FT).hand.push(Some(take));
    }

    /// `A bm F card trace = result` (2.13.04): before Declaration a player auctions a card from
    /// its hand; bidding starts to its right and a pass may come back in; the top bidder pays
    /// the auctioneer (2.13.04.02), the auctioneer pays a quarter, rounded up, to the Free
    /// Traders (2.13.04.03); a card nobody bids on goes back (2.13.04.04); allies do not bid on
    /// each other's cards (2.13.04.05), except the Free Traders' ally on theirs (2.13.11).
    fn black_market_auction(
        &mut self,
        auctioneer: Faction,
        card: Card,
        trace: &[Bid],
        result: &SaleResult,
    ) {
        let rule = rule!("2.13.04");
        if !self.in_play_or_report(auctioneer) {
            return;
        }
        if !self.st.plays(FT) {
            self.v(
                rule,
                "the Black Market Auction is the Free Traders' ability: only with the Free Traders at the table",
            );
            return;
        }
        if self.t.bid.auctions > 0
            || self
                .st
                .richese
                .declared
                .is_some_and(|(t, _)| t == self.st.turn)
        {
            self.v(
                rule,
                "the Black Market Auction comes before Declaration, before any card is auctioned",
            );
        }
        // 2.13.04.00: in storm order, each player may offer one card.
        let turn = self.st.turn;
        if self.st.free_traders.auctioneers.0 != turn {
            self.st.free_traders.auctioneers = (turn, dune::FactionSet::EMPTY);
        }
        let done = self.st.free_traders.auctioneers.1;
        if done.contains(auctioneer) {
            self.v(
                rule!("2.13.04.00"),
                format!("{auctioneer} has offered its card on the black market this turn"),
            );
        } else if let Some(g) = done
            .iter()
            .find(|&g| self.st.order_index(g) > self.st.order_index(auctioneer))
        {
            self.v(
                rule!("2.13.04.00"),
                format!("players offer their cards in storm order: {auctioneer} comes before {g}"),
            );
        }
        self.st.free_traders.auctioneers.1.insert(auctioneer);
        if !self.st.faction(auctioneer).hand.contains(&Some(card))
            && !self.st.faction(auctioneer).hand.contains(&None)
        {
            self.v(
                rule!("2.13.04.00"),
                format!("{auctioneer} does not hold {card}"),
            );
        }
        // Who may bid: not the auctioneer, nor its ally, but the Free Traders' ally on theirs.
        let excluded: dune::FactionSet = [auctioneer].into_iter().collect();
        if let Some(b) = trace.iter().find(|b| {
            b.amount.is_some() && self.st.ally(auctioneer) == Some(b.faction) && auctioneer != FT
        }) {
            self.v_at(
                b.pos,
                rule!("2.13.04.05"),
                format!(
                    "{} is {auctioneer}'s ally: allies do not bid on each other's cards",
                    b.faction
                ),
            );
        }
        let i = self.st.order_index(auctioneer);
        let n = self.st.order.len();
        let opener = (i < n).then(|| self.st.order[(i + 1) % n]);
        let sale = super::richese::Sale {
            seller: auctioneer,
            kind: AuctionKind::Normal,
            rule: rule!("2.13.04.01"),
            excluded,
            karama_rule: None,
            opener,
        };
        let top = self.check_sale(&sale, trace, result);
        match result {
            SaleResult::Bought {
                faction,
                price,
                payee,
                pos,
                cut,
                ..
            } => {
                if top.is_none() {
                    return;
                }
                let to = Payee::Faction(auctioneer);
                if let Some(x) = payee
                    && *x != to
                {
                    self.v_at(
                        *pos,
                        rule!("2.13.04.02"),
                        format!("the buyer pays the auctioneer, {auctioneer}, not {x} (the Emperor receives nothing unless he sells)"),
                    );
                }
                self.pay(*faction, to, *price);
                let before = self.eligible_count();
                if self.take_card(auctioneer, card, rule!("2.13.04.00")) {
                    self.st.faction_mut(*faction).hand.push(Some(card));
                } else {
                    self.st.faction_mut(*faction).hand.push(None);
                }
                // The card changed hands before Declaration: the cards dealt follow the
                // players then eligible (1.04.02).
                self.redeal(before);
                // 2.13.04.03: the auctioneer's cut to the Free Traders.
                let due = if auctioneer == FT || self.karama_take(CUT).is_some() {
                    Spice::ZERO
                } else {
                    Spice::new(price.amount().div_ceil(4))
                };
                if let Some(c) = cut {
                    if c.amount != due {
                        self.v_at(
                            c.pos,
                            rule!("2.13.04.03"),
                            format!("{auctioneer} pays a quarter of {price}, rounded up, to the Free Traders: {due}, not {}", c.amount),
                        );
                    }
                    if let Some(x) = c.payee
                        && x != Payee::Faction(FT)
                    {
                        self.v_at(
                            c.pos,
                            rule!("2.13.04.03"),
                            format!("the auctioneer's cut goes to the Free Traders, not {x}"),
                        );
                    }
                }
                self.pay(auctioneer, Payee::Faction(FT), due);
            }
            SaleResult::NoSale => {}
            _ => self.v(
                rule!("2.13.04.04"),
                "a black-market card nobody bids on goes back to its owner's hand (= -)",
            ),
        }
    }
}
