//! `cargo run -p engine --example replay -- FILE [--json] [--parse-only] [--report] [--public]`:
//! the engine's report without the `mentat` binary (`--public`: the published log, hidden
//! information unchecked).

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(path) = args.iter().find(|a| !a.starts_with("--")) else {
        eprintln!("usage: replay FILE [--json] [--parse-only]");
        std::process::exit(2);
    };
    let src = match std::fs::read_to_string(path) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(2);
        }
    };
    if args.iter().any(|a| a == "--report") {
        let (outcome, report) = engine::report::report_text(&src);
        eprint!("{}", outcome.to_human());
        match report {
            Some(Ok(json)) => println!("{json}"),
            Some(Err(why)) => eprintln!("no game report: {why}"),
            None => {}
        }
        std::process::exit(outcome.exit_code());
    }
    let outcome = if args.iter().any(|a| a == "--parse-only") {
        engine::report::parse_only_text(&src)
    } else if args.iter().any(|a| a == "--public") {
        engine::report::replay_text_with(&src, &engine::replay::ReplayOptions::public())
    } else {
        engine::report::replay_text(&src)
    };
    if args.iter().any(|a| a == "--json") {
        println!("{}", outcome.to_json());
    } else {
        print!("{}", outcome.to_human());
    }
    std::process::exit(outcome.exit_code());
}
