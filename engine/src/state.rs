//! Game state: everything the replay tracks between two events.
//!
//! The state only changes through [`crate::replay`], which checks each event against the rules
//! first; the methods here are the unchecked moves (shakmaty's `play_unchecked`): they keep the
//! books balanced (every faction's twenty forces are always somewhere) and never panic.

use dune::{Rule, rule};
use std::fmt;

use crate::board::data::{FORCES_PER_FACTION, LEADERS, SHAI_HULUD_CARDS, TERRITORY_COUNT};
use crate::board::{Card, CardSet, Leader, Link, Piece, Sector, Territory};
use crate::dgn::{ForceCount, Side};
use crate::factions::{ForceKind, Sheet};
use dune::{Faction, FactionSet, Spice, Stronghold};
use tournament::ruleset::Ruleset;

/// Forces off the board (reserves or tanks): plain and starred tokens.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize)]
pub struct Forces {
    pub normal: u8,
    pub starred: u8,
}

impl Forces {
    pub fn new(normal: u8, starred: u8) -> Forces {
        Forces { normal, starred }
    }

    pub fn total(self) -> u8 {
        self.normal + self.starred
    }

    pub fn is_empty(self) -> bool {
        self.total() == 0
    }

    /// Does this hold at least `other`?
    pub fn covers(self, other: Forces) -> bool {
        self.normal >= other.normal && self.starred >= other.starred
    }

    pub fn add(&mut self, other: Forces) {
        self.normal = self.normal.saturating_add(other.normal);
        self.starred = self.starred.saturating_add(other.starred);
    }

    /// Removes up to `other`; returns what was actually removed.
    pub fn take(&mut self, other: Forces) -> Forces {
        let n = self.normal.min(other.normal);
        let s = self.starred.min(other.starred);
        self.normal -= n;
        self.starred -= s;
        Forces::new(n, s)
    }

    pub fn from_count(c: ForceCount) -> Forces {
        Forces::new(c.total - c.starred, c.starred)
    }

    /// Tokens of one kind (off the board a two-sided token is counted plain).
    pub fn count(self, kind: ForceKind) -> u8 {
        match kind {
            ForceKind::Plain => self.normal,
            ForceKind::Starred => self.starred,
            ForceKind::Flipped => 0,
        }
    }
}

impl fmt::Display for Forces {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.total())?;
        if self.starred > 0 {
            write!(f, "({}*)", self.starred)?;
        }
        Ok(())
    }
}

/// One faction's tokens on one territory piece, one count per [`ForceKind`]: plain (`normal`),
/// starred, and tokens on their second side (`advisors`: the Bene Gesserit's advisors, the
/// Free Traders' Smugglers). What each is worth is the faction's ([`crate::factions::kinds`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize)]
pub struct Stack {
    pub normal: u8,
    pub starred: u8,
    pub advisors: u8,
}

impl Stack {
    pub fn total(self) -> u8 {
        self.normal + self.starred + self.advisors
    }

    /// Tokens that occupy, fight, collect and control (everything but advisors, 2.02.12).
    pub fn fighting(self) -> u8 {
        self.normal + self.starred
    }

    pub fn is_empty(self) -> bool {
        self.total() == 0
    }

    pub fn add(&mut self, o: Stack) {
        self.normal = self.normal.saturating_add(o.normal);
        self.starred = self.starred.saturating_add(o.starred);
        self.advisors = self.advisors.saturating_add(o.advisors);
    }

    pub fn forces(self) -> Forces {
        Forces::new(self.normal + self.advisors, self.starred)
    }

    /// Tokens of one kind ([`ForceKind`]: the three slots).
    pub fn count(self, kind: ForceKind) -> u8 {
        match kind {
            ForceKind::Plain => self.normal,
            ForceKind::Starred => self.starred,
            ForceKind::Flipped => self.advisors,
        }
    }
}

impl fmt::Display for Stack {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        if self.fighting() > 0 {
            parts.push(if self.starred > 0 {
                format!("{}({}*)", self.fighting(), self.starred)
            } else {
                self.fighting().to_string()
            });
        }
        if self.advisors > 0 {
            parts.push(format!("{}a", self.advisors));
        }
        if parts.is_empty() {
            parts.push("0".into());
        }
        f.write_str(&parts.join("+"))
    }
}

/// Where a leader is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LeaderState {
    /// In the leader pool of `holder` (its own faction, or the Harkonnen after a capture).
    Pool(Faction),
    /// Survived a battle this phase and waits in that territory until Leader Return (1.07.06.03).
    Fought(Faction, Territory),
    /// In the tanks, face up (revivable) or face down (killed again, 1.05.04).
    Tanks { face_up: bool },
    /// Set aside, in nobody's leader pool: Duke Vidal at the start and after his revival, until
    /// an ambassador, a terror token or Moritani's battles bring him into a pool (000 2.11,
    /// 2.12).
    SetAside,
}

/// The phases of a turn (1.01-1.09), plus setup.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
pub enum Phase {
    Setup,
    Storm,
    SpiceBlow,
    Charity,
    Bidding,
    Revival,
    Movement,
    Battle,
    Collection,
    Mentat,
}

