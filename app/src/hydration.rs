//! The browser half. Mentat renders every page on the server; the wasm only enhances it:
//! - every `<form data-enhance>` (`crate::forms::PostForm`) is taken over by one submit
//!   listener: it posts with `fetch`, shows a refusal at the fields without a reload, so what
//!   was typed stays, and follows the server's answer to a success;
//! - the islands (`#[island]`) are the few parts that live in the browser: the pages that follow
//!   a table by themselves, the projector's pages, and the mark that the page is live;
//! - the table clocks tick from the markup the server rendered ([`clocks`]), so a clock that the
//!   live updates swap into the page (`public/live-parts.js`) ticks as well;
//! - the replay desk's live parts are listeners on the server's markup ([`desk`]): the log
//!   editor's check and suggestions as the judge types (HTML the server renders), the board's
//!   turn slider (boards already on the page), and the batch upload's progress.
//!
//! Until the wasm has loaded (or without JavaScript), the same forms are plain posts that the
//! server answers with a redirect back to the page (`crate::forms`).

/// Called once by the wasm entry point (`frontend`).
pub fn hydrate_islands() {
    #[cfg(feature = "hydrate")]
    {
        leptos::mount::hydrate_islands();
        enhance::listen();
        desk::listen();
        clocks::tick();
        show_current_run_link();
    }
}

/// On a phone the judges' links are one row that scrolls sideways (`pages::dashboard::RunNav`):
/// the page shown is scrolled into view, so "Game logs" is not hidden past the edge on its own
/// page.
#[cfg(feature = "hydrate")]
fn show_current_run_link() {
    use wasm_bindgen::JsCast;
    let Ok(Some(link)) = leptos::prelude::document().query_selector(".run-nav [aria-current]")
    else {
        return;
    };
    let (Some(link), Ok(Some(row))) = (link.dyn_ref::<web_sys::HtmlElement>(), link.closest("ul"))
    else {
        return;
    };
    // The row is the link's offset parent (`position: relative` in the stylesheet).
    let overflow = row.scroll_width() > row.client_width();
    if overflow {
        let centre = link.offset_left() - (row.client_width() - link.offset_width()) / 2;
        row.set_scroll_left(centre.max(0));
    }
}

/// Every table clock on the page (`components::clock::TickingClock`'s markup), ticked twice a
/// second from the stored instants and the server's time written into it. A clock first seen
/// now (the page's own, or one the live updates swapped in) is timed from now: its `data-now`
/// is the server's time when it was rendered.
#[cfg(feature = "hydrate")]
mod clocks {
    use leptos::prelude::*;
    use tournament::{Clock, clock::format_hms};

    use crate::components::clock::state_text;

    pub fn tick() {
        update();
        // The page's clocks tick as long as it is open: the handle is never cleared.
        let _ = set_interval_with_handle(update, std::time::Duration::from_millis(500));
    }

