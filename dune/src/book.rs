//! The two rulebooks a rule number is read in, and which of the full rulebook's two printed
//! versions a number means where it prints two.
//!
//! Mentat plays two rulesets (rulings.md, "Rulesets"): `gc-2.13.3` by the GenCon tournament
//! rulebook (file 001) and `full` by the full rulebook (file 000). Most numbers mean the same rule
//! in both, but not all: the full rulebook has no "one force shipment" rule, so its 1.06.02 is
//! the GenCon 1.06.03, and its 1.14.07 is the Ixians' Karama power where GenCon's is the Free
//! Traders'. [`crate::crosswalk`] holds those differences; a [`BookRule`] is a number together
//! with the book (and edition) it is read in, so a page or a report can always say which.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::crosswalk;
use crate::rule::Rule;

/// A rulebook Mentat knows rule by rule. Written `001` and `000` (the seed files' numbers) in
/// the engine's report JSON and its messages, `gencon` and `full` in addresses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Book {
    /// "Landsraad of Las Vegas", the GenCon tournament rulebook, version 2.13.3 (seed 001): the
    /// six classic factions. Its numbers are Mentat's canonical ones.
    #[default]
    GenCon,
    /// The full Landsraad rulebook, version 2.10.9 (seed 000): thirteen factions, eight sets of
    /// treachery cards, ten variants, the full tournament format.
    Full,
}

impl Book {
    pub const ALL: [Book; 2] = [Book::GenCon, Book::Full];

    /// The book's file number: `001` or `000`.
    pub fn code(self) -> &'static str {
        match self {
            Book::GenCon => "001",
            Book::Full => "000",
        }
    }

    /// The book's part of an address: `/rules/gencon/1.06.03`, `/rules/full/2.07.02`.
    pub fn slug(self) -> &'static str {
        match self {
            Book::GenCon => "gencon",
            Book::Full => "full",
        }
    }

    /// A short name for lists and badges.
    pub fn short_name(self) -> &'static str {
        match self {
            Book::GenCon => "GenCon",
            Book::Full => "Full rulebook",
        }
    }

    /// The name a judge recognises on the printed cover.
    pub fn title(self) -> &'static str {
        match self {
            Book::GenCon => "GenCon tournament rulebook 2.13.3",
            Book::Full => "full rulebook 2.10.9",
        }
    }

    /// The rule a citation in Mentat's numbering stands for in a game played by this book.
    ///
    /// Mentat's numbering (what `rule!` writes and `Replay::v` reports) is the GenCon number
    /// when the GenCon rulebook has the rule, and the full rulebook's number otherwise:
    /// `rule!("1.06.03.05")` is the occupancy limit for shipments, `rule!("2.07.02")` the
    /// Ixians' starting forces. Cited in a `full` game, `1.06.03.05` becomes the full rulebook's
    /// `1.06.02.05`; cited in a GenCon game, a rule only the full rulebook has stays in the full
    /// rulebook. A full-rulebook rule whose number GenCon uses for something else (its 1.14.07)
    /// is cited by its own number instead ([`full_rule!`](crate::full_rule), `Replay::v_full`).
    pub fn cite(self, rule: Rule) -> BookRule {
        self.cite_in(rule, Edition::default())
    }

    /// [`Book::cite`] in a game that plays the given edition of the full rulebook's rules that
    /// it prints twice (ruling 28).
    pub fn cite_in(self, rule: Rule, edition: Edition) -> BookRule {
        if self == Book::Full && crosswalk::only_in_gencon(rule) {
            return BookRule::new(Book::GenCon, rule, edition);
        }
        if crosswalk::only_in_full(rule) {
            return match self {
                Book::Full => BookRule::new(Book::Full, rule, edition),
                Book::GenCon => match crosswalk::to_gencon(rule).first() {
                    Some(&g) => BookRule::new(Book::GenCon, g, edition),
                    None => BookRule::new(Book::Full, rule, edition),
                },
            };
        }
        match self {
            Book::GenCon => BookRule::new(Book::GenCon, rule, edition),
            Book::Full => BookRule::new(Book::Full, crosswalk::to_full(rule), edition),
        }
    }
}

/// `001` or `000`, as the engine's messages name a book.
impl fmt::Display for Book {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

impl Serialize for Book {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.code())
    }
}

