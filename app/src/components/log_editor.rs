//! The judge's log editor: a plain form (a textarea and "Save") that works without JavaScript.
//! With the browser half (`crate::hydration`), the log is re-verified on the server as the judge
//! types (each pause of 150 ms sends the text and the caret), and the server's answer is HTML:
//! the list of problems and the suggestions for the word being typed (factions, territories by
//! code or name, leaders still alive, cards), rendered here by the same components as the page.
//! So neither the engine's verdicts nor the vocabulary are compiled into the wasm: it swaps what
//! the server rendered, and a tap on a suggestion puts its code in place of the word.

use leptos::{prelude::*, server_fn::ServerFn};
use tournament::ids::{Revision, RoundNumber, TableNumber};

use crate::components::field::FormError;
use crate::forms::{DoneNote, PostForm, form_state};
use crate::gamelog::{CheckLogLive, SaveLog};
use crate::replay::{Verification, suggest::Word};

/// The list of problems beside the log, or the all-clear. Each problem links to its line: the
/// saved log's line, or with the browser half in the editor, the line selected in the textarea.
#[component]
pub fn VerificationList(verification: Verification) -> impl IntoView {
    let v = verification;
    let plural = |n: usize| if n == 1 { "" } else { "s" };
    let headline = if !v.readable {
        format!(
            "Not readable as DGN: {} syntax error{}.",
            v.problems.len(),
            plural(v.problems.len())
        )
    } else if v.legal {
        format!(
            "No rule broken in {} turn{}.",
            v.turns,
            plural(v.turns as usize)
        )
    } else {
        format!(
            "{} rule{} broken in {} turn{}.",
            v.problems.len(),
            plural(v.problems.len()),
            v.turns,
            plural(v.turns as usize)
        )
    };
    view! {
        <p role="status" class=if v.legal { "ok" } else { "bad" } data-testid="verdict">{headline}
            {v.winner.clone().map(|w| format!(" Winner: {w}."))}
        </p>
        <ol class="problems" aria-label="Problems in the log">
            {v.problems.into_iter().map(|p| {
                let line = p.line;
                let href = p.rule_href();
                view! {
                    <li data-line=line data-rule=p.rule.clone()>
                        <a href=format!("#L{line}") class="at" data-goto-line=line>{format!("Line {line}, column {}", p.col)}</a>
                        {match (href, p.rule.clone()) {
                            (Some(href), Some(rule)) => view! {
                                " · "<a href=href class="rule-link">{format!("{rule}{}", p.heading.clone().map(|h| format!(" {h}")).unwrap_or_default())}</a>
                            }.into_any(),
                            _ => view! { " · syntax" }.into_any(),
                        }}
                        <p class="message">{p.message.clone()}{p.context.clone().map(|c| format!(" ({c})"))}</p>
                        {(!p.see_also.is_empty()).then(|| {
                            let n = p.see_also.len();
                            view! {
                                <p class="see-also">"See also "
                                    {p.see_also.iter().enumerate().map(|(i, r)| view! {
                                        {if i == 0 { "" } else if i + 1 == n { " and " } else { ", " }}
                                        <a href=format!("/rules/{r}") class="rule-link">{r.clone()}</a>
                                    }).collect_view()}
                                    "."
                                </p>
                            }
                            .into_any()
                        })}
                    </li>
                }
                .into_any()
            }).collect_view()}
        </ol>
        {(!v.not_checked.is_empty()).then(|| view! {
            <p class="hint" id="not-checked-hint">"Not checked by Mentat (deal and bribe terms in words, for the judge):"</p>
            <ul class="not-checked" aria-labelledby="not-checked-hint">
                {v.not_checked.into_iter().map(|(line, text)| view! {
                    <li><a href=format!("#L{line}") class="at" data-goto-line=line>{format!("Line {line}")}</a>" · "{text}</li>
                }).collect_view()}
            </ul>
        }
        .into_any())}
    }
}

/// The suggestions for the word being typed: each a button that puts its code in place of the
/// word (`start`..`end`, in the browser's UTF-16 units of the textarea's value).
#[component]
pub fn Suggestions(prefix: String, start: u32, end: u32, words: Vec<Word>) -> impl IntoView {
    (!words.is_empty()).then(|| {
        view! {
            <p class="hint" id="suggest-hint">{format!("Suggestions for “{prefix}”:")}</p>
            <ul class="suggest-list" aria-labelledby="suggest-hint">
                {words.into_iter().map(|w| view! {
                    <li><button type="button" class="suggestion" data-code=w.code.clone()
                        data-start=start data-end=end>
                        <strong>{w.code.clone()}</strong>" "{w.label.clone()}<span class="hint">{format!(" · {}", w.kind.label())}</span>
                    </button></li>
                }).collect_view()}
            </ul>
        }
    })
}

#[component]
pub fn LogEditor(
    slug: String,
    round: RoundNumber,
    table: TableNumber,
    base_revision: Revision,
    body: String,
    report_final: bool,
    verification: Verification,
) -> impl IntoView {
    let state = form_state(SaveLog::url());
    let error = state.error;
    let reason_message = error.get_untracked().and_then(|e| e.message_for("reason"));
    let log_message = error.get_untracked().and_then(|e| e.message_for("log"));
    view! {
        <div class="log-editor">
            <PostForm action=SaveLog::url() class="log-form">
                <input type="hidden" name="form[slug]" value=slug/>
                <input type="hidden" name="form[round]" value=round.to_string()/>
                <input type="hidden" name="form[table]" value=table.to_string()/>
                <input type="hidden" name="form[base_revision]" value=base_revision.to_string()/>
                <div class="field" class:invalid=log_message.is_some()>
                    <label for="log-body">"Game log (DGN)"</label>
                    <p class="hint" id="log-body-hint">"Paste the log, or write it turn by turn; Mentat checks it as you type. "
                        <a href="/rules">"Rules"</a></p>
                    // `data-live-check`: the browser half sends the text here as the judge types.
                    <textarea id="log-body" name="form[body]" rows="18" spellcheck="false" autocapitalize="off"
                        autocomplete="off" aria-describedby="log-body-hint"
                        aria-invalid=log_message.is_some().then_some("true")
                        data-live-check=CheckLogLive::url()>{body}</textarea>
                    <p class="field-error" role="alert" hidden=log_message.is_none()
                        data-error-for="log" data-control="log-body">{log_message.clone()}</p>
                </div>
                <div class="suggestions" aria-live="polite" data-suggestions=""></div>
                <div class="field" class:invalid=reason_message.is_some()>
                    <label for="log-reason">"Why this change"</label>
                    <p class="hint" id="log-reason-hint">{if report_final {
                        "Required: the report is final, so this is a correction (head judge)."
                    } else {
                        "Needed when saved lines change; not when the log only grows."
                    }}</p>
                    <input id="log-reason" type="text" name="form[reason]" aria-describedby="log-reason-hint"
                        aria-invalid=reason_message.is_some().then_some("true")/>
                    <p class="field-error" role="alert" hidden=reason_message.is_none()
                        data-error-for="reason" data-control="log-reason">{reason_message.clone()}</p>
                </div>
                <FormError error=error/>
                <DoneNote done=state.done/>
                <button type="submit">"Save the log"</button>
            </PostForm>
            <section aria-labelledby="live-check" class="live-check">
                <h3 id="live-check">"Check"</h3>
                <div class="verification" aria-live="polite" data-verification="">
                    <VerificationList verification=verification/>
                </div>
            </section>
        </div>
    }
    .into_any()
}
