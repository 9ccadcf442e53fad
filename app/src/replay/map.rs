//! The board as a schematic map: 18 sector wedges around the Polar Sink, each territory an
//! annular piece placed by its sectors (the engine's board data) at a distance from the Polar
//! Sink that follows the printed board. Pure geometry; the server joins it with the engine's
//! territory table (`bridge::board_map`) and the page draws it as SVG.
//!
//! Coordinates: the map is a circle of radius [`EDGE`] centred on the origin, y downwards (SVG).
//! Sector 1 (the Storm Start sector, DGN numbering) is at the bottom; numbers grow
//! counterclockwise, as the storm moves.

use serde::{Deserialize, Serialize};

/// Radius of the map's edge in SVG units (the view box is 200 units wide).
pub const EDGE: f64 = 95.0;
/// Radius of the Polar Sink.
pub const POLAR: f64 = EDGE / 5.0;

/// Where a territory lies: from `start` to `end` in sector units (sector index 0-17 spans
/// `[s, s+1]`; `end` may pass 18 to wrap), and from `inner` to `outer` in fifths of the map's
/// radius (1 = the Polar Sink's edge, 5 = the map's edge).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Place {
    pub start: f64,
    pub end: f64,
    pub inner: f64,
    pub outer: f64,
}

const fn at(start: f64, end: f64, inner: f64, outer: f64) -> Place {
    Place {
        start,
        end,
        inner,
        outer,
    }
}

/// Where the Hidden Mobile Stronghold's marker goes when its token points at `sector` (1-18) of
/// the territory `code`: in that territory, at the middle of that sector's part of it (000
/// 2.07.17). `None` for a territory the layout does not place.
pub fn hms_point(code: &str, sector: u8) -> Option<(f64, f64)> {
    let place = place_of(code)?;
    let mut s = f64::from(sector.saturating_sub(1));
    // A territory across sector 0 runs past 18.
    if s + 1.0 <= place.start && s + 18.0 < place.end {
        s += 18.0;
    }
    // The middle of the part of that sector the territory's piece covers; the piece's nearest
    // edge where the layout draws none of that sector.
    let (lo, hi) = (s.max(place.start), (s + 1.0).min(place.end));
    let u = if lo < hi {
        (lo + hi) / 2.0
    } else {
        (s + 0.5).clamp(place.start + 0.3, (place.end - 0.3).max(place.start + 0.3))
    };
    Some(point(u, r(place.inner + (place.outer - place.inner) * 0.3)))
}

/// A hexagon of radius `r` around `(x, y)`, the Hidden Mobile Stronghold's token.
pub fn hexagon(x: f64, y: f64, r: f64) -> String {
    let mut d = String::new();
    for k in 0..6 {
        let a = std::f64::consts::PI / 3.0 * f64::from(k) + std::f64::consts::PI / 6.0;
        let (px, py) = (x + r * a.cos(), y + r * a.sin());
        d.push_str(&format!(
            "{}{px:.1} {py:.1}",
            if k == 0 { "M" } else { "L" }
        ));
    }
    d.push('Z');
    d
}