impl Phase {
    pub fn name(self) -> &'static str {
        match self {
            Phase::Setup => "Setup",
            Phase::Storm => "Storm",
            Phase::SpiceBlow => "Spice Blow and Nexus",
            Phase::Charity => "CHOAM Charity",
            Phase::Bidding => "Bidding",
            Phase::Revival => "Revival",
            Phase::Movement => "Shipment and Movement",
            Phase::Battle => "Battle",
            Phase::Collection => "Spice Collection",
            Phase::Mentat => "Mentat Pause",
        }
    }

    /// The phase's letter in DGN (`T0` for setup).
    pub fn letter(self) -> &'static str {
        match self {
            Phase::Setup => "T0",
            Phase::Storm => "S",
            Phase::SpiceBlow => "B",
            Phase::Charity => "C",
            Phase::Bidding => "A",
            Phase::Revival => "R",
            Phase::Movement => "M",
            Phase::Battle => "X",
            Phase::Collection => "H",
            Phase::Mentat => "P",
        }
    }

    /// The phase whose DGN letter this is (`S`, `B`, … `P`; `T0` for setup).
    pub fn from_letter(letter: &str) -> Option<Phase> {
        let mut p = Phase::Setup;
        loop {
            if p.letter() == letter {
                return Some(p);
            }
            p = p.next()?;
        }
    }

    /// The rule that introduces the phase.
    pub fn rule(self) -> Rule {
        match self {
            Phase::Setup => rule!("0.01"),
            Phase::Storm => rule!("1.01.00"),
            Phase::SpiceBlow => rule!("1.02.00"),
            Phase::Charity => rule!("1.03.00"),
            Phase::Bidding => rule!("1.04.00"),
            Phase::Revival => rule!("1.05.00"),
            Phase::Movement => rule!("1.06.00"),
            Phase::Battle => rule!("1.07.00"),
            Phase::Collection => rule!("1.08.00"),
            Phase::Mentat => rule!("1.09.00"),
        }
    }

    pub fn next(self) -> Option<Phase> {
        Some(match self {
            Phase::Setup => Phase::Storm,
            Phase::Storm => Phase::SpiceBlow,
            Phase::SpiceBlow => Phase::Charity,
            Phase::Charity => Phase::Bidding,
            Phase::Bidding => Phase::Revival,
            Phase::Revival => Phase::Movement,
            Phase::Movement => Phase::Battle,
            Phase::Battle => Phase::Collection,
            Phase::Collection => Phase::Mentat,
            Phase::Mentat => return None,
        })
    }
}

impl fmt::Display for Phase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The rule options stored in the log's header (rulings.md "Rulesets").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleOptions {
    /// The rulebook the game is played under: the GenCon rulebook (`gc-2.13.3`, 001) or the full
    /// rulebook's tournament format (`full`, 000). It decides which factions may sit down and
    /// which book a citation is read in.
    pub ruleset: Ruleset,
    /// Advanced game (1.13); the GenCon default.
    pub advanced: bool,
    /// Variant 4.02.
    pub shield_wall: bool,
    /// Variant 4.03.
    pub stronghold_cards: bool,
    /// 0.02: ten turns in tournament play.
    pub max_turns: u32,
    /// Which of the full rulebook's two printed texts applies where it runs two together
    /// (rulings.md 28; `[Edition "original"]`): the revised one by default.
    pub edition: Edition,
}

/// Where the full rulebook (000) prints two versions of a faction's rules (the Ixians' 2.07.18,
/// 2.07.21 and 2.07.22, CHOAM's two sheets, Richese's items 2.10.03, 2.10.07, 2.10.10, 2.10.15,
/// 2.10.19, 2.10.21, two Karama powers; the Ecaz and Moritani chapters), which one the game is
/// played with: one choice for every chapter (docs/notation.md, Decisions 72), the revised text
/// by default (rulings.md 28). The rule pages and citations use the same type.
pub use dune::Edition;

impl RuleOptions {
    /// The text a faction's chapter is played by: the game's edition, one choice for every
    /// chapter that prints two.
    pub fn edition_of(&self, _f: Faction) -> Edition {
        self.edition
    }
}

impl Default for RuleOptions {
    fn default() -> Self {
        RuleOptions {
            ruleset: Ruleset::Gc2133,
            advanced: true,
            shield_wall: true,
            stronghold_cards: true,
            max_turns: 10,
            edition: Edition::Revised,
        }
    }
}

/// Everything about one faction.
#[derive(Clone, Debug, Default)]
pub struct FactionState {
    /// Player circle 0-5 (rulings.md 2).
    pub(crate) circle: u8,
    /// Spice behind the shield.
    pub(crate) spice: Spice,
    /// Bribe spice in front of the shield (1.12.02), collected at the Mentat Pause.
    pub(crate) bribes: Spice,
    /// Off-planet reserves (for the Fremen: on-planet reserves off the board, 2.04.03).
    pub(crate) reserves: Forces,
    pub(crate) tanks: Forces,
    /// Treachery cards in hand; `None` for a card whose identity is not known.
    pub(crate) hand: Vec<Option<Card>>,
    /// Kept traitor cards, when the log gives them.
    pub(crate) traitors: Option<Vec<Option<Leader>>>,
    pub(crate) ally: Option<Faction>,
    /// The once-per-game faction Karama power has been used (1.13.06).
    pub(crate) karama_power_used: bool,
    /// Forces lost in battles, for the Kwisatz Haderach (2.01.10).
    pub(crate) battle_losses: u32,
    /// The faction's sheet (starting values, free revival, hand limit), set when it sits down.
    pub(crate) sheet: Sheet,
}

