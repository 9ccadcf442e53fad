//! Finding a rule by number, by words or by the full rulebook's name for it, as a judge types
//! them on a phone, in one book or in both.

use dune::{Book, Rule};

use dune::crosswalk;

use crate::{Entry, FULL, GENCON};

/// Which rules a search looks through.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Scope {
    /// The GenCon rulebook, then the full rulebook's rules GenCon has no counterpart of (its
    /// seven expansion factions, their cards, its variants): each rule once.
    #[default]
    Both,
    /// One book only, every rule of it.
    Only(Book),
}

/// Lowercase words, apostrophes dropped ("Tuek's" → "tueks").
fn words(text: &str) -> Vec<String> {
    text.to_lowercase()
        .replace(['\'', '’'], "")
        .split(|c: char| !c.is_alphanumeric() && c != '.')
        .map(|w| w.trim_matches('.').to_owned())
        .filter(|w| !w.is_empty())
        .collect()
}

/// A number as a judge may type it: `1.06.03`, `1.6.3`, `1 06 03`.
fn as_rule(text: &str) -> Option<Rule> {
    let parts: Vec<&str> = text
        .split(['.', ' ', ','])
        .filter(|p| !p.is_empty())
        .collect();
    if parts.len() < 2 || parts.iter().any(|p| !p.bytes().all(|b| b.is_ascii_digit())) {
        return None;
    }
    let mut normal = parts[0].to_owned();
    for p in &parts[1..] {
        normal.push('.');
        if p.len() == 1 {
            normal.push('0');
        }
        normal.push_str(p);
    }
    Rule::parse(&normal).ok()
}

/// Whether a full-rulebook rule is also a GenCon rule (under its number or another).
fn has_gencon_counterpart(e: &Entry) -> bool {
    let printed = |n: Rule| crate::rows(Book::GenCon, n).iter().any(|g| g.in_rulebook);
    let gencon = crosswalk::to_gencon(e.number);
    if gencon.is_empty() {
        !crosswalk::only_in_full(e.number)
            && crosswalk::to_full(e.number) == e.number
            && printed(e.number)
    } else {
        gencon.into_iter().any(printed)
    }
}

/// The rules a scope looks through, GenCon's first.
fn candidates(scope: Scope) -> impl Iterator<Item = &'static Entry> {
    let gencon = matches!(scope, Scope::Both | Scope::Only(Book::GenCon));
    let full = matches!(scope, Scope::Both | Scope::Only(Book::Full));
    let both = scope == Scope::Both;
    GENCON
        .iter()
        // The GenCon rows for numbers it only cites stand for full-rulebook rules.
        .filter(move |e| gencon && (e.in_rulebook || !both))
        .chain(
            FULL.iter()
                .filter(move |e| full && (!both || !has_gencon_counterpart(e))),
        )
}

