//! What a process used, read from Linux's `/proc`: its peak resident
//! memory, its CPU seconds, and the machine's load average (`None` where
//! `/proc` is not readable). The timing examples and xtask's scaling
//! benchmark (its child processes) measure with these.

/// The `VmHWM` (peak resident set) line of a `/proc/<pid>/status` text,
/// in MiB.
pub fn parse_vm_hwm(status: &str) -> Option<f64> {
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: f64 = line
        .trim_start_matches("VmHWM:")
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    Some(kib / 1024.0)
}

/// The peak resident memory of process `pid` (`"self"` for this one), MiB;
/// `None` where `/proc` is not readable.
pub fn peak_mib(pid: &str) -> Option<f64> {
    parse_vm_hwm(&std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?)
}

/// The user plus system time of a `/proc/<pid>/stat` text, in clock
/// ticks (fields 14 and 15, counted after the command name's closing
/// parenthesis, which may itself hold spaces).
pub fn parse_cpu_ticks(stat: &str) -> Option<u64> {
    let rest = &stat[stat.rfind(')')? + 1..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // `rest` starts at field 3 (the state).
    let utime: u64 = fields.get(11)?.parse().ok()?;
    let stime: u64 = fields.get(12)?.parse().ok()?;
    Some(utime + stime)
}

/// CPU seconds this process has used, all threads (Linux's `USER_HZ` is
/// 100 ticks a second on every architecture Rust targets).
pub fn cpu_seconds() -> Option<f64> {
    let ticks = parse_cpu_ticks(&std::fs::read_to_string("/proc/self/stat").ok()?)?;
    Some(ticks as f64 / 100.0)
}

/// The machine's one-minute load average, if `/proc/loadavg` is readable.
pub fn load_average() -> Option<f64> {
    std::fs::read_to_string("/proc/loadavg")
        .ok()?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vm_hwm_is_read_in_mib() {
        let status = "Name:\tscaling\nVmPeak:\t  30000 kB\nVmHWM:\t    2048 kB\nVmRSS:\t 1024 kB\n";
        assert_eq!(parse_vm_hwm(status), Some(2.0));
        assert_eq!(parse_vm_hwm("Name: x\n"), None);
    }

    #[test]
    fn cpu_ticks_are_read_after_the_command_name() {
        let stat = "4242 (my (odd) prog) R 1 2 3 4 5 6 7 8 9 10 250 30 0 0 20 0 3 0";
        assert_eq!(parse_cpu_ticks(stat), Some(280));
        assert_eq!(parse_cpu_ticks("4242 (x) R 1 2"), None);
        assert_eq!(parse_cpu_ticks("no parenthesis"), None);
    }
}
