//! Typed DGN events: what the notation says, before any rule is applied.
//!
//! The parser ([`super::parse()`](fn@super::parse)) turns text into a [`Game`]; it checks spelling and shape only
//! (a territory code exists, a sector belongs to its territory, a number is a number). Whether an
//! event is *legal* is the replay's business ([`crate::replay`]).

use std::fmt;

use dune::Spice;

use crate::board::{Card, Leader, Sector, Territory};
use crate::state::Phase;
use dune::Faction;

/// A position in the DGN text: 1-based line and column (in characters).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
pub struct Pos {
    pub line: u32,
    pub col: u32,
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.col)
    }
}

/// A parsed game: header tags, then events in log order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Game {
    pub tags: Vec<Tag>,
    pub events: Vec<Event>,
}

impl Game {
    /// The value of the first tag with this name.
    pub fn tag(&self, name: &str) -> Option<&Tag> {
        self.tags.iter().find(|t| t.name == name)
    }
}

/// `[Name "value"]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tag {
    pub name: String,
    pub value: String,
    pub pos: Pos,
}

/// The section of the log an event was written in: the line's leading letter or keyword. The
/// phase letters name the game's own [`Phase`]s (`T0` its setup); a Nexus (`N`) belongs to the
/// Spice Blow and Nexus phase but has its letter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Section {
    /// `T<n>` lines and clock marks.
    Turn,
    /// `T0` setup lines and the phase letters `S B C A R M X H P`.
    Phase(Phase),
    /// `N`: the Nexus of the Spice Blow and Nexus phase (1.10).
    Nexus,
    /// Statements allowed in any phase: `$ $$ K TT GHOLA HAJR DEAL RULING END`.
    Any,
}

impl Section {
    /// The phase letter (`S`, `B`, …) or keyword family used in DGN.
    pub fn letter(self) -> &'static str {
        match self {
            Section::Turn => "T",
            Section::Phase(p) => p.letter(),
            Section::Nexus => "N",
            Section::Any => "*",
        }
    }

    /// The phase a section's statements belong to (`None` for turn lines and any-phase ones).
    pub fn phase(self) -> Option<Phase> {
        match self {
            Section::Phase(p) => Some(p),
            Section::Nexus => Some(Phase::SpiceBlow),
            Section::Turn | Section::Any => None,
        }
    }
}

/// One statement of the log, with where it starts and the assertions written after it.
#[derive(Clone, Debug, PartialEq)]
pub struct Event {
    pub pos: Pos,
    pub section: Section,
    pub stmt: Stmt,
    /// `( … )` groups written right after the statement: cross-checks, never trusted.
    pub asserts: Vec<Assertion>,
}

/// Contents of a sealed entry `{…}`.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum Sealed<T> {
    /// No braces written.
    #[default]
    Absent,
    /// `{#}`: present but sealed (published logs).
    Hidden,
    /// `{…}` with contents (audit logs). Items written `?` are unknown.
    Open(T),
}

impl<T> Sealed<T> {
    pub fn open(&self) -> Option<&T> {
        match self {
            Sealed::Open(t) => Some(t),
            _ => None,
        }
    }
}

/// BG force side (2.02.10).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Hash)]
pub enum Side {
    /// Not written: fighters for the BG, plain forces for everyone else.
    #[default]
    Unspecified,
    /// `a`
    Advisor,
    /// `f`
    Fighter,
}

/// A force count as written: `5`, `5(2*)` (five tokens, two of them starred), `1a`, `3f`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Hash)]
pub struct ForceCount {
    pub total: u8,
    pub starred: u8,
    pub side: Side,
}

impl ForceCount {
    pub fn plain(total: u8) -> ForceCount {
        ForceCount {
            total,
            starred: 0,
            side: Side::Unspecified,
        }
    }

    pub fn normal(self) -> u8 {
        self.total - self.starred
    }
}

impl fmt::Display for ForceCount {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.total)?;
        if self.starred > 0 {
            write!(f, "({}*)", self.starred)?;
        }
        match self.side {
            Side::Advisor => write!(f, "a"),
            Side::Fighter => write!(f, "f"),
            Side::Unspecified => Ok(()),
        }
    }
}

/// A territory, optionally with a sector: `SM`, `SM/5` (sector 5 in DGN's 1-18), `SW/L`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Place {
    pub territory: Territory,
    pub sector: Option<Sector>,
    pub pos: Pos,
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.sector {
            Some(s) => write!(f, "{}/{}", self.territory, s),
            None => write!(f, "{}", self.territory),
        }
    }
}

