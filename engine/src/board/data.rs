//! Component data for the GF9 *Dune* board and decks: the one place a judge corrects the map.
//!
//! Everything here comes from `shared/reference/board-data.md` (three independent implementations
//! that agree). Sectors are numbered **0-17** counterclockwise from the Storm Start sector, as in
//! that file; DGN shows them to judges as 1-18 (see `docs/notation.md`). If the physical board says
//! otherwise, edit the tables below: `cargo test -p engine board` checks that they stay consistent
//! (symmetric adjacency, territory borders = the projection of sector-piece adjacency, every piece
//! reachable, 15 spice cards with 118 spice, 33 classic treachery cards, 30 classic leaders).

use dune::Faction;
use dune::{Rule, rule};

/// The 42 territories of the map, in treachery.online's order (its territory ids 0-41), then
/// the territories that are tokens rather than printed places: their place on the map is the
/// game's state (`GameState::hms`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Territory {
    PolarSink,
    ImperialBasin,
    Carthag,
    Arrakeen,
    TueksSietch,
    SietchTabr,
    HabbanyaSietch,
    CielagoNorth,
    CielagoDepression,
    Meridian,
    CielagoSouth,
    CielagoEast,
    HargPass,
    FalseWallSouth,
    FalseWallEast,
    TheMinorErg,
    PastyMesa,
    RedChasm,
    SouthMesa,
    Basin,
    RimWallWest,
    HoleInTheRock,
    SihayaRidge,
    ShieldWall,
    GaraKulon,
    OldGap,
    BrokenLand,
    Tsimpo,
    Arsunt,
    RockOutcroppings,
    PlasticBasin,
    HaggaBasin,
    BightOfTheCliff,
    FuneralPlain,
    TheGreatFlat,
    WindPass,
    TheGreaterFlat,
    HabbanyaErg,
    FalseWallWest,
    WindPassNorth,
    HabbanyaRidgeFlat,
    CielagoWest,
    /// 000 2.07.17: the Ixians' Hidden Mobile Stronghold, a territory within the territory and
    /// sector its token points at (treachery.online's territory 42). It has no sector and no
    /// border of its own: the game's state says where it stands.
    HiddenMobileStronghold,
}

use Territory::*;

/// Rows in the territory table: the 42 of the map and the Hidden Mobile Stronghold.
pub const TERRITORY_COUNT: usize = 43;

/// How the storm and worms treat a territory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TerritoryKind {
    /// Counts for victory; protected from storm and worms.
    Stronghold,
    /// Protected from storm and worms.
    Rock,
    /// Storm and worms destroy forces here; spice blows here.
    Sand,
    /// In no sector, never in storm, no battles.
    PolarSink,
}
use TerritoryKind::{PolarSink as Polar, Rock, Sand, Stronghold};

/// One row of the territory table.
#[derive(Clone, Copy, Debug)]
pub struct TerritoryRow {
    pub territory: Territory,
    /// DGN code, e.g. `ARK`.
    pub code: &'static str,
    pub name: &'static str,
    pub kind: TerritoryKind,
    /// Sectors 0-17 the territory lies in (empty for the Polar Sink).
    pub sectors: &'static [u8],
    /// Spice-blow marker: (sector 0-17, amount on the spice card).
    pub blow: Option<(u8, u8)>,
    /// Protected from the storm by the Shield Wall only until Family Atomics (3.01.07).
    pub shielded_by_wall: bool,
}

#[allow(clippy::too_many_arguments)]
const fn row(
    territory: Territory,
    code: &'static str,
    name: &'static str,
    kind: TerritoryKind,
    sectors: &'static [u8],
    blow: Option<(u8, u8)>,
    shielded_by_wall: bool,
) -> TerritoryRow {
    TerritoryRow {
        territory,
        code,
        name,
        kind,
        sectors,
        blow,
        shielded_by_wall,
    }
}

/// The territory table (board-data.md §2), indexed by `Territory as usize`.
#[rustfmt::skip]
pub const TERRITORIES: [TerritoryRow; TERRITORY_COUNT] = [
    row(PolarSink, "PS", "Polar Sink", Polar, &[], None, false),
    row(ImperialBasin, "IB", "Imperial Basin", Sand, &[8, 9, 10], None, true),
    row(Carthag, "CAR", "Carthag", Stronghold, &[10], None, true),
    row(Arrakeen, "ARK", "Arrakeen", Stronghold, &[9], None, true),
    row(TueksSietch, "TUK", "Tuek's Sietch", Stronghold, &[4], None, false),
    row(SietchTabr, "TAB", "Sietch Tabr", Stronghold, &[13], None, false),
    row(HabbanyaSietch, "HAB", "Habbanya Sietch", Stronghold, &[16], None, false),
    row(CielagoNorth, "CN", "Cielago North", Sand, &[0, 1, 2], Some((2, 8)), false),
    row(CielagoDepression, "CD", "Cielago Depression", Sand, &[0, 1, 2], None, false),
    row(Meridian, "MER", "Meridian", Sand, &[0, 1], None, false),
    row(CielagoSouth, "CS", "Cielago South", Sand, &[1, 2], Some((1, 12)), false),
    row(CielagoEast, "CE", "Cielago East", Sand, &[2, 3], None, false),
    row(HargPass, "HP", "Harg Pass", Sand, &[3, 4], None, false),
    row(FalseWallSouth, "FWS", "False Wall South", Rock, &[3, 4], None, false),
    row(FalseWallEast, "FWE", "False Wall East", Rock, &[4, 5, 6, 7, 8], None, false),
    row(TheMinorErg, "ME", "The Minor Erg", Sand, &[4, 5, 6, 7], Some((7, 8)), false),
    row(PastyMesa, "PM", "Pasty Mesa", Rock, &[4, 5, 6, 7], None, false),
    row(RedChasm, "RC", "Red Chasm", Sand, &[6], Some((6, 8)), false),
    row(SouthMesa, "SM", "South Mesa", Sand, &[3, 4, 5], Some((4, 10)), false),
    row(Basin, "BAS", "Basin", Sand, &[8], None, false),
    row(RimWallWest, "RWW", "Rim Wall West", Rock, &[8], None, false),
    row(HoleInTheRock, "HR", "Hole In The Rock", Sand, &[8], None, false),
    row(SihayaRidge, "SR", "Sihaya Ridge", Sand, &[8], Some((8, 6)), false),
    row(ShieldWall, "SW", "Shield Wall", Rock, &[7, 8], None, false),
    row(GaraKulon, "GK", "Gara Kulon", Sand, &[7], None, false),
    row(OldGap, "OG", "Old Gap", Sand, &[8, 9, 10], Some((9, 6)), false),
    row(BrokenLand, "BL", "Broken Land", Sand, &[10, 11], Some((11, 8)), false),
    row(Tsimpo, "TSI", "Tsimpo", Sand, &[10, 11, 12], None, false),
    row(Arsunt, "ARS", "Arsunt", Sand, &[10, 11], None, false),
    row(RockOutcroppings, "RO", "Rock Outcroppings", Sand, &[12, 13], Some((13, 6)), false),
    row(PlasticBasin, "PB", "Plastic Basin", Rock, &[11, 12, 13], None, false),
    row(HaggaBasin, "HGB", "Hagga Basin", Sand, &[11, 12], Some((12, 6)), false),
    row(BightOfTheCliff, "BC", "Bight Of The Cliff", Sand, &[13, 14], None, false),
    row(FuneralPlain, "FP", "Funeral Plain", Sand, &[14], Some((14, 6)), false),
    row(TheGreatFlat, "GF", "The Great Flat", Sand, &[14], Some((14, 10)), false),
    row(WindPass, "WP", "Wind Pass", Sand, &[13, 14, 15, 16], None, false),
    row(TheGreaterFlat, "GRF", "The Greater Flat", Sand, &[15], None, false),
    row(HabbanyaErg, "HE", "Habbanya Erg", Sand, &[15, 16], Some((15, 8)), false),
    row(FalseWallWest, "FWW", "False Wall West", Rock, &[15, 16, 17], None, false),
    row(WindPassNorth, "WPN", "Wind Pass North", Sand, &[16, 17], Some((16, 6)), false),
    row(HabbanyaRidgeFlat, "HRF", "Habbanya Ridge Flat", Sand, &[16, 17], Some((17, 10)), false),
    row(CielagoWest, "CW", "Cielago West", Sand, &[17, 0], None, false),
    row(HiddenMobileStronghold, "HMS", "Hidden Mobile Stronghold", Stronghold, &[], None, false),
];

