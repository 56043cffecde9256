"""CPU-seconds of the processes an ingest runs on, for `footnote bench ingest`.

Why: the bench's ratio (pipeline wall time against raw embedding's, same chunks) is only
meaningful on an idle machine, and the shared 2-core machine is rarely idle. CPU-seconds hold
under load: with both cores busy the pipeline can be at best raw/(raw + everything beside the
embedder) as fast as raw embedding, so the bench reports that bound and what makes it up (the
main process: embedding, the writer thread, the rest; the parse worker; Postgres).
"""

from __future__ import annotations

import os
import resource
from pathlib import Path

_TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def own_cpu() -> float:
    """This process's CPU-seconds so far, all its threads."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def server_cpu(pgdata: Path | None) -> float | None:
    """CPU-seconds of the Postgres server whose data folder is `pgdata`: the postmaster, its
    reaped children (backends that have exited) and its live ones. None when it cannot be read
    (another host's server, not Linux)."""
    if pgdata is None:
        return None
    try:
        pid = int((Path(pgdata) / "postmaster.pid").read_text().split()[0])
        fields = _stat(pid)
        total = sum(int(f) for f in fields[11:15]) / _TICK  # utime, stime, cutime, cstime
        for entry in os.scandir("/proc"):
            if entry.name.isdigit():
                try:
                    child = _stat(int(entry.name))
                except (OSError, ValueError, IndexError):
                    continue  # gone meanwhile
                if int(child[1]) == pid:
                    total += (int(child[11]) + int(child[12])) / _TICK
        return total
    except (OSError, ValueError, IndexError):
        return None


def _stat(pid: int) -> list[str]:
    """/proc/<pid>/stat after the command name: index 1 is the parent pid, 11 and 12 utime and stime."""
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