    fn update() {
        let browser_now = js_sys::Date::now() as i64;
        let Some(root) = document().document_element() else {
            return;
        };
        for face in super::enhance::all(&root, ".clock[data-clock]") {
            let Some(clock) = face
                .get_attribute("data-clock")
                .and_then(|c| serde_json::from_str::<Clock>(&c).ok())
            else {
                continue;
            };
            let Some(server_now) = face
                .get_attribute("data-now")
                .and_then(|n| n.parse::<i64>().ok())
            else {
                continue;
            };
            let seen = match face
                .get_attribute("data-seen")
                .and_then(|s| s.parse::<i64>().ok())
            {
                Some(seen) => seen,
                None => {
                    let _ = face.set_attribute("data-seen", &browser_now.to_string());
                    browser_now
                }
            };
            let reading = clock.read(server_now + (browser_now - seen).max(0));
            let _ = face.set_attribute("data-phase", reading.phase.code());
            let flag = |name: &str, on: bool| {
                let _ = if on {
                    face.set_attribute(name, "true")
                } else {
                    face.remove_attribute(name)
                };
            };
            flag("data-paused", reading.paused);
            flag("data-stopped", reading.stopped);
            let set_text = |selector: &str, text: String| {
                if let Ok(Some(part)) = face.query_selector(selector)
                    && part.text_content().as_deref() != Some(text.as_str())
                {
                    part.set_text_content(Some(&text));
                }
            };
            set_text(".clock-time", format_hms(reading.remaining_ms));
            set_text(".clock-state", state_text(&clock, &reading));
        }
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
            if ev.default_prevented() {
                return;
            }
            if form.has_attribute("data-batch") {
                super::desk::upload(&ev, &form);
                return;
            }
            if !form.has_attribute("data-enhance") {
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
                // The same page again (a success said on it, `#done`): a new address would
                // only scroll, so the page is loaded afresh, scrolled where it was.
                let location = window().location();
                let here = format!(
                    "{}{}",
                    location.pathname().unwrap_or_default(),
                    location.search().unwrap_or_default()
                );
                if path.split('#').next() == Some(here.as_str()) {
                    let _ = location.reload();
                } else {
                    let _ = location.set_href(&path);
                }
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

    pub(super) enum Answer {
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

    pub(super) fn all(root: &Element, selector: &str) -> Vec<Element> {
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

/// The judge's replay desk in the browser: listeners on the markup the server rendered
/// (`components::log_editor`, `components::board`, `pages::logs`), no islands, so no view code.
#[cfg(feature = "hydrate")]
mod desk {
    use std::cell::Cell;
    use std::time::Duration;

    use leptos::prelude::*;
    use wasm_bindgen::{JsCast, JsValue, closure::Closure};
    use wasm_bindgen_futures::JsFuture;
    use web_sys::{
        Element, Event, FormData, HtmlFormElement, HtmlInputElement, HtmlTemplateElement,
        HtmlTextAreaElement, RequestInit, SubmitEvent, UrlSearchParams,
    };

    use super::enhance::all;
    use crate::error::AppError;

    thread_local! {
        /// The newest live check asked for: only its answer is shown.
        static ASKED: Cell<u32> = const { Cell::new(0) };
    }

    pub fn listen() {
        on("input", |ev: Event| {
            let Some(target) = ev.target() else { return };
            if let Some(area) = target.dyn_ref::<HtmlTextAreaElement>()
                && area.has_attribute("data-live-check")
            {
                check_soon(area.clone());
            } else if let Some(slider) = target.dyn_ref::<HtmlInputElement>()
                && slider.has_attribute("data-turn-slider")
            {
                show_turn(slider);
            }
        });
        // The caret moved: the suggestions follow the word it is in.
        for kind in ["click", "keyup"] {
            on(kind, |ev: Event| {
                if let Some(area) = ev
                    .target()
                    .and_then(|t| t.dyn_into::<HtmlTextAreaElement>().ok())
                    && area.has_attribute("data-live-check")
                {
                    check_soon(area);
                }
            });
        }
        on("click", |ev: Event| {
            let Some(el) = ev.target().and_then(|t| t.dyn_into::<Element>().ok()) else {
                return;
            };
            let Some(area) = editor_area(&el) else { return };
            if let Ok(Some(button)) = el.closest("button[data-code]") {
                ev.prevent_default();
                insert(&area, &button);
            } else if let Ok(Some(link)) = el.closest("[data-verification] a[data-goto-line]") {
                ev.prevent_default();
                let line = link
                    .get_attribute("data-goto-line")
                    .and_then(|l| l.parse().ok())
                    .unwrap_or(1);
                select_line(&area, line);
            }
        });
    }

    fn on(kind: &str, f: impl Fn(Event) + 'static) {
        let listener = Closure::<dyn Fn(Event)>::new(f);
        let _ =
            document().add_event_listener_with_callback(kind, listener.as_ref().unchecked_ref());
        // Listeners live as long as the page.
        listener.forget();
    }

    /// The textarea of the editor `el` sits in.
    fn editor_area(el: &Element) -> Option<HtmlTextAreaElement> {
        el.closest(".log-editor")
            .ok()
            .flatten()?
            .query_selector("textarea[data-live-check]")
            .ok()
            .flatten()?
            .dyn_into()
            .ok()
    }

    fn in_editor(area: &HtmlTextAreaElement, selector: &str) -> Option<Element> {
        area.closest(".log-editor")
            .ok()
            .flatten()?
            .query_selector(selector)
            .ok()
            .flatten()
    }

    /// A pause of 150 ms in typing sends the text; an answer to an older text is dropped.
    fn check_soon(area: HtmlTextAreaElement) {
        let mine = ASKED.with(|a| {
            a.set(a.get().wrapping_add(1));
            a.get()
        });
        set_timeout(
            move || {
                if ASKED.with(Cell::get) != mine {
                    return;
                }
                leptos::task::spawn_local(async move {
                    if let Ok(answer) = check(&area).await
                        && ASKED.with(Cell::get) == mine
                    {
                        if let Some(list) = in_editor(&area, "[data-verification]") {
                            list.set_inner_html(&answer.verification);
                        }
                        if let Some(words) = in_editor(&area, "[data-suggestions]") {
                            words.set_inner_html(&answer.suggestions);
                        }
                    }
                });
            },
            Duration::from_millis(150),
        );
    }

    /// `gamelog::LiveCheck`: the server's HTML for the two places.
    struct LiveCheck {
        verification: String,
        suggestions: String,
    }

    async fn check(area: &HtmlTextAreaElement) -> Result<LiveCheck, JsValue> {
        let url = area.get_attribute("data-live-check").unwrap_or_default();
        let caret = area.selection_start().ok().flatten().unwrap_or(0);
        let body = UrlSearchParams::new()?;
        body.append("text", &area.value());
        body.append("caret", &caret.to_string());
        let answer = js_sys::JSON::parse(&post(&url, &body.into()).await?.1)?;
        Ok(LiveCheck {
            verification: field(&answer, "verification")
                .as_string()
                .unwrap_or_default(),
            suggestions: field(&answer, "suggestions")
                .as_string()
                .unwrap_or_default(),
        })
    }

    /// A field of a JSON answer, read by the browser's own JSON (no deserialiser in the wasm
    /// for answers that are only strings).
    fn field(answer: &JsValue, name: &str) -> JsValue {
        js_sys::Reflect::get(answer, &JsValue::from_str(name)).unwrap_or(JsValue::UNDEFINED)
    }

    /// Posts `body` asking for the server function's JSON: whether it succeeded, and its text.
    async fn post(url: &str, body: &JsValue) -> Result<(bool, String), JsValue> {
        let init = RequestInit::new();
        init.set_method("POST");
        init.set_body(body);
        let request = web_sys::Request::new_with_str_and_init(url, &init)?;
        request.headers().set("Accept", "application/json")?;
        let response: web_sys::Response = JsFuture::from(window().fetch_with_request(&request))
            .await?
            .dyn_into()?;
        let text = JsFuture::from(response.text()?)
            .await?
            .as_string()
            .unwrap_or_default();
        Ok((response.ok(), text))
    }

    /// A suggestion's code in place of the word being typed, the caret after it.
    fn insert(area: &HtmlTextAreaElement, button: &Element) {
        let number = |name: &str| {
            button
                .get_attribute(name)
                .and_then(|v| v.parse::<u32>().ok())
                .unwrap_or(0)
        };
        let code = button.get_attribute("data-code").unwrap_or_default();
        let _ = area.set_range_text_with_start_and_end_and_mode(
            &code,
            number("data-start"),
            number("data-end"),
            "end",
        );
        let _ = area.focus();
        check_soon(area.clone());
    }

    /// Selects line `line` (from 1) of the textarea, so the judge sees the problem's place.
    fn select_line(area: &HtmlTextAreaElement, line: usize) {
        let text = area.value();
        let units = |s: &str| s.encode_utf16().count() as u32;
        let mut start = 0;
        let mut end = units(&text);
        for (i, l) in text.split_inclusive('\n').enumerate() {
            if i + 1 == line {
                end = start + units(l.trim_end_matches('\n'));
                break;
            }
            start += units(l);
        }
        let _ = area.focus();
        let _ = area.set_selection_range(start, end.max(start));
    }

    /// The board of the turn the slider names, from its `<template data-turn>` on the page.
    fn show_turn(slider: &HtmlInputElement) {
        let Ok(Some(section)) = slider.closest("section") else {
            return;
        };
        let turn = slider.value();
        let Some(template) = section
            .query_selector(&format!("template[data-turn=\"{turn}\"]"))
            .ok()
            .flatten()
            .and_then(|t| t.dyn_into::<HtmlTemplateElement>().ok())
        else {
            return;
        };
        let Ok(Some(shown)) = section.query_selector("[data-board-shown]") else {
            return;
        };
        let Ok(board) = template.content().clone_node_with_deep(true) else {
            return;
        };
        shown.set_inner_html("");
        let _ = shown.append_child(&board);
        let label = template.get_attribute("data-label").unwrap_or_default();
        let _ = slider.set_attribute("aria-valuetext", &label);
        if let Ok(Some(output)) = section.query_selector("output[for=turn]") {
            output.set_text_content(Some(&label));
        }
    }

    /// The batch upload: one request per file, so the bar moves as each is verified; then the
    /// round's list of logs is loaded again. Without files chosen, the form posts plainly (the
    /// server says what is missing at the field).
    pub fn upload(ev: &SubmitEvent, form: &HtmlFormElement) {
        let Some(input) = form
            .query_selector("input[type=file]")
            .ok()
            .flatten()
            .and_then(|i| i.dyn_into::<HtmlInputElement>().ok())
        else {
            return;
        };
        let Some(list) = input.files() else { return };
        let files: Vec<web_sys::File> = (0..list.length()).filter_map(|i| list.get(i)).collect();
        if files.is_empty() {
            return;
        }
        ev.prevent_default();
        let form = form.clone();
        leptos::task::spawn_local(async move {
            let Ok(Some(result)) = document().query_selector("[data-batch-result]") else {
                return;
            };
            let total = files.len();
            let said = |done: usize| {
                format!(
                    "Verified {done} of {total} file{}",
                    if total == 1 { "" } else { "s" }
                )
            };
            let label = result.query_selector("label").ok().flatten();
            let bar = result.query_selector("progress").ok().flatten();
            let lines = result.query_selector("ul").ok().flatten();
            let progress = |done: usize| {
                if let Some(label) = &label {
                    label.set_text_content(Some(&said(done)));
                }
                if let Some(bar) = &bar {
                    let _ = bar.set_attribute("max", &total.to_string());
                    let _ = bar.set_attribute("value", &done.to_string());
                    bar.set_text_content(Some(&format!("{done}/{total}")));
                }
            };
            if let Some(lines) = &lines {
                lines.set_inner_html("");
            }
            progress(0);
            let _ = result.remove_attribute("hidden");
            let _ = form.set_attribute("aria-busy", "true");
            for (i, file) in files.iter().enumerate() {
                let sent = send(&form, file).await;
                let texts = match sent {
                    Ok(texts) => texts,
                    Err(why) => vec![format!("{}: not saved: {why}", file.name())],
                };
                if let Some(lines) = &lines {
                    for text in texts {
                        if let Ok(li) = document().create_element("li") {
                            li.set_text_content(Some(&text));
                            let _ = lines.append_child(&li);
                        }
                    }
                }
                progress(i + 1);
            }
            let _ = form.set_attribute("aria-busy", "false");
            reload_round_logs().await;
        });
    }

    /// One file with the form's other fields; the server's line for it, or why it failed.
    async fn send(form: &HtmlFormElement, file: &web_sys::File) -> Result<Vec<String>, String> {
        let failed = |e: JsValue| {
            e.as_string()
                .unwrap_or_else(|| "no answer from the server".into())
        };
        let data = FormData::new().map_err(failed)?;
        for field in all(form, "input[type=hidden], input[type=number]") {
            if let Ok(input) = field.dyn_into::<HtmlInputElement>() {
                let _ = data.append_with_str(&input.name(), &input.value());
            }
        }
        data.append_with_blob_and_filename("files", file, &file.name())
            .map_err(failed)?;
        let (ok, text) = post(&form.action(), &data.into()).await.map_err(failed)?;
        if ok {
            // `gamelog::BatchSummary::said`: what the server said of each file.
            let said = js_sys::JSON::parse(&text)
                .map(|answer| field(&answer, "said"))
                .map_err(failed)?;
            Ok(js_sys::Array::from(&said)
                .iter()
                .filter_map(|line| line.as_string())
                .collect())
        } else {
            Err(serde_json::from_str::<AppError>(&text)
                .map_or_else(|_| "the server refused it".to_owned(), |e| e.to_string()))
        }
    }

    /// The round's list of logs as the server now renders it, in place of the one on the page.
    async fn reload_round_logs() {
        let fetched = async {
            let page = window().location().href()?;
            let response: web_sys::Response = JsFuture::from(window().fetch_with_str(&page))
                .await?
                .dyn_into()?;
            let html = JsFuture::from(response.text()?).await?.as_string();
            Ok::<_, JsValue>(html.unwrap_or_default())
        };
        let Ok(html) = fetched.await else { return };
        let Ok(parser) = web_sys::DomParser::new() else {
            return;
        };
        let Ok(fresh) = parser.parse_from_string(&html, web_sys::SupportedType::TextHtml) else {
            return;
        };
        if let (Ok(Some(new)), Ok(Some(old))) = (
            fresh.query_selector("[data-round-logs]"),
            document().query_selector("[data-round-logs]"),
        ) {
            old.set_inner_html(&new.inner_html());
        }
    }
}
