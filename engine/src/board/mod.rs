//! The map and the components as typed values, plus the graph computed from [`data`].

pub mod data;

use std::fmt;

use dune::{Rule, Stronghold};
use std::sync::OnceLock;

use data::{
    CARDS, CardRow, LEADERS, LeaderRow, PIECE_NEIGHBOURS, PS, TERRITORIES, TERRITORY_COUNT,
    TerritoryRow,
};
pub use data::{Card, CardKind, CardSet, Leader, Territory, TerritoryKind};

use dune::Faction;

/// Number of storm sectors.
pub const SECTORS: u8 = 18;

/// A storm sector, 0-17 counterclockwise from the Storm Start sector (board-data.md §1).
/// DGN writes it 1-18 ([`Sector::notation`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Sector(u8);

impl Sector {
    /// Sector 0-17; `None` outside that range.
    pub const fn new(n: u8) -> Option<Sector> {
        if n < SECTORS { Some(Sector(n)) } else { None }
    }

    /// From the 1-18 numbering used by DGN.
    pub const fn from_notation(n: u8) -> Option<Sector> {
        if n >= 1 && n <= SECTORS {
            Some(Sector(n - 1))
        } else {
            None
        }
    }

    /// The 1-18 number judges see.
    pub const fn notation(self) -> u8 {
        self.0 + 1
    }

    /// The 0-17 index.
    pub const fn index(self) -> u8 {
        self.0
    }

    /// The sector `steps` sectors counterclockwise from this one.
    pub const fn advance(self, steps: u32) -> Sector {
        Sector(((self.0 as u32 + steps) % SECTORS as u32) as u8)
    }

    /// The storm start sector (0.16).
    pub const START: Sector = Sector(data::STORM_START);
}

/// Board items serialise as judges write them: territories, leaders and cards by their DGN
/// codes, sectors by their DGN number (1-18).
macro_rules! serialize_as {
    ($t:ty, $v:ident => $e:expr) => {
        impl serde::Serialize for $t {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                let $v = *self;
                s.serialize_str(&$e)
            }
        }
    };
}
serialize_as!(Territory, t => t.code());
serialize_as!(Leader, l => l.code());
serialize_as!(Card, c => c.code());

impl serde::Serialize for Sector {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u8(self.notation())
    }
}

impl fmt::Display for Sector {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.notation())
    }
}

impl Territory {
    /// Every territory in table order: the 42 of the map, then the Hidden Mobile Stronghold.
    pub fn all() -> impl Iterator<Item = Territory> {
        TERRITORIES.iter().map(|r| r.territory)
    }

    pub fn index(self) -> usize {
        self as usize
    }