/// `$n`, optionally `>F` or `>bank` (payee) and `by F` (an ally pays, 1.10.02.05).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Payment {
    pub amount: Spice,
    pub payee: Option<Payee>,
    pub payer: Option<Faction>,
    pub pos: Pos,
}

/// Where spice goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Payee {
    Bank,
    Faction(Faction),
}

impl fmt::Display for Payee {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Payee::Bank => f.write_str("the bank"),
            Payee::Faction(x) => write!(f, "{x}"),
        }
    }
}

/// Which discard pile a spice card goes to (1.13.02).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Pile {
    A,
    B,
}

/// A spice card as revealed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SpiceCard {
    /// The territory card of this territory; the number, if written, must be its printed amount.
    Territory(Territory, Option<u8>),
    /// Shai-Hulud. `SH>HGB`: a further worm of the same blow the Fremen place (2.04.15).
    Worm(Option<Place>),
}

/// One entry of a bidding trace: `HK3` (bid 3) or `HK-` (pass).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bid {
    pub faction: Faction,
    pub amount: Option<Spice>,
    pub pos: Pos,
}

/// How an auction ended.
#[derive(Clone, Debug, PartialEq)]
pub enum AuctionResult {
    /// `= HK 3 {Card} by EM $1 K +top{Card}`
    Bought {
        faction: Faction,
        price: Spice,
        card: Sealed<Option<Card>>,
        /// An ally pays part of the price (1.10.02.04): who and how much.
        ally: Option<(Faction, Spice)>,
        /// `>EM` / `>bank`: who receives the buyer's payment, as logged (2.03.04).
        payee: Option<Payee>,
        /// Bought with a Karama card (3.01.11.04).
        karama: bool,
        /// `+top`: the Harkonnen's free extra card (2.05.08).
        top: Option<Sealed<Option<Card>>>,
    },
    /// `= bought-in [n]`: everybody passed (1.04.09); `n` asserts how many cards went back.
    BoughtIn { returned: Option<u8> },
}

/// The leader slot of a battle plan.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlanLeader {
    Leader(Leader),
    CheapHero,
    /// The Levenbrech card played as a leader of strength 0 (000 3.03.13).
    Levenbrech,
    None,
}

/// One item of a battle result line (`= …`).
#[derive(Clone, Debug, PartialEq)]
pub enum ResultItem {
    Dead(Vec<Leader>),
    Gain(Faction, Spice),
    Loss(Faction, ForceCount),
    Keep(Faction, Vec<Card>),
    Discard(Faction, Vec<Card>),
    /// Tuek's Sietch card: this many of the faction's losses go to reserves (4.03.03.07).
    TuksCard(Faction, u8),
}

/// The faction ability a Karama cancels or prevents, named by its rule number (`2.04.06`), with
/// an optional quoted note.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AbilityRef {
    /// The rule number as written, e.g. `2.06.05.01`.
    pub rule: dune::Rule,
    pub note: Option<String>,
    pub pos: Pos,
}

/// What a Karama card is used for (3.01.11, 1.14).
#[derive(Clone, Debug, PartialEq)]
pub enum KaramaUse {
    /// Cancel a `*` ability as it is used (3.01.11.01): `cancel 2.06.12`.
    Cancel(AbilityRef),
    /// Prevent a `★` ability beforehand (3.01.11.02): `prevent 2.04.06`.
    Prevent(AbilityRef),
    /// Fremen: place a worm in a sand territory (1.14.03).
    Worm(Place),
    /// Emperor: revive up to 3 forces free (1.14.02).
    ReviveForces(ForceCount),
    /// Emperor: revive one leader free (1.14.02).
    ReviveLeader(Leader),
    /// Harkonnen: take another player's hand and give back as many cards (1.14.04);
    /// `hand AT{Shield,?}` seals the cards given back.
    TakeHand {
        target: Faction,
        returned: Sealed<Vec<Option<Card>>>,
    },
    /// Guild: cancel one off-planet shipment (1.14.05): the last shipment of that faction.
    CancelShipment(Faction),
    /// Atreides: see a whole battle plan (1.14.01).
    SeePlan(Faction),
    /// CHOAM, original: discard cards from the hand for 3 spice each (000 1.14.09).
    SellCards(Vec<Card>),
    /// CHOAM, revised: flip starred forces in one territory (000 1.14.09); the Free Traders:
    /// flip every smuggler in one territory to fighters (000 1.14.13).
    Flip(Place),
    /// Richese: pay 3 spice and take a card of the cache into the hand (000 1.14.10).
    TakeCache {
        card: Sealed<Option<Card>>,
        paid: Option<Payment>,
    },
    /// Ixians: move the Hidden Mobile Stronghold 2 territories (000 1.14.07):
    /// `hms [via>]place [harvest [n]]`.
    MoveHms {
        path: Vec<Place>,
        harvest: Option<Option<Spice>>,
    },
    /// Tleilaxu: keep a player from its standard revival this turn (000 1.14.08):
    /// `norevive F`.
    BlockRevival(Faction),
}

