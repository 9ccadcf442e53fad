//! Compiles the rule index into the crate: `gencon-2.13.3.md` (Mentat's summaries),
//! `../docs/rulings.md` (the rulings, scanned for the rule numbers they cite) and
//! `engine-index.txt` (generated from the engine's sources, see `tests/engine_index.rs`).
//! A malformed row stops the build with the file and line at fault, so a bad edit never reaches
//! a judge's phone.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn main() {
    let dir = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap_or_default());
    let index = dir.join("gencon-2.13.3.md");
    let rulings = dir.join("../docs/rulings.md");
    let engine = dir.join("engine-index.txt");
    for p in [&index, &rulings, &engine] {
        println!("cargo:rerun-if-changed={}", p.display());
    }
    let rows = read_rows(&index);
    let known: BTreeSet<&str> = rows.iter().map(|r| r.number.as_str()).collect();
    let rulings = read_rulings(&rulings, &known);
    let (checks, examples) = read_engine_index(&engine, &known, &dir);
    for file in examples.values().flatten() {
        println!(
            "cargo:rerun-if-changed={}",
            dir.join("..").join(file).display()
        );
    }

    let mut out = String::new();
    out.push_str("pub static RULES: &[Entry] = &[\n");
    for r in &rows {
        let touching: Vec<String> = rulings
            .iter()
            .filter(|g| g.rules.contains(&r.number))
            .map(|g| g.number.to_string())
            .collect();
        let engine: Vec<String> = checks
            .get(r.number.as_str())
            .map(|list| {
                list.iter()
                    .map(|(path, count)| format!("Citation {{ file: {path:?}, count: {count} }}"))
                    .collect()
            })
            .unwrap_or_default();
        let ex: Vec<String> = examples
            .get(r.number.as_str())
            .map(|list| {
                list.iter()
                    .map(|path| {
                        let abs = dir.join("..").join(path);
                        let name = Path::new(path)
                            .file_name()
                            .and_then(|n| n.to_str())
                            .unwrap_or_default();
                        format!(
                            "Example {{ file: {name:?}, text: include_str!({:?}) }}",
                            abs.display().to_string()
                        )
                    })
                    .collect()
            })
            .unwrap_or_default();
        let keywords: Vec<String> = r.keywords.iter().map(|k| format!("{k:?}")).collect();
        writeln!(
            out,
            "    Entry {{ number: dune::Rule::new({:?}), heading: {:?}, summary: {:?}, keywords: &[{}], rulings: &[{}], engine: &[{}], examples: &[{}], in_rulebook: {} }},",
            r.number,
            r.heading,
            r.summary,
            keywords.join(", "),
            touching.join(", "),
            engine.join(", "),
            ex.join(", "),
            !r.heading.starts_with("Not in this rulebook"),
        )
        .unwrap_or_default();
    }
    out.push_str("];\n\npub static RULINGS: &[Ruling] = &[\n");
    for g in &rulings {
        let cites: Vec<String> = g
            .rules
            .iter()
            .map(|n| format!("dune::Rule::new({n:?})"))
            .collect();
        writeln!(
            out,
            "    Ruling {{ number: {}, title: {:?}, text: {:?}, rules: &[{}] }},",
            g.number,
            g.title,
            g.text,
            cites.join(", ")
        )
        .unwrap_or_default();
    }
    out.push_str("];\n");
    let target = PathBuf::from(std::env::var("OUT_DIR").unwrap_or_default()).join("rules.rs");
    if let Err(e) = std::fs::write(&target, out) {
        fail(&target, 0, &format!("cannot write: {e}"));
    }
}

fn fail(file: &Path, line: usize, message: &str) -> ! {
    panic!("{}:{line}: {message}", file.display());
}

fn read(file: &Path) -> String {
    std::fs::read_to_string(file).unwrap_or_else(|e| fail(file, 0, &format!("cannot read: {e}")))
}

/// `1.06.03.05`: a chapter digit, then one to four two-digit parts.
fn is_rule_number(text: &str) -> bool {
    let mut parts = text.split('.');
    let chapter_ok = parts
        .next()
        .is_some_and(|c| c.len() == 1 && c.bytes().all(|b| b.is_ascii_digit()));
    let rest: Vec<&str> = parts.collect();
    chapter_ok
        && (1..=4).contains(&rest.len())
        && rest
            .iter()
            .all(|p| p.len() == 2 && p.bytes().all(|b| b.is_ascii_digit()))
}

/// Every rule number written in a text (`1.09.05`, `4.01.10.01`), in order of appearance.
fn rule_numbers(text: &str) -> Vec<String> {
    let b = text.as_bytes();
    let digit = |i: usize| b.get(i).is_some_and(u8::is_ascii_digit);
    let mut found = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let starts =
            digit(i) && (i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'.'));
        if !starts {
            i += 1;
            continue;
        }
        let mut j = i + 1;
        let mut groups = 0;
        while groups < 4 && b.get(j) == Some(&b'.') && digit(j + 1) && digit(j + 2) && !digit(j + 3)
        {
            j += 3;
            groups += 1;
        }
        if groups > 0 && !digit(j) {
            found.push(text[i..j].to_owned());
        }
        i = j;
    }
    found
}

struct Row {
    number: String,
    heading: String,
    summary: String,
    keywords: Vec<String>,
}