    pub fn info(self) -> &'static TerritoryRow {
        &TERRITORIES[self.index()]
    }

    pub fn code(self) -> &'static str {
        self.info().code
    }

    pub fn name(self) -> &'static str {
        self.info().name
    }

    pub fn kind(self) -> TerritoryKind {
        self.info().kind
    }

    pub fn is_stronghold(self) -> bool {
        self.kind() == TerritoryKind::Stronghold
    }

    /// The stronghold this territory is, the Shield Wall included (a stronghold only under 4.02,
    /// after the fourth worm). The one map between [`Stronghold`] and the board.
    pub fn stronghold(self) -> Option<Stronghold> {
        Stronghold::ALL
            .into_iter()
            .find(|&s| Territory::of(s) == self)
    }

    /// The territory of a stronghold.
    pub const fn of(s: Stronghold) -> Territory {
        match s {
            Stronghold::Arrakeen => Territory::Arrakeen,
            Stronghold::Carthag => Territory::Carthag,
            Stronghold::TueksSietch => Territory::TueksSietch,
            Stronghold::SietchTabr => Territory::SietchTabr,
            Stronghold::HabbanyaSietch => Territory::HabbanyaSietch,
            Stronghold::ShieldWall => Territory::ShieldWall,
            Stronghold::HiddenMobileStronghold => Territory::HiddenMobileStronghold,
        }
    }

    /// Sand territories (Imperial Basin included) are where worms strike (1.02.05).
    pub fn is_sand(self) -> bool {
        self.kind() == TerritoryKind::Sand
    }

    /// Does the storm destroy forces here (1.01.03, 3.01.07)?
    pub fn storm_hits(self, atomics_used: bool) -> bool {
        let info = self.info();
        if info.shielded_by_wall {
            atomics_used
        } else {
            info.kind == TerritoryKind::Sand
        }
    }

    /// Sectors this territory lies in.
    pub fn sectors(self) -> impl Iterator<Item = Sector> + Clone {
        self.info().sectors.iter().map(|&s| Sector(s))
    }

    /// Does the territory lie in the given sector?
    pub fn has_sector(self, s: Sector) -> bool {
        self.info().sectors.contains(&s.0)
    }

    /// The only sector of a one-sector territory.
    pub fn single_sector(self) -> Option<Sector> {
        match self.info().sectors {
            [s] => Some(Sector(*s)),
            _ => None,
        }
    }

    /// Spice-blow marker (sector, amount), if the territory has a spice card.
    pub fn spice_blow(self) -> Option<(Sector, u8)> {
        self.info().blow.map(|(s, a)| (Sector(s), a))
    }

    /// Parses a DGN territory code (`ARK`, `SM`, …).
    pub fn from_code(code: &str) -> Option<Territory> {
        TERRITORIES
            .iter()
            .find(|r| r.code == code)
            .map(|r| r.territory)
    }

    /// Territory-level neighbours.
    pub fn neighbours(self) -> &'static [Territory] {
        &board().territory_neighbours[self.index()]
    }

    /// Indices of this territory's pieces: they are numbered consecutively, territory by
    /// territory, so a territory's pieces are `start..end`.
    pub fn piece_range(self) -> std::ops::Range<usize> {
        let (a, b) = board().territory_range[self.index()];
        usize::from(a)..usize::from(b)
    }

    /// The pieces (territory, sector) of this territory.
    pub fn pieces(self) -> &'static [Piece] {
        &board().territory_pieces[self.index()]
    }

    /// The piece in a given sector, or the only piece of a territory in no sector (the Polar
    /// Sink, the Hidden Mobile Stronghold).
    pub fn piece(self, s: Option<Sector>) -> Option<Piece> {
        let b = board();
        match s {
            None if self.info().sectors.is_empty() => {
                b.territory_pieces[self.index()].first().copied()
            }
            None => None,
            Some(s) => b.piece_at[self.index()][s.0 as usize],
        }
    }

    /// A token rather than a printed place: where it stands is the game's state (the Hidden
    /// Mobile Stronghold, 000 2.07.17).
    pub fn moves(self) -> bool {
        self == Territory::HiddenMobileStronghold
    }

    /// Territory-level distance (number of borders crossed), ignoring the storm; `u8::MAX`
    /// between places no path joins (the Hidden Mobile Stronghold's borders are the game's).
    pub fn distance(self, other: Territory) -> u8 {
        board().distance[self.index()][other.index()]
    }
}

impl fmt::Display for Territory {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// One territory piece: a territory in one sector (the Polar Sink has one piece, in no sector).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Piece(u8);

impl Piece {
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// The piece with this index (see [`Piece::index`]); indices run `0..Piece::count()`.
    pub fn from_index(i: usize) -> Piece {
        Piece(u8::try_from(i).unwrap_or(u8::MAX))
    }

    pub fn territory(self) -> Territory {
        board().pieces[self.index()].0
    }

    pub fn sector(self) -> Option<Sector> {
        board().pieces[self.index()].1
    }

    /// Is this piece in the storm sector? The Polar Sink never is (1.06.06).
    pub fn in_storm(self, storm: Option<Sector>) -> bool {
        match (self.sector(), storm) {
            (Some(s), Some(st)) => s == st,
            _ => false,
        }
    }

    pub fn neighbours(self) -> &'static [Piece] {
        &board().piece_neighbours[self.index()]
    }

    /// The territory of every piece, by piece index (for a pass over the whole board).
    pub fn territories() -> &'static [(Territory, Option<Sector>)] {
        &board().pieces
    }

    /// Every piece of the map.
    pub fn all() -> impl Iterator<Item = Piece> {
        (0..board().pieces.len()).map(|i| Piece(i as u8))
    }

    /// Number of pieces on the map.
    pub fn count() -> usize {
        board().pieces.len()
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.sector() {
            Some(s) if self.territory().info().sectors.len() > 1 => {
                write!(f, "{}/{}", self.territory(), s)
            }
            _ => write!(f, "{}", self.territory()),
        }
    }
}

