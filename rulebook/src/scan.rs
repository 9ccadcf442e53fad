//! Where the engine cites each rule, read from its sources: the generator of
//! `engine-index.txt`. Pure: the caller reads the files (see `tests/engine_index.rs`).
//!
//! A citation is a quoted rule number in the engine's code: `rule!("1.06.03.05")` or a plain
//! `"1.06.03.05"` in a check or a data table. Comments are skipped, and so is a file's test
//! module (everything from its `#[cfg(test)]`), where numbers are expectations, not checks.

use std::collections::BTreeMap;

use dune::Rule;

/// The rule numbers quoted in one source file, with how often each appears.
pub fn citations(source: &str) -> BTreeMap<Rule, u32> {
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
        for quoted in code.split('"').skip(1).step_by(2) {
            if let Ok(rule) = Rule::parse(quoted) {
                *found.entry(rule).or_insert(0) += 1;
            }
        }
    }
    found
}

/// The rule an example log breaks, from its name: `illegal-1.06.03.05-ship-into-full.dgn`.
pub fn example_rule(file_name: &str) -> Option<Rule> {
    let rest = file_name.strip_prefix("illegal-")?;
    Rule::parse(rest.split('-').next()?).ok()
}

pub const HEADER: &str = "# Where the engine cites each rule and which example logs break it.\n\
# Generated from engine/src and engine/tests/games: do not edit by hand. After changing the\n\
# engine, run `MENTAT_BLESS=1 cargo test -p rulebook --test engine_index` and commit the result.\n\
# rule<TAB>check<TAB>file<TAB>citations | rule<TAB>example<TAB>file\n";

/// The index's text from the engine's source files (path from the repository's root, contents)
/// and the example logs' paths.
pub fn index(sources: &[(String, String)], examples: &[String]) -> String {
    let mut lines: BTreeMap<Rule, Vec<String>> = BTreeMap::new();
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
                .entry(rule)
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
        assert_eq!(c.get(&rule!("1.06.03.05")), Some(&2));
        assert_eq!(c.len(), 1, "{c:?}");
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