impl FactionState {
    /// Player circle 0-5 (rulings.md 2).
    pub fn circle(&self) -> u8 {
        self.circle
    }

    /// Spice behind the shield.
    pub fn spice(&self) -> Spice {
        self.spice
    }

    /// Bribe spice in front of the shield, not yet collected (1.12.02).
    pub fn bribes(&self) -> Spice {
        self.bribes
    }

    pub fn reserves(&self) -> Forces {
        self.reserves
    }

    pub fn tanks(&self) -> Forces {
        self.tanks
    }

    /// Treachery cards in hand; `None` for a card whose identity is not known.
    pub fn hand(&self) -> &[Option<Card>] {
        &self.hand
    }

    /// Kept traitor cards, when the log gives them (hidden information: audit mode only).
    pub fn traitors(&self) -> Option<&[Option<Leader>]> {
        self.traitors.as_deref()
    }

    pub fn ally(&self) -> Option<Faction> {
        self.ally
    }

    /// Forces lost in battles, for the Kwisatz Haderach (2.01.10).
    pub fn battle_losses(&self) -> u32 {
        self.battle_losses
    }

    pub fn sheet(&self) -> &Sheet {
        &self.sheet
    }

    /// Adds spice behind the shield (saturating: logged amounts are not trusted).
    pub fn gain(&mut self, n: Spice) {
        self.spice += n;
    }
}

/// The spice deck: which cards are still in it, and the two discard piles (1.13.02, 1.13.03).
#[derive(Clone, Debug)]
pub struct SpiceDeck {
    /// Cards left per territory (index = territory), plus Shai-Hulud.
    pub territory_cards: [u8; TERRITORY_COUNT],
    pub worms: u8,
    /// Discard piles, top card last.
    pub pile_a: Vec<SpiceDraw>,
    pub pile_b: Vec<SpiceDraw>,
    /// Turn-1 Shai-Hulud cards set aside (1.02.02).
    pub set_aside: u8,
}

/// A spice card once drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpiceDraw {
    Territory(Territory),
    Worm,
}

impl Default for SpiceDeck {
    fn default() -> Self {
        let mut territory_cards = [0; TERRITORY_COUNT];
        for t in Territory::all() {
            if t.spice_blow().is_some() {
                territory_cards[t.index()] = 1;
            }
        }
        SpiceDeck {
            territory_cards,
            worms: SHAI_HULUD_CARDS,
            pile_a: Vec::new(),
            pile_b: Vec::new(),
            set_aside: 0,
        }
    }
}

impl SpiceDeck {
    pub fn remaining(&self) -> u32 {
        self.territory_cards
            .iter()
            .map(|&c| u32::from(c))
            .sum::<u32>()
            + u32::from(self.worms)
    }

    /// Reshuffle (1.13.03): every discarded card goes back except the top-most territory card of
    /// pile A and anything above it.
    pub fn reshuffle(&mut self) {
        let keep_from = self
            .pile_a
            .iter()
            .rposition(|c| matches!(c, SpiceDraw::Territory(_)))
            .unwrap_or(self.pile_a.len());
        let back: Vec<SpiceDraw> = self
            .pile_a
            .drain(..keep_from)
            .chain(self.pile_b.drain(..))
            .collect();
        for c in back {
            match c {
                SpiceDraw::Territory(t) => self.territory_cards[t.index()] += 1,
                SpiceDraw::Worm => self.worms += 1,
            }
        }
    }

    /// Takes a card out of the deck; `false` when no such card is left in it.
    pub fn draw(&mut self, c: SpiceDraw) -> bool {
        let slot = match c {
            SpiceDraw::Territory(t) => &mut self.territory_cards[t.index()],
            SpiceDraw::Worm => &mut self.worms,
        };
        if *slot == 0 {
            false
        } else {
            *slot -= 1;
            true
        }
    }
}

