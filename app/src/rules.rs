//! Server functions for the rule pages: the index of either rulebook, search through both, and
//! one rule with the book it is read in, its counterpart in the other book, its rulings, the
//! engine's checks and an example log that breaks it. Public: rules are no secret.

use leptos::prelude::*;
use serde::{Deserialize, Serialize};

use crate::error::AppError;
use crate::replay::Problem;

/// A rule as a line of a list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RuleLine {
    /// `1.06.03.05`, or `2.09.05 (original)` for a rule's first-printed version.
    pub number: String,
    pub heading: String,
    pub summary: String,
    pub checked: bool,
    /// Its page: `/rules/1.06.03.05`, `/rules/full/1.06.02.05`.
    pub href: String,
    /// "GenCon" or "Full rulebook".
    pub book: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RuleSection {
    pub number: String,
    pub heading: String,
    pub rules: Vec<RuleLine>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RulesIndex {
    pub query: String,
    /// The search's scope as the form sends it: "" (both books), "gencon" or "full".
    pub scope: String,
    pub hits: Vec<RuleLine>,
    /// The book whose index is listed below the search ("gencon" or "full").
    pub book: String,
    pub book_title: String,
    /// Chapter name → its sections (two-part numbers) with the rules under them.
    pub chapters: Vec<(String, Vec<RuleSection>)>,
    pub total: usize,
    pub checked: usize,
    /// When the query is a whole rule number or a full-rulebook name: the page it leads to.
    pub exact: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RulingView {
    pub number: u32,
    pub title: String,
    pub text: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CitationView {
    pub file: String,
    pub count: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExampleView {
    pub file: String,
    pub text: String,
    /// What the engine reports on it: the violation this example exists for.
    pub reported: Option<Problem>,
}

/// How this rule stands to the other book and to its other printed version.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct OtherBook {
    /// The same rule in the other book (under its number there).
    pub same: Vec<RuleLine>,
    /// The other book's rule by this number, where that is a different rule.
    pub same_number: Option<RuleLine>,
    /// GenCon numbers that cite this full-rulebook rule without printing it.
    pub cited_by_gencon: Vec<String>,
    /// The other version of a rule the full rulebook prints twice.
    pub other_edition: Option<RuleLine>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RulePage {
    /// As the page's title shows it: `2.09.05 (original)`.
    pub number: String,
    pub heading: String,
    pub summary: String,
    pub in_rulebook: bool,
    /// "gencon" or "full".
    pub book: String,
    /// "GenCon tournament rulebook 2.13.3" …
    pub book_title: String,
    /// "original" or "revised" where the full rulebook prints two versions.
    pub edition: Option<String>,
    /// The names the full rulebook cites this rule by.
    pub anchors: Vec<String>,
    pub other: OtherBook,
    pub chapter: String,
    /// From the section down to the direct parent.
    pub parents: Vec<RuleLine>,
    pub children: Vec<RuleLine>,
    pub previous: Option<RuleLine>,
    pub next: Option<RuleLine>,
    pub rulings: Vec<RulingView>,
    pub engine: Vec<CitationView>,
    pub examples: Vec<ExampleView>,
}

#[cfg(feature = "ssr")]
fn line(e: &rulebook::Entry) -> RuleLine {
    RuleLine {
        number: e.label(),
        heading: e.heading.to_owned(),
        summary: e.summary.to_owned(),
        checked: e.is_checked_by_engine(),
        href: e.href(),
        book: e.book.short_name().to_owned(),
    }
}

/// The index of one book, chapter by chapter and section by section. Where the full rulebook
/// prints two versions, the index lists the default (revised) one; the other is a tap away.
#[cfg(feature = "ssr")]
fn chapters(book: dune::Book) -> Vec<(String, Vec<RuleSection>)> {
    let mut chapters: Vec<(String, Vec<RuleSection>)> = Vec::new();
    let listed = rulebook::book(book)
        .iter()
        .filter(|e| e.edition.is_none_or(|ed| ed == dune::Edition::default()) || is_only(e));
    for e in listed {
        let chapter = rulebook::chapter_name(e.number);
        if chapters.last().is_none_or(|(c, _)| c != chapter) {
            chapters.push((chapter.to_owned(), Vec::new()));
        }
        let Some((_, sections)) = chapters.last_mut() else {
            continue;
        };
        // A section is a two-part number (1.06); chapter 0's rules are all two-part, and so
        // are the cited-only numbers (2.13): each is its own line under one "section".
        let section_number = {
            let parts = e.number.parts();
            if parts.first() == Some(&0) || parts.len() < 2 {
                "0".to_owned()
            } else {
                format!("{}.{:02}", parts[0], parts[1])
            }
        };
        if sections.last().is_none_or(|s| s.number != section_number) {
            let heading = if section_number == "0" {
                "Setup of the game".to_owned()
            } else {
                // A section the GenCon rulebook only cites (2.07) is named as the full
                // rulebook names it.
                let number = dune::Rule::parse(&section_number).ok();
                let own = number.and_then(|n| rulebook::rows(book, n).first());
                let other = number.and_then(|n| rulebook::rows(dune::Book::Full, n).first());
                match (own, other) {
                    (Some(s), _) => s.heading.to_owned(),
                    (None, Some(s)) => format!("{} (cited, not printed)", s.heading),
                    (None, None) => "General".to_owned(),
                }
            };
            sections.push(RuleSection {
                number: section_number,
                heading,
                rules: Vec::new(),
            });
        }
        if let Some(s) = sections.last_mut() {
            s.rules.push(line(e));
        }
    }
    chapters
}

/// A row printed in one version only, listed in the index even when it is the original
/// (Ecaz's 2.11.22 to 2.11.26) unless its parent is a rule of two versions (the original CHOAM
/// list's 2.09.07.00 to .06, under the revised list's different 2.09.07).
#[cfg(feature = "ssr")]
fn is_only(e: &rulebook::Entry) -> bool {
    let single = |e: &rulebook::Entry| rulebook::rows(e.book, e.number).len() == 1;
    e.edition.is_some()
        && single(e)
        && e.number
            .parent()
            .and_then(|p| rulebook::rows(e.book, p).first())
            .is_none_or(|p| p.edition.is_none() || single(p))
}

/// A number as typed ("1.6.3.5") in the rulebook's form ("1.06.03.05").
#[cfg(any(feature = "ssr", test))]
fn normalised(q: &str) -> Option<dune::Rule> {
    let parts: Vec<&str> = q
        .trim()
        .split(['.', ' ', ','])
        .filter(|p| !p.is_empty())
        .collect();
    let mut out = String::new();
    for (i, p) in parts.iter().enumerate() {
        if i > 0 {
            out.push('.');
            if p.len() == 1 {
                out.push('0');
            }
        }
        out.push_str(p);
    }
    dune::Rule::parse(&out).ok()
}

#[server]
pub async fn rules_overview(
    query: String,
    #[server(default)] scope: String,
    #[server(default)] book: String,
) -> Result<RulesIndex, AppError> {
    use dune::Book;
    let search_scope = match scope.parse::<Book>() {
        Ok(b) => rulebook::Scope::Only(b),
        Err(_) => rulebook::Scope::Both,
    };
    let hits: Vec<RuleLine> = rulebook::search(&query, search_scope)
        .into_iter()
        .take(60)
        .map(line)
        .collect();
    // A whole number (or a full-rulebook name) opens its rule on this page.
    let exact = match search_scope {
        rulebook::Scope::Both => normalised(&query)
            .and_then(rulebook::get)
            .or_else(|| rulebook::anchor(&query)),
        rulebook::Scope::Only(b) => normalised(&query)
            .and_then(|n| rulebook::get_in(b, n, dune::Edition::default()))
            .or_else(|| {
                (b == Book::Full)
                    .then(|| rulebook::anchor(&query))
                    .flatten()
            }),
    }
    .filter(|_| !query.trim().is_empty())
    .map(|e| e.href());
    let index_book = book.parse::<Book>().unwrap_or(Book::GenCon);
    let all = rulebook::book(index_book);
    Ok(RulesIndex {
        query,
        scope: match search_scope {
            rulebook::Scope::Both => String::new(),
            rulebook::Scope::Only(b) => b.slug().to_owned(),
        },
        hits,
        book: index_book.slug().to_owned(),
        book_title: index_book.title().to_owned(),
        chapters: chapters(index_book),
        total: all
            .iter()
            .map(|e| e.number)
            .collect::<std::collections::BTreeSet<_>>()
            .len(),
        checked: all.iter().filter(|e| e.is_checked_by_engine()).count(),
        exact,
    })
}

/// One rule: `number` is a rule number or one of the full rulebook's names for a rule
/// (`faction_ixians_setupspice`, which answers with a redirect to the numbered page); `book`
/// ("gencon", "full") and `edition` ("original", "revised") are empty when the address has none.
#[server]
pub async fn get_rule(
    number: String,
    #[server(default)] book: String,
    #[server(default)] edition: String,
) -> Result<RulePage, AppError> {
    use crate::server::fail;
    use dune::{Book, Edition};
    let book = match book.trim() {
        "" => None,
        b => match b.parse::<Book>() {
            Ok(b) => Some(b),
            Err(e) => return fail(AppError::NotFound(format!("{e}."))),
        },
    };
    let edition = match edition.trim() {
        "" => None,
        e => match e.parse::<Edition>() {
            Ok(e) => Some(e),
            Err(e) => return fail(AppError::NotFound(format!("{e}."))),
        },
    };
    let entry = match dune::Rule::parse(number.trim()) {
        Ok(rule) => {
            let found = match book {
                None => rulebook::get(rule),
                Some(b) => rulebook::get_in(b, rule, edition.unwrap_or_default()),
            };
            match found {
                Some(e) => e,
                None => {
                    let which = book.map_or("Neither rulebook".to_owned(), |b| {
                        let title = b.title();
                        format!("The {title}")
                    });
                    return fail(AppError::NotFound(format!(
                        "{which} has no rule {rule}. Search for it by words on the rules page."
                    )));
                }
            }
        }
        Err(e) => match (book, rulebook::anchor(&number)) {
            // The full rulebook's name for a rule leads to its numbered page.
            (None | Some(Book::Full), Some(entry)) => {
                leptos_axum::redirect(&entry.href());
                entry
            }
            _ => {
                return fail(AppError::NotFound(format!(
                    "\"{number}\" is not a rule number ({e}) nor a name the full rulebook gives a rule."
                )));
            }
        },
    };
    let mut parents = Vec::new();
    let mut up = rulebook::parent(entry);
    while let Some(p) = up {
        parents.push(line(p));
        up = rulebook::parent(p);
    }
    parents.reverse();
    let (previous, next) = rulebook::neighbours(entry);
    let c = rulebook::counterparts(entry);
    let examples = entry
        .examples
        .iter()
        .map(|ex| {
            let replayed = crate::replay::bridge::replay(ex.text, true);
            ExampleView {
                file: ex.file.to_owned(),
                text: ex.text.to_owned(),
                reported: replayed.verification.problems.into_iter().next(),
            }
        })
        .collect();
    Ok(RulePage {
        number: entry.label(),
        heading: entry.heading.to_owned(),
        summary: entry.summary.to_owned(),
        in_rulebook: entry.in_rulebook,
        book: entry.book.slug().to_owned(),
        book_title: entry.book.title().to_owned(),
        edition: entry.edition.map(|e| e.slug().to_owned()),
        anchors: entry.anchors.iter().map(|a| (*a).to_owned()).collect(),
        other: OtherBook {
            same: c.same.into_iter().map(line).collect(),
            same_number: c.same_number.map(line),
            cited_by_gencon: c
                .cited_by_gencon
                .iter()
                .map(|e| e.number.to_string())
                .collect(),
            other_edition: c.other_edition.map(line),
        },
        chapter: rulebook::chapter_name(entry.number).to_owned(),
        parents,
        children: rulebook::children(entry).map(line).collect(),
        previous: previous.map(line),
        next: next.map(line),
        rulings: entry
            .rulings
            .iter()
            .filter_map(|n| rulebook::ruling(*n))
            .map(|r| RulingView {
                number: r.number,
                title: r.title.to_owned(),
                text: r.text.to_owned(),
            })
            .collect(),
        engine: entry
            .engine
            .iter()
            .map(|c| CitationView {
                file: c.file.to_owned(),
                count: c.count,
            })
            .collect(),
        examples,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typed_numbers_are_normalised() {
        assert_eq!(normalised("1.6.3.5"), Some(dune::rule!("1.06.03.05")));
        assert_eq!(normalised(" 2 07 02 "), Some(dune::rule!("2.07.02")));
        assert_eq!(normalised("occupancy"), None);
    }
}