impl Card {
    pub fn info(self) -> &'static CardRow {
        &CARDS[self as usize]
    }

    pub fn code(self) -> &'static str {
        self.info().code
    }

    pub fn kind(self) -> CardKind {
        self.info().kind
    }

    /// Copies in the classic deck, or in its own set (see [`Card::copies_in`]).
    pub fn copies(self) -> u8 {
        self.info().copies
    }

    /// The set that brings the card into the deck.
    pub fn set(self) -> CardSet {
        self.info().set
    }

    /// Copies in a deck made of `sets` (0 for a card of a set not in it): the card's own and
    /// those other sets add (000 3.02.09: a fifth Shield).
    pub fn copies_in(self, sets: &[CardSet]) -> u8 {
        let own = if sets.contains(&self.set()) {
            self.copies()
        } else {
            0
        };
        let extra: u8 = data::EXTRA_COPIES
            .iter()
            .filter(|(set, c, _, _)| *c == self && sets.contains(set))
            .map(|(_, _, n, _)| n)
            .sum();
        own + extra
    }

    /// The card's rule number: 001's for the classic deck, 000's for the expansions' cards.
    pub fn rule(self) -> Rule {
        self.info().rule
    }

    pub fn all() -> impl Iterator<Item = Card> {
        CARDS.iter().map(|r| r.card)
    }

    /// Parses a DGN card name. `CheapHeroine` is the same card as `CheapHero` (3.01.04).
    pub fn from_code(code: &str) -> Option<Card> {
        if code == "CheapHeroine" {
            return Some(Card::CheapHero);
        }
        CARDS.iter().find(|r| r.code == code).map(|r| r.card)
    }

    pub fn is_weapon(self) -> bool {
        matches!(
            self.kind(),
            CardKind::WeaponPoison | CardKind::WeaponProjectile | CardKind::WeaponSpecial
        )
    }

    pub fn is_defense(self) -> bool {
        matches!(
            self.kind(),
            CardKind::DefensePoison | CardKind::DefenseProjectile | CardKind::DefenseSpecial
        )
    }
}

impl CardSet {
    /// For messages: the set and where the rulebook lists it.
    pub fn name(self) -> &'static str {
        match self {
            CardSet::Classic => "the classic deck (3.01)",
            CardSet::IxiansTleilaxu => "the Ixians & Tleilaxu expansion (000 3.02)",
            CardSet::ChoamRichese => "Richese's cache, the CHOAM & Richese expansion (000 3.03)",
            CardSet::EcazMoritani => "the Ecaz & Moritani expansion (000 3.04)",
            CardSet::Millennial => "the Millennial expansion (000 3.05)",
        }
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

impl Leader {
    /// How many leaders there are: the length of a per-leader array.
    pub const COUNT: usize = LEADERS.len();

    pub fn info(self) -> &'static LeaderRow {
        &LEADERS[self as usize]
    }

    pub fn index(self) -> usize {
        self as usize
    }

    pub fn code(self) -> &'static str {
        self.info().code
    }

    pub fn faction(self) -> Faction {
        self.info().faction
    }

    pub fn strength(self) -> u8 {
        self.info().strength
    }

    pub fn all() -> impl Iterator<Item = Leader> {
        LEADERS.iter().map(|r| r.leader)
    }

    /// The leaders of one faction.
    pub fn of(f: Faction) -> impl Iterator<Item = Leader> {
        Leader::all().filter(move |l| l.faction() == f)
    }

    /// Parses a DGN leader short name (`Jessica`, `Bashar`, …).
    pub fn from_code(code: &str) -> Option<Leader> {
        LEADERS.iter().find(|r| r.code == code).map(|r| r.leader)
    }
}

impl fmt::Display for Leader {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// A moving territory's piece (`token`) and the piece of the map it stands in (`host`): the edge
/// the game's state adds to the board (the Hidden Mobile Stronghold, 000 2.07.17).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Link {
    pub token: Piece,
    pub host: Piece,
}

