//! Two rulebooks rule by rule, as a judge looks them up: the GenCon tournament rulebook (001,
//! version 2.13.3) and the full rulebook (000, version 2.10.9). Each numbered rule's heading,
//! Mentat's own summary, the rulings that touch it, where the engine checks it and an example log
//! that breaks it; for the full rulebook also the names (anchors) it cites the rule by and, where
//! it prints two versions of a rule, which edition a row is.
//!
//! A number is read in one book ([`dune::Book`]). Without a book, a number means the GenCon
//! rule when the GenCon rulebook has it and the full rulebook's otherwise ([`get`]); a game's
//! ruleset decides the book of the rules its violations cite ([`dune::Book::cite`]), and
//! [`counterparts`] links a rule to the same rule in the other book (`dune::crosswalk`).
//!
//! The data is compiled in from four files (see `build.rs`): `gencon-2.13.3.md` and
//! `full-2.10.9.md` (written by people), `docs/rulings.md` (the rulings) and `engine-index.txt`
//! (generated from the engine's sources by `tests/engine_index.rs`, which fails when the engine
//! cites a rule neither index has). Pure: no IO at run time, so the same lookups serve the server
//! and a phone.
// A panic in the hall loses a judge's work: outside tests, every failure is an error value.
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

pub mod scan;
mod search;

use dune::{Book, BookRule, Edition, Rule, crosswalk};

pub use search::{Scope, search};

/// One numbered rule of one book.
#[derive(Debug)]
pub struct Entry {
    pub book: Book,
    pub number: Rule,
    /// For a rule the full rulebook prints in two versions: which one this row summarises.
    /// `None` where the book prints one text.
    pub edition: Option<Edition>,
    /// The rulebook's heading, or Mentat's where the rulebook prints none.
    pub heading: &'static str,
    /// Mentat's own summary: one to three sentences.
    pub summary: &'static str,
    /// Extra words a judge may search for.
    pub keywords: &'static [&'static str],
    /// The names the full rulebook cites this rule by (`faction_ixians_setupspice`); empty for
    /// a rule it never cites, and for the GenCon rulebook, which cites by number.
    pub anchors: &'static [&'static str],
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

/// Every rule of the GenCon rulebook, in the rulebook's order.
pub fn all() -> &'static [Entry] {
    GENCON
}

/// Every rule of one book in number order; where the full rulebook prints two versions of a
/// rule, its original row comes before its revised one.
pub fn book(book: Book) -> &'static [Entry] {
    match book {
        Book::GenCon => GENCON,
        Book::Full => FULL,
    }
}

/// The rows of one number in one book: one, or two where the full rulebook prints two versions.
pub fn rows(book: Book, number: Rule) -> &'static [Entry] {
    let list = self::book(book);
    let start = list.partition_point(|e| e.number < number);
    let end = list.partition_point(|e| e.number <= number);
    list.get(start..end).unwrap_or_default()
}

/// The rule with this number in this book, in this edition where the full rulebook prints two;
/// a rule printed in one edition only is found from either.
pub fn get_in(book: Book, number: Rule, edition: Edition) -> Option<&'static Entry> {
    let rows = rows(book, number);
    rows.iter()
        .find(|e| e.edition.is_none_or(|ed| ed == edition))
        .or_else(|| rows.first())
}

/// The rule a book-and-number citation names.
pub fn at(rule: BookRule) -> Option<&'static Entry> {
    get_in(rule.book(), rule.rule(), rule.edition())
}

/// The rule a number means without a book: the GenCon rule when the GenCon rulebook has it,
/// otherwise the full rulebook's (in the default edition). Numbers the GenCon rulebook only
/// cites (its "Not in this rulebook" rows) are the full rulebook's.
pub fn get(number: Rule) -> Option<&'static Entry> {
    rows(Book::GenCon, number)
        .first()
        .filter(|e| e.in_rulebook)
        .or_else(|| get_in(Book::Full, number, Edition::default()))
}

