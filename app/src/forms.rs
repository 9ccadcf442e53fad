//! Forms that work before the wasm arrives. Every form is a plain `<form method="post">` to its
//! server function, rendered on the server with what its last submission said:
//! - a failed post comes back to the page with the error in the address (Leptos's form
//!   redirects: `__path`, `__err`), and the page shows it at the field;
//! - a successful post comes back with what was done (`done`, `said`, `line`), and the page
//!   says it beside the form, rendered afresh from the database.
//!
//! The browser half enhances every such form with one submit listener (`crate::hydration`): it
//! posts with `fetch`, shows a refusal at the fields without reloading (what was typed stays),
//! and follows the server's answer to a success. No form is an island, so no form's markup or
//! serialisers are compiled into the wasm.

use leptos::prelude::*;

use crate::error::AppError;

/// Address parameters of a success: the action's path, its message, and lines of detail.
pub const DONE: &str = "done";
pub const SAID: &str = "said";
pub const NOTE: &str = "note";
pub const LINE: &str = "line";
/// The id of what a success says on the page (one success at a time), which the address the
/// server sends back to points at, so the page opens there.
pub const DONE_ANCHOR: &str = "done";

/// What a form's last submission said, as the page is rendered.
#[derive(Clone)]
pub struct FormState {
    /// Its refusal, if the last plain post of this form failed.
    pub error: Signal<Option<AppError>>,
    /// What it did, if the last post of this form succeeded.
    pub done: Option<Done>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Done {
    pub message: String,
    /// Sentences said under the message ("Read as tab-separated.").
    pub notes: Vec<String>,
    pub lines: Vec<String>,
}

/// The state of the form that posts to `action` (a server function's `url()`).
pub fn form_state(action: &str) -> FormState {
    FormState {
        error: Signal::stored(error_for(action)),
        done: done_for(action),
    }
}

fn error_for(action: &str) -> Option<AppError> {
    use leptos::server_fn::error::ServerFnUrlError;
    let error = use_context::<leptos::server::ServerActionError>()?;
    (error.path() == action).then(|| ServerFnUrlError::<AppError>::decode_err(error.err()))
}

fn done_for(action: &str) -> Option<Done> {
    let query = leptos_router::hooks::use_query_map();
    let query = query.read_untracked();
    // A refusal came after it (Leptos keeps the rest of the address when it adds the error):
    // the last submission failed, so nothing is said to be done.
    if query.get("__err").is_some() {
        return None;
    }
    (query.get(DONE)? == action).then(|| Done {
        message: query.get(SAID).unwrap_or_default(),
        notes: query.get_all(NOTE).unwrap_or_default(),
        lines: query.get_all(LINE).unwrap_or_default(),
    })
}

/// A form that posts to a server function. `data-enhance` lets the browser half take it over.
#[component]
pub fn PostForm(
    /// The server function's address: `SaveSettings::url()`.
    action: &'static str,
    #[prop(optional, into)] class: Option<String>,
    /// When someone else saved first, post the form plainly so the page shows what they saved
    /// (rather than only saying so at the form).
    #[prop(optional)]
    conflict_plain: bool,
    children: Children,
) -> impl IntoView {
    view! {
        <form method="post" action=action class=class data-enhance=""
            data-conflict-plain=conflict_plain.then_some("")>
            {children()}
        </form>
    }
}

/// What the form's last success did, announced; nothing otherwise.
#[component]
pub fn DoneNote(done: Option<Done>) -> impl IntoView {
    done.map(|d| {
        view! {
            <div class="done" role="status" id=DONE_ANCHOR tabindex="-1">
                <p class="ok">{d.message}</p>
                {d.notes.into_iter().map(|n| view! { <p>{n}</p> }).collect_view()}
                {(!d.lines.is_empty()).then(|| view! {
                    <ul class="done-lines">{d.lines.into_iter().map(|l| view! { <li>{l}</li> }).collect_view()}</ul>
                })}
            </div>
        }
    })
}
