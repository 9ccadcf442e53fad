use super::*;

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