/// Reads `001`/`000` and `gencon`/`full`.
impl<'de> Deserialize<'de> for Book {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// Not a book's name in an address.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("\"{0}\" is not a rulebook: use gencon (001) or full (000)")]
pub struct UnknownBook(pub String);

impl FromStr for Book {
    type Err = UnknownBook;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let s = s.trim();
        Book::ALL
            .into_iter()
            .find(|b| b.slug().eq_ignore_ascii_case(s) || b.code() == s)
            .ok_or_else(|| UnknownBook(s.to_owned()))
    }
}

/// Which of two printed versions of a rule. The full rulebook runs two versions together in
/// places (CHOAM's abilities are listed twice; parts of the Ixians, Richese, Ecaz, Moritani, a
/// few Karama powers and the stronghold cards print an older and a newer text in one item).
/// Mentat plays the second printed, revised text by default; an event may choose the original
/// (rulings.md, "The full rulebook's two versions").
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Edition {
    /// The text printed first: the one being replaced. Chapter 1's cross-references and the
    /// GenCon rulebook's citation of CHOAM's hand size (2.09.05) still point at it.
    Original,
    /// The text printed second, the revision: the GenCon rulebook keeps it wherever it reprints
    /// such a rule (the Atreides' Prescience, the Bene Gesserit's Voice, the stronghold cards).
    #[default]
    Revised,
}

impl Edition {
    pub const ALL: [Edition; 2] = [Edition::Original, Edition::Revised];

    /// `original` or `revised`, as the `[Edition]` tag and addresses write it.
    pub fn name(self) -> &'static str {
        self.slug()
    }

    pub fn slug(self) -> &'static str {
        match self {
            Edition::Original => "original",
            Edition::Revised => "revised",
        }
    }
}

impl fmt::Display for Edition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.slug())
    }
}

/// Not an edition's name in an address.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("\"{0}\" is not an edition: use original or revised")]
pub struct UnknownEdition(pub String);

impl FromStr for Edition {
    type Err = UnknownEdition;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let s = s.trim();
        Edition::ALL
            .into_iter()
            .find(|e| e.slug().eq_ignore_ascii_case(s))
            .ok_or_else(|| UnknownEdition(s.to_owned()))
    }
}

/// A rule number read in one book: what a violation, a page or a ruling cites once the game's
/// ruleset is known. The edition is kept only where the full rulebook prints two versions of
/// the rule; everywhere else it is [`Edition::Revised`], so two citations of one rule are equal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BookRule {
    book: Book,
    rule: Rule,
    edition: Edition,
}

impl BookRule {
    pub const fn new(book: Book, rule: Rule, edition: Edition) -> BookRule {
        let edition = match book {
            Book::Full if crosswalk::by_edition(rule) => edition,
            _ => Edition::Revised,
        };
        BookRule {
            book,
            rule,
            edition,
        }
    }

    pub fn book(self) -> Book {
        self.book
    }

    pub fn rule(self) -> Rule {
        self.rule
    }

    pub fn edition(self) -> Edition {
        self.edition
    }

    /// The same rule in the given edition (a no-op where the full rulebook prints one text).
    pub fn in_edition(self, edition: Edition) -> BookRule {
        BookRule::new(self.book, self.rule, edition)
    }

    /// Whether the number alone is ambiguous here: an original-edition text.
    pub fn is_original(self) -> bool {
        self.edition == Edition::Original
    }

    /// The rule page: `/rules/gencon/1.06.03.05`, `/rules/full/2.07.18`,
    /// `/rules/full/2.09.05/original`.
    pub fn href(self) -> String {
        let mut out = format!("/rules/{}/{}", self.book.slug(), self.rule);
        if self.is_original() {
            out.push_str("/original");
        }
        out
    }
}

/// `1.06.03.05`, `000 2.07.18`, `000 2.09.05 original`: the number, and the book where it is
/// not the GenCon rulebook (as the engine's messages cite a rule).
impl fmt::Display for BookRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.book == Book::Full {
            write!(f, "{} ", self.book)?;
        }
        write!(f, "{}", self.rule)?;
        if self.is_original() {
            write!(f, " original")?;
        }
        Ok(())
    }
}