fn read_rows(file: &Path) -> Vec<Row> {
    let text = read(file);
    let mut rows: Vec<Row> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let n = i + 1;
        let Some(inner) = line.strip_prefix("| ") else {
            continue;
        };
        let cells: Vec<&str> = inner.trim_end_matches('|').split(" | ").collect();
        let first = cells.first().map(|c| c.trim()).unwrap_or_default();
        if first == "Rule" {
            continue;
        }
        if cells.len() != 4 {
            fail(
                file,
                n,
                "a row has four cells: | number | heading | summary | keywords |",
            );
        }
        let number = first.to_owned();
        if !is_rule_number(&number) {
            fail(
                file,
                n,
                &format!("{number:?} is not a rule number such as 1.06.03"),
            );
        }
        let heading = cells[1].trim().to_owned();
        let summary = cells[2].trim().to_owned();
        if heading.is_empty() || summary.is_empty() {
            fail(
                file,
                n,
                &format!("{number}: heading and summary may not be empty"),
            );
        }
        // Sentences end with a full stop before a capital letter, or at the end.
        let sentences = 1 + summary
            .as_bytes()
            .windows(3)
            .filter(|w| w[0] == b'.' && w[1] == b' ' && w[2].is_ascii_uppercase())
            .count();
        if !summary.ends_with('.') || sentences > 3 {
            fail(
                file,
                n,
                &format!("{number}: a summary is one to three sentences ending with a full stop"),
            );
        }
        if let Some(last) = rows.last()
            && sort_key(&last.number) >= sort_key(&number)
        {
            fail(
                file,
                n,
                &format!(
                    "{number} comes after {} here: keep the rulebook's order, each number once",
                    last.number
                ),
            );
        }
        let keywords = cells[3]
            .trim()
            .split(',')
            .map(|k| k.trim().to_owned())
            .filter(|k| !k.is_empty())
            .collect();
        rows.push(Row {
            number,
            heading,
            summary,
            keywords,
        });
    }
    if rows.len() < 400 {
        fail(
            file,
            0,
            &format!("only {} rules read; the rulebook has about 440", rows.len()),
        );
    }
    rows
}

fn sort_key(number: &str) -> Vec<u32> {
    number.split('.').filter_map(|p| p.parse().ok()).collect()
}

struct Ruling {
    number: u32,
    title: String,
    text: String,
    rules: Vec<String>,
}

/// `N. **Title.** text` items, continued on indented lines.
fn read_rulings(file: &Path, known: &BTreeSet<&str>) -> Vec<Ruling> {
    let text = read(file);
    let mut out: Vec<Ruling> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        let numbered = trimmed
            .split_once(". ")
            .and_then(|(n, rest)| n.parse::<u32>().ok().map(|n| (n, rest)))
            .filter(|_| !line.starts_with(' '));
        if let Some((number, rest)) = numbered {
            let (title, body) = match rest.strip_prefix("**").and_then(|r| r.split_once("**")) {
                Some((t, b)) => (
                    t.trim().trim_end_matches('.').to_owned(),
                    b.trim().to_owned(),
                ),
                // No bold title (the game rulings): the first clause stands for one.
                None => {
                    let end = rest.find([':', '(', '.', ';']).unwrap_or(rest.len());
                    (
                        rest[..end].trim().trim_end_matches(',').to_owned(),
                        rest.trim().to_owned(),
                    )
                }
            };
            if out.last().is_some_and(|g| g.number + 1 != number) {
                fail(
                    file,
                    i + 1,
                    &format!("ruling {number} does not follow the one before"),
                );
            }
            out.push(Ruling {
                number,
                title,
                text: body,
                rules: Vec::new(),
            });
        } else if line.starts_with("  ") && !trimmed.is_empty() {
            if let Some(last) = out.last_mut() {
                last.text.push(' ');
                last.text.push_str(trimmed);
            }
        } else if line.starts_with('#') || line.starts_with("- ") {
            // A new section or a list outside the numbered rulings.
            continue;
        }
    }
    for g in &mut out {
        let all = format!("{} {}", g.title, g.text);
        let mut seen = BTreeSet::new();
        for n in rule_numbers(&all) {
            if known.contains(n.as_str()) && seen.insert(n.clone()) {
                g.rules.push(n);
            }
        }
    }
    if out.len() < 10 {
        fail(file, 0, "fewer than ten numbered rulings read");
    }
    out
}

type Checks = BTreeMap<String, Vec<(String, u32)>>;
type Examples = BTreeMap<String, Vec<String>>;

/// `rule<TAB>check<TAB>path<TAB>count` and `rule<TAB>example<TAB>path` lines.
fn read_engine_index(file: &Path, known: &BTreeSet<&str>, dir: &Path) -> (Checks, Examples) {
    let text = read(file);
    let mut checks = Checks::new();
    let mut examples = Examples::new();
    for (i, line) in text.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let cells: Vec<&str> = line.split('\t').collect();
        let rule = cells.first().copied().unwrap_or_default();
        if !known.contains(rule) {
            // The staleness test names it; the build goes on so that the test can run.
            println!(
                "cargo:warning={rule} is cited by the engine but has no row in gencon-2.13.3.md"
            );
            continue;
        }
        match cells.as_slice() {
            [_, "check", path, count] => {
                let count = count
                    .parse()
                    .unwrap_or_else(|_| fail(file, i + 1, "a count is a number"));
                checks
                    .entry(rule.to_owned())
                    .or_default()
                    .push(((*path).to_owned(), count));
            }
            [_, "example", path] => {
                if !dir.join("..").join(path).exists() {
                    // Left out rather than failing the build, so that the staleness test
                    // (tests/engine_index.rs) runs and says how to regenerate the index.
                    println!("cargo:warning={path} is gone: regenerate rulebook/engine-index.txt");
                    continue;
                }
                examples
                    .entry(rule.to_owned())
                    .or_default()
                    .push((*path).to_owned());
            }
            _ => fail(
                file,
                i + 1,
                "expected rule, check, path, count or rule, example, path",
            ),
        }
    }
    (checks, examples)
}
