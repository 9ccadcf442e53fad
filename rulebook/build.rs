//! Compiles the two rule indexes into the crate: `gencon-2.13.3.md` and `full-2.10.9.md`
//! (Mentat's summaries of the GenCon and the full rulebook), `../docs/rulings.md` (the rulings,
//! scanned for the rule numbers they cite) and `engine-index.txt` (generated from the engine's
//! sources, see `tests/engine_index.rs`). A malformed row stops the build with the file and line
//! at fault, so a bad edit never reaches a judge's phone.
//!
//! A number cited without a book (a ruling's, the engine's `rule!`) is read as `dune::Book::cite`
//! reads it, in both books: a ruling on the GenCon 1.06.03.05 also shows on the full rulebook's
//! 1.06.02.05, the same rule.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use dune::{Book, Edition, Rule};

fn main() {
    let dir = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap_or_default());
    let gencon_file = dir.join("gencon-2.13.3.md");
    let full_file = dir.join("full-2.10.9.md");
    let rulings_file = dir.join("../docs/rulings.md");
    let engine_file = dir.join("engine-index.txt");
    for p in [&gencon_file, &full_file, &rulings_file, &engine_file] {
        println!("cargo:rerun-if-changed={}", p.display());
    }
    let gencon = read_rows(&gencon_file, Book::GenCon, 400);
    let full = read_rows(&full_file, Book::Full, 1000);
    let index = Index {
        gencon: gencon.iter().map(|r| (r.number, r.in_rulebook)).collect(),
        full: full.iter().map(|r| (r.number, r.edition)).collect(),
    };
    let rulings = read_rulings(&rulings_file, &index);
    let (checks, examples) = read_engine_index(&engine_file, &index, &dir);
    for file in examples.values().flatten() {
        println!(
            "cargo:rerun-if-changed={}",
            dir.join("..").join(file).display()
        );
    }

    let mut out = String::new();
    for (name, rows) in [("GENCON", &gencon), ("FULL", &full)] {
        writeln!(out, "pub static {name}: &[Entry] = &[").unwrap_or_default();
        for r in rows.iter() {
            write_entry(&mut out, r, &rulings, &checks, &examples, &dir);
        }
        out.push_str("];\n\n");
    }
    out.push_str("pub static RULINGS: &[Ruling] = &[\n");
    for g in &rulings {
        let cites: Vec<String> = g
            .rules
            .iter()
            .map(|n| format!("dune::Rule::new({:?})", n.to_string()))
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

/// Which entry an index line or a ruling lands on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Key {
    book: Book,
    number: Rule,
    /// `None`: every row of the number (both editions where there are two).
    edition: Option<Edition>,
}

impl Key {
    fn matches(&self, r: &Row) -> bool {
        self.book == r.book
            && self.number == r.number
            && (self.edition.is_none() || r.edition.is_none() || self.edition == r.edition)
    }
}

struct Index {
    gencon: Vec<(Rule, bool)>,
    full: Vec<(Rule, Option<Edition>)>,
}

impl Index {
    fn has(&self, key: &Key) -> bool {
        match key.book {
            Book::GenCon => self.gencon.iter().any(|(n, _)| *n == key.number),
            Book::Full => self.full.iter().any(|(n, e)| {
                *n == key.number && (key.edition.is_none() || e.is_none() || *e == key.edition)
            }),
        }
    }

    fn gencon_prints(&self, number: Rule) -> bool {
        self.gencon
            .iter()
            .any(|(n, printed)| *n == number && *printed)
    }

    /// Where a number cited without a book lands: in each book, the rule `dune::Book::cite`
    /// reads it as, where that book has it. Empty when neither book has the number.
    fn cited(&self, number: Rule) -> Vec<Key> {
        let mut keys = Vec::new();
        for book in Book::ALL {
            let at = book.cite(number);
            let key = Key {
                book: at.book(),
                number: at.rule(),
                edition: None,
            };
            // The GenCon rulebook's rows for numbers it only cites are not its rules.
            let real = key.book == Book::Full || self.gencon_prints(key.number);
            if real && self.has(&key) && !keys.contains(&key) {
                keys.push(key);
            }
        }
        keys
    }