/// The map as a graph, computed once from the tables in [`data`].
#[derive(Debug)]
pub struct Board {
    pieces: Vec<(Territory, Option<Sector>)>,
    piece_at: Vec<[Option<Piece>; SECTORS as usize]>,
    piece_neighbours: Vec<Vec<Piece>>,
    territory_pieces: Vec<Vec<Piece>>,
    territory_range: Vec<(u8, u8)>,
    territory_neighbours: Vec<Vec<Territory>>,
    distance: Vec<[u8; TERRITORY_COUNT]>,
}

/// The board graph. Built on first use; the tables it is built from are checked by the tests.
pub fn board() -> &'static Board {
    static BOARD: OnceLock<Board> = OnceLock::new();
    BOARD.get_or_init(Board::build)
}

impl Board {
    fn build() -> Board {
        let mut pieces = Vec::new();
        let mut piece_at = vec![[None; SECTORS as usize]; TERRITORIES.len()];
        let mut territory_pieces = vec![Vec::new(); TERRITORIES.len()];
        for row in TERRITORIES.iter() {
            let t = row.territory;
            if row.sectors.is_empty() {
                let p = Piece(pieces.len() as u8);
                pieces.push((t, None));
                territory_pieces[t.index()].push(p);
            }
            for &s in row.sectors {
                let p = Piece(pieces.len() as u8);
                pieces.push((t, Some(Sector(s))));
                piece_at[t.index()][s as usize] = Some(p);
                territory_pieces[t.index()].push(p);
            }
        }
        let territory_range = territory_pieces
            .iter()
            .map(|ps: &Vec<Piece>| {
                (
                    ps.first().map_or(0, |p| p.0),
                    ps.last().map_or(0, |p| p.0 + 1),
                )
            })
            .collect();
        let lookup = |t: Territory, s: u8| -> Option<Piece> {
            if s == PS {
                TERRITORIES[t.index()]
                    .sectors
                    .is_empty()
                    .then(|| territory_pieces[t.index()].first().copied())
                    .flatten()
            } else {
                piece_at[t.index()].get(s as usize).copied().flatten()
            }
        };
        let mut piece_neighbours = vec![Vec::new(); pieces.len()];
        for &(t, s, ns) in PIECE_NEIGHBOURS {
            // Entries naming pieces that do not exist are reported by the consistency test.
            let Some(p) = lookup(t, s) else { continue };
            for &(nt, nsec) in ns {
                if let Some(q) = lookup(nt, nsec) {
                    piece_neighbours[p.index()].push(q);
                }
            }
        }
        let mut territory_neighbours = vec![Vec::new(); TERRITORIES.len()];
        for (i, ns) in piece_neighbours.iter().enumerate() {
            let t = pieces[i].0;
            for q in ns {
                let u = pieces[q.index()].0;
                if u != t && !territory_neighbours[t.index()].contains(&u) {
                    territory_neighbours[t.index()].push(u);
                }
            }
        }
        for ns in territory_neighbours.iter_mut() {
            ns.sort();
        }
        let mut distance = vec![[u8::MAX; TERRITORY_COUNT]; TERRITORIES.len()];
        for (start, row) in distance.iter_mut().enumerate() {
            let mut queue = std::collections::VecDeque::new();
            row[start] = 0;
            queue.push_back(start);
            while let Some(t) = queue.pop_front() {
                let d = row[t];
                for u in &territory_neighbours[t] {
                    if row[u.index()] == u8::MAX {
                        row[u.index()] = d + 1;
                        queue.push_back(u.index());
                    }
                }
            }
        }
        Board {
            pieces,
            piece_at,
            piece_neighbours,
            territory_pieces,
            territory_range,
            territory_neighbours,
            distance,
        }
    }

    /// Fewest borders a group must cross to go from any of `from` to `to`, never entering or
    /// leaving a piece in the storm (1.06.05.06) and never entering a territory for which
    /// `blocked` is true (full strongholds, 1.06.05.09). `None` when no path exists.
    pub fn path_cost(
        &self,
        from: &[Piece],
        to: Piece,
        storm: Option<Sector>,
        blocked: impl Fn(Territory) -> bool,
    ) -> Option<u8> {
        self.path_cost_linked(from, to, storm, blocked, None)
    }

