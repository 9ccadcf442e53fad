//! Where the engine cites each rule, read from its sources: the generator of
//! `engine-index.txt`. Pure: the caller reads the files (see `tests/engine_index.rs`).
//!
//! A citation is a quoted rule number in the engine's code: `rule!("1.06.03.05")` or a plain
//! `"1.06.03.05"` in a check or a data table (Mentat's numbering, read in the game's book by
//! `dune::Book::cite`), or `full_rule!("1.14.07")` / `full_rule!("2.09.05", original)` (the full
//! rulebook's own number). Comments are skipped, and so is a file's test module (everything
//! from its `#[cfg(test)]`), where numbers are expectations, not checks.

use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

use dune::{Book, BookRule, Edition, Rule};

/// How the engine cites a rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Cited {
    /// `rule!("1.06.03.05")`: Mentat's numbering, the GenCon number where GenCon has the rule.
    Number(Rule),
    /// `full_rule!("1.14.07")`: a number of the full rulebook (and edition) as it stands.
    Full(BookRule),
}

impl Cited {
    /// The rule it names in the index: for a plain number, the rule the number means without a
    /// book ([`crate::get`]).
    pub fn entry(self) -> Option<&'static crate::Entry> {
        match self {
            Cited::Number(r) => crate::get(r),
            Cited::Full(r) => crate::rows(r.book(), r.rule())
                .iter()
                .find(|e| e.edition.is_none_or(|ed| ed == r.edition())),
        }
    }
}

/// The index's spelling: `1.06.03.05`, `full/1.14.07`, `full/2.09.05/original`.
impl fmt::Display for Cited {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Cited::Number(r) => write!(f, "{r}"),
            Cited::Full(r) => {
                write!(f, "{}/{}", r.book().slug(), r.rule())?;
                if r.is_original() {
                    write!(f, "/original")?;
                }
                Ok(())
            }
        }
    }
}

impl FromStr for Cited {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || format!("{s:?} is not a rule address (1.06.03 or full/1.14.07)");
        let mut parts = s.trim().split('/');
        let first = parts.next().ok_or_else(bad)?;
        if let Ok(r) = Rule::parse(first) {
            return match parts.next() {
                None => Ok(Cited::Number(r)),
                Some(_) => Err(bad()),
            };
        }
        let book: Book = first.parse().map_err(|_| bad())?;
        let rule = Rule::parse(parts.next().ok_or_else(bad)?).map_err(|_| bad())?;
        let edition = match parts.next() {
            None => Edition::default(),
            Some(e) => e.parse().map_err(|_| bad())?,
        };
        Ok(Cited::Full(BookRule::new(book, rule, edition)))
    }
}

/// The rules cited in one source file, with how often each appears.
pub fn citations(source: &str) -> BTreeMap<Cited, u32> {
    let mut found = BTreeMap::new();
    for line in source.lines() {
        let code = line.trim_start();
        if code.starts_with("#[cfg(test)]") {
            break;
        }
        if code.starts_with("//") {
            continue;
        }
        // Drop a trailing comment (a `//` outside a string is close enough for these files).
        let code = match code.find(" // ") {
            Some(i) => &code[..i],
            None => code,
        };
        let pieces: Vec<&str> = code.split('"').collect();
        for (i, quoted) in pieces.iter().enumerate().skip(1).step_by(2) {
            let Ok(rule) = Rule::parse(quoted) else {
                continue;
            };
            let before = pieces[i - 1].trim_end();
            let after = pieces.get(i + 1).copied().unwrap_or_default();
            let cited = if before.ends_with("full_rule!(") {
                let edition = if after.trim_start().starts_with(", original") {
                    Edition::Original
                } else {
                    Edition::Revised
                };
                Cited::Full(BookRule::new(Book::Full, rule, edition))
            } else {
                Cited::Number(rule)
            };
            *found.entry(cited).or_insert(0) += 1;
        }
    }
    found
}

/// The rule an example log breaks, from its name: `illegal-1.06.03.05-ship-into-full.dgn`. A
/// name with the full rulebook's own number (`illegal-000-1.14.07-…`) is not listed under
/// Mentat's numbering, where that number is another rule.
pub fn example_rule(file_name: &str) -> Option<Rule> {
    let rest = file_name.strip_prefix("illegal-")?;
    if rest.starts_with("000-") {
        return None;
    }
    Rule::parse(rest.split('-').next()?).ok()
}