/// Territory-level borders (board-data.md §2, last column). Must equal the projection of
/// [`PIECE_NEIGHBOURS`]; the consistency test says which entry disagrees.
#[rustfmt::skip]
pub const BORDERS: [(Territory, &[Territory]); TERRITORY_COUNT] = [
    (PolarSink, &[Arsunt, CielagoNorth, FalseWallEast, HaggaBasin, HargPass, ImperialBasin, WindPass, WindPassNorth]),
    (ImperialBasin, &[Arrakeen, Arsunt, Carthag, FalseWallEast, HoleInTheRock, OldGap, PolarSink, RimWallWest, ShieldWall, Tsimpo]),
    (Carthag, &[Arsunt, HaggaBasin, ImperialBasin, Tsimpo]),
    (Arrakeen, &[ImperialBasin, OldGap, RimWallWest]),
    (TueksSietch, &[FalseWallSouth, PastyMesa, SouthMesa]),
    (SietchTabr, &[BightOfTheCliff, PlasticBasin, RockOutcroppings]),
    (HabbanyaSietch, &[HabbanyaRidgeFlat]),
    (CielagoNorth, &[CielagoDepression, CielagoEast, CielagoWest, FalseWallSouth, HargPass, PolarSink, WindPassNorth]),
    (CielagoDepression, &[CielagoEast, CielagoNorth, CielagoSouth, CielagoWest, Meridian]),
    (Meridian, &[CielagoDepression, CielagoSouth, CielagoWest, HabbanyaRidgeFlat]),
    (CielagoSouth, &[CielagoDepression, CielagoEast, Meridian]),
    (CielagoEast, &[CielagoDepression, CielagoNorth, CielagoSouth, FalseWallSouth, SouthMesa]),
    (HargPass, &[CielagoNorth, FalseWallEast, FalseWallSouth, PolarSink, TheMinorErg]),
    (FalseWallSouth, &[CielagoEast, CielagoNorth, HargPass, PastyMesa, SouthMesa, TheMinorErg, TueksSietch]),
    (FalseWallEast, &[HargPass, ImperialBasin, PolarSink, ShieldWall, TheMinorErg]),
    (TheMinorErg, &[FalseWallEast, FalseWallSouth, HargPass, PastyMesa, ShieldWall]),
    (PastyMesa, &[FalseWallSouth, GaraKulon, RedChasm, ShieldWall, SouthMesa, TheMinorErg, TueksSietch]),
    (RedChasm, &[PastyMesa, SouthMesa]),
    (SouthMesa, &[CielagoEast, FalseWallSouth, PastyMesa, RedChasm, TueksSietch]),
    (Basin, &[HoleInTheRock, OldGap, RimWallWest, SihayaRidge]),
    (RimWallWest, &[Arrakeen, Basin, HoleInTheRock, ImperialBasin, OldGap]),
    (HoleInTheRock, &[Basin, ImperialBasin, RimWallWest, ShieldWall, SihayaRidge]),
    (SihayaRidge, &[Basin, GaraKulon, HoleInTheRock, ShieldWall]),
    (ShieldWall, &[FalseWallEast, GaraKulon, HoleInTheRock, ImperialBasin, PastyMesa, SihayaRidge, TheMinorErg]),
    (GaraKulon, &[PastyMesa, ShieldWall, SihayaRidge]),
    (OldGap, &[Arrakeen, Basin, BrokenLand, ImperialBasin, RimWallWest, Tsimpo]),
    (BrokenLand, &[OldGap, PlasticBasin, RockOutcroppings, Tsimpo]),
    (Tsimpo, &[BrokenLand, Carthag, HaggaBasin, ImperialBasin, OldGap, PlasticBasin]),
    (Arsunt, &[Carthag, HaggaBasin, ImperialBasin, PolarSink]),
    (RockOutcroppings, &[BightOfTheCliff, BrokenLand, PlasticBasin, SietchTabr]),
    (PlasticBasin, &[BightOfTheCliff, BrokenLand, FuneralPlain, HaggaBasin, RockOutcroppings, SietchTabr, TheGreatFlat, Tsimpo, WindPass]),
    (HaggaBasin, &[Arsunt, Carthag, PlasticBasin, PolarSink, Tsimpo, WindPass]),
    (BightOfTheCliff, &[FuneralPlain, PlasticBasin, RockOutcroppings, SietchTabr]),
    (FuneralPlain, &[BightOfTheCliff, PlasticBasin, TheGreatFlat]),
    (TheGreatFlat, &[FuneralPlain, PlasticBasin, TheGreaterFlat, WindPass]),
    (WindPass, &[CielagoWest, FalseWallWest, HaggaBasin, PlasticBasin, PolarSink, TheGreatFlat, TheGreaterFlat, WindPassNorth]),
    (TheGreaterFlat, &[FalseWallWest, HabbanyaErg, TheGreatFlat, WindPass]),
    (HabbanyaErg, &[FalseWallWest, HabbanyaRidgeFlat, TheGreaterFlat]),
    (FalseWallWest, &[CielagoWest, HabbanyaErg, HabbanyaRidgeFlat, TheGreaterFlat, WindPass]),
    (WindPassNorth, &[CielagoNorth, CielagoWest, PolarSink, WindPass]),
    (HabbanyaRidgeFlat, &[CielagoWest, FalseWallWest, HabbanyaErg, HabbanyaSietch, Meridian]),
    (CielagoWest, &[CielagoDepression, CielagoNorth, FalseWallWest, HabbanyaRidgeFlat, Meridian, WindPass, WindPassNorth]),
    // It borders the territory it stands in, which the game's state says.
    (HiddenMobileStronghold, &[]),
];