/// One promise of a deal or bribe (1.12): who promises what, until when. The engine checks it
/// against every later action (`crate::replay::deals`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Term {
    /// The faction that promises (`None` for a free-text term).
    pub faction: Option<Faction>,
    pub promise: Promise,
    /// `until T5`: the promise holds (or must be kept) through the end of that turn; without it,
    /// the promise's own scope (docs/notation.md 4.11).
    pub until: Option<u32>,
    pub pos: Pos,
}

/// What a term promises.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Promise {
    /// `pay G n`: a payment of n spice to G (made as bribes, `$ F>G n`).
    Pay { to: Faction, amount: Spice },
    /// `noattack T` / `noattack G`: not to attack (be the aggressor) in territory T, or G.
    NoAttack(Target),
    /// `nobid #k` / `nobid` (also `pass`): not to bid on card k of the auction, or on any card.
    NoBid(Option<u32>),
    /// `ally G`: to ally with G in the next Nexus (1.10.01.01).
    Ally(Faction),
    /// `noally` / `noally G`: not to ally (with G) in a Nexus.
    NoAlly(Option<Faction>),
    /// `give G …`: a transfer a deal cannot make (treachery or traitor cards, leaders, forces,
    /// abilities, 1.12.03); the words as written.
    Transfer { to: Faction, what: String },
    /// `"text"`: a term the engine cannot check, recorded and reported as not checked.
    Text(String),
}

/// Whom a no-attack promise protects.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    Territory(Territory),
    Faction(Faction),
}

/// A claimed win at the Mentat Pause: `win -` or `win HK+EM ASH`.
#[derive(Clone, Debug, PartialEq)]
pub enum WinClaim {
    None,
    Win {
        factions: Vec<Faction>,
        kind: dune::WinType,
    },
}

/// A DGN statement.
#[derive(Clone, Debug, PartialEq)]
pub enum Stmt {
    /// `T<n> [@hh:mm] [@LIMIT]`
    Turn {
        number: u32,
        clock: Option<String>,
        limit: bool,
    },
    /// `@hh:mm` or `@LIMIT` on a line of its own.
    Clock { time: Option<String>, limit: bool },

    // ---- setup (turn 0) ----
    /// `AC F{F,F}` (0.08, the full format): the faction a player chose and the two alliance
    /// cards they were dealt (one Classic, one Expansion); sealed, since the card returned to the
    /// box is hidden.
    AllianceCards {
        faction: Faction,
        dealt: Sealed<Vec<Option<Faction>>>,
    },
    /// `TR F{leader,…}` (0.11): one per faction.
    Traitors {
        faction: Faction,
        leaders: Sealed<Vec<Option<Leader>>>,
    },
    /// `PRED BG{F turn}` (2.02.03).
    Prediction {
        faction: Faction,
        prediction: Sealed<Option<(Faction, u32)>>,
    },
    /// `TC F n{card,…}` (0.14).
    StartingCards {
        faction: Faction,
        count: u8,
        cards: Sealed<Vec<Option<Card>>>,
    },
    /// `PLACE F terr forces` (2.04.02, 2.02.08).
    Place {
        faction: Faction,
        place: Place,
        forces: ForceCount,
    },
    /// `STORM0 F d F d -> sector` (0.16).
    FirstStorm {
        dials: [(Faction, u32, Pos); 2],
        to: Option<Sector>,
    },

    // ---- storm ----
    /// `S <sector> [order F…]`: asserted storm sector and storm order (1.01.01). `order F…` may
    /// also follow a storm movement (`S FR card 3 -> 2 order …`); then there is no sector.
    StormAt {
        sector: Option<Sector>,
        order: Option<Vec<Faction>>,
    },
    /// `S F d F d -> sector` (1.01.02).
    StormDial {
        dials: [(Faction, u32, Pos); 2],
        to: Option<Sector>,
    },
    /// `S FR card n -> sector` (2.04.13).
    StormCard {
        faction: Faction,
        value: u32,
        to: Option<Sector>,
    },
    /// `S FR draw{n}` (2.04.13).
    StormDraw {
        faction: Faction,
        value: Sealed<Option<u32>>,
    },
    /// `S F WeatherControl n` (3.01.23).
    WeatherControl { faction: Faction, sectors: u32 },
    /// `S F FamilyAtomics` (3.01.07).
    FamilyAtomics { faction: Faction },

