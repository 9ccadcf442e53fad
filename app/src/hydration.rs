//! The browser half. Mentat renders every page on the server; the wasm only enhances it:
//! - every `<form data-enhance>` (`crate::forms::PostForm`) is taken over by one submit
//!   listener: it posts with `fetch`, shows a refusal at the fields without a reload, so what
//!   was typed stays, and follows the server's answer to a success;
//! - the islands (`#[island]`) are the few parts that live in the browser: the ticking table
//!   clocks, the pages that follow a table by themselves, the home page's calculator, and the
//!   mark that the page is live.
//!
//! Until the wasm has loaded (or without JavaScript), the same forms are plain posts that the
//! server answers with a redirect back to the page (`crate::forms`).

/// Called once by the wasm entry point (`frontend`).
pub fn hydrate_islands() {
    #[cfg(feature = "hydrate")]
    {
        leptos::mount::hydrate_islands();
        enhance::listen();
    }
}

#[cfg(feature = "hydrate")]
mod enhance {
    use leptos::prelude::*;
    use wasm_bindgen::{JsCast, JsValue, closure::Closure};
    use wasm_bindgen_futures::JsFuture;
    use web_sys::{Element, FormData, HtmlFormElement, RequestInit, SubmitEvent, UrlSearchParams};

    use crate::{components::field::fields_summary, error::AppError};

    /// One listener on the document serves every form, those of islands included.
    pub fn listen() {
        let on_submit = Closure::<dyn Fn(SubmitEvent)>::new(|ev: SubmitEvent| {
            let Some(form) = ev
                .target()
                .and_then(|t| t.dyn_into::<HtmlFormElement>().ok())
            else {
                return;
            };
            if ev.default_prevented() || !form.has_attribute("data-enhance") {
                return;
            }
            ev.prevent_default();
            leptos::task::spawn_local(submit(form));
        });
        let _ = document()
            .add_event_listener_with_callback("submit", on_submit.as_ref().unchecked_ref());
        // The listener lives as long as the page.
        on_submit.forget();
    }

    async fn submit(form: HtmlFormElement) {
        set_busy(&form, true);
        match post(&form).await {
            Ok(Answer::GoTo(path)) => {
                let _ = window().location().set_href(&path);
            }
            // The server did not say where to go: show the page anew.
            Ok(Answer::Done) => {
                let _ = window().location().reload();
            }
            // Someone saved first: a form that shows what they saved (the report's "Saved
            // meanwhile") is posted plainly, so the server renders the page with it.
            Ok(Answer::Refused(AppError::Conflict(_)))
                if form.has_attribute("data-conflict-plain") =>
            {
                let _ = form.submit();
            }
            Ok(Answer::Refused(error)) => {
                set_busy(&form, false);
                show(&form, &error);
            }
            Err(_) => {
                set_busy(&form, false);
                show(
                    &form,
                    &AppError::Transport("no answer from the server".into()),
                );
            }
        }
    }

    enum Answer {
        GoTo(String),
        Done,
        Refused(AppError),
    }

    /// The form's fields, posted as the browser would post them, but asking for the server
    /// function's own answer (JSON) rather than a redirect.
    async fn post(form: &HtmlFormElement) -> Result<Answer, JsValue> {
        let data = FormData::new_with_form(form)?;
        let body = UrlSearchParams::new_with_str_sequence_sequence(&data)?;
        let init = RequestInit::new();
        init.set_method("POST");
        init.set_body(&body);
        let request = web_sys::Request::new_with_str_and_init(&form.action(), &init)?;
        request.headers().set("Accept", "application/json")?;
        let response: web_sys::Response = JsFuture::from(window().fetch_with_request(&request))
            .await?
            .dyn_into()?;
        let headers = response.headers();
        if headers.has("serverfnredirect")?
            && let Some(path) = headers.get("location")?
        {
            return Ok(Answer::GoTo(path));
        }
        if response.ok() {
            return Ok(Answer::Done);
        }
        let text = JsFuture::from(response.text()?)
            .await?
            .as_string()
            .unwrap_or_default();
        Ok(Answer::Refused(serde_json::from_str(&text).unwrap_or_else(
            |_| AppError::Transport(format!("HTTP {}", response.status())),
        )))
    }