/// The layout, by DGN territory code. A judge who finds a territory misplaced edits this table;
/// `tests` checks each piece stays inside the sectors the engine gives the territory.
#[rustfmt::skip]
pub const LAYOUT: [(&str, Place); 41] = [
    // The ring around the Polar Sink.
    ("CN", at(0.0, 3.0, 1.0, 2.1)),
    ("HP", at(3.0, 4.5, 1.0, 2.1)),
    ("FWE", at(4.5, 8.3, 1.0, 1.8)),
    ("IB", at(8.3, 10.4, 1.0, 2.6)),
    ("ARS", at(10.4, 11.6, 1.0, 2.6)),
    ("HGB", at(11.6, 13.0, 1.0, 2.2)),
    ("WP", at(13.0, 16.0, 1.0, 2.2)),
    ("WPN", at(16.0, 18.0, 1.0, 2.2)),
    // South: the Cielagos and Meridian.
    ("CD", at(0.6, 2.4, 2.1, 3.4)),
    ("MER", at(0.0, 1.5, 3.4, 5.0)),
    ("CS", at(1.5, 2.4, 3.4, 5.0)),
    ("CE", at(2.4, 3.6, 2.1, 5.0)),
    // East: False Wall South, Tuek's Sietch, the Mesas and the Minor Erg.
    ("FWS", at(3.6, 4.6, 2.1, 3.0)),
    ("TUK", at(4.0, 4.6, 3.0, 3.9)),
    ("SM", at(3.6, 5.9, 3.9, 5.0)),
    ("ME", at(4.6, 7.5, 1.8, 2.8)),
    ("PM", at(4.6, 7.5, 2.8, 3.9)),
    ("RC", at(6.0, 7.0, 3.9, 5.0)),
    ("GK", at(7.0, 8.0, 3.9, 5.0)),
    // North-east: the Shield Wall and what lies beyond it.
    ("SW", at(7.5, 8.3, 1.8, 3.9)),
    ("SR", at(8.0, 8.5, 3.9, 5.0)),
    ("HR", at(8.3, 8.7, 2.6, 3.9)),
    ("RWW", at(8.7, 9.0, 2.6, 3.9)),
    ("BAS", at(8.5, 9.0, 3.9, 5.0)),
    // North: Arrakeen, Carthag and the basins.
    ("ARK", at(9.0, 10.0, 2.6, 4.0)),
    ("OG", at(9.0, 10.6, 4.0, 5.0)),
    ("CAR", at(10.0, 10.7, 2.6, 3.8)),
    ("TSI", at(10.7, 12.3, 2.6, 3.8)),
    ("BL", at(10.6, 12.0, 3.8, 5.0)),
    ("RO", at(12.0, 13.0, 3.8, 5.0)),
    ("PB", at(12.3, 14.0, 2.2, 3.8)),
    // West: Sietch Tabr, the Flats, Habbanya.
    ("TAB", at(13.0, 14.0, 3.8, 4.4)),
    ("BC", at(13.0, 15.0, 4.4, 5.0)),
    ("GF", at(14.0, 15.0, 2.2, 3.6)),
    ("FP", at(14.0, 15.0, 3.6, 4.4)),
    ("GRF", at(15.0, 16.0, 2.2, 3.6)),
    ("HE", at(15.0, 16.4, 3.6, 5.0)),
    ("FWW", at(16.0, 17.6, 2.2, 3.4)),
    ("HAB", at(16.4, 17.0, 3.4, 5.0)),
    ("HRF", at(17.0, 18.0, 3.4, 5.0)),
    ("CW", at(17.6, 18.6, 2.2, 3.4)),
];

pub fn place_of(code: &str) -> Option<Place> {
    LAYOUT.iter().find(|(c, _)| *c == code).map(|(_, p)| *p)
}

/// The SVG angle (degrees, y downwards) of a position in sector units: sector 0's middle is at the
/// bottom and positions grow counterclockwise on screen.
pub fn angle(u: f64) -> f64 {
    90.0 - 20.0 * (u - 0.5)
}

pub fn point(u: f64, radius: f64) -> (f64, f64) {
    let a = angle(u).to_radians();
    (radius * a.cos(), radius * a.sin())
}

fn r(fifths: f64) -> f64 {
    EDGE * fifths / 5.0
}

/// The outline of a piece of the map as an SVG path.
pub fn annulus_path(start: f64, end: f64, inner: f64, outer: f64) -> String {
    let (ri, ro) = (r(inner), r(outer));
    let large = if (end - start) * 20.0 > 180.0 { 1 } else { 0 };
    let (x0, y0) = point(start, ro);
    let (x1, y1) = point(end, ro);
    let (x2, y2) = point(end, ri);
    let (x3, y3) = point(start, ri);
    // Growing u runs counterclockwise on screen: the outer arc sweeps with flag 0, the inner
    // arc back with flag 1.
    format!(
        "M{x0:.1} {y0:.1}A{ro:.1} {ro:.1} 0 {large} 0 {x1:.1} {y1:.1}L{x2:.1} {y2:.1}A{ri:.1} {ri:.1} 0 {large} 1 {x3:.1} {y3:.1}Z"
    )
}

