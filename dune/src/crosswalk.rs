//! Where the GenCon rulebook (001) and the full rulebook (000) number the same rule differently,
//! where one book has a rule the other lacks, and which rules the full rulebook prints in two
//! versions. Small tables, read by [`Book::cite`](crate::Book::cite) to turn a rule cited in
//! Mentat's numbering into the number of the game's book, and by the rule pages to link a rule
//! to its counterpart in the other book. `rulebook`'s tests hold these tables to both indexes.
//!
//! How the books differ (checked item by item against both texts):
//! - 1.06: the full rulebook has no "one force shipment" item (GenCon 1.06.02), so every later
//!   rule of the Shipment and Movement phase is one lower there (GenCon 1.06.03.05, the
//!   occupancy limit for shipments, is full 1.06.02.05).
//! - 1.14: GenCon prints only the Free Traders' power of the seven expansion factions (1.14.07);
//!   the full rulebook prints all seven, the Free Traders' last (1.14.13), and its 1.14.07 is
//!   the Ixians'.
//! - 4.01.10: the full rulebook splits End Game Victory into Solo and Allied, so the later point
//!   lines are one lower at GenCon.
//! - 4.03: GenCon's 4.03 is the stronghold cards; the full rulebook's is the Nexus cards and its
//!   stronghold cards are 4.04.
//! - GenCon 1.05.05 (looking at one's face-down leaders) has no counterpart in the full rulebook.

use crate::rule::Rule;

/// One rule (with `subrules`, everything under it) numbered differently in the two books.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Renumbered {
    pub gencon: Rule,
    pub full: Rule,
    /// Whether the rules under it move with it (`1.06.03.05` → `1.06.02.05`), or only this
    /// number has this counterpart.
    pub subrules: bool,
}

const fn moved(gencon: &str, full: &str) -> Renumbered {
    Renumbered {
        gencon: Rule::new(gencon),
        full: Rule::new(full),
        subrules: true,
    }
}

const fn related(gencon: &str, full: &str) -> Renumbered {
    Renumbered {
        gencon: Rule::new(gencon),
        full: Rule::new(full),
        subrules: false,
    }
}

/// The renumbered rules. Where a number has several counterparts, the first listed is the same
/// rule and the others are related (GenCon's End Game Victory is the full rulebook's Solo End Game
/// Victory, and related to its Allied one).
pub const RENUMBERED: &[Renumbered] = &[
    moved("1.06.03", "1.06.02"),
    // GenCon's own "one shipment per turn" item says what full 1.06.02 says in passing.
    related("1.06.02", "1.06.02"),
    moved("1.06.04", "1.06.03"),
    moved("1.06.05", "1.06.04"),
    moved("1.06.06", "1.06.05"),
    moved("1.06.07", "1.06.06"),
    moved("1.06.08", "1.06.07"),
    moved("1.14.07", "1.14.13"),
    related("4.01.10.06", "4.01.10.06"),
    related("4.01.10.06", "4.01.10.07"),
    moved("4.01.10.07", "4.01.10.08"),
    moved("4.01.10.08", "4.01.10.09"),
    moved("4.01.10.09", "4.01.10.10"),
    moved("4.03", "4.04"),
];

/// Numbers the GenCon rulebook does not use: every rule within one of these is read in the full
/// rulebook whatever the game (the Karama powers of 1.14.08-1.14.13, the seven expansion
/// factions, the expansion treachery cards, the variants GenCon leaves out).
pub const ONLY_IN_FULL: &[Rule] = &[
    Rule::new("1.14.08"),
    Rule::new("1.14.09"),
    Rule::new("1.14.10"),
    Rule::new("1.14.11"),
    Rule::new("1.14.12"),
    Rule::new("1.14.13"),
    Rule::new("2.07"),
    Rule::new("2.08"),
    Rule::new("2.09"),
    Rule::new("2.10"),
    Rule::new("2.11"),
    Rule::new("2.12"),
    Rule::new("2.13"),
    Rule::new("3.02"),
    Rule::new("3.03"),
    Rule::new("3.04"),
    Rule::new("3.05"),
    Rule::new("3.06"),
    Rule::new("3.07"),
    Rule::new("3.08"),
    Rule::new("3.09"),
    Rule::new("4.01.10.10"),
    Rule::new("4.02.07"),
    Rule::new("4.04"),
    Rule::new("4.05"),
    Rule::new("4.06"),
    Rule::new("4.07"),
    Rule::new("4.08"),
    Rule::new("4.09"),
    Rule::new("4.10"),
];

