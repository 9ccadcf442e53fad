//! Server functions for a table's game log: reading it with its verification and board, live
//! verification while a judge types, saving a revision, the batch upload, and the same
//! verification as JSON for scripts. Each begins with its role check.

use dune::Faction;
use leptos::prelude::*;
use serde::{Deserialize, Serialize};
use tournament::ids::{Revision, RoundNumber, TableNumber};

use crate::error::AppError;
use crate::replay::{Replayed, batch::BatchLine, map::BoardMap};
#[cfg(feature = "ssr")]
use crate::{
    events::load,
    replay::bridge,
    server::{answer, fail, pool, require_actor},
};

/// One saved revision, as the history lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LogRevisionView {
    pub revision: Revision,
    pub by: Option<String>,
    pub at: String,
    pub reason: Option<String>,
    pub source: Option<String>,
    pub lines: usize,
}

/// One seat of the table, for the page's heading and the report comparison.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LogSeat {
    pub player: String,
    pub faction: Option<Faction>,
}

/// The judge's report beside the report the log implies, value by value, for the judge to decide
/// where they differ. Values are as the report form takes them (codes and numbers).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Comparison {
    /// The latest report revision (its values are the "report" column).
    pub report_revision: Option<Revision>,
    /// The engine derived a whole report from the log (the game is over).
    pub derived: bool,
    /// Why it could not, when it could not (a game still in progress).
    pub why_not: Option<String>,
    /// How the game ended and the last turn.
    pub table_rows: Vec<ComparisonRow>,
    pub seats: Vec<SeatComparison>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatComparison {
    pub player_id: tournament::ids::PlayerId,
    pub player: String,
    /// The faction dealt (0.08); the log's when none was dealt.
    pub faction: Faction,
    pub rows: Vec<ComparisonRow>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ComparisonRow {
    /// The report form's field (`result`, `forces`, `ended`, …); `win_attempts` is shown only
    /// (the win-attempt record counts them).
    pub field: String,
    /// "Forces on the board", …
    pub what: String,
    /// The judge's report: `None` when no report has the value yet.
    pub report: Option<String>,
    /// What the log implies: `None` when the engine does not derive it.
    pub log: Option<String>,
}

impl ComparisonRow {
    pub fn differs(&self) -> bool {
        matches!((&self.report, &self.log), (Some(a), Some(b)) if a != b)
    }

    /// The value as people read it: a win type's or faction's name, "none" for an empty one.
    pub fn show(value: &str) -> String {
        if value.is_empty() {
            return "none".to_owned();
        }
        if let Some(w) = dune::WinType::from_code(value) {
            return format!("{} ({})", w.name(), w.code());
        }
        if let Some(f) = Faction::from_code(value) {
            return f.name().to_owned();
        }
        match value {
            "win" => "a win during play".to_owned(),
            "time" => "the clock".to_owned(),
            "turns" => "the last turn".to_owned(),
            other => other.to_owned(),
        }
    }
}

/// Everything the log page shows.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LogPage {
    pub slug: String,
    pub event_name: String,
    pub round: RoundNumber,
    pub table: TableNumber,
    pub seats: Vec<LogSeat>,
    /// The viewer may save a revision (judges; the head judge once the report is final).
    pub can_write: bool,
    pub report_final: bool,
    /// Newest first.
    pub revisions: Vec<LogRevisionView>,
    pub latest_revision: Revision,
    /// The latest revision's text (empty before the first save).
    pub body: String,
    pub replayed: Replayed,
    pub map: BoardMap,
    pub comparison: Comparison,
}

#[cfg(feature = "ssr")]
fn when(at: chrono::DateTime<chrono::Utc>) -> String {
    at.format("%Y-%m-%d %H:%M UTC").to_string()
}

