//! The event's settings: name, dates, venue, public address, ruleset, ruling options, rounds and
//! finals seats.

use leptos::{prelude::*, server_fn::ServerFn};
use leptos_meta::Title;

use crate::{
    components::{
        field::{Field, FormError},
        rule_link::RuleLink,
    },
    events::{SaveSettings, SettingsView, get_settings},
    forms::{DoneNote, PostForm, form_state},
    pages::{dashboard::RunNav, params::slug_param},
};

#[component]
pub fn SettingsPage() -> impl IntoView {
    let slug = slug_param();
    let settings = Resource::new(move || slug.get(), get_settings);
    view! {
        <main class="page narrow">
            <RunNav slug=slug/>
            <h1>"Event settings"</h1>
            <Suspense fallback=|| view! { <p>"Loading…"</p> }>
                {move || Suspend::new(async move {
                    match settings.await {
                        Ok(s) => view! {
                            <Title text=format!("Settings · {}", s.name)/>
                            <SettingsDesk s=s/>
                        }.into_any(),
                        Err(e) => view! { <Title text="Event settings"/><p role="alert">{e.to_string()}</p> }.into_any(),
                    }
                })}
            </Suspense>
        </main>
    }
}

/// The form, filled from the settings as saved (with their version, for the stale-page check).
#[component]
fn SettingsDesk(s: SettingsView) -> impl IntoView {
    let state = form_state(SaveSettings::url());
    view! {
        <SettingsForm s=s error=state.error/>
        <DoneNote done=state.done/>
    }
}

fn option(value: &'static str, label: &'static str, current: &str) -> impl IntoView + use<> {
    let selected = current == value;
    view! { <option value=value selected=selected>{label}</option> }
}

