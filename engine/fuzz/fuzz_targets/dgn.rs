//! Any bytes: parsing never panics, and whatever parses replays, reports and derives its game
//! report without panicking; every error and every violation stands at a line of the log.
#![no_main]

use engine::report::Outcome;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let src = String::from_utf8_lossy(data);
    let _ = engine::report::parse_only(&src);
    let outcome = engine::report::replay_text(&src);
    let lines = src.split('\n').count() as u32;
    match &outcome {
        Outcome::Unreadable(errs) => {
            for e in &errs.0 {
                assert!(
                    e.pos.line >= 1 && e.pos.line <= lines.max(1),
                    "error line {}",
                    e.pos.line
                );
            }
        }
        Outcome::Replayed(r) => {
            for v in &r.violations {
                assert!(
                    v.pos.line >= 1 && v.pos.line <= lines.max(1),
                    "violation line {}",
                    v.pos.line
                );
            }
        }
        Outcome::Parsed(_) => {}
    }
    let _ = outcome.to_human();
    let _ = outcome.to_json();
    let public = engine::report::replay_text_with(&src, &engine::replay::ReplayOptions::public());
    let _ = public.exit_code();
    let _ = engine::report::report_text(&src);
});
