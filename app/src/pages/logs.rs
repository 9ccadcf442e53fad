//! Batch upload of game logs (`/events/<slug>/logs?round=N`): an organiser picks many `.dgn`
//! files or a zip of them; each goes to its table by its `[Round]`/`[Table]` tags or its name,
//! is saved as a revision when it changed, and is verified. Without JavaScript it is a plain
//! multipart form the server answers with a line per file; with the browser half
//! (`crate::hydration`), files go one per request under a progress bar, a line per file says
//! what happened, and the round's table is loaded again at the end. Below, every table of the
//! round with a log: result, violations, link.

use leptos::prelude::*;
use leptos::server_fn::ServerFn;
use leptos_router::hooks::use_query_map;
use tournament::ids::RoundNumber;

use crate::{
    components::{field::FormError, title::EventTitle},
    forms::{Done, form_state},
    gamelog::{RoundLogList, UploadLogs, round_logs},
    pages::{dashboard::RunNav, params::slug_param},
};

#[component]
pub fn LogsPage() -> impl IntoView {
    let slug = slug_param();
    let query = use_query_map();
    let round = Memo::new(move |_| {
        RoundNumber(
            query
                .read()
                .get("round")
                .and_then(|r| r.parse().ok())
                .unwrap_or(1),
        )
    });
    let data = Resource::new(
        move || (slug.get(), round.get()),
        |(slug, round)| round_logs(slug, round),
    );
    let state = form_state(UploadLogs::url());
    view! {
        <EventTitle page="Game logs" slug=slug/>
        <main class="page logs-page">
            <RunNav slug=slug/>
            <h1>"Game logs"</h1>
            <UploadForm slug=slug.get_untracked() round=round.get_untracked() error=state.error/>
            <BatchResult done=state.done/>
            <Suspense fallback=|| view! { <p>"Loading the round's logs…"</p> }>
                {move || Suspend::new(async move {
                    match data.await {
                        Ok(d) => view! { <RoundTable d=d/> }.into_any(),
                        Err(e) => view! { <p role="alert">{e.to_string()}</p> }.into_any(),
                    }
                })}
            </Suspense>
        </main>
    }
}

/// `data-batch`: the browser half sends the chosen files one per request (see the module).
#[component]
fn UploadForm(
    slug: String,
    round: RoundNumber,
    error: Signal<Option<crate::error::AppError>>,
) -> impl IntoView {
    let files_message = error.get_untracked().and_then(|e| e.message_for("files"));
    view! {
        <form method="post" action=UploadLogs::url() enctype="multipart/form-data" class="upload" data-batch="">
            <input type="hidden" name="slug" value=slug/>
            <div class="field">
                <label for="upload-round">"Round"</label>
                <p class="hint" id="upload-round-hint">"For files that do not name their round with a [Round \"n\"] tag or in their name (r2-t5.dgn)."</p>
                <input id="upload-round" name="round" type="number" min="1" inputmode="numeric"
                    value=round.to_string() aria-describedby="upload-round-hint"/>
            </div>
            <div class="field" class:invalid=files_message.is_some()>
                <label for="upload-files">"Game logs"</label>
                <p class="hint" id="upload-files-hint">"Several .dgn files, or a .zip of them. Each goes to the table its [Table \"n\"] tag or its name (table-5.dgn, r2-t5.dgn) says."</p>
                <input id="upload-files" name="files" type="file" multiple=true accept=".dgn,.txt,.zip"
                    aria-describedby="upload-files-hint" aria-invalid=files_message.is_some().then_some("true")/>
                <p class="field-error" role="alert" hidden=files_message.is_none()
                    data-error-for="files" data-control="upload-files">{files_message.clone()}</p>
            </div>
            <FormError error=error/>
            <button type="submit">"Upload and verify"</button>
        </form>
    }
}

/// What the last upload did: after a plain post, from the server's answer; with the browser
/// half, the section is shown and filled file by file (`data-batch-result`).
#[component]
fn BatchResult(done: Option<Done>) -> impl IntoView {
    let (label, total, lines) = match done {
        Some(d) => (d.message, d.lines.len(), d.lines),
        None => (String::new(), 0, Vec::new()),
    };
    let nothing = lines.is_empty();
    view! {
        <section aria-labelledby="batch" data-batch-result="" hidden=nothing>
            <h2 id="batch">"This upload"</h2>
            <label for="batch-progress">{label}</label>
            <progress id="batch-progress" max=total.to_string() value=total.to_string()>{format!("{total}/{total}")}</progress>
            <ul class="batch-lines">
                {lines.into_iter().map(|l| view! { <li>{l}</li> }).collect_view()}
            </ul>
        </section>
    }
}

#[component]
fn RoundTable(d: RoundLogList) -> impl IntoView {
    let rows = d
        .lines
        .iter()
        .map(|l| {
            let href = format!("/events/{}/rounds/{}/tables/{}/log", d.slug, d.round, l.table);
            view! {
                <tr data-table=l.table.to_string()>
                    <th scope="row"><a href=href>{format!("Table {}", l.table)}</a></th>
                    <td>{l.winner.clone().unwrap_or_else(|| if l.turns > 0 { format!("no winner (turn {})", l.turns) } else { "—".into() })}</td>
                    <td class="num" data-testid="violations">{match l.violations { None => "not DGN".to_owned(), Some(n) => n.to_string() }}</td>
                    <td class="num">{l.revision.to_string()}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <section aria-labelledby="round-logs" data-round-logs="">
            <h2 id="round-logs">{format!("Round {} · logs saved", d.round)}</h2>
            {if d.lines.is_empty() {
                view! { <p>"No table of this round has a log yet."</p> }.into_any()
            } else {
                view! {
                    <table tabindex="0" class="compact">
                        <thead><tr><th scope="col">"Table"</th><th scope="col">"Result"</th><th scope="col" class="num">"Violations"</th><th scope="col" class="num">"Revision"</th></tr></thead>
                        <tbody>{rows}</tbody>
                    </table>
                }.into_any()
            }}
        </section>
    }
}
