//! Offering a solution to the store: under an exclusive `flock` on the entry's lock file, read
//! what is there and replace it (temp file, fsync, rename, fsync of the directory) only if better.

use super::entry::Entry;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::os::fd::AsRawFd;
use std::path::{Path, PathBuf};

/// What an offer did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Offer {
    /// Written: there was nothing (None), a worse score, or an unreadable file (its reason).
    Stored { replaced: Option<i64> },
    /// Not written: the store holds this score, at least as good.
    Kept { best: i64 },
}

/// The entry's file: DIR/<problem>/<instance>.json.
pub fn entry_path(dir: &Path, problem: &str, instance: &str) -> PathBuf {
    dir.join(problem).join(format!("{instance}.json"))
}

/// Stores `entry` in `dir` if it beats the stored one for its (problem, instance). Several
/// processes may call this at once on the same directory, locally or over shared storage whose
/// `flock` is honoured across machines (see README "Beyond one machine" for NFS).
pub fn offer(dir: &Path, entry: &Entry) -> io::Result<Offer> {
    entry
        .check_names()
        .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))?;
    let folder = dir.join(&entry.problem);
    fs::create_dir_all(&folder)?;
    let _lock = Lock::exclusive(&folder.join(format!(".{}.lock", entry.instance)))?;
    let path = entry_path(dir, &entry.problem, &entry.instance);
    let stored = match fs::read_to_string(&path) {
        Ok(text) => Entry::parse(&text).ok().map(|e| e.score),
        Err(e) if e.kind() == io::ErrorKind::NotFound => None,
        Err(e) => return Err(e),
    };
    if let Some(best) = stored.filter(|&best| best >= entry.score) {
        return Ok(Offer::Kept { best });
    }
    write_atomically(&folder, &path, entry.to_text().as_bytes())?;
    Ok(Offer::Stored { replaced: stored })
}

/// Writes `bytes` to `path` so that a reader sees the old file or the whole new one, never a
/// part, even if this process or the machine dies half-way.
pub fn write_atomically(folder: &Path, path: &Path, bytes: &[u8]) -> io::Result<()> {
    let name = path
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    let temp = folder.join(format!(".{name}.{}.{nanos}.tmp", std::process::id()));
    let written = (|| {
        let mut file = File::create(&temp)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        fs::rename(&temp, path)
    })();
    if written.is_err() {
        let _ = fs::remove_file(&temp);
    }
    written?;
    // The rename itself is durable once the directory is.
    File::open(folder)?.sync_all()
}

/// An exclusive advisory lock, held until dropped (closing the file releases it).
struct Lock {
    _file: File,
}

impl Lock {
    fn exclusive(path: &Path) -> io::Result<Lock> {
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(path)?;
        loop {
            // SAFETY: flock reads only its arguments; the descriptor is open for the call.
            let status = unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX) };
            if status == 0 {
                return Ok(Lock { _file: file });
            }
            let error = io::Error::last_os_error();
            if error.kind() != io::ErrorKind::Interrupted {
                return Err(error);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("podium-put-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn only_a_better_score_replaces_the_entry() {
        let dir = temp_dir("better");
        let entry = |score| Entry::new("slider", "seed-1".into(), score, format!("{score}\n"));
        assert_eq!(
            offer(&dir, &entry(10)).unwrap(),
            Offer::Stored { replaced: None }
        );
        assert_eq!(offer(&dir, &entry(7)).unwrap(), Offer::Kept { best: 10 });
        assert_eq!(offer(&dir, &entry(10)).unwrap(), Offer::Kept { best: 10 });
        assert_eq!(
            offer(&dir, &entry(12)).unwrap(),
            Offer::Stored { replaced: Some(10) }
        );
        let text = fs::read_to_string(entry_path(&dir, "slider", "seed-1")).unwrap();
        assert_eq!(Entry::parse(&text).unwrap().score, 12);
        let leftovers: Vec<_> = fs::read_dir(dir.join("slider"))
            .unwrap()
            .filter_map(|e| e.ok())
            .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
            .collect();
        assert!(leftovers.is_empty());
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_corrupt_file_is_replaced_and_a_bad_key_refused() {
        let dir = temp_dir("corrupt");
        fs::create_dir_all(dir.join("slider")).unwrap();
        fs::write(entry_path(&dir, "slider", "seed-2"), "{\"problem\": tru").unwrap();
        let entry = Entry::new("slider", "seed-2".into(), 5, "0\n".into());
        assert_eq!(
            offer(&dir, &entry).unwrap(),
            Offer::Stored { replaced: None }
        );
        let bad = Entry::new("slider", "../x".into(), 5, "0\n".into());
        assert_eq!(
            offer(&dir, &bad).unwrap_err().kind(),
            io::ErrorKind::InvalidInput
        );
        fs::remove_dir_all(&dir).unwrap();
    }
}