    // ---- spice blow and Nexus ----
    /// `B [A:|B:] card` (1.02, 1.13.02).
    Blow { pile: Pile, card: SpiceCard },
    /// `B FR ride from>to forces` (2.04.08).
    Ride {
        faction: Faction,
        from: Place,
        to: Place,
        forces: ForceCount,
    },
    /// `B FR noprotect`: the Fremen let worms take their ally this phase (2.04.10).
    NoProtect { faction: Faction },
    /// `N F+F` (1.10.01.01).
    Ally(Faction, Faction),
    /// `N F-` (1.10.01.05).
    Unally(Faction),
    /// `N -`: a Nexus with no change.
    NexusPass,

    // ---- CHOAM charity ----
    /// `C F [+n] [by F|bank]` (1.03.01): who pays it, when written (CHOAM's spice with CHOAM at
    /// the table, 000 2.09.04).
    Charity {
        faction: Faction,
        amount: Option<Spice>,
        payer: Option<Payee>,
    },
    /// `C -`
    CharityNone,

    // ---- bidding ----
    /// `A decl F<n> …` (1.04.01).
    Declare(Vec<(Faction, u8, Pos)>),
    /// `A peek AT` (2.01.05).
    Peek { faction: Faction },
    /// `A #k [trace] = result`.
    Auction {
        number: u32,
        trace: Vec<Bid>,
        result: AuctionResult,
    },

    // ---- revival ----
    /// `R F forces [$n] [+m by F $n]` (1.05.01, 2.03.07).
    Revive {
        faction: Faction,
        forces: ForceCount,
        /// `$n[>payee]`: the price and, optionally, who receives it.
        paid: Option<Payment>,
        extra: Option<(ForceCount, Faction, Option<Payment>)>,
    },
    /// `R AT KH [$n]` (2.01.14): the Kwisatz Haderach revived with the leader revival.
    ReviveKwisatz {
        faction: Faction,
        paid: Option<Payment>,
    },
    /// `R F L:leader [$n]` (1.05.03).
    ReviveLeader {
        faction: Faction,
        leader: Leader,
        paid: Option<Payment>,
    },
    /// `R F ghola forces` / `R F ghola L:leader` (3.01.20); in any phase `GHOLA F …`.
    Ghola {
        faction: Faction,
        forces: Option<ForceCount>,
        leader: Option<Leader>,
    },
    /// `R FR grant`: the Fremen give their ally 3 free revivals this turn (2.04.11).
    Grant { faction: Faction },
    /// `R -`
    ReviveNone,

    // ---- shipment and movement ----
    /// `M F ship forces place [$n[>payee] [by F]] [K]` (1.06.03).
    Ship {
        faction: Faction,
        forces: ForceCount,
        to: Place,
        payment: Option<Payment>,
        karama: bool,
    },
    /// `M F ship -`
    NoShip { faction: Faction },
    /// `M F send forces place` (2.04.05, 4.03.03.05).
    Send {
        faction: Faction,
        forces: ForceCount,
        to: Place,
    },
    /// `M F cross from>to forces [$n]` (2.06.05.01, 2.06.10).
    CrossShip {
        faction: Faction,
        from: Place,
        to: Place,
        forces: ForceCount,
        payment: Option<Payment>,
    },
    /// `M SG home from forces [$n]` (2.06.05.02).
    ShipHome {
        faction: Faction,
        from: Place,
        forces: ForceCount,
        payment: Option<Payment>,
    },
    /// `M F move from[>via…]>to forces` (1.06.05).
    Move {
        faction: Faction,
        from: Place,
        via: Vec<Place>,
        to: Place,
        forces: ForceCount,
    },
    /// `M F move -`
    NoMove { faction: Faction },
    /// `M F Hajr` (3.01.09): one more move this phase; also `HAJR F` on a line of its own.
    Hajr { faction: Faction },
    /// `M AT peek{card}` (2.01.07, Wormsign).
    Wormsign {
        faction: Faction,
        card: Sealed<Option<SpiceCard>>,
    },
    /// `M F -`: the faction takes no action.
    Pass { faction: Faction },
    /// `M SG delay` (2.06.12.02).
    Delay { faction: Faction },
    /// `M BG spirit PS` / `M BG spirit place 1a` (2.02.05, 2.02.11).
    Spirit {
        faction: Faction,
        to: Place,
        forces: ForceCount,
    },
    /// `M BG flip place f|a` (2.02.14-2.02.20).
    Flip {
        faction: Faction,
        place: Place,
        to: Side,
    },