    fn set_busy(form: &HtmlFormElement, busy: bool) {
        let _ = form.set_attribute("aria-busy", if busy { "true" } else { "false" });
        for button in all(form, "button[type=submit]") {
            if busy {
                let _ = button.set_attribute("disabled", "");
            } else {
                let _ = button.remove_attribute("disabled");
            }
        }
    }

    fn all(root: &Element, selector: &str) -> Vec<Element> {
        let Ok(list) = root.query_selector_all(selector) else {
            return Vec::new();
        };
        (0..list.length())
            .filter_map(|i| list.item(i)?.dyn_into::<Element>().ok())
            .collect()
    }

    /// The refusal where the server would have rendered it: each field's message in its slot
    /// (`data-error-for`), its control marked invalid, and the form-wide message or summary.
    fn show(form: &HtmlFormElement, error: &AppError) {
        for slot in all(form, "[data-error-for]") {
            let _ = slot.set_attribute("hidden", "");
            slot.set_text_content(None);
        }
        for control in all(form, "[aria-invalid]") {
            let _ = control.remove_attribute("aria-invalid");
        }
        for field in all(form, ".field.invalid") {
            let _ = field.class_list().remove_1("invalid");
        }
        let problems: Vec<(String, String)> = match error {
            AppError::Field { field, message } => vec![(field.clone(), message.clone())],
            AppError::Fields(list) => list.clone(),
            _ => Vec::new(),
        };
        let mut first = None;
        for (field, message) in &problems {
            let Ok(Some(slot)) = form.query_selector(&format!("[data-error-for=\"{field}\"]"))
            else {
                continue;
            };
            slot.set_text_content(Some(message));
            let _ = slot.remove_attribute("hidden");
            if let Ok(Some(field)) = slot.closest(".field") {
                let _ = field.class_list().add_1("invalid");
            }
            if let Some(control) = slot
                .get_attribute("data-control")
                .and_then(|id| document().get_element_by_id(&id))
            {
                let _ = control.set_attribute("aria-invalid", "true");
                first.get_or_insert(control);
            }
        }
        let placed = |field: &str| {
            form.query_selector(&format!("[data-error-for=\"{field}\"]"))
                .ok()
                .flatten()
                .is_some()
        };
        // The form-wide slot: the message of anything not about a field, a summary of several
        // problems, or a field's message when the form has no slot for that field.
        let summary: Vec<String> = match error {
            AppError::Fields(list) => list.iter().map(|(_, m)| m.clone()).collect(),
            AppError::Field { field, message } if !placed(field) => vec![message.clone()],
            AppError::Field { .. } => Vec::new(),
            other => vec![other.to_string()],
        };
        let slot = form
            .query_selector("[data-form-error]")
            .ok()
            .flatten()
            .or_else(|| {
                // A one-button form (a row's check-in) shares the slot of its page section.
                form.closest("[data-form-errors]")
                    .ok()
                    .flatten()
                    .and_then(|s| s.query_selector("[data-form-error]").ok().flatten())
            });
        if let Some(slot) = slot {
            slot.set_text_content(None);
            if summary.is_empty() {
                let _ = slot.set_attribute("hidden", "");
            } else {
                let doc = document();
                let lead = doc.create_element("p").ok();
                if let (Some(p), AppError::Fields(list)) = (&lead, error) {
                    p.set_text_content(Some(&fields_summary(list.len())));
                    let _ = slot.append_child(p);
                    if let Ok(ul) = doc.create_element("ul") {
                        for m in &summary {
                            if let Ok(li) = doc.create_element("li") {
                                li.set_text_content(Some(m));
                                let _ = ul.append_child(&li);
                            }
                        }
                        let _ = slot.append_child(&ul);
                    }
                } else if let Some(p) = lead {
                    p.set_text_content(Some(&summary.join(" ")));
                    let _ = slot.append_child(&p);
                }
                let _ = slot.remove_attribute("hidden");
            }
        }
        // Keyboard and screen-reader users land on the first control to fix.
        if let Some(control) = first.and_then(|c| c.dyn_into::<web_sys::HtmlElement>().ok()) {
            let _ = control.focus();
        }
    }
}
