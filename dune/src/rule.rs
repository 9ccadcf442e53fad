//! Rule numbers, such as `1.06.03.05`, of the GenCon rulebook (001) or the full rulebook (000),
//! read in a [`Book`](crate::Book).
//!
//! The full rulebook prints no numbers; Mentat numbers its rules by their place, as the GenCon
//! rulebook numbers its own: sections from `01`, the items of a list from `00` (an introduction,
//! or a faction's note on its Basic and Advanced abilities, is `.00`). So chapter 2, section 7
//! (the Ixians), item 2, their starting spice, is `2.07.01`; its deepest rules have five parts
//! (`1.07.06.06.00`, a traitor in battle; `4.03.06.01.02`, a Nexus card's effect). The same
//! number can still name different rules in the two books (1.14.07 is the Free Traders' Karama
//! power in 001, the Ixians' in 000), so a citation carries its [`Book`].
//!
//! Write a rule in code as `rule!("1.06.03.05")`: the number is checked when the program is
//! compiled, and a judge's "where is 1.06.03.05 checked?" is answered by one search for the
//! number. Numbers typed by people (a Karama naming the ability it stops, a rule page's address)
//! go through [`Rule::parse`], which says what is wrong with them.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A rule number: a chapter digit, then one to four two-digit parts (`0.07`, `1.13.05`,
/// `4.01.10.01`, and the traitor rules' `1.07.06.06.02`). Ordered as the rulebook is; `Copy`, no
/// allocation.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Rule {
    /// Unused parts are zero *and* excluded by `len`, so `1.06` and `1.06.00` differ.
    parts: [u8; 5],
    len: u8,
}

/// Why a text is not a rule number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RuleError {
    #[error("a rule number begins with its chapter, one digit (as in 1.06.03)")]
    Chapter,
    #[error("after the chapter, each part of a rule number is two digits (as in 1.06.03)")]
    Part,
    #[error("a rule number has two to five parts (as in 0.07 or 1.06.03.05)")]
    Length,
}

const fn digit(b: u8) -> Option<u8> {
    if b.is_ascii_digit() {
        Some(b - b'0')
    } else {
        None
    }
}

impl Rule {
    /// For constants and the [`rule!`](crate::rule) macro: fails to compile when the number is
    /// malformed. Text from people goes through [`Rule::parse`].
    pub const fn new(number: &str) -> Rule {
        match Rule::parse(number) {
            Ok(r) => r,
            Err(_) => panic!("malformed rule number"),
        }
    }

    pub const fn parse(number: &str) -> Result<Rule, RuleError> {
        let b = number.as_bytes();
        if b.is_empty() {
            return Err(RuleError::Chapter);
        }
        let Some(chapter) = digit(b[0]) else {
            return Err(RuleError::Chapter);
        };
        let mut parts = [chapter, 0, 0, 0, 0];
        let mut len = 1usize;
        let mut i = 1;
        while i < b.len() {
            if b[i] != b'.' {
                return Err(if len == 1 {
                    RuleError::Chapter
                } else {
                    RuleError::Part
                });
            }
            if len == 5 {
                return Err(RuleError::Length);
            }
            if i + 2 >= b.len() {
                return Err(RuleError::Part);
            }
            let (Some(hi), Some(lo)) = (digit(b[i + 1]), digit(b[i + 2])) else {
                return Err(RuleError::Part);
            };
            parts[len] = hi * 10 + lo;
            len += 1;
            i += 3;
        }
        if len < 2 {
            return Err(RuleError::Length);
        }
        Ok(Rule {
            parts,
            len: len as u8,
        })
    }

    /// The parts as numbers: `1.06.03` → `[1, 6, 3]`.
    pub fn parts(&self) -> &[u8] {
        &self.parts[..usize::from(self.len)]
    }

    /// The rule this one belongs to (`1.06.03.05` → `1.06.03`); `None` for a section (`1.06`).
    pub fn parent(self) -> Option<Rule> {
        (self.len > 2).then(|| {
            let mut parts = self.parts;
            parts[usize::from(self.len) - 1] = 0;
            Rule {
                parts,
                len: self.len - 1,
            }
        })
    }

    /// Whether this rule is `other` or one of its sub-rules (`1.06.03.05` is within `1.06`).
    /// `const` for the crosswalk's tables (`crate::crosswalk`).
    pub const fn is_within(self, other: Rule) -> bool {
        if self.len < other.len {
            return false;
        }
        let mut i = 0;
        while i < other.len as usize {
            if self.parts[i] != other.parts[i] {
                return false;
            }
            i += 1;
        }
        true
    }

    /// Whether the two are the same number (`==` for `const` code).
    pub const fn same(self, other: Rule) -> bool {
        self.len == other.len && self.is_within(other)
    }