/// The latest report's values beside the report the engine derives from the log (4.01.07,
/// 4.01.11, rulings 6 and 12); for a game in progress, beside what the last turn shows.
#[cfg(feature = "ssr")]
fn compare(
    results: Option<&db::results::reports::TableResults>,
    seats: &[db::results::SeatLine],
    replayed: &Replayed,
    derived: Option<&Result<tournament::report::GameReport, String>>,
) -> Comparison {
    let latest = results.and_then(|r| r.latest());
    let counts = results.map(|r| r.counts()).unwrap_or_default();
    let game = derived.and_then(|d| d.as_ref().ok());
    let last = replayed.turns.last();
    let row =
        |field: &str, what: &str, report: Option<String>, log: Option<String>| ComparisonRow {
            field: field.to_owned(),
            what: what.to_owned(),
            report,
            log,
        };
    let table_rows = vec![
        row(
            "ended",
            "How the game ended",
            latest.map(|r| r.draft.ended.code().to_owned()),
            game.map(|g| g.ended.code().to_owned()),
        ),
        row(
            "last_turn",
            "Last turn played",
            latest.map(|r| r.draft.last_turn.to_string()),
            game.and_then(|g| g.last_turn)
                .or_else(|| last.map(|t| t.turn).filter(|t| *t >= 1))
                .map(|t| t.to_string()),
        ),
    ];
    let seats = seats
        .iter()
        .filter_map(|seat| {
            let faction = seat.faction?;
            let reported =
                latest.and_then(|r| r.draft.seats.iter().find(|s| s.player_id == seat.player_id));
            let logged = game.and_then(|g| g.seats.iter().find(|s| s.faction == faction));
            let holding = last.and_then(|t| t.holdings.iter().find(|h| h.faction == faction));
            // Without a derived report, the last turn's board gives what it can.
            let forces_now: Option<u32> = last.map(|t| {
                t.places
                    .iter()
                    .flat_map(|p| p.tokens.iter())
                    .filter(|(f, _)| *f == faction)
                    .map(|(_, s)| s.total())
                    .sum()
            });
            let knows_control = last.is_some_and(|t| t.knows_control);
            let end = logged.map(|l| l.tiebreakers.end);
            let rows = vec![
                row(
                    "result",
                    "Result",
                    reported.map(|r| r.result.map_or(String::new(), |w| w.code().to_owned())),
                    logged.map(|l| l.result.map_or(String::new(), |w| w.code().to_owned())),
                ),
                row(
                    "ally",
                    "Ally",
                    reported.map(|r| r.ally.map_or(String::new(), |a| a.code().to_owned())),
                    logged
                        .map(|l| l.ally.map_or(String::new(), |a| a.code().to_owned()))
                        .or_else(|| {
                            last.map(|t| {
                                t.alliances
                                    .iter()
                                    .find_map(|(a, b)| {
                                        (*a == faction)
                                            .then_some(*b)
                                            .or((*b == faction).then_some(*a))
                                    })
                                    .map_or(String::new(), |f| f.code().to_owned())
                            })
                        }),
                ),
                row(
                    "win_attempts",
                    "Win attempts (4.01.04)",
                    Some(
                        counts
                            .get(&seat.player_id)
                            .copied()
                            .unwrap_or(0)
                            .to_string(),
                    ),
                    logged.map(|l| l.tiebreakers.win_attempts.to_string()),
                ),
                row(
                    "strongholds",
                    "Strongholds controlled",
                    reported.map(|r| r.end.strongholds.to_string()),
                    end.map(|e| e.strongholds.to_string()).or_else(|| {
                        holding
                            .filter(|_| knows_control)
                            .map(|h| h.strongholds.len().to_string())
                    }),
                ),
                row(
                    "forces",
                    "Forces on the board",
                    reported.map(|r| r.end.forces.to_string()),
                    end.map(|e| e.forces.to_string())
                        .or_else(|| forces_now.map(|n| n.to_string())),
                ),
                row(
                    "spice",
                    "Spice behind the shield",
                    reported.map(|r| r.end.spice.to_string()),
                    end.map(|e| e.spice.to_string())
                        .or_else(|| holding.map(|h| h.spice.to_string())),
                ),
                row(
                    "cards",
                    "Treachery cards in hand",
                    reported.map(|r| r.end.cards.to_string()),
                    end.map(|e| e.cards.to_string())
                        .or_else(|| holding.map(|h| h.cards.to_string())),
                ),
                row(
                    "leaders",
                    "Active leaders",
                    reported.map(|r| r.end.leaders.to_string()),
                    end.map(|e| e.leaders.to_string()).or_else(|| {
                        holding
                            .and_then(|h| h.leaders.as_ref())
                            .map(|l| l.len().to_string())
                    }),
                ),
            ];
            Some(SeatComparison {
                player_id: seat.player_id,
                player: seat.player.to_string(),
                faction,
                rows,
            })
        })
        .collect();
    Comparison {
        report_revision: latest.map(|r| r.revision),
        derived: game.is_some(),
        why_not: derived.and_then(|d| d.as_ref().err().cloned()),
        table_rows,
        seats,
    }
}

