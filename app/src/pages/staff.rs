//! An event's staff: who holds which role, granting and removing roles (organisers only).

use leptos::{prelude::*, server_fn::ServerFn};
use leptos_meta::Title;
use tournament::ids::UserId;

use crate::{
    components::field::{Field, FormError},
    events::{GrantRole, RevokeRole, event_staff},
    forms::{PostForm, form_state},
    pages::params::slug_param,
};

#[component]
pub fn StaffPage() -> impl IntoView {
    let slug = slug_param();
    let staff = Resource::new(move || slug.get(), event_staff);
    view! {
        <Title text="Staff and roles"/>
        <main class="page">
            <p><a href=move || format!("/events/{}", slug.get())>"← Back to the event"</a></p>
            <h1>"Staff and roles"</h1>
            <p>"Scripts get an API token instead of an account: "
                <a href=move || crate::pages::organise::tokens_path(&slug.get()) rel="external">"make or revoke API tokens"</a>"."</p>
            <Suspense fallback=|| view! { <p>"Loading…"</p> }>
                {move || Suspend::new(async move {
                    match staff.await {
                        Ok(rows) => view! {
                            <div data-form-errors="">
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
                                                <td><RevokeForm slug=slug.get_untracked() user_id=r.user_id label=label/></td>
                                            </tr>
                                        }
                                    }).collect_view()}
                                </tbody>
                            </table>
                            <FormError error=form_state(RevokeRole::url()).error/>
                            </div>
                        }.into_any(),
                        Err(e) => view! { <p role="alert">{e.to_string()}</p> }.into_any(),
                    }
                })}
            </Suspense>
            <section aria-labelledby="grant">
                <h2 id="grant">"Give someone a role"</h2>
                <GrantForm slug=slug.get_untracked()/>
            </section>
        </main>
    }
}

#[component]
fn RevokeForm(slug: String, user_id: UserId, label: String) -> impl IntoView {
    view! {
        <PostForm action=RevokeRole::url() class="inline">
            <input type="hidden" name="slug" value=slug/>
            <input type="hidden" name="user_id" value=user_id.to_string()/>
            <button type="submit" aria-label=label>"Remove"</button>
        </PostForm>
    }
}

#[component]
fn GrantForm(slug: String) -> impl IntoView {
    let error = form_state(GrantRole::url()).error;
    view! {
        <PostForm action=GrantRole::url()>
            <input type="hidden" name="slug" value=slug/>
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
        </PostForm>
    }
}
