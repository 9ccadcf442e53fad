//! The GenCon rulebook (001, version 2.13.3) rule by rule, as a judge looks it up: each numbered
//! rule's heading, Mentat's own summary, the rulings that touch it, where the engine checks it
//! and an example log that breaks it.
//!
//! The data is compiled in from three files (see `build.rs`): `gencon-2.13.3.md` (written by
//! people), `docs/rulings.md` (the rulings) and `engine-index.txt` (generated from the engine's
//! sources by `tests/engine_index.rs`, which fails when the engine cites a rule the index misses).
//! Pure: no IO at run time, so the same lookups serve the server and a phone.
// A panic in the hall loses a judge's work: outside tests, every failure is an error value.
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

pub mod scan;
mod search;

use dune::Rule;

pub use search::search;

/// One numbered rule.
#[derive(Debug)]
pub struct Entry {
    pub number: Rule,
    /// The rulebook's heading, or Mentat's where the rulebook prints none.
    pub heading: &'static str,
    /// Mentat's own summary: one to three sentences.
    pub summary: &'static str,
    /// Extra words a judge may search for.
    pub keywords: &'static [&'static str],
    /// Numbers of the rulings (`docs/rulings.md`) that cite this rule.
    pub rulings: &'static [u32],
    /// The engine's source files that cite this rule, with how often.
    pub engine: &'static [Citation],
    /// Logs from `engine/tests/games/` whose first violation is this rule.
    pub examples: &'static [Example],
    /// False for numbers 001 cites but does not contain (left over from the full rulebook).
    pub in_rulebook: bool,
}

/// A file of the engine that cites a rule (`replay/movement.rs`, 3 times).
#[derive(Debug)]
pub struct Citation {
    /// Path from the repository's root.
    pub file: &'static str,
    pub count: u32,
}

/// An illegal game log that breaks a rule.
#[derive(Debug)]
pub struct Example {
    /// File name, e.g. `illegal-1.06.03.05-ship-into-full-stronghold.dgn`.
    pub file: &'static str,
    pub text: &'static str,
}

/// A ruling: Mentat's decision where the rulebook is silent or contradicts itself.
#[derive(Debug)]
pub struct Ruling {
    pub number: u32,
    pub title: &'static str,
    pub text: &'static str,
    /// The rules it cites, in the order it cites them.
    pub rules: &'static [Rule],
}

include!(concat!(env!("OUT_DIR"), "/rules.rs"));

/// Every rule, in the rulebook's order.
pub fn all() -> &'static [Entry] {
    RULES
}

/// The rule with this number, if the rulebook has (or cites) it.
pub fn get(number: Rule) -> Option<&'static Entry> {
    RULES
        .binary_search_by(|e| e.number.cmp(&number))
        .ok()
        .and_then(|i| RULES.get(i))
}

/// The rules directly below this one (`1.06.03` → `1.06.03.00` … `1.06.03.05`); for a section
/// (`1.06`), its rules `1.06.00` … `1.06.08`.
pub fn children(number: Rule) -> impl Iterator<Item = &'static Entry> {
    RULES
        .iter()
        .filter(move |e| e.number.parent() == Some(number))
}

/// The nearest rule above this one that has a row (`1.06.03.05` → `1.06.03`).
pub fn parent(number: Rule) -> Option<&'static Entry> {
    let mut at = number.parent();
    while let Some(p) = at {
        if let Some(e) = get(p) {
            return Some(e);
        }
        at = p.parent();
    }
    None
}

pub fn rulings() -> &'static [Ruling] {
    RULINGS
}

pub fn ruling(number: u32) -> Option<&'static Ruling> {
    RULINGS.iter().find(|r| r.number == number)
}

/// The chapter a rule belongs to, for grouping an index.
pub fn chapter_name(number: Rule) -> &'static str {
    match number.parts().first() {
        Some(0) => "Setup of the game",
        Some(1) => "Phases of the game",
        Some(2) => "Factions",
        Some(3) => "Treachery cards",
        _ => "Variants",
    }
}

impl Entry {
    pub fn is_checked_by_engine(&self) -> bool {
        !self.engine.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dune::rule;

    #[test]
    fn every_number_the_engine_fixtures_name_has_a_page() {
        for e in all() {
            for ex in e.examples {
                assert!(ex.file.contains(&e.number.to_string()), "{}", ex.file);
                assert!(!ex.text.is_empty());
            }
        }
        assert!(all().len() >= 440, "{}", all().len());
    }

    #[test]
    fn lookup_parent_and_children() {
        let e = get(rule!("1.06.03.05")).unwrap();
        assert_eq!(e.heading, "Occupancy limit");
        assert_eq!(
            parent(rule!("1.06.03.05")).unwrap().number,
            rule!("1.06.03")
        );
        let kids: Vec<String> = children(rule!("1.06.03"))
            .map(|e| e.number.to_string())
            .collect();
        assert_eq!(kids.first().map(String::as_str), Some("1.06.03.00"));
        assert_eq!(kids.len(), 6);
        assert!(get(rule!("1.99")).is_none());
        // 1.09.02 has subrules but the rulebook prints it as a bare heading.
        assert!(get(rule!("1.09.02")).is_some());
    }

    #[test]
    fn rulings_are_attached_to_the_rules_they_cite() {
        // Ruling 26: battle losses are the forces dialed (1.07.04.01).
        let e = get(rule!("1.07.04.01")).unwrap();
        assert!(e.rulings.contains(&26), "{:?}", e.rulings);
        let r = ruling(26).unwrap();
        assert!(r.rules.contains(&rule!("1.07.04.01")));
        assert!(!r.title.is_empty());
    }

    #[test]
    fn rules_missing_from_001_say_so() {
        let e = get(rule!("2.11.22")).unwrap();
        assert!(!e.in_rulebook);
        assert!(get(rule!("1.06.03")).unwrap().in_rulebook);
    }
}