#[server]
pub async fn get_log(
    slug: String,
    round: RoundNumber,
    table: TableNumber,
) -> Result<LogPage, AppError> {
    let event = load(&slug).await?;
    let actor = crate::server::actor().await?;
    let pool = pool()?;
    let log = answer(db::results::logs::table_log(&pool, event.id, round, table).await)?;
    let access = db::results::logs::access(&pool, actor.as_ref(), &log.table)
        .await
        .map_err(|e| crate::server::internal("checking your role", e))?;
    if !access.read {
        return fail(match actor {
            None => AppError::SignInRequired,
            Some(_) if access.seated => AppError::Forbidden(
                "The players of a table read its log once the report is final (4.01.05).".into(),
            ),
            Some(_) => AppError::Forbidden(
                "Only the event's judges and the table's own players read this log.".into(),
            ),
        });
    }
    let body = log.latest().map(|r| r.body.clone()).unwrap_or_default();
    // Judges audit (sealed entries and hands shown); a player sees what was public.
    let staff = access.write || !access.seated;
    let analysis = bridge::analyse(&body, staff, true);
    let replayed = analysis.replayed;
    let results = db::results::reports::table_results(&pool, event.id, round, table)
        .await
        .ok();
    let comparison = compare(
        results.as_ref(),
        &log.table.seats,
        &replayed,
        analysis.derived.as_ref(),
    );
    Ok(LogPage {
        slug: event.slug,
        event_name: event.name,
        round,
        table,
        seats: log
            .table
            .seats
            .iter()
            .map(|s| LogSeat {
                player: s.player.to_string(),
                faction: s.faction,
            })
            .collect(),
        can_write: access.write,
        report_final: log.table.final_report,
        latest_revision: log.latest().map_or(Revision::NONE, |r| r.revision),
        revisions: log
            .revisions
            .iter()
            .map(|r| LogRevisionView {
                revision: r.revision,
                by: r.created_by.clone(),
                at: when(r.created_at),
                reason: r.reason.clone(),
                source: r.source.clone(),
                lines: r.body.lines().count(),
            })
            .collect(),
        body,
        replayed,
        map: bridge::board_map().clone(),
        comparison,
    })
}

/// The live check while a judge types, as HTML for the editor to put in place (see
/// `components::log_editor`): the verification, and the suggestions for the word at the caret.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LiveCheck {
    pub verification: String,
    pub suggestions: String,
}

/// `caret` is where the judge is typing, in the browser's UTF-16 units of `text`.
#[server]
pub async fn check_log_live(text: String, caret: u32) -> Result<LiveCheck, AppError> {
    use crate::components::log_editor::{Suggestions, VerificationList};
    use crate::replay::suggest::{suggest, word_at};
    use leptos::tachys::view::RenderHtml;
    require_actor().await?;
    let analysis = bridge::analyse(&text, true, false);
    let at = byte_offset(&text, caret);
    let (start, prefix) = word_at(&text, at);
    let words: Vec<_> = suggest(bridge::vocabulary(), prefix, analysis.alive.as_deref(), 8)
        .into_iter()
        .cloned()
        .collect();
    let utf16 = |byte: usize| text[..byte].encode_utf16().count() as u32;
    let (start16, end16) = (utf16(start), utf16(start + prefix.len()));
    let prefix = prefix.to_owned();
    let verification = analysis.replayed.verification;
    Ok(LiveCheck {
        verification: view! { <VerificationList verification=verification/> }.to_html(),
        suggestions: view! { <Suggestions prefix=prefix start=start16 end=end16 words=words/> }
            .to_html(),
    })
}