    // ---- stronghold cards (4.03.03) ----
    /// `X F card ARK`, `M F card CAR`.
    StrongholdCard {
        faction: Faction,
        stronghold: dune::Stronghold,
        count: Option<u8>,
    },

    // ---- battle (applied as logged; checked by "Rules engine II") ----
    /// `X WA F…` / `X WA -` (4.01.04).
    WinAttempts(Vec<Faction>),
    /// `X place: F v F`
    Battle {
        place: Place,
        aggressor: Faction,
        defender: Faction,
    },
    /// `F presc element = answer` (2.01.08).
    Prescience {
        faction: Faction,
        element: String,
        answer: String,
    },
    /// `F voice F (+|-)command` (2.02.06).
    Voice {
        faction: Faction,
        target: Faction,
        positive: bool,
        command: String,
    },
    /// `F plan leader[+KH] d<forces>[$n] W:card D:card` (1.07.04).
    Plan(crate::battle::Plan),
    /// `F TRAITOR leader [for F]` (1.07.06.06, 2.05.09).
    TraitorCall {
        faction: Faction,
        leader: Leader,
        for_ally: Option<Faction>,
    },
    /// `= winner [a:b] ; items…`
    BattleResult {
        winner: Option<Faction>,
        totals: Option<(String, String)>,
        items: Vec<ResultItem>,
    },
    /// `HK capture leader` / `HK kill leader` (2.05.10).
    Capture {
        faction: Faction,
        leader: Leader,
        kill: bool,
    },

    // ---- collection ----
    /// `H F n terr` (1.08): asserted collection.
    Collect {
        faction: Faction,
        amount: Spice,
        territory: Territory,
    },
    /// `H F +n ARK|CAR|TUK` (1.13.01): asserted bonus.
    Bonus {
        faction: Faction,
        amount: Spice,
        territory: Territory,
    },
    /// `H -`
    CollectNone,

    // ---- Mentat Pause ----
    /// `P control SH:F …` / `P control -` (1.09.02).
    Control(Vec<(dune::Stronghold, Faction, Pos)>),
    /// `P win …` (1.09.02-1.09.05, 2.02.03).
    Win(WinClaim),
    /// `P cards SH>F …` (4.03.02): stronghold cards taken this Mentat Pause.
    StrongholdCards(Vec<(dune::Stronghold, Faction, Pos)>),

    // ---- any phase ----
    /// `$ F>F n ["terms"]` (1.12.02).
    Bribe {
        from: Faction,
        to: Faction,
        amount: Spice,
        terms: Option<String>,
    },
    /// `$$ EM>F n` (2.03.06).
    Gift {
        from: Faction,
        to: Faction,
        amount: Spice,
    },
    /// `K F [Card] use …` (3.01.11, 1.14).
    Karama {
        faction: Faction,
        card: Option<Card>,
        usage: KaramaUse,
    },
    /// `TT F>F "question" = yes|no` (3.01.22, 4.01.18).
    Truthtrance {
        from: Faction,
        to: Faction,
        question: String,
        answer: bool,
    },
    /// `DEAL F,F "terms"` (1.12.00): terms the engine cannot check.
    Deal {
        factions: Vec<Faction>,
        terms: String,
    },
    /// `DEAL F,F: term ; term …`, or the terms of a bribe `$ F>G n: term …` (logged right after
    /// its `Bribe`, `bribe` set): promises the engine checks (1.12.00).
    Terms {
        factions: Vec<Faction>,
        bribe: bool,
        terms: Vec<Term>,
    },
    /// `RULING "text"` (4.01.05).
    Ruling(String),
    /// `END T<n> reason`.
    End { turn: u32, reason: String },
    /// A line holding only assertions.
    Check,
    /// A statement of CHOAM, Richese, the Free Traders or a Second Expansion card (000 2.09,
    /// 2.10, 2.13, 3.03): see [`super::trade`].
    Trade(super::trade::TradeStmt),