/// The whole game state.
#[derive(Clone, Debug)]
pub struct GameState {
    pub(crate) options: RuleOptions,
    pub(crate) turn: u32,
    pub(crate) phase: Phase,
    /// `None` until the first storm is placed (0.16).
    pub(crate) storm: Option<Sector>,
    /// Where the Hidden Mobile Stronghold stands: the piece of the map (a territory and sector)
    /// its token points at (000 2.07.17); `None` until the Ixians deploy it after the first
    /// storm (2.07.04), and in a game without them.
    pub(crate) hms: Option<Piece>,
    /// Storm order for this turn (1.01.01): the factions in play, first player first.
    pub(crate) order: Vec<Faction>,
    /// Factions at the table.
    pub(crate) in_play: FactionSet,
    /// The same, as a list (the board's columns a pass over it reads).
    pub(crate) seated: Vec<Faction>,
    pub(crate) factions: [FactionState; Faction::COUNT],
    /// Tokens per piece and faction.
    pub(crate) board: Vec<[Stack; Faction::COUNT]>,
    /// Spice on each piece.
    pub(crate) spice: Vec<Spice>,
    pub(crate) leaders: [LeaderState; Leader::COUNT],
    /// Leaders killed at least once (a second death puts them face down, 1.05.04).
    pub(crate) died_once: [bool; Leader::COUNT],
    /// Captured leaders the prison break (2.05.11) sent home: the Harkonnen cannot put them on
    /// their wheel again unless they capture them again.
    pub(crate) freed: [bool; Leader::COUNT],
    /// The sets of treachery cards shuffled into the deck (3.01; an expansion's set in a full
    /// game with its factions, docs/notation.md Decisions).
    pub(crate) card_sets: Vec<CardSet>,
    pub(crate) treachery_deck: u32,
    pub(crate) treachery_discard: Vec<Card>,
    /// Cards set aside for good (Family Atomics, 3.01.07).
    pub(crate) treachery_removed: Vec<Card>,
    pub(crate) spice_deck: SpiceDeck,
    /// Worms counted for the Shield Wall (4.02.00, rulings.md 8).
    pub(crate) worms: u32,
    pub(crate) atomics_used: bool,
    /// The Kwisatz Haderach is in the tanks (killed in an explosion, 2.01.13; revived 2.01.14).
    pub(crate) kwisatz_dead: bool,
    /// Stronghold cards in front of shields (4.03), by [`Stronghold::index`].
    pub(crate) stronghold_cards: [Option<Faction>; Stronghold::ALL.len()],
    /// The two players who last used battle wheels (1.01.02).
    pub(crate) last_wheels: Option<[Faction; 2]>,
    /// A winner has been declared; the game is over.
    pub(crate) finished: bool,
    /// CHOAM's tokens and effects (000 2.09).
    pub(crate) choam: crate::factions::choam::ChoamState,
    /// Richese's cache and No-Field tokens (000 2.10).
    pub(crate) richese: crate::factions::richese::RicheseState,
    /// The spice the bank has paid into the game, net: to the players (their starting spice,
    /// charity, income, the spice paid for leaders, …), to the map (blows), less what went back
    /// (payments to the bank, spice the storm, a worm or an explosion destroys). Every spice
    /// behind a shield, in front of one or on the map came from it, so their sum equals this at
    /// every moment: the property tests hold the replay to it.
    pub(crate) bank_out: i64,
    /// The Free Traders' placement, revivals, auctions and Scrap Heap (000 2.13).
    pub(crate) free_traders: crate::factions::free_traders::FreeTradersState,
    /// Tokens that lie on the board and act later (ambassadors, terror tokens), wherever they
    /// are (`crate::tokens`).
    pub(crate) tokens: Vec<crate::tokens::Token>,
}

impl GameState {
    pub fn options(&self) -> &RuleOptions {
        &self.options
    }

    pub fn turn(&self) -> u32 {
        self.turn
    }

    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The storm's sector; `None` until the first storm is placed (0.16).
    pub fn storm(&self) -> Option<Sector> {
        self.storm
    }

    /// Where the Hidden Mobile Stronghold stands (000 2.07.17): the piece its token points at;
    /// `None` while it is not on the map.
    pub fn hms(&self) -> Option<Piece> {
        self.hms
    }

    /// The board's edge the game adds: the Hidden Mobile Stronghold joined to where it stands.
    pub fn link(&self) -> Option<Link> {
        let token = Territory::HiddenMobileStronghold.piece(None)?;
        self.hms.map(|host| Link { token, host })
    }

    /// Is this piece in the storm? A moving territory is where it stands: the Hidden Mobile
    /// Stronghold is in the storm when the sector it points at is (000 2.07.17); the Polar Sink
    /// never is (1.06.06).
    pub fn in_storm(&self, p: Piece) -> bool {
        match self.link() {
            Some(l) if p == l.token => l.host.in_storm(self.storm),
            _ => p.in_storm(self.storm),
        }
    }

    /// Do two territories share a border on the board as it stands (the Hidden Mobile
    /// Stronghold borders the territory it stands in)?
    pub fn borders(&self, a: Territory, b: Territory) -> bool {
        if a.neighbours().contains(&b) {
            return true;
        }
        let host = self.hms.map(|p| p.territory());
        (a.moves() && host == Some(b)) || (b.moves() && host == Some(a))
    }

    /// Is this territory on the map now? Every printed one is; a moving one once it is placed.
    pub fn on_map(&self, t: Territory) -> bool {
        !t.moves() || self.hms.is_some()
    }

    /// This turn's storm order, first player first (1.01.01).
    pub fn order(&self) -> &[Faction] {
        &self.order
    }

    /// The factions at the table.
    pub fn in_play(&self) -> FactionSet {
        self.in_play
    }

    /// Spice lying on one sector piece of the map.
    pub fn spice_at(&self, p: Piece) -> Spice {
        self.spice.get(p.index()).copied().unwrap_or_default()
    }

