//! `engine-index.txt` must say what the engine's sources say today: this test regenerates it and
//! fails when the committed file differs (the engine gained or lost a check, or an example log).
//! `MENTAT_BLESS=1 cargo test -p rulebook --test engine_index` rewrites it.

use std::path::{Path, PathBuf};

fn files_under(dir: &Path, ext: &str, out: &mut Vec<PathBuf>) {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for entry in entries {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files_under(&path, ext, out);
        } else if path.extension().is_some_and(|x| x == ext) {
            out.push(path);
        }
    }
}

#[test]
fn the_engine_index_is_up_to_date() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let relative = |p: &Path| {
        p.strip_prefix(&root)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/")
    };
    let mut sources = Vec::new();
    files_under(&root.join("engine/src"), "rs", &mut sources);
    let sources: Vec<(String, String)> = sources
        .iter()
        .map(|p| (relative(p), std::fs::read_to_string(p).unwrap()))
        .collect();
    let mut games = Vec::new();
    files_under(&root.join("engine/tests/games"), "dgn", &mut games);
    let games: Vec<String> = games.iter().map(|p| relative(p)).collect();
    let fresh = rulebook::scan::index(&sources, &games);
    // Every rule the engine cites or an example breaks needs its row (and so its page): a plain
    // number in the book it means without one (GenCon's where GenCon prints it, else the full
    // rulebook's, so `rule!("2.08.05")` must be a real number of 000), `full/...` in the full
    // rulebook.
    let missing: Vec<&str> = fresh
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| l.split('\t').next())
        .filter(|a| {
            a.parse::<rulebook::scan::Cited>()
                .ok()
                .and_then(|c| c.entry())
                .is_none()
        })
        .collect();
    assert!(
        missing.is_empty(),
        "the engine cites rules neither rulebook/gencon-2.13.3.md nor rulebook/full-2.10.9.md \
         has a row for: {missing:?}"
    );
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("engine-index.txt");
    let committed = std::fs::read_to_string(&file).unwrap_or_default();
    if std::env::var_os("MENTAT_BLESS").is_some() {
        std::fs::write(&file, &fresh).unwrap();
        return;
    }
    if committed != fresh {
        let old: Vec<&str> = committed.lines().collect();
        let new: Vec<&str> = fresh.lines().collect();
        let gone: Vec<&&str> = old.iter().filter(|l| !new.contains(l)).collect();
        let added: Vec<&&str> = new.iter().filter(|l| !old.contains(l)).collect();
        panic!(
            "rulebook/engine-index.txt is stale: the engine's citations changed.\n\
             Run `MENTAT_BLESS=1 cargo test -p rulebook --test engine_index` and commit it.\n\
             Lines to add: {added:#?}\nLines to remove: {gone:#?}"
        );
    }
}

#[test]
fn every_rule_the_engine_cites_has_a_page() {
    // The build refuses an index naming a rule without a row; this says it in a test too.
    for e in rulebook::all() {
        for c in e.engine {
            assert!(c.file.starts_with("engine/src/"), "{}", c.file);
            assert!(c.count > 0);
        }
    }
    let checked = rulebook::all()
        .iter()
        .filter(|e| e.is_checked_by_engine())
        .count();
    // A check cited in GenCon's numbering shows on the full rulebook's same rule too.
    let full = rulebook::book(dune::Book::Full)
        .iter()
        .filter(|e| e.is_checked_by_engine())
        .count();
    assert!(full > 50, "only {full} full-rulebook rules checked");
    assert!(
        checked > 50,
        "only {checked} rules checked: is the index empty?"
    );
}
