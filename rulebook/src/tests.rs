use std::collections::{BTreeMap, BTreeSet};

use super::*;
use dune::rule;

fn full() -> &'static [Entry] {
    book(Book::Full)
}

/// The rows one edition of the full rulebook reads: its own and the shared ones.
fn view(edition: Edition) -> impl Iterator<Item = &'static Entry> {
    full()
        .iter()
        .filter(move |e| e.edition.is_none_or(|ed| ed == edition))
}

#[test]
fn every_number_the_engine_fixtures_name_has_a_page() {
    for e in all() {
        for ex in e.examples {
            assert!(ex.file.contains(&e.number.to_string()), "{}", ex.file);
            assert!(!ex.text.is_empty());
        }
    }
    assert!(all().len() >= 440, "{}", all().len());
}

#[test]
fn every_rule_of_the_full_rulebook_is_indexed() {
    // Distinct numbers per chapter, counted from the seed's nesting (000): setup, phases,
    // factions (CHOAM's two lists share their numbers), treachery cards, variants.
    let mut per_chapter: BTreeMap<u8, BTreeSet<Rule>> = BTreeMap::new();
    for e in full() {
        per_chapter
            .entry(e.number.parts()[0])
            .or_default()
            .insert(e.number);
    }
    let counts: Vec<(u8, usize)> = per_chapter.iter().map(|(c, n)| (*c, n.len())).collect();
    assert_eq!(counts, [(0, 17), (1, 185), (2, 340), (3, 118), (4, 408)]);
    // The items directly under each section, as the seed numbers them: a lost or doubled row
    // in any section shows here. CHOAM's two lists are counted each in its own edition.
    let sections: &[(&str, usize)] = &[
        ("1.00", 6),
        ("1.01", 5),
        ("1.02", 7),
        ("1.03", 3),
        ("1.04", 11),
        ("1.05", 5),
        ("1.06", 8),
        ("1.07", 8),
        ("1.08", 4),
        ("1.09", 6),
        ("1.10", 3),
        ("1.11", 3),
        ("1.12", 6),
        ("1.13", 7),
        ("1.14", 14),
        ("2.00", 6),
        ("2.01", 16),
        ("2.02", 23),
        ("2.03", 12),
        ("2.04", 22),
        ("2.05", 14),
        ("2.06", 13),
        ("2.07", 24),
        ("2.08", 17),
        ("2.10", 24),
        ("2.11", 27),
        ("2.12", 21),
        ("2.13", 14),
        ("3.00", 6),
        ("3.01", 24),
        ("3.02", 15),
        ("3.03", 16),
        ("3.04", 4),
        ("3.05", 2),
        ("3.06", 7),
        ("3.07", 6),
        ("3.08", 7),
        ("3.09", 6),
        ("4.00", 6),
        ("4.01", 20),
        ("4.02", 8),
        ("4.03", 7),
        ("4.04", 4),
        ("4.05", 6),
        ("4.06", 9),
        ("4.07", 15),
        ("4.08", 3),
        ("4.09", 2),
        ("4.10", 12),
    ];
    let items = |section: Rule, edition: Option<Edition>| -> usize {
        full()
            .iter()
            .filter(|e| e.number.parent() == Some(section))
            .filter(|e| edition.is_none() || e.edition.is_none() || e.edition == edition)
            .map(|e| e.number)
            .collect::<BTreeSet<_>>()
            .len()
    };
    for (s, n) in sections {
        let section = Rule::parse(s).unwrap();
        assert_eq!(items(section, None), *n, "items under {s}");
        if *s != "1.00" && !s.ends_with(".00") {
            assert!(rows(Book::Full, section).len() == 1, "{s} has its row");
        }
    }
    assert_eq!(items(rule!("2.09"), Some(Edition::Original)), 22);
    assert_eq!(items(rule!("2.09"), Some(Edition::Revised)), 27);
    // Chapter 0 is a flat list of seventeen steps, as at GenCon.
    assert_eq!(
        full()
            .iter()
            .filter(|e| e.number.parts().first() == Some(&0))
            .count(),
        17
    );
}