    // ---- the Ixians (000 2.07) ----
    /// `POCKET IX{card,…}` (2.07.03): the cards the Ixians drew, one per faction in the game,
    /// before the starting cards (the one they kept among them); sealed.
    Pocket {
        faction: Faction,
        cards: Sealed<Vec<Option<Card>>>,
    },
    /// The Hidden Mobile Stronghold placed or moved: `HMS IX place` in setup (2.07.04),
    /// `S IX hms [via>…]place [harvest [n]]` before the storm moves (2.07.18, 2.07.19; at the
    /// Mentat Pause, `P IX hms …`, under that edition). `path`: the territories passed, then
    /// where it points now; `harvest`: the Harvester's collection, with the amount if written.
    HmsMove {
        faction: Faction,
        path: Vec<Place>,
        harvest: Option<Option<Spice>>,
    },
    /// `A IX supply top{card}` / `bottom{card}` (2.07.07): the card put back on the deck.
    Supply {
        faction: Faction,
        top: bool,
        card: Sealed<Option<Card>>,
    },
    /// `A F tech{card}` (2.07.22; the ally 2.07.21): the card from the hand that replaces the
    /// one about to be auctioned.
    Technology {
        faction: Faction,
        card: Sealed<Option<Card>>,
    },
    /// `A F redraw{card}` (2.07.22; the ally 2.07.21): the card just bought is discarded and the
    /// top card of the deck drawn.
    Redraw {
        faction: Faction,
        card: Sealed<Option<Card>>,
    },
    /// `  IX swap n` (2.07.15): after the battle, n surviving Suboids exchanged for n Cyborgs
    /// lost in it.
    Shenanigans { faction: Faction, count: u8 },

    // ---- the Tleilaxu (000 2.08) ----
    /// `FD TL{leader,leader,leader}` (2.08.03; again after all three are revealed, 2.08.06).
    FaceDancers {
        faction: Faction,
        leaders: Sealed<Vec<Option<Leader>>>,
    },
    /// `P TL replace leader{leader}` (2.08.07): an unrevealed Face Dancer shuffled back and a
    /// new one drawn.
    ReplaceDancer {
        faction: Faction,
        leader: Leader,
        new: Sealed<Option<Leader>>,
    },
    /// `  TL facedancer leader [n [from place forces, …]]` (2.08.05): the winner's leader
    /// revealed as a Face Dancer, and the Tleilaxu forces that replace the winner's (from
    /// reserves unless places are named).
    FaceDancer {
        faction: Faction,
        leader: Leader,
        replace: Option<(u8, Vec<(Place, ForceCount)>)>,
    },
    /// `R TL allow F` (2.08.11): F may revive up to 5 forces this turn.
    AllowRevival { faction: Faction, target: Faction },
    /// `R TL sell L:leader $n` (2.08.13): a leader revived for its faction at the Tleilaxu's
    /// price.
    SellLeader {
        faction: Faction,
        leader: Leader,
        paid: Option<Payment>,
    },

    // ---- the First Expansion's cards (000 3.02) ----
    /// `  F withhold PoisonTooth` (3.02.08): the weapon is not used in this battle.
    Withhold { faction: Faction, card: Card },
    /// A card played on its own in the Spice Blow: `B F Harvester` (3.02.05), `B F Thumper`
    /// (3.02.12).
    PlayCard { faction: Faction, card: Card },
    /// `AMAL F P` (3.02.01): Amal played at the beginning of the phase whose letter is `P`.
    Amal { faction: Faction, phase: Phase },

    // ---- the Ecaz and Moritani expansion (000 2.11, 2.12, 3.04, 3.05) ----
    /// `AMB EC …`: Ecaz's ambassadors (000 2.11).
    Ambassador {
        faction: Faction,
        action: AmbassadorAction,
    },
    /// `LOYAL EC leader` (000 2.11.25 original, 2.11.20 revised): the Ecaz traitor card set aside
    /// face up before traitors are dealt.
    Loyalty { faction: Faction, leader: Leader },
    /// `TERROR MO …`: Moritani's terror tokens (000 2.12).
    Terror {
        faction: Faction,
        action: TerrorAction,
    },
    /// `BOUNTY MO …`: Moritani's bounty board and traitor abilities (000 2.12.03, 2.12.16-2.12.20).
    Bounty {
        faction: Faction,
        action: BountyAction,
    },
    /// `R F Recruits` (000 3.04.02): every faction's free revival doubles, the limit is 7.
    Recruits { faction: Faction },
    /// `JIHAD F G H … [discard card]` (000 3.05.01): F plays Butlerian Jihad; G, H, … are the
    /// players touching or looking at thinking machines.
    ButlerianJihad {
        faction: Faction,
        touching: Vec<Faction>,
        discard: Option<Card>,
    },
}