/// The byte offset of a position counted in UTF-16 units, as the browser counts a textarea's.
#[cfg(feature = "ssr")]
fn byte_offset(text: &str, utf16: u32) -> usize {
    let mut units = 0u32;
    for (i, c) in text.char_indices() {
        if units >= utf16 {
            return i;
        }
        units += c.len_utf16() as u32;
    }
    text.len()
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LogForm {
    pub slug: String,
    pub round: RoundNumber,
    pub table: TableNumber,
    /// The revision the page showed (0: none).
    pub base_revision: Revision,
    pub body: String,
    #[serde(default)]
    pub reason: String,
}

#[server]
pub async fn save_log(form: LogForm) -> Result<Revision, AppError> {
    use leptos::server_fn::ServerFn;
    let event = load(&form.slug).await?;
    let actor = require_actor().await?;
    let revision = answer(
        db::results::logs::save(
            &pool()?,
            &actor,
            event.id,
            form.round,
            form.table,
            db::results::logs::LogEntry {
                body: form.body,
                base_revision: form.base_revision,
                reason: Some(form.reason),
                source: None,
            },
        )
        .await,
    )?;
    crate::server::back_with(
        SaveLog::url(),
        &format!("Saved as revision {revision}."),
        &[],
    );
    Ok(revision)
}

/// The engine's report of a log, exactly as `mentat replay --json` prints it, for scripts:
/// `curl --data-urlencode text@game.dgn https://…/api/verify`. Anyone may ask; nothing is saved,
/// so a request without cookies needs no origin (`server/src/http/csrf.rs`).
#[server(endpoint = "verify")]
pub async fn verify(text: String) -> Result<serde_json::Value, AppError> {
    if text.len() > db::results::logs::MAX_BYTES {
        return fail(AppError::field("text", "A log is at most 1 MB."));
    }
    serde_json::from_str(&bridge::report_json(&text))
        .map_err(|e| crate::server::internal("reading the engine's report", e))
}

/// The report JSON of a table's saved log (the latest revision), for scripts with a judge's
/// session: `GET /api/table_log_report?slug=…&round=1&table=3`.
#[server(endpoint = "table_log_report", input = server_fn::codec::GetUrl)]
pub async fn table_log_report(
    slug: String,
    round: RoundNumber,
    table: TableNumber,
) -> Result<serde_json::Value, AppError> {
    let event = load(&slug).await?;
    let actor = crate::server::actor().await?;
    let pool = pool()?;
    let log = answer(db::results::logs::table_log(&pool, event.id, round, table).await)?;
    let access = db::results::logs::access(&pool, actor.as_ref(), &log.table)
        .await
        .map_err(|e| crate::server::internal("checking your role", e))?;
    if !access.read {
        return fail(AppError::Forbidden(
            "Only the event's judges and the table's own players read this log.".into(),
        ));
    }
    let Some(latest) = log.latest() else {
        return fail(AppError::NotFound("This table has no log yet.".into()));
    };
    serde_json::from_str(&bridge::report_json(&latest.body))
        .map_err(|e| crate::server::internal("reading the engine's report", e))
}

/// The batch's answer: one line per file, in upload order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BatchSummary {
    pub lines: Vec<BatchLine>,
    /// Each line as the page says it ("r1-t2.dgn: round 1, table 2: saved as revision 1; …"),
    /// so the browser half shows the server's words without formatting them itself.
    pub said: Vec<String>,
}

/// One table's latest log in a round's list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundLogLine {
    pub table: TableNumber,
    pub revision: Revision,
    /// `None`: not readable as DGN.
    pub violations: Option<usize>,
    pub winner: Option<String>,
    pub turns: u32,
}

/// The batch page: the round's tables that have a log, with the engine's verdict on each.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundLogList {
    pub slug: String,
    pub event_name: String,
    pub round: RoundNumber,
    pub lines: Vec<RoundLogLine>,
}

#[cfg(feature = "ssr")]
fn verdict(text: &str) -> (Option<usize>, Option<String>, u32) {
    let v = bridge::replay(text, true).verification;
    (v.readable.then_some(v.problems.len()), v.winner, v.turns)
}

#[server]
pub async fn round_logs(slug: String, round: RoundNumber) -> Result<RoundLogList, AppError> {
    let event = load(&slug).await?;
    crate::server::require_staff(event.id, db::roles::Action::RecordResults).await?;
    let stored = answer(db::results::logs::round_logs(&pool()?, event.id, round).await)?;
    Ok(RoundLogList {
        slug: event.slug,
        event_name: event.name,
        round,
        lines: stored
            .into_iter()
            .map(|(table, revision, text)| {
                let (violations, winner, turns) = verdict(&text);
                RoundLogLine {
                    table,
                    revision,
                    violations,
                    winner,
                    turns,
                }
            })
            .collect(),
    })
}

/// Reads the upload's files: plain text logs, or zip archives of them.
#[cfg(feature = "ssr")]
fn unpack(name: &str, bytes: &[u8], out: &mut Vec<(String, Result<String, String>)>) {
    if name.to_lowercase().ends_with(".zip") {
        // The zip crate reads archives from organisers' laptops of every kind (deflate included).
        match zip::ZipArchive::new(std::io::Cursor::new(bytes)) {
            Err(e) => out.push((
                name.to_owned(),
                Err(format!("not a readable zip archive ({e})")),
            )),
            Ok(mut archive) => {
                for i in 0..archive.len() {
                    let Ok(mut entry) = archive.by_index(i) else {
                        continue;
                    };
                    let inner = entry.name().to_owned();
                    let lower = inner.to_lowercase();
                    if entry.is_dir() || !(lower.ends_with(".dgn") || lower.ends_with(".txt")) {
                        continue;
                    }
                    let mut text = String::new();
                    let read = std::io::Read::read_to_string(&mut entry, &mut text)
                        .map(|_| text)
                        .map_err(|_| "not UTF-8 text".to_owned());
                    out.push((format!("{name}/{inner}"), read));
                }
            }
        }
    } else {
        out.push((
            name.to_owned(),
            String::from_utf8(bytes.to_vec()).map_err(|_| "not UTF-8 text".to_owned()),
        ));
    }
}