#[test]
fn numbering_is_continuous_in_each_edition() {
    for edition in Edition::ALL {
        let mut children: BTreeMap<Option<Rule>, BTreeSet<u8>> = BTreeMap::new();
        for e in view(edition) {
            let last = *e.number.parts().last().unwrap();
            children.entry(e.number.parent()).or_default().insert(last);
        }
        for (parent, numbers) in children {
            let first = *numbers.first().unwrap();
            let last = *numbers.last().unwrap();
            assert_eq!(
                numbers.len(),
                usize::from(last - first) + 1,
                "{edition}: a gap under {parent:?}: {numbers:?}"
            );
            // Items count from 00; sections (and chapters' sections) from 01. A homeworld card
            // (4.10.11.09 to .21) is itself the card's printed first item, so its lines are .01
            // to .08, as on the general card 4.10.11.01 to .08.
            let section_level = parent.is_none_or(|p| p.parts().len() == 1);
            let card =
                parent.is_some_and(|p| p.is_within(rule!("4.10.11")) && p != rule!("4.10.11"));
            let expected = if parent.is_none() {
                // Chapter 0's steps are two-part numbers from 0.00; other chapters' sections
                // are 1.01, 2.01 ... and their introductions 1.00 ... (no row of their own).
                0
            } else if section_level || card {
                1
            } else {
                0
            };
            if parent.is_some() {
                assert_eq!(
                    first, expected,
                    "{edition}: numbers under {parent:?} start at {first}"
                );
            }
        }
    }
}

#[test]
fn anchors_are_unique_in_each_edition_and_lead_to_their_rules() {
    for edition in Edition::ALL {
        let mut seen: BTreeMap<&str, Rule> = BTreeMap::new();
        for e in view(edition) {
            for a in e.anchors {
                if let Some(other) = seen.insert(a, e.number) {
                    panic!("{edition}: {a} names both {other} and {}", e.number);
                }
            }
        }
    }
    let named: BTreeSet<&str> = full()
        .iter()
        .flat_map(|e| e.anchors.iter().copied())
        .collect();
    // Every name 000 cites a rule by: 259, with the five glued pairs of its ability ranges
    // split into their nine names.
    assert_eq!(named.len(), 263, "{named:?}");
    for (name, number) in [
        ("faction_ixians_setupspice", "2.07.01"),
        ("phases_mentat_bribes", "1.09.01"),
        ("phases_shipment_reserves", "1.06.02"),
        ("phases_battle_traitorreveal", "1.07.06.06.00"),
        ("faction_spacing_restoffactions", "2.06.12.00"),
        ("faction_moritani_bounty", "2.12.18"),
        ("treachery_richese_ornithopter_secondmove", "3.03.06.02"),
        ("leadercards_afterbattle", "4.07.08"),
        ("traitor_cheaphero", "4.09.01"),
    ] {
        let e = anchor(name).unwrap_or_else(|| panic!("{name}"));
        assert_eq!(e.number.to_string(), number, "{name}");
        assert_eq!(e.book, Book::Full);
    }
    // A name both editions use leads to the default one; a name only the original uses, there.
    assert_eq!(
        anchor("faction_choam_treachery").map(|e| (e.number.to_string(), e.edition)),
        Some(("2.09.08".into(), Some(Edition::Revised)))
    );
    assert_eq!(
        anchor("faction_choam_corruptofficials").map(|e| (e.number.to_string(), e.edition)),
        Some(("2.09.13".into(), Some(Edition::Original)))
    );
    assert!(anchor("FACTION_IXIANS_SETUPSPICE").is_some());
    assert!(anchor("faction_ixians_nothing").is_none());
}

