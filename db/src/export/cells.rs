//! Writing rows as CSV, with every cell a spreadsheet could run as a formula neutralised.
//!
//! A player typed their name; a spreadsheet that opens the export must show that name, never
//! run it. Cells beginning with `=`, `+`, `-` or `@` (and tab or carriage return, which some
//! spreadsheets skip before looking) get a leading apostrophe, which spreadsheets show as text
//! (OWASP's advice for CSV injection). Plain numbers such as `-3` or `+1.5` are left alone.

use std::borrow::Cow;

use serde::Serialize;

use super::ExportError;

/// The cell as written: neutralised when a spreadsheet would read it as a formula.
pub fn neutralise(cell: &str) -> Cow<'_, str> {
    match cell.chars().next() {
        Some('=' | '+' | '-' | '@' | '\t' | '\r') if !is_plain_number(cell) => {
            Cow::Owned(format!("'{cell}"))
        }
        _ => Cow::Borrowed(cell),
    }
}

/// An optional sign, digits, and at most one decimal point among them: what a spreadsheet reads
/// as a number, never as a formula.
fn is_plain_number(cell: &str) -> bool {
    let digits = cell.strip_prefix(['-', '+']).unwrap_or(cell);
    let mut seen_digit = false;
    let mut seen_point = false;
    for c in digits.chars() {
        match c {
            '0'..='9' => seen_digit = true,
            '.' if !seen_point => seen_point = true,
            _ => return false,
        }
    }
    seen_digit
}

fn failed(error: impl std::fmt::Display) -> ExportError {
    ExportError::Write(error.to_string())
}

/// `rows` as CSV with a header line (`headers` when there are no rows).
///
/// The `csv` crate turns each row struct into its cells (quoting, headers from the field
/// names); the cells are then passed through [`neutralise`] on their way out. Two passes over
/// an export of a few thousand rows cost nothing, and this way no column can forget the rule.
pub(super) fn write_csv<T: Serialize>(
    rows: &[T],
    headers: &[&str],
) -> Result<Vec<u8>, ExportError> {
    let mut plain = csv::Writer::from_writer(Vec::new());
    if rows.is_empty() {
        plain.write_record(headers).map_err(failed)?;
    }
    for row in rows {
        plain.serialize(row).map_err(failed)?;
    }
    let plain = plain.into_inner().map_err(failed)?;
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(plain.as_slice());
    let mut out = csv::Writer::from_writer(Vec::new());
    for record in reader.records() {
        let record = record.map_err(failed)?;
        out.write_record(record.iter().map(|cell| neutralise(cell).into_owned()))
            .map_err(failed)?;
    }
    out.into_inner().map_err(failed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formulas_are_neutralised_and_numbers_are_not() {
        for formula in [
            "=1+2",
            "+SUM(A1)",
            "-2+3",
            "@cmd",
            "=HYPERLINK(\"http://x\")",
            "-",
            "\t=1",
            "-inf",
        ] {
            assert_eq!(neutralise(formula), format!("'{formula}"), "{formula:?}");
        }
        for plain in ["Alice", "3", "-3", "+1.5", "", "½", "a=b", "2.2.3.8.12.3.3"] {
            assert_eq!(neutralise(plain), plain, "{plain:?}");
        }
    }

    #[derive(Serialize)]
    struct Row {
        name: String,
        points: i32,
    }

    #[test]
    fn every_cell_passes_the_rule_and_quoting_is_the_crates() {
        let rows = vec![
            Row {
                name: "=cmd|' /C calc'!A0".into(),
                points: -1,
            },
            Row {
                name: "Smith, \"Jr.\"".into(),
                points: 3,
            },
        ];
        let text = String::from_utf8(write_csv(&rows, &["name", "points"]).unwrap()).unwrap();
        assert_eq!(
            text,
            "name,points\n'=cmd|' /C calc'!A0,-1\n\"Smith, \"\"Jr.\"\"\",3\n"
        );
        let empty = String::from_utf8(write_csv::<Row>(&[], &["name", "points"]).unwrap()).unwrap();
        assert_eq!(empty, "name,points\n");
    }
}
