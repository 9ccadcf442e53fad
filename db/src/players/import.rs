//! Importing players from CSV: pasted text or an uploaded file, read by the `csv` crate (quoting,
//! line breaks inside quotes, a byte-order mark), with every line that is not imported named by
//! its number and the reason.
//!
//! What an organiser pastes comes from a spreadsheet or a sign-up form: separated by commas,
//! semicolons (spreadsheets in many countries) or tabs (a copy from a spreadsheet's cells), with
//! a header whose columns come in any order, often with more columns than Mentat needs (a form's
//! timestamp). So the separator is the one the first line uses, a header maps columns by their
//! names, and extra columns are ignored and named in the report.

use std::collections::HashMap;

use serde::Serialize;
use sqlx::PgPool;
use tournament::ids::EventId;

use super::{NewPlayer, lock_event};
use crate::{audit, roles::Actor};

/// The most lines one CSV import takes; far above any event.
pub const MAX_CSV_LINES: usize = 5000;
/// The largest CSV text accepted, in bytes.
pub const MAX_CSV_BYTES: usize = 512 * 1024;

/// One line of a CSV import that was not imported, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Refusal {
    /// 1-based line number in the text (where the record starts).
    pub line: usize,
    /// The line as it was, for the report.
    pub text: String,
    pub reason: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CsvRow {
    pub line: usize,
    pub player: NewPlayer,
}

/// A CSV text read into players, each bad line refused with its reason. Nothing is saved.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CsvParse {
    pub rows: Vec<CsvRow>,
    pub refused: Vec<Refusal>,
    /// Header columns Mentat does not use (a form's "Timestamp"), as written.
    pub ignored_columns: Vec<String>,
    /// How the text was read, for the report: "comma-separated, with a header".
    pub read_as: String,
}

/// What an import did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ImportReport {
    pub added: Vec<String>,
    pub refused: Vec<Refusal>,
    pub ignored_columns: Vec<String>,
    pub read_as: String,
}

#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    #[error(
        "The CSV text is empty: paste one player per line (name, then optional email and club), or choose a file."
    )]
    Empty,
    #[error("The CSV text is too large: at most {MAX_CSV_LINES} lines and {} KB.", MAX_CSV_BYTES / 1024)]
    TooLarge,
    #[error(
        "The file is not text (UTF-8): save it from the spreadsheet as \"CSV UTF-8\" and try again."
    )]
    NotText,
    #[error("{0}")]
    Header(String),
    #[error("database error")]
    Database(#[from] sqlx::Error),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Column {
    Name,
    FirstName,
    LastName,
    Email,
    Club,
}

impl Column {
    /// The column a header cell names, if Mentat uses it. Headers are read loosely: case,
    /// spaces, underscores and a trailing colon or asterisk (a required form field) do not
    /// matter.
    fn from_header(cell: &str) -> Option<Column> {
        let key = cell
            .trim()
            .trim_end_matches([':', '*'])
            .trim()
            .to_lowercase()
            .replace(['_', '-'], " ")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        Some(match key.as_str() {
            "name" | "player" | "player name" | "full name" | "your name" | "names" => Column::Name,
            "first name" | "given name" | "first" => Column::FirstName,
            "last name" | "surname" | "family name" | "last" => Column::LastName,
            "email" | "e mail" | "email address" | "e mail address" | "mail" => Column::Email,
            "club" | "team" | "club or team" | "club/team" | "group" => Column::Club,
            _ => return None,
        })
    }

    fn label(self) -> &'static str {
        match self {
            Column::Name => "name",
            Column::FirstName => "first name",
            Column::LastName => "last name",
            Column::Email => "email",
            Column::Club => "club",
        }
    }
}

/// Where each column Mentat uses is, by position.
#[derive(Debug, Default)]
struct Layout {
    columns: Vec<(usize, Column)>,
    /// The number of fields a headerless line may have (name, email, club).
    positional: bool,
}

impl Layout {
    fn positional() -> Layout {
        Layout {
            columns: vec![(0, Column::Name), (1, Column::Email), (2, Column::Club)],
            positional: true,
        }
    }

    fn get<'a>(&self, column: Column, fields: &'a [String]) -> &'a str {
        self.columns
            .iter()
            .find(|(_, c)| *c == column)
            .and_then(|(i, _)| fields.get(*i))
            .map_or("", |f| f.as_str())
    }
}

