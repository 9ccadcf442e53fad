//! Importing players from CSV: pasted text or an uploaded file, read by the `csv` crate (quoting,
//! line breaks inside quotes, a byte-order mark), with every line that is not imported named by
//! its number and the reason.
//!
//! What an organiser pastes comes from a spreadsheet or a sign-up form: separated by commas,
//! semicolons (spreadsheets in many countries) or tabs (a copy from a spreadsheet's cells), with
//! a header whose columns come in any order, often with more columns than Mentat needs (a form's
//! timestamp) and headed the way forms head them ("E-mail address", "Club / Team affiliation
//! (if any)", "First and last name"). So the separator is the one the first line uses, each
//! header cell is read for the field it names ([`recognise`]: case, accents, punctuation and
//! combined labels do not matter), and a column whose meaning is unclear is left for the
//! organiser to choose: the players page shows the first rows with a choice of field per column
//! before anything is saved ([`CsvParse::needs_choice`], [`parse_csv_with`]). The report says
//! which column became which field.

use std::collections::HashMap;

use deunicode::deunicode;
use serde::Serialize;
use sqlx::PgPool;
use tournament::ids::EventId;

use super::{MAX_CLUB_CHARS, NewPlayer, lock_event};
use crate::{audit, roles::Actor};

/// The most lines one CSV import takes; far above any event.
pub const MAX_CSV_LINES: usize = 5000;
/// The largest CSV text accepted, in bytes.
pub const MAX_CSV_BYTES: usize = 512 * 1024;
/// How many rows the preview shows under each column.
pub const PREVIEW_ROWS: usize = 3;

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
    /// What the wall's lists sort the player by, when not the name (`players.sort_as`).
    pub sort_as: Option<String>,
}

/// A player's detail a column can hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Column {
    Name,
    FirstName,
    LastName,
    Email,
    Club,
    /// The key the wall's lists sort by (a name written another way round).
    SortAs,
}

impl Column {
    pub const ALL: [Column; 6] = [
        Column::Name,
        Column::FirstName,
        Column::LastName,
        Column::Email,
        Column::Club,
        Column::SortAs,
    ];

    /// The form value of the preview's choice.
    pub fn code(self) -> &'static str {
        match self {
            Column::Name => "name",
            Column::FirstName => "first_name",
            Column::LastName => "last_name",
            Column::Email => "email",
            Column::Club => "club",
            Column::SortAs => "sort_as",
        }
    }

    pub fn parse(code: &str) -> Option<Column> {
        Column::ALL.into_iter().find(|c| c.code() == code)
    }

    /// The field in words, as the report and the preview name it.
    pub fn label(self) -> &'static str {
        match self {
            Column::Name => "name",
            Column::FirstName => "first name",
            Column::LastName => "last name",
            Column::Email => "email",
            Column::Club => "club",
            Column::SortAs => "sort as",
        }
    }

    fn is_name(self) -> bool {
        matches!(self, Column::Name | Column::FirstName | Column::LastName)
    }
}

/// What a header cell says its column holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Heading {
    Field(Column),
    /// A column of the form that is no player's detail: its timestamp, a response number.
    NotAField,
    /// Something else, or two details at once ("Name and email"): the organiser says.
    Unclear,
}

/// The words of a header cell, folded: ASCII lower case letters and digits, with "e-mail" and
/// "e mail" joined into "email".
fn header_words(cell: &str) -> Vec<String> {
    let folded = deunicode(cell).to_lowercase();
    let words: Vec<&str> = folded
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    let mut out: Vec<String> = Vec::with_capacity(words.len());
    let mut i = 0;
    while i < words.len() {
        if words[i] == "e"
            && words
                .get(i + 1)
                .is_some_and(|w| *w == "mail" || *w == "mails")
        {
            out.push("email".to_owned());
            i += 2;
        } else {
            out.push(words[i].to_owned());
            i += 1;
        }
    }
    out
}