/// The rules matching a query, best first: a number finds that rule and the rules under it;
/// the full rulebook's name for a rule (`faction_ixians_setupspice`) finds it; words find rules
/// whose heading, keywords or summary contain every word (the start of a word is enough:
/// "ornith" finds ornithopters).
pub fn search(query: &str, scope: Scope) -> Vec<&'static Entry> {
    let query = query.trim();
    if query.is_empty() {
        return Vec::new();
    }
    if let Some(rule) = as_rule(query) {
        return candidates(scope)
            .filter(|e| e.number.is_within(rule))
            .collect();
    }
    if query.contains('_') {
        let name = query.to_ascii_lowercase();
        let named: Vec<&'static Entry> = FULL
            .iter()
            .filter(|e| e.anchors.contains(&name.as_str()))
            .filter(|_| scope != Scope::Only(Book::GenCon))
            .collect();
        if !named.is_empty() {
            return named;
        }
    }
    let wanted = words(query);
    let mut scored: Vec<(u32, usize, &'static Entry)> = candidates(scope)
        .enumerate()
        .filter_map(|(order, e)| {
            let heading = words(e.heading);
            let keywords: Vec<String> = e.keywords.iter().flat_map(|k| words(k)).collect();
            let summary = words(e.summary);
            let mut score = 0;
            for w in &wanted {
                let hit = |list: &[String]| list.iter().any(|x| x.starts_with(w.as_str()));
                let s = if hit(&heading) {
                    4
                } else if hit(&keywords) {
                    3
                } else if hit(&summary) {
                    1
                } else {
                    return None;
                };
                score += s;
            }
            // Rules 001 only cites come last.
            Some((score * 2 + u32::from(e.in_rulebook), order, e))
        })
        .collect();
    // Best score first; equal scores in book order (GenCon first), then number order.
    scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    scored.into_iter().map(|(_, _, e)| e).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn numbers(q: &str) -> Vec<String> {
        search(q, Scope::Only(Book::GenCon))
            .iter()
            .map(|e| e.number.to_string())
            .collect()
    }

    fn both(q: &str) -> Vec<(Book, String)> {
        search(q, Scope::Both)
            .iter()
            .map(|e| (e.book, e.label()))
            .collect()
    }

    #[test]
    fn a_number_finds_the_rule_and_its_sub_rules() {
        assert_eq!(numbers("1.06.03.05"), ["1.06.03.05"]);
        assert_eq!(numbers("1.6.3.5"), ["1.06.03.05"]);
        let under = numbers("1.06.03");
        assert_eq!(under.first().map(String::as_str), Some("1.06.03"));
        assert!(under.contains(&"1.06.03.04".to_owned()));
        assert!(numbers("9.99").is_empty());
    }

    #[test]
    fn words_find_headings_first() {
        let hits = numbers("occupancy limit");
        assert!(hits.len() >= 2, "{hits:?}");
        assert!(hits[..2].contains(&"1.06.03.05".to_owned()), "{hits:?}");
        assert!(numbers("ornith").contains(&"1.06.05.04".to_owned()));
        assert!(
            numbers("tueks sietch")
                .iter()
                .any(|n| n.starts_with("2.04.09"))
        );
        assert!(numbers("Tuek's").iter().any(|n| n == "4.03.03.07"));
        assert!(numbers("zzzz").is_empty());
        assert!(numbers("").is_empty());
    }

    #[test]
    fn both_books_list_each_rule_once_gencon_first() {
        // The occupancy limit is GenCon's 1.06.03.05 and the full rulebook's 1.06.02.05: once.
        let hits = both("occupancy limit");
        assert_eq!(hits.first(), Some(&(Book::GenCon, "1.06.03.05".to_owned())));
        assert!(
            !hits.contains(&(Book::Full, "1.06.02.05".to_owned())),
            "{hits:?}"
        );
        // The Ixians' abilities are only in the full rulebook.
        let ix = both("suboid");
        assert!(!ix.is_empty());
        assert!(ix.iter().all(|(b, _)| *b == Book::Full), "{ix:?}");
        assert!(ix.contains(&(Book::Full, "2.07.14".to_owned())), "{ix:?}");
        // A number reaches the full rulebook's own chapters.
        assert_eq!(both("2.07.02"), [(Book::Full, "2.07.02".to_owned())]);
        // Searching the full rulebook alone finds its own number for a shared rule.
        let full: Vec<String> = search("occupancy limit", Scope::Only(Book::Full))
            .iter()
            .map(|e| e.number.to_string())
            .collect();
        assert!(full[..2].contains(&"1.06.02.05".to_owned()), "{full:?}");
    }

    #[test]
    fn the_full_rulebooks_names_find_their_rules() {
        let hits = both("faction_ixians_setupspice");
        assert_eq!(hits, [(Book::Full, "2.07.01".to_owned())]);
        assert_eq!(
            both("Phases_Mentat_Bribes"),
            [(Book::Full, "1.09.01".to_owned())]
        );
    }
}