/// What Ecaz does with its ambassadors (`AMB EC …`, 000 2.11).
#[derive(Clone, Debug, PartialEq)]
pub enum AmbassadorAction {
    /// `supply F F F F F`: the five random ambassadors of the supply (2.11.03, 2.11.08
    /// original).
    Supply(Vec<Faction>),
    /// `place F terr [$n]`: an ambassador placed after Revival (2.11.05-2.11.06 original), or
    /// with the starting forces (2.11.03 revised).
    Place {
        ambassador: Faction,
        to: Place,
        payment: Option<Payment>,
    },
    /// `trigger terr [for F] [as F] [effect]`: the ambassador in `terr` is triggered by the
    /// faction that just entered (2.11.07 original), for Ecaz or its ally (2.11.24), the Bene
    /// Gesserit one copying another's effect (2.11.16.02).
    Trigger {
        at: Territory,
        beneficiary: Option<Faction>,
        copy: Option<Faction>,
        effect: AmbassadorEffect,
    },
    /// `with F[,F…]`: ambassadors that travelled with Ecaz's last shipment or move, counted in
    /// its forces (2.11.05 revised).
    With(Vec<Faction>),
    /// `flip terr`: the ambassador there turned face down (2.11.07 revised).
    Flip(Territory),
    /// `hostile terr`: Declare hostility (2.11.11 revised).
    Hostile(Territory),
    /// `use terr [effect]`: an ambassador's own ability (2.11.15-2.11.16 revised).
    Use {
        at: Territory,
        effect: AmbassadorEffect,
    },
    /// `cooccupy`, in a battle: the alliance fights with Battling Co-Occupied (2.11.18-2.11.19
    /// original).
    CoOccupy,
}

/// The arguments of an ambassador's effect (000 2.11.16).
#[derive(Clone, Debug, PartialEq, Default)]
pub enum AmbassadorEffect {
    #[default]
    None,
    /// `move from>to forces` (Fremen).
    Move {
        from: Place,
        to: Place,
        forces: ForceCount,
    },
    /// `send forces terr` (Spacing Guild original; Bene Gesserit revised).
    Send { forces: ForceCount, to: Place },
    /// `discard card[,card…]` (Ixians, CHOAM original).
    Discard(Vec<Card>),
    /// `revive forces` (Tleilaxu original).
    Revive(ForceCount),
    /// `revive L:leader` (Tleilaxu original).
    ReviveLeader(Leader),
    /// `buy` (Richese original).
    Buy,
    /// `vidal` (Ecaz original; Moritani revised).
    Vidal,
    /// `ally [vidal]` (Ecaz).
    Ally { vidal: bool },
    /// `leader L` (Tleilaxu revised): a leader taken from the tanks for this battle.
    Leader(Leader),
    /// `ask "question" = yes|no` (Atreides, Harkonnen revised).
    Ask { question: String, answer: bool },
    /// `cross terr forces` (Spacing Guild revised): the ambassador and forces shipped elsewhere.
    Cross { to: Place, forces: ForceCount },
}

/// What Moritani does with its terror tokens (`TERROR MO …`, 000 2.12).
#[derive(Clone, Debug, PartialEq)]
pub enum TerrorAction {
    /// `place terr{token}` (Terrorize, 2.12.07 original; Plot, 2.12.07.01 revised).
    Place {
        to: Place,
        token: Sealed<Option<crate::tokens::Terror>>,
    },
    /// `move terr>terr` (Terrorize, 2.12.07 original; Plan, 2.12.07.02 revised).
    Move { from: Territory, to: Place },
    /// `scheme token` (2.12.07.03 revised).
    Scheme(crate::tokens::Terror),
    /// `trigger terr token [effect]` (2.12.08 original) or `strike terr token [for F] [effect]`
    /// (Organized Strike, 2.12.08 revised; for the ally, 2.12.17).
    Trigger {
        at: Territory,
        token: crate::tokens::Terror,
        strike: bool,
        beneficiary: Option<Faction>,
        effect: TerrorEffect,
    },
    /// `carry terr>terr` or `carry terr{token}`: terror tokens travelling with Moritani's last
    /// move or shipment (Terror Moves, 2.12.14 original).
    Carry {
        from: Option<Territory>,
        to: Place,
        token: Sealed<Option<crate::tokens::Terror>>,
    },
    /// `offer F yes|no` (Enemy of my Enemy, 2.12.14-2.12.15 revised).
    Offer { to: Faction, accepted: bool },
    /// `pay F`: F pays Moritani 3 spice for the Extortion token (2.12.13.03).
    Pay { by: Faction },
}

