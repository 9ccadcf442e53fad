//! Labelled form inputs whose error, if any, sits right under them and is announced. Each
//! error slot names its field (`data-error-for`) and control (`data-control`), so the browser
//! half can fill it without reloading the page (`crate::hydration`).

use leptos::prelude::*;

use crate::error::AppError;

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
            <p class="field-error" id=error_id.clone() role="alert" hidden=move || message().is_none()
                data-error-for=name data-control=id.clone()>
                {message}
            </p>
        </div>
    }
}

/// The form-wide error (anything not about a single field), announced to screen readers; with
/// several problems at once, a summary listing each (each is also shown at its field).
#[component]
pub fn FormError(#[prop(into)] error: Signal<Option<AppError>>) -> impl IntoView {
    let content = move || match error.get() {
        None | Some(AppError::Field { .. }) => None,
        Some(AppError::Fields(list)) => Some(
            view! {
                <p>{fields_summary(list.len())}</p>
                <ul>{list.into_iter().map(|(_, m)| view! { <li>{m}</li> }).collect_view()}</ul>
            }
            .into_any(),
        ),
        Some(other) => Some(view! { <p>{other.to_string()}</p> }.into_any()),
    };
    view! {
        <div class="form-error" role="alert" data-form-error="" hidden=move || content().is_none()>{content}</div>
    }
}

/// The first line of the summary of several problems.
pub fn fields_summary(count: usize) -> String {
    format!(
        "Nothing was saved. Fix {}, also shown at {}:",
        if count == 1 {
            "this problem".to_owned()
        } else {
            format!("these {count} problems")
        },
        if count == 1 {
            "its field"
        } else {
            "their fields"
        }
    )
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
            <p class="field-error" id=error_id.clone() role="alert" hidden=move || message().is_none()
                data-error-for=name data-control=id.clone()>
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
        <p class="field-error" id=format!("field-{name}-error") role="alert" hidden=move || message().is_none()
            data-error-for=name>
            {message}
        </p>
    }
}
