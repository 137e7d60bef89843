//! The programs the tests start, and how a missing one is provided.
//!
//! The decision ([`plan`]) is a plain function of what the machine allows,
//! so its sentences are tested without installing anything; [`Prerequisite::provide`]
//! probes the machine and carries the plan out.

use std::path::Path;
use std::process::{Command, Stdio};

/// A program some tests start, and the Debian package that provides it.
pub(crate) struct Prerequisite {
    pub(crate) program: &'static str,
    pub(crate) package: &'static str,
    pub(crate) why: &'static str,
}

/// Every program the workspace's tests start that the toolchain does not bring.
pub(crate) const PREREQUISITES: &[Prerequisite] = &[Prerequisite {
    program: "redis-server",
    package: "redis-server",
    why: "the Redis flag store and replica tests start their own",
}];

/// How a prerequisite came to be there.
#[derive(Debug, PartialEq)]
pub(crate) enum Provided {
    AlreadyThere,
    Installed,
}

/// What this machine lets a missing program be installed with.
#[derive(Clone, Copy)]
struct Machine {
    root: bool,
    passwordless_sudo: bool,
    apt: bool,
}

/// What to do about a missing program.
#[derive(Debug, PartialEq)]
enum Plan {
    /// Install it with apt-get, through `sudo -n` unless already root.
    Install { sudo: bool },
    /// It cannot be provided: the sentence says what to do instead.
    Refuse(String),
}

fn plan(needed: &Prerequisite, machine: Machine) -> Plan {
    let Prerequisite {
        program, package, ..
    } = needed;
    if !machine.apt {
        return Plan::Refuse(format!(
            "{program} is not installed and this machine has no apt-get to install it with: \
             install the package that provides {program} with your package manager \
             (Debian's is `{package}`: `sudo apt-get install {package}`; \
             on macOS `brew install redis`), then run `cargo xtask test` again."
        ));
    }
    if machine.root {
        return Plan::Install { sudo: false };
    }
    if machine.passwordless_sudo {
        return Plan::Install { sudo: true };
    }
    Plan::Refuse(format!(
        "{program} is not installed and this user cannot install it \
         (not root, and sudo asks for a password): install the Debian package {package} \
         with `sudo apt-get install {package}`, then run `cargo xtask test` again."
    ))
}

impl Prerequisite {
    /// Makes sure the program is on `PATH`, installing its package when it
    /// is missing and the machine allows it; the error is the one sentence
    /// to print.
    pub(crate) fn provide(&self) -> Result<Provided, String> {
        if on_path(self.program) {
            return Ok(Provided::AlreadyThere);
        }
        let sudo = match plan(self, Machine::probe()) {
            Plan::Refuse(sentence) => return Err(sentence),
            Plan::Install { sudo } => sudo,
        };
        eprintln!(
            "xtask: {} is not installed ({}); installing the Debian package {} with apt-get",
            self.program, self.why, self.package
        );
        let apt = |args: &[&str]| -> Result<(), String> {
            let mut command = if sudo {
                let mut c = Command::new("sudo");
                c.args(["-n", "apt-get"]);
                c
            } else {
                Command::new("apt-get")
            };
            let status = command
                .args(args)
                .env("DEBIAN_FRONTEND", "noninteractive")
                .stdout(Stdio::null())
                .status()
                .map_err(|e| e.to_string())?;
            if status.success() {
                Ok(())
            } else {
                Err(format!("apt-get {} exited with {status}", args[0]))
            }
        };
        apt(&["update", "-qq"])
            .and_then(|()| apt(&["install", "-y", "-qq", self.package]))
            .map_err(|why| {
                format!(
                    "installing the Debian package {} failed ({why}; apt-get's messages are above): \
                     install it with `sudo apt-get install {}`, then run `cargo xtask test` again.",
                    self.package, self.package
                )
            })?;
        if on_path(self.program) {
            Ok(Provided::Installed)
        } else {
            Err(format!(
                "the Debian package {} installed, but {} is still not on PATH ({}): \
                 add the folder that holds it to PATH, then run `cargo xtask test` again.",
                self.package,
                self.program,
                std::env::var("PATH").unwrap_or_default()
            ))
        }
    }
}

impl Machine {
    fn probe() -> Machine {
        let succeeds = |program: &str, args: &[&str]| {
            Command::new(program)
                .args(args)
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status()
                .is_ok_and(|s| s.success())
        };
        let root = Command::new("id")
            .arg("-u")
            .output()
            .is_ok_and(|out| out.stdout.trim_ascii() == b"0");
        Machine {
            root,
            passwordless_sudo: !root && succeeds("sudo", &["-n", "true"]),
            apt: on_path("apt-get"),
        }
    }
}

fn on_path(program: &str) -> bool {
    std::env::var_os("PATH").is_some_and(|path| {
        std::env::split_paths(&path).any(|dir| is_executable(&dir.join(program)))
    })
}

#[cfg(unix)]
fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    path.metadata()
        .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

#[cfg(not(unix))]
fn is_executable(path: &Path) -> bool {
    path.is_file()
}

#[cfg(test)]
mod tests {
    use super::*;

    const REDIS: &Prerequisite = &PREREQUISITES[0];

    fn machine(root: bool, passwordless_sudo: bool, apt: bool) -> Machine {
        Machine {
            root,
            passwordless_sudo,
            apt,
        }
    }

    #[test]
    fn root_installs_with_apt_get_directly() {
        assert_eq!(
            plan(REDIS, machine(true, false, true)),
            Plan::Install { sudo: false }
        );
    }

    #[test]
    fn a_user_with_passwordless_sudo_installs_through_sudo() {
        assert_eq!(
            plan(REDIS, machine(false, true, true)),
            Plan::Install { sudo: true }
        );
    }

    #[test]
    fn a_user_who_cannot_install_is_told_the_package_and_the_command() {
        let Plan::Refuse(sentence) = plan(REDIS, machine(false, false, true)) else {
            panic!("refused");
        };
        assert_eq!(
            sentence,
            "redis-server is not installed and this user cannot install it (not root, and sudo \
             asks for a password): install the Debian package redis-server with \
             `sudo apt-get install redis-server`, then run `cargo xtask test` again."
        );
    }

    #[test]
    fn a_machine_without_apt_get_is_told_what_to_install_whoever_runs_it() {
        for root in [true, false] {
            let Plan::Refuse(sentence) = plan(REDIS, machine(root, !root, false)) else {
                panic!("refused");
            };
            assert!(
                sentence
                    .starts_with("redis-server is not installed and this machine has no apt-get")
                    && sentence.contains("`sudo apt-get install redis-server`"),
                "{sentence}"
            );
        }
    }

    #[test]
    fn a_program_is_found_only_where_path_lists_it() {
        assert!(
            on_path("cargo") || on_path("rustc"),
            "the toolchain is on PATH"
        );
        assert!(!on_path("no-such-program-tooltable-xtask"));
    }
}