    /// Spice lying in every territory, by territory index, in one pass over the map.
    pub fn spice_by_territory(&self) -> [Spice; TERRITORY_COUNT] {
        let mut out = [Spice::ZERO; TERRITORY_COUNT];
        for (n, (t, _)) in self.spice.iter().zip(Piece::territories()) {
            out[t.index()] += *n;
        }
        out
    }

    /// Spice lying in a whole territory.
    pub fn spice_in(&self, t: Territory) -> Spice {
        t.pieces().iter().map(|&p| self.spice_at(p)).sum()
    }

    pub fn leader(&self, l: Leader) -> LeaderState {
        self.leaders[l.index()]
    }

    /// Worms counted for the Shield Wall (4.02.00, rulings.md 8).
    pub fn worms(&self) -> u32 {
        self.worms
    }

    /// The sets of treachery cards in this game's deck.
    pub fn card_sets(&self) -> &[CardSet] {
        &self.card_sets
    }

    /// Copies of a card in this game: the deck's (0 for a card of a set not in it) and those of
    /// Richese's cache (000 2.10.03).
    pub fn copies(&self, c: Card) -> u8 {
        c.copies_in(&self.card_sets) + self.richese.copies(c)
    }

    /// Cards left in the treachery deck.
    pub fn treachery_deck(&self) -> u32 {
        self.treachery_deck
    }

    pub fn treachery_discard(&self) -> &[Card] {
        &self.treachery_discard
    }

    /// A winner has been declared; the game is over.
    pub fn finished(&self) -> bool {
        self.finished
    }

    /// The spice the bank has paid into the game, net (see the field): the property tests
    /// check that it equals [`GameState::spice_in_game`] at every moment.
    pub fn bank_out(&self) -> i64 {
        self.bank_out
    }

    /// Every spice out of the bank: behind the shields, in front of them (bribes), on the map.
    pub fn spice_in_game(&self) -> i64 {
        let players: i64 = self
            .in_play
            .iter()
            .map(|f| i64::from(self.faction(f).spice.amount() + self.faction(f).bribes.amount()))
            .sum();
        let map: i64 = self.spice.iter().map(|s| i64::from(s.amount())).sum();
        players + map
    }

    pub fn new(options: RuleOptions, seated: Vec<Faction>) -> GameState {
        let in_play: FactionSet = seated.iter().copied().collect();
        // Only factions whose rules the engine checks sit down: the replay refuses the others
        // at the setup line.
        let in_play: FactionSet = in_play
            .iter()
            .filter(|&f| crate::factions::sheet(f).is_some())
            .collect();
        // A faction's sheet may depend on the edition played (CHOAM's two sheets, 000 2.09).
        let mut factions: [FactionState; Faction::COUNT] = Default::default();
        for f in in_play.iter() {
            let st = &mut factions[f.index()];
            if let Some(sheet) = crate::factions::sheet_for(f, &options) {
                st.sheet = *sheet;
                st.spice = sheet.spice;
                let starred = sheet.kinds.starred_count(options.advanced);
                st.reserves = Forces::new(FORCES_PER_FACTION - starred, starred);
            }
        }
        // The First Expansion's cards come with the Ixians and the Tleilaxu (000 3.02): in a
        // game of the full rulebook that seats either of them.
        let mut card_sets = vec![CardSet::Classic];
        if options.ruleset == Ruleset::Full
            && (in_play.contains(Faction::Ixians) || in_play.contains(Faction::Tleilaxu))
        {
            card_sets.push(CardSet::IxiansTleilaxu);
        }
        // The Third Expansion's cards (and the Millennial one) come with Ecaz and Moritani (000
        // 3.04, 3.05).
        if options.ruleset == Ruleset::Full
            && (in_play.contains(Faction::Ecaz) || in_play.contains(Faction::Moritani))
        {
            card_sets.push(CardSet::EcazMoritani);
            card_sets.push(CardSet::Millennial);
        }
        let pieces = Piece::count();
        // The starting spice comes from the bank (0.12).
        let bank_out = factions
            .iter()
            .map(|st: &FactionState| i64::from(st.spice.amount()))
            .sum();
        let richese = crate::factions::richese::RicheseState::new(
            &options,
            in_play.contains(Faction::Richese),
        );
        GameState {
            options,
            turn: 0,
            phase: Phase::Setup,
            storm: None,
            hms: None,
            order: seated,
            seated: in_play.iter().collect(),
            in_play,
            factions,
            board: vec![[Stack::default(); Faction::COUNT]; pieces],
            spice: vec![Spice::ZERO; pieces],
            leaders: std::array::from_fn(|i| {
                // Duke Vidal serves whoever an ability gives him to; he starts set aside
                // (000 2.11, 2.12).
                if LEADERS[i].leader == Leader::Vidal {
                    LeaderState::SetAside
                } else {
                    LeaderState::Pool(LEADERS[i].faction)
                }
            }),
            died_once: [false; Leader::COUNT],
            freed: [false; Leader::COUNT],
            treachery_deck: Card::all()
                .map(|c| u32::from(c.copies_in(&card_sets)))
                .sum(),
            card_sets,
            treachery_discard: Vec::new(),
            treachery_removed: Vec::new(),
            spice_deck: SpiceDeck::default(),
            worms: 0,
            atomics_used: false,
            kwisatz_dead: false,
            stronghold_cards: [None; Stronghold::ALL.len()],
            last_wheels: None,
            finished: false,
            choam: Default::default(),
            richese,
            free_traders: Default::default(),
            bank_out,
            tokens: Vec::new(),
        }
    }