/// Sector value standing for "no sector" (the Polar Sink, the Hidden Mobile Stronghold) in
/// [`PIECE_NEIGHBOURS`].
pub const PS: u8 = u8::MAX;

/// A territory piece `(territory, sector)` and the pieces it touches.
pub type PieceRow = (Territory, u8, &'static [(Territory, u8)]);

/// Sector-level adjacency (board-data.md §2.1): each territory piece `(territory, sector)` and the
/// pieces it touches. Moving between pieces of one territory is free; crossing a border costs one.
#[rustfmt::skip]
pub const PIECE_NEIGHBOURS: &[PieceRow] = &[
    (Arrakeen, 9, &[(ImperialBasin, 9), (OldGap, 9), (RimWallWest, 8)]),
    (Arsunt, 10, &[(Arsunt, 11), (Carthag, 10), (HaggaBasin, 11), (ImperialBasin, 10), (ImperialBasin, 9), (PolarSink, PS)]),
    (Arsunt, 11, &[(Arsunt, 10), (HaggaBasin, 11), (HaggaBasin, 12), (PolarSink, PS)]),
    (Basin, 8, &[(HoleInTheRock, 8), (OldGap, 8), (RimWallWest, 8), (SihayaRidge, 8)]),
    (BightOfTheCliff, 13, &[(BightOfTheCliff, 14), (PlasticBasin, 13), (RockOutcroppings, 13), (SietchTabr, 13)]),
    (BightOfTheCliff, 14, &[(BightOfTheCliff, 13), (FuneralPlain, 14)]),
    (BrokenLand, 10, &[(BrokenLand, 11), (OldGap, 10), (Tsimpo, 10)]),
    (BrokenLand, 11, &[(BrokenLand, 10), (PlasticBasin, 11), (RockOutcroppings, 12), (Tsimpo, 11)]),
    (Carthag, 10, &[(Arsunt, 10), (HaggaBasin, 11), (ImperialBasin, 10), (Tsimpo, 10), (Tsimpo, 11)]),
    (CielagoDepression, 0, &[(CielagoDepression, 1), (CielagoNorth, 0), (CielagoWest, 0), (Meridian, 0)]),
    (CielagoDepression, 1, &[(CielagoDepression, 0), (CielagoDepression, 2), (CielagoNorth, 1), (CielagoSouth, 1), (Meridian, 1)]),
    (CielagoDepression, 2, &[(CielagoDepression, 1), (CielagoEast, 2), (CielagoNorth, 2), (CielagoSouth, 2)]),
    (CielagoEast, 2, &[(CielagoDepression, 2), (CielagoEast, 3), (CielagoNorth, 2), (CielagoSouth, 2), (FalseWallSouth, 3)]),
    (CielagoEast, 3, &[(CielagoEast, 2), (FalseWallSouth, 3), (SouthMesa, 3)]),
    (CielagoNorth, 0, &[(CielagoDepression, 0), (CielagoNorth, 1), (CielagoWest, 0), (CielagoWest, 17), (PolarSink, PS), (WindPassNorth, 17)]),
    (CielagoNorth, 1, &[(CielagoDepression, 1), (CielagoNorth, 0), (CielagoNorth, 2), (PolarSink, PS)]),
    (CielagoNorth, 2, &[(CielagoDepression, 2), (CielagoEast, 2), (CielagoNorth, 1), (FalseWallSouth, 3), (HargPass, 3), (PolarSink, PS)]),
    (CielagoSouth, 1, &[(CielagoDepression, 1), (CielagoSouth, 2), (Meridian, 1)]),
    (CielagoSouth, 2, &[(CielagoDepression, 2), (CielagoEast, 2), (CielagoSouth, 1)]),
    (CielagoWest, 0, &[(CielagoDepression, 0), (CielagoNorth, 0), (CielagoWest, 17), (Meridian, 0)]),
    (CielagoWest, 17, &[(CielagoNorth, 0), (CielagoWest, 0), (FalseWallWest, 17), (HabbanyaRidgeFlat, 17), (WindPass, 16), (WindPassNorth, 17)]),
    (FalseWallEast, 4, &[(FalseWallEast, 5), (HargPass, 3), (HargPass, 4), (PolarSink, PS), (TheMinorErg, 4)]),
    (FalseWallEast, 5, &[(FalseWallEast, 4), (FalseWallEast, 6), (PolarSink, PS), (TheMinorErg, 5)]),
    (FalseWallEast, 6, &[(FalseWallEast, 5), (FalseWallEast, 7), (PolarSink, PS), (TheMinorErg, 6)]),
    (FalseWallEast, 7, &[(FalseWallEast, 6), (FalseWallEast, 8), (PolarSink, PS), (ShieldWall, 7), (TheMinorErg, 7)]),
    (FalseWallEast, 8, &[(FalseWallEast, 7), (ImperialBasin, 8), (PolarSink, PS), (ShieldWall, 8)]),
    (FalseWallSouth, 3, &[(CielagoEast, 2), (CielagoEast, 3), (CielagoNorth, 2), (FalseWallSouth, 4), (HargPass, 3), (SouthMesa, 3)]),
    (FalseWallSouth, 4, &[(FalseWallSouth, 3), (HargPass, 4), (PastyMesa, 4), (SouthMesa, 4), (TheMinorErg, 4), (TueksSietch, 4)]),
    (FalseWallWest, 15, &[(FalseWallWest, 16), (TheGreaterFlat, 15), (WindPass, 15)]),
    (FalseWallWest, 16, &[(FalseWallWest, 15), (FalseWallWest, 17), (HabbanyaErg, 16), (HabbanyaRidgeFlat, 16), (WindPass, 16)]),
    (FalseWallWest, 17, &[(CielagoWest, 17), (FalseWallWest, 16), (HabbanyaRidgeFlat, 17)]),
    (FuneralPlain, 14, &[(BightOfTheCliff, 14), (PlasticBasin, 13), (TheGreatFlat, 14)]),
    (GaraKulon, 7, &[(PastyMesa, 7), (ShieldWall, 7), (SihayaRidge, 8)]),
    (HabbanyaErg, 15, &[(HabbanyaErg, 16), (HabbanyaRidgeFlat, 16), (TheGreaterFlat, 15)]),
    (HabbanyaErg, 16, &[(FalseWallWest, 16), (HabbanyaErg, 15), (HabbanyaRidgeFlat, 16)]),
    (HabbanyaRidgeFlat, 16, &[(FalseWallWest, 16), (HabbanyaErg, 15), (HabbanyaErg, 16), (HabbanyaRidgeFlat, 17), (HabbanyaSietch, 16)]),
    (HabbanyaRidgeFlat, 17, &[(CielagoWest, 17), (FalseWallWest, 17), (HabbanyaRidgeFlat, 16), (HabbanyaSietch, 16), (Meridian, 0)]),
    (HabbanyaSietch, 16, &[(HabbanyaRidgeFlat, 16), (HabbanyaRidgeFlat, 17)]),
    (HaggaBasin, 11, &[(Arsunt, 10), (Arsunt, 11), (Carthag, 10), (HaggaBasin, 12), (Tsimpo, 11)]),
    (HaggaBasin, 12, &[(Arsunt, 11), (HaggaBasin, 11), (PlasticBasin, 12), (PlasticBasin, 13), (PolarSink, PS), (Tsimpo, 12), (WindPass, 13)]),
    (HargPass, 3, &[(CielagoNorth, 2), (FalseWallEast, 4), (FalseWallSouth, 3), (HargPass, 4), (PolarSink, PS)]),
    (HargPass, 4, &[(FalseWallEast, 4), (FalseWallSouth, 4), (HargPass, 3), (TheMinorErg, 4)]),
    (HoleInTheRock, 8, &[(Basin, 8), (ImperialBasin, 8), (RimWallWest, 8), (ShieldWall, 8), (SihayaRidge, 8)]),
    (ImperialBasin, 8, &[(FalseWallEast, 8), (HoleInTheRock, 8), (ImperialBasin, 9), (PolarSink, PS), (RimWallWest, 8), (ShieldWall, 8)]),
    (ImperialBasin, 9, &[(Arrakeen, 9), (Arsunt, 10), (ImperialBasin, 10), (ImperialBasin, 8), (OldGap, 9), (PolarSink, PS), (RimWallWest, 8)]),
    (ImperialBasin, 10, &[(Arsunt, 10), (Carthag, 10), (ImperialBasin, 9), (Tsimpo, 10)]),
    (Meridian, 0, &[(CielagoDepression, 0), (CielagoWest, 0), (HabbanyaRidgeFlat, 17), (Meridian, 1)]),
    (Meridian, 1, &[(CielagoDepression, 1), (CielagoSouth, 1), (Meridian, 0)]),
    (OldGap, 8, &[(Basin, 8), (OldGap, 9), (RimWallWest, 8)]),
    (OldGap, 9, &[(Arrakeen, 9), (ImperialBasin, 9), (OldGap, 10), (OldGap, 8)]),
    (OldGap, 10, &[(BrokenLand, 10), (OldGap, 9), (Tsimpo, 10)]),
    (PastyMesa, 4, &[(FalseWallSouth, 4), (PastyMesa, 5), (SouthMesa, 4), (TheMinorErg, 4), (TueksSietch, 4)]),
    (PastyMesa, 5, &[(PastyMesa, 4), (PastyMesa, 6), (SouthMesa, 5), (TheMinorErg, 5)]),
    (PastyMesa, 6, &[(PastyMesa, 5), (PastyMesa, 7), (RedChasm, 6), (TheMinorErg, 6)]),
    (PastyMesa, 7, &[(GaraKulon, 7), (PastyMesa, 6), (ShieldWall, 7), (TheMinorErg, 7)]),
    (PlasticBasin, 11, &[(BrokenLand, 11), (PlasticBasin, 12), (Tsimpo, 11)]),
    (PlasticBasin, 12, &[(HaggaBasin, 12), (PlasticBasin, 11), (PlasticBasin, 13), (RockOutcroppings, 12), (Tsimpo, 12)]),
    (PlasticBasin, 13, &[(BightOfTheCliff, 13), (FuneralPlain, 14), (HaggaBasin, 12), (PlasticBasin, 12), (RockOutcroppings, 13), (SietchTabr, 13), (TheGreatFlat, 14), (WindPass, 13)]),
    (PolarSink, PS, &[(Arsunt, 10), (Arsunt, 11), (CielagoNorth, 0), (CielagoNorth, 1), (CielagoNorth, 2), (FalseWallEast, 4), (FalseWallEast, 5), (FalseWallEast, 6), (FalseWallEast, 7), (FalseWallEast, 8), (HaggaBasin, 12), (HargPass, 3), (ImperialBasin, 8), (ImperialBasin, 9), (WindPass, 13), (WindPass, 14), (WindPass, 15), (WindPassNorth, 16), (WindPassNorth, 17)]),
    (RedChasm, 6, &[(PastyMesa, 6), (SouthMesa, 5)]),
    (RimWallWest, 8, &[(Arrakeen, 9), (Basin, 8), (HoleInTheRock, 8), (ImperialBasin, 8), (ImperialBasin, 9), (OldGap, 8)]),
    (RockOutcroppings, 12, &[(BrokenLand, 11), (PlasticBasin, 12), (RockOutcroppings, 13)]),
    (RockOutcroppings, 13, &[(BightOfTheCliff, 13), (PlasticBasin, 13), (RockOutcroppings, 12), (SietchTabr, 13)]),
    (ShieldWall, 7, &[(FalseWallEast, 7), (GaraKulon, 7), (PastyMesa, 7), (ShieldWall, 8), (TheMinorErg, 7)]),
    (ShieldWall, 8, &[(FalseWallEast, 8), (HoleInTheRock, 8), (ImperialBasin, 8), (ShieldWall, 7), (SihayaRidge, 8)]),
    (SietchTabr, 13, &[(BightOfTheCliff, 13), (PlasticBasin, 13), (RockOutcroppings, 13)]),
    (SihayaRidge, 8, &[(Basin, 8), (GaraKulon, 7), (HoleInTheRock, 8), (ShieldWall, 8)]),
    (SouthMesa, 3, &[(CielagoEast, 3), (FalseWallSouth, 3), (SouthMesa, 4)]),
    (SouthMesa, 4, &[(FalseWallSouth, 4), (PastyMesa, 4), (SouthMesa, 3), (SouthMesa, 5), (TueksSietch, 4)]),
    (SouthMesa, 5, &[(PastyMesa, 5), (RedChasm, 6), (SouthMesa, 4)]),
    (TheGreatFlat, 14, &[(FuneralPlain, 14), (PlasticBasin, 13), (TheGreaterFlat, 15), (WindPass, 14)]),
    (TheGreaterFlat, 15, &[(FalseWallWest, 15), (HabbanyaErg, 15), (TheGreatFlat, 14), (WindPass, 15)]),
    (TheMinorErg, 4, &[(FalseWallEast, 4), (FalseWallSouth, 4), (HargPass, 4), (PastyMesa, 4), (TheMinorErg, 5)]),
    (TheMinorErg, 5, &[(FalseWallEast, 5), (PastyMesa, 5), (TheMinorErg, 4), (TheMinorErg, 6)]),
    (TheMinorErg, 6, &[(FalseWallEast, 6), (PastyMesa, 6), (TheMinorErg, 5), (TheMinorErg, 7)]),
    (TheMinorErg, 7, &[(FalseWallEast, 7), (PastyMesa, 7), (ShieldWall, 7), (TheMinorErg, 6)]),
    (Tsimpo, 10, &[(BrokenLand, 10), (Carthag, 10), (ImperialBasin, 10), (OldGap, 10), (Tsimpo, 11)]),
    (Tsimpo, 11, &[(BrokenLand, 11), (Carthag, 10), (HaggaBasin, 11), (PlasticBasin, 11), (Tsimpo, 10), (Tsimpo, 12)]),
    (Tsimpo, 12, &[(HaggaBasin, 12), (PlasticBasin, 12), (Tsimpo, 11)]),
    (TueksSietch, 4, &[(FalseWallSouth, 4), (PastyMesa, 4), (SouthMesa, 4)]),
    (WindPass, 13, &[(HaggaBasin, 12), (PlasticBasin, 13), (PolarSink, PS), (WindPass, 14)]),
    (WindPass, 14, &[(PolarSink, PS), (TheGreatFlat, 14), (WindPass, 13), (WindPass, 15)]),
    (WindPass, 15, &[(FalseWallWest, 15), (PolarSink, PS), (TheGreaterFlat, 15), (WindPass, 14), (WindPass, 16), (WindPassNorth, 16)]),
    (WindPass, 16, &[(CielagoWest, 17), (FalseWallWest, 16), (WindPass, 15), (WindPassNorth, 16)]),
    (WindPassNorth, 16, &[(PolarSink, PS), (WindPass, 15), (WindPass, 16), (WindPassNorth, 17)]),
    (WindPassNorth, 17, &[(CielagoNorth, 0), (CielagoWest, 17), (PolarSink, PS), (WindPassNorth, 16)]),
    (HiddenMobileStronghold, PS, &[]),
];

/// Shai-Hulud cards in the spice deck (board-data.md §3.1). The 15 territory cards are the
/// territories with a `blow` entry above.
pub const SHAI_HULUD_CARDS: u8 = 6;

/// Values of the Fremen storm deck (2.04.13; board-data.md §7).
pub const STORM_DECK: [u8; 6] = [1, 2, 3, 4, 5, 6];

/// The six player circles sit at the map edge of sectors 1, 4, 7, 10, 13, 16 (rulings.md 2):
/// circle `c` is at sector `3c + 1`.
pub const PLAYER_CIRCLE_SECTORS: [u8; 6] = [1, 4, 7, 10, 13, 16];

/// Circle nearest Tuek's Sietch, where seat 1 sits (0.07, rulings.md 2).
pub const SEAT_ONE_CIRCLE: u8 = 1;

/// The Storm Start sector (0.16).
pub const STORM_START: u8 = 0;

/// Treachery cards of the classic deck (3.01; board-data.md §4.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Card {
    Lasgun,
    Crysknife,
    MaulaPistol,
    SlipTip,
    Stunner,
    Chaumas,
    Chaumurky,
    EllacaDrug,
    GomJabbar,
    Shield,
    Snooper,
    CheapHero,
    TleilaxuGhola,
    FamilyAtomics,
    Hajr,
    Karama,
    Truthtrance,
    WeatherControl,
    Baliset,
    JubbaCloak,
    Kulon,
    LaLaLa,
    TripToGamont,
    // 000 3.2, the Ixians' and the Tleilaxu's cards (the First Expansion).
    Amal,
    ArtilleryStrike,
    BasiliaWeapon,
    Chemistry,
    Harvester,
    HunterSeeker,
    PoisonBlade,
    PoisonTooth,
    ShieldSnooper,
    Thumper,
    WeirdingWay,
    KullWahad,
    // 000 3.3, the Second Expansion's cards (CHOAM & Richese): Richese's cache (2.10.03).
    Distrans,
    JuiceOfSapho,
    MirrorWeapon,
    NullentropyBox,
    Ornithopter,
    PortableSnooper,
    ResidualPoison,
    SemutaDrug,
    StoneBurner,
    Amtal,
    AxolotlTank,
    Levenbrech,
    PoisonDart,
    DesertSeededWater,
    //
    //
    // 000 3.4, the Third Expansion's cards (Ecaz & Moritani).
    HarassAndWithdraw,
    Recruits,
    Reinforcements,
    // 000 3.5, the Millennial cards.
    ButlerianJihad,
}