    /// `self` with the leading `from` replaced by `to`: `1.06.03.05` moved from `1.06.03` to
    /// `1.06.02` is `1.06.02.05`. `None` when `self` is not within `from` or the result would be
    /// longer than a rule number can be.
    pub fn moved(self, from: Rule, to: Rule) -> Option<Rule> {
        if !self.is_within(from) {
            return None;
        }
        let tail = &self.parts()[usize::from(from.len)..];
        let len = usize::from(to.len) + tail.len();
        if len > 5 {
            return None;
        }
        let mut parts = to.parts;
        parts[usize::from(to.len)..len].copy_from_slice(tail);
        Some(Rule {
            parts,
            len: len as u8,
        })
    }
}

/// A rule number checked when the program is compiled: `rule!("1.06.03.05")`.
///
/// ```
/// assert_eq!(dune::rule!("1.06.03.05").to_string(), "1.06.03.05");
/// ```
///
/// A malformed number does not compile:
///
/// ```compile_fail
/// let r = dune::rule!("1.6.3");
/// ```
#[macro_export]
macro_rules! rule {
    ($number:literal) => {{
        const RULE: $crate::Rule = $crate::Rule::new($number);
        RULE
    }};
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts = self.parts();
        write!(f, "{}", parts[0])?;
        for p in &parts[1..] {
            write!(f, ".{p:02}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Rule({self})")
    }
}

impl FromStr for Rule {
    type Err = RuleError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Rule::parse(s.trim())
    }
}

impl PartialEq<&str> for Rule {
    fn eq(&self, other: &&str) -> bool {
        Rule::parse(other) == Ok(*self)
    }
}

impl Serialize for Rule {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Rule {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Book;

    #[test]
    fn numbers_of_every_shape_round_trip() {
        for n in ["0.07", "1.13.05", "1.06.03.05", "4.01.10.01", "2.05.10.00"] {
            assert_eq!(Rule::parse(n).unwrap().to_string(), n);
        }
        assert_eq!(rule!("1.06.03.05").parts(), [1, 6, 3, 5]);
    }

    #[test]
    fn malformed_numbers_say_why() {
        assert_eq!(Rule::parse(""), Err(RuleError::Chapter));
        assert_eq!(Rule::parse("x.01"), Err(RuleError::Chapter));
        assert_eq!(Rule::parse("1"), Err(RuleError::Length));
        assert_eq!(Rule::parse("1.6"), Err(RuleError::Part));
        assert_eq!(Rule::parse("1.06."), Err(RuleError::Part));
        assert_eq!(Rule::parse("1.06.3"), Err(RuleError::Part));
        assert_eq!(Rule::parse("1.006"), Err(RuleError::Part));
        assert_eq!(Rule::parse("1.07.06.06.02").map(|r| r.parts().len()), Ok(5));
        assert_eq!(Rule::parse("1.07.06.06.02.01"), Err(RuleError::Length));
        assert_eq!(Rule::parse("12.01"), Err(RuleError::Chapter));
    }

    #[test]
    fn every_number_of_the_full_rulebook_can_be_written() {
        // 000 numbers items from 00, as 001 does, and nests five deep: a chapter's own items
        // (`1.00.05`), a faction's abilities (`2.07.01`, `2.13.13`), a sub-item (`2.04.09.02`),
        // the traitor rules (`1.07.06.06.00`) and a variant's cards (`4.03.06.01.02`).
        for n in [
            "0.16",
            "1.00.05",
            "1.04.06.04",
            "1.07.06.06.02",
            "2.07.01",
            "2.13.13",
            "2.04.09.02",
            "3.07.03.02",
            "4.03.06.01.02",
        ] {
            let r = Rule::parse(n).unwrap();
            assert_eq!(r.to_string(), n);
        }
        assert_eq!(rule!("1.07.06.06.00").parent(), Some(rule!("1.07.06.06")));
        assert!(rule!("2.07.01") > rule!("2.06.12.02"));
        assert_eq!(Book::Full.to_string(), "000");
        assert_eq!(serde_json::to_string(&Book::GenCon).unwrap(), "\"001\"");
    }

    #[test]
    fn rules_nest_and_sort_as_the_rulebook() {
        let r = rule!("1.06.03.05");
        assert_eq!(r.parent(), Some(rule!("1.06.03")));
        assert_eq!(rule!("1.06").parent(), None);
        assert!(r.is_within(rule!("1.06")));
        assert!(!rule!("1.06").is_within(r));
        assert!(!rule!("1.07.01").is_within(rule!("1.06")));
        assert!(rule!("1.06") < rule!("1.06.00"));
        assert!(rule!("1.06.03.05") < rule!("1.07"));
        assert_ne!(rule!("1.06"), rule!("1.06.00"));
        assert_eq!(rule!("0.08"), "0.08");
        assert_eq!(serde_json::to_string(&rule!("0.08")).unwrap(), "\"0.08\"");
    }
}