    pub fn plays(&self, f: Faction) -> bool {
        self.in_play.contains(f)
    }

    pub fn faction(&self, f: Faction) -> &FactionState {
        &self.factions[f.index()]
    }

    pub fn faction_mut(&mut self, f: Faction) -> &mut FactionState {
        &mut self.factions[f.index()]
    }

    pub fn ally(&self, f: Faction) -> Option<Faction> {
        self.faction(f).ally
    }

    pub fn stack(&self, f: Faction, p: Piece) -> Stack {
        self.board[p.index()][f.index()]
    }

    pub fn stack_mut(&mut self, f: Faction, p: Piece) -> &mut Stack {
        &mut self.board[p.index()][f.index()]
    }

    /// A faction's tokens in a whole territory.
    pub fn in_territory(&self, f: Faction, t: Territory) -> Stack {
        let mut s = Stack::default();
        for row in &self.board[t.piece_range()] {
            s.add(row[f.index()]);
        }
        s
    }

    /// Factions with fighting (non-advisor) forces in a territory, without allocating.
    pub fn occupant_set(&self, t: Territory) -> FactionSet {
        let mut set = FactionSet::EMPTY;
        for row in &self.board[t.piece_range()] {
            for &f in &self.seated {
                let s = row[f.index()];
                if s.normal | s.starred != 0 {
                    set.insert(f);
                }
            }
        }
        set
    }

    /// [`GameState::occupant_set`] of every territory, in one pass over the board.
    pub fn occupant_sets(&self) -> [FactionSet; TERRITORY_COUNT] {
        let mut out = [FactionSet::EMPTY; TERRITORY_COUNT];
        for (row, (t, _)) in self.board.iter().zip(Piece::territories()) {
            let set = &mut out[t.index()];
            for &f in &self.seated {
                let s = row[f.index()];
                if s.normal | s.starred != 0 {
                    set.insert(f);
                }
            }
        }
        out
    }

    /// Factions with fighting (non-advisor) forces in a territory.
    pub fn occupants(&self, t: Territory) -> Vec<Faction> {
        self.occupant_set(t).iter().collect()
    }

    /// Factions with any token (advisors included) in a territory.
    pub fn present(&self, t: Territory) -> Vec<Faction> {
        self.in_play
            .iter()
            .filter(|&f| self.in_territory(f, t).total() > 0)
            .collect()
    }

    /// Every faction's tokens per territory, in one pass over the board (index = territory).
    pub fn territory_stacks(&self) -> [[Stack; Faction::COUNT]; TERRITORY_COUNT] {
        let mut out = [[Stack::default(); Faction::COUNT]; TERRITORY_COUNT];
        // Only the factions at the table have tokens: their columns, row by row.
        for (row, (t, _)) in self.board.iter().zip(Piece::territories()) {
            let acc = &mut out[t.index()];
            for &f in &self.seated {
                let i = f.index();
                let s = row[i];
                if !s.is_empty() {
                    acc[i].add(s);
                }
            }
        }
        out
    }

    /// Is this a stronghold already holding two other factions' forces (1.06.03.05)? The Shield
    /// Wall has no limit (4.02.03); advisors do not count (2.02.12).
    pub fn stronghold_full_for(&self, t: Territory, f: Faction) -> bool {
        if !t.is_stronghold() {
            return false;
        }
        let mut others = self.occupant_set(t);
        // A face-down No-Field token counts as a force for occupancy limits (000 2.10.11).
        if !self.richese.tokens.is_empty() && self.richese.tokens_in(t) > 0 {
            others.insert(Faction::Richese);
        }
        others.remove(f);
        others.len() >= 2
    }

    /// The revised Ecaz's ambassadors on the board or in reserve stand in its stacks (as plain
    /// tokens) but are not among its twenty forces (000 2.11.05 revised).
    fn ambassadors_in_stacks(&self, f: Faction) -> u32 {
        if self.options.edition_of(Faction::Ecaz) != Edition::Revised {
            return 0;
        }
        let n = self
            .tokens
            .iter()
            .filter(|k| {
                k.owner == f
                    && k.is_ambassador()
                    && matches!(
                        k.place,
                        crate::tokens::TokenPlace::Board(_) | crate::tokens::TokenPlace::Reserves
                    )
            })
            .count();
        u32::try_from(n).unwrap_or(u32::MAX)
    }

    /// Forces on the board, reserves and tanks: always 20 per faction in play.
    pub fn token_total(&self, f: Faction) -> u32 {
        let st = self.faction(f);
        let board: u32 = self
            .board
            .iter()
            .map(|row| u32::from(row[f.index()].total()))
            .sum();
        let ambassadors = self.ambassadors_in_stacks(f);
        (board + u32::from(st.reserves.total()) + u32::from(st.tanks.total()))
            .saturating_sub(ambassadors)
    }