/// What a treachery card is, for battle plans and Karama.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CardKind {
    WeaponSpecial,
    WeaponProjectile,
    /// Poison weapons. Ellaca Drug is one too, stopped by a projectile defence (rulings.md 17).
    WeaponPoison,
    DefenseProjectile,
    DefensePoison,
    /// A defence against both projectile and poison weapons (the Shield Snooper, 000 3.02.10).
    DefenseSpecial,
    /// Cheap Hero: a leader of strength 0 (3.01.04).
    Leader,
    Special,
    Worthless,
    /// Played on the battle wheel in place of a weapon or a defence, counting as neither
    /// (Harass and Withdraw, Reinforcements: 000 3.04.01, 3.04.03).
    SpecialBattle,
}

/// The sets of treachery cards: the classic deck (3.01) and each expansion's cards (000 3.02-):
/// an expansion's set is in the deck of a full-format game that seats one of its factions
/// (docs/notation.md, Decisions 73).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum CardSet {
    /// The 33 cards of the classic game (3.01).
    Classic,
    /// 000 3.02, the First Expansion (Ixians & Tleilaxu): 12 cards and a fifth Shield and Snooper.
    IxiansTleilaxu,
    /// 000 3.03, the Second Expansion (CHOAM & Richese): Richese's cache (2.10.03), never
    /// shuffled into the deck; a cache card discarded joins the treachery discards.
    ChoamRichese,
    /// 000 3.04, the Third Expansion (Ecaz & Moritani): 3 cards.
    EcazMoritani,
    /// 000 3.05, the Landsraad Millennial card, shuffled in with the Third Expansion's.
    Millennial,
}

