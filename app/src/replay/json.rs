//! The engine's report JSON (`mentat replay --json`, docs/cli.md) read back into types. The pages
//! are built from this JSON rather than from the engine's internals, so what the engine learns to
//! report (battles, control, the derived report) reaches the pages by adding a field here, and
//! scripts get exactly what the pages show. Fields the engine does not report yet default to
//! empty.

use std::collections::BTreeMap;

use serde::Deserialize;

/// The whole answer: unreadable (`errors`), or replayed (`violations`, `turns`, `winner`).
#[derive(Debug, Clone, Default, Deserialize)]
pub struct ReportJson {
    pub ok: bool,
    /// `false` when the text is not DGN; absent after a replay.
    #[serde(default = "yes")]
    pub readable: bool,
    #[serde(default)]
    pub errors: Vec<ParseErrorJson>,
    #[serde(default)]
    pub violations: Vec<ViolationJson>,
    #[serde(default)]
    pub turns: Vec<TurnJson>,
    #[serde(default)]
    pub winner: Option<WinnerJson>,
}

fn yes() -> bool {
    true
}

#[derive(Debug, Clone, Deserialize)]
pub struct ParseErrorJson {
    pub line: u32,
    pub col: u32,
    pub expected: String,
    pub found: String,
}

#[derive(Debug, Clone, Deserialize)]
pub struct ViolationJson {
    pub line: u32,
    pub col: u32,
    pub turn: u32,
    pub phase: String,
    pub rule: String,
    /// The book `rule` is read in (`001`, `000`); the GenCon rulebook when absent.
    #[serde(default)]
    pub book: dune::Book,
    /// Where the full rulebook prints two versions of the rule, which one.
    #[serde(default)]
    pub edition: dune::Edition,
    pub message: String,
}

#[derive(Debug, Clone, Deserialize)]
pub struct WinnerJson {
    pub factions: Vec<String>,
    #[serde(rename = "type")]
    pub kind: serde_json::Value,
    pub turn: u32,
}

/// One turn's state as the engine summarises it (after its Mentat Pause, or where the log stops).
#[derive(Debug, Clone, Default, Deserialize)]
pub struct TurnJson {
    pub turn: u32,
    pub phase: String,
    /// 1-18 (DGN numbering); `None` before the first storm.
    pub storm: Option<u8>,
    /// Faction code → spice behind the shield.
    #[serde(default)]
    pub spice: BTreeMap<String, u32>,
    /// Territory code → faction code → tokens as the engine writes them (`7(2*)+1a`).
    #[serde(default)]
    pub forces: BTreeMap<String, BTreeMap<String, String>>,
    #[serde(default)]
    pub reserves: BTreeMap<String, String>,
    #[serde(default)]
    pub tanks: BTreeMap<String, String>,
    #[serde(default)]
    pub hands: BTreeMap<String, u32>,
    #[serde(default)]
    pub worms: u32,
    #[serde(default)]
    pub alliances: Vec<(String, String)>,
    // Rules engine II adds the fields below; until then they are empty.
    /// Territory code → spice lying there.
    #[serde(default)]
    pub spice_on_map: BTreeMap<String, u32>,
    /// Stronghold code → controlling faction.
    #[serde(default)]
    pub control: BTreeMap<String, String>,
    #[serde(default)]
    pub shield_wall_counts: Option<bool>,
    /// Stronghold code → faction holding its card (4.03).
    #[serde(default)]
    pub stronghold_cards: BTreeMap<String, String>,
    /// Faction code → active leaders' short names.
    #[serde(default)]
    pub leaders: Option<BTreeMap<String, Vec<String>>>,
    /// Faction code → cards in hand (`?` unknown); audit mode only.
    #[serde(default)]
    pub cards: Option<BTreeMap<String, Vec<String>>>,
    #[serde(default)]
    pub win_attempts: Vec<WinAttemptJson>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct WinAttemptJson {
    pub faction: String,
    #[serde(default)]
    pub strongholds: Vec<String>,
}

/// Tokens of one faction in one place, as the engine writes them: `10`, `7(2*)` (7 fighting, 2 of
/// them starred), `3a` (advisors), `2+1a`. Reserves and tanks use the first form.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, Deserialize)]
pub struct Tokens {
    /// Fighting tokens, starred included.
    pub fighting: u32,
    pub starred: u32,
    pub advisors: u32,
}

impl Tokens {
    pub fn parse(text: &str) -> Option<Tokens> {
        let mut t = Tokens::default();
        for part in text.split('+') {
            let part = part.trim();
            if let Some(n) = part.strip_suffix('a') {
                t.advisors += n.parse::<u32>().ok()?;
            } else if let Some((n, rest)) = part.split_once('(') {
                t.fighting += n.parse::<u32>().ok()?;
                t.starred += rest.strip_suffix("*)")?.parse::<u32>().ok()?;
            } else {
                t.fighting += part.parse::<u32>().ok()?;
            }
        }
        Some(t)
    }

    pub fn total(self) -> u32 {
        self.fighting + self.advisors
    }

    /// `10`, `7 (2★)`, `3 advisors`: the same, for people.
    pub fn describe(self) -> String {
        let mut parts = Vec::new();
        if self.fighting > 0 {
            parts.push(if self.starred > 0 {
                format!("{} ({}★)", self.fighting, self.starred)
            } else {
                self.fighting.to_string()
            });
        }
        if self.advisors > 0 {
            parts.push(format!(
                "{} advisor{}",
                self.advisors,
                if self.advisors == 1 { "" } else { "s" }
            ));
        }
        if parts.is_empty() {
            "0".to_owned()
        } else {
            parts.join(" + ")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_read_every_form_the_engine_writes() {
        assert_eq!(
            Tokens::parse("10"),
            Some(Tokens {
                fighting: 10,
                starred: 0,
                advisors: 0
            })
        );
        assert_eq!(
            Tokens::parse("7(2*)"),
            Some(Tokens {
                fighting: 7,
                starred: 2,
                advisors: 0
            })
        );
        assert_eq!(
            Tokens::parse("3a"),
            Some(Tokens {
                fighting: 0,
                starred: 0,
                advisors: 3
            })
        );
        assert_eq!(
            Tokens::parse("2+1a"),
            Some(Tokens {
                fighting: 2,
                starred: 0,
                advisors: 1
            })
        );
        assert_eq!(Tokens::parse("x"), None);
        assert_eq!(Tokens::parse("7(2*)").unwrap().describe(), "7 (2★)");
        assert_eq!(Tokens::parse("2+1a").unwrap().describe(), "2 + 1 advisor");
    }

    #[test]
    fn a_report_without_engine_ii_fields_reads() {
        let r: ReportJson = serde_json::from_str(
            r#"{"ok":false,"violations":[{"line":3,"col":1,"turn":0,"phase":"Setup","rule":"0.16","message":"m"}],
                "turns":[{"turn":0,"phase":"Setup","storm":4,"spice":{"AT":10},"forces":{"ARK":{"AT":"10"}},
                "reserves":{"AT":"10"},"tanks":{},"hands":{"AT":1},"worms":0,"alliances":[]}]}"#,
        )
        .unwrap();
        assert!(r.readable);
        assert_eq!(r.turns[0].forces["ARK"]["AT"], "10");
        assert!(r.turns[0].control.is_empty());
        let u: ReportJson = serde_json::from_str(
            r#"{"ok":false,"readable":false,"errors":[{"line":2,"col":1,"expected":"a statement","found":"Q","message":"x"}]}"#,
        )
        .unwrap();
        assert!(!u.readable);
        assert_eq!(u.errors[0].found, "Q");
    }
}