    /// [`Board::path_cost`] on the board as it stands: `link` joins a moving territory's piece to
    /// the piece it stands in (the Hidden Mobile Stronghold, 000 2.07.17), one border apart; it
    /// is in the storm when that piece is.
    pub fn path_cost_linked(
        &self,
        from: &[Piece],
        to: Piece,
        storm: Option<Sector>,
        blocked: impl Fn(Territory) -> bool,
        link: Option<Link>,
    ) -> Option<u8> {
        let n = self.pieces.len();
        let in_storm = |p: Piece| match link {
            Some(l) if p == l.token => l.host.in_storm(storm),
            _ => p.in_storm(storm),
        };
        let mut dist = [u8::MAX; 128];
        let mut deque = std::collections::VecDeque::with_capacity(n);
        for &p in from {
            if in_storm(p) {
                continue;
            }
            dist[p.index()] = 0;
            deque.push_back(p);
        }
        while let Some(p) = deque.pop_front() {
            let d = dist[p.index()];
            if p == to {
                return Some(d);
            }
            let pt = self.pieces[p.index()].0;
            let linked = link.and_then(|l| {
                if p == l.token {
                    Some(l.host)
                } else if p == l.host {
                    Some(l.token)
                } else {
                    None
                }
            });
            for &q in self.piece_neighbours[p.index()]
                .iter()
                .chain(linked.as_ref())
            {
                let qt = self.pieces[q.index()].0;
                if in_storm(q) {
                    continue;
                }
                let cost = u8::from(qt != pt);
                if cost == 1 && blocked(qt) {
                    continue;
                }
                let nd = d + cost;
                if nd < dist[q.index()] {
                    dist[q.index()] = nd;
                    if cost == 0 {
                        deque.push_front(q);
                    } else {
                        deque.push_back(q);
                    }
                }
            }
        }
        None
    }

