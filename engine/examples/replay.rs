//! `cargo run -p engine --example replay -- game.dgn [--public] [--json] [--parse-only] [--report]`:
//! the engine alone, without building the server (`mentat replay` does the same with the whole
//! stack; `--public`: the published log, hidden information unchecked).

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(path) = args.iter().find(|a| !a.starts_with("--")) else {
        eprintln!("usage: replay game.dgn [--public] [--json] [--parse-only] [--report]");
        std::process::exit(2);
    };
    let src = match std::fs::read_to_string(path) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(2);
        }
    };
    let flag = |f: &str| args.iter().any(|a| a == f);
    if flag("--report") {
        let (outcome, report) = engine::report::report_text(&src);
        print!("{}", outcome.to_human());
        match report {
            Some(Ok(json)) => println!("{json}"),
            Some(Err(why)) => println!("no report: {why}"),
            None => {}
        }
        std::process::exit(outcome.exit_code());
    }
    if flag("--parse-only") {
        let outcome = engine::report::parse_only_text(&src);
        if flag("--json") {
            println!("{}", outcome.to_json());
        } else {
            print!("{}", outcome.to_human());
        }
        std::process::exit(outcome.exit_code());
    }
    let opts = if flag("--public") {
        engine::replay::ReplayOptions::public()
    } else {
        engine::replay::ReplayOptions::default()
    };
    let outcome = engine::report::replay_text_with(&src, &opts);
    if flag("--json") {
        println!("{}", outcome.to_json());
    } else {
        print!("{}", outcome.to_human());
    }
    std::process::exit(outcome.exit_code());
}
