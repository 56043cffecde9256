"""Network faults between Footnote and its database, as plain sockets on 127.0.0.1.

`Blackhole` accepts TCP connections and never says a word (a firewall that drops, a hung host).
`Cable` forwards TCP to the real Postgres and can be unplugged (every open connection cut, new
ones refused) and plugged back on the same port, or frozen: connections stay open and bytes stop
flowing both ways, as when the server process is stopped (SIGSTOP) and the kernel still holds its
sockets.
"""

from __future__ import annotations

import socket
import threading


class Blackhole:
    def __init__(self):
        self._sock = socket.create_server(("127.0.0.1", 0))
        self.port = self._sock.getsockname()[1]
        self._held: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self._sock.accept()
            except OSError:
                return
            self._held.append(conn)

    def close(self) -> None:
        try:
            self._sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self._sock.close()
        for conn in self._held:
            conn.close()


class Cable:
    def __init__(self, target: tuple[str, str | int]):
        """`target`: ("unix", "/path/.s.PGSQL.5432") or ("tcp", "host:port")."""
        self.target = target
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port = self._listener.getsockname()[1]
        self._open: list[socket.socket] = []
        self._lock = threading.Lock()
        self._flowing = threading.Event()
        self._flowing.set()
        self._serve()

    def _serve(self) -> None:
        threading.Thread(target=self._accept, args=(self._listener,), daemon=True).start()

    def _connect_target(self) -> socket.socket:
        kind, where = self.target
        if kind == "unix":
            upstream = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            upstream.connect(where)
            return upstream
        host, port = str(where).rsplit(":", 1)
        return socket.create_connection((host, int(port)))

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return
            upstream = self._connect_target()
            with self._lock:
                self._open += [client, upstream]
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    def _pipe(self, src: socket.socket, dst: socket.socket) -> None:
        try:
            while data := src.recv(65536):
                self._flowing.wait()
                dst.sendall(data)
        except OSError:
            pass
        finally:
            for s in (src, dst):
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def unplug(self) -> None:
        try:
            self._listener.shutdown(socket.SHUT_RDWR)  # wakes the thread blocked in accept()
        except OSError:
            pass
        self._listener.close()
        with self._lock:
            for s in self._open:
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
                s.close()
            self._open.clear()

    def freeze(self) -> None:
        self._flowing.clear()

    def thaw(self) -> None:
        self._flowing.set()

    def plug(self) -> None:
        self._listener = socket.create_server(("127.0.0.1", self.port))
        self._serve()
