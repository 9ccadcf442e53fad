//! The wasm entry point: hydrates the islands of the HTML the server rendered.

#[wasm_bindgen::prelude::wasm_bindgen]
pub fn hydrate() {
    console_error_panic_hook::set_once();
    app::hydration::hydrate_islands();
}