/// One row of the treachery table: card, DGN name, kind, copies in the deck.
#[derive(Clone, Copy, Debug)]
pub struct CardRow {
    pub card: Card,
    pub code: &'static str,
    pub name: &'static str,
    pub kind: CardKind,
    pub copies: u8,
    /// The card's rule: 3.01.xx (001's numbers) for the classic cards, 000's 3.02-3.05 for the
    /// expansions'.
    pub rule: Rule,
    /// The set that brings the card into the deck.
    pub set: CardSet,
}

const fn card(
    card: Card,
    code: &'static str,
    name: &'static str,
    kind: CardKind,
    copies: u8,
    rule: Rule,
) -> CardRow {
    CardRow {
        card,
        code,
        name,
        kind,
        copies,
        rule,
        set: CardSet::Classic,
    }
}

/// A card of an expansion's set.
const fn expansion(set: CardSet, row: CardRow) -> CardRow {
    CardRow { set, ..row }
}

/// More copies of a classic card that an expansion's set adds to the deck.
pub const EXTRA_COPIES: &[(CardSet, Card, u8, Rule)] = &[
    // 000 3.02.09 and 3.02.11: a fifth Shield and a fifth Snooper.
    (CardSet::IxiansTleilaxu, Card::Shield, 1, rule!("3.02.09")),
    (CardSet::IxiansTleilaxu, Card::Snooper, 1, rule!("3.02.11")),
];

