//! Audit logs: an event's (organisers) and the site's security log (administrators).

use leptos::prelude::*;
use leptos_meta::Title;

use crate::{
    components::title::EventTitle,
    error::AppError,
    events::{AuditRow, event_audit, security_audit},
    pages::params::slug_param,
};

#[component]
pub fn EventAuditPage() -> impl IntoView {
    let slug = slug_param();
    let rows = Resource::new(move || slug.get(), event_audit);
    view! {
        <EventTitle page="Audit log" slug=slug/>
        <main class="page">
            <p><a href=move || format!("/events/{}", slug.get())>"← Back to the event"</a></p>
            <h1>"Audit log"</h1>
            <Suspense fallback=|| view! { <p>"Loading…"</p> }>
                {move || Suspend::new(async move { audit_table(rows.await) })}
            </Suspense>
        </main>
    }
}

#[component]
pub fn SecurityAuditPage() -> impl IntoView {
    let rows = Resource::new(|| (), |_| security_audit());
    view! {
        <Title text="Security log"/>
        <main class="page">
            <h1>"Security log"</h1>
            <p>"Sign-ins, failed sign-ins and new accounts, newest first."</p>
            <Suspense fallback=|| view! { <p>"Loading…"</p> }>
                {move || Suspend::new(async move { audit_table(rows.await) })}
            </Suspense>
        </main>
    }
}

fn audit_table(rows: Result<Vec<AuditRow>, AppError>) -> AnyView {
    match rows {
        Ok(rows) => view! {
            <table tabindex="0" class="audit stack">
                <caption>"Newest first"</caption>
                <thead><tr>
                    <th scope="col">"When"</th><th scope="col">"What happened"</th>
                    <th scope="col">"Recorded as"</th>
                </tr></thead>
                <tbody>
                    {rows.into_iter().map(|r| {
                        let raw = [r.action.clone(), r.subject.clone(), r.detail.clone()]
                            .into_iter()
                            .filter(|s| !s.is_empty())
                            .collect::<Vec<_>>()
                            .join(" · ");
                        view! {
                            <tr><td class="when">{r.at}</td><td class="what">{r.sentence}</td>
                                <td class="raw" data-label="Recorded as">{raw}</td></tr>
                        }
                    }).collect_view()}
                </tbody>
            </table>
        }
        .into_any(),
        Err(e) => view! { <p role="alert">{e.to_string()}</p> }.into_any(),
    }
}