#[test]
fn both_editions_are_present_where_the_book_prints_two() {
    // Edition rows exactly where the crosswalk says the editions differ.
    for e in full() {
        assert_eq!(
            e.edition.is_some(),
            crosswalk::by_edition(e.number),
            "{} {:?}",
            e.number,
            e.edition
        );
    }
    for prefix in crosswalk::BY_EDITION {
        let under: Vec<&Entry> = full()
            .iter()
            .filter(|e| e.number.is_within(*prefix))
            .collect();
        assert!(!under.is_empty(), "{prefix} has no row");
    }
    // CHOAM: two whole lists; Ecaz and Moritani items beyond the revised range are original
    // only; Moritani's seventh terror token and the Richese cache's new cards revised only.
    let only = |n: Rule| -> Vec<Option<Edition>> {
        rows(Book::Full, n).iter().map(|e| e.edition).collect()
    };
    let both = vec![Some(Edition::Original), Some(Edition::Revised)];
    for n in [
        "2.09.05",
        "2.09.21",
        "2.07.18",
        "2.10.21",
        "2.11.16.01",
        "2.12.14",
        "4.04.03.01",
    ] {
        assert_eq!(only(Rule::parse(n).unwrap()), both, "{n}");
    }
    for n in [
        "2.09.07.03",
        "2.11.22",
        "2.11.26",
        "2.12.19",
        "2.12.20",
        "2.10.23",
    ] {
        assert_eq!(
            only(Rule::parse(n).unwrap()),
            [Some(Edition::Original)],
            "{n}"
        );
    }
    for n in [
        "2.09.22",
        "2.09.10.03",
        "2.12.13.07",
        "2.12.07.01",
        "3.03.11",
    ] {
        assert_eq!(
            only(Rule::parse(n).unwrap()),
            [Some(Edition::Revised)],
            "{n}"
        );
    }
    // Asked for an edition a rule lacks, the page shows the one it has.
    let ecaz = get_in(Book::Full, rule!("2.11.22"), Edition::Revised).unwrap();
    assert_eq!(ecaz.edition, Some(Edition::Original));
    // The default is the revised text: the GenCon rulebook reprints that one.
    assert_eq!(Edition::default(), Edition::Revised);
    let prescience = get(rule!("2.01.08")).unwrap();
    assert_eq!(prescience.book, Book::GenCon);
    assert!(
        get_in(Book::Full, rule!("2.01.08"), Edition::default())
            .unwrap()
            .summary
            .contains("While battle wheels are being set")
    );
}

/// Headings that name one rule differently in the two books (the full rulebook's own printed
/// heading where GenCon's differs, or its split into Solo and Allied).
const HEADINGS_DIFFER: &[(&str, &str)] = &[
    ("1.12.04", "1.12.04"),
    ("4.01.10.06", "4.01.10.06"),
    ("4.01.10.06", "4.01.10.07"),
    ("1.06.02", "1.06.02"),
];

#[test]
fn the_crosswalk_agrees_with_both_indexes() {
    let gencon_prints = |n: Rule| rows(Book::GenCon, n).iter().any(|e| e.in_rulebook);
    let heading = |b: Book, n: Rule| {
        rows(b, n)
            .first()
            .map(|e| e.heading.to_lowercase())
            .unwrap_or_default()
    };
    for r in crosswalk::RENUMBERED {
        assert!(gencon_prints(r.gencon), "GenCon {}", r.gencon);
        assert!(!rows(Book::Full, r.full).is_empty(), "full {}", r.full);
    }
    for prefix in crosswalk::ONLY_IN_FULL {
        assert!(
            !GENCON
                .iter()
                .any(|e| e.in_rulebook && e.number.is_within(*prefix)),
            "GenCon prints a rule within {prefix}"
        );
        assert!(
            full().iter().any(|e| e.number.is_within(*prefix)),
            "{prefix}"
        );
    }
    for n in crosswalk::ONLY_IN_GENCON {
        assert!(gencon_prints(*n) && rows(Book::Full, *n).is_empty(), "{n}");
    }
    // Every GenCon rule has its counterpart in the full rulebook, under the heading GenCon
    // gives it (the full index keeps GenCon's headings for shared rules), and the other way
    // round: numbers that differ are exactly the crosswalk's.
    for g in GENCON.iter().filter(|e| e.in_rulebook) {
        if crosswalk::only_in_gencon(g.number) {
            continue;
        }
        let f = crosswalk::to_full(g.number);
        assert!(
            !rows(Book::Full, f).is_empty(),
            "GenCon {} → full {f}",
            g.number
        );
        let exempt = HEADINGS_DIFFER
            .iter()
            .any(|(a, b)| g.number == *a && f == *b);
        if !exempt {
            assert_eq!(
                heading(Book::GenCon, g.number),
                heading(Book::Full, f),
                "GenCon {} and full {f} should be one rule",
                g.number
            );
        }
    }
    for f in full() {
        if crosswalk::only_in_full(f.number) {
            continue;
        }
        let gencon = crosswalk::to_gencon(f.number);
        if gencon.is_empty() && crosswalk::to_full(f.number) != f.number {
            // GenCon uses the number for another rule (1.14.07, the Nexus cards' 4.03).
            continue;
        }
        let g = gencon.first().copied().unwrap_or(f.number);
        assert!(gencon_prints(g), "full {} → GenCon {g}", f.number);
    }
}

