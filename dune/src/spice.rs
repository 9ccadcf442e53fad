//! Spice amounts: behind a shield, on the map, in a bid, dialled in a battle, on a report.

use std::fmt;
use std::iter::Sum;
use std::ops::{Add, AddAssign};

use serde::{Deserialize, Serialize};

/// An amount of spice. Never negative; subtraction is explicit about running short.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct Spice(u32);

impl Spice {
    pub const ZERO: Spice = Spice(0);

    pub const fn new(amount: u32) -> Spice {
        Spice(amount)
    }

    pub const fn amount(self) -> u32 {
        self.0
    }

    pub const fn is_zero(self) -> bool {
        self.0 == 0
    }

    /// `None` when there is not enough: the caller decides what running short means.
    pub const fn checked_sub(self, other: Spice) -> Option<Spice> {
        match self.0.checked_sub(other.0) {
            Some(n) => Some(Spice(n)),
            None => None,
        }
    }

    /// What is left after paying as much of `other` as there is.
    pub const fn saturating_sub(self, other: Spice) -> Spice {
        Spice(self.0.saturating_sub(other.0))
    }

    pub const fn saturating_add(self, other: Spice) -> Spice {
        Spice(self.0.saturating_add(other.0))
    }

    pub const fn times(self, n: u32) -> Spice {
        Spice(self.0.saturating_mul(n))
    }

    /// Half, rounded up (the Guild's half-price shipping, 2.06.06, 2.06.09).
    pub const fn half_up(self) -> Spice {
        Spice(self.0.div_ceil(2))
    }

    /// Takes up to `want` out of this amount and returns what was taken: paying from a shield
    /// that may hold less, picking up spice from the map.
    pub fn take(&mut self, want: Spice) -> Spice {
        let taken = Spice(self.0.min(want.0));
        self.0 -= taken.0;
        taken
    }
}

/// Amounts compare with plain numbers: `spice > 1`, `price == 0`.
impl PartialEq<u32> for Spice {
    fn eq(&self, other: &u32) -> bool {
        self.0 == *other
    }
}

impl PartialOrd<u32> for Spice {
    fn partial_cmp(&self, other: &u32) -> Option<std::cmp::Ordering> {
        Some(self.0.cmp(other))
    }
}

impl Add for Spice {
    type Output = Spice;
    /// Saturating: no real game holds four billion spice, and a sum must not wrap or panic.
    fn add(self, other: Spice) -> Spice {
        self.saturating_add(other)
    }
}

impl AddAssign for Spice {
    fn add_assign(&mut self, other: Spice) {
        *self = *self + other;
    }
}

impl Sum for Spice {
    fn sum<I: Iterator<Item = Spice>>(iter: I) -> Spice {
        iter.fold(Spice::ZERO, Add::add)
    }
}

impl From<u32> for Spice {
    fn from(n: u32) -> Spice {
        Spice(n)
    }
}

/// Shown as the number alone; DGN writes `$n`, a page "n spice", each in its own place.
impl fmt::Display for Spice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arithmetic_never_wraps() {
        let five = Spice::new(5);
        assert_eq!(five.checked_sub(Spice::new(6)), None);
        assert_eq!(five.saturating_sub(Spice::new(6)), Spice::ZERO);
        assert_eq!(Spice::new(u32::MAX) + five, Spice::new(u32::MAX));
        assert_eq!([five, five].into_iter().sum::<Spice>(), Spice::new(10));
        assert_eq!(serde_json::to_string(&five).unwrap(), "5");
        assert_eq!(five.half_up(), Spice::new(3));
        let mut shield = five;
        assert_eq!(shield.take(Spice::new(7)), five);
        assert!(shield.is_zero() && shield == 0 && five > 4);
    }
}