const EMAIL_WORDS: &[&str] = &["email", "emails", "mail", "mailaddress", "emailaddress"];
const CLUB_WORDS: &[&str] = &[
    "club",
    "clubs",
    "team",
    "teams",
    "group",
    "groups",
    "affiliation",
    "affiliations",
    "affiliated",
    "guild",
    "clan",
    "association",
    "society",
    "organisation",
    "organization",
];
const FIRST_WORDS: &[&str] = &[
    "first",
    "given",
    "forename",
    "forenames",
    "firstname",
    "givenname",
];
const LAST_WORDS: &[&str] = &[
    "last",
    "surname",
    "surnames",
    "family",
    "lastname",
    "familyname",
];
/// Words that make a cell a heading of names on their own; "first" or "last" need one of them
/// (or to stand alone), so a player called "Ann Last" is not read as a header.
const NAME_WORDS: &[&str] = &[
    "name",
    "names",
    "fullname",
    "player",
    "players",
    "participant",
    "entrant",
    "attendee",
    "surname",
    "surnames",
    "forename",
    "forenames",
    "firstname",
    "lastname",
    "givenname",
    "familyname",
];
/// Names that are not the player's registration name: a Discord handle, a parent's name, a
/// player number.
const NOT_NAME_WORDS: &[&str] = &[
    "user",
    "username",
    "nick",
    "nickname",
    "discord",
    "bgg",
    "login",
    "handle",
    "account",
    "screen",
    "character",
    "faction",
    "game",
    "event",
    "tournament",
    "emergency",
    "contact",
    "parent",
    "guardian",
    "id",
    "ids",
    "number",
    "no",
    "nr",
    "code",
    "rank",
    "rating",
    "elo",
    "seed",
    "points",
    "score",
];
const NOT_A_FIELD_WORDS: &[&str] = &[
    "timestamp",
    "date",
    "time",
    "submitted",
    "submission",
    "id",
    "response",
    "row",
];
const SORT_WORDS: &[&str] = &["sort", "sorting", "sorted"];

/// What a header cell names: a player's detail, a column that is none (a form's timestamp), or
/// something Mentat is not sure of. Case, accents, punctuation, a trailing colon or asterisk
/// and combined labels do not matter: "E-mail address", "Club / Team affiliation (if any)",
/// "First and last name", "Full name*".
pub fn recognise(cell: &str) -> Heading {
    let words = header_words(cell);
    if words.is_empty() {
        return Heading::Unclear;
    }
    let has = |list: &[&str]| words.iter().any(|w| list.contains(&w.as_str()));
    let only = |list: &[&str]| words.len() == 1 && list.contains(&words[0].as_str());
    if has(SORT_WORDS) {
        return Heading::Field(Column::SortAs);
    }
    let email = has(EMAIL_WORDS);
    let club = has(CLUB_WORDS);
    let (first, last) = (has(FIRST_WORDS), has(LAST_WORDS));
    let numbered = words.iter().any(|w| w.bytes().all(|b| b.is_ascii_digit()));
    let name = (has(NAME_WORDS) || only(FIRST_WORDS) || only(LAST_WORDS)) && !numbered;
    match (email, club, name) {
        (true, false, false) => Heading::Field(Column::Email),
        // "Club name", "Name of your team": the club.
        (false, true, _) => Heading::Field(Column::Club),
        (false, false, true) => {
            if has(NOT_NAME_WORDS) {
                Heading::Unclear
            } else if first && last {
                // "First and last name", "Name (first, last)".
                Heading::Field(Column::Name)
            } else if first {
                Heading::Field(Column::FirstName)
            } else if last {
                Heading::Field(Column::LastName)
            } else {
                Heading::Field(Column::Name)
            }
        }
        (false, false, false) if has(NOT_A_FIELD_WORDS) => Heading::NotAField,
        _ => Heading::Unclear,
    }
}

/// One column of the text as the import reads it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ColumnPlan {
    /// Its position, from 0.
    pub index: usize,
    /// The header cell as written; empty without a header.
    pub header: String,
    /// The detail it fills, if any.
    pub field: Option<Column>,
    /// Mentat is not sure what it holds: the organiser chooses before anything is saved.
    pub unclear: bool,
    /// The first values under it, for the preview.
    pub samples: Vec<String>,
}