#[test]
fn a_number_without_a_book_means_gencons_rule_else_the_full_rulebooks() {
    let at = |n: &str| get(Rule::parse(n).unwrap()).map(|e| (e.book, e.edition, e.heading));
    assert_eq!(
        at("1.06.03.05"),
        Some((Book::GenCon, None, "Occupancy limit"))
    );
    assert_eq!(at("2.07.02"), Some((Book::Full, None, "Starting forces")));
    assert_eq!(
        at("2.07.18").map(|(b, e, _)| (b, e)),
        Some((Book::Full, Some(Edition::Revised)))
    );
    // GenCon only cites 2.11.22 (its "Not in this rulebook" row): the number is 000's.
    assert_eq!(at("2.11.22").map(|(b, _, _)| b), Some(Book::Full));
    // GenCon prints 1.14.07 (the Free Traders' power); 000's 1.14.07 needs its book.
    assert_eq!(at("1.14.07"), Some((Book::GenCon, None, "Free Traders")));
    assert_eq!(
        get_in(Book::Full, rule!("1.14.07"), Edition::default()).map(|e| e.heading),
        Some("Ixians")
    );
    assert!(get(rule!("2.07.99")).is_none());
    // Pages link by the shortest address that leads back to them.
    assert_eq!(get(rule!("2.07.02")).unwrap().href(), "/rules/2.07.02");
    assert_eq!(
        get(rule!("1.06.03.05")).unwrap().href(),
        "/rules/1.06.03.05"
    );
    // GenCon has no 1.06.02.05, so the short address is the full rulebook's; its 1.06.03 is
    // another rule than GenCon's and needs the book.
    let full_shipment = get_in(Book::Full, rule!("1.06.02.05"), Edition::default()).unwrap();
    assert_eq!(full_shipment.href(), "/rules/1.06.02.05");
    let no_return = get_in(Book::Full, rule!("1.06.03"), Edition::default()).unwrap();
    assert_eq!(no_return.href(), "/rules/full/1.06.03");
    let choam = get_in(Book::Full, rule!("2.09.05"), Edition::Original).unwrap();
    assert_eq!(choam.href(), "/rules/full/2.09.05/original");
    assert_eq!(choam.label(), "2.09.05 (original)");
}

#[test]
fn counterparts_link_the_same_rule_across_the_books() {
    let full_rule =
        |n: &str| get_in(Book::Full, Rule::parse(n).unwrap(), Edition::default()).unwrap();
    let gc = |n: &str| rows(Book::GenCon, Rule::parse(n).unwrap()).first().unwrap();
    let numbers = |list: &[&Entry]| -> Vec<String> { list.iter().map(|e| e.label()).collect() };

    // Shifted in 1.06: the same rule, and a different rule by the same number.
    let c = counterparts(gc("1.06.03.05"));
    assert_eq!(numbers(&c.same), ["1.06.02.05"]);
    assert_eq!(c.same_number.map(|e| e.heading), None);
    let c = counterparts(gc("1.06.03"));
    assert_eq!(numbers(&c.same), ["1.06.02"]);
    assert_eq!(c.same_number.map(|e| e.label()), Some("1.06.03".into()));
    let c = counterparts(full_rule("1.06.02.05"));
    assert_eq!(
        c.same
            .iter()
            .map(|e| (e.book, e.label()))
            .collect::<Vec<_>>(),
        [(Book::GenCon, "1.06.03.05".into())]
    );
    // One number, two rules.
    let c = counterparts(full_rule("1.14.07"));
    assert!(c.same.is_empty());
    assert_eq!(c.same_number.map(|e| e.heading), Some("Free Traders"));
    assert_eq!(numbers(&counterparts(gc("1.14.07")).same), ["1.14.13"]);
    // Same number, same rule.
    assert_eq!(
        numbers(&counterparts(full_rule("1.01.03")).same),
        ["1.01.03"]
    );
    // GenCon's End Game Victory is the full rulebook's Solo and Allied ones.
    assert_eq!(
        numbers(&counterparts(gc("4.01.10.06")).same),
        ["4.01.10.06", "4.01.10.07"]
    );
    // What GenCon cites without printing leads to the rule it meant.
    assert_eq!(
        numbers(&counterparts(gc("2.09.05")).same),
        ["2.09.05 (original)"]
    );
    assert_eq!(
        numbers(&counterparts(gc("2.11.22")).same),
        ["2.11.21 (original)"]
    );
    assert_eq!(numbers(&counterparts(gc("2.07.03")).same), ["2.07.03"]);
    let pocket = counterparts(full_rule("2.07.03"));
    assert_eq!(numbers(&pocket.cited_by_gencon), ["2.07.03"]);
    // A rule printed twice links to its other version.
    let revised = full_rule("2.07.18");
    assert_eq!(
        counterparts(revised).other_edition.map(|e| e.edition),
        Some(Some(Edition::Original))
    );
    // A GenCon rule the full rulebook lacks has no counterpart.
    assert!(counterparts(gc("1.05.05")).same.is_empty());
}

