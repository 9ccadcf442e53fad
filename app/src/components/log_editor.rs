//! The judge's log editor: a plain form (a textarea and "Save") that works without JavaScript;
//! with it, the log is re-verified on the server as the judge types (each pause of 150 ms sends
//! the text; the answer replaces the list beside it) and the word being typed gets suggestions
//! (factions, territories by code or name, leaders still alive, cards).

use std::time::Duration;

use leptos::prelude::*;
use tournament::ids::{Revision, RoundNumber, TableNumber};

use crate::components::field::{FormError, last_error};
use crate::gamelog::{SaveLog, check_log};
use crate::replay::{
    Verification,
    suggest::{Vocabulary, suggest, word_at},
};

/// The list of problems beside the log, or the all-clear.
#[component]
pub fn VerificationList(
    #[prop(into)] verification: Signal<Verification>,
    /// Called with a line number when the judge asks to go there (the editor selects it).
    #[prop(optional)]
    on_line: Option<Callback<u32>>,
) -> impl IntoView {
    view! {
        <div class="verification" aria-live="polite">
            {move || {
                let v = verification.get();
                let headline = if !v.readable {
                    format!("Not readable as DGN: {} syntax error{}.", v.problems.len(), if v.problems.len() == 1 { "" } else { "s" })
                } else if v.legal {
                    format!("No rule broken in {} turn{}.", v.turns, if v.turns == 1 { "" } else { "s" })
                } else {
                    format!("{} rule{} broken in {} turn{}.", v.problems.len(), if v.problems.len() == 1 { "" } else { "s" }, v.turns, if v.turns == 1 { "" } else { "s" })
                };
                view! {
                    <p role="status" class=if v.legal { "ok" } else { "bad" } data-testid="verdict">{headline}
                        {v.winner.clone().map(|w| format!(" Winner: {w}."))}
                    </p>
                    <ol class="problems" aria-label="Problems in the log">
                        {v.problems.into_iter().map(|p| {
                            let line = p.line;
                            let href = p.rule_href();
                            let go = move |ev: leptos::ev::MouseEvent| {
                                if let Some(cb) = on_line {
                                    ev.prevent_default();
                                    cb.run(line);
                                }
                            };
                            view! {
                                <li data-line=line data-rule=p.rule.clone()>
                                    <a href=format!("#L{line}") on:click=go class="at">{format!("Line {line}, column {}", p.col)}</a>
                                    {match (href, p.rule.clone()) {
                                        (Some(href), Some(rule)) => view! {
                                            " · "<a href=href class="rule-link">{format!("{rule}{}", p.heading.clone().map(|h| format!(" {h}")).unwrap_or_default())}</a>
                                        }.into_any(),
                                        _ => view! { " · syntax" }.into_any(),
                                    }}
                                    <p class="message">{p.message.clone()}{p.context.clone().map(|c| format!(" ({c})"))}</p>
                                </li>
                            }
                        }).collect_view()}
                    </ol>
                }
            }}
        </div>
    }
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
    vocabulary: Vocabulary,
    alive: Option<Vec<String>>,
    save: ServerAction<SaveLog>,
) -> impl IntoView {
    let text = RwSignal::new(body.clone());
    let caret = RwSignal::new(body.len());
    let checked = RwSignal::new(verification);
    let alive = RwSignal::new(alive);
    let vocabulary = StoredValue::new(vocabulary);
    let pending = StoredValue::new(0u32);
    let area = NodeRef::<leptos::html::Textarea>::new();
    let error = last_error(save.value());
    let reason_message = Memo::new(move |_| error.get().and_then(|e| e.message_for("reason")));
    let log_message = Memo::new(move |_| error.get().and_then(|e| e.message_for("log")));
    let saved = move || {
        save.value()
            .get()
            .and_then(Result::ok)
            .map(|r| format!("Saved as revision {r}."))
    };

    // A pause in typing sends the text to the server; only the newest answer is shown.
    let recheck = move || {
        pending.update_value(|n| *n += 1);
        let mine = pending.get_value();
        set_timeout(
            move || {
                if pending.get_value() != mine {
                    return;
                }
                let t = text.get_untracked();
                leptos::task::spawn_local(async move {
                    if let Ok(c) = check_log(t).await
                        && pending.get_value() == mine
                    {
                        checked.set(c.verification);
                        alive.set(c.alive);
                    }
                });
            },
            Duration::from_millis(150),
        );
    };
    let read_caret = move || {
        if let Some(el) = area.get_untracked() {
            let at = el.selection_start().ok().flatten().unwrap_or(0) as usize;
            // The browser counts UTF-16 units; the text is mostly ASCII, and `word_at` clamps.
            caret.set(at);
        }
    };
    let suggestions = Memo::new(move |_| {
        let t = text.get();
        let (start, prefix) = word_at(&t, caret.get());
        let prefix = prefix.to_owned();
        let words = vocabulary.with_value(|v| {
            alive.with(|a| {
                suggest(v, &prefix, a.as_deref(), 8)
                    .into_iter()
                    .cloned()
                    .collect::<Vec<_>>()
            })
        });
        (start, prefix, words)
    });
    let insert = move |code: String| {
        let (start, prefix, _) = suggestions.get_untracked();
        let mut t = text.get_untracked();
        let end = (start + prefix.len()).min(t.len());
        t.replace_range(start..end, &code);
        let at = start + code.len();
        text.set(t);
        caret.set(at);
        if let Some(el) = area.get_untracked() {
            let _ = el.focus();
            let _ = el.set_selection_range(at as u32, at as u32);
        }
        recheck();
    };
    let go_to_line = Callback::new(move |line: u32| {
        let t = text.get_untracked();
        let start: usize = t
            .split_inclusive('\n')
            .take(line.saturating_sub(1) as usize)
            .map(str::len)
            .sum();
        let end = t[start.min(t.len())..]
            .find('\n')
            .map_or(t.len(), |i| start + i);
        if let Some(el) = area.get_untracked() {
            let _ = el.focus();
            let _ = el.set_selection_range(start as u32, end as u32);
        }
    });

    view! {
        <div class="log-editor">
            <ActionForm action=save attr:class="log-form">
                <input type="hidden" name="form[slug]" value=slug/>
                <input type="hidden" name="form[round]" value=round.to_string()/>
                <input type="hidden" name="form[table]" value=table.to_string()/>
                <input type="hidden" name="form[base_revision]" value=base_revision.to_string()/>
                <div class="field">
                    <label for="log-body">"Game log (DGN)"</label>
                    <p class="hint" id="log-body-hint">"Paste the log, or write it turn by turn; Mentat checks it as you type. "
                        <a href="/rules">"Rules"</a></p>
                    <textarea id="log-body" name="form[body]" rows="18" spellcheck="false" autocapitalize="off"
                        autocomplete="off" aria-describedby="log-body-hint" node_ref=area
                        prop:value=move || text.get()
                        on:input=move |ev| {
                            text.set(event_target_value(&ev));
                            read_caret();
                            recheck();
                        }
                        on:click=move |_| read_caret()
                        on:keyup=move |_| read_caret()
                    >{body}</textarea>
                    <p class="field-error" role="alert" hidden=move || log_message.get().is_none()>{move || log_message.get()}</p>
                </div>
                <div class="suggestions" aria-live="polite">
                    {move || {
                        let (_, prefix, words) = suggestions.get();
                        (!words.is_empty()).then(|| view! {
                            <p class="hint" id="suggest-hint">{format!("Suggestions for “{prefix}”:")}</p>
                            <ul class="suggest-list" aria-labelledby="suggest-hint">
                                {words.into_iter().map(|w| {
                                    let code = w.code.clone();
                                    view! {
                                        <li><button type="button" class="suggestion" on:click=move |_| insert(code.clone())>
                                            <strong>{w.code.clone()}</strong>" "{w.label.clone()}<span class="hint">{format!(" · {}", w.kind.label())}</span>
                                        </button></li>
                                    }
                                }).collect_view()}
                            </ul>
                        })
                    }}
                </div>
                <div class="field">
                    <label for="log-reason">"Why this change"</label>
                    <p class="hint" id="log-reason-hint">{if report_final {
                        "Required: the report is final, so this is a correction (head judge)."
                    } else {
                        "Needed when saved lines change; not when the log only grows."
                    }}</p>
                    <input id="log-reason" type="text" name="form[reason]" aria-describedby="log-reason-hint"/>
                    <p class="field-error" role="alert" hidden=move || reason_message.get().is_none()>{move || reason_message.get()}</p>
                </div>
                <FormError error=error/>
                <p role="status" class="saved">{saved}</p>
                <button type="submit">"Save the log"</button>
            </ActionForm>
            <section aria-labelledby="live-check" class="live-check">
                <h3 id="live-check">"Check"</h3>
                <VerificationList verification=checked on_line=go_to_line/>
            </section>
        </div>
    }
    .into_any()
}