impl ColumnPlan {
    /// The column as the report names it: its header in quotes, or its number.
    pub fn name(&self) -> String {
        match self.header.trim() {
            "" => format!("column {}", self.index + 1),
            header => format!("“{header}”"),
        }
    }
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
    /// Every column, with the field it fills and its first values.
    pub columns: Vec<ColumnPlan>,
    /// The first line names the columns.
    pub has_header: bool,
    /// Why the columns cannot be used as read (no column of names, a field chosen twice); no
    /// row is read then.
    pub problem: Option<String>,
}

impl CsvParse {
    /// A column's meaning is unclear, or the columns cannot be used as read: the organiser
    /// chooses each column's field in the preview before anything is saved.
    pub fn needs_choice(&self) -> bool {
        self.problem.is_some() || self.columns.iter().any(|c| c.unclear)
    }

    /// Which column became which field, in words: `“Full name” → name · “E-mail” → email;
    /// ignored: “Timestamp”`.
    pub fn mapping_text(&self) -> String {
        mapping_text(&self.columns)
    }
}

/// See [`CsvParse::mapping_text`].
pub fn mapping_text(columns: &[ColumnPlan]) -> String {
    let used: Vec<String> = columns
        .iter()
        .filter_map(|c| Some(format!("{} → {}", c.name(), c.field?.label())))
        .collect();
    let ignored: Vec<String> = columns
        .iter()
        .filter(|c| {
            c.field.is_none()
                && !(c.header.trim().is_empty() && c.samples.iter().all(String::is_empty))
        })
        .map(ColumnPlan::name)
        .collect();
    let mut text = used.join(" · ");
    if !ignored.is_empty() {
        if !text.is_empty() {
            text.push_str("; ");
        }
        text.push_str("ignored: ");
        text.push_str(&ignored.join(", "));
    }
    text
}

/// What an import did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ImportReport {
    pub added: Vec<String>,
    pub refused: Vec<Refusal>,
    pub ignored_columns: Vec<String>,
    pub read_as: String,
    /// Which column became which field (`mapping_text`).
    pub mapping: String,
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

/// Where each column Mentat uses is, by position.
#[derive(Debug, Default)]
struct Layout {
    columns: Vec<(usize, Column)>,
    /// A line without a header: name, email, club, and nothing after them unless chosen.
    positional: bool,
}