/// The full rulebook's rule it cites by this name (`faction_ixians_setupspice`), in the default
/// edition where the name is used in both.
pub fn anchor(name: &str) -> Option<&'static Entry> {
    let name = name.trim().to_ascii_lowercase();
    let mut found = FULL.iter().filter(|e| e.anchors.contains(&name.as_str()));
    let first = found.next()?;
    Some(
        std::iter::once(first)
            .chain(found)
            .find(|e| e.edition.is_none_or(|ed| ed == Edition::default()))
            .unwrap_or(first),
    )
}

/// Whether two rows belong to one reading of their book: the same book, and for the full
/// rulebook not rows of two different editions.
fn same_view(a: &Entry, b: &Entry) -> bool {
    a.book == b.book && (a.edition.is_none() || b.edition.is_none() || a.edition == b.edition)
}

/// The rules directly below this one in its book and edition (`1.06.03` → `1.06.03.00` …
/// `1.06.03.05`); for a section (`1.06`), its rules `1.06.00` … `1.06.08`.
pub fn children(entry: &Entry) -> impl Iterator<Item = &'static Entry> {
    let (number, book) = (entry.number, entry.book);
    let edition = entry.edition;
    book_entries(book).iter().filter(move |e| {
        e.number.parent() == Some(number)
            && (edition.is_none() || e.edition.is_none() || e.edition == edition)
    })
}

fn book_entries(b: Book) -> &'static [Entry] {
    book(b)
}

/// The nearest rule above this one that has a row, in the same book and edition
/// (`1.06.03.05` → `1.06.03`).
pub fn parent(entry: &Entry) -> Option<&'static Entry> {
    let mut at = entry.number.parent();
    while let Some(p) = at {
        if let Some(e) = rows(entry.book, p).iter().find(|e| same_view(e, entry)) {
            return Some(e);
        }
        at = p.parent();
    }
    None
}

/// The rules before and after this one in its book and edition.
pub fn neighbours(entry: &Entry) -> (Option<&'static Entry>, Option<&'static Entry>) {
    let list = book(entry.book);
    let at = list
        .iter()
        .position(|e| std::ptr::eq(e, entry))
        .unwrap_or_default();
    let before = list[..at].iter().rev().find(|e| same_view(e, entry));
    let after = list
        .get(at + 1..)
        .unwrap_or_default()
        .iter()
        .find(|e| same_view(e, entry));
    (before, after)
}

/// How a rule relates to the other book and to its other edition, for its page.
#[derive(Debug, Default)]
pub struct Counterparts {
    /// The same rule in the other book, the closest first (the full rulebook's 1.06.02 is the
    /// GenCon 1.06.03; GenCon's End Game Victory is the full rulebook's Solo and Allied ones).
    pub same: Vec<&'static Entry>,
    /// The other book's rule by the same number where that is a different rule (the GenCon
    /// 1.14.07 is the Free Traders' Karama power, the full rulebook's the Ixians').
    pub same_number: Option<&'static Entry>,
    /// For a full-rulebook rule: the GenCon rulebook's rows for numbers it cites this rule by
    /// without printing it (GenCon's 2.07.03 is the Ixians' pocket cards).
    pub cited_by_gencon: Vec<&'static Entry>,
    /// The other version of a rule the full rulebook prints twice.
    pub other_edition: Option<&'static Entry>,
}

