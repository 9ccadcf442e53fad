//! Real processes for the fault tests: a PostgreSQL cluster of the test's own (so it can be
//! stopped and started under load) and `mentat serve` instances (so they can be killed).

use std::{
    net::{SocketAddr, TcpListener},
    path::{Path, PathBuf},
    process::{Child, Command, Stdio},
    time::{Duration, Instant},
};

fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions and cannot fail.
    unsafe { libc_geteuid() == 0 }
}

unsafe extern "C" {
    #[link_name = "geteuid"]
    fn libc_geteuid() -> u32;
}

pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

fn pg_bin() -> PathBuf {
    let mut versions: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .expect("PostgreSQL is installed (script/test installs it)")
        .filter_map(|e| e.ok().map(|e| e.path().join("bin")))
        .filter(|p| p.join("pg_ctl").exists())
        .collect();
    versions.sort();
    versions.pop().expect("a PostgreSQL version with pg_ctl")
}

/// A PostgreSQL cluster in a temporary folder, on a free port, trusting local connections.
pub struct Cluster {
    root: PathBuf,
    bin: PathBuf,
    pub port: u16,
}

impl Cluster {
    fn command(&self, program: &str) -> Command {
        let path = self.bin.join(program);
        let mut command = if is_root() {
            let mut c = Command::new("runuser");
            c.args(["-u", "postgres", "--"]).arg(path);
            c
        } else {
            Command::new(path)
        };
        command.current_dir("/");
        command
    }

    fn data(&self) -> PathBuf {
        self.root.join("data")
    }

    pub fn log(&self) -> PathBuf {
        self.root.join("logs")
    }

    pub fn new() -> Cluster {
        let root = std::env::temp_dir().join(format!(
            "mentat-faults-{}-{}",
            std::process::id(),
            free_port()
        ));
        std::fs::create_dir_all(root.join("data")).expect("temporary folder");
        std::fs::create_dir_all(root.join("logs")).expect("log folder");
        let cluster = Cluster {
            root,
            bin: pg_bin(),
            port: free_port(),
        };
        if is_root() {
            let status = Command::new("chown")
                .args(["-R", "postgres:postgres"])
                .arg(&cluster.root)
                .status()
                .expect("chown");
            assert!(status.success());
            let _ = Command::new("chmod").arg("755").arg(&cluster.root).status();
        }
        let out = cluster
            .command("initdb")
            .arg("-D")
            .arg(cluster.data())
            .args([
                "-U",
                "mentat",
                "--auth=trust",
                "--no-sync",
                "--encoding=UTF8",
                "--locale=C.UTF-8",
            ])
            .output()
            .expect("initdb");
        assert!(
            out.status.success(),
            "initdb: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        cluster.start();
        cluster
    }

    pub fn start(&self) {
        let options = format!(
            "-c listen_addresses=127.0.0.1 -c port={} -c unix_socket_directories='' -c fsync=off -c max_connections=300",
            self.port
        );
        let out = self
            .command("pg_ctl")
            .arg("-D")
            .arg(self.data())
            .arg("-l")
            .arg(self.log().join("postgres.log"))
            .args(["-o", &options, "-w", "-t", "60", "start"])
            .output()
            .expect("pg_ctl start");
        assert!(
            out.status.success(),
            "pg_ctl start: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    /// A fast shutdown: connections are cut, as when PostgreSQL is restarted under load.
    pub fn stop(&self) {
        let _ = self
            .command("pg_ctl")
            .arg("-D")
            .arg(self.data())
            .args(["-m", "fast", "-w", "-t", "60", "stop"])
            .output();
    }

    pub fn url(&self, database: &str) -> String {
        format!("postgres://mentat@127.0.0.1:{}/{database}", self.port)
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let _ = self
            .command("pg_ctl")
            .arg("-D")
            .arg(self.data())
            .args(["-m", "immediate", "-w", "stop"])
            .output();
        let _ = std::fs::remove_dir_all(&self.root);
    }
}

/// `mentat serve` as a child process.
pub struct Mentat {
    child: Option<Child>,
    pub addr: SocketAddr,
    database_url: String,
    log: PathBuf,
}

impl Mentat {
    pub fn bin() -> &'static str {
        env!("CARGO_BIN_EXE_mentat")
    }

    /// Starts an instance on a free port and waits until it answers /healthz.
    pub async fn start(database_url: &str, logs: &Path) -> Mentat {
        let addr: SocketAddr = format!("127.0.0.1:{}", free_port())
            .parse()
            .expect("address");
        let log = logs.join(format!("mentat-{}.log", addr.port()));
        let mut mentat = Mentat {
            child: None,
            addr,
            database_url: database_url.to_owned(),
            log,
        };
        mentat.spawn();
        mentat.wait_healthy(Duration::from_secs(60)).await;
        mentat
    }

    fn spawn(&mut self) {
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.log)
            .expect("log file");
        let child = Command::new(Self::bin())
            .arg("serve")
            .env("DATABASE_URL", &self.database_url)
            .env("PORT", self.addr.port().to_string())
            .env("RUST_LOG", "warn")
            .env("LEPTOS_SITE_ROOT", std::env::temp_dir())
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .expect("mentat serve");
        self.child = Some(child);
    }

    pub async fn wait_healthy(&self, limit: Duration) {
        let deadline = Instant::now() + limit;
        while Instant::now() < deadline {
            if let Ok(reply) = super::client::get(self.addr, "/healthz", None).await
                && reply.status == 200
            {
                return;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        panic!(
            "mentat on {} did not become healthy; its log:\n{}",
            self.addr,
            std::fs::read_to_string(&self.log).unwrap_or_default()
        );
    }

    /// SIGKILL: no shutdown, requests in flight are cut.
    pub fn kill(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// Starts again on the same port, after [`Mentat::kill`].
    pub async fn restart(&mut self) {
        self.kill();
        self.spawn();
        self.wait_healthy(Duration::from_secs(60)).await;
    }

    pub fn log_text(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }
}

impl Drop for Mentat {
    fn drop(&mut self) {
        self.kill();
    }
}
