//! Any bytes: parsing never panics, and whatever parses replays, reports and derives its game
//! report without panicking.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let src = String::from_utf8_lossy(data);
    let _ = engine::report::parse_only(&src);
    let outcome = engine::report::replay_text(&src);
    let _ = outcome.to_human();
    let _ = outcome.to_json();
    let public = engine::report::replay_text_with(&src, &engine::replay::ReplayOptions::public());
    let _ = public.exit_code();
    let _ = engine::report::report_text(&src);
});
