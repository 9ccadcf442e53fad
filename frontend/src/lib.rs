//! The wasm entry point: hydrates the HTML the server rendered.

// Leptos pages are deeply nested types; laying out the hydration futures of the bigger pages
// (players, rounds) goes past the default depth of 128.
#![recursion_limit = "256"]

#[wasm_bindgen::prelude::wasm_bindgen]
pub fn hydrate() {
    console_error_panic_hook::set_once();
    leptos::mount::hydrate_body(app::App);
}