/// The treachery cards, indexed by `Card as usize`: the 33-card classic deck, then each
/// expansion's cards.
#[rustfmt::skip]
pub const CARDS: &[CardRow] = &[
    card(Card::Lasgun, "Lasgun", "Lasgun", CardKind::WeaponSpecial, 1, rule!("3.01.14")),
    card(Card::Crysknife, "Crysknife", "Crysknife", CardKind::WeaponProjectile, 1, rule!("3.01.05")),
    card(Card::MaulaPistol, "MaulaPistol", "Maula Pistol", CardKind::WeaponProjectile, 1, rule!("3.01.15")),
    card(Card::SlipTip, "SlipTip", "Slip Tip", CardKind::WeaponProjectile, 1, rule!("3.01.17")),
    card(Card::Stunner, "Stunner", "Stunner", CardKind::WeaponProjectile, 1, rule!("3.01.19")),
    card(Card::Chaumas, "Chaumas", "Chaumas", CardKind::WeaponPoison, 1, rule!("3.01.02")),
    card(Card::Chaumurky, "Chaumurky", "Chaumurky", CardKind::WeaponPoison, 1, rule!("3.01.03")),
    card(Card::EllacaDrug, "EllacaDrug", "Ellaca Drug", CardKind::WeaponPoison, 1, rule!("3.01.06")),
    card(Card::GomJabbar, "GomJabbar", "Gom Jabbar", CardKind::WeaponPoison, 1, rule!("3.01.08")),
    card(Card::Shield, "Shield", "Shield", CardKind::DefenseProjectile, 4, rule!("3.01.16")),
    card(Card::Snooper, "Snooper", "Snooper", CardKind::DefensePoison, 4, rule!("3.01.18")),
    card(Card::CheapHero, "CheapHero", "Cheap Hero", CardKind::Leader, 3, rule!("3.01.04")),
    card(Card::TleilaxuGhola, "TleilaxuGhola", "Tleilaxu Ghola", CardKind::Special, 1, rule!("3.01.20")),
    card(Card::FamilyAtomics, "FamilyAtomics", "Family Atomics", CardKind::Special, 1, rule!("3.01.07")),
    card(Card::Hajr, "Hajr", "Hajr", CardKind::Special, 1, rule!("3.01.09")),
    card(Card::Karama, "Karama", "Karama", CardKind::Special, 2, rule!("3.01.11")),
    card(Card::Truthtrance, "Truthtrance", "Truthtrance", CardKind::Special, 2, rule!("3.01.22")),
    card(Card::WeatherControl, "WeatherControl", "Weather Control", CardKind::Special, 1, rule!("3.01.23")),
    card(Card::Baliset, "Baliset", "Baliset", CardKind::Worthless, 1, rule!("3.01.01")),
    card(Card::JubbaCloak, "JubbaCloak", "Jubba Cloak", CardKind::Worthless, 1, rule!("3.01.10")),
    card(Card::Kulon, "Kulon", "Kulon", CardKind::Worthless, 1, rule!("3.01.12")),
    card(Card::LaLaLa, "LaLaLa", "La La La", CardKind::Worthless, 1, rule!("3.01.13")),
    card(Card::TripToGamont, "TripToGamont", "Trip to Gamont", CardKind::Worthless, 1, rule!("3.01.21")),
    // 000 3.2, the Ixians' and the Tleilaxu's cards, in the order of the Card enum.
    expansion(CardSet::IxiansTleilaxu, card(Card::Amal, "Amal", "Amal", CardKind::Special, 1, rule!("3.02.01"))),
    expansion(CardSet::IxiansTleilaxu, card(Card::ArtilleryStrike, "ArtilleryStrike", "Artillery Strike", CardKind::WeaponSpecial, 1, rule!("3.02.02"))),
    expansion(CardSet::IxiansTleilaxu, card(Card::BasiliaWeapon, "BasiliaWeapon", "Basilia Weapon", CardKind::WeaponPoison, 1, rule!("3.02.03"))),
    expansion(CardSet::IxiansTleilaxu, card(Card::Chemistry, "Chemistry", "Chemistry", CardKind::DefensePoison, 1, rule!("3.02.04"))),
    expansion(CardSet::IxiansTleilaxu, card(Card::Harvester, "Harvester", "Harvester", CardKind::Special, 1, rule!("3.02.05"))),
    expansion(CardSet::IxiansTleilaxu, card(Card::HunterSeeker, "HunterSeeker", "Hunter Seeker", CardKind::WeaponProjectile, 1, rule!("3.02.06"))),
    expansion(CardSet::IxiansTleilaxu, card(Card::PoisonBlade, "PoisonBlade", "Poison Blade", CardKind::WeaponSpecial, 1, rule!("3.02.07"))),
    expansion(CardSet::IxiansTleilaxu, card(Card::PoisonTooth, "PoisonTooth", "Poison Tooth", CardKind::WeaponPoison, 1, rule!("3.02.08"))),
    expansion(CardSet::IxiansTleilaxu, card(Card::ShieldSnooper, "ShieldSnooper", "Shield Snooper", CardKind::DefenseSpecial, 1, rule!("3.02.10"))),
    expansion(CardSet::IxiansTleilaxu, card(Card::Thumper, "Thumper", "Thumper", CardKind::Special, 1, rule!("3.02.12"))),
    expansion(CardSet::IxiansTleilaxu, card(Card::WeirdingWay, "WeirdingWay", "Weirding Way", CardKind::WeaponProjectile, 1, rule!("3.02.13"))),
    expansion(CardSet::IxiansTleilaxu, card(Card::KullWahad, "KullWahad", "Kull Wahad", CardKind::Worthless, 1, rule!("3.02.14"))),
    // 000 3.3, the Second Expansion's cards: one of each in Richese's cache, not in the deck.
    expansion(CardSet::ChoamRichese, card(Card::Distrans, "Distrans", "Distrans", CardKind::Special, 1, rule!("3.03.01"))),
    expansion(CardSet::ChoamRichese, card(Card::JuiceOfSapho, "JuiceOfSapho", "Juice of Sapho", CardKind::Special, 1, rule!("3.03.02"))),
    expansion(CardSet::ChoamRichese, card(Card::MirrorWeapon, "MirrorWeapon", "Mirror Weapon", CardKind::WeaponSpecial, 1, rule!("3.03.04"))),
    expansion(CardSet::ChoamRichese, card(Card::NullentropyBox, "NullentropyBox", "Nullentropy Box", CardKind::Special, 1, rule!("3.03.05"))),
    expansion(CardSet::ChoamRichese, card(Card::Ornithopter, "Ornithopter", "Ornithopter", CardKind::Special, 1, rule!("3.03.06"))),
    expansion(CardSet::ChoamRichese, card(Card::PortableSnooper, "PortableSnooper", "Portable Snooper", CardKind::DefensePoison, 1, rule!("3.03.07"))),
    expansion(CardSet::ChoamRichese, card(Card::ResidualPoison, "ResidualPoison", "Residual Poison", CardKind::Special, 1, rule!("3.03.08"))),
    expansion(CardSet::ChoamRichese, card(Card::SemutaDrug, "SemutaDrug", "Semuta Drug", CardKind::Special, 1, rule!("3.03.09"))),
    expansion(CardSet::ChoamRichese, card(Card::StoneBurner, "StoneBurner", "Stone Burner", CardKind::WeaponSpecial, 1, rule!("3.03.10"))),
    expansion(CardSet::ChoamRichese, card(Card::Amtal, "Amtal", "Amtal", CardKind::WeaponSpecial, 1, rule!("3.03.11"))),
    expansion(CardSet::ChoamRichese, card(Card::AxolotlTank, "AxolotlTank", "Axolotl Tank", CardKind::Special, 1, rule!("3.03.12"))),
    expansion(CardSet::ChoamRichese, card(Card::Levenbrech, "Levenbrech", "Levenbrech", CardKind::Leader, 1, rule!("3.03.13"))),
    expansion(CardSet::ChoamRichese, card(Card::PoisonDart, "PoisonDart", "Poison Dart", CardKind::WeaponSpecial, 1, rule!("3.03.14"))),
    expansion(CardSet::ChoamRichese, card(Card::DesertSeededWater, "DesertSeededWater", "Desert Seeded Water", CardKind::Special, 1, rule!("3.03.15"))),
    //
    //
    // 000 3.4, the Third Expansion's cards.
    expansion(CardSet::EcazMoritani, card(Card::HarassAndWithdraw, "HarassAndWithdraw", "Harass and Withdraw", CardKind::SpecialBattle, 1, rule!("3.04.01"))),
    expansion(CardSet::EcazMoritani, card(Card::Recruits, "Recruits", "Recruits", CardKind::Special, 1, rule!("3.04.02"))),
    expansion(CardSet::EcazMoritani, card(Card::Reinforcements, "Reinforcements", "Reinforcements", CardKind::SpecialBattle, 1, rule!("3.04.03"))),
    // 000 3.5, the Millennial cards.
    expansion(CardSet::Millennial, card(Card::ButlerianJihad, "ButlerianJihad", "Butlerian Jihad", CardKind::Special, 1, rule!("3.05.01"))),
];