    /// Are two pieces of the same territory connected without crossing the storm (1.07.01.00)?
    /// Two groups in the same stormed sector are connected (battling blind, 1.07.01.01).
    pub fn connected_within(&self, a: Piece, b: Piece, storm: Option<Sector>) -> bool {
        if a == b {
            return true;
        }
        if a.in_storm(storm) || b.in_storm(storm) {
            return false;
        }
        let t = self.pieces[a.index()].0;
        let mut seen = [false; 128];
        let mut stack = vec![a];
        seen[a.index()] = true;
        while let Some(p) = stack.pop() {
            if p == b {
                return true;
            }
            for &q in &self.piece_neighbours[p.index()] {
                if self.pieces[q.index()].0 == t && !seen[q.index()] && !q.in_storm(storm) {
                    seen[q.index()] = true;
                    stack.push(q);
                }
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::data::*;
    use super::*;
    use std::collections::BTreeSet;

    #[test]
    fn territory_table_is_indexed_by_enum() {
        assert_eq!(TERRITORIES.len(), TERRITORY_COUNT);
        for (i, r) in TERRITORIES.iter().enumerate() {
            assert_eq!(
                r.territory as usize, i,
                "row {i} ({}) is out of order",
                r.name
            );
        }
        let codes: BTreeSet<_> = TERRITORIES.iter().map(|r| r.code).collect();
        assert_eq!(
            codes.len(),
            TERRITORY_COUNT,
            "territory codes must be unique"
        );
        let kinds = |k| TERRITORIES.iter().filter(|r| r.kind == k).count();
        assert_eq!(
            kinds(TerritoryKind::Stronghold),
            6,
            "the five of the map and the Hidden Mobile Stronghold"
        );
        assert_eq!(kinds(TerritoryKind::Rock), 7);
        assert_eq!(
            kinds(TerritoryKind::Sand),
            29,
            "28 sand territories and the Imperial Basin"
        );
        assert_eq!(kinds(TerritoryKind::PolarSink), 1);
    }

    #[test]
    fn sectors_are_valid_and_every_sector_is_covered() {
        let mut covered = [false; 18];
        for r in TERRITORIES.iter() {
            for &s in r.sectors {
                assert!(s < SECTORS, "{} lists sector {s}", r.name);
                covered[s as usize] = true;
            }
            if let Some((s, _)) = r.blow {
                assert!(
                    r.sectors.contains(&s),
                    "{}'s spice blow sector {s} is not one of its sectors",
                    r.name
                );
                assert_eq!(
                    r.kind,
                    TerritoryKind::Sand,
                    "{} has spice but is not sand",
                    r.name
                );
            }
        }
        assert!(covered.iter().all(|c| *c));
        assert_eq!(
            Piece::count(),
            87,
            "86 on the map and the Hidden Mobile Stronghold's"
        );
    }

    #[test]
    fn spice_deck_has_118_spice_on_15_cards() {
        let blows: Vec<_> = TERRITORIES.iter().filter_map(|r| r.blow).collect();
        assert_eq!(blows.len(), 15);
        assert_eq!(blows.iter().map(|(_, a)| u32::from(*a)).sum::<u32>(), 118);
        assert_eq!(SHAI_HULUD_CARDS, 6);
    }

    #[test]
    fn treachery_deck_has_33_cards() {
        for (i, r) in CARDS.iter().enumerate() {
            assert_eq!(r.card as usize, i);
            assert_eq!(Card::from_code(r.code), Some(r.card));
        }
        let deck = |sets: &[CardSet]| {
            Card::all()
                .map(|c| u32::from(c.copies_in(sets)))
                .sum::<u32>()
        };
        assert_eq!(deck(&[CardSet::Classic]), 33);
        // board-data.md §4.2: the Ixians & Tleilaxu expansion makes a deck of 47.
        assert_eq!(deck(&[CardSet::Classic, CardSet::IxiansTleilaxu]), 47);
        assert_eq!(
            Card::Shield.copies_in(&[CardSet::Classic, CardSet::IxiansTleilaxu]),
            5
        );
        assert_eq!(Card::Chemistry.copies_in(&[CardSet::Classic]), 0);
        let count = |f: fn(&CardRow) -> bool| {
            CARDS
                .iter()
                .filter(|r| r.set == CardSet::Classic && f(r))
                .map(|r| r.copies)
                .sum::<u8>()
        };
        assert_eq!(count(|r| r.card.is_weapon()), 9);
        assert_eq!(count(|r| r.card.is_defense()), 8);
        assert_eq!(count(|r| r.kind == CardKind::Worthless), 5);
    }

    #[test]
    fn leaders_five_per_faction_with_unique_names() {
        for (i, r) in LEADERS.iter().enumerate() {
            assert_eq!(r.leader as usize, i);
            assert_eq!(Leader::from_code(r.code), Some(r.leader));
        }
        for f in Faction::CLASSIC
            .into_iter()
            .chain([Faction::Ixians, Faction::Tleilaxu])
        {
            assert_eq!(Leader::of(f).count(), 5, "{f}");
        }
        // Ecaz's five and Duke Vidal, the neutral leader kept with them; Moritani's five.
        assert_eq!(Leader::of(Faction::Ecaz).count(), 6);
        assert_eq!(Leader::of(Faction::Moritani).count(), 5);
        assert_eq!(Leader::Stilgar.strength(), 7);
        assert_eq!(Leader::Fenring.faction(), Faction::Emperor);
    }

    fn piece_entry(t: Territory, s: u8) -> Option<Piece> {
        t.piece(if s == PS { None } else { Some(Sector::new(s)?) })
    }

    #[test]
    fn piece_table_names_existing_pieces_once_each() {
        let mut seen = BTreeSet::new();
        for &(t, s, ns) in PIECE_NEIGHBOURS {
            let p = piece_entry(t, s)
                .unwrap_or_else(|| panic!("{} has no piece in sector {s}", t.name()));
            assert!(seen.insert(p), "piece {p} listed twice");
            for &(nt, nsec) in ns {
                assert!(
                    piece_entry(nt, nsec).is_some(),
                    "{p} lists {} in sector {nsec}, which does not exist",
                    nt.name()
                );
            }
        }
        assert_eq!(seen.len(), Piece::count(), "every piece needs a row");
    }

    #[test]
    fn piece_adjacency_is_symmetric() {
        for p in Piece::all() {
            for &q in p.neighbours() {
                assert_ne!(p, q, "{p} is listed as its own neighbour");
                assert!(
                    q.neighbours().contains(&p),
                    "{p} lists {q} but {q} does not list {p}"
                );
            }
        }
    }

    #[test]
    fn territory_borders_are_symmetric_and_match_piece_adjacency() {
        for &(t, ns) in BORDERS.iter() {
            let listed: BTreeSet<_> = ns.iter().copied().collect();
            let derived: BTreeSet<_> = t.neighbours().iter().copied().collect();
            assert_eq!(
                listed,
                derived,
                "borders of {} disagree with the piece table",
                t.name()
            );
            for &u in ns {
                assert!(
                    BORDERS[u.index()].1.contains(&t),
                    "{} lists {} but not the reverse",
                    t.name(),
                    u.name()
                );
            }
        }
    }

    #[test]
    fn pieces_of_a_territory_are_connected_and_every_piece_is_reachable() {
        for t in Territory::all() {
            let pieces = t.pieces();
            for &p in pieces {
                assert!(
                    board().connected_within(pieces[0], p, None),
                    "{p} is cut off from the rest of {}",
                    t.name()
                );
            }
        }
        let start = Territory::PolarSink.piece(None).unwrap();
        for p in Piece::all().filter(|p| !p.territory().moves()) {
            assert!(
                board().path_cost(&[start], p, None, |_| false).is_some(),
                "{p} is unreachable"
            );
        }
    }

    #[test]
    fn storm_and_path_rules_on_the_real_map() {
        let b = board();
        let ark = Territory::Arrakeen.piece(Sector::new(9)).unwrap();
        let ib9 = Territory::ImperialBasin.piece(Sector::new(9)).unwrap();
        let tuk = Territory::TueksSietch.piece(Sector::new(4)).unwrap();
        assert_eq!(b.path_cost(&[ark], ib9, None, |_| false), Some(1));
        // Tuek's Sietch -> Pasty Mesa -> Shield Wall -> Imperial Basin (the 1.06.05.04 example).
        assert_eq!(b.path_cost(&[tuk], ib9, None, |_| false), Some(3));
        // A storm on sector 9 (0-17) cuts Arrakeen off.
        assert_eq!(b.path_cost(&[ark], ib9, Sector::new(9), |_| false), None);
        assert!(Territory::ImperialBasin.is_sand());
        assert!(!Territory::ImperialBasin.storm_hits(false));
        assert!(Territory::ImperialBasin.storm_hits(true));
        assert!(!Territory::ShieldWall.storm_hits(true));
        assert_eq!(Territory::TheGreatFlat.distance(Territory::FuneralPlain), 1);
        assert_eq!(Sector::from_notation(1), Some(Sector::START));
        assert_eq!(Sector::new(16).unwrap().advance(3).notation(), 2);
    }

    #[test]
    fn the_hidden_mobile_stronghold_is_one_border_from_where_it_stands() {
        let b = board();
        let hms = Territory::HiddenMobileStronghold.piece(None).unwrap();
        assert!(hms.sector().is_none() && Territory::HiddenMobileStronghold.is_stronghold());
        let gf = Territory::TheGreatFlat.piece(Sector::new(14)).unwrap();
        let fp = Territory::FuneralPlain.piece(Sector::new(14)).unwrap();
        // Off the map it borders nothing; standing in the Great Flat it is a territory inside it.
        assert_eq!(b.path_cost(&[hms], gf, None, |_| false), None);
        let link = Some(Link {
            token: hms,
            host: gf,
        });
        assert_eq!(
            b.path_cost_linked(&[hms], gf, None, |_| false, link),
            Some(1)
        );
        assert_eq!(
            b.path_cost_linked(&[hms], fp, None, |_| false, link),
            Some(2)
        );
        assert_eq!(
            b.path_cost_linked(&[fp], hms, None, |_| false, link),
            Some(2)
        );
        // It is in the storm when the sector it points at is.
        assert_eq!(
            b.path_cost_linked(&[hms], fp, Sector::new(14), |_| false, link),
            None
        );
    }
}