/// The other book's rules this one corresponds to (see [`Counterparts`]).
pub fn counterparts(entry: &'static Entry) -> Counterparts {
    let n = entry.number;
    let mut out = Counterparts::default();
    let printed = |e: &&'static Entry| e.in_rulebook;
    match entry.book {
        Book::GenCon if entry.in_rulebook => {
            if !crosswalk::only_in_gencon(n) {
                let first = crosswalk::to_full(n);
                let mut numbers = vec![first];
                // Other full-rulebook rules this one maps to (End Game Victory's two).
                numbers.extend(
                    FULL.iter()
                        .map(|e| e.number)
                        .filter(|f| *f != first && crosswalk::to_gencon(*f).contains(&n)),
                );
                numbers.dedup();
                out.same = numbers
                    .into_iter()
                    .filter_map(|f| get_in(Book::Full, f, Edition::default()))
                    .collect();
            }
            if crosswalk::differs(n) {
                out.same_number = get_in(Book::Full, n, Edition::default())
                    .filter(|e| !out.same.iter().any(|s| std::ptr::eq(*s, *e)));
            }
        }
        // A number the GenCon rulebook only cites: the full rulebook's rule it means.
        Book::GenCon => out.same.extend(at(gencon_citation(n))),
        Book::Full => {
            let gencon = crosswalk::to_gencon(n);
            let own = rows(Book::GenCon, n).first().filter(printed);
            if !gencon.is_empty() {
                out.same = gencon
                    .iter()
                    .filter_map(|g| rows(Book::GenCon, *g).first().filter(printed))
                    .collect();
                out.same_number = own.filter(|e| !gencon.contains(&e.number));
            } else if crosswalk::to_full(n) == n {
                out.same.extend(own);
            } else {
                out.same_number = own;
            }
            out.cited_by_gencon = GENCON
                .iter()
                .filter(|e| !e.in_rulebook)
                .filter(|e| at(gencon_citation(e.number)).is_some_and(|f| std::ptr::eq(f, entry)))
                .collect();
            if entry.edition.is_some() {
                out.other_edition = rows(Book::Full, n)
                    .iter()
                    .find(|e| e.edition.is_some() && e.edition != entry.edition);
            }
        }
    }
    out
}

/// Numbers the GenCon rulebook cites but does not print, where 000 numbers the rule it means
/// otherwise: GenCon cites Ecaz from a printing with one more ability before the Ambassadors
/// (each citation's subject, seeing a hand, a traitor, the allied victory, loyalty, is the
/// original text's), and CHOAM's hand size (2.09.05) by the original edition's list.
const CITED_AS: &[(Rule, BookRule)] = &[
    (
        dune::rule!("2.09.05"),
        dune::full_rule!("2.09.05", original),
    ),
    (
        dune::rule!("2.11.17.01"),
        dune::full_rule!("2.11.16.01", original),
    ),
    (
        dune::rule!("2.11.17.05"),
        dune::full_rule!("2.11.16.05", original),
    ),
    (
        dune::rule!("2.11.22"),
        dune::full_rule!("2.11.21", original),
    ),
    (
        dune::rule!("2.11.26"),
        dune::full_rule!("2.11.25", original),
    ),
];

/// The full-rulebook rule a number the GenCon rulebook cites without printing stands for.
pub fn gencon_citation(number: Rule) -> BookRule {
    CITED_AS.iter().find(|(gc, _)| *gc == number).map_or(
        BookRule::new(Book::Full, number, Edition::default()),
        |(_, f)| *f,
    )
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

    /// The rule as a citation of its book and edition.
    pub fn cite(&self) -> BookRule {
        BookRule::new(self.book, self.number, self.edition.unwrap_or_default())
    }

    /// Its page: `/rules/<number>` where the number alone leads here (every GenCon rule, and the
    /// full rulebook's own numbers in the default edition), else with the book (and edition):
    /// `/rules/full/1.06.02.05`, `/rules/full/2.09.05/original`.
    pub fn href(&self) -> String {
        if get(self.number).is_some_and(|e| std::ptr::eq(e, self)) {
            format!("/rules/{}", self.number)
        } else {
            self.cite().href()
        }
    }

    /// The number as a judge reads it: `2.09.05 (original)` for an original-edition row.
    pub fn label(&self) -> String {
        match self.edition {
            Some(Edition::Original) => format!("{} (original)", self.number),
            _ => self.number.to_string(),
        }
    }
}

#[cfg(test)]
mod tests;