impl Place {
    pub fn path(self) -> String {
        annulus_path(self.start, self.end, self.inner, self.outer)
    }

    /// The middle of the piece, where its label and tokens go.
    pub fn centre(self) -> (f64, f64) {
        point(
            (self.start + self.end) / 2.0,
            r((self.inner + self.outer) / 2.0),
        )
    }

    /// The sector indices (0-17) the piece touches.
    pub fn sectors(self) -> Vec<u8> {
        let mut out = Vec::new();
        let mut s = self.start.floor();
        while s < self.end - 1e-9 {
            out.push((s.rem_euclid(18.0)) as u8);
            s += 1.0;
        }
        out
    }
}

/// One territory as drawn.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Area {
    pub code: String,
    pub name: String,
    pub kind: AreaKind,
    pub path: String,
    /// Where its label and tokens go.
    pub x: f64,
    pub y: f64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum AreaKind {
    Sand,
    Rock,
    Stronghold,
    PolarSink,
}

impl AreaKind {
    pub fn class(self) -> &'static str {
        match self {
            AreaKind::Sand => "sand",
            AreaKind::Rock => "rock",
            AreaKind::Stronghold => "stronghold",
            AreaKind::PolarSink => "polar",
        }
    }
}

/// The drawn map: every territory, and the 18 sectors (number, wedge outline, label point).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BoardMap {
    pub areas: Vec<Area>,
    pub sectors: Vec<SectorMark>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SectorMark {
    /// 1-18, as judges write it.
    pub number: u8,
    pub wedge: String,
    pub x: f64,
    pub y: f64,
}

/// The 18 sector wedges (from the Polar Sink to the edge) with their numbers outside the edge.
pub fn sector_marks() -> Vec<SectorMark> {
    (0..18u8)
        .map(|s| {
            let u = f64::from(s);
            let (x, y) = point(u + 0.5, EDGE + 5.0);
            SectorMark {
                number: s + 1,
                wedge: annulus_path(u, u + 1.0, 1.0, 5.0),
                x,
                y,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sector_one_is_at_the_bottom_and_ten_at_the_top() {
        let (x, y) = point(0.5, EDGE);
        assert!(x.abs() < 1e-6 && (y - EDGE).abs() < 1e-6);
        let (x, y) = point(9.5, EDGE);
        assert!(x.abs() < 1e-6 && (y + EDGE).abs() < 1e-6);
        // Counterclockwise on screen: sector 5 (index 4) is on the right.
        assert!(point(4.5, EDGE).0 > 0.0);
    }

    #[test]
    fn pieces_do_not_overlap() {
        for (i, (a, p)) in LAYOUT.iter().enumerate() {
            for (b, q) in &LAYOUT[i + 1..] {
                let radial = p.inner < q.outer - 1e-9 && q.inner < p.outer - 1e-9;
                let overlap = |s0: f64, e0: f64, s1: f64, e1: f64| s0 < e1 - 1e-9 && s1 < e0 - 1e-9;
                let angular = [-18.0, 0.0, 18.0]
                    .iter()
                    .any(|shift| overlap(p.start, p.end, q.start + shift, q.end + shift));
                assert!(!(radial && angular), "{a} overlaps {b}");
            }
        }
    }

    #[test]
    fn paths_are_closed_outlines() {
        let p = place_of("ARK").unwrap().path();
        assert!(p.starts_with('M') && p.ends_with('Z'), "{p}");
        assert_eq!(sector_marks().len(), 18);
    }
}