#[component]
fn SettingsForm(s: SettingsView, error: Signal<Option<crate::error::AppError>>) -> impl IntoView {
    let message = move |name: &'static str| move || error.get().and_then(|e| e.message_for(name));
    let locked = s.rounds_drawn > 0;
    view! {
        <PostForm action=SaveSettings::url()>
            <input type="hidden" name="slug" value=s.slug.clone()/>
            <input type="hidden" name="version" value=s.version/>
            <Field label="Event name" name="name" required=true value=s.name.clone() error=error/>
            <Field label="First day" name="starts_on" kind="date" value=s.starts_on.clone() error=error/>
            <Field label="Last day" name="ends_on" kind="date" value=s.ends_on.clone() error=error/>
            <Field label="Venue" name="venue" value=s.venue.clone() hint="Where the event is played, e.g. Hall D, Indiana Convention Center." error=error/>
            <div class="field">
                <label for="field-ruleset">"Ruleset"</label>
                {locked.then(|| view! { <p class="hint" id="field-ruleset-hint">"Fixed: a round is drawn."</p> })}
                <select id="field-ruleset" name="ruleset">
                    {option("gc-2.13.3", "gc-2.13.3: GenCon tournament rulebook, six classic factions", &s.ruleset)}
                    {option("full", "full: full rulebook, thirteen factions", &s.ruleset)}
                </select>
                <p class="field-error" role="alert" data-error-for="ruleset" data-control="field-ruleset" hidden=move || message("ruleset")().is_none()>{message("ruleset")}</p>
            </div>
            <Field label="Qualifying rounds" name="qualifying_rounds" kind="number" value=s.qualifying_rounds.to_string() error=error/>
            <Field label="Finals seats" name="finals_seats" kind="number" value=s.finals_seats.to_string() hint="How many players the final table seats, 2 to 6; 6 by default." error=error/>
            <Field label="Public address" name="public_url" value=s.public_url.clone()
                hint="Where phones in the hall reach Mentat, for the QR codes on the dashboard and on paper: https://mentat.example.org, or this computer's address on the hall's network such as http://192.168.1.20:3000. Empty: the server's MENTAT_PUBLIC_URL, else the address this page was opened at."
                error=error/>
            <fieldset>
                <legend>"Where the rules leave a choice"</legend>
                <div class="field">
                    <label for="field-table_fallback">"Player count with no tables of 6 and 5"</label>
                    <p class="hint">"Tables are of 6 and 5 players ("<RuleLink number="4.01.01"/>"); some counts cannot be split so."</p>
                    <select id="field-table_fallback" name="table_fallback">
                        {option("ask", "Ask the head judge each time (default)", &s.table_fallback)}
                        {option("four_player_tables", "Allow 4-player tables", &s.table_fallback)}
                        {option("alternates", "Seat alternates", &s.table_fallback)}
                        {option("byes", "Give byes", &s.table_fallback)}
                    </select>
                    <p class="field-error" role="alert" data-error-for="table_fallback" data-control="field-table_fallback" hidden=move || message("table_fallback")().is_none()>{message("table_fallback")}</p>
                </div>
                <div class="field">
                    <label for="field-five_player_empty_circle">"Empty place at a 5-player table"</label>
                    <p class="hint">"Places at the board are counted 0 to 5 counterclockwise from the storm start; seat 1 sits at place 1, next to Tuek's Sietch ("<RuleLink number="0.07"/>")."</p>
                    <select id="field-five_player_empty_circle" name="five_player_empty_circle">
                        {[0u8, 2, 3, 4, 5].into_iter().map(|c| view! {
                            <option value=c.to_string() selected={c == s.five_player_empty_circle}>
                                {if c == 0 { "Place 0, at the storm start (default)".to_owned() } else { format!("Place {c}") }}
                            </option>
                        }).collect_view()}
                    </select>
                    <p class="field-error" role="alert" data-error-for="five_player_empty_circle" data-control="field-five_player_empty_circle" hidden=move || message("five_player_empty_circle")().is_none()>{message("five_player_empty_circle")}</p>
                </div>
                <div class="field">
                    <label for="field-final_seating">"Seating the final table"</label>
                    <select id="field-final_seating" name="final_seating">
                        {option("drawn", "Seats drawn and factions dealt, as in a round (default)", &s.final_seating)}
                        {option("qualifying_order", "Finalists choose seat and faction in qualifying order", &s.final_seating)}
                    </select>
                    <p class="field-error" role="alert" data-error-for="final_seating" data-control="field-final_seating" hidden=move || message("final_seating")().is_none()>{message("final_seating")}</p>
                </div>
                <div class="field">
                    <label for="field-shield_wall">"Shield Wall"</label>
                    <p class="hint">"Counts as a stronghold once the fourth worm has appeared ("<RuleLink number="4.02"/>"): the reports' strongholds are checked against five or six."</p>
                    <select id="field-shield_wall" name="shield_wall">
                        {option("on", "A stronghold from the fourth worm, as GenCon plays (default)", &s.shield_wall)}
                        {option("off", "Not a stronghold", &s.shield_wall)}
                    </select>
                    <p class="field-error" role="alert" data-error-for="shield_wall" data-control="field-shield_wall" hidden=move || message("shield_wall")().is_none()>{message("shield_wall")}</p>
                </div>
                <div class="field">
                    <label for="field-adjudication_deadlock">"Adjudication tied after every value"</label>
                    <p class="hint">"A game stopped by the clock is decided by win attempts, then strongholds, forces, spice, cards and leaders ("<RuleLink number="4.01.09"/>")."</p>
                    <select id="field-adjudication_deadlock" name="adjudication_deadlock">
                        {option("all_survivors", "Every survivor wins (default)", &s.adjudication_deadlock)}
                        {option("judge_draw", "The head judge draws one", &s.adjudication_deadlock)}
                    </select>
                    <p class="field-error" role="alert" data-error-for="adjudication_deadlock" data-control="field-adjudication_deadlock" hidden=move || message("adjudication_deadlock")().is_none()>{message("adjudication_deadlock")}</p>
                </div>
            </fieldset>
            <fieldset>
                <legend>"Test event"</legend>
                <Field label="Rehearsal clock (minutes per table)" name="rehearsal_minutes" kind="number"
                    value=s.rehearsal_minutes.clone()
                    hint="Only for a rehearsal before the real day: every table's clock runs this many minutes (1 to 120) instead of an hour per player, and the finish window as long (at most 30 minutes), so a clock can be seen to run out. Leave it empty for a real event."
                    error=error/>
            </fieldset>
            <FormError error=error/>
            <button type="submit">"Save settings"</button>
        </PostForm>
    }
}