/// Leaders of every faction (board-data.md §5), the classic six first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Leader {
    Thufir,
    Jessica,
    Gurney,
    Duncan,
    Yueh,
    Alia,
    Margot,
    Ramallo,
    Irulan,
    Wanna,
    Fenring,
    Aramsham,
    Caid,
    Burseg,
    Bashar,
    Stilgar,
    Chani,
    Otheym,
    Mapes,
    Jamis,
    Staban,
    Bewt,
    Esmar,
    Sook,
    GuildRep,
    Feyd,
    Rabban,
    Piter,
    Nefud,
    Kudu,
    // 000 2.07 Ixians.
    CTair,
    Tessia,
    Dominic,
    Kailea,
    Cammar,
    // 000 2.08 Tleilaxu.
    Zoal,
    Hidar,
    Zaaf,
    Wykk,
    Blin,
    //
    // 000 2.09 CHOAM (board-data.md §5; the Auditor, an Advanced leader, 2.09.16/2.09.21).
    Jalma,
    Aru,
    Verdun,
    Londine,
    Tull,
    Auditor,
    //
    // 000 2.10 Richese (board-data.md §5).
    Calimar,
    Helena,
    Kinnis,
    Balt,
    Rund,
    //
    // 000 2.11 Ecaz, and Duke Vidal, the neutral leader of the Ecaz and Moritani expansion
    // (listed with Ecaz, whose box holds his disc; he is never a traitor).
    Sanya,
    Bludd,
    Ilesa,
    Rivvy,
    Bindikk,
    Vidal,
    // 000 2.12 Moritani.
    Lupino,
    Grieu,
    Hiih,
    Trin,
    Vando,
    //
    // 000 2.13 Free Traders: printed in neither rulebook nor the reference data; five discs
    // named for their strength until the component list is known (docs/notation.md, Decisions).
    Trader5,
    Trader4,
    Trader3,
    Trader2,
    Trader1,
}

/// One row of the leader table: leader, faction, DGN short name, full name, fighting strength.
#[derive(Clone, Copy, Debug)]
pub struct LeaderRow {
    pub leader: Leader,
    pub faction: Faction,
    pub code: &'static str,
    pub name: &'static str,
    pub strength: u8,
}

const fn leader(
    leader: Leader,
    faction: Faction,
    code: &'static str,
    name: &'static str,
    strength: u8,
) -> LeaderRow {
    LeaderRow {
        leader,
        faction,
        code,
        name,
        strength,
    }
}