pub const HEADER: &str = "# Where the engine cites each rule and which example logs break it.\n\
# Generated from engine/src and engine/tests/games: do not edit by hand. After changing the\n\
# engine, run `MENTAT_BLESS=1 cargo test -p rulebook --test engine_index` and commit the result.\n\
# A rule is 1.06.03.05 (Mentat's numbering: GenCon's where GenCon has the rule, else the full\n\
# rulebook's) or full/1.14.07, full/2.09.05/original (the full rulebook's own, `full_rule!`).\n\
# rule<TAB>check<TAB>file<TAB>citations | rule<TAB>example<TAB>file\n";

/// The index's text from the engine's source files (path from the repository's root, contents)
/// and the example logs' paths.
pub fn index(sources: &[(String, String)], examples: &[String]) -> String {
    let mut lines: BTreeMap<Cited, Vec<String>> = BTreeMap::new();
    let mut sorted: Vec<&(String, String)> = sources.iter().collect();
    sorted.sort_by(|a, b| a.0.cmp(&b.0));
    for (path, text) in sorted {
        for (rule, count) in citations(text) {
            lines
                .entry(rule)
                .or_default()
                .push(format!("{rule}\tcheck\t{path}\t{count}"));
        }
    }
    let mut examples: Vec<&String> = examples.iter().collect();
    examples.sort();
    for path in examples {
        let name = path.rsplit('/').next().unwrap_or(path);
        if let Some(rule) = example_rule(name) {
            lines
                .entry(Cited::Number(rule))
                .or_default()
                .push(format!("{rule}\texample\t{path}"));
        }
    }
    let mut out = HEADER.to_owned();
    for line in lines.into_values().flatten() {
        out.push_str(&line);
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use dune::rule;

    #[test]
    fn quoted_numbers_count_comments_and_tests_do_not() {
        let src = "fn f() {\n    self.v(\"1.06.03.05\", \"full\");\n    // see \"1.07\"\n    let r = rule!(\"1.06.03.05\"); // \"2.01\"\n    x(\"version 1.2\");\n}\n#[cfg(test)]\nmod tests { \"1.09\" }\n";
        let c = citations(src);
        assert_eq!(c.get(&Cited::Number(rule!("1.06.03.05"))), Some(&2));
        assert_eq!(c.len(), 1, "{c:?}");
    }

    #[test]
    fn the_full_rulebooks_own_numbers_are_told_apart() {
        let src = "let a = full_rule!(\"1.14.07\"); let b = full_rule!(\"2.09.05\", original);\nv(rule!(\"2.07.18\"));\n";
        let c: Vec<String> = citations(src).keys().map(ToString::to_string).collect();
        assert_eq!(c, ["2.07.18", "full/1.14.07", "full/2.09.05/original"]);
        for text in &c {
            assert_eq!(&text.parse::<Cited>().unwrap().to_string(), text);
        }
        assert!("gencon/".parse::<Cited>().is_err());
        assert!("1.06/full".parse::<Cited>().is_err());
        // Each lands on a row of the right book.
        let ix = "full/1.14.07".parse::<Cited>().unwrap().entry().unwrap();
        assert_eq!((ix.book, ix.heading), (Book::Full, "Ixians"));
        let choam = "full/2.09.05/original"
            .parse::<Cited>()
            .unwrap()
            .entry()
            .unwrap();
        assert_eq!(choam.edition, Some(Edition::Original));
        // A plain number the GenCon rulebook lacks is held to the full rulebook's index.
        assert!(Cited::Number(rule!("2.08.05")).entry().is_some());
        assert!(Cited::Number(rule!("2.08.99")).entry().is_none());
        assert!(Cited::Number(rule!("2.99.01")).entry().is_none());
    }

    #[test]
    fn index_lists_checks_then_examples_per_rule() {
        let text = index(
            &[
                ("engine/src/b.rs".into(), "v(\"0.16\")".into()),
                ("engine/src/a.rs".into(), "v(\"0.16\") v(\"0.16\")".into()),
            ],
            &[
                "engine/tests/games/illegal-0.16-x.dgn".into(),
                "engine/tests/games/legal-y.dgn".into(),
            ],
        );
        let body: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
        assert_eq!(
            body,
            [
                "0.16\tcheck\tengine/src/a.rs\t2",
                "0.16\tcheck\tengine/src/b.rs\t1",
                "0.16\texample\tengine/tests/games/illegal-0.16-x.dgn"
            ]
        );
    }
}