impl Layout {
    fn get<'a>(&self, column: Column, fields: &'a [String]) -> &'a str {
        self.columns
            .iter()
            .find(|(_, c)| *c == column)
            .and_then(|(i, _)| fields.get(*i))
            .map_or("", |f| f.as_str())
    }

    fn has(&self, column: Column) -> bool {
        self.columns.iter().any(|(_, c)| *c == column)
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

/// Whether the first line names the columns: a cell names the players' names, or every cell
/// names something Mentat knows (and none is an address, which only a player's line holds).
/// One cell alone must name the names: a list of names whose first is "Team Atreides" has no
/// header.
fn is_header(fields: &[String], headings: &[Heading]) -> bool {
    if fields.iter().any(|f| f.contains('@')) {
        return false;
    }
    let filled: Vec<&Heading> = fields
        .iter()
        .zip(headings)
        .filter(|(f, _)| !f.trim().is_empty())
        .map(|(_, h)| h)
        .collect();
    let names = filled
        .iter()
        .any(|h| matches!(h, Heading::Field(c) if c.is_name()));
    let all_known = filled.len() > 1
        && filled.iter().any(|h| matches!(h, Heading::Field(_)))
        && filled.iter().all(|h| !matches!(h, Heading::Unclear));
    names || all_known
}

/// Reads a CSV text into players, each column read as its header says ([`recognise`]); a
/// column whose meaning is unclear is ignored, and [`CsvParse::needs_choice`] says so. Every
/// line that is not a player is refused with its number: a blank line between players, a line
/// of separators only, a name without a letter or digit, a bad email, a name or email twice.
/// Blank lines at the end are not lines of the list.
pub fn parse_csv(text: &str) -> Result<CsvParse, ImportError> {
    parse_csv_with(text, None)
}

/// As [`parse_csv`], each column filling the field the organiser chose for it in the preview
/// (`None`: ignored), when `choices` is given.
pub fn parse_csv_with(
    text: &str,
    choices: Option<&[Option<Column>]>,
) -> Result<CsvParse, ImportError> {
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
    let first_record = records
        .iter()
        .position(|(_, _, fields)| fields.iter().any(|f| !f.trim().is_empty()));
    let headings: Vec<Heading> = first_record
        .map(|i| records[i].2.iter().map(|f| recognise(f)).collect())
        .unwrap_or_default();
    let has_header = first_record.is_some_and(|i| is_header(&records[i].2, &headings));
    out.has_header = has_header;
    // Blank lines at the end are where the paste stopped, not a line of the list.
    let last_content = records
        .iter()
        .rposition(|(_, _, fields)| fields.iter().any(|f| !f.trim().is_empty()));
    // The lines of players (the header left out), for the columns' first values.
    let data = || {
        records
            .iter()
            .enumerate()
            .filter(move |(i, (_, _, fields))| {
                Some(*i) >= first_record
                    && Some(*i) <= last_content
                    && !(has_header && Some(*i) == first_record)
                    && fields.iter().any(|f| !f.trim().is_empty())
            })
            .map(|(_, (_, _, fields))| fields)
    };
    let width = records
        .iter()
        .map(|(_, _, fields)| {
            fields
                .iter()
                .rposition(|f| !f.trim().is_empty())
                .map_or(0, |i| i + 1)
        })
        .max()
        .unwrap_or(0)
        .max(if has_header {
            first_record.map_or(0, |i| records[i].2.len())
        } else {
            0
        });
    let header_cell = |i: usize| -> String {
        match (has_header, first_record) {
            (true, Some(r)) => records[r].2.get(i).map_or("", |f| f.trim()).to_owned(),
            _ => String::new(),
        }
    };
    let samples = |i: usize| -> Vec<String> {
        data()
            .take(PREVIEW_ROWS)
            .map(|fields| fields.get(i).map_or("", |f| f.trim()).to_owned())
            .collect()
    };
    let empty_column = |i: usize| data().all(|f| f.get(i).is_none_or(|v| v.trim().is_empty()));
    // Each column's field: the organiser's choice, else its header's, else its place.
    let mut columns: Vec<ColumnPlan> = (0..width)
        .map(|i| ColumnPlan {
            index: i,
            header: header_cell(i),
            field: None,
            unclear: false,
            samples: samples(i),
        })
        .collect();
    let mut problem = None;
    match choices {
        Some(choices) => {
            if choices.len() != width {
                problem = Some(format!(
                    "The text has {width} column{} but {} were chosen: choose a field for each column again.",
                    if width == 1 { "" } else { "s" },
                    choices.len()
                ));
            } else {
                for (column, choice) in columns.iter_mut().zip(choices) {
                    column.field = *choice;
                }
                for field in Column::ALL {
                    let chosen: Vec<&ColumnPlan> =
                        columns.iter().filter(|c| c.field == Some(field)).collect();
                    if let [a, b, ..] = chosen.as_slice() {
                        problem.get_or_insert(format!(
                            "{} and {} are both chosen as {}: choose one.",
                            capitalise_first(&a.name()),
                            b.name(),
                            field.label()
                        ));
                    }
                }
            }
        }
        None if has_header => {
            for (column, heading) in columns.iter_mut().zip(&headings) {
                match *heading {
                    Heading::Field(field) => column.field = Some(field),
                    Heading::NotAField => {}
                    // A column without a heading and without a value is nothing to ask about.
                    Heading::Unclear => column.unclear = !empty_column(column.index),
                }
            }
            // A field named twice ("Email" and "Confirm your email"): the first is used, the
            // organiser says whether the other should be.
            for i in 0..columns.len() {
                if let Some(field) = columns[i].field
                    && columns[..i].iter().any(|c| c.field == Some(field))
                {
                    columns[i].field = None;
                    columns[i].unclear = true;
                }
            }
        }
        None => {
            for column in &mut columns {
                column.field = match column.index {
                    0 => Some(Column::Name),
                    1 => Some(Column::Email),
                    2 => Some(Column::Club),
                    // A line without a header holds name, email and club: what follows is for
                    // the organiser to name.
                    _ => {
                        column.unclear = !empty_column(column.index);
                        None
                    }
                };
            }
        }
    }
    let layout = Layout {
        columns: columns
            .iter()
            .filter_map(|c| Some((c.index, c.field?)))
            .collect(),
        positional: !has_header && choices.is_none(),
    };
    let names =
        layout.has(Column::Name) || layout.has(Column::FirstName) || layout.has(Column::LastName);
    if problem.is_none() && !names && first_record.is_some() {
        problem = Some(if choices.is_some() {
            "Choose the column of names: a name, or a first and a last name.".to_owned()
        } else {
            format!(
                "The header ({}) has no column of names: call it \"name\" (or \"first name\" and \"last name\"), or choose its field in the preview.",
                columns
                    .iter()
                    .map(|c| c.header.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        });
    }
    out.ignored_columns = columns
        .iter()
        .filter(|c| c.field.is_none() && !c.header.is_empty())
        .map(|c| c.header.clone())
        .collect();
    out.read_as = format!(
        "{}, {}",
        separator_name(separator),
        if has_header {
            "with a header"
        } else {
            "without a header"
        }
    );
    out.columns = columns;
    if let Some(problem) = problem {
        out.problem = Some(problem);
        return Ok(out);
    }
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
        let sort_as = match parse_sort_as(layout.get(Column::SortAs, fields)) {
            Ok(sort_as) => sort_as,
            Err(message) => {
                out.refused
                    .push(refuse(format!("sort as: {}", lowercase_first(&message))));
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
            sort_as,
        });
    }
    out.refused.sort_by_key(|r| r.line);
    Ok(out)
}

/// A sort key as typed: empty is none; at most a club name's length, no control characters.
pub fn parse_sort_as(text: &str) -> Result<Option<String>, String> {
    let text = text.trim();
    if text.chars().count() > MAX_CLUB_CHARS || text.chars().any(char::is_control) {
        return Err(format!(
            "A sort key is at most {MAX_CLUB_CHARS} characters, without control characters."
        ));
    }
    Ok((!text.is_empty()).then(|| text.to_owned()))
}

fn capitalise_first(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
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
/// A line is either imported whole or refused; if saving fails, nothing is saved. Columns whose
/// meaning is unclear are ignored (the players page asks about them first, [`import_csv_with`]).
pub async fn import_csv(
    pool: &PgPool,
    actor: &Actor,
    event_id: EventId,
    text: &str,
) -> Result<ImportReport, ImportError> {
    import_csv_with(pool, actor, event_id, text, None).await
}

/// As [`import_csv`], each column filling the field chosen for it in the preview, when
/// `choices` is given.
pub async fn import_csv_with(
    pool: &PgPool,
    actor: &Actor,
    event_id: EventId,
    text: &str,
    choices: Option<&[Option<Column>]>,
) -> Result<ImportReport, ImportError> {
    let parsed = parse_csv_with(text, choices)?;
    if parsed.rows.is_empty() && parsed.refused.is_empty() && parsed.problem.is_none() {
        return Err(ImportError::Empty);
    }
    if let Some(problem) = parsed.problem.clone() {
        return Err(ImportError::Header(problem));
    }
    let mapping = parsed.mapping_text();
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
            None => accepted.push(row),
        }
    }
    refused.sort_by_key(|r| r.line);
    let names: Vec<&str> = accepted.iter().map(|r| r.player.name.as_str()).collect();
    let emails: Vec<Option<&str>> = accepted.iter().map(|r| r.player.email.as_deref()).collect();
    let clubs: Vec<Option<&str>> = accepted.iter().map(|r| r.player.club.as_deref()).collect();
    let sort_keys: Vec<Option<&str>> = accepted.iter().map(|r| r.sort_as.as_deref()).collect();
    sqlx::query(
        "INSERT INTO players (event_id, name, email, club, sort_as, entered_after_round) \
         SELECT $1, n, e, c, s, $6 FROM unnest($2::text[], $3::text[], $4::text[], $5::text[]) AS t(n, e, c, s)",
    )
    .bind(event_id)
    .bind(&names)
    .bind(&emails)
    .bind(&clubs)
    .bind(&sort_keys)
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
                "columns": mapping,
                "columns_chosen": choices.is_some(),
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
        mapping,
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
        assert_eq!(p.read_as, "comma-separated, with a header");
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
    fn a_header_without_names_or_with_a_column_twice_asks_the_organiser() {
        let p = parse_csv("email,club\na@example.org,x\n").unwrap();
        assert!(p.needs_choice());
        assert!(
            p.rows.is_empty(),
            "nothing is read before the names are chosen"
        );
        assert!(p.problem.as_deref().unwrap().contains("no column of names"));
        // The first column named "name" is used; the second is offered, not guessed.
        let p = parse_csv("name,player\nA,B\n").unwrap();
        assert!(p.needs_choice());
        assert_eq!(names(&p), ["A"]);
        assert_eq!(p.columns[1].field, None);
        assert!(p.columns[1].unclear);
        // Chosen in the preview: the names are the second column.
        let p = parse_csv_with("name,player\nA,B\n", Some(&[None, Some(Column::Name)])).unwrap();
        assert!(!p.needs_choice());
        assert_eq!(names(&p), ["B"]);
        // A field chosen twice, or no names chosen, is said, and nothing is read.
        let p = parse_csv_with(
            "name,player\nA,B\n",
            Some(&[Some(Column::Name), Some(Column::Name)]),
        )
        .unwrap();
        assert!(
            p.problem
                .as_deref()
                .unwrap()
                .contains("both chosen as name")
        );
        assert!(p.rows.is_empty());
        let p = parse_csv_with("name,player\nA,B\n", Some(&[None, None])).unwrap();
        assert!(p.problem.as_deref().unwrap().contains("column of names"));
    }

    #[test]
    fn form_headers_are_recognised_with_punctuation_case_and_combined_labels() {
        let field = |c: &str| match recognise(c) {
            Heading::Field(f) => Some(f),
            _ => None,
        };
        for club in [
            "Club",
            "CLUB:",
            "Team",
            "group",
            "Affiliation",
            "Club / Team affiliation (if any)",
            "Club or team",
            "What club, group or store do you play with?",
            "Team name",
            "Verein / Club*",
        ] {
            assert_eq!(field(club), Some(Column::Club), "{club}");
        }
        for email in [
            "Email",
            "E-mail",
            "e-mail address",
            "Mail",
            "E Mail Address*",
            "Your email",
        ] {
            assert_eq!(field(email), Some(Column::Email), "{email}");
        }
        for name in [
            "Name",
            "Full name",
            "Fullname",
            "First and last name",
            "First & Last Name",
            "Name (first and last)",
            "Player",
            "Player name",
            "Your name (as on your badge)",
            "Nombre completo / full name",
        ] {
            assert_eq!(field(name), Some(Column::Name), "{name}");
        }
        assert_eq!(field("First name"), Some(Column::FirstName));
        assert_eq!(field("Given name"), Some(Column::FirstName));
        assert_eq!(field("First"), Some(Column::FirstName));
        assert_eq!(field("Surname"), Some(Column::LastName));
        assert_eq!(field("Family name"), Some(Column::LastName));
        assert_eq!(field("Sort as"), Some(Column::SortAs));
        assert_eq!(recognise("Timestamp"), Heading::NotAField);
        assert_eq!(recognise("Submission date"), Heading::NotAField);
        for unclear in [
            "Favourite faction",
            "Phone",
            "Discord username",
            "Player ID",
            "Name and email",
            "Emergency contact name",
            "Address",
            "",
        ] {
            assert_eq!(recognise(unclear), Heading::Unclear, "{unclear:?}");
        }
    }

    #[test]
    fn an_online_form_export_keeps_its_clubs_and_offers_the_unknown_column() {
        let text = "\u{feff}Timestamp,First and last name,E-mail address,Club / Team affiliation (if any),Favourite faction\r\n\
            2026/07/30 10:01:02,Zoë Zhang (张),zoe@example.org,Sietch Tabr,Fremen\r\n\
            2026/07/30 10:03:40,Piter De Vries,piter@example.org,,Harkonnen\r\n\
            2026/07/30 10:05:00,\"Carter, A. B. Jr.\",ab@example.org,Arrakeen Gamers,Atreides\r\n";
        let p = parse_csv(text).unwrap();
        assert!(p.has_header);
        assert_eq!(
            names(&p),
            ["Zoë Zhang (张)", "Piter De Vries", "Carter, A. B. Jr."]
        );
        assert_eq!(p.rows[0].player.club.as_deref(), Some("Sietch Tabr"));
        assert_eq!(p.rows[1].player.club, None);
        assert_eq!(p.rows[2].player.email.as_deref(), Some("ab@example.org"));
        // Only the faction column is unclear; its first values are there to decide by.
        assert!(p.needs_choice());
        let unclear: Vec<&ColumnPlan> = p.columns.iter().filter(|c| c.unclear).collect();
        assert_eq!(unclear.len(), 1);
        assert_eq!(unclear[0].header, "Favourite faction");
        assert_eq!(unclear[0].samples, ["Fremen", "Harkonnen", "Atreides"]);
        assert!(!p.columns[0].unclear, "a timestamp is no player's detail");
        assert_eq!(
            p.mapping_text(),
            "“First and last name” → name · “E-mail address” → email · \
             “Club / Team affiliation (if any)” → club; ignored: “Timestamp”, “Favourite faction”"
        );
        // The organiser keeps the faction out: nothing is unclear any more.
        let choices = [
            None,
            Some(Column::Name),
            Some(Column::Email),
            Some(Column::Club),
            None,
        ];
        let p = parse_csv_with(text, Some(&choices)).unwrap();
        assert!(!p.needs_choice());
        assert_eq!(p.rows.len(), 3);
        assert_eq!(p.rows[2].player.club.as_deref(), Some("Arrakeen Gamers"));
    }

    #[test]
    fn a_line_of_data_is_not_read_as_a_header() {
        // Names that contain a header's word, clubs that look like one, an address.
        for text in [
            "Team Atreides\nBob\n",
            "Bob First,bob@example.org\n",
            "Player 01\nPlayer 02\n",
            "Ann Last,,Team Rocket\n",
        ] {
            let p = parse_csv(text).unwrap();
            assert!(!p.has_header, "{text:?}");
            assert!(!p.needs_choice(), "{text:?}");
        }
        // A fourth column without a header is the organiser's to name.
        let p = parse_csv("Alice,a@example.org,Sietch,Fremen\n").unwrap();
        assert!(p.needs_choice());
        assert!(p.columns[3].unclear);
        let p = parse_csv_with(
            "Alice,a@example.org,Sietch,Atreides Alice\n",
            Some(&[
                Some(Column::Name),
                Some(Column::Email),
                Some(Column::Club),
                Some(Column::SortAs),
            ]),
        )
        .unwrap();
        assert_eq!(p.rows[0].sort_as.as_deref(), Some("Atreides Alice"));
        assert!(p.refused.is_empty(), "{:?}", p.refused);
    }

    #[test]
    fn nothing_but_blank_lines_is_empty() {
        let p = parse_csv("\n  \n").unwrap();
        assert!(p.rows.is_empty());
        assert!(p.refused.is_empty());
    }
}
