//! The statements of the full rulebook's three trading factions (000 2.09 CHOAM, 2.10 Richese,
//! 2.13 the Free Traders) and of the Second Expansion's treachery cards (000 3.03), as typed
//! values. They are one [`super::Stmt::Trade`] each, read by `parse/trade.rs` and replayed by
//! the faction modules (`crate::factions::choam`, `richese`, `free_traders`, `cards`).
//!
//! docs/notation.md ("CHOAM", "Richese", "The Free Traders", "The Second Expansion's cards")
//! gives every statement with an example.

use dune::{Faction, Spice};

use super::{Bid, ForceCount, Payee, Payment, Place, Pos, Sealed};
use crate::board::{Card, Leader};

/// How a card of Richese's is sold (2.10.08, 2.10.22): by the normal bidding, once around
/// starting with a neighbour, or by a silent auction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AuctionKind {
    /// Bids in storm order, as in normal bidding (2.10.23).
    Normal,
    /// Once around, starting with this neighbour of Richese's (2.10.08.01).
    OnceAround(Faction),
    /// Everybody bids once, at the same time (2.10.08.02).
    Silent,
}

/// How a sale of one card ended.
#[derive(Clone, Debug, PartialEq)]
pub enum SaleResult {
    /// `= F n [>payee]`: bought for n.
    Bought {
        faction: Faction,
        price: Spice,
        payee: Option<Payee>,
        pos: Pos,
        /// `K`: a Karama used to bid or buy (not allowed at Richese's auctions, 2.10.07).
        karama: bool,
        /// `cut $n[>FT]`: the auctioneer's cut to the Free Traders (2.13.04.03), as logged.
        cut: Option<Payment>,
    },
    /// `= RI`: nobody bid and Richese took the card into its hand free (2.10.08.01).
    Kept,
    /// `= aside`: nobody bid and Richese set the card aside face up (2.10.08.01).
    Aside,
    /// `= -`: nobody bid (the card goes back to its owner's hand, 2.10.22, 2.13.04.04).
    NoSale,
}

/// A face-down No-Field token's value, sealed as the table saw it (2.10.10).
pub type NoFieldValue = Sealed<Option<u8>>;

/// A statement of CHOAM, Richese, the Free Traders or a Second Expansion card.
#[derive(Clone, Debug, PartialEq)]
pub enum TradeStmt {
    // ---- CHOAM (000 2.09) ----
    /// `C F ally [+n]`: CHOAM's ally takes 2 spice from the bank at the end of CHOAM Charity
    /// (2.09.14 original, 2.09.17 revised).
    AllyStipend {
        faction: Faction,
        amount: Option<Spice>,
    },
    /// `C CH earnings n`: CHOAM's face-down earnings token turned up (2.09.06 revised).
    EarningsUp { faction: Faction, value: u8 },
    /// `P CH inflation double|cancel` (2.09.09 original).
    Inflation { faction: Faction, double: bool },
    /// `P CH earnings{n}`: an earnings token placed face down (2.09.05 revised).
    Earnings {
        faction: Faction,
        value: Sealed<Option<u8>>,
    },
    /// `SELL CH card,… [$n]`: Open Market (2.09.06 original, 2.09.09 revised).
    Sell {
        faction: Faction,
        cards: Vec<Card>,
        paid: Option<Payment>,
    },
    /// `USE F card [F] [terr]`: a worthless card discarded for its Multipurpose effect
    /// (2.09.07 original, 2.09.10 revised).
    Multipurpose {
        faction: Faction,
        card: Card,
        target: Option<Faction>,
        place: Option<Place>,
    },
    /// `SWAP CH{card} F{card}`: CHOAM and its ally trade one card each (2.09.14 original).
    Swap {
        sides: [(Faction, Sealed<Option<Card>>); 2],
    },
    /// `M CH lend F`: the Auditor joins the ally's leader pool (2.09.20 revised).
    Lend { faction: Faction, to: Faction },
    /// `  F audit`: Paid Intel after a battle the Auditor fought (2.09.17 original, 2.09.22
    /// revised).
    Audit { faction: Faction },
    /// `  F buyoff $n[>CH]`: the audited player cancels the audit by paying (same rules).
    Buyoff { faction: Faction, paid: Payment },
    /// `  CH share $n`: CHOAM's half of the spice the other side put on its wheel in the battle
    /// just fought (2.09.20 original, 2.09.25 revised; none of CHOAM's own, 2.09.21, 2.09.26).
    Share { faction: Faction, paid: Payment },