    /// An engine index address: `1.06.03.05` (Mentat's numbering), `full/1.14.07`,
    /// `full/2.09.05/original`.
    fn address(&self, text: &str) -> Option<Vec<Key>> {
        let mut parts = text.split('/');
        let first = parts.next()?;
        if let Ok(number) = Rule::parse(first) {
            return (parts.next().is_none()).then(|| self.cited(number));
        }
        let book: Book = first.parse().ok()?;
        let number = Rule::parse(parts.next()?).ok()?;
        let edition = match parts.next() {
            Some(e) => Some(e.parse::<Edition>().ok()?),
            None => None,
        };
        let key = Key {
            book,
            number,
            edition,
        };
        Some(if self.has(&key) {
            vec![key]
        } else {
            Vec::new()
        })
    }
}

fn write_entry(
    out: &mut String,
    r: &Row,
    rulings: &[Ruling],
    checks: &Checks,
    examples: &Examples,
    dir: &Path,
) {
    let touching: Vec<String> = rulings
        .iter()
        .filter(|g| g.keys.iter().any(|k| k.matches(r)))
        .map(|g| g.number.to_string())
        .collect();
    let engine: Vec<String> = checks
        .iter()
        .filter(|(k, _)| k.matches(r))
        .flat_map(|(_, list)| list.iter())
        .map(|(path, count)| format!("Citation {{ file: {path:?}, count: {count} }}"))
        .collect();
    let ex: Vec<String> = examples
        .iter()
        .filter(|(k, _)| k.matches(r))
        .flat_map(|(_, list)| list.iter())
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
        .collect();
    let keywords: Vec<String> = r.keywords.iter().map(|k| format!("{k:?}")).collect();
    let anchors: Vec<String> = r.anchors.iter().map(|k| format!("{k:?}")).collect();
    let book = match r.book {
        Book::GenCon => "dune::Book::GenCon",
        Book::Full => "dune::Book::Full",
    };
    let edition = match r.edition {
        None => "None",
        Some(Edition::Original) => "Some(dune::Edition::Original)",
        Some(Edition::Revised) => "Some(dune::Edition::Revised)",
    };
    writeln!(
        out,
        "    Entry {{ book: {book}, number: dune::Rule::new({:?}), edition: {edition}, heading: {:?}, summary: {:?}, keywords: &[{}], anchors: &[{}], rulings: &[{}], engine: &[{}], examples: &[{}], in_rulebook: {} }},",
        r.number.to_string(),
        r.heading,
        r.summary,
        keywords.join(", "),
        anchors.join(", "),
        touching.join(", "),
        engine.join(", "),
        ex.join(", "),
        r.in_rulebook,
    )
    .unwrap_or_default();
}

fn fail(file: &Path, line: usize, message: &str) -> ! {
    panic!("{}:{line}: {message}", file.display());
}

fn read(file: &Path) -> String {
    std::fs::read_to_string(file).unwrap_or_else(|e| fail(file, 0, &format!("cannot read: {e}")))
}

/// Every rule number written in a text (`1.09.05`, `4.01.10.01`), in order of appearance.
fn rule_numbers(text: &str) -> Vec<Rule> {
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
        if groups > 0
            && !digit(j)
            && let Ok(r) = Rule::parse(&text[i..j])
        {
            found.push(r);
        }
        i = j;
    }
    found
}

struct Row {
    book: Book,
    number: Rule,
    edition: Option<Edition>,
    heading: String,
    summary: String,
    keywords: Vec<String>,
    anchors: Vec<String>,
    in_rulebook: bool,
}