#[test]
fn lookup_parent_children_and_neighbours_stay_in_one_edition() {
    let e = get(rule!("1.06.03.05")).unwrap();
    assert_eq!(e.heading, "Occupancy limit");
    assert_eq!(parent(e).unwrap().number, rule!("1.06.03"));
    let kids: Vec<String> = children(get(rule!("1.06.03")).unwrap())
        .map(|e| e.number.to_string())
        .collect();
    assert_eq!(kids.first().map(String::as_str), Some("1.06.03.00"));
    assert_eq!(kids.len(), 6);
    assert!(get(rule!("1.99")).is_none());
    // 1.09.02 has subrules but the rulebook prints it as a bare heading.
    assert!(get(rule!("1.09.02")).is_some());

    // CHOAM's revised list has 27 items, its original 22, under the one section row.
    let choam = get_in(Book::Full, rule!("2.09"), Edition::Revised).unwrap();
    assert_eq!(children(choam).count(), 27 + 22);
    let revised = get_in(Book::Full, rule!("2.09.10"), Edition::Revised).unwrap();
    assert_eq!(children(revised).count(), 7);
    assert!(children(revised).all(|k| k.edition == Some(Edition::Revised)));
    let (before, after) = neighbours(revised);
    assert_eq!(before.map(|e| e.label()), Some("2.09.09".into()));
    assert_eq!(after.map(|e| e.label()), Some("2.09.10.00".into()));
    let original = get_in(Book::Full, rule!("2.09.07.03"), Edition::Original).unwrap();
    assert_eq!(
        parent(original).map(|e| e.label()),
        Some("2.09.07 (original)".into())
    );
}

#[test]
fn rulings_are_attached_to_the_rules_they_cite_in_both_books() {
    // Ruling 26: battle losses are the forces dialed (1.07.04.01).
    let e = get(rule!("1.07.04.01")).unwrap();
    assert!(e.rulings.contains(&26), "{:?}", e.rulings);
    let r = ruling(26).unwrap();
    assert!(r.rules.contains(&rule!("1.07.04.01")));
    assert!(!r.title.is_empty());
    // Ruling 27 cites GenCon's 1.06.03.05: the full rulebook's 1.06.02.05 shows it too.
    let f = get_in(Book::Full, rule!("1.06.02.05"), Edition::default()).unwrap();
    assert!(f.rulings.contains(&27), "{:?}", f.rulings);
    // Ruling 28 decides the two versions: it is on CHOAM's rules, both editions.
    for edition in Edition::ALL {
        let c = get_in(Book::Full, rule!("2.09.05"), edition).unwrap();
        assert!(c.rulings.contains(&28), "{edition}: {:?}", c.rulings);
    }
}

#[test]
fn rules_missing_from_001_say_so() {
    let e = rows(Book::GenCon, rule!("2.11.22")).first().unwrap();
    assert!(!e.in_rulebook);
    assert!(get(rule!("1.06.03")).unwrap().in_rulebook);
}

#[test]
fn every_full_rule_has_a_summary_of_its_own() {
    let mut seen = BTreeMap::new();
    for e in full() {
        assert!(!e.summary.contains("TODO"), "{}", e.number);
        assert!(
            e.summary.len() <= 420,
            "{} is long: {}",
            e.label(),
            e.summary.len()
        );
        seen.insert((e.number, e.edition), e.heading);
    }
    assert_eq!(seen.len(), full().len(), "a row twice");
}

