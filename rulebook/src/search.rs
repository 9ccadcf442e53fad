//! Finding a rule by number or by words, as a judge types them on a phone.

use dune::Rule;

use crate::{Entry, RULES};

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

/// The rules matching a query, best first: a number finds that rule and the rules under it;
/// words find rules whose heading, keywords or summary contain every word (the start of a word
/// is enough: "ornith" finds ornithopters).
pub fn search(query: &str) -> Vec<&'static Entry> {
    let query = query.trim();
    if query.is_empty() {
        return Vec::new();
    }
    if let Some(rule) = as_rule(query) {
        return RULES.iter().filter(|e| e.number.is_within(rule)).collect();
    }
    let wanted = words(query);
    let mut scored: Vec<(u32, &'static Entry)> = RULES
        .iter()
        .filter_map(|e| {
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
            Some((score * 2 + u32::from(e.in_rulebook), e))
        })
        .collect();
    scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.number.cmp(&b.1.number)));
    scored.into_iter().map(|(_, e)| e).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn numbers(q: &str) -> Vec<String> {
        search(q).iter().map(|e| e.number.to_string()).collect()
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
}