/// GenCon rules the full rulebook does not have: a `full` game that breaks one is still shown
/// the GenCon rule.
pub const ONLY_IN_GENCON: &[Rule] = &[Rule::new("1.05.05")];

/// Rules the full rulebook prints in two versions (see [`crate::Edition`]), or in one edition
/// only, with the rules under them: a number here is read together with the game's edition.
/// For CHOAM (2.09) every rule below the section differs, its abilities being printed as two
/// whole lists; elsewhere an item holds an original and a revised text run together (the
/// Ixians' stronghold move, Richese's black market, Ecaz's ambassadors, Moritani's terror
/// tokens, three Karama powers, five stronghold cards), or stands beyond one version's range of
/// abilities. `rulebook`'s tests keep this list equal to the index's edition rows.
pub const BY_EDITION: &[Rule] = &[
    Rule::new("1.14.09"),
    Rule::new("1.14.11"),
    Rule::new("1.14.12"),
    Rule::new("2.01.08"),
    Rule::new("2.02.06"),
    Rule::new("2.04.16"),
    Rule::new("2.07.18"),
    Rule::new("2.07.21"),
    Rule::new("2.07.22"),
    Rule::new("2.09.00"),
    Rule::new("2.09.01"),
    Rule::new("2.09.02"),
    Rule::new("2.09.03"),
    Rule::new("2.09.04"),
    Rule::new("2.09.05"),
    Rule::new("2.09.06"),
    Rule::new("2.09.07"),
    Rule::new("2.09.08"),
    Rule::new("2.09.09"),
    Rule::new("2.09.10"),
    Rule::new("2.09.11"),
    Rule::new("2.09.12"),
    Rule::new("2.09.13"),
    Rule::new("2.09.14"),
    Rule::new("2.09.15"),
    Rule::new("2.09.16"),
    Rule::new("2.09.17"),
    Rule::new("2.09.18"),
    Rule::new("2.09.19"),
    Rule::new("2.09.20"),
    Rule::new("2.09.21"),
    Rule::new("2.09.22"),
    Rule::new("2.09.23"),
    Rule::new("2.09.24"),
    Rule::new("2.09.25"),
    Rule::new("2.09.26"),
    Rule::new("2.10.00"),
    Rule::new("2.10.03"),
    Rule::new("2.10.07"),
    Rule::new("2.10.10"),
    Rule::new("2.10.15"),
    Rule::new("2.10.19"),
    Rule::new("2.10.21"),
    Rule::new("2.10.22"),
    Rule::new("2.10.23"),
    Rule::new("2.11.00"),
    Rule::new("2.11.03"),
    Rule::new("2.11.06"),
    Rule::new("2.11.07"),
    Rule::new("2.11.08"),
    Rule::new("2.11.09"),
    Rule::new("2.11.16.00"),
    Rule::new("2.11.16.01"),
    Rule::new("2.11.16.02"),
    Rule::new("2.11.16.03"),
    Rule::new("2.11.16.04"),
    Rule::new("2.11.16.05"),
    Rule::new("2.11.16.06"),
    Rule::new("2.11.16.07"),
    Rule::new("2.11.16.08"),
    Rule::new("2.11.16.09"),
    Rule::new("2.11.16.10"),
    Rule::new("2.11.16.11"),
    Rule::new("2.11.17"),
    Rule::new("2.11.18"),
    Rule::new("2.11.19"),
    Rule::new("2.11.20"),
    Rule::new("2.11.21"),
    Rule::new("2.11.22"),
    Rule::new("2.11.23"),
    Rule::new("2.11.24"),
    Rule::new("2.11.25"),
    Rule::new("2.11.26"),
    Rule::new("2.12.00"),
    Rule::new("2.12.05"),
    Rule::new("2.12.07"),
    Rule::new("2.12.08"),
    Rule::new("2.12.13.01"),
    Rule::new("2.12.13.02"),
    Rule::new("2.12.13.03"),
    Rule::new("2.12.13.04"),
    Rule::new("2.12.13.05"),
    Rule::new("2.12.13.07"),
    Rule::new("2.12.14"),
    Rule::new("2.12.15"),
    Rule::new("2.12.16"),
    Rule::new("2.12.19"),
    Rule::new("2.12.20"),
    Rule::new("3.03.10"),
    Rule::new("3.03.11"),
    Rule::new("3.03.12"),
    Rule::new("3.03.13"),
    Rule::new("3.03.14"),
    Rule::new("3.03.15"),
    Rule::new("4.03.03"),
    Rule::new("4.04.03.01"),
    Rule::new("4.04.03.02"),
    Rule::new("4.04.03.03"),
    Rule::new("4.04.03.06"),
    Rule::new("4.04.03.07"),
];