/// The seed itself, when this machine has it: every numbered item of 000 (by its nesting) has
/// a row. The checked-in counts above hold the same fact where the seed is absent.
#[test]
fn the_index_matches_the_seed_where_it_is_available() {
    let dir = std::env::var("MENTAT_SEEDS").unwrap_or_else(|_| "/work/shared/seeds".into());
    let Some(text) = std::fs::read_dir(&dir)
        .ok()
        .into_iter()
        .flatten()
        .flatten()
        .find(|f| f.file_name().to_string_lossy().starts_with("000_"))
        .and_then(|f| std::fs::read_to_string(f.path()).ok())
    else {
        eprintln!("no 000 seed in {dir}: skipped");
        return;
    };
    let numbers = seed_numbers(&text);
    assert!(numbers.len() > 1000, "{}", numbers.len());
    let indexed: BTreeSet<Rule> = full().iter().map(|e| e.number).collect();
    let missing: Vec<String> = numbers
        .iter()
        .filter(|n| !indexed.contains(n))
        .map(ToString::to_string)
        .collect();
    assert!(missing.is_empty(), "not indexed: {missing:?}");
    let extra: Vec<String> = indexed
        .iter()
        .filter(|n| !numbers.contains(n))
        .map(ToString::to_string)
        .collect();
    assert!(extra.is_empty(), "not in the seed: {extra:?}");
    // Every name the seed cites a rule by is known (glued pairs split at "faction_").
    let mut names = BTreeSet::new();
    for word in text.split(|c: char| !(c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')) {
        if word.contains('_') && word.len() > 3 {
            for part in word.split("faction_").filter(|p| !p.is_empty()) {
                let name = if word.starts_with("faction_") {
                    format!("faction_{part}")
                } else {
                    part.to_owned()
                };
                names.insert(name);
            }
        }
    }
    let unknown: Vec<&String> = names.iter().filter(|n| anchor(n).is_none()).collect();
    assert!(unknown.is_empty(), "unknown names: {unknown:?}");
}

/// The numbers the seed's nesting gives its items: chapter 0 counts its steps from 0.00; other
/// chapters count sections from 01 and items from 00 (a section's introduction items, before
/// its first section, are X.00.yy). The homeworld cards restart their list at each card: a
/// card is 4.10.11.09, .10, ... and its lines .01 to .08.
fn seed_numbers(text: &str) -> BTreeSet<Rule> {
    let mut out = BTreeSet::new();
    let mut chapter: Option<u32> = None;
    let mut stack: Vec<(usize, u32)> = Vec::new();
    let (mut in_cards, mut last_card_level, mut card, mut title) = (false, 0u32, 8u32, 0u32);
    for line in text.lines() {
        let b = line.as_bytes();
        if b.len() > 2 && (b'0'..=b'4').contains(&b[0]) && b[1] == b' ' && b[2].is_ascii_uppercase()
        {
            if b[0] == b'0' || chapter.is_some() {
                chapter = Some(u32::from(b[0] - b'0'));
                stack.clear();
            }
            continue;
        }
        let Some(ch) = chapter else { continue };
        let indent = line.len() - line.trim_start().len();
        let Some((n, rest)) = line.trim_start().split_once(". ") else {
            continue;
        };
        let Ok(n) = n.parse::<u32>() else { continue };
        while stack.last().is_some_and(|(i, _)| *i >= indent) {
            stack.pop();
        }
        stack.push((indent, n));
        let path: Vec<u32> = stack.iter().map(|(_, n)| *n).collect();
        let mut parts: Vec<u32> = if ch == 0 {
            vec![path[0] - 1]
        } else if indent == 2 {
            vec![path[0]]
        } else if path.len() == 1 {
            vec![0, path[0] - 1]
        } else {
            std::iter::once(path[0])
                .chain(path[1..].iter().map(|p| p - 1))
                .collect()
        };
        if ch == 4 && parts.len() == 3 && parts[..2] == [10, 11] {
            if n <= last_card_level {
                in_cards = true;
            }
            last_card_level = n;
            if in_cards {
                if rest.contains(" - ") && rest.len() < 40 {
                    card += 1;
                    title = n;
                    parts = vec![10, 11, card];
                } else {
                    parts = vec![10, 11, card, n - title];
                }
            }
        }
        let number = std::iter::once(ch.to_string())
            .chain(parts.iter().map(|p| format!("{p:02}")))
            .collect::<Vec<_>>()
            .join(".");
        out.insert(Rule::parse(&number).unwrap_or_else(|e| panic!("{number}: {e}")));
    }
    out
}
