//! Batch upload of game logs (`/events/<slug>/logs?round=N`): an organiser picks many `.dgn`
//! files or a zip of them; each goes to its table by its `[Round]`/`[Table]` tags or its name,
//! is saved as a revision when it changed, and is verified. Without JavaScript it is a plain
//! multipart form; with it, files go one per request under a progress bar, and a line per file
//! says what happened. Below, every table of the round with a log: result, violations, link.

use leptos::prelude::*;
use leptos::server_fn::ServerFn;
use leptos_router::hooks::use_query_map;
use tournament::ids::RoundNumber;

use crate::{
    gamelog::{RoundLogList, UploadLogs, round_logs},
    pages::{dashboard::RunNav, params::slug_param},
    replay::batch::{BatchLine, BatchOutcome},
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
    let uploaded = RwSignal::new(Vec::<BatchLine>::new());
    let progress = RwSignal::new((0usize, 0usize));
    let changes = RwSignal::new(0u32);
    let data = Resource::new(
        move || (slug.get(), round.get(), changes.get()),
        |(slug, round, _)| round_logs(slug, round),
    );
    view! {
        <main class="page logs-page">
            <RunNav slug=slug/>
            <h1>"Game logs"</h1>
            <UploadForm slug=slug round=round uploaded=uploaded progress=progress changes=changes/>
            <BatchResult uploaded=uploaded progress=progress/>
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

#[component]
fn UploadForm(
    slug: Memo<String>,
    round: Memo<RoundNumber>,
    uploaded: RwSignal<Vec<BatchLine>>,
    progress: RwSignal<(usize, usize)>,
    changes: RwSignal<u32>,
) -> impl IntoView {
    let input = NodeRef::<leptos::html::Input>::new();
    // With JavaScript: one request per file, so the bar moves as each is verified.
    let submit = move |ev: leptos::ev::SubmitEvent| {
        #[cfg(feature = "hydrate")]
        {
            use leptos::wasm_bindgen::JsCast;
            let Some(el) = input.get_untracked() else {
                return;
            };
            let el: &web_sys::HtmlInputElement = el.unchecked_ref();
            let Some(list) = el.files() else { return };
            let files: Vec<web_sys::File> =
                (0..list.length()).filter_map(|i| list.get(i)).collect();
            if files.is_empty() {
                return;
            }
            ev.prevent_default();
            uploaded.set(Vec::new());
            progress.set((0, files.len()));
            let (slug, round) = (slug.get_untracked(), round.get_untracked());
            leptos::task::spawn_local(async move {
                for (i, file) in files.into_iter().enumerate() {
                    let Ok(form) = web_sys::FormData::new() else {
                        break;
                    };
                    let _ = form.append_with_str("slug", &slug);
                    let _ = form.append_with_str("round", &round.to_string());
                    let _ = form.append_with_blob_and_filename("files", &file, &file.name());
                    match crate::gamelog::upload_logs(form.into()).await {
                        Ok(summary) => uploaded.update(|u| u.extend(summary.lines)),
                        Err(e) => uploaded.update(|u| {
                            u.push(BatchLine {
                                file: file.name(),
                                round: None,
                                table: None,
                                outcome: BatchOutcome::Refused(e.to_string()),
                                violations: None,
                                winner: None,
                                turns: 0,
                            })
                        }),
                    }
                    progress.set((i + 1, progress.get_untracked().1));
                }
                changes.update(|n| *n += 1);
            });
        }
        #[cfg(not(feature = "hydrate"))]
        {
            let _ = (&ev, input, uploaded, progress, changes);
        }
    };
    view! {
        <form method="post" action=UploadLogs::url() enctype="multipart/form-data" class="upload" on:submit=submit>
            <input type="hidden" name="slug" value=move || slug.get()/>
            <div class="field">
                <label for="upload-round">"Round"</label>
                <p class="hint" id="upload-round-hint">"For files that do not name their round with a [Round \"n\"] tag or in their name (r2-t5.dgn)."</p>
                <input id="upload-round" name="round" type="number" min="1" inputmode="numeric"
                    value=move || round.get().to_string() aria-describedby="upload-round-hint"/>
            </div>
            <div class="field">
                <label for="upload-files">"Game logs"</label>
                <p class="hint" id="upload-files-hint">"Several .dgn files, or a .zip of them. Each goes to the table its [Table \"n\"] tag or its name (table-5.dgn, r2-t5.dgn) says."</p>
                <input id="upload-files" name="files" type="file" multiple=true accept=".dgn,.txt,.zip"
                    node_ref=input aria-describedby="upload-files-hint"/>
            </div>
            <button type="submit">"Upload and verify"</button>
        </form>
    }
}

#[component]
fn BatchResult(
    uploaded: RwSignal<Vec<BatchLine>>,
    progress: RwSignal<(usize, usize)>,
) -> impl IntoView {
    move || {
        let (done, total) = progress.get();
        (total > 0).then(|| {
            let lines = uploaded.get();
            view! {
                <section aria-labelledby="batch">
                    <h2 id="batch">"This upload"</h2>
                    <label for="batch-progress">{format!("Verified {done} of {total} file{}", if total == 1 { "" } else { "s" })}</label>
                    <progress id="batch-progress" max=total.to_string() value=done.to_string()>{format!("{done}/{total}")}</progress>
                    <ul class="batch-lines">
                        {lines.into_iter().map(|l| {
                            let outcome = match &l.outcome {
                                BatchOutcome::Saved(r) => format!("saved as revision {r}"),
                                BatchOutcome::Unchanged(r) => format!("unchanged (revision {r})"),
                                BatchOutcome::Refused(why) => format!("not saved: {}", why.trim_end_matches('.')),
                            };
                            let verdict = match l.violations {
                                None => "not readable as DGN".to_owned(),
                                Some(0) => "no violation".to_owned(),
                                Some(n) => format!("{n} violation{}", if n == 1 { "" } else { "s" }),
                            };
                            let place = match (l.round, l.table) {
                                (Some(r), Some(t)) => format!("round {r}, table {t}: "),
                                _ => String::new(),
                            };
                            view! { <li>{format!("{}: {place}{outcome}; {verdict}", l.file)}{l.winner.map(|w| format!("; winner {w}"))}</li> }
                        }).collect_view()}
                    </ul>
                </section>
            }
        })
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
        <section aria-labelledby="round-logs">
            <h2 id="round-logs">{format!("Round {} · logs saved", d.round)}</h2>
            {if d.lines.is_empty() {
                view! { <p>"No table of this round has a log yet."</p> }.into_any()
            } else {
                view! {
                    <table class="compact">
                        <thead><tr><th scope="col">"Table"</th><th scope="col">"Result"</th><th scope="col" class="num">"Violations"</th><th scope="col" class="num">"Revision"</th></tr></thead>
                        <tbody>{rows}</tbody>
                    </table>
                }.into_any()
            }}
        </section>
    }
}