/// The leaders, indexed by `Leader as usize`: the classic factions' 30, then each expansion
/// faction's.
#[rustfmt::skip]
pub const LEADERS: &[LeaderRow] = &[
    leader(Leader::Thufir, Faction::Atreides, "Thufir", "Thufir Hawat", 5),
    leader(Leader::Jessica, Faction::Atreides, "Jessica", "Lady Jessica", 5),
    leader(Leader::Gurney, Faction::Atreides, "Gurney", "Gurney Halleck", 4),
    leader(Leader::Duncan, Faction::Atreides, "Duncan", "Duncan Idaho", 2),
    leader(Leader::Yueh, Faction::Atreides, "Yueh", "Dr. Wellington Yueh", 1),
    leader(Leader::Alia, Faction::BeneGesserit, "Alia", "Alia", 5),
    leader(Leader::Margot, Faction::BeneGesserit, "Margot", "Margot Lady Fenring", 5),
    leader(Leader::Ramallo, Faction::BeneGesserit, "Ramallo", "Mother Ramallo", 5),
    leader(Leader::Irulan, Faction::BeneGesserit, "Irulan", "Princess Irulan", 5),
    leader(Leader::Wanna, Faction::BeneGesserit, "Wanna", "Wanna Yueh", 5),
    leader(Leader::Fenring, Faction::Emperor, "Fenring", "Count Hasimir Fenring", 6),
    leader(Leader::Aramsham, Faction::Emperor, "Aramsham", "Captain Aramsham", 5),
    leader(Leader::Caid, Faction::Emperor, "Caid", "Caid", 3),
    leader(Leader::Burseg, Faction::Emperor, "Burseg", "Burseg", 3),
    leader(Leader::Bashar, Faction::Emperor, "Bashar", "Bashar", 2),
    leader(Leader::Stilgar, Faction::Fremen, "Stilgar", "Stilgar", 7),
    leader(Leader::Chani, Faction::Fremen, "Chani", "Chani", 6),
    leader(Leader::Otheym, Faction::Fremen, "Otheym", "Otheym", 5),
    leader(Leader::Mapes, Faction::Fremen, "Mapes", "Shadout Mapes", 3),
    leader(Leader::Jamis, Faction::Fremen, "Jamis", "Jamis", 2),
    leader(Leader::Staban, Faction::SpacingGuild, "Staban", "Staban Tuek", 5),
    leader(Leader::Bewt, Faction::SpacingGuild, "Bewt", "Master Bewt", 3),
    leader(Leader::Esmar, Faction::SpacingGuild, "Esmar", "Esmar Tuek", 3),
    leader(Leader::Sook, Faction::SpacingGuild, "Sook", "Soo-Soo Sook", 2),
    leader(Leader::GuildRep, Faction::SpacingGuild, "GuildRep", "Guild Representative", 1),
    leader(Leader::Feyd, Faction::Harkonnen, "Feyd", "Feyd-Rautha", 6),
    leader(Leader::Rabban, Faction::Harkonnen, "Rabban", "Beast Rabban", 4),
    leader(Leader::Piter, Faction::Harkonnen, "Piter", "Piter de Vries", 3),
    leader(Leader::Nefud, Faction::Harkonnen, "Nefud", "Captain Iakin Nefud", 2),
    leader(Leader::Kudu, Faction::Harkonnen, "Kudu", "Umman Kudu", 1),
    // 000 2.07 Ixians
    leader(Leader::CTair, Faction::Ixians, "CTair", "C'Tair Pilru", 5),
    leader(Leader::Tessia, Faction::Ixians, "Tessia", "Tessia Vernius", 5),
    leader(Leader::Dominic, Faction::Ixians, "Dominic", "Dominic Vernius", 4),
    leader(Leader::Kailea, Faction::Ixians, "Kailea", "Kailea Vernius", 2),
    leader(Leader::Cammar, Faction::Ixians, "Cammar", "Cammar Pilru", 1),
    // 000 2.08 Tleilaxu. Zoal's strength is his opponent's leader's (2.08.14): 0 on the table,
    // read by `crate::battle`.
    leader(Leader::Zoal, Faction::Tleilaxu, "Zoal", "Zoal", 0),
    leader(Leader::Hidar, Faction::Tleilaxu, "Hidar", "Hidar Fen Ajidica", 4),
    leader(Leader::Zaaf, Faction::Tleilaxu, "Zaaf", "Master Zaaf", 3),
    leader(Leader::Wykk, Faction::Tleilaxu, "Wykk", "Wykk", 2),
    leader(Leader::Blin, Faction::Tleilaxu, "Blin", "Blin", 1),
    //
    // 000 2.09 CHOAM
    leader(Leader::Jalma, Faction::Choam, "Jalma", "Lady Jalma", 4),
    leader(Leader::Aru, Faction::Choam, "Aru", "Frankos Aru", 4),
    leader(Leader::Verdun, Faction::Choam, "Verdun", "Duke Verdun", 3),
    leader(Leader::Londine, Faction::Choam, "Londine", "Rajiv Londine", 3),
    leader(Leader::Tull, Faction::Choam, "Tull", "Viscount Tull", 2),
    leader(Leader::Auditor, Faction::Choam, "Auditor", "The Auditor", 2),
    //
    // 000 2.10 Richese
    leader(Leader::Calimar, Faction::Richese, "Calimar", "Premier Ein Calimar", 5),
    leader(Leader::Helena, Faction::Richese, "Helena", "Lady Helena", 4),
    leader(Leader::Kinnis, Faction::Richese, "Kinnis", "Flinto Kinnis", 3),
    leader(Leader::Balt, Faction::Richese, "Balt", "Talis Balt", 2),
    leader(Leader::Rund, Faction::Richese, "Rund", "Haloa Rund", 2),
    //
    // 000 2.11 Ecaz (board-data.md §5), and Duke Vidal
    leader(Leader::Sanya, Faction::Ecaz, "Sanya", "Sanya Ecaz", 4),
    leader(Leader::Bludd, Faction::Ecaz, "Bludd", "Whitmore Bludd", 4),
    leader(Leader::Ilesa, Faction::Ecaz, "Ilesa", "Ilesa Ecaz", 3),
    leader(Leader::Rivvy, Faction::Ecaz, "Rivvy", "Rivvy Dinari", 3),
    leader(Leader::Bindikk, Faction::Ecaz, "Bindikk", "Bindikk Narvi", 2),
    leader(Leader::Vidal, Faction::Ecaz, "Vidal", "Duke Prad Vidal", 6),
    // 000 2.12 Moritani
    leader(Leader::Lupino, Faction::Moritani, "Lupino", "Lupino Ord", 5),
    leader(Leader::Grieu, Faction::Moritani, "Grieu", "Grieu Kronos", 4),
    leader(Leader::Hiih, Faction::Moritani, "Hiih", "Hiih Resser", 4),
    leader(Leader::Trin, Faction::Moritani, "Trin", "Trin Kronos", 2),
    leader(Leader::Vando, Faction::Moritani, "Vando", "Vando Terboli", 1),
    //
    // 000 2.13 Free Traders
    leader(Leader::Trader5, Faction::FreeTraders, "Trader5", "Free Trader (5)", 5),
    leader(Leader::Trader4, Faction::FreeTraders, "Trader4", "Free Trader (4)", 4),
    leader(Leader::Trader3, Faction::FreeTraders, "Trader3", "Free Trader (3)", 3),
    leader(Leader::Trader2, Faction::FreeTraders, "Trader2", "Free Trader (2)", 2),
    leader(Leader::Trader1, Faction::FreeTraders, "Trader1", "Free Trader (1)", 1),
];

/// Forces per faction (glossary "Force": twenty tokens).
pub const FORCES_PER_FACTION: u8 = 20;