/// The arguments of a terror token's effect (000 2.12.13).
#[derive(Clone, Debug, PartialEq, Default)]
pub enum TerrorEffect {
    #[default]
    None,
    /// The leader it takes (Assassination, Hostage).
    Leader(Leader),
    /// `spice` (Robbery original: half the spice).
    Spice,
    /// `card[{card}]` (Robbery original: the top treachery card).
    TopCard(Sealed<Option<Card>>),
    /// `card [give card]` (Sabotage): the card taken from the opponent's hand, the card given.
    Sabotage {
        taken: Option<Card>,
        given: Option<Card>,
    },
    /// `forces` (Sneak Attack, Ambush).
    Forces(ForceCount),
    /// `discard card` (Atomics: a card discarded from a hand over the lowered limit).
    Discard(Vec<(Faction, Card)>),
}

/// Moritani's bounty board and traitor abilities (`BOUNTY MO …`, 000 2.12).
#[derive(Clone, Debug, PartialEq)]
pub enum BountyAction {
    /// `BOUNTY MO{leaders}`: the bounty board, one random traitor card of every faction in play
    /// (2.12.03); sealed.
    Board(Sealed<Vec<Option<Leader>>>),
    /// `draw{leader}`: a new traitor from the bounty board (2.12.16 original; 2.12.19 original
    /// after an assassination).
    Draw(Sealed<Option<Leader>>),
    /// `alive leader` (2.12.18.01).
    Alive(Leader),
    /// `dead leader` (2.12.18.02).
    Dead(Leader),
    /// `assassinate leader` (2.12.19 original).
    Assassinate(Leader),
    /// `keep card`: Moritani's ally keeps a card it played in a battle it lost (2.12.18,
    /// alliance).
    Keep { ally: Faction, card: Card },
}

/// The Kwisatz Haderach's state, as an assertion names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KwisatzState {
    /// Fewer than 7 Atreides forces lost in battles (2.01.10).
    Inactive,
    Active,
    /// In the tanks (2.01.13, 2.01.14).
    Dead,
}

/// A cross-check written in `( … )`. The engine computes the quantity and reports a mismatch.
#[derive(Clone, Debug, PartialEq)]
pub enum Assertion {
    /// `(SM: SG -3, FR -1, -$4)`: what the preceding storm, worm or effect destroyed there.
    Losses {
        pos: Pos,
        territory: Territory,
        forces: Vec<(Faction, ForceCount)>,
        spice: Option<Spice>,
    },
    /// `(spice AT10 BG5 …)`: spice behind each shield.
    Spice {
        pos: Pos,
        values: Vec<(Faction, Spice)>,
    },
    /// `(bribes BG2 …)`: bribe spice in front of each shield, not yet collected (1.12.02).
    Bribes {
        pos: Pos,
        values: Vec<(Faction, Spice)>,
    },
    /// `(worms n)`: worms counted for the Shield Wall (4.02.00).
    Worms { pos: Pos, count: u32 },
    /// `(hands AT1 …)`: treachery cards in hand.
    Hands {
        pos: Pos,
        values: Vec<(Faction, u8)>,
    },
    /// `(tanks AT2 FR4(1*) …)`: forces in the tanks.
    Tanks {
        pos: Pos,
        values: Vec<(Faction, ForceCount)>,
    },
    /// `(reserves AT10 …)`: forces in reserve.
    Reserves {
        pos: Pos,
        values: Vec<(Faction, ForceCount)>,
    },
    /// `(wheel 7.5)` after a plan: the strength of the forces dialled (1.07.04.01, 1.13.04).
    Wheel {
        pos: Pos,
        value: crate::battle::Halves,
    },
    /// `(map SM 10, FP 6)` / `(map -)`: the spice lying on the map, every territory with spice.
    Map {
        pos: Pos,
        values: Vec<(Territory, Spice)>,
    },
    /// `(KH inactive 4)`, `(KH active)`, `(KH dead)`: the Kwisatz Haderach (2.01.10-2.01.14),
    /// with the Atreides' battle losses so far when given.
    Kwisatz {
        pos: Pos,
        state: KwisatzState,
        losses: Option<u32>,
    },
    /// `(storm n)`: the storm's sector.
    Storm { pos: Pos, sector: Sector },
    /// `("free text")`: a note for the record, never checked.
    Note(String),
}
