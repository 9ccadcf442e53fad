//! A batch of logs uploaded at once: which table each file belongs to, read from its tags
//! (`[Round "2"] [Table "5"]`) or, failing that, from its name (`r2-t5.dgn`, `round2_table5.dgn`,
//! `table-5.dgn`, `t5.dgn`), the round defaulting to the one the organiser picked.

use serde::{Deserialize, Serialize};

/// The value of a tag in the log's header lines, if present.
pub fn tag<'a>(text: &'a str, name: &str) -> Option<&'a str> {
    let open = format!("[{name} \"");
    text.lines()
        .take_while(|l| {
            let l = l.trim_start();
            l.is_empty() || l.starts_with('[') || l.starts_with('%')
        })
        .find_map(|line| {
            let at = line.find(&open)?;
            let rest = &line[at + open.len()..];
            rest.find('"').map(|end| &rest[..end])
        })
}

/// The number following one of `keys` in a file name (`r2-t5` → 5 for `t`).
fn number_after(name: &str, keys: &[&str]) -> Option<i32> {
    let lower = name.to_lowercase();
    let bytes = lower.as_bytes();
    for key in keys {
        let mut from = 0;
        while let Some(i) = lower[from..].find(key) {
            let at = from + i;
            let before_ok = at == 0 || !bytes[at - 1].is_ascii_alphabetic();
            let mut j = at + key.len();
            while j < bytes.len() && (bytes[j] == b'-' || bytes[j] == b'_' || bytes[j] == b' ') {
                j += 1;
            }
            let digits: String = lower[j..]
                .chars()
                .take_while(char::is_ascii_digit)
                .collect();
            if before_ok && !digits.is_empty() {
                return digits.parse().ok();
            }
            from = at + key.len();
        }
    }
    None
}

/// Where one uploaded log goes: (round, table), or why Mentat cannot tell.
pub fn destination(file_name: &str, text: &str, default_round: i32) -> Result<(i32, i32), String> {
    let from_tag = |name: &str| -> Result<Option<i32>, String> {
        match tag(text, name) {
            None => Ok(None),
            Some(v) => v
                .trim()
                .parse()
                .map(Some)
                .map_err(|_| format!("its [{name} \"{v}\"] tag is not a number")),
        }
    };
    let stem = file_name.rsplit('/').next().unwrap_or(file_name);
    let stem = stem.rsplit_once('.').map_or(stem, |(s, _)| s);
    let table = match from_tag("Table")? {
        Some(t) => t,
        None => number_after(stem, &["table", "t"]).ok_or_else(|| {
            "neither a [Table \"n\"] tag nor a table number in its name (such as r2-t5.dgn)"
                .to_owned()
        })?,
    };
    let round = match from_tag("Round")? {
        Some(r) => r,
        None => number_after(stem, &["round", "r"]).unwrap_or(default_round),
    };
    Ok((round, table))
}

/// One file's line in the batch summary.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BatchLine {
    pub file: String,
    /// Where it went, when Mentat could tell.
    pub round: Option<i32>,
    pub table: Option<i32>,
    /// What happened: saved as revision n, unchanged, or refused and why.
    pub outcome: BatchOutcome,
    /// The engine's verdict: `None` when not readable as DGN.
    pub violations: Option<usize>,
    pub winner: Option<String>,
    pub turns: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum BatchOutcome {
    Saved(i32),
    Unchanged(i32),
    Refused(String),
}

impl BatchLine {
    /// What happened to the file, in one line.
    pub fn said(&self) -> String {
        let outcome = match &self.outcome {
            BatchOutcome::Saved(r) => format!("saved as revision {r}"),
            BatchOutcome::Unchanged(r) => format!("unchanged (revision {r})"),
            BatchOutcome::Refused(why) => format!("not saved: {}", why.trim_end_matches('.')),
        };
        let verdict = match self.violations {
            None => "not readable as DGN".to_owned(),
            Some(0) => "no violation".to_owned(),
            Some(n) => format!("{n} violation{}", if n == 1 { "" } else { "s" }),
        };
        let place = match (self.round, self.table) {
            (Some(r), Some(t)) => format!("round {r}, table {t}: "),
            _ => String::new(),
        };
        let winner = self
            .winner
            .as_ref()
            .map(|w| format!("; winner {w}"))
            .unwrap_or_default();
        format!("{}: {place}{outcome}; {verdict}{winner}", self.file)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_win_over_names_and_names_over_the_default() {
        let tagged = "[Event \"X\"] [Round \"3\"]\n[Table \"7\"]\nT0\n";
        assert_eq!(destination("r1-t2.dgn", tagged, 1), Ok((3, 7)));
        assert_eq!(destination("r2-t5.dgn", "T0\n", 1), Ok((2, 5)));
        assert_eq!(destination("round2_table5.dgn", "T0\n", 1), Ok((2, 5)));
        assert_eq!(destination("logs/Table 12.txt", "T0\n", 4), Ok((4, 12)));
        assert_eq!(destination("t3.dgn", "T0\n", 2), Ok((2, 3)));
        assert!(destination("game.dgn", "T0\n", 2).is_err());
        assert!(
            destination("x.dgn", "[Table \"five\"]\n", 2)
                .unwrap_err()
                .contains("not a number")
        );
    }

    #[test]
    fn tags_are_read_from_the_header_only() {
        assert_eq!(tag("[Table \"4\"]\nT0\n[Table \"9\"]", "Table"), Some("4"));
        assert_eq!(tag("T0\n[Table \"9\"]", "Table"), None);
    }
}