    /// A faction's tokens of one kind on the board, in reserve and in the tanks (a token on its
    /// second side counts with the plain ones, the side it is printed on): the starred count is
    /// the sheet's and the plain count the rest of twenty, whatever happens.
    pub fn kind_total(&self, f: Faction, kind: ForceKind) -> u32 {
        let st = self.faction(f);
        let on_board = |s: &Stack| match kind {
            ForceKind::Plain => u32::from(s.normal) + u32::from(s.advisors),
            ForceKind::Starred => u32::from(s.starred),
            ForceKind::Flipped => 0,
        };
        let board: u32 = self.board.iter().map(|row| on_board(&row[f.index()])).sum();
        let ambassadors = if kind == ForceKind::Plain {
            self.ambassadors_in_stacks(f)
        } else {
            0
        };
        (board + u32::from(st.reserves.count(kind)) + u32::from(st.tanks.count(kind)))
            .saturating_sub(ambassadors)
    }

    /// Places reserves on a piece (no check).
    pub fn place_from_reserves(
        &mut self,
        f: Faction,
        p: Piece,
        c: ForceCount,
        advisor_default: bool,
    ) -> Forces {
        let want = Forces::from_count(c);
        let got = self.faction_mut(f).reserves.take(want);
        let advisors = match c.side {
            Side::Advisor => true,
            Side::Fighter => false,
            Side::Unspecified => advisor_default,
        };
        let two_sided = self.faction(f).sheet.kinds.two_sided();
        let s = self.stack_mut(f, p);
        if advisors && two_sided {
            s.advisors = s.advisors.saturating_add(got.total());
        } else {
            s.normal = s.normal.saturating_add(got.normal);
            s.starred = s.starred.saturating_add(got.starred);
        }
        got
    }

    /// Removes up to `want` tokens of a faction from one piece, fighters before advisors unless
    /// `advisors_first`; returns the stack removed.
    pub fn take_from_piece(&mut self, f: Faction, p: Piece, want: Forces, side: Side) -> Stack {
        let s = self.stack_mut(f, p);
        let starred = s.starred.min(want.starred);
        s.starred -= starred;
        let mut normal_left = want.normal;
        let mut out = Stack {
            normal: 0,
            starred,
            advisors: 0,
        };
        let order: [bool; 2] = if side == Side::Advisor {
            [true, false]
        } else {
            [false, true]
        };
        for advisors in order {
            let slot = if advisors {
                &mut s.advisors
            } else {
                &mut s.normal
            };
            let n = (*slot).min(normal_left);
            *slot -= n;
            normal_left -= n;
            if advisors {
                out.advisors += n;
            } else {
                out.normal += n;
            }
            if side != Side::Unspecified {
                break;
            }
        }
        out
    }

    /// Sends everything a faction has on a piece to the tanks; returns it.
    pub fn wipe_piece(&mut self, f: Faction, p: Piece) -> Stack {
        let s = std::mem::take(self.stack_mut(f, p));
        self.faction_mut(f).tanks.add(s.forces());
        s
    }

    /// Known copies of a card outside the deck (hands, discard pile, set aside).
    pub fn known_copies(&self, c: Card) -> usize {
        let in_hands: usize = self
            .factions
            .iter()
            .map(|st| st.hand.iter().filter(|h| **h == Some(c)).count())
            .sum();
        in_hands
            + self.treachery_discard.iter().filter(|&&d| d == c).count()
            + self.treachery_removed.iter().filter(|&&d| d == c).count()
    }

    /// Draws `n` treachery cards from the deck, reshuffling the discard pile in when it runs out
    /// (0.06). Returns how many could be drawn.
    pub fn draw_treachery(&mut self, n: u32) -> u32 {
        let mut drawn = 0;
        for _ in 0..n {
            if self.treachery_deck == 0 {
                self.treachery_deck = self.treachery_discard.len() as u32;
                self.treachery_discard.clear();
            }
            if self.treachery_deck == 0 {
                break;
            }
            self.treachery_deck -= 1;
            drawn += 1;
        }
        drawn
    }

    /// Every token (ambassadors, terror tokens), wherever it is.
    pub fn tokens(&self) -> &[crate::tokens::Token] {
        &self.tokens
    }

