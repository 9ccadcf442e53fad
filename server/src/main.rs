//! The `mentat` binary. All of the work lives in the library so tests can start it too.

fn main() -> std::process::ExitCode {
    server::cli::main()
}
