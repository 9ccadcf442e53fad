//! The round page's controls for the whole room: start every table's clock at one instant,
//! pause them all (a fire alarm) and resume them all (4.01.08). Plain forms; the page comes
//! back saying which tables changed and which were left as they were, and why.

use leptos::{prelude::*, server_fn::ServerFn};
use tournament::ids::RoundNumber;

use crate::{
    clocks::RoomClocks,
    components::field::FormError,
    forms::{DoneNote, PostForm, form_state},
};

#[component]
pub fn RoomControls(slug: String, number: RoundNumber) -> impl IntoView {
    let state = form_state(RoomClocks::url());
    let button = |command: &'static str, label: &'static str, class: &'static str| {
        let slug = slug.clone();
        view! {
            <PostForm action=RoomClocks::url() class="inline">
                <input type="hidden" name="slug" value=slug/>
                <input type="hidden" name="number" value=number.to_string()/>
                <input type="hidden" name="command" value=command/>
                <button type="submit" class=class>{label}</button>
            </PostForm>
        }
    };
    view! {
        <section class="room-clocks" aria-labelledby="room-clocks" data-form-errors="">
            <h2 id="room-clocks">"Every table's clock"</h2>
            <p class="hint">"One instant for the whole room; tables already running, paused or final are left as they are."</p>
            <div class="button-row">
                {button("start", "Start all clocks", "")}
                {button("pause", "Pause all clocks", "secondary")}
                {button("resume", "Resume all clocks", "secondary")}
            </div>
            <FormError error=state.error/>
            <DoneNote done=state.done/>
        </section>
    }
}