/// Several logs at once (files or zip archives), each mapped to its table by its `[Table]` and
/// `[Round]` tags or its file name, saved as a new revision of that table's log when it changed,
/// and verified. The browser sends one file per request to show progress; a plain form sends all.
#[server(input = server_fn::codec::MultipartFormData)]
pub async fn upload_logs(data: server_fn::codec::MultipartData) -> Result<BatchSummary, AppError> {
    use crate::replay::batch::{BatchOutcome, destination};
    let Some(mut parts) = data.into_inner() else {
        return fail(AppError::Invalid("The upload was empty.".into()));
    };
    let mut slug = String::new();
    let mut default_round = 1;
    let mut files: Vec<(String, Result<String, String>)> = Vec::new();
    while let Ok(Some(field)) = parts.next_field().await {
        let name = field.name().unwrap_or_default().to_owned();
        let file_name = field.file_name().map(str::to_owned);
        let bytes = field
            .bytes()
            .await
            .map_err(|e| AppError::Invalid(format!("The upload broke off ({e}); try again.")))?;
        match (name.as_str(), file_name) {
            ("slug", _) => slug = String::from_utf8_lossy(&bytes).trim().to_owned(),
            ("round", _) => {
                default_round = String::from_utf8_lossy(&bytes).trim().parse().unwrap_or(1)
            }
            (_, Some(file)) if !bytes.is_empty() => unpack(&file, &bytes, &mut files),
            _ => {}
        }
    }
    let event = load(&slug).await?;
    let actor = crate::server::require_staff(event.id, db::roles::Action::RecordResults).await?;
    if files.is_empty() {
        return fail(AppError::field(
            "files",
            "Choose one or more .dgn files or a .zip of them.",
        ));
    }
    let pool = pool()?;
    let mut lines = Vec::new();
    for (file, text) in files {
        let mut line = crate::replay::batch::BatchLine {
            file: file.clone(),
            round: None,
            table: None,
            outcome: BatchOutcome::Refused(String::new()),
            violations: None,
            winner: None,
            turns: 0,
        };
        let text = match text {
            Ok(t) => t,
            Err(why) => {
                line.outcome = BatchOutcome::Refused(format!("{file} is {why}."));
                lines.push(line);
                continue;
            }
        };
        let (round, table) = match destination(&file, &text, default_round) {
            Ok(d) => d,
            Err(why) => {
                line.outcome = BatchOutcome::Refused(format!("No table for {file}: {why}."));
                lines.push(line);
                continue;
            }
        };
        line.round = Some(round);
        line.table = Some(table);
        let (violations, winner, turns) = verdict(&text);
        (line.violations, line.winner, line.turns) = (violations, winner, turns);
        let (round, table) = (RoundNumber(round), TableNumber(table));
        let current = db::results::logs::table_log(&pool, event.id, round, table).await;
        let current = match current {
            Ok(c) => c,
            Err(e) => {
                line.outcome = BatchOutcome::Refused(AppError::from(e).to_string());
                lines.push(line);
                continue;
            }
        };
        let base = current.latest().map_or(Revision::NONE, |r| r.revision);
        if current
            .latest()
            .is_some_and(|r| r.body.trim_end() == text.replace("\r\n", "\n").trim_end())
        {
            line.outcome = BatchOutcome::Unchanged(base.0);
            lines.push(line);
            continue;
        }
        let saved = db::results::logs::save(
            &pool,
            &actor,
            event.id,
            round,
            table,
            db::results::logs::LogEntry {
                body: text,
                base_revision: base,
                reason: Some(format!("batch upload of {file}")),
                source: Some(file.clone()),
            },
        )
        .await;
        line.outcome = match saved {
            Ok(r) => BatchOutcome::Saved(r.0),
            Err(e) => BatchOutcome::Refused(AppError::from(e).to_string()),
        };
        lines.push(line);
    }
    let said: Vec<String> = lines.iter().map(BatchLine::said).collect();
    // A plain form (no browser half) comes back to the page, which says what happened.
    if crate::server::plain_form_post() {
        use leptos::server_fn::ServerFn;
        let message = format!(
            "Verified {n} of {n} file{}",
            if said.len() == 1 { "" } else { "s" },
            n = said.len()
        );
        crate::server::back_with(UploadLogs::url(), &message, &said);
    }
    Ok(BatchSummary { lines, said })
}