/// `| number | heading | summary | keywords |` rows (GenCon), or with a fifth cell, `anchors`
/// (the full rulebook, where the number may carry ` original` or ` revised`).
fn read_rows(file: &Path, book: Book, at_least: usize) -> Vec<Row> {
    let text = read(file);
    let cells_wanted = match book {
        Book::GenCon => 4,
        Book::Full => 5,
    };
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
        if cells.len() != cells_wanted {
            fail(
                file,
                n,
                if cells_wanted == 4 {
                    "a row has four cells: | number | heading | summary | keywords |"
                } else {
                    "a row has five cells: | number | heading | summary | keywords | anchors |"
                },
            );
        }
        let (number_text, edition_text) = match first.split_once(' ') {
            Some((num, ed)) => (num, Some(ed.trim())),
            None => (first, None),
        };
        let Ok(number) = Rule::parse(number_text) else {
            fail(
                file,
                n,
                &format!("{number_text:?} is not a rule number such as 1.06.03"),
            );
        };
        let edition = match (book, edition_text) {
            (_, None) => None,
            (Book::Full, Some(e)) => match e.parse::<Edition>() {
                Ok(ed) => Some(ed),
                Err(e) => fail(file, n, &e.to_string()),
            },
            (Book::GenCon, Some(_)) => fail(file, n, "the GenCon rulebook has one edition"),
        };
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
        // Each edition's rules (shared rows and its own) keep the rulebook's order, each number
        // once: CHOAM's two lists follow one another, a rule printed in two versions has its
        // original and its revised row side by side.
        for view in Edition::ALL {
            if edition.is_some_and(|e| e != view) {
                continue;
            }
            let last = rows
                .iter()
                .rev()
                .find(|r| r.edition.is_none_or(|e| e == view));
            if let Some(last) = last
                && last.number >= number
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
        }
        let list = |cell: &str| -> Vec<String> {
            cell.trim()
                .split(',')
                .map(|k| k.trim().to_owned())
                .filter(|k| !k.is_empty())
                .collect()
        };
        let anchors = if book == Book::Full {
            list(cells[4])
        } else {
            Vec::new()
        };
        for a in &anchors {
            if !a
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
            {
                fail(
                    file,
                    n,
                    &format!("{a:?}: an anchor is lowercase letters, digits and underscores"),
                );
            }
        }
        rows.push(Row {
            book,
            number,
            edition,
            in_rulebook: !heading.starts_with("Not in this rulebook"),
            heading,
            summary,
            keywords: list(cells[3]),
            anchors,
        });
    }
    if rows.len() < at_least {
        fail(
            file,
            0,
            &format!(
                "only {} rules read; expected at least {at_least}",
                rows.len()
            ),
        );
    }
    // Looked up by binary search on (number, edition): an original row before its revised one.
    rows.sort_by_key(|r| (r.number, r.edition));
    rows
}

struct Ruling {
    number: u32,
    title: String,
    text: String,
    /// The numbers it cites that either book has, in order.
    rules: Vec<Rule>,
    /// The rows they land on.
    keys: Vec<Key>,
}

/// `N. **Title.** text` items, continued on indented lines.
fn read_rulings(file: &Path, index: &Index) -> Vec<Ruling> {
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
                keys: Vec::new(),
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
            let keys = index.cited(n);
            if !keys.is_empty() && seen.insert(n) {
                g.rules.push(n);
                g.keys.extend(keys);
            }
        }
    }
    if out.len() < 10 {
        fail(file, 0, "fewer than ten numbered rulings read");
    }
    out
}

type Checks = BTreeMap<Key, Vec<(String, u32)>>;
type Examples = BTreeMap<Key, Vec<String>>;

/// `address<TAB>check<TAB>path<TAB>count` and `address<TAB>example<TAB>path` lines.
fn read_engine_index(file: &Path, index: &Index, dir: &Path) -> (Checks, Examples) {
    let text = read(file);
    let mut checks = Checks::new();
    let mut examples = Examples::new();
    for (i, line) in text.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let cells: Vec<&str> = line.split('\t').collect();
        let address = cells.first().copied().unwrap_or_default();
        let keys = index.address(address).unwrap_or_default();
        if keys.is_empty() {
            // The staleness test names it; the build goes on so that the test can run.
            println!("cargo:warning={address} is cited by the engine but neither index has it");
            continue;
        }
        match cells.as_slice() {
            [_, "check", path, count] => {
                let count = count
                    .parse()
                    .unwrap_or_else(|_| fail(file, i + 1, "a count is a number"));
                for k in keys {
                    checks
                        .entry(k)
                        .or_default()
                        .push(((*path).to_owned(), count));
                }
            }
            [_, "example", path] => {
                if !dir.join("..").join(path).exists() {
                    // Left out rather than failing the build, so that the staleness test
                    // (tests/engine_index.rs) runs and says how to regenerate the index.
                    println!("cargo:warning={path} is gone: regenerate rulebook/engine-index.txt");
                    continue;
                }
                // An example log breaks the rule in the book its game is played by: the first
                // (GenCon) reading of a number GenCon has, else the full rulebook's.
                if let Some(k) = keys.first() {
                    examples.entry(*k).or_default().push((*path).to_owned());
                }
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
