//! Labelled form inputs whose error, if any, sits right under them and is announced.

use leptos::prelude::*;

use crate::error::AppError;

/// The error an action returned, if its last run failed.
pub fn last_error<T, S>(value: S) -> Signal<Option<AppError>>
where
    T: Clone + Send + Sync + 'static,
    S: Get<Value = Option<Result<T, AppError>>> + Send + Sync + 'static,
{
    Signal::derive(move || value.get().and_then(|r| r.err()))
}

/// Counts the successful runs of actions: a resource keyed on the count refetches after a change
/// but not after a refused one, which would re-render the form and wipe what was typed.
pub fn count_successes<T, E, S>(value: S, counter: RwSignal<u32>)
where
    T: Send + Sync + 'static,
    E: Send + Sync + 'static,
    S: With<Value = Option<Result<T, E>>> + 'static,
{
    Effect::new(move |_| {
        if value.with(|v| matches!(v, Some(Ok(_)))) {
            counter.update(|n| *n += 1);
        }
    });
}

#[component]
pub fn Field(
    /// The visible label.
    label: &'static str,
    /// The form field's name, which is also the server function's argument.
    name: &'static str,
    #[prop(default = "text")] kind: &'static str,
    #[prop(optional)] autocomplete: Option<&'static str>,
    #[prop(optional)] required: bool,
    #[prop(optional)] hint: Option<&'static str>,
    #[prop(optional, into)] value: Option<String>,
    /// The input's id when a page repeats the form (one per table): `field-<name>` otherwise.
    #[prop(optional, into)]
    id: Option<String>,
    /// The error of the form's last submission.
    #[prop(into)]
    error: Signal<Option<AppError>>,
) -> impl IntoView {
    let id = id.unwrap_or_else(|| format!("field-{name}"));
    let error_id = format!("{id}-error");
    let hint_id = format!("{id}-hint");
    let message = move || error.get().and_then(|e| e.message_for(name));
    let described = {
        let error_id = error_id.clone();
        let hint_id = hint_id.clone();
        move || {
            let mut ids = Vec::new();
            if hint.is_some() {
                ids.push(hint_id.clone());
            }
            if message().is_some() {
                ids.push(error_id.clone());
            }
            (!ids.is_empty()).then(|| ids.join(" "))
        }
    };
    view! {
        <div class="field" class:invalid=move || message().is_some()>
            <label for=id.clone()>{label}</label>
            {hint.map(|h| view! { <p class="hint" id=hint_id.clone()>{h}</p> })}
            <input
                id=id.clone()
                name=name
                type=kind
                autocomplete=autocomplete
                required=required
                value=value
                aria-invalid=move || message().is_some().then_some("true")
                aria-describedby=described
            />
            <p class="field-error" id=error_id.clone() role="alert" hidden=move || message().is_none()>
                {message}
            </p>
        </div>
    }
}

/// The form-wide error (anything not about a single field), announced to screen readers.
#[component]
pub fn FormError(#[prop(into)] error: Signal<Option<AppError>>) -> impl IntoView {
    let text = move || match error.get() {
        Some(AppError::Field { .. } | AppError::Fields(_)) | None => None,
        Some(other) => Some(other.to_string()),
    };
    // Several problems at once: a summary listing each, as well as the message at each field.
    let summary = move || match error.get() {
        Some(AppError::Fields(list)) => Some(view! {
            <div class="form-error" role="alert">
                <p>{format!("Nothing was saved. Fix {}, also shown at {}:", if list.len() == 1 { "this problem".to_owned() } else { format!("these {} problems", list.len()) }, if list.len() == 1 { "its field" } else { "their fields" })}</p>
                <ul>{list.into_iter().map(|(_, m)| view! { <li>{m}</li> }).collect_view()}</ul>
            </div>
        }),
        _ => None,
    };
    view! {
        <p class="form-error" role="alert" hidden=move || text().is_none()>{text}</p>
        {summary}
    }
}

/// A labelled multi-line input, with its error under it like [`Field`].
#[component]
pub fn TextArea(
    label: &'static str,
    name: &'static str,
    #[prop(optional)] hint: Option<&'static str>,
    #[prop(optional)] required: bool,
    #[prop(default = 4)] rows: u32,
    #[prop(into)] error: Signal<Option<AppError>>,
) -> impl IntoView {
    let id = format!("field-{name}");
    let error_id = format!("{id}-error");
    let hint_id = format!("{id}-hint");
    let message = move || error.get().and_then(|e| e.message_for(name));
    let described = {
        let error_id = error_id.clone();
        let hint_id = hint_id.clone();
        move || {
            let mut ids = Vec::new();
            if hint.is_some() {
                ids.push(hint_id.clone());
            }
            if message().is_some() {
                ids.push(error_id.clone());
            }
            (!ids.is_empty()).then(|| ids.join(" "))
        }
    };
    view! {
        <div class="field" class:invalid=move || message().is_some()>
            <label for=id.clone()>{label}</label>
            {hint.map(|h| view! { <p class="hint" id=hint_id.clone()>{h}</p> })}
            <textarea
                id=id.clone()
                name=name
                rows=rows
                required=required
                aria-invalid=move || message().is_some().then_some("true")
                aria-describedby=described
            ></textarea>
            <p class="field-error" id=error_id.clone() role="alert" hidden=move || message().is_none()>
                {message}
            </p>
        </div>
    }
}

/// The error of one named form part that is not a single input (a group of radio buttons or
/// check boxes), shown where the part is.
#[component]
pub fn PartError(
    name: &'static str,
    #[prop(into)] error: Signal<Option<AppError>>,
) -> impl IntoView {
    let message = move || error.get().and_then(|e| e.message_for(name));
    view! {
        <p class="field-error" id=format!("field-{name}-error") role="alert" hidden=move || message().is_none()>
            {message}
        </p>
    }
}
