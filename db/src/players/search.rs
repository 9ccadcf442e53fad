//! The forgiving name search of check-in and "find me": case and accents do not matter, nor
//! punctuation, and any part of the name will do ("hanna" and "olund" both find "Hanna Ölund";
//! "soren" finds "Søren"). Every word typed must be somewhere in the name.

use deunicode::deunicode;

/// A name or a query as the search compares it: ASCII, lower case, letters and digits, words
/// separated by one space. `deunicode` transliterates (Ö → O, ø → o, ß → ss), so letters
/// without a decomposition are folded too.
pub fn fold(text: &str) -> String {
    let ascii = deunicode(text).to_lowercase();
    let mut out = String::with_capacity(ascii.len());
    for word in ascii.split(|c: char| c.is_whitespace() || c == '-' || c == '/' || c == ',') {
        // Apostrophes and dots join a word's parts: "O'Brien" is "obrien", "J.R." is "jr".
        let word: String = word.chars().filter(char::is_ascii_alphanumeric).collect();
        if word.is_empty() {
            continue;
        }
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(&word);
    }
    out
}

/// How well `name` matches `query`; `None` when it does not. Lower is better: a name where every
/// word typed begins a word of the name comes first, then by where the first word is found.
pub fn rank(query: &str, name: &str) -> Option<(bool, usize)> {
    let query = fold(query);
    if query.is_empty() {
        return None;
    }
    let name = fold(name);
    let mut all_at_word_start = true;
    let mut first = None;
    for word in query.split(' ') {
        let at = name.find(word)?;
        let at_start = name
            .match_indices(word)
            .any(|(i, _)| i == 0 || name.as_bytes().get(i - 1) == Some(&b' '));
        all_at_word_start &= at_start;
        first.get_or_insert(at);
    }
    Some((!all_at_word_start, first.unwrap_or(0)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folding_drops_case_accents_and_punctuation() {
        assert_eq!(fold("Hanna Ölund"), "hanna olund");
        assert_eq!(fold("  Søren  Kierkegaard "), "soren kierkegaard");
        assert_eq!(fold("Straße"), "strasse");
        assert_eq!(fold("Łukasz"), "lukasz");
        assert_eq!(fold("O'Brien"), "obrien");
        assert_eq!(fold("Jean-Luc Picard"), "jean luc picard");
        assert_eq!(fold("ÉMILE"), "emile");
        assert_eq!(fold(";;;"), "");
    }

    #[test]
    fn any_part_of_the_name_in_any_case_or_accent_finds_it() {
        for query in [
            "hanna",
            "HANNA",
            "Hanna",
            "olund",
            "Ölund",
            "lund",
            "hanna olund",
            "olund hanna",
            " h ",
        ] {
            assert!(rank(query, "Hanna Ölund").is_some(), "{query:?}");
        }
        assert!(rank("soren", "Søren Ask").is_some());
        assert!(rank("obrien", "Pat O'Brien").is_some());
        assert_eq!(
            rank("hanna x", "Hanna Ölund"),
            None,
            "every word must be found"
        );
        assert_eq!(rank("anna", "Bob"), None);
        assert_eq!(
            rank("  ", "Hanna Ölund"),
            None,
            "an empty query finds nobody"
        );
    }

    #[test]
    fn names_whose_words_begin_with_the_query_come_first() {
        let mut names = vec!["Joanna Berg", "Anna Ölund", "Hanna Anker"];
        names.sort_by_key(|n| rank("an", n));
        // "Anna" and "Anker" begin with it; "Joanna" only contains it.
        assert_eq!(names, ["Anna Ölund", "Hanna Anker", "Joanna Berg"]);
    }
}