const fn within_any(rule: Rule, list: &[Rule]) -> bool {
    let mut i = 0;
    while i < list.len() {
        if rule.is_within(list[i]) {
            return true;
        }
        i += 1;
    }
    false
}

/// Whether the number is the full rulebook's own: GenCon has no rule by that number.
pub const fn only_in_full(rule: Rule) -> bool {
    within_any(rule, ONLY_IN_FULL)
}

/// Whether the GenCon rule has no counterpart in the full rulebook.
pub const fn only_in_gencon(rule: Rule) -> bool {
    within_any(rule, ONLY_IN_GENCON)
}

/// Whether the full rulebook's two editions differ on this rule (its number is read together
/// with an [`Edition`](crate::Edition)).
pub const fn by_edition(rule: Rule) -> bool {
    within_any(rule, BY_EDITION)
}

/// The most specific entry whose `side` contains `rule`, and every entry with that same number.
fn matches(rule: Rule, side: fn(&Renumbered) -> Rule) -> Vec<&'static Renumbered> {
    let applies = |r: &&Renumbered| {
        let from = side(r);
        rule == from || (r.subrules && rule.is_within(from))
    };
    let Some(longest) = RENUMBERED
        .iter()
        .filter(applies)
        .map(|r| side(r).parts().len())
        .max()
    else {
        return Vec::new();
    };
    RENUMBERED
        .iter()
        .filter(applies)
        .filter(|r| side(r).parts().len() == longest)
        .collect()
}

/// A GenCon number as the full rulebook numbers the same rule (the number itself where the
/// books agree). For a rule only GenCon has, the number itself.
pub fn to_full(gencon: Rule) -> Rule {
    matches(gencon, |r| r.gencon)
        .first()
        .and_then(|r| gencon.moved(r.gencon, r.full))
        .unwrap_or(gencon)
}

/// The GenCon numbers of a full-rulebook rule, the same rule first: empty where the books agree
/// on the number (or GenCon lacks the rule, see [`only_in_full`]).
pub fn to_gencon(full: Rule) -> Vec<Rule> {
    matches(full, |r| r.full)
        .into_iter()
        .filter_map(|r| full.moved(r.full, r.gencon))
        .collect()
}

/// Whether the number means a different rule in the full rulebook than at GenCon (1.06.03,
/// 1.14.07, 4.03): the full rulebook's rule by that number is another GenCon number's.
pub fn differs(number: Rule) -> bool {
    !only_in_full(number) && to_full(number) != number
        || to_gencon(number).first().is_some_and(|g| *g != number)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rule;

    #[test]
    fn shifted_rules_map_both_ways_with_their_subrules() {
        assert_eq!(to_full(rule!("1.06.03.05")), rule!("1.06.02.05"));
        assert_eq!(to_full(rule!("1.06.08")), rule!("1.06.07"));
        assert_eq!(to_full(rule!("1.06.02")), rule!("1.06.02"));
        assert_eq!(to_full(rule!("1.06.01")), rule!("1.06.01"));
        assert_eq!(to_gencon(rule!("1.06.02.05")), [rule!("1.06.03.05")]);
        assert_eq!(
            to_gencon(rule!("1.06.02")),
            [rule!("1.06.03"), rule!("1.06.02")]
        );
        assert_eq!(to_gencon(rule!("4.04.03.07")), [rule!("4.03.03.07")]);
        assert_eq!(to_gencon(rule!("4.01.10.07")), [rule!("4.01.10.06")]);
        assert_eq!(to_full(rule!("4.01.10.06")), rule!("4.01.10.06"));
        assert!(to_gencon(rule!("1.01.03")).is_empty());
    }

    #[test]
    fn numbers_that_mean_different_rules_are_known() {
        for n in [
            "1.06.02",
            "1.06.03.05",
            "1.14.07",
            "4.03",
            "4.03.03.01",
            "4.01.10.08",
        ] {
            assert!(differs(Rule::new(n)), "{n}");
        }
        for n in ["1.01.03", "1.06.01", "2.07.02", "1.14.08", "4.02.03"] {
            assert!(!differs(Rule::new(n)), "{n}");
        }
        assert!(only_in_full(rule!("2.07.18")));
        assert!(only_in_full(rule!("1.14.13")));
        assert!(!only_in_full(rule!("1.14.07")));
        assert!(only_in_gencon(rule!("1.05.05")));
        assert!(by_edition(rule!("2.09.13")));
        assert!(!by_edition(rule!("2.09")));
        assert!(!by_edition(rule!("2.08.05")));
    }
}