    /// The tokens lying in a territory.
    pub fn tokens_in(&self, t: Territory) -> impl Iterator<Item = &crate::tokens::Token> + '_ {
        self.tokens.iter().filter(move |k| k.territory() == Some(t))
    }

    /// Active leaders of a faction: those in its leader pool now (glossary; rulings.md 16).
    pub fn active_leaders(&self, f: Faction) -> Vec<Leader> {
        Leader::all()
            .filter(|l| self.leaders[l.index()] == LeaderState::Pool(f))
            .collect()
    }

    /// The strongholds a faction controls at this moment (glossary "Control"; advisors never
    /// control, rulings.md 14). The Shield Wall counts only once it is a stronghold (4.02).
    pub fn controller(&self, s: Stronghold) -> Option<Faction> {
        let occ: FactionSet = if s == Stronghold::ShieldWall {
            self.in_play
                .iter()
                .filter(|&f| self.occupies(f, s))
                .collect()
        } else {
            // Occupying is having fighting forces there.
            self.occupant_set(Territory::of(s))
        };
        match occ.len() {
            0 => None,
            1 => occ.iter().next(),
            // Several occupants control nothing, unless a faction's rules give the stronghold to
            // one of them (a stronghold Ecaz and its ally share, 000 2.11.20 original).
            _ => self.shared_control(s, occ).map(|(f, _)| f),
        }
    }

    /// A stronghold several factions occupy that a faction's rules give to one of them, and the
    /// rule (a stronghold Ecaz and its ally share, 000 2.11.20 original).
    pub(crate) fn shared_control(&self, s: Stronghold, occ: FactionSet) -> Option<(Faction, Rule)> {
        self.in_play
            .iter()
            .find_map(|g| crate::factions::rules(g).controls_shared(self, s, occ))
    }

    /// Does a faction occupy a stronghold: fighting forces (not advisors, 2.02.12) in it, and
    /// for the Shield Wall on its left side only (sector 9 in DGN, touching the Imperial Basin;
    /// 4.02.01, 4.02.06)? The one test behind control, victory and win attempts.
    pub fn occupies(&self, f: Faction, s: Stronghold) -> bool {
        let t = Territory::of(s);
        if s == Stronghold::ShieldWall {
            return t
                .piece(Sector::new(8))
                .is_some_and(|left| self.stack(f, left).fighting() > 0);
        }
        self.in_territory(f, t).fighting() > 0
    }

    /// Does the Shield Wall count as a stronghold (4.02.00; rulings.md 6, 8)?
    pub fn shield_wall_counts(&self) -> bool {
        self.options.shield_wall && self.worms >= 4
    }

    /// Strongholds that count for victory now: the Shield Wall after the fourth worm (4.02),
    /// the Hidden Mobile Stronghold while it is on the map (000 2.07.17).
    pub fn victory_strongholds(&self) -> impl Iterator<Item = Stronghold> + '_ {
        Stronghold::ALL.into_iter().filter(|&s| match s {
            Stronghold::ShieldWall => self.shield_wall_counts(),
            s => self.on_map(Territory::of(s)),
        })
    }

    /// Who holds a stronghold card (4.03), when the variant is played.
    pub fn stronghold_card_holder(&self, s: Stronghold) -> Option<Faction> {
        if !self.options.stronghold_cards {
            return None;
        }
        self.stronghold_cards[s.index()]
    }

    /// Position in this turn's storm order (0 = first player).
    pub fn order_index(&self, f: Faction) -> usize {
        self.order
            .iter()
            .position(|&o| o == f)
            .unwrap_or(usize::MAX)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn new_game_books_balance() {
        let g = GameState::new(RuleOptions::default(), Faction::CLASSIC.to_vec());
        for f in g.in_play.iter() {
            assert_eq!(g.token_total(f), 20);
        }
        assert_eq!(g.faction(Faction::Emperor).reserves, Forces::new(15, 5));
        assert_eq!(g.treachery_deck, 33);
        assert_eq!(g.spice_deck.remaining(), 21);
        assert_eq!(g.active_leaders(Faction::Fremen).len(), 5);
    }

    #[test]
    fn spice_deck_reshuffle_keeps_top_territory_card_of_pile_a() {
        let mut d = SpiceDeck::default();
        assert!(d.draw(SpiceDraw::Territory(Territory::SouthMesa)));
        assert!(!d.draw(SpiceDraw::Territory(Territory::SouthMesa)));
        assert!(d.draw(SpiceDraw::Territory(Territory::FuneralPlain)));
        assert!(d.draw(SpiceDraw::Worm));
        d.pile_a = vec![
            SpiceDraw::Territory(Territory::SouthMesa),
            SpiceDraw::Territory(Territory::FuneralPlain),
        ];
        d.pile_b = vec![SpiceDraw::Worm];
        d.reshuffle();
        assert_eq!(d.remaining(), 20);
        assert_eq!(
            d.pile_a,
            vec![SpiceDraw::Territory(Territory::FuneralPlain)]
        );
    }

    #[test]
    fn taking_forces_prefers_the_named_side() {
        let mut g = GameState::new(RuleOptions::default(), Faction::CLASSIC.to_vec());
        let p = Territory::PolarSink.piece(None).unwrap();
        *g.stack_mut(Faction::BeneGesserit, p) = Stack {
            normal: 2,
            starred: 0,
            advisors: 3,
        };
        let got = g.take_from_piece(Faction::BeneGesserit, p, Forces::new(2, 0), Side::Advisor);
        assert_eq!(
            got,
            Stack {
                normal: 0,
                starred: 0,
                advisors: 2
            }
        );
        let got = g.take_from_piece(
            Faction::BeneGesserit,
            p,
            Forces::new(3, 0),
            Side::Unspecified,
        );
        assert_eq!(
            got,
            Stack {
                normal: 2,
                starred: 0,
                advisors: 1
            }
        );
    }
}