    // ---- Richese (000 2.10) ----
    /// `PLACE RI PS nofield{n}`: the No-Field token placed in the Polar Sink at setup (2.10.02).
    SetupNoField {
        faction: Faction,
        place: Place,
        value: NoFieldValue,
    },
    /// `A RI cache first|last` (2.10.05).
    Declared { faction: Faction, first: bool },
    /// `A RI sell card once F|silent trace = result`: a cache card sold at Richese's own
    /// auction (2.10.08).
    CacheAuction {
        faction: Faction,
        card: Card,
        kind: AuctionKind,
        trace: Vec<Bid>,
        result: SaleResult,
    },
    /// `A RI black{card} normal|once F|silent trace = result`: a card from Richese's hand on the
    /// black market (2.10.21-2.10.23 original).
    BlackMarket {
        faction: Faction,
        card: Sealed<Option<Card>>,
        kind: AuctionKind,
        trace: Vec<Bid>,
        result: SaleResult,
    },
    /// `A RI supply #k`: the card Richese set aside from the bottom of the deck is auctioned as
    /// card k of the row (2.10.21 revised, Disrupted Supply Chain).
    Supply { faction: Faction, number: u32 },
    /// `M F ship [forces+]nofield{n} terr [$n]`: a shipment with a No-Field token (2.10.10), or
    /// Richese's ally shipping with one of Richese's tokens, revealed at once (2.10.19).
    NoFieldShip {
        faction: Faction,
        forces: ForceCount,
        value: NoFieldValue,
        to: Place,
        paid: Option<Payment>,
    },
    /// `M RI move from>to [forces+]nofield`: a move that takes the No-Field token along
    /// (2.10.11).
    NoFieldMove {
        faction: Faction,
        from: Place,
        to: Place,
        forces: ForceCount,
    },
    /// `NF RI terr n` (any phase) or `  RI nofield n` in a battle: a No-Field token revealed
    /// (2.10.12-2.10.16).
    Reveal {
        faction: Faction,
        place: Option<Place>,
        value: u8,
    },
    /// `GIVE RI>F{card}`: Richese gives its ally a card of its cache from its hand (2.10.20).
    Give {
        from: Faction,
        to: Faction,
        card: Sealed<Option<Card>>,
    },

    // ---- the Free Traders (000 2.13) ----
    /// `B FT place terr forces`: the five starting forces, at the end of the first Spice Blow
    /// and Nexus phase (2.13.02).
    FtPlace {
        faction: Faction,
        place: Place,
        forces: ForceCount,
    },
    /// `A bm F card trace = result`: the Black Market Auction (2.13.04).
    BlackMarketAuction {
        auctioneer: Faction,
        card: Card,
        trace: Vec<Bid>,
        result: SaleResult,
    },
    /// `R FT wayin terr forces`: revived forces shipped in (2.13.07).
    WayIn {
        faction: Faction,
        place: Place,
        forces: ForceCount,
    },
    /// `M FT wayout terr n`: fighters sent home when another faction enters (2.13.08).
    WayOut {
        faction: Faction,
        place: Place,
        forces: ForceCount,
    },
    /// `  F tunnels forces [$n[>payee]]`: Secret Tunnels after a won battle (2.13.09, 2.13.12).
    Tunnels {
        faction: Faction,
        forces: ForceCount,
        paid: Option<Payment>,
    },
    /// `X FT scrap card>card` / `X FT scrap -`: the Scrap Heap swap after the battles (2.13.13).
    Scrap {
        faction: Faction,
        swap: Option<(Card, Card)>,
    },

    // ---- the Second Expansion's cards (000 3.03) ----
    /// `DISTRANS F>G{card}` (3.03.01).
    Distrans {
        from: Faction,
        to: Faction,
        card: Sealed<Option<Card>>,
    },
    /// `SAPHO F first|last|aggressor` (3.03.02).
    Sapho {
        faction: Faction,
        effect: SaphoEffect,
    },
    /// `NULLENTROPY F{card} [$2]` (3.03.05).
    Nullentropy {
        faction: Faction,
        card: Sealed<Option<Card>>,
        paid: Option<Payment>,
    },
    /// `M F Ornithopter range|again` (3.03.06.01, 3.03.06.02).
    Ornithopter { faction: Faction, again: bool },
    /// `  F PortableSnooper` after the plans (3.03.07).
    PortableSnooper { faction: Faction },
    /// `  F ResidualPoison leader` before the plans: the opponent's leader that died (3.03.08).
    ResidualPoison { faction: Faction, leader: Leader },
    /// `SEMUTA F card` (3.03.09).
    Semuta { faction: Faction, card: Card },
    /// `  F burn`: the Stone Burner's player kills both leaders (3.03.10 original).
    Burn { faction: Faction },
    /// `R F AxolotlTank L:leader [$n]` (3.03.12).
    Axolotl {
        faction: Faction,
        leader: Leader,
        paid: Option<Payment>,
    },
    /// `DSW F` (3.03.15).
    SeededWater { faction: Faction },
}

/// The three uses of the Juice of Sapho (3.03.02.01-.03).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SaphoEffect {
    Aggressor,
    First,
    Last,
}
