//! An event's staff: who holds which role, granting and removing roles (organisers only).

use leptos::prelude::*;

use crate::{
    components::field::{Field, FormError, last_error},
    events::{GrantRole, RevokeRole, event_staff},
    pages::params::slug_param,
};

#[component]
pub fn StaffPage() -> impl IntoView {
    let slug = slug_param();
    let grant = ServerAction::<GrantRole>::new();
    let revoke = ServerAction::<RevokeRole>::new();
    let staff = Resource::new(
        move || (slug.get(), grant.version().get(), revoke.version().get()),
        |(slug, _, _)| event_staff(slug),
    );
    let error = last_error(grant.value());
    let revoke_error = last_error(revoke.value());
    view! {
        <main class="page">
            <p><a href=move || format!("/events/{}", slug.get())>"← Back to the event"</a></p>
            <h1>"Staff and roles"</h1>
            <p>"Scripts get an API token instead of an account: "
                <a href=move || crate::pages::organise::tokens_path(&slug.get()) rel="external">"make or revoke API tokens"</a>"."</p>
            <Suspense fallback=|| view! { <p>"Loading…"</p> }>
                {move || Suspend::new(async move {
                    match staff.await {
                        Ok(rows) => view! {
                            <table>
                                <caption>"People with a role in this event"</caption>
                                <thead><tr><th scope="col">"User"</th><th scope="col">"Role"</th><th scope="col">"Remove"</th></tr></thead>
                                <tbody>
                                    {rows.into_iter().map(|r| {
                                        let label = format!("Remove {}'s role", r.username);
                                        view! {
                                            <tr>
                                                <td>{r.username.clone()}</td>
                                                <td>{r.role.clone()}</td>
                                                <td>
                                                    <ActionForm action=revoke attr:class="inline">
                                                        <input type="hidden" name="slug" value=slug.get_untracked()/>
                                                        <input type="hidden" name="user_id" value=r.user_id.to_string()/>
                                                        <button type="submit" aria-label=label>"Remove"</button>
                                                    </ActionForm>
                                                </td>
                                            </tr>
                                        }
                                    }).collect_view()}
                                </tbody>
                            </table>
                            <FormError error=revoke_error/>
                        }.into_any(),
                        Err(e) => view! { <p role="alert">{e.to_string()}</p> }.into_any(),
                    }
                })}
            </Suspense>
            <section aria-labelledby="grant">
                <h2 id="grant">"Give someone a role"</h2>
                <ActionForm action=grant>
                    <input type="hidden" name="slug" value=move || slug.get()/>
                    <Field label="User name" name="username" required=true error=error/>
                    <div class="field">
                        <label for="field-role">"Role"</label>
                        <select id="field-role" name="role">
                            <option value="judge">"Judge"</option>
                            <option value="head_judge">"Head judge"</option>
                            <option value="organiser">"Organiser"</option>
                            <option value="player">"Player"</option>
                        </select>
                    </div>
                    <FormError error=error/>
                    <button type="submit">"Give role"</button>
                </ActionForm>
            </section>
        </main>
    }
}