/// The separator the first line uses most (outside quotes): comma, semicolon or tab. A line
/// with none (one column of names) reads as comma-separated.
fn separator(first_line: &str) -> u8 {
    let mut counts = [(b',', 0usize), (b';', 0), (b'\t', 0)];
    let mut quoted = false;
    for byte in first_line.bytes() {
        if byte == b'"' {
            quoted = !quoted;
        } else if !quoted && let Some(count) = counts.iter_mut().find(|(b, _)| *b == byte) {
            count.1 += 1;
        }
    }
    // The first of the most used, so a tie goes to the comma.
    counts
        .iter()
        .fold(
            (b',', 0),
            |best, &(b, n)| if n > best.1 { (b, n) } else { best },
        )
        .0
}

fn separator_name(separator: u8) -> &'static str {
    match separator {
        b';' => "semicolon-separated",
        b'\t' => "tab-separated",
        _ => "comma-separated",
    }
}

/// Reads a CSV text into players. Every line that is not a player is refused with its number:
/// a blank line between players, a line of separators only, a name without a letter or digit,
/// a bad email, a name or email twice. Blank lines at the end are not lines of the list.
pub fn parse_csv(text: &str) -> Result<CsvParse, ImportError> {
    if text.len() > MAX_CSV_BYTES {
        return Err(ImportError::TooLarge);
    }
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let lines: Vec<&str> = text.lines().collect();
    let Some(first) = lines.iter().find(|l| !l.trim().is_empty()) else {
        return Ok(CsvParse::default());
    };
    if lines.len() > MAX_CSV_LINES + 1 {
        return Err(ImportError::TooLarge);
    }
    let separator = separator(first);
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .delimiter(separator)
        .from_reader(text.as_bytes());
    // Records with the lines they span, 1-based and inclusive. The reader's positions point
    // where it started looking (before a skipped empty line, or the `\n` of a `\r\n`), so
    // lines are counted from the record's first and last characters in the text.
    let bytes = text.as_bytes();
    let line_at = |offset: usize| {
        1 + bytes[..offset.min(bytes.len())]
            .iter()
            .filter(|b| **b == b'\n')
            .count()
    };
    let mut records: Vec<(usize, usize, Vec<String>)> = Vec::new();
    let mut record = csv::StringRecord::new();
    loop {
        let start = usize::try_from(reader.position().byte()).unwrap_or(usize::MAX);
        match reader.read_record(&mut record) {
            Ok(true) => {}
            Ok(false) => break,
            // Only invalid UTF-8 stops the reader, and the text is a `str`.
            Err(e) => {
                return Err(ImportError::Header(format!(
                    "The text could not be read: {e}"
                )));
            }
        }
        let end = usize::try_from(reader.position().byte())
            .unwrap_or(usize::MAX)
            .min(bytes.len());
        let first = (start..end)
            .find(|&i| !matches!(bytes[i], b'\r' | b'\n'))
            .unwrap_or(start);
        let last = (first..end)
            .rev()
            .find(|&i| !matches!(bytes[i], b'\r' | b'\n'))
            .unwrap_or(first);
        records.push((
            line_at(first),
            line_at(last),
            record.iter().map(str::to_owned).collect(),
        ));
    }
    let raw = |from: usize, to: usize| -> String {
        lines
            .get(from.saturating_sub(1)..to.min(lines.len()))
            .map(|l| l.join("\n"))
            .unwrap_or_default()
    };
    let mut out = CsvParse::default();
    let mut layout = Layout::positional();
    let mut has_header = false;
    let first_record = records
        .iter()
        .position(|(_, _, fields)| fields.iter().any(|f| !f.trim().is_empty()));
    if let Some(i) = first_record {
        let fields = &records[i].2;
        let named: Vec<(usize, Option<Column>)> = fields
            .iter()
            .enumerate()
            .map(|(i, f)| (i, Column::from_header(f)))
            .collect();
        if named.iter().any(|(_, c)| c.is_some()) {
            has_header = true;
            layout = header_layout(fields, &named)?;
            out.ignored_columns = named
                .iter()
                .filter(|(i, c)| c.is_none() && !fields[*i].trim().is_empty())
                .map(|(i, _)| fields[*i].trim().to_owned())
                .collect();
        }
    }
    out.read_as = format!(
        "{}, {}",
        separator_name(separator),
        if has_header {
            format!(
                "with a header (columns used: {})",
                layout
                    .columns
                    .iter()
                    .map(|(_, c)| c.label())
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        } else {
            "without a header (name, email, club)".to_owned()
        }
    );
    // Blank lines at the end are where the paste stopped, not a line of the list.
    let last_content = records
        .iter()
        .rposition(|(_, _, fields)| fields.iter().any(|f| !f.trim().is_empty()));
    let mut names: HashMap<String, usize> = HashMap::new();
    let mut emails: HashMap<String, usize> = HashMap::new();
    let mut previous_end = first_record.map_or(0, |i| records[i].0.saturating_sub(1));
    for (index, (begins, ends, fields)) in records.iter().enumerate() {
        if Some(index) < first_record || Some(index) > last_content {
            previous_end = *ends;
            continue;
        }
        // The reader skips empty lines; the gaps between records are where they were.
        for line in previous_end + 1..*begins {
            out.refused.push(Refusal {
                line,
                text: String::new(),
                reason: "a blank line: one player per line, with no empty lines between".into(),
            });
        }
        previous_end = *ends;
        if has_header && Some(index) == first_record {
            continue;
        }
        let refuse = |reason: String| Refusal {
            line: *begins,
            text: raw(*begins, *ends),
            reason,
        };
        if fields.iter().all(|f| f.trim().is_empty()) {
            let reason = if fields.len() > 1 {
                "only separators, no player: remove the line"
            } else {
                "a blank line: one player per line, with no empty lines between"
            };
            out.refused.push(refuse(reason.into()));
            continue;
        }
        if fields.iter().any(|f| f.contains('\n')) {
            out.refused.push(refuse(
                "a quoted field runs over several lines: a closing quote (\") is missing".into(),
            ));
            continue;
        }
        if layout.positional && fields.len() > 3 && fields[3..].iter().any(|f| !f.trim().is_empty())
        {
            out.refused.push(refuse(format!(
                "{} fields, but a line without a header holds at most 3 (name, email, club); \
                 add a header line to name the columns",
                fields.len()
            )));
            continue;
        }
        let name = match layout.get(Column::Name, fields).trim() {
            "" => format!(
                "{} {}",
                layout.get(Column::FirstName, fields).trim(),
                layout.get(Column::LastName, fields).trim()
            ),
            name => name.to_owned(),
        };
        let player = match NewPlayer::parse(
            &name,
            layout.get(Column::Email, fields),
            layout.get(Column::Club, fields),
        ) {
            Ok(player) => player,
            Err(problem) => {
                out.refused.push(refuse(format!(
                    "{}: {}",
                    problem.field,
                    lowercase_first(&problem.message)
                )));
                continue;
            }
        };
        if let Some(line) = names.get(player.name.as_str()) {
            out.refused
                .push(refuse(format!("{} is already on line {line}", player.name)));
            continue;
        }
        if let Some(email) = &player.email
            && let Some(line) = emails.get(&email.to_lowercase())
        {
            out.refused.push(refuse(format!(
                "the email address {email} is already on line {line}"
            )));
            continue;
        }
        names.insert(player.name.as_str().to_owned(), *begins);
        if let Some(email) = &player.email {
            emails.insert(email.to_lowercase(), *begins);
        }
        out.rows.push(CsvRow {
            line: *begins,
            player,
        });
    }
    out.refused.sort_by_key(|r| r.line);
    Ok(out)
}

/// The columns a header names. A header must name the players (a name column, or first and
/// last names), and name each column once.
fn header_layout(
    fields: &[String],
    named: &[(usize, Option<Column>)],
) -> Result<Layout, ImportError> {
    let mut columns: Vec<(usize, Column)> = Vec::new();
    for (i, column) in named {
        let Some(column) = column else { continue };
        if let Some((j, _)) = columns.iter().find(|(_, c)| c == column) {
            return Err(ImportError::Header(format!(
                "The header names the {} column twice ({:?} in column {} and {:?} in column {}); keep one.",
                column.label(),
                fields[*j].trim(),
                j + 1,
                fields[*i].trim(),
                i + 1
            )));
        }
        columns.push((*i, *column));
    }
    let has = |c: Column| columns.iter().any(|(_, x)| *x == c);
    if !(has(Column::Name) || has(Column::FirstName) || has(Column::LastName)) {
        return Err(ImportError::Header(format!(
            "The header ({}) has no column of names: call it \"name\" (or \"first name\" and \"last name\").",
            fields
                .iter()
                .map(|f| f.trim())
                .collect::<Vec<_>>()
                .join(", ")
        )));
    }
    Ok(Layout {
        columns,
        positional: false,
    })
}

fn lowercase_first(text: &str) -> String {
    let text = text.trim_end_matches('.');
    let mut chars = text.chars();
    match chars.next() {
        // Acronyms stay as written: "A player name…" → "a player name…", "CSV" stays.
        Some(first) if !chars.clone().next().is_some_and(char::is_uppercase) => {
            first.to_lowercase().chain(chars).collect()
        }
        _ => text.to_owned(),
    }
}

/// Imports the lines that are fine, in one transaction, and reports every line refused and why.
/// A line is either imported whole or refused; if saving fails, nothing is saved.
pub async fn import_csv(
    pool: &PgPool,
    actor: &Actor,
    event_id: EventId,
    text: &str,
) -> Result<ImportReport, ImportError> {
    let parsed = parse_csv(text)?;
    if parsed.rows.is_empty() && parsed.refused.is_empty() {
        return Err(ImportError::Empty);
    }
    let mut refused = parsed.refused;
    let mut tx = pool.begin().await?;
    let rounds = lock_event(&mut tx, event_id).await?;
    let existing: Vec<(String, Option<String>)> =
        sqlx::query_as("SELECT name, lower(email) FROM players WHERE event_id = $1")
            .bind(event_id)
            .fetch_all(&mut *tx)
            .await?;
    let names: std::collections::HashSet<&str> = existing.iter().map(|(n, _)| n.as_str()).collect();
    let emails: std::collections::HashSet<&str> =
        existing.iter().filter_map(|(_, e)| e.as_deref()).collect();
    let lines: Vec<&str> = text.lines().collect();
    let mut accepted = Vec::new();
    for row in parsed.rows {
        let reason = if names.contains(row.player.name.as_str()) {
            Some(format!(
                "{} is already registered in this event",
                row.player.name
            ))
        } else if let Some(email) = &row.player.email
            && emails.contains(email.to_lowercase().as_str())
        {
            Some(format!(
                "another player of this event already uses the email address {email}"
            ))
        } else {
            None
        };
        match reason {
            Some(reason) => refused.push(Refusal {
                line: row.line,
                text: lines
                    .get(row.line.saturating_sub(1))
                    .map(|l| l.trim_start_matches('\u{feff}').to_owned())
                    .unwrap_or_default(),
                reason,
            }),
            None => accepted.push(row.player),
        }
    }
    refused.sort_by_key(|r| r.line);
    let names: Vec<&str> = accepted.iter().map(|p| p.name.as_str()).collect();
    let emails: Vec<Option<&str>> = accepted.iter().map(|p| p.email.as_deref()).collect();
    let clubs: Vec<Option<&str>> = accepted.iter().map(|p| p.club.as_deref()).collect();
    sqlx::query(
        "INSERT INTO players (event_id, name, email, club, entered_after_round) \
         SELECT $1, n, e, c, $5 FROM unnest($2::text[], $3::text[], $4::text[]) AS t(n, e, c)",
    )
    .bind(event_id)
    .bind(&names)
    .bind(&emails)
    .bind(&clubs)
    .bind(rounds)
    .execute(&mut *tx)
    .await?;
    audit::record(
        &mut *tx,
        audit::Entry::by(
            actor,
            audit::Action::PlayersImported,
            event_id,
            "CSV import",
            serde_json::json!({
                "added": names.len(),
                "refused": refused.iter().map(|r| format!("line {}: {}", r.line, r.reason)).collect::<Vec<_>>(),
                "ignored_columns": parsed.ignored_columns,
            }),
        ),
    )
    .await?;
    tx.commit().await?;
    Ok(ImportReport {
        added: names.into_iter().map(str::to_owned).collect(),
        refused,
        ignored_columns: parsed.ignored_columns,
        read_as: parsed.read_as,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(p: &CsvParse) -> Vec<&str> {
        p.rows.iter().map(|r| r.player.name.as_str()).collect()
    }

    fn reasons(p: &CsvParse) -> Vec<(usize, &str)> {
        p.refused
            .iter()
            .map(|r| (r.line, r.reason.as_str()))
            .collect()
    }

    #[test]
    fn plain_lines_quoted_fields_and_a_header() {
        let p = parse_csv(
            "Name,Club,Email\r\nAlice,Arrakeen,alice@example.org\r\n\"Smith, Jr.\",,\r\n\"Say \"\"Hi\"\"\",Sietch,\n",
        )
        .unwrap();
        assert_eq!(names(&p), ["Alice", "Smith, Jr.", "Say \"Hi\""]);
        assert_eq!(p.rows[0].player.club.as_deref(), Some("Arrakeen"));
        assert_eq!(p.rows[0].player.email.as_deref(), Some("alice@example.org"));
        assert_eq!(p.rows[1].line, 3);
        assert_eq!(p.rows[2].line, 4);
        assert!(p.refused.is_empty(), "{:?}", p.refused);
        assert!(p.ignored_columns.is_empty());
        assert!(p.read_as.starts_with("comma-separated, with a header"));
    }

    #[test]
    fn bad_lines_are_refused_with_their_number_and_reason() {
        let p = parse_csv(
            "Alice\nBob,not-an-email\n,x@example.org\nAlice,a2@example.org\nCarol,c@example.org,Club,extra\nDave,C@example.org\nErin,c@EXAMPLE.org\n\"Frank,\n",
        )
        .unwrap();
        assert_eq!(names(&p), ["Alice", "Dave"]);
        let reasons = reasons(&p);
        assert_eq!(
            reasons[0],
            (2, "email: an email address looks like name@example.org")
        );
        assert_eq!(reasons[1], (3, "name: a player name is empty"));
        assert_eq!(reasons[2], (4, "Alice is already on line 1"));
        assert_eq!(reasons[3].0, 5);
        assert!(reasons[3].1.contains("at most 3"), "{}", reasons[3].1);
        assert_eq!(
            reasons[4],
            (7, "the email address c@EXAMPLE.org is already on line 6")
        );
        assert_eq!(reasons[5].0, 8);
        assert!(reasons[5].1.contains("closing quote"), "{}", reasons[5].1);
        assert_eq!(p.refused[0].text, "Bob,not-an-email");
    }

    #[test]
    fn a_paste_from_a_spreadsheet_is_tab_separated() {
        let p = parse_csv("Name\tEmail\nAlice Atreides\talice@example.org\nBob\t\n").unwrap();
        assert_eq!(names(&p), ["Alice Atreides", "Bob"]);
        assert_eq!(p.rows[0].player.email.as_deref(), Some("alice@example.org"));
        assert!(p.refused.is_empty(), "{:?}", p.refused);
        assert!(p.read_as.starts_with("tab-separated"), "{}", p.read_as);
        // Without a header too.
        let p = parse_csv("Alice\talice@example.org\tSietch\n").unwrap();
        assert_eq!(names(&p), ["Alice"]);
        assert_eq!(p.rows[0].player.club.as_deref(), Some("Sietch"));
    }

    #[test]
    fn semicolons_and_a_byte_order_mark() {
        let p = parse_csv("\u{feff}name;email\nAlice;a@example.org\n").unwrap();
        assert_eq!(names(&p), ["Alice"]);
        assert_eq!(p.rows[0].player.email.as_deref(), Some("a@example.org"));
    }

    #[test]
    fn header_columns_in_any_order_with_extras_named() {
        let p = parse_csv(
            "Timestamp,Email Address,Name,Club,Favourite faction\n\
             2026/07/30 10:01,alice@example.org,Alice,Sietch Tabr,Fremen\n\
             2026/07/30 10:02,bob@example.org,Bob,,Harkonnen\n",
        )
        .unwrap();
        assert_eq!(names(&p), ["Alice", "Bob"]);
        assert_eq!(p.rows[0].player.email.as_deref(), Some("alice@example.org"));
        assert_eq!(p.rows[0].player.club.as_deref(), Some("Sietch Tabr"));
        assert_eq!(p.ignored_columns, ["Timestamp", "Favourite faction"]);
        let p = parse_csv("email,name\nalice@example.org,Alice\n").unwrap();
        assert_eq!(names(&p), ["Alice"]);
        assert!(p.refused.is_empty(), "{:?}", p.refused);
    }

    #[test]
    fn first_and_last_names_make_the_name() {
        let p = parse_csv("First name;Last name\nPaul;Atreides\n").unwrap();
        assert_eq!(names(&p), ["Paul Atreides"]);
    }

    #[test]
    fn junk_and_blank_lines_are_refused_by_number() {
        let p = parse_csv("Alice\n\n;;;\n---\nBob\n\n\n").unwrap();
        assert_eq!(names(&p), ["Alice", "Bob"]);
        let reasons = reasons(&p);
        assert_eq!(reasons.len(), 3, "{reasons:?}");
        assert_eq!(reasons[0].0, 2);
        assert!(reasons[0].1.contains("blank line"));
        assert_eq!(reasons[1].0, 3);
        assert_eq!(reasons[2].0, 4);
        assert!(reasons[2].1.contains("letter or digit"), "{}", reasons[2].1);
    }

    #[test]
    fn a_header_without_names_or_with_a_column_twice_refuses_the_file() {
        assert!(matches!(
            parse_csv("email,club\na@example.org,x\n"),
            Err(ImportError::Header(m)) if m.contains("no column of names")
        ));
        assert!(matches!(
            parse_csv("name,player\nA,B\n"),
            Err(ImportError::Header(m)) if m.contains("twice")
        ));
    }

    #[test]
    fn nothing_but_blank_lines_is_empty() {
        let p = parse_csv("\n  \n").unwrap();
        assert!(p.rows.is_empty());
        assert!(p.refused.is_empty());
    }
}
