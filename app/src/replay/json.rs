//! The engine's report JSON (`mentat replay --json`, docs/cli.md) read back into types. The pages
//! are built from this JSON rather than from the engine's internals, so what the engine learns to
//! report (battles, control, the derived report) reaches the pages by adding a field here, and
//! scripts get exactly what the pages show. Fields the engine does not report yet default to
//! empty.

use std::collections::BTreeMap;

use dune::Faction;
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
    /// Deal and bribe terms the engine cannot check (1.12.00), for the judge.
    #[serde(default)]
    pub not_checked: Vec<NotCheckedJson>,
    /// Faction code → the names of its kinds of force, where it has more than plain forces.
    #[serde(default)]
    pub kinds: BTreeMap<String, KindNames>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct NotCheckedJson {
    pub line: u32,
    pub col: u32,
    pub text: String,
}

/// What one faction's kinds of force are called (`Suboid` and `Cyborg`, `advisor`).
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, Deserialize)]
pub struct KindNames {
    #[serde(default)]
    pub plain: String,
    #[serde(default)]
    pub starred: Option<String>,
    #[serde(default)]
    pub flipped: Option<String>,
}

/// Where the Hidden Mobile Stronghold stands: a territory code and a sector (1-18).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct HmsJson {
    pub territory: String,
    pub sector: u8,
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
    /// Other rules that say the same as `rule` (a phase rule beside the faction's or variant's
    /// rule the violation cites).
    #[serde(default)]
    pub see_also: Vec<String>,
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
    /// Where the Ixians' Hidden Mobile Stronghold stands, once placed.
    #[serde(default)]
    pub hms: Option<HmsJson>,
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
    /// Richese's No-Field tokens face down on the map (000 2.10.10); their numbers in audit
    /// mode only.
    #[serde(default)]
    pub no_fields: Vec<NoFieldJson>,
    /// The No-Field token face up in front of Richese's shield (2.10.13).
    #[serde(default)]
    pub no_field_front: Option<u8>,
    /// Tokens on the board: Ecaz's ambassadors and Moritani's terror tokens (a face-down one's
    /// `of` only in audit mode).
    #[serde(default)]
    pub tokens: Vec<TokenJson>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct NoFieldJson {
    pub territory: String,
    #[serde(default)]
    pub value: Option<u8>,
}

/// A token on the board, as the engine writes it.
#[derive(Debug, Clone, Deserialize)]
pub struct TokenJson {
    pub owner: String,
    /// `ambassador` or `terror`.
    pub kind: String,
    /// The ambassador's faction code, the terror token's name; `null` when hidden.
    #[serde(default)]
    pub of: Option<String>,
    pub territory: String,
    #[serde(default)]
    pub sector: Option<u8>,
    pub face_up: bool,
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
        self.describe_for(Faction::BeneGesserit)
    }

    /// The same for one faction's tokens: the flipped side is the Bene Gesserit's advisors, the
    /// Free Traders' Smugglers (000 2.13.05), `3 Smugglers`, or Ecaz's co-occupied forces (000
    /// 2.11.06 revised), `3 co-occupied`.
    pub fn describe_for(self, f: Faction) -> String {
        self.describe_as(f, None)
    }

    /// [`Tokens::describe_for`] naming the kinds where a faction's forces have names of their
    /// own: `10 (3 × Cyborg, 7 × Suboid)`, `7 (2 × Sardaukar)`. A count per name, so that no name
    /// needs a plural.
    pub fn describe_as(self, f: Faction, kinds: Option<&KindNames>) -> String {
        let (one, many, _) = flipped_side(f);
        let mut parts = Vec::new();
        if self.fighting > 0 {
            let starred = self.starred.min(self.fighting);
            let rest = self.fighting - starred;
            let mut named = Vec::new();
            if starred > 0 {
                named.push(match kinds.and_then(|k| k.starred.as_deref()) {
                    Some(name) => format!("{starred} × {name}"),
                    None => format!("{starred}★"),
                });
            }
            if let Some(name) = kinds.map(|k| k.plain.as_str()).filter(|p| *p != "force")
                && rest > 0
            {
                named.push(format!("{rest} × {name}"));
            }
            parts.push(if named.is_empty() {
                self.fighting.to_string()
            } else {
                format!("{} ({})", self.fighting, named.join(", "))
            });
        }
        if self.advisors > 0 {
            parts.push(format!(
                "{} {}",
                self.advisors,
                if self.advisors == 1 { one } else { many }
            ));
        }
        if parts.is_empty() {
            "0".to_owned()
        } else {
            parts.join(" + ")
        }
    }
}

/// What a faction's flipped tokens are called (the engine writes them `3a` for every faction,
/// its `"kinds"` naming them): the Bene Gesserit's advisors, the Free Traders' Smugglers, Ecaz's
/// co-occupied forces. The
/// names, singular and plural, and the suffix the board's chips use (`a`, or `s` as in DGN).
pub fn flipped_side(f: Faction) -> (&'static str, &'static str, char) {
    match f {
        Faction::FreeTraders => ("Smuggler", "Smugglers", 's'),
        // Ecaz's tokens that do not fight are co-occupied forces (000 2.11.06 revised).
        Faction::Ecaz => ("co-occupied", "co-occupied", 'a'),
        _ => ("advisor", "advisors", 'a'),
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
        assert_eq!(
            Tokens::parse("2+3a")
                .unwrap()
                .describe_for(Faction::FreeTraders),
            "2 + 3 Smugglers"
        );
    }

    #[test]
    fn a_faction_s_kinds_are_named_where_they_have_names() {
        let ix = KindNames {
            plain: "Suboid".into(),
            starred: Some("Cyborg".into()),
            flipped: None,
        };
        let em = KindNames {
            plain: "force".into(),
            starred: Some("Sardaukar".into()),
            flipped: None,
        };
        let t = Tokens::parse("10(3*)").unwrap();
        assert_eq!(
            t.describe_as(Faction::Ixians, Some(&ix)),
            "10 (3 × Cyborg, 7 × Suboid)"
        );
        assert_eq!(
            Tokens::parse("4")
                .unwrap()
                .describe_as(Faction::Ixians, Some(&ix)),
            "4 (4 × Suboid)"
        );
        assert_eq!(
            Tokens::parse("7(2*)")
                .unwrap()
                .describe_as(Faction::Emperor, Some(&em)),
            "7 (2 × Sardaukar)"
        );
        assert_eq!(
            Tokens::parse("5")
                .unwrap()
                .describe_as(Faction::Emperor, Some(&em)),
            "5"
        );
        // Without names, the star, as before.
        assert_eq!(t.describe_as(Faction::Emperor, None), "10 (3★)");
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
