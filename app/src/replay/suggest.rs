//! What may come next in a log: the word being typed is matched against factions, territories
//! (by code or by name), leaders still alive and cards. Pure; the server runs it with each live
//! check of the log as the judge types (`gamelog::check_log_live`).

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum WordKind {
    Faction,
    Territory,
    Leader,
    Card,
}

impl WordKind {
    pub fn label(self) -> &'static str {
        match self {
            WordKind::Faction => "faction",
            WordKind::Territory => "territory",
            WordKind::Leader => "leader",
            WordKind::Card => "card",
        }
    }
}

/// One word DGN knows: what is written (`ARK`), and what it means (`Arrakeen`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Word {
    pub code: String,
    pub label: String,
    pub kind: WordKind,
    /// A leader's faction.
    pub faction: Option<String>,
}

impl Word {
    pub fn new(code: &str, label: &str, kind: WordKind, faction: Option<&str>) -> Word {
        Word {
            code: code.to_owned(),
            label: label.to_owned(),
            kind,
            faction: faction.map(str::to_owned),
        }
    }
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Vocabulary {
    pub words: Vec<Word>,
}

/// The word the caret is in or right after: its start (a byte offset) and its text so far.
/// Territory sectors (`SM/5`) and leader prefixes (`EM:Bashar`) start a new word after `/`, `:`.
pub fn word_at(text: &str, caret: usize) -> (usize, &str) {
    let caret = caret.min(text.len());
    let caret = (0..=caret)
        .rev()
        .find(|i| text.is_char_boundary(*i))
        .unwrap_or(0);
    let before = &text[..caret];
    let start = before
        .char_indices()
        .rev()
        .find(|(_, c)| !(c.is_alphanumeric() || *c == '\''))
        .map_or(0, |(i, c)| i + c.len_utf8());
    (start, &before[start..])
}

fn folded(s: &str) -> String {
    s.to_lowercase().replace(['\'', ' '], "")
}

/// Up to `limit` words matching `prefix`: codes starting with it first, then names containing a
/// word starting with it ("arr" → ARK Arrakeen; "flat" → GF The Great Flat). Leaders not in
/// `alive` (when known) are left out: a dead leader cannot be played.
pub fn suggest<'a>(
    vocabulary: &'a Vocabulary,
    prefix: &str,
    alive: Option<&[String]>,
    limit: usize,
) -> Vec<&'a Word> {
    if prefix.is_empty() {
        return Vec::new();
    }
    let p = folded(prefix);
    let living = |w: &Word| w.kind != WordKind::Leader || alive.is_none_or(|a| a.contains(&w.code));
    let mut by_code: Vec<&Word> = vocabulary
        .words
        .iter()
        .filter(|w| living(w) && folded(&w.code).starts_with(&p) && w.code != prefix)
        .collect();
    let by_name = vocabulary.words.iter().filter(|w| {
        living(w)
            && !folded(&w.code).starts_with(&p)
            && w.label
                .split([' ', '(', '-'])
                .any(|part| folded(part).starts_with(&p))
    });
    by_code.extend(by_name);
    by_code.truncate(limit);
    by_code
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vocab() -> Vocabulary {
        Vocabulary {
            words: vec![
                Word::new("ARK", "Arrakeen", WordKind::Territory, None),
                Word::new("ARS", "Arsunt", WordKind::Territory, None),
                Word::new("GF", "The Great Flat", WordKind::Territory, None),
                Word::new("TUK", "Tuek's Sietch", WordKind::Territory, None),
                Word::new("Stilgar", "Stilgar (FR, 7)", WordKind::Leader, Some("FR")),
                Word::new("Jamis", "Jamis (FR, 2)", WordKind::Leader, Some("FR")),
                Word::new("AT", "Atreides", WordKind::Faction, None),
            ],
        }
    }

    fn codes(prefix: &str, alive: Option<&[String]>) -> Vec<String> {
        let v = vocab();
        suggest(&v, prefix, alive, 6)
            .iter()
            .map(|w| w.code.clone())
            .collect()
    }

    #[test]
    fn codes_first_then_names() {
        assert_eq!(codes("AR", None), ["ARK", "ARS"]);
        assert_eq!(codes("arr", None), ["ARK"]);
        assert_eq!(codes("flat", None), ["GF"]);
        assert_eq!(codes("tueks", None), ["TUK"]);
        assert!(codes("", None).is_empty());
    }

    #[test]
    fn dead_leaders_are_not_suggested() {
        assert_eq!(codes("Sti", None), ["Stilgar"]);
        let alive = vec!["Jamis".to_owned()];
        assert!(codes("Sti", Some(&alive)).is_empty());
        assert_eq!(codes("Ja", Some(&alive)), ["Jamis"]);
    }

    #[test]
    fn the_word_at_the_caret() {
        let text = "M AT ship 2 AR";
        assert_eq!(word_at(text, text.len()), (12, "AR"));
        assert_eq!(word_at("X ARK: AT v EM:Bas", 18), (15, "Bas"));
        assert_eq!(word_at("move SM/", 8), (8, ""));
        assert_eq!(word_at("", 0), (0, ""));
    }
}