/// A rule of the full rulebook cited by its own number, checked when the program compiles:
/// `full_rule!("1.14.07")` (the Ixians' Karama power, where GenCon's 1.14.07 is the Free
/// Traders'), `full_rule!("2.09.05", original)` (CHOAM's hand size in the original edition).
/// Needed only where Mentat's numbering (`rule!`) would mean another rule; see [`Book::cite`].
///
/// ```
/// let r = dune::full_rule!("1.14.07");
/// assert_eq!(r.href(), "/rules/full/1.14.07");
/// assert_eq!(dune::full_rule!("2.09.05", original).href(), "/rules/full/2.09.05/original");
/// ```
#[macro_export]
macro_rules! full_rule {
    ($number:literal) => {{
        const RULE: $crate::BookRule = $crate::BookRule::new(
            $crate::Book::Full,
            $crate::Rule::new($number),
            $crate::Edition::Revised,
        );
        RULE
    }};
    ($number:literal, original) => {{
        const RULE: $crate::BookRule = $crate::BookRule::new(
            $crate::Book::Full,
            $crate::Rule::new($number),
            $crate::Edition::Original,
        );
        RULE
    }};
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rule;

    #[test]
    fn a_canonical_citation_lands_in_the_games_book() {
        // Shared and numbered alike.
        assert_eq!(
            Book::Full.cite(rule!("1.01.03")).href(),
            "/rules/full/1.01.03"
        );
        assert_eq!(
            Book::GenCon.cite(rule!("1.01.03")).href(),
            "/rules/gencon/1.01.03"
        );
        // Shipment rules: the full rulebook has no "one force shipment" item.
        assert_eq!(
            Book::Full.cite(rule!("1.06.03.05")).rule(),
            rule!("1.06.02.05")
        );
        assert_eq!(
            Book::Full.cite(rule!("1.06.05.04")).rule(),
            rule!("1.06.04.04")
        );
        // Stronghold cards are 4.03 at GenCon and 4.04 in the full rulebook.
        assert_eq!(
            Book::Full.cite(rule!("4.03.03.02")).rule(),
            rule!("4.04.03.02")
        );
        // A rule only the full rulebook has stays there, in either game.
        let ix = Book::GenCon.cite(rule!("2.07.18"));
        assert_eq!(
            (ix.book(), ix.href()),
            (Book::Full, "/rules/full/2.07.18".into())
        );
        // A GenCon rule the full rulebook lacks stays at GenCon.
        assert_eq!(Book::Full.cite(rule!("1.05.05")).book(), Book::GenCon);
        // ... unless GenCon prints it under another number.
        let ft = Book::GenCon.cite(rule!("1.14.13"));
        assert_eq!((ft.book(), ft.rule()), (Book::GenCon, rule!("1.14.07")));
        assert_eq!(Book::Full.cite(rule!("1.14.07")).rule(), rule!("1.14.13"));
    }

    #[test]
    fn editions_matter_only_where_two_texts_are_printed() {
        let choam = BookRule::new(Book::Full, rule!("2.09.05"), Edition::Original);
        assert_eq!(choam.href(), "/rules/full/2.09.05/original");
        assert_eq!(choam.to_string(), "000 2.09.05 original");
        assert_eq!(
            choam.in_edition(Edition::Revised).href(),
            "/rules/full/2.09.05"
        );
        let storm = BookRule::new(Book::Full, rule!("1.01.03"), Edition::Original);
        assert_eq!(
            storm,
            BookRule::new(Book::Full, rule!("1.01.03"), Edition::Revised)
        );
        assert_eq!(storm.href(), "/rules/full/1.01.03");
        let gc = BookRule::new(Book::GenCon, rule!("2.01.08"), Edition::Original);
        assert!(!gc.is_original());
        assert_eq!(gc.to_string(), "2.01.08");
    }

    #[test]
    fn books_and_editions_parse_from_addresses() {
        assert_eq!("full".parse(), Ok(Book::Full));
        assert_eq!("GenCon".parse(), Ok(Book::GenCon));
        assert_eq!("000".parse(), Ok(Book::Full));
        assert!("gc".parse::<Book>().is_err());
        assert_eq!("original".parse(), Ok(Edition::Original));
        assert!("old".parse::<Edition>().is_err());
        assert_eq!(Edition::default(), Edition::Revised);
    }
}
